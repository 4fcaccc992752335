"""Irish and five-card loo (docs/rules.md §9.2, §9.3): exchanging cards from the pack, and
showing flushes.

Exchanges: "each player has the liberty of changing, for others from the pack, all or any of
the five cards dealt him. If he decides to change any of his cards, the player, whose turn it is
to declare, places the cards he wishes exchanged ... No second exchange is allowable ...
neither may a player who makes an exchange afterwards throw up his cards; he must play them
out" (Baxter-Wray p. 27). Britannica: "allowing declared players to exchange some or all of
their cards for cards dealt from the top of the pack". When, by `exchange_at`: docs/rules.md
§11.40.

Flushes: "five cards of the same suit, or four cards of a suit with Pam"; the holder "does not
declare it until all the players have settled whether they will stand or not" (Baxter-Wray
pp. 27-28). Which flush wins, by `flush_precedence`: Baxter-Wray p. 28, "A flush in trumps is
superior to a flush in any other suit, but if there is more than one flush—neither of which is
of the trump suit—then the flush which includes Pam wins, or if neither contains that card then
the elder hand"; Britannica, "A trump flush takes precedence of flushes in other suits ... As
between two flushes which do not take precedence, the elder hand wins".

Who holds Pam exempts him from paying a flush at some presets (`flush_payers`); the ledger
takes it from the logged cards where they tell (the card turned up, an exchange logged with its
cards, a flush shown), and asks the table otherwise: never a guess (docs/rules.md §11.38).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import commands as cmd
from . import events as ev
from .cards import pam_card, parse_card, suit_of
from .errors import InvalidInput, OutOfTurn
from .guards import known_player, open_deal
from .legality import before_play
from .penalising import hand_penalties
from .rules import Rules
from .state import DealState, SessionState
from .vocabulary import ExchangeAt, FlushPayers, FlushPrecedence, Phase, Variant


def stock_left(r: Rules, deal: DealState) -> int:
    """The cards left in the pack: what was not dealt nor turned up, less what the exchanges
    drew (the cards put out do not go back into it)."""
    dealt = len(deal.dealt) * r.cards_each + (r.cards_each if deal.miss else 0) + 1
    return r.pack - dealt - sum(e["count"] for e in deal.exchanges.values())


def exchange_turn_passed(deal: DealState, player: str) -> bool:
    """`exchange_at: turn-to-declare` (Baxter-Wray p. 27: "the player, whose turn it is to
    declare"): a player's turn has passed once a player after him, in the order dealt, has
    declared (a throw-up a penalty forced on a player before his turn does not count); where
    everyone must stand and nobody declares, once a player after him has exchanged
    (docs/rules.md §11.40)."""
    later = deal.dealt[deal.dealt.index(player) + 1:]
    if deal.forced:
        return any(p in deal.exchanges for p in later)
    forced_out = {p["player"] for p in hand_penalties(deal) if p["throw_up"]}
    return any(p in deal.declarations and p not in forced_out for p in later)


def may_exchange(s: SessionState, deal: DealState) -> list[str]:
    """The players who may exchange now: standing, not yet exchanged, before the first card,
    and, exchanging at one's turn to declare, whose turn has not passed."""
    if not s.rules.exchanges or deal.phase not in (Phase.DECLARING, Phase.PLAYING) \
            or not before_play(deal):
        return []
    at_turn = s.rules.exchange_turn == ExchangeAt.TURN_TO_DECLARE
    return [p for p in deal.standing_names() if p not in deal.exchanges
            and not (at_turn and exchange_turn_passed(deal, p))]


def exchange_cards(s: SessionState, c: cmd.ExchangeCards) -> list[ev.Event]:
    """docs/rules.md §9.2, §11.40: once, by a standing player, before the first card."""
    r = s.rules
    player = known_player(s, c.player)
    deal = open_deal(s, "exchanges")
    if not r.exchanges:
        raise InvalidInput("there are no exchanges at three-card loo (the miss takes their "
                           "place)", rule="exchange-variant")
    if deal.phase not in (Phase.DECLARING, Phase.PLAYING) or not before_play(deal):
        raise OutOfTurn("cards are exchanged after declaring and before the first card is "
                        f"played (the deal is {deal.phase})", rule="exchange-before-play")
    at_turn = r.exchange_turn == ExchangeAt.TURN_TO_DECLARE
    if deal.hand_of(player) is None:
        raise OutOfTurn(f"{player} does not stand: only a player who has declared to play "
                        "exchanges, and he must then play"
                        + (" (he declares 'play', then exchanges before the next player "
                           "declares)" if at_turn else ""), rule="exchange-after-declaring")
    if player in deal.exchanges:
        # Baxter-Wray p. 27: "No second exchange is allowable"
        raise OutOfTurn(f"{player} has exchanged already; no second exchange is allowed",
                        rule="one-exchange")
    if at_turn and exchange_turn_passed(deal, player):
        # Baxter-Wray p. 27: "the player, whose turn it is to declare, places the cards he
        # wishes exchanged ... on the table" (docs/rules.md §11.40)
        since = "a player after him has exchanged" if deal.forced \
            else "a player after him has declared"
        raise OutOfTurn(f"{player}'s turn has passed: at {r.preset} a player exchanges at his "
                        f"turn to declare (Baxter-Wray p. 27: \"the player, whose turn it is to "
                        f"declare, places the cards he wishes exchanged\"), and {since}",
                        rule="exchange-turn")
    count = c.count
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= r.cards_each:
        raise InvalidInput(f"count must be a whole number from 1 to {r.cards_each}: the cards "
                           "he puts out and draws", rule="exchange-count", field="count")
    stock = stock_left(r, deal)
    if count > stock:
        raise InvalidInput(f"the pack has {stock} card{'s' if stock != 1 else ''} left; "
                           f"{player} cannot draw {count}", rule="pack-short", field="count")
    seen = {deal.trump_card} | {x for e in deal.exchanges.values()
                                for x in e["cards_out"] + e["cards_in"]}
    cards_out = _cards(r, c.cards_out, count, "cards_out", seen)
    cards_in = _cards(r, c.cards_in, count, "cards_in", seen | set(cards_out))
    return [ev.CardsExchanged(deal_no=deal.deal_no, player=player, count=count,
                              cards_out=cards_out, cards_in=cards_in,
                              stock_left=stock - count)]


def _cards(r: Rules, given: object, count: int, field: str, seen: set[str]) -> list[str]:
    """The cards of one side of an exchange, when the table knows them (else [])."""
    if given is None:
        return []
    if not isinstance(given, list) or len(given) != count:
        raise InvalidInput(f"{field} must list the {count} cards exchanged, or be left out",
                           rule="exchange-cards", field=field)
    out: list[str] = []
    for i, text in enumerate(given):
        card = parse_card(text, r.pack, field=f"{field}[{i}]")
        if card in seen or card in out:
            raise InvalidInput(f"{card} is already seen in this deal", rule="card-unseen",
                               field=f"{field}[{i}]")
        out.append(card)
    return out


# ---------------------------------------------------------------- flushes


def flush_suit(cards: list[str], pam: str | None) -> str | None:
    """The suit of a flush: "five cards of the same suit, or four cards of a suit with Pam";
    None if the cards make no flush."""
    rest = [c for c in cards if c != pam]
    suits = {suit_of(c) for c in rest}
    if len(cards) != 5 or len(suits) != 1:
        return None
    return suits.pop()


def may_show_flush(s: SessionState, deal: DealState) -> bool:
    """Five-card loo: the declarations are over, two or more stand, no card is played yet."""
    return s.rules.variant == Variant.FIVE_CARD and deal.phase == Phase.PLAYING \
        and before_play(deal)


@dataclass(frozen=True)
class PamPlace:
    """Where Pam is, as far as the logged cards tell: `known` and then its `holder` (None: in
    no hand), with `how` the ledger knows it."""

    known: bool
    holder: str | None = None
    how: str = ""


def pam_place(s: SessionState, deal: DealState) -> PamPlace:
    """Five-card loo, before a flush is shown: Pam turned up, or put out or drawn in an
    exchange logged with its cards (a player exchanges once, so a card he drew stays his)."""
    pam = pam_card(s.rules.pam, deal.trump)
    if pam is None:
        return PamPlace(True)
    if pam == deal.trump_card:
        return PamPlace(True, None, f"Pam ({pam}) is the card turned up")
    for player, e in deal.exchanges.items():
        if pam in e["cards_out"]:
            return PamPlace(True, None, f"{player} put Pam ({pam}) out in his exchange")
        if pam in e["cards_in"]:
            return PamPlace(True, player, f"{player} drew Pam ({pam}) in his exchange")
    return PamPlace(False)


def pam_exempts(r: Rules) -> bool:
    """Whether the holder of Pam is exempted from paying a flush (Britannica: "if Pam is held,
    the holder is exempted from payment"; Enquire Within §100 ii: "except a player holding
    pam")."""
    return r.flush_payers is not None and r.flush_payers != FlushPayers.ALL_BUT_BEATEN_FLUSHES


def flush_base(r: Rules, deal: DealState) -> list[str]:
    """Who pays a flush before the exemptions: those who stood, or every player dealt in."""
    return deal.standing_names() if r.flush_payers == FlushPayers.STOOD_BUT_PAM_AND_FLUSHES \
        else list(deal.dealt)


def pam_asked(s: SessionState, deal: DealState) -> list[str] | None:
    """The players among whom the table must say who holds Pam when it shows a flush (their
    payment depends on it), or None when the ledger knows where Pam is or nobody's payment
    depends on it (docs/rules.md §11.30, §11.38). A flush shown with Pam answers it too."""
    if not pam_exempts(s.rules) or pam_place(s, deal).known:
        return None
    return flush_base(s.rules, deal)


def show_flush(s: SessionState, c: cmd.ShowFlush) -> list[ev.Event]:
    """docs/rules.md §9.3, §11.38: every flush shown, in one event; the winner by precedence
    and who pays him by `flush_payers`."""
    r = s.rules
    deal = open_deal(s, "a flush")
    if r.variant != Variant.FIVE_CARD:
        raise InvalidInput("flushes are shown at five-card loo only", rule="flush-variant")
    if not may_show_flush(s, deal):
        raise OutOfTurn("a flush is shown when the declarations are over and before the first "
                        f"card is played (the deal is {deal.phase})", rule="flush-timing")
    if not isinstance(c.flushes, dict) or not c.flushes:
        raise InvalidInput("flushes must name each player who shows a flush and his five cards",
                           rule="flush-cards", field="flushes")
    trump = deal.trump
    pam = pam_card(r.pam, trump)
    seen = {deal.trump_card} | {x for e in deal.exchanges.values() for x in e["cards_out"]}
    shown: dict[str, list[str]] = {}
    suits: dict[str, str] = {}
    for player, given in c.flushes.items():
        known_player(s, player, "flushes")
        field = f"flushes.{player}"
        if deal.hand_of(player) is None:
            raise OutOfTurn(f"{player} does not stand: a flush is shown by a player who stood",
                            rule="flush-standing", field=field)
        if not isinstance(given, list) or len(given) != 5:
            raise InvalidInput(f"{player}'s flush must list his five cards", rule="flush-cards",
                               field=field)
        others_drawn = {x for p, e in deal.exchanges.items() if p != player
                        for x in e["cards_in"]}
        drawn_out = set(deal.exchanges[player]["cards_out"]) if player in deal.exchanges \
            else set()
        cards: list[str] = []
        for i, text in enumerate(given):
            card = parse_card(text, r.pack, field=f"{field}[{i}]")
            if card in seen or card in others_drawn or card in drawn_out or card in cards \
                    or any(card in x for x in shown.values()):
                raise InvalidInput(f"{card} cannot be in {player}'s hand: it is seen elsewhere "
                                   "in this deal", rule="card-unseen", field=f"{field}[{i}]")
            cards.append(card)
        suit = flush_suit(cards, pam)
        if suit is None:
            raise InvalidInput(f"{', '.join(cards)} is no flush: five cards of a suit, or four "
                               f"with Pam{f' ({pam})' if pam else ''}", rule="flush-cards",
                               field=field)
        shown[player], suits[player] = cards, suit
    order = deal.dealt
    with_pam = r.flush_order == FlushPrecedence.TRUMPS_PAM_ELDER

    def precedence(p: str) -> tuple[bool, bool, int]:
        # a flush in trumps first; then, at Baxter-Wray's order (p. 28), the flush holding Pam;
        # then the elder hand, the first in the order dealt from the dealer's left (Britannica:
        # "As between two flushes which do not take precedence, the elder hand wins")
        return suits[p] == trump, with_pam and pam in shown[p], -order.index(p)

    winner = max(shown, key=precedence)
    beaten = [p for p in order if p in shown and p != winner]
    pam_held_by = _pam_holder(s, deal, pam, shown, c.pam_held_by)
    exempt = {winner, *beaten}
    if pam_exempts(r) and pam_held_by is not None:
        exempt.add(pam_held_by)
    payers = [p for p in flush_base(r, deal) if p not in exempt]
    return [ev.FlushShown(deal_no=deal.deal_no, flushes=shown, winner=winner, beaten=beaten,
                          pam_held_by=pam_held_by, payers=payers,
                          pam_named=c.pam_held_by is not cmd.UNSAID)]


def _pam_holder(s: SessionState, deal: DealState, pam: str | None,
                shown: dict[str, list[str]], said: str | None | cmd.Unsaid) -> str | None:
    """Who holds Pam: what the logged cards tell, never the table's word over them; else what
    the table says; refused when the table says nothing and it matters (docs/rules.md
    §11.38)."""
    place = pam_place(s, deal)
    in_flush = next((p for p, cards in shown.items() if pam in cards), None)
    if in_flush is not None:
        place = PamPlace(True, in_flush, f"{in_flush}'s flush shows Pam ({pam})")
    if said is cmd.UNSAID:
        if place.known:
            return place.holder
        # whose payment the holder's exemption changes: the payers but for Pam; a flush shown
        # is a whole hand, so its holder does not hold Pam
        concerned = [p for p in flush_base(s.rules, deal) if p not in shown]
        if pam_exempts(s.rules) and concerned:
            raise InvalidInput(
                f"say who holds Pam ({pam}): at {s.rules.preset} the holder of Pam pays no flush "
                "(Britannica: \"if Pam is held, the holder is exempted from payment\"; Enquire "
                "Within §100 ii: \"except a player holding pam\"), and no card logged in this "
                f"deal shows where it is. Send pam_held_by: the player who holds it (one of "
                f"{', '.join(concerned)}), or null if none of them does",
                rule="pam-held-by", field="pam_held_by", candidates=concerned)
        return None
    holder = None if said is None else known_player(s, said, "pam_held_by")
    if place.known:
        if holder != place.holder:
            named = f"{holder} holds" if holder is not None else "nobody holds"
            raise InvalidInput(f"the table says {named} Pam ({pam}), but {place.how}",
                               rule="pam-holder", field="pam_held_by")
        return holder
    if holder is not None and (holder not in deal.dealt or holder in shown):
        why = f"{holder}'s five cards are shown in his flush, without Pam" if holder in shown \
            else f"{holder} was not dealt in"
        raise InvalidInput(f"{holder} cannot hold Pam ({pam}) in this deal: {why}",
                           rule="pam-holder", field="pam_held_by")
    return holder
