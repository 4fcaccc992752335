"""Settling a deal (docs/rules.md §5.7, §4): the outcomes before play, the turn-up single, and the
division of a played hand; each ends with what stays in the pool carried to the next one.
"""

from __future__ import annotations

from collections import Counter

from . import events as ev
from .cards import rank_of, suit_of
from .errors import InvariantBroken
from .events import NEXT_POOL, POOL, posting
from .money import loo_units, trick_shares
from .penalising import (
    DEFERRED_LOO,
    blenheim_fine,
    fines_left_to_deal,
    forfeited,
    in_play_penalties,
    penalty_base,
)
from .records import Posting, Share
from .state import DealState, SessionState
from .vocabulary import (
    Declaration,
    Destination,
    Forced,
    Hand,
    KeptInPool,
    LooKind,
    Outcome,
    Reason,
)

# ---------------------------------------------------------------- before play


def outcome_before_play(s: SessionState, deal: DealState) -> list[ev.Event]:
    """The pool taken (or carried) without play, when the declarations leave fewer than two
    standing; nothing while the declarations may still bring two."""
    order, decl = deal.dealt, deal.declarations
    before_last, last = order[:-1], order[-1]
    if last not in decl and all(p in decl for p in before_last) and not any(
            decl[p] in (Declaration.PLAY, Declaration.TAKE_MISS) for p in before_last):
        # Baxter-Wray p. 19: "then the dealer is entitled to the amount in the pool, no matter
        # what his cards are".
        return [_settle_without_play(s, deal, last, Outcome.DEALER_TOOK_POOL)]
    if all(p in decl for p in order) and len(deal.standing) < 2:
        if not deal.standing:
            return [_settle_without_play(s, deal, None, Outcome.NOBODY_STOOD)]
        only = deal.standing[0]
        # Baxter-Wray p. 19: "the holder of miss, being the only standing hand, takes the whole
        # amount of the pool".
        outcome = Outcome.MISS_HOLDER_TOOK_POOL if only["hand"] == Hand.MISS \
            else Outcome.LAST_STANDING_TOOK_POOL
        return [_settle_without_play(s, deal, only["player"], outcome)]
    return []


def _settle_without_play(s: SessionState, deal: DealState, taker: str | None,
                         outcome: Outcome) -> ev.DealSettled:
    pool = s.pool_units()
    postings: list[Posting] = []
    if taker and pool and taker not in forfeited(deal):
        postings.append(posting(POOL, taker, pool, Reason.POOL_TAKEN, deal_no=deal.deal_no))
    # No trick was played, so a Blenheim offender cannot be "looed instead": he pays the fine.
    postings += fines_left_to_deal(s, deal)
    return _settled(s, deal, outcome, postings, [], [], None)


# ---------------------------------------------------------------- a flush (five-card loo)


def settle_flush(s: SessionState, deal: DealState) -> ev.DealSettled:
    """Baxter-Wray p. 28: the holder of the flush, "besides taking the amount in the pool,
    receives from each of the players ... the amount of a loo"; Britannica: "the holder
    receives the amount of a loo from every one, and the hand is not played". Who pays is
    `flush_payers` (FlushShown.payers); the loo is the deal's, on the pool as it stands
    (docs/rules.md §9.3, §11.3). A holder whose winnings are forfeited takes neither: the pool
    is carried, and nobody pays him (§11.24, §11.38)."""
    flush = deal.flush
    assert flush is not None
    pool = s.pool_units()
    loo = loo_units(s.rules, penalty_base(s, deal))
    winner = flush["winner"]
    postings: list[Posting] = []
    if winner not in forfeited(deal):
        if pool:
            postings.append(posting(POOL, winner, pool, Reason.POOL_TAKEN, deal_no=deal.deal_no))
        if loo:
            postings += [posting(p, winner, loo, Reason.FLUSH, deal_no=deal.deal_no)
                         for p in flush["payers"]]
    postings += fines_left_to_deal(s, deal)
    return _settled(s, deal, Outcome.FLUSH, postings, [], [], loo)


# ---------------------------------------------------------------- the turn-up single


def settle_single(s: SessionState, deal: DealState) -> ev.DealSettled:
    """Baxter-Wray p. 18: a higher card of the turned-up suit wins; the others are looed."""
    trump, floor = deal.trump, rank_of(deal.trump_card)
    better = [(rank_of(c), p) for p, c in deal.face_up.items()
              if suit_of(c) == trump and rank_of(c) > floor]
    winner = max(better)[1] if better else None
    pool = s.pool_units()
    postings: list[Posting] = []
    if winner and pool:
        postings.append(posting(POOL, winner, pool, Reason.POOL_TAKEN, deal_no=deal.deal_no))
    looed = [p for p in deal.dealt if p != winner]
    for p in looed:
        postings += _loo_posting(p, s.rules.single_loo, deal, Reason.SINGLE_LOO)
    outcome = Outcome.SINGLE_WON if winner else Outcome.SINGLE_NOT_WON
    return _settled(s, deal, outcome, postings, [], looed, s.rules.single_loo)


# ---------------------------------------------------------------- a played hand


def settle_played(s: SessionState, deal: DealState) -> ev.DealSettled:
    r = s.rules
    pool = s.pool_units()
    loo = loo_units(r, penalty_base(s, deal))
    hands = {x["player"]: x["hand"] for x in deal.standing}
    in_play = in_play_penalties(deal)
    forfeit = forfeited(deal)
    covered = {p["player"] for p in in_play if p["destination"] != Destination.SETTLED_WITH_DEAL}
    fined = {p["player"]: p for p in in_play if p["destination"] == Destination.SETTLED_WITH_DEAL}
    won = Counter(t["winner"] for t in deal.tricks)
    postings: list[Posting] = []
    shares: list[Share] = []
    outcome: Outcome = Outcome.DIVIDED
    next_forced: Forced | None = None
    if r.loo == LooKind.ALL_OR_NOTHING:
        # Cassell, "Unlimited Loo": "a player must take all three tricks to win the pool ...
        # if the tricks are divided, the pool is left untouched"; then a bold stand.
        sweeper = deal.tricks[0]["winner"] if len(won) == 1 else None
        if sweeper and hands[sweeper] != Hand.MISS_FOR_POOL and sweeper not in forfeit and pool:
            postings.append(posting(POOL, sweeper, pool, Reason.POOL_TAKEN, deal_no=deal.deal_no))
            outcome, next_forced = Outcome.POOL_WON, Forced.BOLD_STAND
        else:
            outcome = Outcome.POOL_STAYS
    else:
        for t, share in zip(deal.tricks, trick_shares(pool, r.cards_each), strict=True):
            w = t["winner"]
            kept = KeptInPool.MISS_FOR_POOL if hands[w] == Hand.MISS_FOR_POOL else \
                KeptInPool.FORFEITED if w in forfeit else None
            shares.append({"trick": t["trick"], "winner": w, "amount_units": share,
                           "paid_to": None if kept else w, "stays_in_pool": kept})
            if not kept and share:
                postings.append(posting(POOL, w, share, Reason.TRICK, deal_no=deal.deal_no))
    looed = []
    for x in deal.standing:
        p = x["player"]
        if p in fined:
            if won[p] == 0 and x["hand"] != Hand.MISS_FOR_POOL:
                # Blenheim law 9: "If he makes no trick he is looed, and there is no further
                # penalty".
                looed.append(p)
                postings += _loo_posting(p, loo, deal, Reason.LOO)
            else:
                postings.append(blenheim_fine(s, deal, fined[p]))
            continue
        if x["hand"] == Hand.MISS_FOR_POOL or won[p] > 0 or p in covered:
            continue  # the miss is never looed; an offender in play has had his one loo
        looed.append(p)
        postings += _loo_posting(p, loo, deal, Reason.LOO)
    return _settled(s, deal, outcome, postings, shares, looed, loo, next_forced)


# ---------------------------------------------------------------- every settlement


def _loo_posting(player: str, amount: int, deal: DealState, reason: Reason) -> list[Posting]:
    if amount <= 0:
        return []
    return [posting(player, NEXT_POOL, amount, reason, deal_no=deal.deal_no, loo=True)]


def _settled(s: SessionState, deal: DealState, outcome: Outcome, postings: list[Posting],
             shares: list[Share], looed: list[str], loo: int | None,
             next_forced: Forced | None = None) -> ev.DealSettled:
    """The settlement: the loos owed for penalties fixed now, what stays in the pool carried
    to the next, and whether the next deal is a fresh pool."""
    pool = s.pool_units()
    base = penalty_base(s, deal)
    for pen in deal.penalties:  # every hand of the deal: a void hand's loo stays owed
        if pen["destination"] == DEFERRED_LOO and (units := loo_units(s.rules, base)):
            postings.append(posting(pen["player"], NEXT_POOL, units, Reason.PENALTY,
                                    offence=pen["offence"], deal_no=deal.deal_no, loo=True))
    paid_out = sum(p["amount_units"] for p in postings if p["from"] == POOL)
    carried = pool - paid_out
    if carried < 0:
        raise InvariantBroken(f"deal {deal.deal_no} pays out more than its pool")
    if carried:
        postings.append(posting(POOL, NEXT_POOL, carried, Reason.CARRIED_FORWARD,
                                deal_no=deal.deal_no))
    new_loos = [p for p in postings if p.get("loo")]
    # docs/rules.md §11.2: a fresh pool if and only if no loo is owed to the next pool.
    next_fresh = not (s.loos_owed or new_loos)
    return ev.DealSettled(deal_no=deal.deal_no, outcome=outcome, pool_units=pool, loo_units=loo,
                          shares=shares, looed=looed, carried_units=carried,
                          next_fresh=next_fresh, next_forced=next_forced, postings=postings)
