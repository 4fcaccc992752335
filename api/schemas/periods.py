"""Schemas of closing a period, opening balances and the Beancount export (docs/books.md)."""

from __future__ import annotations

from marshmallow import fields, validate

from api.schemas import KnownQuery, Open, Strict, printable
from api.schemas.base import Variants
from api.schemas.books import AS_OF
from ledger.domain.bookentries import MAX_TEXT


class CloseIn(Strict):
    """Nothing is needed: the period is the path's, the balances are the books'."""


class ReopenIn(Strict):
    reason = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_TEXT),
                                                    printable],
                           metadata={"description": "Why the closed period is reopened"})


class ReopeningSchema(Open):
    seq = fields.Integer(required=True)
    reopened_at = fields.String(required=True, metadata={"format": "date-time"})
    reopened_by = fields.String(required=True)
    reason = fields.String(required=True)


class PeriodSchema(Open):
    """A period closed once: its closing (who, when, its end, the balances there), and its
    reopenings."""

    period = fields.String(required=True, metadata={"example": "2026-10"})
    closed = fields.Boolean(required=True, metadata={"description": "Closed now (false: "
                                                                    "reopened since)"})
    seq = fields.Integer(required=True, metadata={"description": "The closing's entry"})
    closed_at = fields.String(required=True, metadata={"format": "date-time"})
    closed_by = fields.String(required=True)
    end = fields.String(required=True, metadata={"format": "date-time",
                                                 "description": "The period's last instant"})
    end_seq = fields.Integer(required=True, metadata={
        "description": "The book position at the period's end"})
    balances = fields.Dict(keys=fields.String(), values=fields.Dict(
        keys=fields.String(), values=fields.Integer()), required=True, metadata={
        "description": "Every account's non-zero balance per currency at the end, as "
                       "/accounts says as of it"})
    reopenings = fields.List(fields.Nested(ReopeningSchema), required=True)


class PeriodsSchema(Open):
    periods = fields.List(fields.Nested(PeriodSchema), required=True)
    as_of = AS_OF


class OpeningImportSchema(Open):
    """The opening balances recorded: one OpeningBalance entry per line of the file."""

    entries = fields.List(Variants("BookEntry"), required=True, metadata={
        "description": "The OpeningBalance entries, in order"})
    version = fields.Integer(required=True, metadata={"description": "The book position "
                                                                     "after the last"})


# `from` is a Python keyword: the schema is made from a dict, its field named as sent
ExportQuery = KnownQuery.from_dict({
    "from": fields.Date(required=True, metadata={
        "description": "The period's first day (UTC)", "example": "2026-10-01"}),
    "to": fields.Date(required=True, metadata={
        "description": "The period's last day (UTC), included", "example": "2026-10-31"}),
}, name="ExportQuery")
