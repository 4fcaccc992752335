"""Events: facts in the past tense, frozen, versioned, serialised as plain JSON objects.

Money moves only inside events, as `postings`: each posting takes `amount_units` from one
account and gives it to another, so every event balances by construction. Accounts are a
player's name, `pool` (this deal's pool) or `next_pool` (what is owed to the next deal).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import Enum
from operator import attrgetter
from typing import Any, ClassVar

from . import vocabulary
from .errors import InvalidInput, InvariantBroken
from .records import BreachFound, Posting, Share
from .vocabulary import (
    Account,
    Breach,
    Call,
    DealKind,
    Declaration,
    Destination,
    EndMethod,
    Forced,
    Outcome,
    PenaltyKind,
    Reason,
    ReplayRule,
    Stage,
    field_readers,
)

POOL = Account.POOL
NEXT_POOL = Account.NEXT_POOL
POOL_ACCOUNTS = tuple(Account)


def posting(src: str, dst: str, amount_units: int, reason: Reason, *,
            offence: str | None = None, deal_no: int | None = None, loo: bool | None = None,
            released: str | None = None) -> Posting:
    """One movement of units; refuses anything that is not a positive integer.

    The optional keys are written only when given, in this order (the stored JSON's).
    """
    if not isinstance(amount_units, int) or isinstance(amount_units, bool) or amount_units <= 0:
        raise InvariantBroken(f"posting amount must be a positive int, got {amount_units!r}")
    if src == dst:
        raise InvariantBroken(f"posting from {src!r} to itself")
    out: Posting = {"from": src, "to": dst, "amount_units": amount_units, "reason": reason}
    if offence is not None:
        out["offence"] = offence
    if deal_no is not None:
        out["deal_no"] = deal_no
    if loo is not None:
        out["loo"] = loo
    if released is not None:
        out["released"] = released
    return out


def asdict(event: Any, *, left_out: str = "", shallow: str = "") -> dict[str, Any]:
    """`dataclasses.asdict(event)` less the field `left_out`, without copying the strings,
    numbers and vocabulary members events hold (copying gives them back as they are); the
    field `shallow`, if any, is copied by `list` (a record keeps the event's postings). A
    rebuild folds every event, and the settlement, penalty and breach records are read so."""
    names, get = _getter(type(event), left_out)
    return {n: (list(v) if n == shallow else v if type(v) in _AS_IS else copied(v))
            for n, v in zip(names, get(event), strict=True)}


def copied(value: Any) -> Any:
    """A deep copy of an event's value, as `dataclasses.asdict` copies it."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is list:
        return [v if type(v) in _AS_IS else copied(v) for v in value]
    if kind is dict:
        return {k if type(k) in _AS_IS else copied(k): v if type(v) in _AS_IS else copied(v)
                for k, v in value.items()}
    if kind is tuple:
        return tuple(copied(v) for v in value)
    if isinstance(value, str | int | float):  # an enumeration of another module
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return copy.deepcopy(value)


# The types copied as they are: the plain ones, and the vocabulary's enumerations.
_AS_IS = frozenset({str, int, float, bool, type(None)}) | frozenset(
    kind for kind in vars(vocabulary).values()
    if isinstance(kind, type) and issubclass(kind, Enum) and issubclass(kind, str | int | float))
_GETTERS: dict[tuple[type, str], tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _getter(kind: type, left_out: str) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """The names of the fields of a dataclass less `left_out`, in order, and a getter of
    their values as a tuple, made once per class."""
    found = _GETTERS.get((kind, left_out))
    if found is None:
        names = tuple(f.name for f in fields(kind) if f.name != left_out)
        get = attrgetter(*names)
        found = _GETTERS[(kind, left_out)] = (
            names, get if len(names) > 1 else lambda e: (get(e),))
    return found


@dataclass(frozen=True)
class Event:
    """Base of every event; `schema_version` is the shape of the payload."""

    type: ClassVar[str] = "Event"
    schema_version: ClassVar[int] = 1

    def payload(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def postings_list(self) -> list[Posting]:
        postings: list[Posting] = getattr(self, "postings", None) or []
        return list(postings)


@dataclass(frozen=True)
class SessionOpened(Event):
    type: ClassVar[str] = "SessionOpened"
    name: str
    players: list[str]
    first_dealer: str
    rules: dict[str, Any]
    unit: str
    money_per_unit_minor: int | None
    currency: str | None
    # player name -> the club's member id; events written before clubs read as {}
    members: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerJoined(Event):
    """An aftercomer takes a seat to the left of `after`; in a club, as the member `member`
    (version 1, before every seat was a member's, had no member: read as None)."""

    type: ClassVar[str] = "PlayerJoined"
    schema_version: ClassVar[int] = 2
    player: str
    after: str
    member: str | None = None  # the club's member id; None outside a club


@dataclass(frozen=True)
class LatecomersAttached(Event):
    """Seats taken by aftercomers who joined before a join named his member are attached to
    the club's members: from here on their results are those members' (docs/operations.md,
    "Upgrading")."""

    type: ClassVar[str] = "LatecomersAttached"
    members: dict[str, str]  # seat -> member id, only the seats that had none


@dataclass(frozen=True)
class SessionAttached(Event):
    """A session recorded before clubs was brought into a club: from here on its seats are
    these members, and its results are the club's (docs/operations.md, "Upgrading")."""

    type: ClassVar[str] = "SessionAttached"
    club_id: str
    members: dict[str, str]  # seat -> member id


@dataclass(frozen=True)
class PlayerWithdrew(Event):
    """He withdraws at his turn to deal: he deals that deal and takes no part after it."""

    type: ClassVar[str] = "PlayerWithdrew"
    player: str


@dataclass(frozen=True)
class LastRoundStarted(Event):
    """Everyone stands with no miss for one deal per player; then the last loos are released."""

    type: ClassVar[str] = "LastRoundStarted"
    deals: int


@dataclass(frozen=True)
class DealStarted(Event):
    type: ClassVar[str] = "DealStarted"
    deal_no: int
    dealer: str
    kind: DealKind
    trump_card: str
    dealt: list[str]
    fresh: bool
    forced: Forced | None  # why everyone must stand this deal
    miss: bool
    redeal: bool
    face_up: dict[str, str] = field(default_factory=dict)
    postings: list[Posting] = field(default_factory=list)


@dataclass(frozen=True)
class DeclarationMade(Event):
    type: ClassVar[str] = "DeclarationMade"
    deal_no: int
    player: str
    declaration: Declaration


@dataclass(frozen=True)
class PenaltyImposed(Event):
    type: ClassVar[str] = "PenaltyImposed"
    deal_no: int
    player: str
    offence: str
    law: str
    amount_units: int | None  # None while it depends on the tricks (settled with the deal)
    destination: Destination
    kind: PenaltyKind  # only a loo makes the next deal a non-fresh pool
    forfeits_winnings: bool
    throw_up: bool
    redeal: bool
    replay: ReplayRule  # none, required or on-request
    detected: bool
    evidence: dict[str, Any] = field(default_factory=dict)
    postings: list[Posting] = field(default_factory=list)
    stage: Stage = Stage.PRE_PLAY  # pre-play or in-play
    leaves_play: bool = False  # he threw up after the lead and plays no further card


@dataclass(frozen=True)
class CardPlayed(Event):
    type: ClassVar[str] = "CardPlayed"
    deal_no: int
    player: str
    card: str
    trick: int
    replay: bool
    # Five-card loo: "pam-be-civil", said as the ace of trumps is led (docs/rules.md §9.3), or
    # "none" when the ace was led without it while Pam was out (the table is asked). Written
    # only then, so the payload of every other card is as it always was (an event without it
    # reads as no call: no new schema version is needed).
    call: Call | None = None

    def payload(self) -> dict[str, Any]:
        data = asdict(self)
        if data["call"] is None:
            del data["call"]
        return data


@dataclass(frozen=True)
class CardsExchanged(Event):
    """Irish and five-card loo: a standing player exchanged `count` cards for as many from the
    top of the pack, once, before play (docs/rules.md §9.2); the cards when the table knows
    them, else empty lists."""

    type: ClassVar[str] = "CardsExchanged"
    deal_no: int
    player: str
    count: int
    cards_out: list[str]
    cards_in: list[str]
    stock_left: int  # the cards left in the pack after the exchange


@dataclass(frozen=True)
class FlushShown(Event):
    """Five-card loo: the flushes shown after the declarations, the one that wins by
    precedence, and who pays its holder a loo (docs/rules.md §9.3); the hand is not played."""

    type: ClassVar[str] = "FlushShown"
    deal_no: int
    flushes: dict[str, list[str]]  # player -> his five cards
    winner: str
    beaten: list[str]
    pam_held_by: str | None
    payers: list[str]
    # Whether `pam_held_by` is the table's word (a player, or null for nobody) rather than what
    # the logged cards show or nothing said (docs/rules.md §11.38): a correction says it again
    # only then. Written only when true, so every other payload is as it always was.
    pam_named: bool = False

    def payload(self) -> dict[str, Any]:
        data = asdict(self)
        if not data["pam_named"]:
            del data["pam_named"]
        return data


@dataclass(frozen=True)
class TrickWon(Event):
    type: ClassVar[str] = "TrickWon"
    deal_no: int
    trick: int
    winner: str
    cards: list[list[str]]  # [[player, card], ...] in the order played; empty at quick entry
    replay: bool


@dataclass(frozen=True)
class BreachDetected(Event):
    type: ClassVar[str] = "BreachDetected"
    deal_no: int
    player: str
    rule: Breach
    trick: int
    card: str
    held: list[str]
    detail: str
    replay: bool

    @classmethod
    def of(cls, deal_no: int, replay: bool, found: BreachFound) -> BreachDetected:
        return cls(deal_no=deal_no, replay=replay, player=found["player"], rule=found["rule"],
                   trick=found["trick"], card=found["card"], held=found["held"],
                   detail=found["detail"])


@dataclass(frozen=True)
class ReplayStarted(Event):
    type: ClassVar[str] = "ReplayStarted"
    deal_no: int
    asked_by: str | None  # None when the laws require the replay


@dataclass(frozen=True)
class ReplayWaived(Event):
    type: ClassVar[str] = "ReplayWaived"
    deal_no: int


@dataclass(frozen=True)
class DealSettled(Event):
    type: ClassVar[str] = "DealSettled"
    deal_no: int
    outcome: Outcome
    pool_units: int
    loo_units: int | None
    shares: list[Share]
    looed: list[str]
    carried_units: int
    next_fresh: bool
    next_forced: Forced | None
    postings: list[Posting] = field(default_factory=list)


@dataclass(frozen=True)
class SessionEnded(Event):
    type: ClassVar[str] = "SessionEnded"
    method: EndMethod
    postings: list[Posting] = field(default_factory=list)


@dataclass(frozen=True)
class EntryCorrected(Event):
    """Entries voided (and perhaps replaced) by a correction; nothing in the log is edited.

    The events after version `rewound_to` up to this one are superseded: after this event the
    ledger appends the session's tail again, decided anew from the entries as corrected, so
    the live events (docs/rules.md §12) fold as if the session had been logged right.
    """

    type: ClassVar[str] = "EntryCorrected"
    voids: list[dict[str, Any]]  # [{"version", "type", "entry"}]: the entries voided
    replacements: list[dict[str, Any]]  # the entries put in place of the first voided one
    reason: str
    authorised_by: str
    rewound_to: int  # the last version kept as it was
    logged_as_version: int  # this event's own version in the log
    deal_no: int | None  # the deal of the first voided entry (None: between deals)
    changes: dict[str, int]  # what the correction changed: account -> signed units


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (SessionOpened, SessionAttached, PlayerJoined, LatecomersAttached,
                PlayerWithdrew, LastRoundStarted,
                DealStarted, DeclarationMade, PenaltyImposed, CardPlayed, TrickWon,
                BreachDetected,
                ReplayStarted, ReplayWaived, DealSettled, SessionEnded, EntryCorrected,
                CardsExchanged, FlushShown)
}

# (type, from_version) -> function turning a payload of that version into the next version.
# An old shape is upcast when read, never rewritten in the table.
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    # a join before every seat was a member's named none
    ("PlayerJoined", 1): lambda payload: {**payload, "member": None},
}


def event_to_record(event: Event) -> tuple[str, int, dict[str, Any]]:
    """(type, schema_version, payload) for the store."""
    return event.type, event.schema_version, event.payload()


def event_from_record(type_: str, schema_version: int, payload: dict[str, Any]) -> Event:
    """Rebuild an event from the store, upcasting an older payload shape to the class's own
    first; read by the class's generated reader (`_compile_reader`)."""
    cls = EVENT_TYPES.get(type_)
    if cls is None:
        raise InvalidInput(f"unknown event type {type_!r}", rule="event-type")
    if schema_version < cls.schema_version:
        payload = upcast(cls, schema_version, payload)
    return _reader_of(cls)(payload)


def upcast(cls: type[Event], schema_version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """A payload of an older shape of `cls`, as its current shape has it (a new dict)."""
    version, payload = schema_version, dict(payload)
    while version < cls.schema_version:
        payload = UPCASTERS[(cls.type, version)](payload)
        version += 1
    return payload


_READERS: dict[type, Callable[[dict[str, Any]], Event]] = {}


def _reader_of(cls: type[Event]) -> Callable[[dict[str, Any]], Event]:
    found = _READERS.get(cls)
    if found is None:
        found = _READERS[cls] = _compile_reader(cls)
    return found


def _compile_reader(cls: type[Event]) -> Callable[[dict[str, Any]], Event]:
    """A function payload -> event of `cls`: one dict display of the fields in their order
    (each read back into the vocabulary's members as `read_fields` reads it, a field left
    out given its default, a member the class does not have ignored), set as the frozen
    instance's __dict__, which is what the dataclass's __init__ fills. The code is generated
    once per class, as `dataclasses` generates __init__: a rebuild reads every event."""
    params = getattr(cls, "__dataclass_params__", None)
    every = fields(cls)
    if getattr(cls, "__post_init__", None) is not None or params is None \
            or getattr(params, "slots", False) or any(not f.init for f in every):
        raise InvariantBroken(f"{cls.__name__}: an event is a plain frozen dataclass")
    readers = dict(field_readers(cls))
    required = tuple(f.name for f in every if f.default is dataclasses.MISSING
                     and f.default_factory is dataclasses.MISSING)
    scope: dict[str, Any] = {"_cls": cls, "_lacks": _lacks, "_required": required,
                             "_new": object.__new__, "_set": object.__setattr__}
    items = []
    for i, f in enumerate(every):
        key = repr(f.name)
        value = f"_p[{key}]"
        if f.name in readers:
            scope[f"_r{i}"] = readers[f.name]
            value = f"_r{i}({value})"
        if f.default is not dataclasses.MISSING:
            scope[f"_d{i}"] = f.default
            value = f"({value} if {key} in _p else _d{i})"
        elif f.default_factory is not dataclasses.MISSING:
            scope[f"_f{i}"] = f.default_factory
            value = f"({value} if {key} in _p else _f{i}())"
        items.append(f"{key}: {value}")
    source = (f"def read(_p):\n"
              f"    try:\n"
              f"        _d = {{{', '.join(items)}}}\n"
              f"    except KeyError:\n"
              f"        _lacks(_cls, _required, _p)\n"
              f"        raise\n"
              f"    _e = _new(_cls)\n"
              f"    _set(_e, '__dict__', _d)\n"
              f"    return _e\n")
    exec(source, scope)  # noqa: S102 - the source is built above from field names alone
    reader: Callable[[dict[str, Any]], Event] = scope["read"]
    return reader


def _lacks(cls: type[Event], required: tuple[str, ...], payload: dict[str, Any]) -> None:
    missing = [name for name in required if name not in payload]
    if missing:
        raise InvariantBroken(f"a stored {cls.type} event lacks {', '.join(missing)}: the "
                              "log does not read")


def check_balanced(postings: list[Posting]) -> None:
    """Every posting moves a positive integer from one account to another, so the sum of all
    accounts is unchanged; this asserts the shape that guarantees it."""
    for p in postings:
        amount = p.get("amount_units")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvariantBroken(f"unbalanced or non-integer posting {p!r}")
        if p["from"] == p["to"]:
            raise InvariantBroken(f"posting to the same account {p!r}")
