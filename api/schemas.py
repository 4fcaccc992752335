"""Marshmallow schemas: what the API accepts (each builds a domain command) and what it returns.

Request schemas refuse unknown fields (`unknown = RAISE`), take integers and booleans only as
JSON integers and booleans (never 1 for true, 52.0 or "52" for 52), and never accept an amount
of money: the rules decide every amount. Response schemas declare every member the service
returns and pass through any member the domain adds later (their OpenAPI schemas never say
`additionalProperties: false`), so a generated client keeps working when the ledger grows.
"""

from __future__ import annotations

import builtins
import datetime as dt
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import fields, validate

from ledger.domain import CLIENT_TYPES, PRESETS, Command, OpenSession, Rules
from ledger.domain import commands as cmd
from ledger.domain import rules as domain_rules
from ledger.domain.declaring import DECLARATIONS
from ledger.domain.ending import END_METHODS
from ledger.domain.legality import OFFENCE_OF_RULE
from ledger.domain.limits import MAX_PLAYERS, PACKS, PLAYER_NAME_MAX
from ledger.domain.vocabulary import Phase

from .errors import ApiProblem


def printable(value: str) -> bool:
    """Names and codes are text a person reads: no control characters (NUL, newlines...)."""
    if not value.isprintable():
        raise ma.ValidationError("must not contain control characters")
    return True


PLAYER: dict[str, Any] = {"validate": [validate.Length(min=1, max=PLAYER_NAME_MAX), printable],
          "metadata": {"description": "A player's name as seated", "example": "C"}}

# A card as ledger.domain.cards.parse_card reads it: a rank (2-10, J, Q, K, A; T for 10 and
# 1 for the ace), then a suit (C, D, H, S or ♣ ♦ ♥ ♠), in either case. The parser also strips
# surrounding spaces; the API does not take them. A test keeps the two in agreement.
CARD_PATTERN = r"^(?:10|[2-9TtJjQqKkAa1])[CDHScdhs♣♦♥♠]$"
CARD: dict[str, Any] = {
    "validate": [validate.Regexp(CARD_PATTERN, error="{input!r} is not a card: a rank "
                                 "(2-10, J, Q, K, A; T for 10, 1 for the ace) then a suit "
                                 "(C, D, H, S or ♣ ♦ ♥ ♠), e.g. QH, 10S, 7♥")],
        "metadata": {"description": "A card: rank (2-10, J, Q, K, A; aliases T for 10 and 1 "
                                    "for the ace) then suit (C, D, H, S or ♣ ♦ ♥ ♠), in either "
                                    "case, e.g. QH, 10S, 7♥, ac", "example": "QH"}}

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
    """A response schema that keeps members it does not declare.

    `unknown = EXCLUDE` only shapes the OpenAPI document (apispec then writes no
    `additionalProperties`, so undeclared members are allowed): dumping never drops a member.
    """

    class Meta:
        unknown = ma.EXCLUDE

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


class StrictBoolean(fields.Boolean):
    """A JSON boolean and nothing else: 1, 0, "true" and "yes" are refused.

    (marshmallow's own Boolean compares by equality, and 1 == True in Python.)
    """

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _strict_int(**kwargs: Any) -> fields.Integer:
    """A JSON integer and nothing else: 52.0, "52" and true are refused."""
    return fields.Integer(strict=True, **kwargs)


def _strict_bool(**kwargs: Any) -> fields.Boolean:
    return StrictBoolean(**kwargs)


def distinct(values: list[Any]) -> bool:
    if len(set(values)) != len(values):
        raise ma.ValidationError("player names must be distinct")
    return True


# ---------------------------------------------------------------- rule parameters

# The choices of each rule parameter that is a name (ledger/domain/rules.py).
RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "loo": domain_rules.LOO_KINDS,
    "fresh_pool": domain_rules.FRESH_POOLS,
    "lead_rule": domain_rules.LEAD_RULES,
    "trump_after_trick": domain_rules.TRUMP_AFTER_TRICK,
    "deal_out_of_turn": domain_rules.DEAL_OUT_OF_TURN,
    "penalties": domain_rules.PENALTY_TABLES,
    "variant": domain_rules.VARIANTS,
    "pack": PACKS,
    "pam": domain_rules.PAMS,  # five-card loo only
    "flush_payers": domain_rules.FLUSH_PAYERS,  # five-card loo only
    "flush_precedence": domain_rules.FLUSH_PRECEDENCES,  # five-card loo only
    "exchange_at": domain_rules.EXCHANGE_TIMES,  # Irish and five-card loo only
}
MAX_UNITS = 10**9


def _annotation(name: str) -> str:
    return str(Rules.__dataclass_fields__[name].type).replace(" ", "")


def _rule_field(name: str, *, request: bool) -> fields.Field:
    """The field of one rule parameter, typed from the Rules dataclass: a JSON integer for
    `int`, a JSON boolean for `bool`, one of the choices for a name; null where it may be."""
    annotation = _annotation(name)
    # Null where the type allows it, or where a preset leaves it for the rules to fill in
    # (single_loo: null is "the preset's default").
    nullable = annotation.endswith("|None") or any(
        params.get(name, 0) is None for params in PRESETS.values())
    base = annotation.removesuffix("|None")
    options: dict[str, Any] = {"allow_none": nullable}
    if name in RULE_CHOICES:
        options["validate"] = validate.OneOf(list(RULE_CHOICES[name]))
    if base == "int":
        if request and name not in RULE_CHOICES:
            options["validate"] = validate.Range(min=0, max=MAX_UNITS)
        return _strict_int(**options) if request else fields.Integer(**options)
    if base == "bool":
        return _strict_bool(**options) if request else fields.Boolean(**options)
    if base == "str" or name in RULE_CHOICES:  # a name (the domain types it as a StrEnum)
        if name in RULE_CHOICES:
            options["validate"] = validate.OneOf([str(c) for c in RULE_CHOICES[name]])
        return fields.String(**options)
    raise TypeError(f"rule parameter {name} has a type the API cannot describe: {annotation}")


RuleOverridesIn = Strict.from_dict(
    {name: _rule_field(name, request=True) for name in domain_rules.OVERRIDABLE},
    name="RuleOverridesIn")
RuleOverridesIn.__doc__ = ("Single rule parameters a club overrides; each of its type (an "
                           "integer, a boolean or one of the names), null where the "
                           "parameter may be empty. Ranges beyond the type (a stake divisible "
                           "by 3, a loo the kind of loo needs) are checked by the rules.")


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
        validate=validate.OneOf(list(DECLARATIONS)))


class CardPlayedIn(EventIn):
    """A standing player plays a card (card-by-card entry: the ledger checks the laws)."""

    command = cmd.PlayCard
    type = _type("CardPlayed")
    player = fields.String(required=True, **PLAYER)
    card = fields.String(required=True, **CARD)
    call = fields.String(load_default=None, allow_none=True,
                         validate=validate.OneOf(["pam-be-civil", "none"]),
                         metadata={"description": "Five-card loo, the ace of trumps led: "
                                                  "'pam-be-civil' when it was said, 'none' "
                                                  "when not. Required while Pam is out (the "
                                                  "CardPlayed action's `pam_call`)"})


class CardsExchangedIn(EventIn):
    """Irish and five-card loo: a standing player exchanges cards from the top of the pack,
    once, before play; the count always, the cards when known."""

    command = cmd.ExchangeCards
    type = _type("CardsExchanged")
    player = fields.String(required=True, **PLAYER)
    count = _strict_int(required=True, validate=validate.Range(min=1, max=5),
                        metadata={"description": "How many cards he put out and drew",
                                  "example": 2})
    cards_out = fields.List(fields.String(**CARD), load_default=None, allow_none=True,
                            metadata={"description": "The cards he put out, when known"})
    cards_in = fields.List(fields.String(**CARD), load_default=None, allow_none=True,
                           metadata={"description": "The cards he drew, when known"})


class FlushShownIn(EventIn):
    """Five-card loo: the flushes shown after the declarations (the ledger finds the winner)."""

    command = cmd.ShowFlush
    type = _type("FlushShown")
    flushes = fields.Dict(keys=fields.String(**PLAYER),
                          values=fields.List(fields.String(**CARD)), required=True,
                          metadata={"description": "Each player who shows a flush, and his "
                                                   "five cards",
                                    "example": {"B": ["2H", "5H", "9H", "QH", "KH"]}})
    # Left out (no load_default): not said, which the ledger refuses where it needs the holder;
    # null: none of the players it concerns holds Pam (docs/rules.md §11.38).
    pam_held_by = fields.String(
        allow_none=True, validate=PLAYER["validate"],
        metadata={"description": "Who holds Pam, where the holder pays no flush and no logged "
                                 "card shows it (the FlushShown action's `needs` and "
                                 "`pam_candidates`): a player, or null for none of them. "
                                 "Leaving it out is not saying", "example": "C"})


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
    method = fields.String(required=True, validate=validate.OneOf(list(END_METHODS)))


EVENT_SCHEMAS: dict[str, type[EventIn]] = {
    "DealStarted": DealStartedIn,
    "DeclarationMade": DeclarationMadeIn,
    "CardPlayed": CardPlayedIn,
    "CardsExchanged": CardsExchangedIn,
    "FlushShown": FlushShownIn,
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


# One instance of each request schema, made once: a schema copies its declared fields when it
# is made, which cost more than the load itself. A load keeps nothing on the instance, so
# every request may share it.
_EVENT_LOADERS: dict[str, EventIn] = {kind: schema() for kind, schema in EVENT_SCHEMAS.items()}
_BATCH_LOADER = EventBatchIn()


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
        return _EVENT_LOADERS[kind].load(event)
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
    batch = _BATCH_LOADER.load(body)
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

    format = fields.String(validate=validate.OneOf(["json", "csv", "html"]),
                           metadata={"description": "csv for a spreadsheet (or send "
                                                    "Accept: text/csv); html for a printable "
                                                    "page (or Accept: text/html)"})


# ---------------------------------------------------------------- responses

BREACH_RULES = list(OFFENCE_OF_RULE)
PHASES = [str(phase) for phase in Phase]


def _players_to(values: fields.Field, **kwargs: Any) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=values, **kwargs)


class RecordedEventSchema(Open):
    position = fields.Integer(required=True,
                              metadata={"description": "Global position in the store"})
    version = fields.Integer(required=True,
                             metadata={"description": "The session's version after it"})
    type = fields.String(required=True)
    schema_version = fields.Integer()
    payload = fields.Dict(metadata={"description": "The event's fields (a BreachDetected "
                                                   "event's are the BreachDetected schema)"})
    recorded_at = Timestamp(metadata={"type": "string", "format": "date-time"})
    actor = fields.String()
    member_id = fields.String(allow_none=True,
                              metadata={"description": "The member who appended it"})
    token_id = fields.String(allow_none=True,
                             metadata={"description": "The token (device) it came from"})
    superseded_by = fields.Integer(allow_none=True, metadata={
        "description": "The version of the correction that superseded this event (the log "
                       "keeps it; the projections no longer count it), or null"})
    hash = fields.String(allow_none=True, metadata={
        "description": "SHA-256 of the event chained to the one before it (docs/operations.md)"})


RulesSchema = Open.from_dict(
    {"preset": fields.String(required=True, validate=validate.OneOf(list(PRESETS))),
     **{name: _rule_field(name, request=False) for name in domain_rules.OVERRIDABLE}},
    name="RulesSchema")
RulesSchema.__doc__ = "The effective rules of a session, whole (see the rule presets)."


class ExpectedActionSchema(Open):
    """One thing the table may log next; which members appear depends on `type`."""

    type = fields.String(required=True, metadata={"description": "The event type to send"})
    player = fields.String(allow_none=True, metadata={"description": "Whose turn it is"})
    choices = fields.List(fields.String(validate=validate.OneOf(list(DECLARATIONS))),
                          metadata={"description": "The legal declarations"})
    dealer = fields.String(allow_none=True)
    kind = fields.String(validate=validate.OneOf(["single", "hand"]))
    fresh = fields.Boolean()
    needs = fields.List(fields.String(), metadata={"description": "The fields to send"})
    methods = fields.List(fields.String(validate=validate.OneOf(list(END_METHODS))))
    trick = fields.Integer()
    winners = fields.List(fields.String(),
                          metadata={"description": "Quick entry: who may win the trick"})
    offences = fields.List(fields.String(),
                           metadata={"description": "The offences of the penalty table the "
                                                    "game can have (none with the miss at "
                                                    "Irish and five-card loo)"})
    by_player = fields.Dict(
        keys=fields.String(), values=fields.List(fields.String()),
        metadata={"description": "PenaltyImposed: for each player who may be charged now, the "
                                 "offences the ledger accepts for him (in the table's order); "
                                 "a player with none is left out"})
    redeal = fields.Dict(
        keys=fields.String(), values=fields.List(fields.String()),
        metadata={"description": "PenaltyImposed: the offences for which `redeal: true` (the "
                                 "cards were mixed or exposed) is accepted too, per player"})
    by = fields.List(fields.String(), metadata={"description": "Who may ask for a replay"})
    # Irish and five-card loo (docs/rules.md §11.30)
    players = fields.List(fields.String(), metadata={
        "description": "CardsExchanged: who may exchange now; FlushShown: who may show one"})
    stock_left = fields.Integer(metadata={"description": "CardsExchanged: cards left in the "
                                                         "pack"})
    exchange_at = fields.String(
        validate=validate.OneOf(list(domain_rules.EXCHANGE_TIMES)),
        metadata={"description": "CardsExchanged: turn-to-declare (each player after his "
                                 "'play' and before the next player declares; the dealer "
                                 "until the first card) or before-play (any standing player "
                                 "until the first card)"})
    calls = fields.List(fields.String(), metadata={
        "description": "CardPlayed, a five-card lead: the calls that may go with it"})
    pam_call = fields.Dict(metadata={
        "description": "CardPlayed, a five-card lead while Pam is out: {\"card\": the ace of "
                       "trumps, \"choices\": [\"pam-be-civil\", \"none\"]}; leading that "
                       "card must send `call`, one of the choices",
        "example": {"card": "AH", "choices": ["pam-be-civil", "none"]}})
    pam = fields.String(allow_none=True, metadata={
        "description": "FlushShown: the card that is Pam this deal"})
    pam_candidates = fields.List(fields.String(), metadata={
        "description": "FlushShown, when `needs` lists pam_held_by: the players whose payment "
                       "depends on who holds Pam; send one of them, or null for none"})
    pam_held_by = fields.String(allow_none=True, metadata={
        "description": "FlushShown, where the holder of Pam pays no flush and the logged cards "
                       "show where Pam is: its holder, or null for nobody"})


class ExpectedSchema(Open):
    """Whose turn it is and the legal choices."""

    phase = fields.String(required=True, metadata={"description": "between-deals, ended or "
                                                                  "the deal's phase"})
    round_even = fields.Boolean(metadata={"description": "Between deals: everyone has dealt "
                                                         "equally often"})
    actions = fields.List(fields.Nested(ExpectedActionSchema), required=True)


class DealSummarySchema(Open):
    deal_no = fields.Integer(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    dealer = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["single", "hand"]))
    trump_card = fields.String(required=True)


class WarningSchema(Open):
    """A game the rules allow but the sources advise against (docs/rules.md §11.42)."""

    rule = fields.String(required=True, validate=validate.OneOf(["five-card-players",
                                                                 "short-stock"]),
                         metadata={"description": "five-card-players: more than six hands at "
                                                  "five-card loo; short-stock: the pack left "
                                                  "for the exchanges holds less than a hand"})
    detail = fields.String(required=True)
    players = fields.Integer(metadata={"description": "five-card-players: the hands dealt"})
    stock_left = fields.Integer(metadata={"description": "short-stock: the cards left"})


class LooOwedSchema(Open):
    player = fields.String(required=True)
    amount_units = fields.Integer(required=True)
    deal_no = fields.Integer(allow_none=True)
    reason = fields.String()


class AsOfSchema(Open):
    """The earlier point a read shows (`?as_of=`): not the present (docs/explain.md)."""

    version = fields.Integer(required=True)
    recorded_at = fields.String(required=True, allow_none=True,
                                metadata={"description": "When the event at that version "
                                                         "was recorded (UTC)"})


def _as_of_member() -> fields.Nested:
    return fields.Nested(AsOfSchema, metadata={
        "description": "Only on a read as of an earlier point (?as_of=): the version and time "
                       "it shows; the session may have moved on since"})


class SessionViewSchema(Open):
    session_id = fields.String(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True,
                             metadata={"description": "Events recorded so far; the ETag"})
    status = fields.String(required=True, validate=validate.OneOf(["open", "ended"]))
    ended_method = fields.String(required=True, allow_none=True,
                                 validate=validate.OneOf(list(END_METHODS)),
                                 metadata={"description": "How the session ended; null while "
                                                          "it is open"})
    rules = fields.Nested(RulesSchema, required=True)
    unit = fields.String(required=True)
    money_per_unit_minor = fields.Integer(required=True, allow_none=True)
    currency = fields.String(required=True, allow_none=True)
    seats = fields.List(fields.String(), required=True,
                        metadata={"description": "Every player ever seated, in seat order"})
    members = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                          metadata={"description": "Each seated player's member id"})
    active = fields.List(fields.String(), required=True,
                         metadata={"description": "The players still in the game"})
    deal_no = fields.Integer(required=True, metadata={"description": "The last deal dealt"})
    next_dealer = fields.String(required=True, allow_none=True)
    deals_dealt = _players_to(fields.Integer(), required=True,
                              metadata={"description": "How many deals each player dealt"})
    pool_units = fields.Integer(required=True)
    next_pool_units = fields.Integer(required=True)
    loos_owed = fields.List(fields.Nested(LooOwedSchema), required=True)
    balances = _players_to(fields.Integer(), required=True)
    expected = fields.Nested(ExpectedSchema, required=True)
    deal = fields.Nested(DealSummarySchema, required=True, allow_none=True,
                         metadata={"description": "The current (or last) deal; null before "
                                                  "the first"})
    as_of = _as_of_member()
    warnings = fields.List(fields.Nested(WarningSchema), metadata={
        "description": "Only when the rules allow the table but the sources advise against it "
                       "(docs/rules.md §11.42); shown on opening the session"})


class AppendResultSchema(Open):
    """What an append (or opening a session) returns.

    In full (the default): every event appended, with its payload, and the session view.
    With `Prefer: return=minimal` on an append: the session id, the version, and the position,
    version and type of each event appended; no payloads and no `session`.
    """

    session_id = fields.String(required=True)
    version = fields.Integer(required=True,
                             metadata={"description": "The session version after the append"})
    appended = fields.List(fields.Nested(RecordedEventSchema), required=True)
    session = fields.Nested(SessionViewSchema,
                            metadata={"description": "The session after the append (absent "
                                                     "with Prefer: return=minimal)"})


class PostingSchema(Open):
    """A balanced movement of units: from one account to another, for a reason."""

    from_ = fields.String(data_key="from", attribute="from", required=True)
    to = fields.String(required=True)
    amount_units = fields.Integer(required=True)
    reason = fields.String(required=True)
    deal_no = fields.Integer(allow_none=True)
    loo = fields.Boolean()


class BreachDetectedSchema(Open):
    """A breach of the laws of play that the cards prove (the BreachDetected event's payload,
    and an entry of a deal's breaches). The ledger imposes its penalty by itself."""

    deal_no = fields.Integer(required=True)
    player = fields.String(required=True)
    rule = fields.String(required=True, validate=validate.OneOf(BREACH_RULES),
                         metadata={"description": "The law broken"})
    trick = fields.Integer(required=True)
    card = fields.String(required=True, metadata={"description": "The card played"})
    held = fields.List(fields.String(), required=True,
                       metadata={"description": "The cards that show the breach"})
    detail = fields.String(required=True)
    replay = fields.Boolean(required=True,
                            metadata={"description": "Whether the hand may be replayed"})


class StandingSchema(Open):
    player = fields.String(required=True)
    hand = fields.String(required=True, validate=validate.OneOf(["own", "miss",
                                                                  "miss-for-pool"]))


class TrickSchema(Open):
    trick = fields.Integer(required=True)
    winner = fields.String(required=True)
    cards = fields.List(fields.List(fields.String()), required=True,
                        metadata={"description": "[player, card] in the order played; empty "
                                                 "on quick entry"})


class DealViewSchema(Open):
    deal_no = fields.Integer(required=True)
    dealer = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["single", "hand"]),
                         metadata={"description": "single (the turn-up single) or hand"})
    trump_card = fields.String(required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    dealt = fields.List(fields.String(), required=True,
                        metadata={"description": "Dealt to, from the dealer's left"})
    fresh = fields.Boolean(required=True)
    forced = fields.String(required=True, allow_none=True)
    miss = fields.Boolean(required=True)
    face_up = _players_to(fields.String(), required=True)
    redeals = fields.Integer(required=True)
    declarations = _players_to(fields.String(validate=validate.OneOf(list(DECLARATIONS))),
                               required=True)
    standing = fields.List(fields.Nested(StandingSchema), required=True)
    entry = fields.String(required=True, allow_none=True,
                          validate=validate.OneOf(["cards", "quick"]))
    tricks = fields.List(fields.Nested(TrickSchema), required=True)
    current_trick = fields.List(fields.List(fields.String()), required=True)
    first_play = fields.List(fields.Nested(TrickSchema), required=True, allow_none=True,
                             metadata={"description": "The tricks as first played, kept when "
                                                      "the hand is replayed"})
    hands = _players_to(fields.List(fields.String()), required=True)
    replay = fields.String(required=True, allow_none=True)
    replay_asked_by = fields.String(required=True, allow_none=True)
    pool_at_play_units = fields.Integer(required=True, allow_none=True)
    penalties = fields.List(fields.Dict(), required=True)
    breaches = fields.List(fields.Nested(BreachDetectedSchema), required=True)
    postings = fields.List(fields.Nested(PostingSchema), required=True)
    contributions = fields.List(fields.Nested(PostingSchema), required=True,
                                metadata={"description": "The postings into the pool"})
    settlement = fields.Dict(required=True, allow_none=True)
    pool_units = fields.Integer(required=True)
    abandoned = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                            metadata={"description": "Players who threw up after the lead: "
                                                     "the first trick each plays no card to"})
    corrections = fields.List(fields.Nested(lambda: CorrectionSchema()), required=True,
                              metadata={"description": "Corrections of this deal's entries"})
    as_of = _as_of_member()


class StatementPlayerSchema(Open):
    player = fields.String(required=True)
    active = fields.Boolean(required=True)
    deals_dealt = fields.Integer(required=True)
    paid_units = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    received_units = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    paid_total_units = fields.Integer(required=True)
    received_total_units = fields.Integer(required=True)
    net_units = fields.Integer(required=True)
    net_money_minor = fields.Integer(required=True, allow_none=True)
    member_id = fields.String(required=True, allow_none=True,
                              metadata={"description": "The club member in this seat"})


class LogPinSchema(Open):
    version = fields.Integer(required=True)
    chain_head = fields.String(required=True, allow_none=True)
    chain_format = fields.String(required=True)
    checkpoint = fields.Dict(allow_none=True, metadata={
        "description": "The head signed with the service's checkpoint key (Ed25519; "
                       "docs/operations.md, \"How an auditor keeps heads\"); absent without "
                       "a key or as of an earlier point"})


class VerifySchema(Open):
    session_id = fields.String(required=True)
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    chain_head = fields.String(required=True, allow_none=True)
    chain_format = fields.String(required=True)
    problems = fields.List(fields.String(), required=True, metadata={
        "description": "What is wrong: the first broken link of the chain, a gap in the "
                       "versions, a projection that differs from the log"})


class CorrectionSchema(Open):
    """A correction: the entries it voided and put in their place, why, by whom, and what it
    changed (account -> signed units)."""

    version = fields.Integer(required=True, metadata={"description": "The correction's own "
                                                                     "version in the log"})
    voids = fields.List(fields.Dict(), required=True)
    replacements = fields.List(fields.Dict(), required=True)
    reason = fields.String(required=True)
    authorised_by = fields.String(required=True)
    deal_no = fields.Integer(required=True, allow_none=True)
    changes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class OutcomeSchema(Open):
    outcome = fields.String(required=True)
    deals = fields.Integer(required=True)
    meaning = fields.String(required=True)


class StatementPoolSchema(Open):
    current_pool_units = fields.Integer(required=True)
    next_pool_units = fields.Integer(required=True)
    loos_owed = fields.List(fields.Nested(LooOwedSchema), required=True)
    flows_units = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    what_became_of_it = fields.String(required=True)


class StatementCheckSchema(Open):
    nets_plus_pools_units = fields.Integer(required=True)
    zero_sum = fields.Boolean(required=True)


class TransferSchema(Open):
    from_ = fields.String(data_key="from", attribute="from", required=True)
    to = fields.String(required=True)
    amount_units = fields.Integer(required=True)
    amount_money_minor = fields.Integer(required=True, allow_none=True)


class StatementSettlementSchema(Open):
    final = fields.Boolean(required=True)
    provisional = fields.Boolean(required=True, metadata={
        "description": "true until the session ends; the pool is then a party owed what it "
                       "holds"})
    transfers = fields.List(fields.Nested(TransferSchema), required=True)


class StatementSchema(Open):
    session_id = fields.String(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "ended"]))
    ended_method = fields.String(required=True, allow_none=True,
                                 validate=validate.OneOf(list(END_METHODS)))
    preset = fields.String(required=True)
    unit = fields.String(required=True)
    money_per_unit_minor = fields.Integer(required=True, allow_none=True)
    currency = fields.String(required=True, allow_none=True)
    deals = fields.Integer(required=True)
    players = fields.List(fields.Nested(StatementPlayerSchema), required=True)
    pool = fields.Nested(StatementPoolSchema, required=True)
    check = fields.Nested(StatementCheckSchema, required=True)
    settlement = fields.Nested(StatementSettlementSchema, required=True)
    corrections = fields.List(fields.Nested(CorrectionSchema), required=True)
    log = fields.Nested(LogPinSchema, required=True, allow_none=True, metadata={
        "description": "The log the statement was drawn from: its version and the head of "
                       "its hash chain"})
    outcomes = fields.List(fields.Nested(OutcomeSchema), required=True,
                           metadata={"description": "How many deals ended each way"})
    cash = fields.Dict(allow_none=True, metadata={
        "description": "The cash counted at the close against what is expected (pools + cash "
                       "paid to the club against the session - cash it paid out); null when "
                       "nothing was counted (docs/books.md)"})
    as_of = _as_of_member()


class EventsPageSchema(Open):
    events = fields.List(fields.Nested(RecordedEventSchema), required=True)
    next_after = fields.Integer(required=True, allow_none=True,
                                metadata={"description": "Pass as ?after= for the next page"})
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "URL of the next page"})


class ProblemSchema(ma.Schema):
    """application/problem+json (RFC 9457), with the ledger's own members.

    A problem type may carry members of its own (RFC 9457 §3.2): the schema does not forbid
    others than these.
    """

    class Meta:
        unknown = ma.EXCLUDE

    type = fields.String(metadata={"example": "urn:lanterloo:problem:out-of-turn"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    instance = fields.String()
    rule = fields.String(metadata={"description": "The rule or check that refused"})
    field = fields.String(metadata={"description": "The field at fault"})
    errors = fields.Dict(metadata={"description": "Validation messages per field"})
    current_version = fields.Integer(metadata={"description": "On 409: the session's version"})
    expected_version = fields.Integer(metadata={"description": "On 409: the version the "
                                                               "request named"})
    accepted = fields.List(fields.String(), metadata={"description": "Accepted event types"})
    choices = fields.List(fields.String(), metadata={"description": "The legal declarations"})
