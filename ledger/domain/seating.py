"""The seats: their order, who may sit, who is dealt in, and the seats changing between deals.

Seat order runs to the left; the elder hand is the first player to the dealer's left. An
aftercomer joins and a player withdraws between deals only (docs/rules.md §11.26); the
last round is one deal per active player (docs/rules.md §11.27).
"""

from __future__ import annotations

import unicodedata

from . import commands as cmd
from . import events as ev
from .cards import check_capacity
from .errors import InvalidInput, OutOfTurn
from .guards import between_deals, known_player
from .limits import MAX_PLAYERS, MIN_PLAYERS, PLAYER_NAME_MAX, PLAYER_NAME_PATTERN
from .rules import Rules
from .state import SessionState
from .vocabulary import Account

RESERVED_NAMES = frozenset(Account)  # a player is never named like an account


def left_of(seats: list[str], player: str, among: list[str]) -> str:
    """The first player of `among` to the left of `player` (who need not be among them)."""
    start = seats.index(player)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start + step) % len(seats)]
        if candidate in among:
            return candidate
    raise ValueError("nobody to the left")


def from_left_of(seats: list[str], dealer: str, among: list[str]) -> list[str]:
    """`among` in seat order starting at the dealer's left and ending with the dealer."""
    start = seats.index(dealer)
    ordered = [seats[(start + step) % len(seats)] for step in range(1, len(seats) + 1)]
    return [p for p in ordered if p in among]


# ---------------------------------------------------------------- who may sit, who is dealt in


def printable(text: str) -> bool:
    return not any(unicodedata.category(ch).startswith("C") for ch in text)


def check_name(name: object, field: str) -> None:
    if not isinstance(name, str) or not PLAYER_NAME_PATTERN.match(name) or name != name.strip() \
            or not printable(name) or name.lower() in RESERVED_NAMES:
        raise InvalidInput(f"{name!r} is not a usable player name (1-{PLAYER_NAME_MAX} "
                           "characters, not "
                           f"starting with a space or '@', not 'pool' or 'next_pool')",
                           rule="player-name", field=field)


def dealer_stands_out(rules: Rules, active: int) -> bool:
    """`dealer_stands_out_above`: at a table of more players the dealer is dealt no cards."""
    return rules.dealer_stands_out_above is not None and active > rules.dealer_stands_out_above


def hands_dealt(rules: Rules, active: int) -> int:
    """How many hands a deal among `active` players needs (the dealer may stand out)."""
    return active - 1 if dealer_stands_out(rules, active) else active


def dealt_in(s: SessionState, dealer: str) -> list[str]:
    """The players dealt in, from the dealer's left: a withdrawing dealer, or a dealer
    standing out at a large table, deals without being dealt in."""
    stands_out = dealer == s.withdrawing or dealer_stands_out(s.rules, len(s.active))
    return from_left_of(s.seats, dealer,
                        [p for p in s.active if not (stands_out and p == dealer)])


# ---------------------------------------------------------------- the seats change


def join(s: SessionState, c: cmd.JoinPlayer) -> list[ev.Event]:
    between_deals(s, "an aftercomer joins")
    check_name(c.player, "player")
    if c.player in s.seats:
        raise InvalidInput(f"{c.player} is already seated", rule="players", field="player")
    after = known_player(s, c.after, "after")
    if after not in s.active:
        raise InvalidInput(f"{after} has withdrawn; name an active player", rule="players",
                           field="after")
    if len(s.active) + 1 > MAX_PLAYERS:
        raise InvalidInput(f"at most {MAX_PLAYERS} players", rule="players")
    if c.member is not None and c.member in s.members.values():
        seat = next(seat for seat, member in s.members.items() if member == c.member)
        raise InvalidInput(f"{c.player} is seated already, as {seat}", rule="players",
                           field="player")
    check_capacity(hands_dealt(s.rules, len(s.active) + 1), s.rules.pack,
                   miss=s.rules.has_miss, cards_each=s.rules.cards_each)
    return [ev.PlayerJoined(player=c.player, after=after, member=c.member)]


def attach(s: SessionState, c: cmd.AttachToClub) -> list[ev.Event]:
    """A session from before clubs into a club, once: every seat a member (docs/rules.md §14;
    the service finds the members, ledger/sessions/service.py `attach`)."""
    if s.members:
        raise OutOfTurn("the session is a club's already: it is attached once, to one club",
                        rule="attached-once", field="session_id")
    missing = [seat for seat in s.seats if not c.members.get(seat)]
    if missing or set(c.members) - set(s.seats):
        raise InvalidInput(f"every seat is a member, and only the seats: {', '.join(missing)}",
                           rule="club-member", field="members")
    return [ev.SessionAttached(club_id=c.club_id,
                               members={seat: c.members[seat] for seat in s.seats})]


def attach_latecomers(s: SessionState, c: cmd.AttachLatecomers) -> list[ev.Event]:
    """The seats of aftercomers that name no member attached to members, once each (the
    upgrade finds them, ledger/operations/upgrades.py). A seat a correction took away since is left
    out; nothing left, nothing is recorded."""
    taken = set(s.members.values())
    members = {seat: member for seat, member in c.members.items()
               if seat in s.seats and seat not in s.members}
    if any(not isinstance(m, str) or not m for m in members.values()) \
            or len(set(members.values())) != len(members) or taken & set(members.values()):
        raise InvalidInput("each seat is attached to a member seated nowhere else",
                           rule="club-member", field="members")
    return [ev.LatecomersAttached(members=members)] if members else []


def withdraw(s: SessionState, c: cmd.Withdraw) -> list[ev.Event]:
    player = known_player(s, c.player)
    between_deals(s, "a player withdraws")
    if player not in s.active:
        raise OutOfTurn(f"{player} has already withdrawn", rule="withdraw")
    if player != s.next_dealer:
        raise OutOfTurn(f"a player withdraws when it is his turn to deal; the next dealer is "
                        f"{s.next_dealer}", rule="withdraw-at-own-deal")
    if len(s.active) - 1 < MIN_PLAYERS:
        raise OutOfTurn("at least two players must remain", rule="withdraw")
    return [ev.PlayerWithdrew(player=player)]


def start_last_round(s: SessionState, c: cmd.StartLastRound) -> list[ev.Event]:
    between_deals(s, "the last round starts")
    if s.last_round_left:
        raise OutOfTurn("the last round has already started", rule="last-round")
    return [ev.LastRoundStarted(deals=len(s.active))]
