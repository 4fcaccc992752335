"""Schemas of the audit queries (GET /audit/events, /audit/penalties, /audit/corrections)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas import MAX_POSITION
from api.schemas.base import KnownQuery, Open, Schema, Timestamp, Variants
from api.schemas.records import RecordedEventSchema, VoidedEntrySchema, family
from ledger.audit.queries import BREACHES, MAX_AUDIT_LIMIT, OFFENCES
from ledger.domain.access import Role
from ledger.domain.events import EVENT_TYPES
from ledger.domain.limits import ID_LENGTH, STREAM_ID_LENGTH, TOKEN_ID_LENGTH


class AuditQuery(KnownQuery):
    """The filters and the page. An unknown parameter is refused (422 naming it): a filter
    mistyped must not quietly widen an auditor's question."""

    session_id = fields.String(validate=validate.Length(min=1, max=STREAM_ID_LENGTH),
                               metadata={"description": "Only this session of the club"})
    member_id = fields.String(validate=validate.Length(min=1, max=ID_LENGTH), metadata={
        "description": "Only events about this member: his seat is the player (the offender "
                       "in the register), the winner of a trick or flush, or the dealer; "
                       "among the corrections, one that changed his balance"})
    type = fields.String(validate=validate.OneOf(sorted(EVENT_TYPES)),
                         metadata={"description": "Only events of this type"})
    offence = fields.String(validate=validate.OneOf(OFFENCES),
                            metadata={"description": "Only penalties for this offence"})
    breach = fields.String(validate=validate.OneOf(BREACHES),
                           metadata={"description": "Only breaches of this rule"})
    actor = fields.String(validate=validate.Length(min=1, max=128), metadata={
        "description": "Only what this member (id or display name) logged, or the name the "
                       "command line wrote"})
    token_id = fields.String(validate=validate.Length(min=1, max=TOKEN_ID_LENGTH),
                             metadata={"description": "Only what this token (device) logged"})
    since = fields.AwareDateTime(format="iso", metadata={
        "description": "Recorded at or after (ISO 8601 with its offset)"})
    until = fields.AwareDateTime(format="iso", metadata={
        "description": "Recorded before (ISO 8601 with its offset)"})
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_POSITION),
                           metadata={"description": "Global position to read after"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1,
                                                                     max=MAX_AUDIT_LIMIT),
                           metadata={"description": "At most this many rows"})
    format = fields.String(validate=validate.OneOf(["json", "csv"]), metadata={
        "description": "csv for a spreadsheet (or send Accept: text/csv)"})
    bom = fields.Boolean(load_default=False, truthy={"1", "true"}, falsy={"0", "false"},
                         metadata={"description": "true (or 1): start the CSV with a UTF-8 "
                                                  "byte order mark, for a spreadsheet"})

    # Refused beyond what the schema says: `until` not after `since` (422); among the
    # corrections, a filter by offence or breach.
    @ma.validates_schema
    def _until_after_since(self, data: dict[str, Any], **kwargs: Any) -> None:
        since, until = data.get("since"), data.get("until")
        if since is not None and until is not None and until <= since:
            raise ma.ValidationError("until must be after since", field_name="until")


def _one_of_types(types: list[str], description: str) -> type[ma.Schema]:
    """AuditQuery, its `type` documented as the types the query can have (the query itself
    refuses the others, naming its rule `audit-filter`)."""
    return AuditQuery.from_dict({"type": fields.String(
        validate=validate.OneOf(sorted(EVENT_TYPES)),
        metadata={"description": description, "enum": types})},
        name=f"{''.join(t[:4] for t in types)}Query")


RegisterQuery = _one_of_types(["PenaltyImposed", "BreachDetected"],
                              "Only penalties or only breaches")
CorrectionsQuery = _one_of_types(["EntryCorrected"], "The one type of the corrections")


class _Row(Open):
    position = fields.Integer(required=True)
    session_id = fields.String(required=True)
    version = fields.Integer(required=True)
    recorded_at = Timestamp(required=True, metadata={"type": "string",
                                                     "format": "date-time"})
    actor = fields.String(required=True, metadata={"description": "Who logged it"})
    member_id = fields.String(required=True, allow_none=True,
                              metadata={"description": "The member who logged it"})
    token_id = fields.String(required=True, allow_none=True,
                             metadata={"description": "The token (device) it came from"})
    device = fields.String(required=True, allow_none=True,
                           metadata={"description": "That token's label"})
    live = fields.Boolean(required=True,
                          metadata={"description": "false once a correction superseded it"})
    superseded_by = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The version of the correction that superseded it, or null"})
    session_name = fields.String(allow_none=True, metadata={
        "description": "The session's name (null if it has none)"})
    session_opened_at = fields.String(allow_none=True, metadata={
        "format": "date-time", "description": "When the session was opened"})


class AuditEventSchema(RecordedEventSchema, _Row):
    """An event of the log with where it came from and whether it still counts."""


# One schema per event type, told apart by `type` (the component AuditEvent, api/http/openapi.py).
AUDITED = family(AuditEventSchema, "Audit")


class RegisterEntrySchema(_Row):
    type = fields.String(required=True, validate=validate.OneOf(["PenaltyImposed",
                                                                 "BreachDetected"]))
    kind = fields.String(required=True, validate=validate.OneOf(["penalty", "breach"]))
    deal_no = fields.Integer(required=True)
    player = fields.String(required=True, metadata={"description": "The offender's seat"})
    player_member_id = fields.String(required=True, allow_none=True)
    offence = fields.String(required=True, allow_none=True)
    breach = fields.String(required=True, allow_none=True,
                           metadata={"description": "The rule of play broken"})
    amount_units = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The penalty's amount; for one fixed when its deal is settled, what "
                       "the settlement charged (null until then)"})
    paid_units = fields.Integer(required=True, metadata={
        "description": "Units charged for it: its own postings, or the settlement's"})
    charged_as = fields.String(allow_none=True, validate=validate.OneOf(["fine", "loo"]),
                               metadata={"description": "For a penalty fixed at the deal's "
                                                        "settlement: a fine, or the loo he "
                                                        "paid instead (Blenheim law 9)"})
    destination = fields.String(required=True, allow_none=True)
    law = fields.String(required=True, allow_none=True)
    detail = fields.String(required=True, allow_none=True)
    detected = fields.Boolean(required=True, metadata={
        "description": "true: the ledger found it in the cards; false: entered by hand"})


class CorrectionEntrySchema(_Row):
    deal_no = fields.Integer(required=True, allow_none=True)
    voids = fields.List(fields.Nested(VoidedEntrySchema), required=True,
                        metadata={"description": "The entries voided: version, type, entry"})
    replacements = fields.List(Variants("EventIn"), required=True)
    changes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                          metadata={"description": "Account -> signed units it changed"})
    changed_members = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True))
    reason = fields.String(required=True)
    authorised_by = fields.String(required=True)
    rewound_to = fields.Integer(required=True)


def _page(name: str, row: fields.Field) -> type[ma.Schema]:
    return Open.from_dict({
        name: fields.List(row, required=True),
        "next_after": fields.Integer(required=True, allow_none=True,
                                     metadata={"description": "Pass as ?after= next"}),
        "next": fields.String(required=True, allow_none=True,
                              metadata={"description": "URL of the next page"}),
    }, name=f"Audit{name.capitalize()}Page")


AuditEventsPage = _page("events", Variants("AuditEvent", dump=AuditEventSchema))
RegisterPage = _page("entries", fields.Nested(RegisterEntrySchema))
CorrectionsPage = _page("corrections", fields.Nested(CorrectionEntrySchema))


class IssuedTokenSchema(Open):
    token_id = fields.String(required=True)
    member_id = fields.String(required=True, metadata={"description": "Whose token it is"})
    member = fields.String(required=True)
    role = fields.String(required=True, validate=validate.OneOf([r.value for r in Role]))
    label = fields.String(required=True)
    issued_at = fields.String(required=True, metadata={"format": "date-time"})
    revoked_at = fields.String(required=True, allow_none=True,
                               metadata={"format": "date-time"})
    issued_by = fields.String(required=True,
                              metadata={"description": "The member who issued it"})
    issued_by_name = fields.String(required=True)
    issued_with = fields.String(required=True, allow_none=True,
                                metadata={"description": "The token that asked for it"})
    issuer_role = fields.String(required=True, allow_none=True,
                                metadata={"description": "That token's role"})
    reasons = fields.List(fields.String(validate=validate.OneOf(
        ["self-issued", "beyond-issuer-role", "member-link"])), required=True, metadata={
        "description": "Why it is to be reviewed: self-issued (issued to the member who "
                       "asked), beyond-issuer-role (an admin issued a role that writes the "
                       "ledger: treasurer or dealer), member-link (a member token: it shows "
                       "`member`'s account to whoever holds it)"})


class TokenRegisterSchema(Open):
    tokens = fields.List(fields.Nested(IssuedTokenSchema), required=True)


# The query schema of each audit query (its JSON route and its CSV route).
QUERY_SCHEMAS: dict[str, type[ma.Schema]] = {
    "events": AuditQuery, "penalties": RegisterQuery, "corrections": CorrectionsQuery}


# -- the club as a whole (ledger/audit/club.py) ----------------------------------------------

class ClubPageQuery(KnownQuery):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**31 - 1),
                           metadata={"description": "How many were seen (the `next_after` of "
                                                    "the page before); 0 to start"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class ClubSessionsQuery(ClubPageQuery):
    name = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "Only sessions whose name contains this, in any case"})
    since = fields.AwareDateTime(format="iso", metadata={
        "description": "Opened at or after (ISO 8601 with its offset)"})
    until = fields.AwareDateTime(format="iso", metadata={
        "description": "Opened before (ISO 8601 with its offset)"})

    @ma.validates_schema
    def _until_after_since(self, data: dict[str, Any], **kwargs: Any) -> None:
        since, until = data.get("since"), data.get("until")
        if since is not None and until is not None and until <= since:
            raise ma.ValidationError("until must be after since", field_name="until")


class ClubSessionSchema(Open):
    session_id = fields.String(required=True)
    name = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "ended"]))
    version = fields.Integer(required=True, metadata={"description": "Its log's length"})
    players = fields.List(fields.String(), required=True,
                          metadata={"description": "The seats, in order"})
    opened_at = fields.String(required=True, metadata={"format": "date-time"})
    last_entry_at = fields.String(required=True, metadata={"format": "date-time"})


class ClubSessionsPage(Open):
    sessions = fields.List(fields.Nested(ClubSessionSchema), required=True,
                           metadata={"description": "Newest first"})
    total = fields.Integer(required=True, metadata={"description": "Sessions in the window"})
    next_after = fields.Integer(required=True, allow_none=True)


class VerifiedSessionSchema(ClubSessionSchema):
    ok = fields.Boolean(required=True)
    chain_head = fields.String(required=True, allow_none=True)
    problems = fields.List(fields.String(), required=True)


class VerifiedBooksSchema(Open):
    ok = fields.Boolean(required=True)
    problems = fields.List(fields.String(), required=True)


class ClubVerifySchema(Open):
    ok = fields.Boolean(required=True, metadata={
        "description": "This page's verdict: its sessions (and on the first page the book "
                       "log and the club log) whole and agreeing with their logs"})
    sessions = fields.List(fields.Nested(VerifiedSessionSchema), required=True,
                           metadata={"description": "Oldest first"})
    books = fields.Nested(VerifiedBooksSchema, required=True, allow_none=True, metadata={
        "description": "The book log and the club log, on the first page (after=0); null "
                       "on the others"})
    total = fields.Integer(required=True, metadata={"description": "The club's sessions"})
    next_after = fields.Integer(required=True, allow_none=True)


class ExportCheckSchema(Open):
    ok = fields.Boolean(required=True)
    problems = fields.List(fields.String(), required=True)
    events = fields.Integer(required=True, metadata={"description": "The events checked"})
    key_id = fields.String(required=True, allow_none=True, metadata={
        "description": "The short id of the key the signature was checked by (null: none)"})
    summary = fields.String(required=True, metadata={
        "description": "What was checked, and by which key (as `lanterloo verify-export` "
                       "prints it)"})


class ExportFileSchema(Schema):
    """A session as GET /sessions/<id>/export answers it, every member kept as it is: the
    check itself says what is wrong with it (verify-export's checks, not a schema's)."""
    class Meta:
        unknown = ma.INCLUDE
