"""Cards: parsing, rank order (ace high, as at whist) and the two packs."""

from __future__ import annotations

from .errors import InvalidInput
from .limits import CARDS_PER_HAND, PACK_32, PACK_52

SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
RANKS_52 = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANKS_32 = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS_52, start=2)}
RANK_ALIASES = {"T": "10", "1": "A"}


def ranks_for(pack: int) -> tuple[str, ...]:
    return RANKS_32 if pack == PACK_32 else RANKS_52


def parse_card(text: object, pack: int = PACK_52, *, field: str = "card") -> str:
    """Return the canonical form ('10H', 'QS') of a card name, or refuse it."""
    if not isinstance(text, str) or not 2 <= len(text.strip()) <= 3:
        raise InvalidInput(f"{text!r} is not a card (write e.g. 'QH', '10S', '7♥')",
                           rule="card-in-pack", field=field)
    raw = text.strip().upper()
    suit = SUIT_SYMBOLS.get(raw[-1], raw[-1])
    rank = RANK_ALIASES.get(raw[:-1], raw[:-1])
    if suit not in SUITS or rank not in RANK_VALUE:
        raise InvalidInput(f"{text!r} is not a card (write e.g. 'QH', '10S', '7♥')",
                           rule="card-in-pack", field=field)
    if rank not in ranks_for(pack):
        raise InvalidInput(f"{text!r} is not in the {pack}-card pack", rule="card-in-pack",
                           field=field)
    return rank + suit


def suit_of(card: str) -> str:
    return card[-1]


def rank_of(card: str) -> int:
    return RANK_VALUE[card[:-1]]


# Pam outranks every card (docs/rules.md §9.3): "the highest card ... the ace of trumps is
# next in value" (Baxter-Wray p. 27).
PAM_RANK = RANK_VALUE["A"] + 1


def pam_card(pam: str | None, trump: str) -> str | None:
    """The card that is Pam this deal: the knave of clubs, or the knave of trumps; None when
    the game has no Pam (three-card and Irish loo)."""
    if pam is None:
        return None
    return "J" + ("C" if pam == "jack-of-clubs" else trump)


def suit_in_play(card: str, trump: str, pam: str | None = None) -> str:
    """The suit a card counts as in play: Pam is a trump whatever its own suit
    (Britannica: "Pam ... ranks as the highest trump, whatever suit is turned up")."""
    return trump if card == pam else suit_of(card)


def power(card: str, pam: str | None = None) -> int:
    """A card's rank in play: Pam above the ace."""
    return PAM_RANK if card == pam else rank_of(card)


def beats(card: str, best: str, trump: str, pam: str | None = None) -> bool:
    """Whether `card` beats the card `best` currently winning a trick."""
    if suit_in_play(card, trump, pam) == suit_in_play(best, trump, pam):
        return power(card, pam) > power(best, pam)
    return suit_in_play(card, trump, pam) == trump


def trick_winner_index(cards: list[str], trump: str, pam: str | None = None) -> int:
    """Index of the winning card: highest trump (Pam the highest), else highest of the suit
    led."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump, pam):
            best = i
    return best


def check_capacity(dealt: int, pack: int, *, miss: bool, cards_each: int = CARDS_PER_HAND) -> None:
    """The pack holds the hands dealt, the miss when there is one, and the trump card."""
    needed = dealt * cards_each + (cards_each if miss else 0) + 1
    if needed > pack:
        raise InvalidInput(f"{dealt} hands{' and a miss' if miss else ''} and a trump card need "
                           f"{needed} cards; the pack has {pack}", rule="pack-size")
