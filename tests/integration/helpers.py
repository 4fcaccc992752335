"""Commands for a few plausible deals, shared by the integration tests."""

from __future__ import annotations

from typing import Any

from ledger.domain import OpenSession
from ledger.domain.commands import Command, Declare, RecordTrick, StartDeal

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def open_command(name: str = "Tuesday club night") -> OpenSession:
    """Five players under Baxter-Wray: the first deal is the turn-up single."""
    return OpenSession(players=list(PLAYERS), preset="baxter-wray", name=name)


def turn_up_single() -> StartDeal:
    """Deal 1: hearts are trumps and nobody is dealt a heart, so everyone is looed."""
    return StartDeal(trump_card="7H", face_up={
        "Ann": "2C", "Ben": "3C", "Cat": "4C", "Dan": "5C", "Eve": "KS"})


def quick_deal(view: dict[str, Any]) -> list[Command]:
    """A three-card deal entered trick by trick: the eldest two stand, the eldest wins all
    three tricks, so the other one standing is looed."""
    seats, dealer = view["active"], view["next_dealer"]
    at = seats.index(dealer)
    dealt = seats[at + 1:] + seats[:at + 1]  # to the dealer's left, the dealer last
    return [
        StartDeal(trump_card="9S"),
        *(Declare(player=p, declaration="play" if i < 2 else "throw_up")
          for i, p in enumerate(dealt)),
        *(RecordTrick(winner=dealt[0]) for _ in range(3)),
    ]
