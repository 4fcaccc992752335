"""Schemas of the club's books (docs/books.md): what the book routes accept and return.

Requests take JSON integers as integers and refuse unknown members; the ranges and the rules
(a positive amount, a known currency, a reason for a write-off) are the domain's, so that a
refusal names its rule (ledger/domain/accounts.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from marshmallow import fields, validate

from ledger.bookreads import KINDS
from ledger.domain.bookentries import MAX_TEXT, PaymentMethod
from ledger.store.tables import ID_LENGTH, STREAM_ID_LENGTH

from .schemas import KnownQuery, Open, Strict, printable

PARTY: dict[str, Any] = {"validate": [validate.Length(min=1, max=64), printable],
         "metadata": {"description": "A member's id or display name, or \"club\"",
                      "example": "club"}}
CURRENCY: dict[str, Any] = {"validate": [validate.Length(min=1, max=8), printable],
            "metadata": {"description": "ISO 4217 (GBP), one the club keeps, or \"units\" "
                                        "for counters",
                         "example": "GBP"}}
NOTE: dict[str, Any] = {"load_default": None, "allow_none": True,
        "validate": [validate.Length(min=1, max=MAX_TEXT), printable]}
MINOR: dict[str, Any] = {
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
    counted_minor = fields.Integer(required=True, strict=True, **MINOR)
    currency = fields.String(required=True, **CURRENCY)
    note = fields.String(**NOTE)


class FloatIn(Strict):
    amount_minor = fields.Integer(required=True, strict=True, **MINOR)
    currency = fields.String(required=True, **CURRENCY)
    note = fields.String(**NOTE)


class CashDifferenceIn(Strict):
    difference = fields.String(required=True, validate=validate.OneOf(["shortage", "surplus"]),
                               metadata={"description": "shortage: the tin held less than "
                                                        "expected; surplus: more"})
    amount_minor = fields.Integer(required=True, strict=True, **MINOR)
    currency = fields.String(required=True, **CURRENCY)
    account = fields.String(required=True, **{**PARTY, "metadata": {
        "description": "Who bears it: \"club\" (its cash-over-short account) or a member's "
                       "id or display name", "example": "club"}})
    reason = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_TEXT),
                                                    printable])


class BookEntrySchema(Open):
    position = fields.Integer()
    seq = fields.Integer(metadata={"description": "The entry's number in the club's book log"})
    type = fields.String(metadata={"description": "PaymentRecorded, DebtWrittenOff or "
                                                  "CashCounted"})
    schema_version = fields.Integer()
    payload = fields.Dict()
    recorded_at = fields.String(metadata={"format": "date-time"})
    actor = fields.String()
    member_id = fields.String(allow_none=True)
    token_id = fields.String(allow_none=True)
    hash = fields.String(metadata={"description": "SHA-256 chained to the entry before"})


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
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31),
                           metadata={"description": "The number (n) of the last entry seen"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class RegisterQuery(PageQuery):
    """The register's filters and page; `after` is the last entry's `seq` seen."""

    member_id = fields.String(validate=validate.Length(min=1, max=ID_LENGTH), metadata={
        "description": "Only entries that name this member (payer, payee, written off)"})
    kind = fields.String(validate=validate.OneOf(list(KINDS.values())))
    method = fields.String(validate=validate.OneOf(list(PaymentMethod)))
    session_id = fields.String(validate=validate.Length(min=1, max=STREAM_ID_LENGTH))
    currency = fields.String(validate=validate.Length(min=1, max=8))
    since = fields.AwareDateTime(format="iso", metadata={
        "description": "Recorded at or after (ISO 8601 with its offset)"})
    until = fields.AwareDateTime(format="iso", metadata={
        "description": "Recorded before (ISO 8601 with its offset)"})


class SeasonQuery(AsOfQuery):
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
    currency = fields.String()
    accepted = fields.List(fields.String())


class AccountEntrySchema(Open):
    n = fields.Integer()
    at = fields.String(metadata={"format": "date-time"})
    kind = fields.String(metadata={"description": "session, payment or write-off"})
    description = fields.String()
    session_id = fields.String(allow_none=True)
    session_name = fields.String(allow_none=True)
    seq = fields.Integer(allow_none=True)
    currency = fields.String()
    amount_minor = fields.Integer()
    balance_minor = fields.Integer()
    open_minor = fields.Integer(metadata={"description": "What of it is still unsettled"})
    detail = fields.Dict()


class OpenItemSchema(Open):
    kind = fields.String()
    currency = fields.String()
    amount_minor = fields.Integer()
    owes = fields.Boolean()
    session_id = fields.String(allow_none=True)
    session_name = fields.String(allow_none=True)
    seq = fields.Integer(allow_none=True)
    since = fields.String(metadata={"format": "date-time"})


def per_currency() -> fields.Dict:
    """{currency: minor units}"""
    return fields.Dict(keys=fields.String(), values=fields.Integer())


class AccountSchema(Open):
    member_id = fields.String()
    name = fields.String()
    guest = fields.Boolean()
    balances = per_currency()
    owes = per_currency()
    owed = per_currency()
    open = fields.List(fields.Nested(OpenItemSchema))
    entries = fields.List(fields.Nested(AccountEntrySchema))
    total_entries = fields.Integer()
    next_after = fields.Integer(allow_none=True)
    next = fields.String(allow_none=True)


class MemberBalanceSchema(Open):
    member_id = fields.String()
    name = fields.String()
    guest = fields.Boolean()
    balances = per_currency()


class ClubAccountsSchema(Open):
    cash = per_currency()
    bank = per_currency()
    written_off = per_currency()
    cash_over_short = per_currency()
    left_in_sessions = per_currency()


class AccountsSchema(Open):
    members = fields.List(fields.Nested(MemberBalanceSchema))
    club = fields.Nested(ClubAccountsSchema)
    accounts = fields.Dict(keys=fields.String(), values=per_currency())
    check = fields.Dict()
    log = fields.Dict()


class OpenDebtSchema(Open):
    member_id = fields.String()
    name = fields.String()
    currency = fields.String()
    amount_minor = fields.Integer()
    session_id = fields.String(allow_none=True)
    session_name = fields.String(allow_none=True)
    since = fields.String(metadata={"format": "date-time"})


class DebtsSchema(Open):
    debts = fields.List(fields.Nested(OpenDebtSchema))
    totals = per_currency()


class MemberStandingSchema(Open):
    member_id = fields.String()
    name = fields.String()
    guest = fields.Boolean()
    sessions = fields.Integer()
    deals_dealt = fields.Integer()
    net_units = fields.Integer()
    net_minor = per_currency()
    loos = fields.Integer()
    loo_units = fields.Integer()
    penalties = fields.Integer()
    penalty_units = fields.Integer()


class StandingsSchema(Open):
    since = fields.String(allow_none=True)
    until = fields.String(allow_none=True)
    members = fields.List(fields.Nested(MemberStandingSchema))


class OpenCreditSchema(OpenDebtSchema):
    pass


class PayablesSchema(Open):
    payables = fields.List(fields.Nested(OpenCreditSchema))
    totals = per_currency()


class BookRegisterEntrySchema(Open):
    seq = fields.Integer()
    recorded_at = fields.String(metadata={"format": "date-time"})
    kind = fields.String(metadata={"description": "payment, write-off, cash-count, reversal "
                                                  "or currencies"})
    type = fields.String()
    payer = fields.String(allow_none=True)
    payer_name = fields.String(allow_none=True)
    payee = fields.String(allow_none=True)
    payee_name = fields.String(allow_none=True)
    member_id = fields.String(allow_none=True)
    member_name = fields.String(allow_none=True)
    currency = fields.String(allow_none=True)
    amount_minor = fields.Integer(allow_none=True)
    method = fields.String(allow_none=True)
    session_id = fields.String(allow_none=True)
    counted_minor = fields.Integer(allow_none=True)
    reverses = fields.Integer(allow_none=True, metadata={
        "description": "A reversal: the seq of the entry it cancels (its fields shown)"})
    reversed_by = fields.Integer(allow_none=True, metadata={
        "description": "The seq of the reversal that cancelled this entry, or null"})
    note = fields.String(allow_none=True)
    reason = fields.String(allow_none=True)
    actor = fields.String()


class BookRegisterPageSchema(Open):
    entries = fields.List(fields.Nested(BookRegisterEntrySchema))
    next_after = fields.Integer(allow_none=True)
    next = fields.String(allow_none=True)


class SettleSideSchema(Open):
    currency = fields.String()
    pays_club = fields.List(fields.Dict(), metadata={
        "description": "Who owes the club: {member_id, name, amount_minor}"})
    club_pays = fields.List(fields.Dict(), metadata={
        "description": "Whom the club owes: {member_id, name, amount_minor}"})
    receivable_minor = fields.Integer()
    payable_minor = fields.Integer()
    cash_minor = fields.Integer()
    bank_minor = fields.Integer()
    written_off_minor = fields.Integer()
    cash_over_short_minor = fields.Integer(metadata={
        "description": "The tins' shortages the club bore, net of surpluses"})
    left_in_sessions_minor = fields.Integer()
    position_minor = fields.Integer(metadata={
        "description": "cash + bank + receivable - payable"})
    balanced = fields.Boolean(metadata={
        "description": "position = -(written off + left in sessions): the books add up"})


class SettleUpSchema(Open):
    currency = fields.String()
    accepted = fields.List(fields.String())
    currencies = fields.List(fields.Nested(SettleSideSchema))
