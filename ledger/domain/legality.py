"""Legal play (docs/rules.md §6): who is to play, and which breaches the logged cards prove.

A breach is reported the moment the logged cards prove it (docs/rules.md §6.4). A player's hand
is known only as far as he has played it, and knowing more of it can only prove more: a
revoke shows when he later plays the suit he failed to follow. The kinds whose name cannot
change with what is still unknown (revoke, not heading, the ace of trumps not led) are
reported at once; the others when his hand is fully known (his last card, or the end of the
hand), so the rule named is always the one the whole hand proves.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import RANK_VALUE, RANKS_52, beats, pam_card, power, suit_in_play, suit_of
from .records import BreachFound, TrickCards
from .rules import Rules
from .state import DealState
from .vocabulary import Breach, Hand, LeadRule, Phase, TrumpAfterTrick, Variant

# Breaches whose kind no card still unknown could change (the checks that come first).
STABLE_RULES = frozenset({Breach.LEAD_ACE_OF_TRUMPS, Breach.REVOKE, Breach.NOT_HEADING,
                          Breach.PAM_BE_CIVIL})


def play_begun(deal: DealState) -> bool:
    """The first card (or the first trick, at quick entry) of the deal has been logged."""
    return deal.pool_at_play_units is not None


def before_play(deal: DealState) -> bool:
    """Declaring, or a forced stand in which no card has been played yet."""
    return deal.phase == Phase.DECLARING or (
        deal.phase == Phase.PLAYING and not deal.tricks and not deal.current_trick)


def leader_of_first_trick(deal: DealState, rules: Rules) -> str:
    """The standing player nearest the dealer's left (deal.standing is in that order).

    With `miss_holder_leads` the holder of the miss leads, whether he plays it for himself or,
    as the dealer, for the pool (it is the same hand of cards).
    """
    if rules.miss_holder_leads:
        for s in deal.standing:
            if s["hand"] in (Hand.MISS, Hand.MISS_FOR_POOL):
                return s["player"]
    return deal.standing[0]["player"]


def in_play(deal: DealState, trick: int) -> list[str]:
    """The standing players who play to trick `trick`, in seat order.

    A player who threw up after the lead (Enquire Within §97 viii, Cassell) plays no card from
    the trick recorded in `deal.abandoned` on.
    """
    return [p for p in deal.standing_names() if deal.abandoned.get(p, trick + 1) > trick]


def trick_order(deal: DealState, leader: str, trick: int | None = None) -> list[str]:
    trick = len(deal.tricks) + 1 if trick is None else trick
    names = in_play(deal, trick)
    if leader not in names:
        # The leader has left the play: the lead passes to the next player in play on his left.
        everyone = deal.standing_names()
        start = everyone.index(leader)
        leader = next(p for p in everyone[start:] + everyone[:start] if p in names)
    start = names.index(leader)
    return names[start:] + names[:start]


def current_leader(deal: DealState, rules: Rules) -> str:
    if not deal.tricks:
        return leader_of_first_trick(deal, rules)
    return deal.tricks[-1]["winner"]


def next_to_play(deal: DealState, rules: Rules) -> str:
    order = trick_order(deal, current_leader(deal, rules))
    return order[len(deal.current_trick)]


def trick_complete(deal: DealState, rules: Rules) -> bool:
    """Every player in play has played to the current trick."""
    return bool(deal.current_trick) and \
        len(deal.current_trick) == len(trick_order(deal, current_leader(deal, rules)))


def _top_trump(trump_card: str, rules: Rules) -> str:
    """Ace of trumps; the king when the ace is turned up (Baxter-Wray p. 25; Blenheim law 10)."""
    trump = suit_of(trump_card)
    if rules.ace_turned_up_king_leads and trump_card[:-1] == "A":
        return "K" + trump
    return "A" + trump


def _trump_ladder(trump: str, pam: str | None) -> list[str]:
    """The trumps from the lowest to the highest: Pam on top (docs/rules.md §9.3)."""
    ladder = [r + trump for r in RANKS_52 if r + trump != pam]
    return ladder + ([pam] if pam else [])


def _in_sequence(low: str, high: str, hand: list[str], out: set[str], trump: str,
                 pam: str | None = None) -> bool:
    """Blenheim law 10: "unless his cards are sequence cards or cards of equal value".

    Two trumps are of equal value when every trump between them is in his hand or out of play
    (the turned-up card, or a card already played); Pam sits just above the ace.
    """
    ladder = _trump_ladder(trump, pam)
    between = ladder[ladder.index(low) + 1:ladder.index(high)]
    return all(c in hand or c in out for c in between)


def _trumps(hand: list[str], trump: str, pam: str | None) -> list[str]:
    """His trumps, the highest first; Pam counts as a trump (Britannica)."""
    return sorted((c for c in hand if suit_in_play(c, trump, pam) == trump),
                  key=lambda c: power(c, pam), reverse=True)


def _lead_breaches(hand: list[str], led: str, trump_card: str, rules: Rules, mode: str,
                   declared: int, out: set[str]) -> list[tuple[Breach, str]]:
    """(rule, detail) pairs for a lead; `mode` is the lead rule in force for this lead."""
    trump = suit_of(trump_card)
    pam = pam_card(rules.pam, trump)
    trumps = _trumps(hand, trump, pam)
    top = _top_trump(trump_card, rules)
    if top in hand:
        # docs/rules.md §11.39: the ace (or king) of trumps is led whenever held, even by the
        # holder of Pam; the other lead rules then have nothing to add
        return [] if led == top else [(Breach.LEAD_ACE_OF_TRUMPS, f"held {top} and led {led}")]
    if rules.variant == Variant.IRISH and mode != "any-trump" and declared != 2:
        # Britannica, Irish loo: "it is not compulsory to lead a trump with two trumps, unless
        # there are only two declared players" (docs/rules.md §9.2, §11.41).
        return []
    if mode == LeadRule.HIGHEST_OF_TWO and len(trumps) >= 2 and led != trumps[0]:
        return [(Breach.LEAD_HIGHEST_TRUMP, f"held trumps {', '.join(trumps)} and led {led}")]
    if mode == LeadRule.ONE_OF_TWO and len(trumps) >= 2:
        if suit_in_play(led, trump, pam) != trump:
            return [(Breach.LEAD_A_TRUMP, f"held trumps {', '.join(trumps)} and led {led}")]
        if declared == 2 and led != trumps[0] \
                and not _in_sequence(led, trumps[0], hand, out, trump, pam):
            return [(Breach.LEAD_HIGHEST_TRUMP,
                     f"two declared players: held {', '.join(trumps)} and led {led}")]
    if mode == LeadRule.HIGHEST_CARD:
        if trumps and led != trumps[0]:
            return [(Breach.LEAD_HIGHEST_TRUMP, f"held trumps {', '.join(trumps)} and led {led}")]
        if not trumps and power(led, pam) < max(power(c, pam) for c in hand):
            return [(Breach.LEAD_HIGHEST_CARD, f"held {', '.join(hand)} and led {led}")]
    if mode == "any-trump" and trumps and suit_in_play(led, trump, pam) != trump:
        return [(Breach.TRUMP_AFTER_TRICK, f"held trumps {', '.join(trumps)} and led {led}")]
    return []


def _trump_after_trick(hand: list[str], led: str, trump_card: str, rules: Rules,
                       declared: int, out: set[str]) -> list[tuple[Breach, str]]:
    """The lead to the second trick by the winner of the first (docs/rules.md §6)."""
    style = rules.trump_after_trick
    trump = suit_of(trump_card)
    pam = pam_card(rules.pam, trump)
    trumps = _trumps(hand, trump, pam)
    if style == TrumpAfterTrick.NONE or not trumps:
        return []
    if suit_in_play(led, trump, pam) != trump:
        return [(Breach.TRUMP_AFTER_TRICK, f"won the first trick holding {', '.join(trumps)} "
                                           f"and led {led}")]
    if style in (TrumpAfterTrick.HIGHER_OF_TWO, TrumpAfterTrick.HIGHEST) and led != trumps[0]:
        return [(Breach.TRUMP_AFTER_TRICK,
                 f"held {', '.join(trumps)} and led {led}, not the higher")]
    if style == TrumpAfterTrick.BY_LEAD_RULES:
        return [(Breach.TRUMP_AFTER_TRICK, detail) for _, detail in
                _lead_breaches(hand, led, trump_card, rules, LeadRule.ONE_OF_TWO, declared, out)]
    return []


def _follow_breaches(hand: list[str], card: str, so_far: list[str], trump: str,
                     pam: str | None = None, civil: bool = False) -> list[tuple[Breach, str]]:
    """Follow suit if able; head if able; holding none of the suit, trump if that heads.

    Pam counts as a trump. `civil`: the ace of trumps was led with "Pam be civil": the holder
    of Pam "must pass the trick, if he can do so without revoking" (Baxter-Wray p. 28).
    """
    led_suit = suit_in_play(so_far[0], trump, pam)
    best = so_far[0]
    for c in so_far[1:]:
        if beats(c, best, trump, pam):
            best = c
    of_suit = [c for c in hand if suit_in_play(c, trump, pam) == led_suit]
    if civil and pam in of_suit and len(of_suit) > 1:
        # he holds another trump: Pam may not be played, and is no card to head with
        if card == pam:
            others = [c for c in of_suit if c != pam]
            return [(Breach.PAM_BE_CIVIL, f"the ace of trumps was led with 'Pam be civil'; held "
                                          f"{', '.join(others)} besides Pam and played {card}")]
        of_suit = [c for c in of_suit if c != pam]
    if of_suit:
        if suit_in_play(card, trump, pam) != led_suit:
            return [(Breach.REVOKE, f"held {', '.join(of_suit)} of the suit led and played {card}")]
        heading = [c for c in of_suit if beats(c, best, trump, pam)]
        if heading and not beats(card, best, trump, pam):
            return [(Breach.NOT_HEADING, f"could head {best} with {', '.join(heading)}, "
                                    f"played {card}")]
        return []
    heading_trumps = [c for c in hand
                      if suit_in_play(c, trump, pam) == trump and beats(c, best, trump, pam)]
    if heading_trumps and not beats(card, best, trump, pam):
        return [(Breach.NOT_TRUMPING_TO_HEAD, f"held none of the suit led; could head {best} with "
                                         f"{', '.join(heading_trumps)}, played {card}")]
    return []


# The offence (a row of the penalty tables) each breach is.
OFFENCE_OF_RULE: dict[Breach, str] = {
    Breach.LEAD_ACE_OF_TRUMPS: "lead-rule",
    Breach.LEAD_HIGHEST_TRUMP: "lead-rule",
    Breach.LEAD_A_TRUMP: "lead-rule",
    Breach.LEAD_HIGHEST_CARD: "lead-rule",
    Breach.TRUMP_AFTER_TRICK: "trump-after-trick",
    Breach.REVOKE: "revoke",
    Breach.NOT_HEADING: "not-heading",
    Breach.NOT_TRUMPING_TO_HEAD: "not-trumping-to-head",
    # docs/rules.md §11.37: Baxter-Wray's table lists it (pp. 21, 28); elsewhere reported only
    Breach.PAM_BE_CIVIL: "pam-be-civil",
}


def detect_breaches(tricks: Sequence[TrickCards], trump_card: str, rules: Rules,
                    declared: int, complete: set[str] | None = None,
                    civil: Sequence[int] = ()) -> list[BreachFound]:
    """Every breach of docs/rules.md §6 that the logged tricks prove, with its evidence.

    `tricks` may end with the trick in progress. A player not in `complete` (None: everyone)
    has cards still to play: only breaches of a kind his unknown cards cannot change are given
    for him (STABLE_RULES); with his whole hand known, every breach is.
    """
    trump = suit_of(trump_card)
    pam = pam_card(rules.pam, trump)
    remaining: dict[str, list[str]] = {}
    for t in tricks:
        for player, card in t["cards"]:
            remaining.setdefault(player, []).append(card)
    found: list[BreachFound] = []
    out = {trump_card}  # out of play: the turned-up card and the cards of earlier tricks
    for t in tricks:
        cards = t["cards"]
        for i, (player, card) in enumerate(cards):
            hand = list(remaining[player])
            pairs: list[tuple[Breach, str]]
            if i == 0 and t["trick"] == 1:
                pairs = _lead_breaches(hand, card, trump_card, rules, rules.lead_rule, declared,
                                       out)
            elif i == 0 and t["trick"] == 2:
                pairs = _trump_after_trick(hand, card, trump_card, rules, declared, out)
            elif i == 0:
                pairs = []
            else:
                pairs = _follow_breaches(hand, card, [c for _, c in cards[:i]], trump, pam,
                                         civil=t["trick"] in civil)
            known = complete is None or player in complete
            for rule, detail in pairs:
                if known or rule in STABLE_RULES:
                    found.append({"player": player, "rule": rule, "trick": t["trick"],
                                  "card": card, "held": sorted(hand, key=_card_key),
                                  "detail": detail})
        for player, card in cards:
            remaining[player].remove(card)
            out.add(card)
    return found


def _card_key(card: str) -> tuple[str, int]:
    return suit_of(card), -RANK_VALUE[card[:-1]]
