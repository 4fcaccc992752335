"""Dealing: opening a session, what the next deal is, and starting a deal or a redeal.

A deal starts with its price, the antes of a fresh pool and what was owed to it (postings of
`DealStarted`); at the turn-up single the card dealt face up to each player is logged with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import commands as cmd
from . import events as ev
from .cards import check_capacity, parse_card, suit_of
from .errors import InvalidInput, LedgerError, OutOfTurn
from .events import NEXT_POOL, POOL, posting
from .guards import amount_limit_refusal, amount_limit_units, between_deals, known_player
from .limits import (
    CURRENCY_PATTERN,
    MAX_PLAYERS,
    MAX_UNITS,
    MIN_PLAYERS,
    SESSION_NAME_MAX,
    UNIT_NAME_MAX,
)
from .money import loo_units
from .penalising import fines_left_to_deal
from .records import Posting
from .rules import Rules, build_rules
from .seating import check_name, dealt_in, hands_dealt, printable
from .state import SessionState
from .vocabulary import DealKind, DealOutOfTurn, Forced, FreshPool, Phase, Reason, Variant

# Baxter-Wray p. 27: five-card loo "is not suitable for more than six players"
FIVE_CARD_ADVISED = 6

# ---------------------------------------------------------------- opening a session


def open_session(state: SessionState | None, c: cmd.OpenSession) -> list[ev.Event]:
    if state is not None:
        raise OutOfTurn("the session is already open", rule="open-once")
    players = c.players
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidInput(f"a session needs from {MIN_PLAYERS} to {MAX_PLAYERS} players in "
                           "seat order", rule="players", field="players")
    for name in players:
        check_name(name, "players")
    if len(set(players)) != len(players):
        raise InvalidInput("player names must be distinct", rule="players", field="players")
    rules = build_rules(c.preset, c.rules)
    check_capacity(hands_dealt(rules, len(players)), rules.pack, miss=rules.has_miss,
                   cards_each=rules.cards_each)
    first = c.first_dealer if c.first_dealer is not None else players[0]
    if first not in players:
        raise InvalidInput(f"first dealer {first!r} is not one of the players",
                           rule="known-player", field="first_dealer")
    if not isinstance(c.unit, str) or not 1 <= len(c.unit) <= UNIT_NAME_MAX:
        raise InvalidInput(f"unit must be a name of 1 to {UNIT_NAME_MAX} characters", rule="unit",
                           field="unit")
    if c.money_per_unit_minor is not None and (
            not isinstance(c.money_per_unit_minor, int) or isinstance(c.money_per_unit_minor, bool)
            or not 1 <= c.money_per_unit_minor <= MAX_UNITS):
        raise InvalidInput("money_per_unit_minor must be a whole number of minor units >= 1",
                           rule="unit", field="money_per_unit_minor")
    if (c.money_per_unit_minor is None) != (c.currency is None):
        raise InvalidInput("give both money_per_unit_minor and currency, or neither",
                           rule="unit", field="currency")
    if c.currency is not None and not CURRENCY_PATTERN.fullmatch(str(c.currency)):
        raise InvalidInput("currency must be an ISO 4217 code such as GBP", rule="unit",
                           field="currency")
    if not isinstance(c.name, str) or len(c.name) > SESSION_NAME_MAX or not printable(c.name):
        raise InvalidInput(f"name must be at most {SESSION_NAME_MAX} printable characters",
                           rule="name", field="name")
    if not printable(c.unit):
        raise InvalidInput("unit must be printable", rule="unit", field="unit")
    members = c.members or {}
    if not isinstance(members, dict) or any(
            name not in players or not isinstance(member, str) or not member
            for name, member in members.items()):
        raise InvalidInput("members must map players' names to member ids", rule="members",
                           field="members")
    return [ev.SessionOpened(name=c.name, players=list(players), first_dealer=first,
                             rules=rules.to_dict(), unit=c.unit,
                             money_per_unit_minor=c.money_per_unit_minor, currency=c.currency,
                             members={p: members[p] for p in players if p in members})]


def table_warnings(rules: Rules, hands: int) -> list[dict[str, Any]]:
    """What the table should know of a game its rules allow but the sources advise against,
    for `hands` hands dealt (docs/rules.md §9.3, §11.42); empty at three-card loo."""
    out: list[dict[str, Any]] = []
    if rules.variant == Variant.FIVE_CARD and hands > FIVE_CARD_ADVISED:
        out.append({"rule": "five-card-players", "players": hands,
                    "detail": f"{hands} hands at five-card loo: Baxter-Wray (p. 27) says the game "
                              "\"is not suitable for more than six players, even if five should "
                              "not be regarded as the limit\""})
    if rules.exchanges:
        stock = rules.pack - hands * rules.cards_each - 1
        if stock < rules.cards_each:
            out.append({"rule": "short-stock", "stock_left": stock,
                        "detail": f"{hands} hands of {rules.cards_each} and the trump card leave "
                                  f"{stock} card{'' if stock == 1 else 's'} in the pack for "
                                  "the exchanges: fewer than a hand, so an exchange may be "
                                  "refused as the pack runs short (pack-short)"})
    return out


# ---------------------------------------------------------------- what the next deal is


@dataclass(frozen=True)
class NextDeal:
    """What the next deal will be, before its trump is turned (one place for this rule)."""

    kind: DealKind
    fresh: bool
    forced: Forced | None  # why everyone must stand, whatever the trump; club law aside


def next_deal(s: SessionState) -> NextDeal:
    r = s.rules
    fresh = s.next_fresh
    last_round = s.last_round_left > 0
    # Cassell: after the pool is won "the next hand then becomes Bold Stand": a forced hand,
    # never the turn-up single.
    # docs/rules.md §11.34: Irish and five-card loo have no turn-up single; a fresh pool under
    # `turn-up` is a hand played for the dealer's price alone (Baxter-Wray p. 28: "no payments
    # to the pool, beyond the dealer's fee").
    kind = DealKind.SINGLE if (fresh and r.turn_up_single and not last_round
                               and not s.next_forced) else DealKind.HAND
    forced = (Forced.LAST_ROUND if last_round else
              s.next_forced if s.next_forced else
              Forced.AFTER_SINGLE if (kind == DealKind.HAND and fresh and r.force_after_single)
              else None)
    return NextDeal(kind=kind, fresh=fresh, forced=forced)


def club_law_applies(r: Rules, trump_card: str) -> bool:
    """Baxter-Wray p. 26: with a club turned up all stand and the miss is withdrawn."""
    return r.club_law and suit_of(trump_card) == "C"


# ---------------------------------------------------------------- a deal starts


def start_deal(s: SessionState, c: cmd.StartDeal) -> list[ev.Event]:
    r = s.rules
    deal = s.deal
    redeal = deal is not None and deal.phase == Phase.REDEAL
    if not redeal:
        between_deals(s, "a new deal starts")
    trump_card = parse_card(c.trump_card, r.pack, field="trump_card")
    postings: list[Posting]
    base_forced: Forced | None
    if redeal:
        assert deal is not None
        dealer = deal.dealer
        if c.dealer is not None and c.dealer != dealer:
            raise OutOfTurn(f"after a misdeal the same dealer, {dealer}, deals again",
                            rule="redeal-same-dealer", field="dealer")
        kind, dealt, fresh, deal_no = deal.kind, deal.dealt, deal.fresh, deal.deal_no
        base_forced = deal.forced if deal.forced != Forced.CLUB_LAW else None
        # The misdealt hand is void: a Blenheim fine left to be settled with it is charged now
        # (no trick can be made in it); its replay and forfeits do not carry into the new hand.
        postings = fines_left_to_deal(s, deal)
    else:
        expected = s.next_dealer
        assert expected is not None
        dealer = expected if c.dealer is None else known_player(s, c.dealer, "dealer")
        if dealer not in s.active:
            raise OutOfTurn(f"{dealer} has withdrawn", rule="deal-in-turn", field="dealer")
        if dealer != expected and r.deal_out_of_turn != DealOutOfTurn.STANDS:
            raise OutOfTurn(f"it is {expected}'s turn to deal", rule="deal-in-turn",
                            field="dealer")
        if s.withdrawing and dealer != s.withdrawing:
            raise OutOfTurn(f"{s.withdrawing} withdraws at his deal and deals this one",
                            rule="withdraw-at-own-deal", field="dealer")
        # Blenheim law 6: a deal out of turn not stopped before the trump is turned "stands
        # good, and the player to his left deals next" (docs/rules.md §11.25).
        dealt = dealt_in(s, dealer)
        plan = next_deal(s)
        kind, fresh, base_forced = plan.kind, plan.fresh, plan.forced
        deal_no = s.deal_no + 1
    forced: Forced | None = base_forced
    if kind == DealKind.HAND and forced is None and club_law_applies(r, trump_card):
        forced = Forced.CLUB_LAW
    # Irish and five-card loo: "There is no miss" (Baxter-Wray p. 27; Britannica).
    miss = kind == DealKind.HAND and forced is None and r.has_miss
    if len(dealt) < MIN_PLAYERS:
        raise InvalidInput("at least two players must be dealt in", rule="players")
    check_capacity(len(dealt), r.pack, miss=miss,
                   cards_each=1 if kind == DealKind.SINGLE else r.cards_each)
    face_up = _face_up(s, c, kind, dealt, trump_card)
    if not redeal:
        postings = _stakes(s, dealer, deal_no, fresh and kind == DealKind.HAND)
        refusal = _past_amount_limit(s, postings, len(dealt))
        if refusal is not None:
            raise refusal
    return [ev.DealStarted(deal_no=deal_no, dealer=dealer, kind=kind, trump_card=trump_card,
                           dealt=list(dealt), fresh=fresh, forced=forced, miss=miss,
                           redeal=redeal, face_up=face_up, postings=postings)]


def _stakes(s: SessionState, dealer: str, deal_no: int, fresh_hand: bool) -> list[Posting]:
    """What comes into a new deal's pool: the dealer's price (the fresh price, and the
    others' antes, for a fresh pool of antes), and what was owed to it."""
    r = s.rules
    antes = fresh_hand and r.fresh_pool == FreshPool.ANTES
    price = r.fresh_deal_price if antes else r.deal_price
    postings = [posting(dealer, POOL, price, Reason.DEAL, deal_no=deal_no)]
    if antes and r.ante:
        for p in s.active:
            if p != dealer:
                postings.append(posting(p, POOL, r.ante, Reason.ANTE, deal_no=deal_no))
    if s.next_pool_units() > 0:
        postings.append(posting(NEXT_POOL, POOL, s.next_pool_units(), Reason.BROUGHT_FORWARD,
                                deal_no=deal_no))
    return postings


def next_deal_past_amount_limit(s: SessionState) -> LedgerError | None:
    """The refusal of the next deal, dealt in turn, for the amount limit; None if it may
    start (expect.py leaves the deal out of the table's choices, ending.py lets the session
    end even while a player waits to withdraw at his deal)."""
    dealer = s.next_dealer
    if dealer is None:
        return None
    plan = next_deal(s)
    stakes = _stakes(s, dealer, s.deal_no + 1, plan.fresh and plan.kind == DealKind.HAND)
    return _past_amount_limit(s, stakes, len(dealt_in(s, dealer)))


def _past_amount_limit(s: SessionState, stakes: list[Posting], dealt: int) -> LedgerError | None:
    """docs/rules.md §11.43: a deal starts only if, were every player dealt in looed, no
    account could pass the amount limit: the largest account now, plus the pool at play, plus
    a loo from each player dealt in. Refused, the session stays between deals, so it can be
    ended (its pool divided) instead."""
    pool = s.pool_units() + sum(p["amount_units"] for p in stakes if p["to"] == POOL)
    largest = max((abs(units) for units in s.balances.values()), default=0)
    worst = largest + pool + dealt * loo_units(s.rules, pool)
    if worst <= amount_limit_units(s):
        return None
    return amount_limit_refusal(
        s, f"deal {s.deal_no + 1} would play for a pool of {pool} units, and its loos could "
           f"take an account to {worst} units")


def _face_up(s: SessionState, c: cmd.StartDeal, kind: DealKind, dealt: list[str],
             trump_card: str) -> dict[str, str]:
    """The turn-up single's cards, one dealt face up to each player dealt in; none else."""
    if kind != DealKind.SINGLE:
        if c.face_up:
            raise InvalidInput("face_up cards belong to the turn-up single only; this deal is "
                               "a three-card hand", rule="deal-kind", field="face_up")
        return {}
    if not isinstance(c.face_up, dict) or not c.face_up:
        raise InvalidInput("this deal is the turn-up single: give face_up, the card dealt face "
                           f"up to each of {', '.join(dealt)}", rule="turn-up-single",
                           field="face_up")
    for p in c.face_up:
        known_player(s, p, "face_up")
    missing = [p for p in dealt if p not in c.face_up]
    extra = [p for p in c.face_up if p not in dealt]
    if missing or extra:
        raise InvalidInput(f"face_up must name exactly the players dealt in ({', '.join(dealt)})"
                           + (f"; missing {', '.join(missing)}" if missing else "")
                           + (f"; not dealt in {', '.join(extra)}" if extra else ""),
                           rule="turn-up-single", field="face_up")
    seen = {trump_card}
    out: dict[str, str] = {}
    for p in dealt:
        card = parse_card(c.face_up[p], s.rules.pack, field=f"face_up.{p}")
        if card in seen:
            raise InvalidInput(f"{card} is already seen in this deal", rule="card-unseen",
                               field=f"face_up.{p}")
        seen.add(card)
        out[p] = card
    return out
