"""Schemas of the explain trail and of reads as of an earlier point (docs/explain.md)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas import PLAYER, AsOfSchema, Open, Schema, StatementQuery

AS_OF = fields.String(
    validate=validate.Length(min=1, max=64),
    metadata={"description": "Read as of an earlier point: a version of the session's log "
                             "(1 to its last), or an ISO-8601 time with its offset (the state "
                             "after the last event recorded at or before it)",
              "example": "40"})


class AsOfQuery(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    as_of = AS_OF


def _bom() -> fields.Boolean:
    return fields.Boolean(load_default=False, truthy={"1", "true"}, falsy={"0", "false"},
                          metadata={"description": "CSV: true (or 1) starts the file with a "
                                                   "UTF-8 byte order mark, for a spreadsheet"})


class StatementAsOfQuery(StatementQuery):
    as_of = AS_OF
    table = fields.String(validate=validate.OneOf(["players", "summary", "transfers", "cash"]),
                          metadata={"description": "CSV: only this table, one per file (all "
                                                   "of them one after another if absent)"})
    bom = _bom()


class ExplainQuery(StatementQuery):
    format = fields.String(validate=validate.OneOf(["json", "csv"]), metadata={
        "description": "csv for a spreadsheet (or send Accept: text/csv)"})
    player = fields.String(validate=PLAYER["validate"], metadata={
        "description": "Only this player's figure (a player of the session)", "example": "B"})
    as_of = AS_OF
    table = fields.String(validate=validate.OneOf(["postings", "figures"]), metadata={
        "description": "CSV: only this table, one per file (both one after the other if "
                       "absent)"})
    bom = _bom()


class RuleSchema(Open):
    """What decided a posting's amount."""

    preset = fields.String(required=True)
    parameter = fields.String(required=True, metadata={"example": "ante = 3"})
    law = fields.String(required=True)
    source = fields.String(required=True, metadata={"example": "Baxter-Wray p. 16"})
    docs = fields.String(required=True, metadata={"example": "docs/rules.md §5.1"})


class TrailCorrectionSchema(Open):
    """A correction in the session's log (docs/rules.md §12): its EntryCorrected."""

    version = fields.Integer(required=True, metadata={
        "description": "The EntryCorrected's version in the session's log"})
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    actor = fields.String(required=True, metadata={"description": "Who appended it"})
    authorised_by = fields.String(required=True)
    reason = fields.String(required=True)
    voids = fields.List(fields.Integer(), required=True, metadata={
        "description": "The versions of the entries it voided"})
    changes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                          metadata={"description": "What it changed: account -> units"})


class TrailPostingSchema(Open):
    """One posting of a figure: the event that made it, the units it moved and why."""

    version = fields.Integer(required=True)
    position = fields.Integer(required=True)
    event_type = fields.String(required=True)
    recorded_at = fields.String(required=True)
    actor = fields.String(required=True)
    deal_no = fields.Integer(required=True, allow_none=True)
    from_ = fields.String(data_key="from", attribute="from", required=True)
    to = fields.String(required=True)
    amount_units = fields.Integer(required=True)
    signed_units = fields.Integer(required=True, metadata={
        "description": "What the posting did to this figure: negative when it paid"})
    category = fields.String(required=True)
    reason = fields.String(required=True)
    offence = fields.String(required=True, allow_none=True)
    rule = fields.Nested(RuleSchema, required=True)
    correction = fields.Nested(TrailCorrectionSchema, required=True, allow_none=True, metadata={
        "description": "The correction that put this posting where the entries it superseded "
                       "had another (null: logged so)"})


class FigureSchema(Open):
    account = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["player", "pool",
                                                                 "next_pool"]))
    net_units = fields.Integer(required=True)
    categories = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    postings = fields.List(fields.Nested(TrailPostingSchema), required=True)


class ExplainSchema(Open):
    session_id = fields.String(required=True)
    version = fields.Integer(required=True)
    as_of = fields.Nested(AsOfSchema, required=True, allow_none=True)
    figures = fields.List(fields.Nested(FigureSchema), required=True)
    corrections = fields.List(fields.Nested(TrailCorrectionSchema), required=True, metadata={
        "description": "The corrections in the log up to the version read, oldest first"})
