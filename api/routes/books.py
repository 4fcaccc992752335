"""The club's books: members' accounts across sessions, the club's accounts, the open debts,
the season's standings; payments, write-offs and the cash counted at a session's close.

Reads: admin, treasurer, auditor. Writes: the treasurer, with `Idempotency-Key` (a retry
returns the stored first answer, `Idempotent-Replayed: true`). docs/books.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import url_for
from flask.views import MethodView

from api.http.auth import (
    ACCOUNT_READERS,
    BOOK_READERS,
    BOOKKEEPERS,
    CURRENCY_SETTERS,
    requires,
)
from api.http.context import books, check_session_id
from api.http.formats import CSV_MIMETYPE, wanted_format, wants_csv
from api.http.forms import (
    account_csv,
    club_page,
    debts_csv,
    member_page,
    payables_csv,
    register_answer,
    settle_up_csv,
)
from api.http.inputs import Blueprint
from api.http.writing import (
    ENTRY_HEADERS,
    WRITE_ERRORS,
    errors,
    write_doc,
    write_request,
    written,
)
from api.pages.printable import HTML_MIMETYPE
from api.schemas.books import (
    AccountQuery,
    AccountSchema,
    AccountsQuery,
    AccountsSchema,
    AsOfQuery,
    BookEntrySchema,
    BookRegisterPageSchema,
    CashDifferenceIn,
    CashIn,
    CsvQuery,
    CurrenciesIn,
    CurrenciesSchema,
    DebtsSchema,
    FloatIn,
    OpenItemsQuery,
    PayablesSchema,
    PaymentIn,
    RegisterQuery,
    ReversalIn,
    SeasonQuery,
    SessionAccountsQuery,
    SessionAccountsSchema,
    SettleUpSchema,
    StandingsSchema,
    WriteOffIn,
)
from ledger.books.accountreads import CHECKED_FROM

CHAIN_CHECKED_FROM = "Loo-Chain-Checked-From"

blp = Blueprint("books", __name__, url_prefix="",
                description="The club's books: accounts, debts, standings, payments, "
                            "write-offs and the cash counted.")
blp.url_value_preprocessor(check_session_id)

@blp.route("/payments")
class Payments(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, PaymentIn, "recordPayment")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS)
    def post(self, data: dict[str, Any]):
        """Record a payment

        Who paid whom (a member's id or name, or "club"), how much in minor units, in which
        currency, how (cash, transfer, other), against which session if any. Refused (422)
        beyond what the schema says: a payer who is the payee (`payer-is-payee`), a party
        who is not a member of the club, a session of another club.
        """
        return written(books().record_payment(**data, request=write_request()))


@blp.route("/write-offs")
class WriteOffs(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, WriteOffIn, "writeOffDebt")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS)
    def post(self, data: dict[str, Any]):
        """Write off a debt

        Give up some or all of what a member owes in one currency, with a reason; never more
        than he owes (422 naming `owes_minor` otherwise), and only a member of the club.
        """
        return written(books().write_off(**data, request=write_request()))


@blp.route("/sessions/<session_id>/cash")
class Cash(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, CashIn, "countCash")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS, "CONFLICT")
    def post(self, data: dict[str, Any], session_id: str):
        """Record the cash counted on the table at the session's close

        The statement's `cash` section then compares it with what the ledger expects.
        """
        return written(books().count_cash(session_id, **data, request=write_request()))


@blp.route("/sessions/<session_id>/float")
class Float(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, FloatIn, "openFloat")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS)
    def post(self, data: dict[str, Any], session_id: str):
        """Record the float put in the session's tin

        The club's cash the tin starts with, in the session's currency: the cash check
        expects it back at the close (payouts from it, to a guest, counted against it).
        """
        return written(books().open_float(session_id, **data, request=write_request()))


@blp.route("/sessions/<session_id>/cash-differences")
class CashDifferences(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, CashDifferenceIn, "bookCashDifference")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS, "CONFLICT")
    def post(self, data: dict[str, Any], session_id: str):
        """Book a tin's shortage or surplus

        Against the club (its cash-over-short account) or a member who answers for it, with
        a reason; at most what the session's cash check leaves unbooked, of that sign.
        """
        return written(books().book_cash_difference(session_id, **data,
                                                    request=write_request()))


@blp.route("/book-entries/<int:seq>/reversal")
class Reversal(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, ReversalIn, "reverseBookEntry")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS, "CONFLICT")
    def post(self, data: dict[str, Any], seq: int):
        """Reverse a book entry

        Cancel a mistaken payment, write-off or cash count with a reason: a new entry
        (`EntryReversed`) posts its postings back; the entry itself stays as it was. An
        entry is reversed once (409 `entry-already-reversed`); a reversal is not reversed.
        """
        return written(books().reverse(seq, **data, request=write_request()))


@blp.route("/club/currencies")
class Currencies(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getClubCurrencies")
    @blp.arguments(AsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, CurrenciesSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, as_of: str | None = None):
        """Read the currencies the club keeps

        Its own currency and the others it accepts payments in (GBP alone until set).
        """
        return books().currencies(as_of=as_of)

    @requires(*CURRENCY_SETTERS)
    @write_doc(blp, CurrenciesIn, "setClubCurrencies")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS)
    def put(self, data: dict[str, Any]):
        """Set the currencies the club keeps

        ISO 4217 codes only; the admin or the treasurer. Recorded in the book log
        (`CurrenciesSet`); balances already held in a currency the club no longer keeps stay
        as they are.
        """
        return written(books().set_currencies(**data, request=write_request()))


@blp.route("/book-entries")
class Register(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="bookRegister")
    @blp.arguments(RegisterQuery, location="query")
    @blp.response(200, BookRegisterPageSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="The page as CSV (?format=csv or Accept: text/csv)")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, query: dict[str, Any]):
        """The book log as a register

        Payments, write-offs, cash counts, reversals and changes of currency, in the order
        they were recorded, filtered by member, kind, method, session, currency and period;
        a reversal shows what it cancelled and the cancelled entry `reversed_by`. Paged by
        `seq`: follow `next_after` (or `next`, or the Link header) until it is null.
        """
        return register_answer(query, csv=wants_csv(query.get("format")))


@blp.route("/members/<member_id>/account")
class MemberAccount(MethodView):
    @requires(*ACCOUNT_READERS, own="member_id")
    @blp.doc(operationId="getMemberAccount")
    @blp.arguments(AccountQuery, location="query", as_kwargs=True)
    @blp.response(200, AccountSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="Every entry, as CSV, for ?format=csv or Accept: text/csv")
    @blp.alt_response(200, success=True, content_type=HTML_MIMETYPE,
                      schema={"type": "string"},
                      description="The member's own page, for ?format=html or Accept: "
                                  "text/html")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, member_id: str, after: int, limit: int, bom: bool,
            format: str | None = None, as_of: str | None = None):  # noqa: A002
        """Read a member's account across sessions

        Every entry in time order (session results, payments, write-offs, reversals) with a
        running balance per currency; what he owes or is owed, from which sessions, since
        when (payments settle the oldest debts first). Paged: follow `next`. `as_of` reads
        it as it stood then. A member's token reads its own member's only. As a page
        (`format=html`): his balance, what is open, his sessions and his line of each.
        """
        wanted = wanted_format(format)
        if wanted == "html":
            return member_page(member_id, as_of)
        if wanted == "csv":
            return account_csv(member_id, as_of=as_of, bom=bom)
        data = books().account(member_id, after=after, limit=limit, as_of=as_of)
        args: dict[str, Any] = {"as_of": as_of} if as_of else {}
        data["next"] = None if data["next_after"] is None else url_for(
            "books.MemberAccount", member_id=member_id, after=data["next_after"], limit=limit,
            **args)
        return data


@blp.route("/accounts")
class Accounts(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getAccounts")
    @blp.arguments(AccountsQuery, location="query", as_kwargs=True)
    @blp.response(200, AccountsSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, after: int, limit: int, as_of: str | None = None):
        """Read the club's accounts

        Every member's balance per currency (a page of members, by name: follow `next`),
        the club's cash, bank, written-off and over-and-short accounts, what is left in the
        sessions' own accounts summed per currency (each one: `/accounts/sessions`), and the
        check that every account sums to zero in each currency (over every account, whatever
        the page); the book log's chain checked from the head last verified
        (the header Loo-Chain-Checked-From: 0, the whole log).
        """
        data = books().accounts(as_of=as_of, after=after, limit=limit)
        checked_from = data.pop(CHECKED_FROM)
        body, status, headers = paged(data, "books.Accounts", limit, as_of=as_of)
        # the entry after which the chain was rehashed for this answer (0: all of it)
        return body, status, {**headers, CHAIN_CHECKED_FROM: str(checked_from)}


@blp.route("/accounts/sessions")
class SessionAccounts(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getSessionAccounts")
    @blp.arguments(SessionAccountsQuery, location="query", as_kwargs=True)
    @blp.response(200, SessionAccountsSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, after: str, limit: int, as_of: str | None = None):
        """Read the sessions' own accounts

        Each session's own account (what is left in its pools), a page at a time by session
        id: follow `next` (or the Link header) until it is null. Their sum per currency is
        `/accounts`' `club.left_in_sessions`.
        """
        data = books().session_accounts(as_of=as_of, after=after, limit=limit)
        return paged(data, "books.SessionAccounts", limit, as_of=as_of)



@blp.route("/debts")
class Debts(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getDebts")
    @blp.arguments(OpenItemsQuery, location="query", as_kwargs=True)
    @blp.response(200, DebtsSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="The open debts as CSV, all of them")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, bom: bool, after: int, limit: int, format: str | None = None,  # noqa: A002
            as_of: str | None = None):
        """Read the open debts, oldest first

        Who owes the club, how much, from which session (or entry), since when; a page of
        them (follow `next`), the totals over all.
        """
        if wants_csv(format):
            return debts_csv(as_of=as_of, bom=bom)
        # written straight as JSON (the schema documents it), as the account is
        return paged(books().debts(as_of=as_of, after=after, limit=limit), "books.Debts",
                     limit, as_of=as_of)


@blp.route("/payables")
class Payables(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getPayables")
    @blp.arguments(OpenItemsQuery, location="query", as_kwargs=True)
    @blp.response(200, PayablesSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="What the club owes, as CSV, all of it")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, bom: bool, after: int, limit: int, format: str | None = None,  # noqa: A002
            as_of: str | None = None):
        """Read what the club owes, oldest first

        Whom the club owes, how much, from which session (or entry), since when; a page of
        it (follow `next`), the totals over all.
        """
        if wants_csv(format):
            return payables_csv(as_of=as_of, bom=bom)
        return paged(books().payables(as_of=as_of, after=after, limit=limit),
                     "books.Payables", limit, as_of=as_of)



@blp.route("/settle-up")
class SettleUp(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getSettleUp")
    @blp.arguments(CsvQuery, location="query", as_kwargs=True)
    @blp.response(200, SettleUpSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="Who pays whom, one row each, as CSV")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, bom: bool, format: str | None = None,  # noqa: A002
            as_of: str | None = None):
        """Settle up with the club

        Per currency: who pays the club, whom the club pays, its cash and bank, what it
        gave up, and the check that these add up. Everyone settles with the club.
        """
        if wants_csv(format):
            return settle_up_csv(as_of=as_of, bom=bom)
        return books().settle_up(as_of=as_of)


@blp.route("/standings")
class Standings(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getStandings")
    @blp.arguments(SeasonQuery, location="query", as_kwargs=True)
    @blp.response(200, StandingsSchema)
    @blp.alt_response(200, success=True, content_type=HTML_MIMETYPE, schema={"type": "string"},
                      description="The club's page: standings, open debts and what the club "
                                  "owes, printable")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, after: int, limit: int, since: datetime | None = None,
            until: datetime | None = None, format: str | None = None,  # noqa: A002
            as_of: str | None = None):
        """Read the season's standings

        Per member, over the sessions that ended between `since` and `until`: sessions,
        deals dealt, net in units and in money, loos and penalties; sorted by name, a page
        of members (follow `next`). As a page (`format=html` or Accept: text/html), every
        member, with the open debts and what the club owes.
        """
        if wanted_format(format) == "html":
            return club_page(since, until, as_of=as_of)
        data = books().standings(since=since, until=until, as_of=as_of, after=after,
                                 limit=limit)
        return paged(data, "books.Standings", limit, as_of=as_of, since=since, until=until)


def paged(data: dict[str, Any], endpoint: str, limit: int, **args: Any
          ) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A page of a list as JSON, with `next` (the next page's URL, with the same query) and
    its `Link` header when `next_after` says more follow (docs/api.md, "Paging")."""
    query: dict[str, Any] = {k: v.isoformat() if isinstance(v, datetime) else v
                             for k, v in args.items() if v is not None}
    headers = {"Vary": "Accept"}
    data["next"] = None
    if data["next_after"] is not None:
        data["next"] = url_for(endpoint, **query, after=data["next_after"], limit=limit)
        headers["Link"] = f'<{data["next"]}>; rel="next"'
    return data, 200, headers
