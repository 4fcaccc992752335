"""Irish and five-card loo (docs/rules.md §9.2, §9.3): exchanging cards from the pack, and
showing flushes.

Exchanges: "each player has the liberty of changing, for others from the pack, all or any of
the five cards dealt him ... No second exchange is allowable ... neither may a player who
makes an exchange afterwards throw up his cards; he must play them out" (Baxter-Wray p. 27).
Britannica: "allowing declared players to exchange some or all of their cards for cards dealt
from the top of the pack".

Flushes: "five cards of the same suit, or four cards of a suit with Pam"; the holder "does not
declare it until all the players have settled whether they will stand or not"; "A flush in
trumps is superior to a flush in any other suit, but if there is more than one flush—neither of
which is of the trump suit—then the flush which includes Pam wins, or if neither contains that
card then the elder hand" (Baxter-Wray pp. 27-28).
"""

from __future__ import annotations

from . import commands as cmd
from . import events as ev
from .cards import pam_card, parse_card, suit_of
from .errors import InvalidInput, OutOfTurn
from .guards import known_player, open_deal
from .legality import before_play
from .rules import Rules
from .state import DealState, SessionState
from .vocabulary import FlushPayers, Phase, Variant


def stock_left(r: Rules, deal: DealState) -> int:
    """The cards left in the pack: what was not dealt nor turned up, less what the exchanges
    drew (the cards put out do not go back into it)."""
    dealt = len(deal.dealt) * r.cards_each + (r.cards_each if deal.miss else 0) + 1
    return r.pack - dealt - sum(e["count"] for e in deal.exchanges.values())


def may_exchange(s: SessionState, deal: DealState) -> list[str]:
    """The players who may exchange now: standing, not yet exchanged, before the first card."""
    if not s.rules.exchanges or deal.phase not in (Phase.DECLARING, Phase.PLAYING) \
            or not before_play(deal):
        return []
    return [p for p in deal.standing_names() if p not in deal.exchanges]


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
    if deal.hand_of(player) is None:
        raise OutOfTurn(f"{player} does not stand: only a player who has declared to play "
                        "exchanges, and he must then play", rule="exchange-after-declaring")
    if player in deal.exchanges:
        # Baxter-Wray p. 27: "No second exchange is allowable"
        raise OutOfTurn(f"{player} has exchanged already; no second exchange is allowed",
                        rule="one-exchange")
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
    # Baxter-Wray p. 28: a flush in trumps, then the flush holding Pam, then the elder hand.
    order = deal.dealt

    def precedence(p: str) -> tuple[bool, bool, int]:
        return suits[p] == trump, pam in shown[p], -order.index(p)

    winner = max(shown, key=precedence)
    beaten = [p for p in order if p in shown and p != winner]
    pam_held_by = next((p for p, cards in shown.items() if pam in cards), None)
    if c.pam_held_by is not None:
        holder = known_player(s, c.pam_held_by, "pam_held_by")
        if holder not in deal.dealt or pam == deal.trump_card or (
                pam_held_by is not None and holder != pam_held_by):
            raise InvalidInput(f"{holder} cannot hold Pam ({pam}) in this deal",
                               rule="pam-holder", field="pam_held_by")
        pam_held_by = holder
    rule = r.flush_payers
    base = deal.standing_names() if rule == FlushPayers.STOOD_BUT_PAM_AND_FLUSHES \
        else deal.dealt
    exempt = {winner, *beaten}
    if rule != FlushPayers.ALL_BUT_BEATEN_FLUSHES and pam_held_by is not None:
        exempt.add(pam_held_by)
    payers = [p for p in base if p not in exempt]
    return [ev.FlushShown(deal_no=deal.deal_no, flushes=shown, winner=winner, beaten=beaten,
                          pam_held_by=pam_held_by, payers=payers)]
