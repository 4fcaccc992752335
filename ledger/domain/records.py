"""The shapes of the JSON objects inside events and the state, typed.

They stay plain dicts (their keys and key order are what is stored), typed with `TypedDict`.
"""

from __future__ import annotations

from typing import Any, NotRequired, Required, TypedDict

from .vocabulary import (
    Breach,
    Destination,
    Hand,
    KeptInPool,
    PenaltyKind,
    Reason,
    ReplayRule,
    Stage,
)

# One movement of units from one account to another (events.posting builds it). `from` is a
# keyword, hence the functional form. The optional keys come in this order when present.
Posting = TypedDict("Posting", {
    "from": Required[str],
    "to": Required[str],
    "amount_units": Required[int],
    "reason": Required[Reason],
    "offence": str,  # a penalty's offence
    "deal_no": int,  # the deal it belongs to
    "loo": bool,  # a loo owed to the next pool (it keeps the next deal from being fresh)
    "released": str,  # at the end: the kind of loo paid back
}, total=False)


class Standing(TypedDict):
    """A standing player and the hand he plays, in the order dealt."""

    player: str
    hand: Hand


class TrickCards(TypedDict):
    """A trick as far as it is played: [[player, card], ...] in the order played."""

    trick: int
    cards: list[list[str]]


class Trick(TrickCards):
    """A trick won; its cards are empty at quick entry."""

    winner: str


class Share(TypedDict):
    """A trick's share of the pool, paid to its winner or kept in the pool."""

    trick: int
    winner: str
    amount_units: int
    paid_to: str | None
    stays_in_pool: KeptInPool | None


class LooOwed(TypedDict):
    """A loo owed to the next pool; `reason` is the statement's category of the posting."""

    player: str
    amount_units: int
    deal_no: int | None
    reason: str


class BreachFound(TypedDict):
    """A breach the logged cards prove, with its evidence (legality.detect_breaches)."""

    player: str
    rule: Breach
    trick: int
    card: str
    held: list[str]
    detail: str


class BreachRecord(BreachFound):
    """A BreachDetected event's payload, as the deal keeps it."""

    deal_no: int
    replay: bool


class PenaltyRecord(TypedDict):
    """A PenaltyImposed event's payload, as the deal keeps it, with the hand it was charged
    in (the number of redeals before it)."""

    deal_no: int
    player: str
    offence: str
    law: str
    amount_units: int | None
    destination: Destination
    kind: PenaltyKind
    forfeits_winnings: bool
    throw_up: bool
    redeal: bool
    replay: ReplayRule
    detected: bool
    evidence: dict[str, Any]
    postings: list[Posting]
    stage: Stage
    leaves_play: bool
    hand: NotRequired[int]


class Exchange(TypedDict):
    """Irish and five-card loo: the cards a standing player exchanged for cards from the top of
    the pack (docs/rules.md §9.2); the cards are empty lists when the table did not log them."""

    count: int
    cards_out: list[str]
    cards_in: list[str]


class FlushRecord(TypedDict):
    """Five-card loo: the flushes shown, the one that wins, and who pays its holder a loo."""

    flushes: dict[str, list[str]]
    winner: str
    beaten: list[str]
    pam_held_by: str | None
    payers: list[str]
