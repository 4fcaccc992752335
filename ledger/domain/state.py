"""The state a session's events fold into: what `decide` needs, and what the projections show.

Its size depends on the number of players and on the current deal only, never on the number
of deals played, so loading it and saving it costs the same at deal 1 and deal 1,000.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import orjson

from .records import (
    BreachRecord,
    Exchange,
    FlushRecord,
    LooOwed,
    PenaltyRecord,
    Posting,
    Standing,
    Trick,
)
from .rules import Rules
from .vocabulary import (
    Account,
    DealKind,
    Declaration,
    EndMethod,
    Entry,
    Forced,
    Hand,
    Outcome,
    Phase,
    ReplayStatus,
    Status,
    read_fields,
)

_VARIANT_ONLY = ("exchanges", "flush", "civil")
_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields, in their order, looked up once per class."""
    found = _NAMES.get(cls)
    if found is None:
        found = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return found


def to_json(value: Any) -> str:
    """A state, a deal or a view as JSON: a dataclass as its `json_fields()` where it has
    them (else its fields in their order), a vocabulary member as its value."""
    return orjson.dumps(value, default=_fields,
                        option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
                        ).decode()


def _fields(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        own = getattr(value, "json_fields", None)
        if own is not None:
            return own()
        return {f.name: getattr(value, f.name) for f in fields(value)}
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def plain(value: Any) -> Any:
    """`value` as its JSON reads back."""
    return orjson.loads(to_json(value))


@dataclass
class DealState:
    """One deal as it stands; its JSON is the deal projection."""

    deal_no: int
    dealer: str
    kind: DealKind
    trump_card: str
    dealt: list[str]
    fresh: bool
    forced: Forced | None
    miss: bool
    face_up: dict[str, str] = field(default_factory=dict)
    phase: Phase = Phase.DECLARING
    redeals: int = 0
    declarations: dict[str, Declaration] = field(default_factory=dict)
    standing: list[Standing] = field(default_factory=list)  # in the order dealt
    entry: Entry | None = None  # fixed by the first trick entered
    tricks: list[Trick] = field(default_factory=list)
    current_trick: list[list[str]] = field(default_factory=list)  # [[player, card], ...]
    first_play: list[Trick] | None = None  # the tricks as first played, kept on replay
    hands: dict[str, list[str]] = field(default_factory=dict)  # cards each player played
    # None, the offence's rule (required, on-request), then asked, waived or done
    replay: ReplayStatus | None = None
    replay_asked_by: str | None = None
    pool_at_play_units: int | None = None
    penalties: list[PenaltyRecord] = field(default_factory=list)
    # players who threw up after the lead: {player: the first trick he plays no card to}
    abandoned: dict[str, int] = field(default_factory=dict)
    breaches: list[BreachRecord] = field(default_factory=list)
    postings: list[Posting] = field(default_factory=list)
    settlement: dict[str, Any] | None = None  # the DealSettled payload without its postings
    # Irish and five-card loo (docs/rules.md §9.2, §9.3); left out of the JSON while empty, so
    # a three-card deal reads as before they existed.
    exchanges: dict[str, Exchange] = field(default_factory=dict)  # one per standing player
    flush: FlushRecord | None = None  # the flushes shown, the winner and who pays
    civil: list[int] = field(default_factory=list)  # tricks led by the ace with "Pam be civil"

    @property
    def trump(self) -> str:
        return self.trump_card[-1]

    def standing_names(self) -> list[str]:
        return [s["player"] for s in self.standing]

    def hand_of(self, player: str) -> Hand | None:
        for s in self.standing:
            if s["player"] == player:
                return s["hand"]
        return None

    def json_fields(self) -> dict[str, Any]:
        """The deal's fields as its JSON writes them: in their order, the variants' ones
        left out while empty (`to_json`)."""
        return {name: getattr(self, name) for name in _names(type(self))
                if not (name in _VARIANT_ONLY and not getattr(self, name))}

    def to_dict(self) -> dict[str, Any]:
        """The deal as its JSON reads back."""
        found: dict[str, Any] = plain(self)
        return found

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealState:
        return cls(**read_fields(cls, data))


@dataclass
class SessionState:
    session_id: str
    name: str
    rules: Rules
    unit: str
    money_per_unit_minor: int | None
    currency: str | None
    seats: list[str]  # every player ever seated, in seat order (to the left)
    active: list[str]  # players still in the game, in seat order
    version: int = 0
    status: Status = Status.OPEN
    ended_method: EndMethod | None = None
    deal_no: int = 0
    next_dealer: str | None = None
    last_dealer: str | None = None
    next_fresh: bool = True
    next_forced: Forced | None = None
    last_round_left: int = 0
    withdrawing: str | None = None
    deals_dealt: dict[str, int] = field(default_factory=dict)
    balances: dict[str, int] = field(default_factory=dict)  # players, pool, next_pool
    # per player, per category (reason, or "penalty:<offence>"): signed units
    totals: dict[str, dict[str, int]] = field(default_factory=dict)
    # what came into and went out of the pools, by reason: signed units
    pool_flows: dict[str, int] = field(default_factory=dict)
    loos_owed: list[LooOwed] = field(default_factory=list)  # to the next pool
    # how many deals ended each way, for the statement
    outcomes: dict[Outcome, int] = field(default_factory=dict)
    # every correction: {"version", "voids", "replacements", "reason", "authorised_by",
    # "deal_no", "changes"}
    corrections: list[dict[str, Any]] = field(default_factory=list)
    deal: DealState | None = None
    members: dict[str, str] = field(default_factory=dict)  # player name -> club member id

    def pool_units(self) -> int:
        return self.balances.get(Account.POOL, 0)

    def next_pool_units(self) -> int:
        return self.balances.get(Account.NEXT_POOL, 0)

    def between_deals(self) -> bool:
        return self.deal is None or self.deal.phase == Phase.SETTLED

    def json_fields(self) -> dict[str, Any]:
        """The session's fields as its JSON writes them, in their order."""
        return {name: getattr(self, name) for name in _names(type(self))}

    def to_dict(self) -> dict[str, Any]:
        """The state as its JSON reads back (the `sessions` projection)."""
        found: dict[str, Any] = plain(self)
        return found

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SessionState:
        data = read_fields(cls, data)
        data["rules"] = Rules.from_dict(data["rules"])
        data["deal"] = DealState.from_dict(data["deal"]) if data.get("deal") else None
        return cls(**data)
