"""The club's books: members' accounts across sessions, the club's accounts, the open debts,
the season's standings; payments, write-offs and the cash counted at a session's close.

Reads: admin, treasurer, auditor. Writes: the treasurer, with `Idempotency-Key` (a retry
returns the stored first answer, `Idempotent-Replayed: true`). docs/books.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Response, url_for
from flask.views import MethodView

from .auth import ADMIN, AUDITOR, TREASURER, principal, requires
from .books_schemas import (
    AccountSchema,
    AccountsSchema,
    BookEntrySchema,
    CashIn,
    DebtsSchema,
    FormatQuery,
    PageQuery,
    PaymentIn,
    SeasonQuery,
    StandingsSchema,
    WriteOffIn,
)
from .context import books, check_session_id
from .inputs import Blueprint, header_params, json_object
from .pages import HTML_MIMETYPE, render_club_page
from .statement import CSV_MIMETYPE, wanted_format, wants_csv
from .writing import json_response, write_request, written

BOOK_READERS = (ADMIN, TREASURER, AUDITOR)
BOOKKEEPERS = (TREASURER,)

blp = Blueprint("books", __name__, url_prefix="",
                description="The club's books: accounts, debts, standings, payments, "
                            "write-offs and the cash counted.")
blp.url_value_preprocessor(check_session_id)

ENTRY_HEADERS = {"Idempotent-Replayed": {
    "description": "true when this is the stored answer to an earlier request with the same "
                   "Idempotency-Key", "schema": {"type": "string", "enum": ["true"]}}}


def _csv(text: str, filename: str) -> Response:
    return Response(text, mimetype=CSV_MIMETYPE, headers={
        "Content-Disposition": f'attachment; filename="{filename}"', "Vary": "Accept"})


WRITE_ERRORS = ("BAD_REQUEST", "NOT_FOUND", "UNSUPPORTED_MEDIA_TYPE", "UNPROCESSABLE_ENTITY")


def _write_doc(schema: type, operation: str) -> Any:
    return blp.doc(operationId=operation, parameters=header_params("Idempotency-Key"),
                   requestBody={"required": True,
                                "content": {"application/json": {"schema": schema}}})


def _errors(*names: str) -> Any:
    def decorate(view: Any) -> Any:
        for name in names:
            status = {"BAD_REQUEST": 400, "NOT_FOUND": 404, "CONFLICT": 409,
                      "UNSUPPORTED_MEDIA_TYPE": 415, "UNPROCESSABLE_ENTITY": 422}[name]
            view = blp.alt_response(status, response=name)(view)
        return view
    return decorate


@blp.route("/payments")
class Payments(MethodView):
    @requires(*BOOKKEEPERS)
    @_write_doc(PaymentIn, "recordPayment")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @_errors(*WRITE_ERRORS)
    def post(self):
        """Record a payment

        Who paid whom (a member's id or name, or "club"), how much in minor units, in which
        currency, how (cash, transfer, other), against which session if any.
        """
        data = PaymentIn().load(json_object())
        return written(books().record_payment(**data, request=write_request()))


@blp.route("/write-offs")
class WriteOffs(MethodView):
    @requires(*BOOKKEEPERS)
    @_write_doc(WriteOffIn, "writeOffDebt")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @_errors(*WRITE_ERRORS)
    def post(self):
        """Write off a debt

        Give up some or all of what a member owes in one currency, with a reason; never more
        than he owes.
        """
        data = WriteOffIn().load(json_object())
        return written(books().write_off(**data, request=write_request()))


@blp.route("/sessions/<session_id>/cash")
class Cash(MethodView):
    @requires(*BOOKKEEPERS)
    @_write_doc(CashIn, "countCash")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @_errors(*WRITE_ERRORS, "CONFLICT")
    def post(self, session_id: str):
        """Record the cash counted on the table at the session's close

        The statement's `cash` section then compares it with what the ledger expects.
        """
        data = CashIn().load(json_object())
        return written(books().count_cash(session_id, **data, request=write_request()))


@blp.route("/members/<member_id>/account")
class MemberAccount(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getMemberAccount")
    @blp.arguments(PageQuery, location="query", as_kwargs=True)
    @blp.response(200, AccountSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="Every entry, as CSV, for ?format=csv or Accept: text/csv")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, member_id: str, after: int, limit: int, format: str | None = None):  # noqa: A002
        """Read a member's account across sessions

        Every entry in time order (session results, payments, write-offs) with a running
        balance per currency; what he owes or is owed, from which sessions, since when
        (payments settle the oldest debts first). Paged: follow `next`.
        """
        if wants_csv(format):
            return _csv(books().account_csv(member_id), f"lanterloo-account-{member_id}.csv")
        data = books().account(member_id, after=after, limit=limit)
        data["next"] = None if data["next_after"] is None else url_for(
            "books.MemberAccount", member_id=member_id, after=data["next_after"], limit=limit)
        # Written straight as JSON (the schema documents it), as the audit pages are:
        # marshmallow's dump of a page and the open items was a fifth of the read
        # (docs/audit.md's benchmark).
        return json_response(data)


@blp.route("/accounts")
class Accounts(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getAccounts")
    @blp.response(200, AccountsSchema)
    def get(self):
        """Read the club's accounts

        Every member's balance per currency, the club's cash, bank and written-off accounts,
        and the check that every account sums to zero in each currency.
        """
        return books().accounts()


@blp.route("/debts")
class Debts(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getDebts")
    @blp.arguments(FormatQuery, location="query", as_kwargs=True)
    @blp.response(200, DebtsSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="The open debts as CSV")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, format: str | None = None):  # noqa: A002
        """Read the open debts, oldest first

        Who owes the club, how much, from which session, since when.
        """
        if wants_csv(format):
            return _csv(books().debts_csv(), "lanterloo-debts.csv")
        return books().debts()


@blp.route("/standings")
class Standings(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getStandings")
    @blp.arguments(SeasonQuery, location="query", as_kwargs=True)
    @blp.response(200, StandingsSchema)
    @blp.alt_response(200, success=True, content_type=HTML_MIMETYPE, schema={"type": "string"},
                      description="The club's page: standings and open debts, printable")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, since: datetime | None = None, until: datetime | None = None,
            format: str | None = None):  # noqa: A002
        """Read the season's standings

        Per member, over the sessions that ended between `since` and `until`: sessions,
        deals dealt, net in units and in money, loos and penalties; sorted by name. As a page
        (`format=html` or Accept: text/html), with the open debts beside them.
        """
        standings = books().standings(since=since, until=until)
        if wanted_format(format) == "html":
            caller = principal()
            page = render_club_page({"club_id": caller.club_id, "club": caller.club_name},
                                    standings, books().debts())
            return Response(page, mimetype=HTML_MIMETYPE, headers={"Vary": "Accept"})
        return standings, 200, {"Vary": "Accept"}
