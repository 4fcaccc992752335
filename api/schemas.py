"""Marshmallow schemas: what the API accepts (each builds a domain command) and what it returns.

Request schemas refuse unknown fields (`unknown = RAISE`) and never accept an amount of money:
the rules decide every amount. Response schemas document the shape and pass through any
member the domain adds later, so the OpenAPI document grows with the code, not instead of it.
"""

from __future__ import annotations

import builtins
import datetime as dt
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import fields, validate

from ledger.domain import CLIENT_TYPES, PRESETS, Command, OpenSession
from ledger.domain import commands as cmd

from .errors import ApiProblem


def printable(value: str) -> bool:
    """Names and codes are text a person reads: no control characters (NUL, newlines...)."""
    if not value.isprintable():
        raise ma.ValidationError("must not contain control characters")
    return True


PLAYER: dict[str, Any] = {"validate": [validate.Length(min=1, max=40), printable],
                           "metadata": {"description": "A player's name as seated",
                                        "example": "C"}}
CARD: dict[str, Any] = {"validate": [validate.Length(min=1, max=8), printable],
                        "metadata": {"description": "A card: rank then suit, e.g. QH, 10S, 7♥, AC",
                                     "example": "QH"}}

# Keys that carry an amount of money; a client that sends one is told the rules decide it.
MONEY_FIELDS = frozenset({
    "amount", "amounts", "amount_units", "units", "postings", "posting", "pool", "pool_units",
    "next_pool", "next_pool_units", "loo", "loo_units", "loo_amount", "loo_limit", "single_loo",
    "price", "deal_price", "fresh_deal_price", "stake", "ante", "share", "shares", "fine",
    "payment", "payments", "balance", "balances", "winnings", "money", "value", "carried_units",
})


def money_field_in(data: dict[str, Any], allowed: frozenset[str] = frozenset()) -> str | None:
    """The first key of `data` that is an amount of money (and not an allowed parameter)."""
    for key in data:
        if not isinstance(key, str) or key in allowed:
            continue
        name = key.strip().lower()
        if name in MONEY_FIELDS or name.endswith("_units") or name.endswith("_minor"):
            return key
    return None


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


class Open(ma.Schema):
    """A response schema that keeps members it does not declare."""

    @ma.post_dump(pass_original=True)
    def _keep_undeclared(self, data: dict[str, Any], original: Any, **kwargs: Any) -> Any:
        if isinstance(original, dict):
            for key, value in original.items():
                data.setdefault(key, value)
        return data


class Timestamp(fields.Field):
    """An ISO 8601 timestamp, whether the store hands over a datetime or a string."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        if isinstance(value, dt.datetime | dt.date):
            return value.isoformat()
        return value


def _strict_int(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kwargs)


def _strict_bool(**kwargs: Any) -> fields.Boolean:
    return fields.Boolean(truthy={True}, falsy={False}, **kwargs)


# ---------------------------------------------------------------- opening a session


class SessionOpenSchema(Strict):
    """Open a session: the players in seat order, a rule preset and any overrides."""

    name = fields.String(load_default="", validate=[validate.Length(max=200), printable],
                         metadata={"example": "Thursday table"})
    players = fields.List(fields.String(**PLAYER), required=True,
                          validate=validate.Length(min=2, max=52),
                          metadata={"description": "Names in seat order (to the left)",
                                    "example": ["A", "B", "C", "D", "E"]})
    preset = fields.String(load_default=None, allow_none=True,
                           validate=validate.OneOf(list(PRESETS)),
                           metadata={"description": "Rule preset; baxter-wray by default",
                                     "example": "baxter-wray"})
    rules = fields.Dict(keys=fields.String(), load_default=dict,
                        metadata={"description": "Overrides of single rule parameters, e.g. "
                                                 "{\"loo_amount\": 9, \"pack\": 32}",
                                  "example": {}})
    first_dealer = fields.String(load_default=None, allow_none=True, validate=printable,
                                 metadata={"description": "Who deals first (the first knave); "
                                                          "the first player by default"})
    unit = fields.String(load_default="counter",
                         validate=[validate.Length(min=1, max=20), printable],
                         metadata={"description": "What one unit is called"})
    money_per_unit_minor = _strict_int(
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


# ---------------------------------------------------------------- events a client may send


def _type(name: str) -> fields.String:
    return fields.String(required=True, validate=validate.OneOf([name]),
                         metadata={"description": "The event type", "example": name})


class EventIn(Strict):
    """Base of the client event schemas: `type` names the event; the rest are its fields."""

    type = fields.String(required=True)
    command: ClassVar[builtins.type[Command]]  # `type` is the field above

    @ma.post_load
    def _command(self, data: dict[str, Any], **kwargs: Any) -> Command:
        data = dict(data)
        data.pop("type", None)
        return self.command(**data)


class DealStartedIn(EventIn):
    """The dealer has dealt: the card turned up for trump; at the turn-up single also the card
    dealt face up to each player."""

    command = cmd.StartDeal
    type = _type("DealStarted")
    trump_card = fields.String(required=True, **CARD)
    dealer = fields.String(load_default=None, allow_none=True, validate=printable,
                           metadata={"description": "Who dealt (the rotation's dealer by "
                                                    "default)"})
    face_up = fields.Dict(keys=fields.String(**PLAYER), values=fields.String(**CARD),
                          load_default=None, allow_none=True,
                          metadata={"description": "Turn-up single: the card each player was "
                                                   "dealt face up",
                                    "example": {"A": "5C", "B": "9H", "C": "KS", "D": "QH",
                                                "E": "2H"}})


class DeclarationMadeIn(EventIn):
    """A player declares, in turn from the elder hand to the dealer."""

    command = cmd.Declare
    type = _type("DeclarationMade")
    player = fields.String(required=True, **PLAYER)
    declaration = fields.String(
        required=True,
        validate=validate.OneOf(["play", "throw_up", "take_miss", "play_miss_for_pool"]))


class CardPlayedIn(EventIn):
    """A standing player plays a card (card-by-card entry: the ledger checks the laws)."""

    command = cmd.PlayCard
    type = _type("CardPlayed")
    player = fields.String(required=True, **PLAYER)
    card = fields.String(required=True, **CARD)


class TrickWonIn(EventIn):
    """Quick entry: only the winner of a trick is logged; nothing can be checked."""

    command = cmd.RecordTrick
    type = _type("TrickWon")
    winner = fields.String(required=True, **PLAYER)


class PenaltyImposedIn(EventIn):
    """The table imposes a penalty for an offence named in the session's penalty table."""

    command = cmd.ImposePenalty
    type = _type("PenaltyImposed")
    player = fields.String(required=True, **PLAYER)
    offence = fields.String(required=True, validate=[validate.Length(min=1, max=60), printable],
                            metadata={"description": "An offence of the preset's table, e.g. "
                                                     "misdeal, looked-at-miss, revoke",
                                      "example": "looked-at-miss"})
    redeal = _strict_bool(load_default=False,
                          metadata={"description": "Interference with the deal: cards were "
                                                   "mixed or exposed, so deal again"})


class ReplayAskedIn(EventIn):
    """A player asks for the hand to be replayed after an offence in play."""

    command = cmd.AskReplay
    type = _type("ReplayAsked")
    by = fields.String(required=True, **PLAYER)


class ReplayWaivedIn(EventIn):
    """Nobody asks for a replay: the play as made stands."""

    command = cmd.WaiveReplay
    type = _type("ReplayWaived")


class PlayerJoinedIn(EventIn):
    """An aftercomer takes a seat to the left of `after`."""

    command = cmd.JoinPlayer
    type = _type("PlayerJoined")
    player = fields.String(required=True, **PLAYER)
    after = fields.String(required=True, **PLAYER)


class PlayerWithdrewIn(EventIn):
    """A player withdraws at his turn to deal."""

    command = cmd.Withdraw
    type = _type("PlayerWithdrew")
    player = fields.String(required=True, **PLAYER)


class LastRoundStartedIn(EventIn):
    """The last round begins: everyone stands, no miss."""

    command = cmd.StartLastRound
    type = _type("LastRoundStarted")


class SessionEndedIn(EventIn):
    """End the session."""

    command = cmd.EndSession
    type = _type("SessionEnded")
    method = fields.String(required=True,
                           validate=validate.OneOf(["single", "divide-pool",
                                                    "release-last-loos"]))


EVENT_SCHEMAS: dict[str, type[EventIn]] = {
    "DealStarted": DealStartedIn,
    "DeclarationMade": DeclarationMadeIn,
    "CardPlayed": CardPlayedIn,
    "TrickWon": TrickWonIn,
    "PenaltyImposed": PenaltyImposedIn,
    "ReplayAsked": ReplayAskedIn,
    "ReplayWaived": ReplayWaivedIn,
    "PlayerJoined": PlayerJoinedIn,
    "PlayerWithdrew": PlayerWithdrewIn,
    "LastRoundStarted": LastRoundStartedIn,
    "SessionEnded": SessionEndedIn,
}


def unmatched_client_types() -> set[str]:
    """Client types whose schema is missing or builds another command (a test keeps it empty)."""
    names = set(CLIENT_TYPES) | set(EVENT_SCHEMAS)
    return {n for n in names
            if n not in EVENT_SCHEMAS or CLIENT_TYPES.get(n) is not EVENT_SCHEMAS[n].command}


class EventBatchIn(Strict):
    """Several events appended together, all or nothing."""

    events = fields.List(fields.Dict(), required=True,
                         metadata={"description": "Events in the order they happened"})
    expected_version = _strict_int(
        load_default=None, allow_none=True, validate=validate.Range(min=0),
        metadata={"description": "Append only if the session is at this version (else 409); "
                                 "the If-Match header says the same"})


# ---------------------------------------------------------------- reading a POST body

ACCEPTED = ", ".join(EVENT_SCHEMAS)


def _money_problem(key: str, where: str) -> ApiProblem:
    return ApiProblem(422, "money-from-client",
                      f"money amounts are decided by the rules, not sent by the client: "
                      f"remove {key!r}", rule="no-client-amounts", field=where)


def load_event(event: Any, where: str = "") -> Command:
    """One client event -> its domain command, or a problem naming the field at fault."""
    prefix = f"{where}." if where else ""
    if not isinstance(event, dict):
        raise ApiProblem(422, "validation-failed",
                         f"{where or 'the event'} must be a JSON object", rule="schema",
                         field=where or None)
    money = money_field_in(event)
    if money is not None:
        raise _money_problem(money, prefix + money)
    kind = event.get("type")
    if kind is None:
        raise ApiProblem(422, "validation-failed",
                         f"{prefix}type is missing: name the event, one of {ACCEPTED}",
                         rule="schema", field=prefix + "type", accepted=list(EVENT_SCHEMAS))
    schema = EVENT_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise ApiProblem(422, "unknown-event-type",
                         f"unknown event type {kind!r}; accepted types: {ACCEPTED}",
                         rule="event-type", field=prefix + "type",
                         accepted=list(EVENT_SCHEMAS))
    try:
        return schema().load(event)
    except ma.ValidationError as error:
        messages = error.messages
        if where:
            messages = {where: messages}
        raise ma.ValidationError(messages) from None


def load_events(body: dict[str, Any], *, max_batch: int) -> tuple[list[Command], int | None]:
    """A single event or a batch -> the commands and the expected version the body names."""
    if "events" not in body:
        return [load_event(body)], None
    money = money_field_in(body)
    if money is not None:
        raise _money_problem(money, money)
    batch = EventBatchIn().load(body)
    events = batch["events"]
    if len(events) > max_batch:
        raise ApiProblem(413, "too-large",
                         f"a batch holds at most {max_batch} events; this one has {len(events)}",
                         rule="batch-limit", field="events")
    if not events:
        raise ApiProblem(422, "validation-failed", "events: a batch needs at least one event",
                         rule="schema", field="events")
    commands = [load_event(event, f"events.{i}") for i, event in enumerate(events)]
    return commands, batch["expected_version"]


# ---------------------------------------------------------------- query strings

MAX_POSITION = 2**63 - 1  # the store's position is a 64-bit integer


class EventsQuery(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_POSITION),
                           metadata={"description": "Global position to read after"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000),
                           metadata={"description": "At most this many events"})


class StatementQuery(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    format = fields.String(validate=validate.OneOf(["json", "csv"]),
                           metadata={"description": "csv for a spreadsheet (or send "
                                                    "Accept: text/csv)"})


# ---------------------------------------------------------------- responses


class RecordedEventSchema(Open):
    position = fields.Integer(metadata={"description": "Global position in the store"})
    version = fields.Integer(metadata={"description": "The session's version after it"})
    type = fields.String()
    schema_version = fields.Integer()
    payload = fields.Dict()
    recorded_at = Timestamp(metadata={"type": "string", "format": "date-time"})
    actor = fields.String()


class SessionViewSchema(Open):
    session_id = fields.String()
    name = fields.String()
    version = fields.Integer(metadata={"description": "Events recorded so far; the ETag"})
    status = fields.String(metadata={"description": "open | ended"})
    rules = fields.Dict(metadata={"description": "The effective rules, whole"})
    unit = fields.String()
    money_per_unit_minor = fields.Integer(allow_none=True)
    currency = fields.String(allow_none=True)
    seats = fields.List(fields.String())
    active = fields.List(fields.String())
    deal_no = fields.Integer()
    next_dealer = fields.String(allow_none=True)
    pool_units = fields.Integer()
    next_pool_units = fields.Integer()
    loos_owed = fields.List(fields.Dict())
    balances = fields.Dict(keys=fields.String(), values=fields.Integer())
    expected = fields.Raw(metadata={"description": "Whose turn it is and the legal choices"})
    deal = fields.Dict(allow_none=True)


class AppendResultSchema(Open):
    session_id = fields.String()
    version = fields.Integer()
    appended = fields.List(fields.Nested(RecordedEventSchema))
    session = fields.Nested(SessionViewSchema)


class DealViewSchema(Open):
    deal_no = fields.Integer()
    dealer = fields.String()
    kind = fields.String(metadata={"description": "single (the turn-up single) or hand"})
    trump_card = fields.String()
    phase = fields.String()
    declarations = fields.Dict()
    standing = fields.List(fields.Dict())
    tricks = fields.List(fields.Dict())
    penalties = fields.List(fields.Dict())
    breaches = fields.List(fields.Dict())
    postings = fields.List(fields.Dict())
    settlement = fields.Dict(allow_none=True)
    pool_units = fields.Integer()


class StatementSchema(Open):
    session_id = fields.String()


class EventsPageSchema(Open):
    events = fields.List(fields.Nested(RecordedEventSchema))
    next_after = fields.Integer(allow_none=True,
                                metadata={"description": "Pass as ?after= for the next page"})
    next = fields.String(allow_none=True, metadata={"description": "URL of the next page"})


class HealthSchema(Open):
    status = fields.String(metadata={"example": "ok"})
    database = fields.String(metadata={"example": "ok"})


class ProblemSchema(ma.Schema):
    """application/problem+json (RFC 9457), with the ledger's own members."""

    type = fields.String(metadata={"example": "urn:lanterloo:problem:out-of-turn"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    instance = fields.String()
    rule = fields.String(metadata={"description": "The rule or check that refused"})
    field = fields.String(metadata={"description": "The field at fault"})
    errors = fields.Dict(metadata={"description": "Validation messages per field"})
    current_version = fields.Integer(metadata={"description": "On 409: the session's version"})
    accepted = fields.List(fields.String(), metadata={"description": "Accepted event types"})
