"""Events as one family of schemas: what a client sends (one schema per event type, a batch),
what the log holds, and what the table may log next (`expected`)."""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

import marshmallow as ma
from flask import current_app
from marshmallow import fields, validate

from api.http.errors import ApiProblem
from api.schemas.base import (
    CARD,
    PHASES,
    PLAYER,
    Open,
    Schema,
    Strict,
    Variants,
    money_field_in,
    printable,
    strict_bool,
    strict_int,
)
from ledger.domain import CLIENT_TYPES, Command
from ledger.domain import commands as cmd
from ledger.domain import rules as domain_rules
from ledger.domain.declaring import DECLARATIONS
from ledger.domain.ending import END_METHODS
from ledger.domain.vocabulary import Forced

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
                                    "component": "FaceUp",
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
    count = strict_int(required=True, validate=validate.Range(min=1, max=5),
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
    redeal = strict_bool(load_default=False,
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
    """An aftercomer takes a seat to the left of `after`, as a member of the club, as at the
    opening: `player` is a member's name (any case) or id, or, with `guest`, a name that
    becomes a guest member. The join records his member; his result is on his account."""

    command = cmd.JoinPlayer
    type = _type("PlayerJoined")
    player = fields.String(required=True, validate=PLAYER["validate"], metadata={
        "description": "The aftercomer: a member's name (any case) or id, or a new guest's "
                       "name with `guest`", "example": "F"})
    after = fields.String(required=True, **PLAYER)
    guest = strict_bool(load_default=False,
                        metadata={"description": "A player who is no member yet becomes a "
                                                 "guest member of the club (as a name listed "
                                                 "in `guests` when a session opens)"})


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

    events = fields.List(Variants("EventIn"), required=True, metadata={
        "description": "Events in the order they happened; at least one (the limit: "
                       "LOO_MAX_BATCH_EVENTS, 413 beyond it)", "minItems": 1})
    expected_version = strict_int(
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


class AppendIn(Schema):
    """An append's body: one event, or a batch appended all or nothing. Its load is
    `load_events` (the commands, and the version the body names), at most the app's
    MAX_BATCH_EVENTS; the OpenAPI document writes it as the `oneOf` of an `EventIn` and an
    `EventBatchIn` (api/http/openapi.py)."""

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None,
             unknown: Any = None) -> tuple[list[Command], int | None]:
        return load_events(data, max_batch=int(current_app.config["MAX_BATCH_EVENTS"]))



# ---------------------------------------------------------------- what the table may log next


def _names(description: str, **kwargs: Any) -> fields.List:
    return fields.List(fields.String(), metadata={"description": description}, **kwargs)


def _offers(description: str) -> fields.Dict:
    return fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                       required=True, metadata={"description": description})


class PamCallSchema(Open):
    """Five-card loo, the ace of trumps led while Pam is out: the card and the calls."""

    card = fields.String(required=True, metadata={"example": "AH"})
    choices = fields.List(fields.String(validate=validate.OneOf(["pam-be-civil", "none"])),
                          required=True)


# One schema per event type the table may log next, with what that type needs to be sent
# (ledger/domain/expect.py); `expected.actions` is a list of them, told apart by `type`.
ACTIONS: dict[str, dict[str, fields.Field]] = {
    "DealStarted": {
        "dealer": fields.String(required=True, allow_none=True),
        "kind": fields.String(required=True, validate=validate.OneOf(["single", "hand"])),
        "needs": _names("The fields to send", required=True),
        "fresh": fields.Boolean(metadata={"description": "Between deals: the next deal's pool "
                                                        "is fresh"}),
        "forced": fields.String(allow_none=True, validate=validate.OneOf(list(Forced)),
                                metadata={"description": "Between deals: why everyone will "
                                                         "stand with no miss, whatever the "
                                                         "trump; null if nothing forces it"}),
        "club_law": fields.Boolean(metadata={"description": "Between deals: a club turned up "
                                                            "will force everyone to stand"}),
        "dealt": fields.List(fields.String(), metadata={
            "description": "Between deals: who will be dealt in, from the dealer's left (a "
                           "withdrawing dealer, or one standing out, is not); the turn-up "
                           "single's `face_up` names each"}),
    },
    "DeclarationMade": {
        "player": fields.String(required=True, metadata={"description": "Whose turn it is"}),
        "choices": fields.List(fields.String(validate=validate.OneOf(list(DECLARATIONS))),
                               required=True, metadata={"description": "The legal "
                                                                       "declarations"}),
    },
    "CardPlayed": {
        "player": fields.String(required=True, metadata={"description": "Whose turn it is"}),
        "trick": fields.Integer(required=True),
        "calls": _names("A five-card lead: the calls that may go with it"),
        "pam_call": fields.Nested(PamCallSchema, metadata={
            "description": "A five-card lead while Pam is out: leading that card must send "
                           "`call`, one of the choices"}),
    },
    "CardsExchanged": {
        "players": _names("Who may exchange now", required=True),
        "stock_left": fields.Integer(required=True,
                                     metadata={"description": "Cards left in the pack"}),
        "exchange_at": fields.String(
            required=True, validate=validate.OneOf(list(domain_rules.EXCHANGE_TIMES)),
            metadata={"description": "turn-to-declare (each player after his 'play' and "
                                     "before the next player declares; the dealer until the "
                                     "first card) or before-play (any standing player until "
                                     "the first card)"}),
    },
    "FlushShown": {
        "players": _names("Who may show one", required=True),
        "pam": fields.String(required=True, allow_none=True,
                             metadata={"description": "The card that is Pam this deal"}),
        "needs": _names("The fields to send", required=True),
        "pam_candidates": _names("When `needs` lists pam_held_by: the players whose payment "
                                 "depends on who holds Pam; send one of them, or null for "
                                 "none"),
        "pam_held_by": fields.String(allow_none=True, metadata={
            "description": "Where the holder of Pam pays no flush and the logged cards show "
                           "where Pam is: its holder, or null for nobody"}),
    },
    "TrickWon": {
        "trick": fields.Integer(required=True),
        "winners": _names("Quick entry: who may win the trick", required=True),
    },
    "PenaltyImposed": {
        "offences": _names("The offences of the penalty table the game can have (none with "
                           "the miss at Irish and five-card loo)", required=True),
        "by_player": _offers("For each player who may be charged now, the offences the ledger "
                             "accepts for him (in the table's order); a player with none is "
                             "left out"),
        "redeal": _offers("The offences for which `redeal: true` (the cards were mixed or "
                          "exposed) is accepted too, per player"),
    },
    "ReplayAsked": {"by": _names("Who may ask for a replay", required=True)},
    "ReplayWaived": {},
    "PlayerJoined": {},
    "PlayerWithdrew": {"player": fields.String(required=True,
                                               metadata={"description": "Who may withdraw: "
                                                                        "the next dealer"})},
    "LastRoundStarted": {},
    "SessionEnded": {"methods": fields.List(fields.String(validate=validate.OneOf(
        list(END_METHODS))), required=True)},
}
EXPECTED_ACTIONS: dict[str, type[ma.Schema]] = {
    name: Open.from_dict({
        "type": fields.String(required=True, validate=validate.OneOf([name]),
                              metadata={"description": "The event type to send"}),
        **members}, name=f"{name}Action")
    for name, members in ACTIONS.items()}


class ExpectedSchema(Open):
    """Whose turn it is and the legal choices."""

    phase = fields.String(required=True,
                          validate=validate.OneOf(["between-deals", "ended", *PHASES]),
                          metadata={"description": "between-deals, ended or the deal's "
                                                   "phase"})
    round_even = fields.Boolean(metadata={"description": "Between deals: everyone has dealt "
                                                         "equally often"})
    actions = fields.List(Variants("ExpectedAction"), required=True)
