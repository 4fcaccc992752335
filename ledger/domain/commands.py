"""Commands: what the table asks the ledger to record, in the imperative.

Clients send them under the name of the fact they report (`CLIENT_TYPES`): a dealer logs
"CardPlayed", the ledger decides whether it may be recorded and what follows from it.
No command carries an amount of money: the rules decide every amount.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Unsaid(Enum):
    """A field the client left out, where leaving it out and sending null say different things
    (`ShowFlush.pam_held_by`: null says nobody the question concerns holds Pam)."""

    UNSAID = "unsaid"


UNSAID = Unsaid.UNSAID


@dataclass(frozen=True)
class Command:
    pass


@dataclass(frozen=True)
class OpenSession(Command):
    players: list[str]
    preset: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    first_dealer: str | None = None
    name: str = ""
    unit: str = "counter"
    money_per_unit_minor: int | None = None
    currency: str | None = None
    # The club's member behind each player's name (display name -> member id), so that one
    # person's results join up across sessions; empty when the session has no club.
    members: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class StartDeal(Command):
    """Deal (or deal again after a misdeal): the card turned up, and at the turn-up single the
    card dealt face up to each player."""

    trump_card: str
    dealer: str | None = None
    face_up: dict[str, str] | None = None


@dataclass(frozen=True)
class Declare(Command):
    player: str
    declaration: str  # a vocabulary.Declaration (checked when decided)


@dataclass(frozen=True)
class PlayCard(Command):
    player: str
    card: str
    # five-card loo, the ace of trumps led: "pam-be-civil", or "none" for no call
    call: str | None = None


@dataclass(frozen=True)
class ExchangeCards(Command):
    """Irish and five-card loo: a standing player exchanges `count` cards from the pack, once;
    the cards he put out and received when the table knows them."""

    player: str
    count: int
    cards_out: list[str] | None = None
    cards_in: list[str] | None = None


@dataclass(frozen=True)
class ShowFlush(Command):
    """Five-card loo: every flush shown after the declarations, {player: his five cards}, and
    who holds Pam where that exempts him from paying (Britannica, Enquire Within): a player,
    or None when none of the players it concerns holds Pam; UNSAID when the table did not say
    (refused where the ledger needs it and cannot tell from the cards, docs/rules.md §11.38)."""

    flushes: dict[str, list[str]]
    pam_held_by: str | None | Unsaid = UNSAID


@dataclass(frozen=True)
class RecordTrick(Command):
    """Quick entry: only the winner of the trick is logged; nothing can be checked."""

    winner: str


@dataclass(frozen=True)
class ImposePenalty(Command):
    player: str
    offence: str
    redeal: bool = False  # Baxter-Wray: interference causes a redeal only if cards were mixed


@dataclass(frozen=True)
class AskReplay(Command):
    by: str


@dataclass(frozen=True)
class WaiveReplay(Command):
    pass


@dataclass(frozen=True)
class JoinPlayer(Command):
    """An aftercomer joins. In a club `player` is a member's name or id, or with `guest` a
    name that becomes a guest member, as at the opening; the service fills `member`."""

    player: str
    after: str
    guest: bool = False
    member: str | None = None


@dataclass(frozen=True)
class Withdraw(Command):
    player: str


@dataclass(frozen=True)
class StartLastRound(Command):
    pass


@dataclass(frozen=True)
class AttachToClub(Command):
    """A session played before clubs is brought into a club: each seat becomes the club's
    member of that name, or a guest member (the service seats them; never a client's entry)."""

    club_id: str
    members: dict[str, str]  # seat -> member id


@dataclass(frozen=True)
class AttachLatecomers(Command):
    """Seats of aftercomers that name no member become the club's members (the upgrade
    finds the members; never a client's entry)."""

    members: dict[str, str]  # seat -> member id


@dataclass(frozen=True)
class EndSession(Command):
    method: str  # a vocabulary.EndMethod (checked when decided)


# The type names a client uses on the wire, and the command each becomes.
CLIENT_TYPES: dict[str, type[Command]] = {
    "DealStarted": StartDeal,
    "DeclarationMade": Declare,
    "CardPlayed": PlayCard,
    "CardsExchanged": ExchangeCards,
    "FlushShown": ShowFlush,
    "TrickWon": RecordTrick,
    "PenaltyImposed": ImposePenalty,
    "ReplayAsked": AskReplay,
    "ReplayWaived": WaiveReplay,
    "PlayerJoined": JoinPlayer,
    "PlayerWithdrew": Withdraw,
    "LastRoundStarted": StartLastRound,
    "SessionEnded": EndSession,
}
