"""Schemas of the club's books (docs/books.md): what the book routes accept and return.

Requests take JSON integers as integers and refuse unknown members; the ranges and the rules
(a positive amount, a known currency, a reason for a write-off) are the domain's, so that a
refusal names its rule (ledger/domain/accounts.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from marshmallow import fields, validate

from api.schemas import KnownQuery, Open, Strict, printable
from api.schemas.records import family, record_schema
from api.schemas.views import CashCheckSchema
from ledger.books.reads import KINDS
from ledger.domain.accounts import EntryKind
from ledger.domain.bookentries import (
    BOOK_ENTRY_TYPES,
    MAX_TEXT,
    PaymentMethod,
)
from ledger.domain.limits import ID_LENGTH, STREAM_ID_LENGTH


class BooksAsOfSchema(Open):
    """The point a read as of was made at: as asked, the book position and the time."""

    asked = fields.String(required=True)
    seq = fields.Integer(required=True, allow_none=True)
    at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})


# Present when the read was made with `as_of`.
AS_OF = fields.Nested(BooksAsOfSchema, metadata={"description": "The point read as of, "
                                                 "when `as_of` was given"})

PARTY: dict[str, Any] = {"validate": [validate.Length(min=1, max=64), printable],
         "metadata": {"description": "A member's id or display name, or \"club\"",
                      "example": "club"}}
CURRENCY: dict[str, Any] = {"validate": [validate.Length(min=1, max=8), printable],
            "metadata": {"description": "ISO 4217 (GBP), one the club keeps, or \"units\" "
                                        "for counters",
                         "example": "GBP"}}
NOTE: dict[str, Any] = {"load_default": None, "allow_none": True,
        "validate": [validate.Length(min=1, max=MAX_TEXT), printable]}
# The amount's least is the domain's (it refuses naming its rule); the document says it too.
MINOR: dict[str, Any] = {
    "metadata": {"description": "Minor units of the currency (pence), or units",
                 "minimum": 1}}
# A count, a float or a difference: the domain says which may be zero or below.
AMOUNT: dict[str, Any] = {
    "metadata": {"description": "Minor units of the currency (pence), or units"}}


class PaymentIn(Strict):
    payer = fields.String(required=True, **PARTY)
    payee = fields.String(required=True, **PARTY)
    amount_minor = fields.Integer(required=True, strict=True, **MINOR)
    currency = fields.String(required=True, **CURRENCY)
    method = fields.String(required=True, validate=validate.OneOf(list(PaymentMethod)),
                           metadata={"description": "cash, transfer or other"})
    session_id = fields.String(load_default=None, allow_none=True,
                               validate=[validate.Length(min=1, max=64), printable],
                               metadata={"description": "The session it settles, if any"})
    note = fields.String(**NOTE)


class WriteOffIn(Strict):
    member = fields.String(required=True, validate=[validate.Length(min=1, max=64), printable],
                           metadata={"description": "The member's id or display name"})
    amount_minor = fields.Integer(required=True, strict=True, **MINOR)
    currency = fields.String(required=True, **CURRENCY)
    reason = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_TEXT),
                                                    printable])


class CashIn(Strict):
    counted_minor = fields.Integer(required=True, strict=True, **AMOUNT)
    currency = fields.String(required=True, **CURRENCY)
    note = fields.String(**NOTE)


class FloatIn(Strict):
    amount_minor = fields.Integer(required=True, strict=True, **AMOUNT)
    currency = fields.String(required=True, **CURRENCY)
    note = fields.String(**NOTE)


class CashDifferenceIn(Strict):
    difference = fields.String(required=True, validate=validate.OneOf(["shortage", "surplus"]),
                               metadata={"description": "shortage: the tin held less than "
                                                        "expected; surplus: more"})
    amount_minor = fields.Integer(required=True, strict=True, **AMOUNT)
    currency = fields.String(required=True, **CURRENCY)
    account = fields.String(required=True, **{**PARTY, "metadata": {
        "description": "Who bears it: \"club\" (its cash-over-short account) or a member's "
                       "id or display name", "example": "club"}})
    reason = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_TEXT),
                                                    printable])


class BookEntrySchema(Open):
    position = fields.Integer(required=True)
    seq = fields.Integer(required=True,
                         metadata={"description": "The entry's number in the club's book log"})
    type = fields.String(required=True,
                         metadata={"description": "PaymentRecorded, DebtWrittenOff or "
                                                  "CashCounted"})
    schema_version = fields.Integer(required=True)
    payload = fields.Dict(required=True)
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    actor = fields.String(required=True)
    member_id = fields.String(required=True, allow_none=True)
    token_id = fields.String(required=True, allow_none=True)
    hash = fields.String(required=True,
                         metadata={"description": "SHA-256 chained to the entry before"})


# The book log's entries as one family told apart by `type` (the component BookEntry,
# api/http/openapi.py), each payload read off the domain's entry (ledger/domain/bookentries.py).
BOOK_ENTRIES = family(BookEntrySchema, "Book", required=("payload",), payloads={
    name: record_schema(kind, f"{name}Payload") for name, kind in BOOK_ENTRY_TYPES.items()})


class AsOfQuery(KnownQuery):
    as_of = fields.String(validate=[validate.Length(min=1, max=64), printable], metadata={
        "description": "The books as they stood then: a book position (the number of a book "
                       "entry) or an ISO-8601 time with its offset; now if absent",
        "example": "2026-11-30T23:59:59Z"})


class CsvQuery(AsOfQuery):
    format = fields.String(validate=validate.OneOf(["json", "csv"]), metadata={
        "description": "csv for a spreadsheet (or send Accept: text/csv)"})
    bom = fields.Boolean(load_default=False, truthy={"1", "true"}, falsy={"0", "false"},
                         metadata={
        "description": "true (or 1): start the CSV with a UTF-8 byte order mark, so a "
                       "spreadsheet reads Zoë as Zoë"})


class PageQuery(CsvQuery):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31 - 1),
                           metadata={"description": "The number (n) of the last entry seen"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


def _after(what: str) -> fields.Integer:
    return fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31),
                          metadata={"description": f"How many {what} were seen (the "
                                                   "`next_after` of the page before); 0 to "
                                                   "start"})


def _limit(what: str) -> fields.Integer:
    return fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000),
                          metadata={"description": f"At most this many {what} (the CSV "
                                                   "gives them all)"})


class OpenItemsQuery(CsvQuery):
    """The open items' page: `after` how many of them (oldest first) were seen."""

    after = _after("items")
    limit = _limit("items")


class AccountsQuery(AsOfQuery):
    """The accounts' page of members, by name."""

    after = _after("members")
    limit = _limit("members")


class SessionAccountsQuery(AsOfQuery):
    """The page of the sessions' own accounts, by session id."""

    after = fields.String(load_default="", validate=[validate.Length(max=64), printable],
                          metadata={"description": "The last session seen (the "
                                                   "`next_after` of the page before); "
                                                   "empty or absent to start"})
    limit = _limit("sessions' accounts")


class AccountQuery(PageQuery):
    format = fields.String(validate=validate.OneOf(["json", "csv", "html"]), metadata={
        "description": "csv for a spreadsheet (or send Accept: text/csv); html for the "
                       "member's own page (or Accept: text/html)"})


class RegisterQuery(PageQuery):
    """The register's filters and page; `after` is the last entry's `seq` seen."""

    member_id = fields.String(validate=validate.Length(min=1, max=ID_LENGTH), metadata={
        "description": "Only entries that name this member (payer, payee, written off)"})
    kind = fields.String(validate=validate.OneOf(list(KINDS.values())))
    method = fields.String(validate=validate.OneOf(list(PaymentMethod)))
    session_id = fields.String(validate=validate.Length(min=1, max=STREAM_ID_LENGTH))
    evening = fields.String(validate=validate.Length(min=10, max=10), metadata={
        "description": "Only the entries of the evening's tin (YYYY-MM-DD)"})
    currency = fields.String(validate=validate.Length(min=1, max=8))
    since = fields.AwareDateTime(format="iso", metadata={
        "description": "Recorded at or after (ISO 8601 with its offset)"})
    until = fields.AwareDateTime(format="iso", metadata={
        "description": "Recorded before (ISO 8601 with its offset)"})


class SeasonQuery(AsOfQuery):
    after = _after("members")
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000),
                           metadata={"description": "At most this many members (the club's "
                                                    "page shows them all)"})
    format = fields.String(validate=validate.OneOf(["json", "html"]), metadata={
        "description": "html for the club's page: the standings, the open debts and what "
                       "the club owes, printable (or send Accept: text/html)"})

    since = fields.AwareDateTime(load_default=None, default_timezone=dt.UTC,
                                 metadata={"description": "Sessions ended at or after (UTC "
                                                          "unless it says)"})
    until = fields.AwareDateTime(load_default=None, default_timezone=dt.UTC,
                                 metadata={"description": "Sessions ended at or before"})


class ReversalIn(Strict):
    reason = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_TEXT),
                                                    printable])


class CurrenciesIn(Strict):
    currency = fields.String(required=True, validate=validate.Length(min=1, max=8),
                             metadata={"description": "ISO 4217: the club's own",
                                       "example": "GBP"})
    accepted = fields.List(fields.String(validate=validate.Length(min=1, max=8)),
                           load_default=list, validate=validate.Length(max=20),
                           metadata={"description": "Other ISO 4217 codes it takes payments "
                                                    "in", "example": ["EUR"]})


class CurrenciesSchema(Open):
    currency = fields.String(required=True)
    accepted = fields.List(fields.String(), required=True)
    as_of = AS_OF


class AccountDetailSchema(Open):
    """The entry behind a line of an account: a session's result (seat, net_units), a
    correction's adjustment (seat, net_units, corrected_by, reason), a payment (payer, payee,
    amount, method, ...) or a write-off (member_id, amount, reason)."""

    seat = fields.String()
    net_units = fields.Integer()
    payer = fields.String()
    payee = fields.String()
    member_id = fields.String()
    amount_minor = fields.Integer()
    currency = fields.String()
    method = fields.String(validate=validate.OneOf(list(PaymentMethod)))
    session_id = fields.String(allow_none=True)
    note = fields.String(allow_none=True)
    reason = fields.String()
    reverses = fields.Integer(metadata={"description": "A reversal: the seq it cancels"})
    reverses_at = fields.String(allow_none=True, metadata={
        "format": "date-time", "description": "A reversal: when the entry it cancels was "
                                              "recorded"})
    reverses_type = fields.String(metadata={"description": "...and that entry's type"})
    undo = fields.List(fields.List(fields.Raw()), metadata={
        "description": "A reversal: the postings it puts back, [account, currency, amount]"})
    difference = fields.String(validate=validate.OneOf(["shortage", "surplus"]))
    account = fields.String(metadata={"description": "A cash difference: who bears it"})
    evening = fields.String(metadata={"description": "A cash difference of an evening's "
                                                     "tin: its date"})
    corrected_by = fields.Integer(metadata={
        "description": "An adjustment: the version of the session's EntryCorrected"})
    closed_period = fields.String(metadata={
        "description": "An adjustment or a reversal of what is in a closed period (YYYY-MM): "
                       "it is posted in the open period"})
    as_of = fields.String(metadata={"description": "An opening balance: its date"})
    file_sha256 = fields.String(metadata={"description": "An opening balance: the digest "
                                                         "of the file it was imported from"})
    line = fields.Integer(metadata={"description": "...and its line there"})


class AccountEntrySchema(Open):
    n = fields.Integer(required=True)
    at = fields.String(required=True, metadata={"format": "date-time"})
    kind = fields.String(required=True, validate=validate.OneOf([str(k) for k in EntryKind]),
                         metadata={"description": "session (its result), adjustment (what a "
                                                  "later correction changed in it), payment, "
                                                  "write-off, reversal, cash-difference, "
                                                  "opening-balance"})
    description = fields.String(required=True)
    session_id = fields.String(required=True, allow_none=True)
    session_name = fields.String(required=True, allow_none=True)
    seq = fields.Integer(required=True, allow_none=True)
    currency = fields.String(required=True)
    amount_minor = fields.Integer(required=True)
    balance_minor = fields.Integer(required=True)
    open_minor = fields.Integer(required=True,
                                metadata={"description": "What of it is still unsettled"})
    corrected_by = fields.Integer(required=True, allow_none=True, metadata={
        "description": "An adjustment: the version of the session's EntryCorrected that "
                       "changed its result (the reason is in the description)"})
    detail = fields.Nested(AccountDetailSchema, required=True, metadata={
        "description": "What the line is: a session's seat and net; a payment or a write-off "
                       "as the book log holds it"})


class OpenItemSchema(Open):
    kind = fields.String(required=True)
    currency = fields.String(required=True)
    amount_minor = fields.Integer(required=True)
    owes = fields.Boolean(required=True)
    session_id = fields.String(required=True, allow_none=True)
    session_name = fields.String(required=True, allow_none=True)
    seq = fields.Integer(required=True, allow_none=True)
    corrected_by = fields.Integer(required=True, allow_none=True, metadata={
        "description": "An adjustment: the version of the session's EntryCorrected that "
                       "changed its result (the reason is in the description)"})
    since = fields.String(required=True, metadata={"format": "date-time"})
    description = fields.String(required=True, metadata={
        "description": "What it is, in words: the session by name, or the entry by its "
                       "kind (as the account's lines say it)"})


def per_currency(**kwargs: Any) -> fields.Dict:
    """{currency: minor units}"""
    return fields.Dict(keys=fields.String(), values=fields.Integer(), **kwargs)


class AccountSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    guest = fields.Boolean(required=True)
    balances = per_currency(required=True)
    owes = per_currency(required=True)
    owed = per_currency(required=True)
    open = fields.List(fields.Nested(OpenItemSchema), required=True)
    entries = fields.List(fields.Nested(AccountEntrySchema), required=True)
    total_entries = fields.Integer(required=True)
    next_after = fields.Integer(required=True, allow_none=True)
    next = fields.String(required=True, allow_none=True)
    as_of = AS_OF


class MemberBalanceSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    guest = fields.Boolean(required=True)
    balances = per_currency(required=True)


class ClubAccountsSchema(Open):
    cash = per_currency(required=True)
    bank = per_currency(required=True)
    written_off = per_currency(required=True)
    cash_over_short = per_currency(required=True)
    left_in_sessions = per_currency(required=True)


class BooksCheckSchema(Open):
    """Every account summed per currency: zero in each, or the books are broken."""

    sums = per_currency(required=True)
    zero_sum = fields.Boolean(required=True)


class BookLogCheckSchema(Open):
    """The club's book log: its entries, the head of its hash chain and whether it holds."""

    entries = fields.Integer(required=True)
    chain_head = fields.String(required=True, allow_none=True)
    chain_ok = fields.Boolean(required=True)
    problem = fields.String(required=True, allow_none=True,
                            metadata={"description": "The first broken link, if any"})



class SessionAccountSchema(Open):
    session_id = fields.String(required=True)
    account = fields.String(required=True, metadata={"example": "session:3f2a..."})
    balances = per_currency(required=True)


class SessionAccountsSchema(Open):
    """A page of the sessions' own accounts (what is left in each session's pools, with the
    sign of the books: negative when the session holds money), by session id."""

    sessions = fields.List(fields.Nested(SessionAccountSchema), required=True)
    next_after = fields.String(required=True, allow_none=True, metadata={
        "description": "The next page's `after` (this page's last session), or null"})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "The next page's URL, or null"})
    as_of = AS_OF


class AccountsSchema(Open):
    members = fields.List(fields.Nested(MemberBalanceSchema), required=True)
    club = fields.Nested(ClubAccountsSchema, required=True)
    accounts = fields.Dict(required=True, keys=fields.String(), values=per_currency())
    check = fields.Nested(BooksCheckSchema, required=True)
    log = fields.Nested(BookLogCheckSchema, required=True)
    next_after = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Where the next page starts (its `after`), or null on the last"})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "The next page's URL, or null"})
    as_of = AS_OF


class OpenDebtSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    amount_minor = fields.Integer(required=True)
    session_id = fields.String(required=True, allow_none=True)
    session_name = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True, validate=validate.OneOf([str(k) for k in EntryKind]),
                         metadata={"description": "What the debt comes from"})
    seq = fields.Integer(required=True, allow_none=True,
                         metadata={"description": "The book log entry, for a payment"})
    corrected_by = fields.Integer(required=True, allow_none=True, metadata={
        "description": "An adjustment: the version of the session's EntryCorrected that "
                       "changed its result (the reason is in the description)"})
    since = fields.String(required=True, metadata={"format": "date-time"})


class DebtsSchema(Open):
    debts = fields.List(fields.Nested(OpenDebtSchema), required=True)
    totals = per_currency(required=True)
    next_after = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Where the next page starts (its `after`), or null on the last"})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "The next page's URL, or null"})
    as_of = AS_OF


class MemberStandingSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    guest = fields.Boolean(required=True)
    sessions = fields.Integer(required=True)
    deals_dealt = fields.Integer(required=True)
    net_units = fields.Integer(required=True)
    net_minor = per_currency(required=True)
    loos = fields.Integer(required=True)
    loo_units = fields.Integer(required=True)
    penalties = fields.Integer(required=True)
    penalty_units = fields.Integer(required=True)


class StandingsSchema(Open):
    since = fields.String(required=True, allow_none=True)
    until = fields.String(required=True, allow_none=True)
    members = fields.List(fields.Nested(MemberStandingSchema), required=True)
    next_after = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Where the next page starts (its `after`), or null on the last"})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "The next page's URL, or null"})
    as_of = AS_OF


class OpenCreditSchema(OpenDebtSchema):
    pass


class PayablesSchema(Open):
    payables = fields.List(fields.Nested(OpenCreditSchema), required=True)
    totals = per_currency(required=True)
    next_after = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Where the next page starts (its `after`), or null on the last"})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "The next page's URL, or null"})
    as_of = AS_OF


class BookRegisterEntrySchema(Open):
    seq = fields.Integer(required=True)
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    kind = fields.String(required=True, validate=validate.OneOf(sorted(set(KINDS.values()))),
                         metadata={"description": "payment, write-off, cash-count, reversal, "
                                                  "currencies, float, cash-difference or "
                                                  "evening (a session joined one)"})
    type = fields.String(required=True, validate=validate.OneOf(sorted(KINDS)))
    payer = fields.String(required=True, allow_none=True)
    payer_name = fields.String(required=True, allow_none=True)
    payee = fields.String(required=True, allow_none=True)
    payee_name = fields.String(required=True, allow_none=True)
    member_id = fields.String(required=True, allow_none=True)
    member_name = fields.String(required=True, allow_none=True)
    currency = fields.String(required=True, allow_none=True)
    amount_minor = fields.Integer(required=True, allow_none=True)
    method = fields.String(required=True, allow_none=True)
    session_id = fields.String(required=True, allow_none=True)
    session_name = fields.String(required=True, allow_none=True, metadata={
        "description": "The session's name, once it has posted a result"})
    counted_minor = fields.Integer(required=True, allow_none=True)
    reverses = fields.Integer(required=True, allow_none=True, metadata={
        "description": "A reversal: the seq of the entry it cancels (its fields shown)"})
    reversed_by = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seq of the reversal that cancelled this entry, or null"})
    note = fields.String(required=True, allow_none=True)
    reason = fields.String(required=True, allow_none=True)
    difference = fields.String(required=True, allow_none=True, metadata={
        "description": "A cash difference: shortage or surplus"})
    evening = fields.String(required=True, allow_none=True, metadata={
        "description": "The evening whose tin the entry is of (a float, a count, a "
                       "difference, a session joining it)"})
    actor = fields.String(required=True)


class BookRegisterPageSchema(Open):
    entries = fields.List(fields.Nested(BookRegisterEntrySchema), required=True)
    next_after = fields.Integer(required=True, allow_none=True)
    next = fields.String(required=True, allow_none=True)
    as_of = AS_OF


class SettlePartySchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    amount_minor = fields.Integer(required=True)


class SettleSideSchema(Open):
    currency = fields.String(required=True)
    pays_club = fields.List(fields.Nested(SettlePartySchema), required=True,
                            metadata={"description": "Who owes the club"})
    club_pays = fields.List(fields.Nested(SettlePartySchema), required=True,
                            metadata={"description": "Whom the club owes"})
    receivable_minor = fields.Integer(required=True)
    payable_minor = fields.Integer(required=True)
    cash_minor = fields.Integer(required=True)
    bank_minor = fields.Integer(required=True)
    written_off_minor = fields.Integer(required=True)
    cash_over_short_minor = fields.Integer(required=True, metadata={
        "description": "The tins' shortages the club bore, net of surpluses"})
    left_in_sessions_minor = fields.Integer(required=True)
    position_minor = fields.Integer(required=True, metadata={
        "description": "cash + bank + receivable - payable"})
    balanced = fields.Boolean(required=True, metadata={
        "description": "position = -(written off + left in sessions): the books add up"})


class SettleUpSchema(Open):
    currency = fields.String(required=True)
    accepted = fields.List(fields.String(), required=True)
    currencies = fields.List(fields.Nested(SettleSideSchema), required=True)
    as_of = AS_OF


# -- an evening's tin (api/routes/evenings.py) -----------------------------------------------------

class EveningSessionIn(Strict):
    session_id = fields.String(required=True,
                               validate=[validate.Length(min=1, max=STREAM_ID_LENGTH),
                                         printable],
                               metadata={"description": "The session whose cash is in the "
                                                        "evening's tin"})


class EveningSessionSchema(Open):
    """One of the evening's sessions: what it took and paid out in cash, what is left in its
    pools."""

    session_id = fields.String(required=True)
    session_name = fields.String(required=True)
    pools_minor = fields.Integer(required=True)
    cash_paid_in_minor = fields.Integer(required=True)
    cash_paid_out_minor = fields.Integer(required=True)


class EveningSchema(Open):
    evening = fields.String(required=True, metadata={"format": "date",
                                                     "example": "2026-11-26"})
    currency = fields.String(required=True, allow_none=True, metadata={
        "description": "The tin's currency: its first float's or session's (null: nothing "
                       "recorded)"})
    sessions = fields.List(fields.Nested(EveningSessionSchema), required=True)
    float_minor = fields.Integer(required=True, metadata={
        "description": "The floats put in the tin, summed"})
    floats = fields.Integer(required=True, metadata={"description": "How many floats"})
    cash = fields.Nested(CashCheckSchema, required=True, allow_none=True, metadata={
        "description": "The cash check, null until the tin is counted: expected = float + "
                       "pools + cash paid in - cash paid out against the evening's sessions"})
    as_of = AS_OF
