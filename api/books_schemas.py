"""Schemas of the club's books (docs/books.md): what the book routes accept and return.

Requests take JSON integers as integers and refuse unknown members; the ranges and the rules
(a positive amount, a known currency, a reason for a write-off) are the domain's, so that a
refusal names its rule (ledger/domain/accounts.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ledger.domain.accounts import (
    MAX_AMOUNT_MINOR,
    MAX_TEXT,
    CashCounted,
    DebtWrittenOff,
    PaymentMethod,
    PaymentRecorded,
)

from .record_schemas import family, record_schema
from .schemas import Open, Strict, printable

PARTY: dict[str, Any] = {"validate": [validate.Length(min=1, max=64), printable],
         "metadata": {"description": "A member's id or display name, or \"club\"",
                      "example": "club"}}
CURRENCY: dict[str, Any] = {"validate": [validate.Length(min=1, max=8), printable],
            "metadata": {"description": "ISO 4217 (GBP), or \"units\" for counters",
                         "example": "GBP"}}
NOTE: dict[str, Any] = {"load_default": None, "allow_none": True,
        "validate": [validate.Length(min=1, max=MAX_TEXT), printable]}
# The ranges are the domain's (ledger/domain/accounts.py check_amount, which refuses naming
# its rule); the document says them too.
MINOR: dict[str, Any] = {
    "metadata": {"description": "Minor units of the currency (pence), or units",
                 "minimum": 1, "maximum": MAX_AMOUNT_MINOR}}
COUNTED: dict[str, Any] = {
    "metadata": {"description": "Minor units of the currency (pence), or units",
                 "minimum": 0, "maximum": MAX_AMOUNT_MINOR}}


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
    counted_minor = fields.Integer(required=True, strict=True, **COUNTED)
    currency = fields.String(required=True, **CURRENCY)
    note = fields.String(**NOTE)


class BookEntrySchema(Open):
    position = fields.Integer(required=True)
    seq = fields.Integer(required=True,
                         metadata={"description": "The entry's number in the club's book log"})
    type = fields.String(required=True, metadata={"description": "PaymentRecorded, "
                                                                 "DebtWrittenOff or CashCounted"})
    schema_version = fields.Integer(required=True)
    payload = fields.Dict(required=True)
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    actor = fields.String(required=True)
    member_id = fields.String(required=True, allow_none=True)
    token_id = fields.String(required=True, allow_none=True)
    hash = fields.String(required=True,
                         metadata={"description": "SHA-256 chained to the entry before"})



# The book log's entries as one family told apart by `type` (the component BookEntry,
# api/openapi.py), each payload read off the domain's entry (ledger/domain/accounts.py).
BOOK_ENTRIES = family(BookEntrySchema, "Book", required=("payload",), payloads={
    kind.type: record_schema(kind, f"{kind.type}Payload")
    for kind in (PaymentRecorded, DebtWrittenOff, CashCounted)})

class PageQuery(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31),
                           metadata={"description": "The number (n) of the last entry seen"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    format = fields.String(validate=validate.OneOf(["json", "csv"]),
                           metadata={"description": "csv for every entry as a spreadsheet"})


class FormatQuery(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    format = fields.String(validate=validate.OneOf(["json", "csv"]))


class SeasonQuery(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    format = fields.String(validate=validate.OneOf(["json", "html"]), metadata={
        "description": "html for the club's page: the standings and the open debts, printable "
                       "(or send Accept: text/html)"})

    since = fields.AwareDateTime(load_default=None, default_timezone=dt.UTC,
                                 metadata={"description": "Sessions ended at or after (UTC "
                                                          "unless it says)"})
    until = fields.AwareDateTime(load_default=None, default_timezone=dt.UTC,
                                 metadata={"description": "Sessions ended at or before"})


class AccountDetailSchema(Open):
    """The entry behind a line of an account: a session's result (seat, net_units), a payment
    (payer, payee, amount, method, ...) or a write-off (member_id, amount, reason)."""

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


class AccountEntrySchema(Open):
    n = fields.Integer(required=True)
    at = fields.String(required=True, metadata={"format": "date-time"})
    kind = fields.String(required=True, metadata={"description": "session, payment or write-off"})
    description = fields.String(required=True)
    session_id = fields.String(required=True, allow_none=True)
    session_name = fields.String(required=True, allow_none=True)
    seq = fields.Integer(required=True, allow_none=True)
    currency = fields.String(required=True)
    amount_minor = fields.Integer(required=True)
    balance_minor = fields.Integer(required=True)
    open_minor = fields.Integer(required=True,
                                metadata={"description": "What of it is still unsettled"})
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
    since = fields.String(required=True, metadata={"format": "date-time"})


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


class MemberBalanceSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    guest = fields.Boolean(required=True)
    balances = per_currency(required=True)


class ClubAccountsSchema(Open):
    cash = per_currency(required=True)
    bank = per_currency(required=True)
    written_off = per_currency(required=True)
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


class AccountsSchema(Open):
    members = fields.List(fields.Nested(MemberBalanceSchema), required=True)
    club = fields.Nested(ClubAccountsSchema, required=True)
    accounts = fields.Dict(required=True, keys=fields.String(), values=per_currency())
    check = fields.Nested(BooksCheckSchema, required=True)
    log = fields.Nested(BookLogCheckSchema, required=True)


class OpenDebtSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    amount_minor = fields.Integer(required=True)
    session_id = fields.String(required=True, allow_none=True)
    session_name = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True, validate=validate.OneOf(["session", "payment"]),
                         metadata={"description": "What the debt comes from"})
    seq = fields.Integer(required=True, allow_none=True,
                         metadata={"description": "The book log entry, for a payment"})
    since = fields.String(required=True, metadata={"format": "date-time"})


class DebtsSchema(Open):
    debts = fields.List(fields.Nested(OpenDebtSchema), required=True)
    totals = per_currency(required=True)


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
