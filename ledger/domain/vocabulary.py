"""The words of the game: every value an event, the state or a rule can name.

Each is a `StrEnum`: a member is the string it names, so it serialises to the same JSON
(json.dumps, dataclasses.asdict), compares equal to that string, and a string read back from
JSON names the same member (`Phase("playing") is Phase.PLAYING`). `read_as` turns the plain
strings of stored JSON back into members where a dataclass declares them.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, get_args, get_origin, get_type_hints, is_typeddict

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# ---------------------------------------------------------------- the session and the deal


class Status(StrEnum):
    """A session's status."""

    OPEN = "open"
    ENDED = "ended"


# What `expected` says between deals (no deal is in progress, or the last one is settled).
BETWEEN_DEALS = "between-deals"


class Phase(StrEnum):
    """Where a deal stands (docs/rules.md §5.10)."""

    SINGLE = "single"  # the turn-up single, settled by itself
    DECLARING = "declaring"
    PLAYING = "playing"
    REVIEW = "review"  # Blenheim law 11: the play is over; a replay may be asked for
    REPLAYING = "replaying"
    PLAYED = "played"  # the tricks are over; the settlement follows by itself
    FLUSH = "flush"  # five-card loo: a flush was shown; the settlement follows by itself
    REDEAL = "redeal"  # misdealt: the same dealer deals again
    SETTLED = "settled"


class DealKind(StrEnum):
    SINGLE = "single"  # the turn-up single: one card face up to each player
    HAND = "hand"  # three cards each, and a miss unless all must stand


class Forced(StrEnum):
    """Why everyone must stand this deal, with no miss."""

    CLUB_LAW = "club-law"  # Baxter-Wray p. 26: a club turned up
    AFTER_SINGLE = "after-single"  # force_after_single
    BOLD_STAND = "bold-stand"  # Cassell: after an all-or-nothing pool is won
    LAST_ROUND = "last-round"


class Declaration(StrEnum):
    PLAY = "play"
    THROW_UP = "throw_up"
    TAKE_MISS = "take_miss"
    PLAY_MISS_FOR_POOL = "play_miss_for_pool"


class Hand(StrEnum):
    """The cards a standing player plays."""

    OWN = "own"
    MISS = "miss"
    MISS_FOR_POOL = "miss-for-pool"  # the dealer plays the miss for the pool's benefit


# The hand each standing declaration plays; throwing up plays none.
HAND_OF_DECLARATION: dict[Declaration, Hand] = {
    Declaration.PLAY: Hand.OWN,
    Declaration.TAKE_MISS: Hand.MISS,
    Declaration.PLAY_MISS_FOR_POOL: Hand.MISS_FOR_POOL,
}


class Entry(StrEnum):
    """How the tricks of a play-through are logged, fixed by the first one entered."""

    CARDS = "cards"
    QUICK = "quick"  # only the winner of each trick


class KeptInPool(StrEnum):
    """Why a trick's share stays in the pool."""

    MISS_FOR_POOL = "miss-for-pool"  # won by the miss played for the pool
    FORFEITED = "forfeited"  # its winner's winnings are forfeited


class ReplayRule(StrEnum):
    """Whether an offence calls for the hands to be played again."""

    NONE = "none"
    REQUIRED = "required"  # Baxter-Wray p. 21: "the hands must, however, be replayed"
    ON_REQUEST = "on-request"  # Blenheim law 11: "if so desired by any one except the offender"


class ReplayStatus(StrEnum):
    """Where a deal's replay stands: owed (`required`), open to be asked for (`on-request`),
    `asked`, `waived` or `done`. The first two carry the offence's ReplayRule over."""

    REQUIRED = "required"
    ON_REQUEST = "on-request"
    ASKED = "asked"
    WAIVED = "waived"
    DONE = "done"


class Outcome(StrEnum):
    """How a deal ended (DealSettled.outcome); statement.OUTCOMES gives each in words."""

    DIVIDED = "divided"
    POOL_WON = "pool-won"
    POOL_STAYS = "pool-stays"
    DEALER_TOOK_POOL = "dealer-took-pool"
    MISS_HOLDER_TOOK_POOL = "miss-holder-took-pool"
    LAST_STANDING_TOOK_POOL = "last-standing-took-pool"
    NOBODY_STOOD = "nobody-stood"
    SINGLE_WON = "single-won"
    SINGLE_NOT_WON = "single-not-won"
    FLUSH = "flush"  # five-card loo: a flush took the pool and a loo from each payer


class EndMethod(StrEnum):
    SINGLE = "single"  # after a hand without a loo; what was carried is divided
    DIVIDE_POOL = "divide-pool"
    RELEASE_LAST_LOOS = "release-last-loos"


# ---------------------------------------------------------------- money


class Account(StrEnum):
    """The accounts that are not players."""

    POOL = "pool"  # this deal's pool
    NEXT_POOL = "next_pool"  # what is owed to the next deal's pool


class Reason(StrEnum):
    """Why units move (a posting's `reason`)."""

    DEAL = "deal"  # the dealer's price
    ANTE = "ante"
    BROUGHT_FORWARD = "brought_forward"  # what was owed to this pool comes into it
    LOO = "loo"  # a standing player who took no trick
    SINGLE_LOO = "single_loo"  # looed at the turn-up single
    PENALTY = "penalty"
    TRICK = "trick"  # a trick's share of the pool
    POOL_TAKEN = "pool_taken"
    CARRIED_FORWARD = "carried_forward"  # what stays in the pool goes to the next one
    LOO_RELEASED = "loo_released"  # at the end, a loo for no trick paid back
    END_DIVISION = "end_division"  # at the end, the last pool divided
    FLUSH = "flush"  # five-card loo: a loo paid to the holder of the winning flush


# ---------------------------------------------------------------- penalties


class Stage(StrEnum):
    """When an offence is charged (offence_tables.py)."""

    PRE_PLAY = "pre-play"
    IN_PLAY = "in-play"
    WHEN_COMMITTED = "when-committed"  # an offence's rule only: in play once play has begun


class Destination(StrEnum):
    """Where a penalty goes (PenaltyImposed.destination)."""

    POOL = "pool"  # paid now into this deal's pool
    NEXT_POOL = "next_pool"  # owed to the next pool
    COVERED = "covered"  # his one penalty in play this deal was charged already
    SETTLED_WITH_DEAL = "settled-with-deal"  # Blenheim law 9: a fine, or a loo if no trick
    NEXT_POOL_AT_SETTLEMENT = "next_pool-at-settlement"  # a loo on the pool when play began


class PenaltyKind(StrEnum):
    LOO = "loo"  # counts as a loo: the next deal is then not a fresh pool
    FINE = "fine"


class PenaltyAmount(StrEnum):
    SINGLE_LOO = "single_loo"
    STAKE = "stake"
    LOO = "loo"  # the deal's loo (docs/rules.md §11.3)
    FOUR_STAKES = "4x-stake"


class Forfeits(StrEnum):
    NEVER = "never"
    ALWAYS = "always"
    IF_STANDING = "if-standing"


class RedealRule(StrEnum):
    NEVER = "never"
    ALWAYS = "always"
    OPTIONAL = "optional"  # Baxter-Wray p. 24: only if cards were mixed or exposed


class Breach(StrEnum):
    """The breaches of the laws of play the logged cards can prove (docs/rules.md §6)."""

    LEAD_ACE_OF_TRUMPS = "lead-ace-of-trumps"
    LEAD_HIGHEST_TRUMP = "lead-highest-trump"
    LEAD_A_TRUMP = "lead-a-trump"
    LEAD_HIGHEST_CARD = "lead-highest-card"
    TRUMP_AFTER_TRICK = "trump-after-trick"
    REVOKE = "revoke"
    NOT_HEADING = "not-heading"
    NOT_TRUMPING_TO_HEAD = "not-trumping-to-head"
    PAM_BE_CIVIL = "pam-be-civil"  # five-card loo: Pam played on the ace led with the call


class Call(StrEnum):
    """What a player says as he plays a card (CardPlayed.call)."""

    # Baxter-Wray p. 28: when the ace of trumps is led, "Pam, be civil"
    PAM_BE_CIVIL = "pam-be-civil"
    # The ace of trumps led while Pam is out, without the call: said explicitly, never assumed
    # (docs/rules.md §9.3, §11.30)
    NONE = "none"


# ---------------------------------------------------------------- rule parameters


class Preset(StrEnum):
    """A source's laws; also the name of its offence table."""

    BAXTER_WRAY = "baxter-wray"
    BLENHEIM = "blenheim"
    ENQUIRE_WITHIN = "enquire-within"
    CASSELL = "cassell"


class LooKind(StrEnum):
    LIMITED = "limited"
    UNLIMITED = "unlimited"
    MIXED = "mixed"
    ALL_OR_NOTHING = "all-or-nothing"


class FreshPool(StrEnum):
    TURN_UP = "turn-up"  # a fresh pool is the turn-up single
    ANTES = "antes"


class LeadRule(StrEnum):
    HIGHEST_OF_TWO = "highest-of-two"
    ONE_OF_TWO = "one-of-two"
    HIGHEST_CARD = "highest-card"


class TrumpAfterTrick(StrEnum):
    HIGHER_OF_TWO = "higher-of-two"
    BY_LEAD_RULES = "by-lead-rules"
    HIGHEST = "highest"
    NONE = "none"


class DealOutOfTurn(StrEnum):
    REFUSE = "refuse"
    STANDS = "stands"  # Blenheim law 6


class Variant(StrEnum):
    THREE_CARD = "three-card"
    IRISH = "irish"  # Baxter-Wray p. 28; Britannica: three cards, exchanges, no miss
    FIVE_CARD = "five-card"  # Baxter-Wray pp. 27-28; Britannica; Enquire Within §100


class Pam(StrEnum):
    """Five-card loo: which knave is Pam, the highest trump (docs/rules.md §9.3)."""

    JACK_OF_CLUBS = "jack-of-clubs"  # "The knave of clubs generally" (Baxter-Wray p. 27)
    JACK_OF_TRUMPS = "jack-of-trumps"  # "or sometimes the knave of the trump suit"


class FlushPayers(StrEnum):
    """Five-card loo: who pays the holder of the winning flush a loo (docs/rules.md §9.3)."""

    # Baxter-Wray p. 28: "from each of the players, whether they stood or not"; the holder of
    # a beaten flush "is exempt from the loo"
    ALL_BUT_BEATEN_FLUSHES = "all-but-beaten-flushes"
    # Britannica: "from every one ... If more than one flush is held, or if Pam is held, the
    # holder is exempted from payment"
    ALL_BUT_PAM_AND_FLUSHES = "all-but-pam-and-flushes"
    # Enquire Within §100 iii: "looes all the players who stand in the game"; ii: "each,
    # except a player holding pam, of an inferior flush, must pay"
    STOOD_BUT_PAM_AND_FLUSHES = "stood-but-pam-and-flushes"


class FlushPrecedence(StrEnum):
    """Five-card loo: which of two flushes wins (docs/rules.md §9.3)."""

    # Baxter-Wray p. 28: "A flush in trumps is superior to a flush in any other suit, but if
    # there is more than one flush—neither of which is of the trump suit—then the flush which
    # includes Pam wins, or if neither contains that card then the elder hand"
    TRUMPS_PAM_ELDER = "trumps-pam-elder"
    # Britannica: "A trump flush takes precedence of flushes in other suits ... As between two
    # flushes which do not take precedence, the elder hand wins" (Pam gives no precedence)
    TRUMPS_ELDER = "trumps-elder"


class ExchangeAt(StrEnum):
    """Irish and five-card loo: when a standing player exchanges (docs/rules.md §11.40)."""

    # Baxter-Wray p. 27: "the player, whose turn it is to declare, places the cards he wishes
    # exchanged ... on the table, and the dealer gives him a like number"
    TURN_TO_DECLARE = "turn-to-declare"
    # Britannica: "allowing declared players to exchange": any time after he declared to play,
    # until the first card
    BEFORE_PLAY = "before-play"


# ---------------------------------------------------------------- reading JSON back


def read_as(hint: Any, value: Any) -> Any:
    """`value`, as read from JSON, with the strings that `hint` declares as a vocabulary
    turned back into its members (through lists, dicts, TypedDicts and optional values).

    A string that names no member is kept as it is: a stored value always reads.
    """
    return _reader(hint)(value)


def _same(value: Any) -> Any:
    return value


@cache
def _reader(hint: Any) -> Callable[[Any], Any]:
    """How to read a value of `hint`, worked out once per hint: a state or an event is read
    back for every append and every event of a rebuild. Lists and dicts are read into new
    ones, as before, so that nothing read shares a list with what it was read from."""
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        enum = hint
        members = {m.value: m for m in enum}

        def member(value: Any) -> Any:
            if value is None:
                return None
            if type(value) is str and value in members:
                return members[value]
            return _member(enum, value)

        return member
    origin = get_origin(hint)
    args = get_args(hint)
    if origin in (types.UnionType, typing.Union):
        named = [a for a in args if a is not type(None)]
        return _reader(named[0]) if len(named) == 1 else _same
    if origin is list:
        item = _reader(args[0])
        if item is _same:  # a new list of the same items
            return lambda value: list(value) if isinstance(value, list) else value
        return lambda value: [item(v) for v in value] if isinstance(value, list) else value
    if origin is dict:
        key, item = _reader(args[0]), _reader(args[1])
        if key is _same and item is _same:  # a new dict of the same items
            return lambda value: dict(value) if isinstance(value, dict) else value
        return lambda value: {key(k): item(v) for k, v in value.items()} \
            if isinstance(value, dict) else value
    if is_typeddict(hint):
        hints = _hints(hint)
        readers = tuple((k, read) for k, h in hints.items() if (read := _reader(h)) is not _same)

        def record(value: Any) -> Any:
            if not isinstance(value, dict):
                return value
            out = dict(value)
            for k, read in readers:
                if k in out:
                    out[k] = read(out[k])
            return out

        return record
    return _same


def read_fields(cls: type[DataclassInstance], data: dict[str, Any]) -> dict[str, Any]:
    """A dataclass's keyword arguments from JSON, its vocabulary turned back into members."""
    out = dict(data)
    for name, read in _field_readers(cls):
        if name in out:
            out[name] = read(out[name])
    return out


def field_readers(cls: type[DataclassInstance]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """(field, reader) for the fields of `cls` that `read_fields` reads back into members or
    new lists and dicts; a field not named here is taken as it is."""
    return _field_readers(cls)


@cache
def _field_readers(cls: Any) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """(field, reader) for the fields whose values are not read back as they are."""
    hints = _hints(cls)
    return tuple((f.name, read) for f in dataclasses.fields(cls)
                 if (read := _reader(hints[f.name])) is not _same)


def _member(enum: type[StrEnum], value: Any) -> Any:
    try:
        return enum(value)
    except (ValueError, TypeError):
        return value


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return get_type_hints(cls)
