"""Marshmallow schemas: what the API accepts (each builds a domain command) and what it returns.

Request schemas refuse unknown fields (`unknown = RAISE`), take integers and booleans only as
JSON integers and booleans (never 1 for true, 52.0 or "52" for 52), and never accept an amount
of money: the rules decide every amount. Response schemas declare every member the service
returns and pass through any member the domain adds later (their OpenAPI schemas never say
`additionalProperties: false`), so a generated client keeps working when the ledger grows.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas.base import (  # noqa: F401
    PLAYER,
    KnownQuery,
    Open,
    RuleOverridesIn,
    RulesSchema,
    Schema,
    Strict,
    StrictBoolean,
    Timestamp,
    Variants,
    distinct,
    money_field_in,
    printable,
    strict_int,
)
from api.schemas.events import (  # noqa: F401  (the schemas' one name for the routes)
    EVENT_SCHEMAS,
    EventBatchIn,
    EventIn,
    load_event,
    load_events,
    unmatched_client_types,
)
from api.schemas.records import RecordedEventSchema  # noqa: F401
from api.schemas.views import (  # noqa: F401
    AppendResultSchema,
    AsOfSchema,
    DealViewSchema,
    EventsPageSchema,
    SessionViewSchema,
    StatementSchema,
    VerifySchema,
)
from ledger.domain import PRESETS, OpenSession
from ledger.domain.limits import MAX_PLAYERS

# ---------------------------------------------------------------- opening a session


class SessionOpenSchema(Strict):
    """Open a session: the players in seat order, a rule preset and any overrides."""

    name = fields.String(load_default="", validate=[validate.Length(max=200), printable],
                         metadata={"example": "Thursday table"})
    players = fields.List(fields.String(**PLAYER), required=True,
                          validate=[validate.Length(min=2, max=MAX_PLAYERS), distinct],
                          metadata={"description": "Distinct names in seat order (to the left)",
                                    "uniqueItems": True,
                                    "example": ["A", "B", "C", "D", "E"]})
    preset = fields.String(load_default=None, allow_none=True,
                           validate=validate.OneOf(list(PRESETS)),
                           metadata={"description": "Rule preset; baxter-wray by default",
                                     "example": "baxter-wray"})
    rules = fields.Nested(RuleOverridesIn, load_default=dict,
                          metadata={"description": "Overrides of single rule parameters, e.g. "
                                                   "{\"loo_amount\": 9, \"pack\": 32}",
                                    "example": {}})
    first_dealer = fields.String(load_default=None, allow_none=True, validate=printable,
                                 metadata={"description": "Who deals first (the first knave); "
                                                          "the first player by default"})
    unit = fields.String(load_default="counter",
                         validate=[validate.Length(min=1, max=20), printable],
                         metadata={"description": "What one unit is called"})
    money_per_unit_minor = strict_int(
        load_default=None, allow_none=True, validate=validate.Range(min=1, max=10**9),
        metadata={"description": "For real-money clubs: the value of one unit in the "
                                 "currency's minor unit (e.g. pence)"})
    currency = fields.String(load_default=None, allow_none=True,
                             validate=validate.Regexp(r"^[A-Z]{3}$",
                                                      error="an ISO 4217 code such as GBP"),
                             metadata={"example": "GBP"})

    @ma.post_load
    def _command(self, data: dict[str, Any], **kwargs: Any) -> OpenSession:
        return OpenSession(**data)


# ---------------------------------------------------------------- query strings

MAX_POSITION = 2**63 - 1  # the store's position is a 64-bit integer


class EventsQuery(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_POSITION),
                           metadata={"description": "Global position to read after"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000),
                           metadata={"description": "At most this many events"})


class StatementQuery(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    format = fields.String(validate=validate.OneOf(["json", "csv", "html"]),
                           metadata={"description": "csv for a spreadsheet (or send "
                                                    "Accept: text/csv); html for a printable "
                                                    "page (or Accept: text/html)"})


class RefusedLineSchema(Open):
    """A line of an imported file, refused."""

    line = fields.Integer(required=True, metadata={"description": "Its number in the file "
                                                                  "(the header is line 1)"})
    field = fields.String(required=True, allow_none=True)
    rule = fields.String(required=True)
    detail = fields.String(required=True)


class ProblemSchema(Schema):
    """application/problem+json (RFC 9457), with the ledger's own members.

    A problem type may carry members of its own (RFC 9457 §3.2): the schema does not forbid
    others than these.
    """

    class Meta:
        unknown = ma.EXCLUDE

    type = fields.String(required=True,
                         metadata={"example": "urn:lanterloo:problem:out-of-turn"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String(metadata={"description": "The path asked"})
    rule = fields.String(metadata={"description": "The rule or check that refused"})
    field = fields.String(metadata={"description": "The field at fault"})
    errors = fields.Dict(metadata={"description": "Validation messages per field"})
    current_version = fields.Integer(metadata={"description": "On 409: the session's version"})
    expected_version = fields.Integer(metadata={"description": "On 409: the version the "
                                                               "request named"})
    accepted = fields.List(fields.String(), metadata={"description": "Accepted event types"})
    choices = fields.List(fields.String(), metadata={"description": "The legal declarations"})
    player = fields.String(metadata={"description": "The player the refusal is about (a "
                                                    "player who is neither a member nor a "
                                                    "guest)"})
    refused_by = fields.String(metadata={"description": "A correction the rest of the "
                                                        "session cannot follow: the rule that "
                                                        "refused an entry after it"})
    version = fields.Integer(metadata={"description": "...and that entry's version"})
    limit_units = fields.Integer(metadata={"description": "The amount limit a deal or an "
                                                          "account would pass (amount-limit)"})
    unbooked_minor = fields.Integer(metadata={"description": "A cash difference beyond the "
                                                            "check: what it leaves unbooked"})
    reversed_by = fields.Integer(metadata={"description": "An entry reversed already: the "
                                                          "reversal's seq"})
    evening = fields.String(metadata={"description": "A session whose cash is in an "
                                                    "evening's tin: that evening"})
    candidates = fields.List(fields.String(), metadata={
        "description": "pam_held_by refused: the players it may name"})
    owes_minor = fields.Integer(metadata={"description": "A write-off beyond the debt: what "
                                                        "the member owes"})
    closed_by = fields.Integer(metadata={"description": "A period closed already: the "
                                                       "closing's seq"})
    lines = fields.List(fields.Nested(RefusedLineSchema), metadata={
        "description": "An import refused (opening-balances): every bad line of the file "
                       "and why; nothing was recorded"})
    entries = fields.List(fields.Integer(), metadata={
        "description": "A file imported already: the entries that recorded it"})
