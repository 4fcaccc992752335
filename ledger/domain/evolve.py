"""evolve: fold one event into the session state.

It folds in place and returns the state: the caller owns its copy (the service loads a fresh
one per request from the projection table), which keeps an append O(event), not O(state).
Every posting is applied here and nowhere else, and the zero sum is asserted after each event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import singledispatch
from typing import Any, cast

from . import events as ev
from .errors import InvariantBroken
from .events import NEXT_POOL, POOL, POOL_ACCOUNTS, asdict, check_balanced
from .records import BreachRecord, PenaltyRecord, Posting, Standing
from .rules import Rules
from .seating import left_of
from .state import DealState, SessionState
from .vocabulary import (
    HAND_OF_DECLARATION,
    Call,
    DealKind,
    Declaration,
    Entry,
    Hand,
    Phase,
    ReplayRule,
    ReplayStatus,
    Status,
)

# How an event class is folded: its rule (None: it opens the session), whether it carries
# postings, and whether it is a correction (the version then goes on from the log's).
_Step = tuple[Callable[[Any, SessionState], None] | None, bool, bool]


def evolve(state: SessionState | None, event: ev.Event, *, session_id: str = "") -> SessionState:
    kind = type(event)
    step = _STEPS.get(kind)
    if step is None:  # looked up once per class
        step = _STEPS[kind] = _step_of(kind)
    rule, posts, corrects = step
    if rule is None:
        state = _opened(cast(ev.SessionOpened, event), session_id)
    elif state is None:
        raise InvariantBroken(f"{event.type} before SessionOpened")
    else:
        rule(event, state)
    if posts:
        _post(state, event)
    state.version += 1
    if corrects:
        # The superseded events are not folded: the version goes on from the log's.
        state.version = cast(ev.EntryCorrected, event).logged_as_version
    return state


def _step_of(kind: type) -> _Step:
    opens = issubclass(kind, ev.SessionOpened)
    return (None if opens else _apply.dispatch(kind), kind not in _WITHOUT_POSTINGS,
            issubclass(kind, ev.EntryCorrected))


_STEPS: dict[type, _Step] = {}


def _opened(e: ev.SessionOpened, session_id: str) -> SessionState:
    return SessionState(
        session_id=session_id, name=e.name, rules=Rules.from_dict(e.rules), unit=e.unit,
        money_per_unit_minor=e.money_per_unit_minor, currency=e.currency,
        seats=list(e.players), active=list(e.players), next_dealer=e.first_dealer,
        deals_dealt={p: 0 for p in e.players},
        balances={**{p: 0 for p in e.players}, POOL: 0, NEXT_POOL: 0},
        totals={p: {} for p in e.players},
        members=dict(e.members or {}),
    )


# The event classes that have no postings: nothing to post (the others are posted, empty or
# not, by `_post`).
_WITHOUT_POSTINGS = frozenset(cls for cls in ev.EVENT_TYPES.values()
                              if "postings" not in {f.name for f in fields(cls)})
_POOLS = frozenset(POOL_ACCOUNTS)


def _category(p: Posting) -> str:
    return f"penalty:{p['offence']}" if p.get("offence") else p["reason"]


def _post(state: SessionState, event: ev.Event) -> None:
    postings: list[Posting] | None = getattr(event, "postings", None)
    if not postings:
        return
    balances = state.balances
    for p in postings:  # `check_balanced`, which words the refusal, where one may be due
        amount = p.get("amount_units")
        if type(amount) is not int or amount <= 0 or p.get("from") == p.get("to"):
            check_balanced(postings)
            break
        if p.get("from") not in balances or p.get("to") not in balances:
            raise InvariantBroken(f"posting between accounts the session does not have {p!r}")
    deal = state.deal
    deal_no = deal.deal_no if deal is not None else None
    pool_flows, totals_of, pools = state.pool_flows, state.totals, _POOLS
    for p in postings:
        amount, src, dst = p["amount_units"], p["from"], p["to"]
        offence = p.get("offence")
        cat = f"penalty:{offence}" if offence else p["reason"]
        balances[src] -= amount
        balances[dst] += amount
        if src in pools:
            flow = f"{src}:{cat}"
            pool_flows[flow] = pool_flows.get(flow, 0) - amount
        else:
            totals = totals_of[src]
            totals[cat] = totals.get(cat, 0) - amount
        if dst in pools:
            flow = f"{dst}:{cat}"
            pool_flows[flow] = pool_flows.get(flow, 0) + amount
        else:
            totals = totals_of[dst]
            totals[cat] = totals.get(cat, 0) + amount
        if dst == NEXT_POOL and p.get("loo"):
            state.loos_owed.append({"player": src, "amount_units": amount,
                                    "deal_no": p.get("deal_no"), "reason": cat})
        if deal is not None and p.get("deal_no") == deal_no:
            deal.postings.append(p)
    if sum(balances.values()) != 0:
        raise InvariantBroken(f"balances do not sum to zero after {event.type}")


@singledispatch
def _apply(event: ev.Event, state: SessionState) -> None:
    raise InvariantBroken(f"no evolve rule for {type(event).__name__}")


@_apply.register
def _(e: ev.SessionAttached, state: SessionState) -> None:
    state.members = dict(e.members)


@_apply.register
def _(e: ev.LatecomersAttached, state: SessionState) -> None:
    state.members = {**state.members, **e.members}


@_apply.register
def _(e: ev.PlayerJoined, state: SessionState) -> None:
    if e.member is not None:
        state.members = {**state.members, e.player: e.member}
    state.seats.insert(state.seats.index(e.after) + 1, e.player)
    state.active = [p for p in state.seats if p in state.active or p == e.player]
    state.deals_dealt[e.player] = 0
    state.balances[e.player] = 0
    state.totals[e.player] = {}


@_apply.register
def _(e: ev.PlayerWithdrew, state: SessionState) -> None:
    state.withdrawing = e.player


@_apply.register
def _(e: ev.LastRoundStarted, state: SessionState) -> None:
    state.last_round_left = e.deals


@_apply.register
def _(e: ev.DealStarted, state: SessionState) -> None:
    if e.redeal and state.deal is not None:
        deal = state.deal
        deal.trump_card, deal.face_up, deal.forced, deal.miss = \
            e.trump_card, dict(e.face_up), e.forced, e.miss
        deal.phase, deal.redeals = Phase.DECLARING, deal.redeals + 1
        deal.declarations, deal.standing, deal.replay = {}, [], None
        deal.exchanges, deal.flush = {}, None
    else:
        state.deal_no = e.deal_no
        state.deal = DealState(
            deal_no=e.deal_no, dealer=e.dealer, kind=e.kind, trump_card=e.trump_card,
            dealt=list(e.dealt), fresh=e.fresh, forced=e.forced, miss=e.miss,
            face_up=dict(e.face_up),
        )
        state.deals_dealt[e.dealer] = state.deals_dealt.get(e.dealer, 0) + 1
        state.last_dealer = e.dealer
        state.next_forced = None
        if state.last_round_left:
            state.last_round_left -= 1
        # What was owed to this pool is now in it.
        state.loos_owed = []
    deal = state.deal
    assert deal is not None
    if e.forced and e.kind == DealKind.HAND:
        deal.standing = [{"player": p, "hand": Hand.OWN} for p in e.dealt]
        deal.declarations = {p: Declaration.PLAY for p in e.dealt}
        deal.phase = Phase.PLAYING
    elif e.kind == DealKind.SINGLE:
        deal.phase = Phase.SINGLE


@_apply.register
def _(e: ev.DeclarationMade, state: SessionState) -> None:
    deal = state.deal
    assert deal is not None
    deal.declarations[e.player] = e.declaration
    _refresh_standing(deal)


def _refresh_standing(deal: DealState) -> None:
    declarations, hands = deal.declarations, HAND_OF_DECLARATION
    standing: list[Standing] = []
    everyone = True  # every player dealt in has declared
    for p in deal.dealt:
        declared = declarations.get(p, _UNDECLARED)
        if declared in hands:
            standing.append({"player": p, "hand": hands[declared]})
        elif declared is _UNDECLARED:
            everyone = False
    deal.standing = standing
    if everyone and len(standing) >= 2 and deal.phase == Phase.DECLARING:
        deal.phase = Phase.PLAYING


_UNDECLARED: Any = object()


@_apply.register
def _(e: ev.PenaltyImposed, state: SessionState) -> None:
    deal = state.deal
    assert deal is not None
    if type(e).payload is ev.Event.payload:  # its fields, its postings a list of the same
        record = asdict(e, shallow="postings")
        record["hand"] = deal.redeals
    else:
        record = {**e.payload(), "postings": list(e.postings), "hand": deal.redeals}
    deal.penalties.append(cast(PenaltyRecord, record))
    if e.leaves_play:
        played = any(p == e.player for p, _ in deal.current_trick)
        deal.abandoned[e.player] = len(deal.tricks) + (2 if played else 1)
    if e.throw_up and e.player not in deal.declarations:
        deal.declarations[e.player] = Declaration.THROW_UP
        _refresh_standing(deal)
    if e.redeal:
        deal.phase = Phase.REDEAL
    if e.replay != ReplayRule.NONE and deal.replay is None:
        deal.replay = ReplayStatus(e.replay.value)
    if deal.phase == Phase.PLAYED and deal.replay == ReplayStatus.ON_REQUEST \
            and deal.first_play is None:
        deal.phase = Phase.REVIEW  # Blenheim law 11: replayed "if so desired by any one"


@_apply.register
def _(e: ev.CardPlayed, state: SessionState) -> None:
    deal = state.deal
    assert deal is not None
    if deal.pool_at_play_units is None:
        deal.pool_at_play_units = state.pool_units()
    deal.entry = Entry.CARDS
    if e.call == Call.PAM_BE_CIVIL:  # "none" is logged too: no call was made
        deal.civil.append(e.trick)
    deal.current_trick.append([e.player, e.card])
    if not e.replay:
        deal.hands.setdefault(e.player, []).append(e.card)


@_apply.register
def _(e: ev.CardsExchanged, state: SessionState) -> None:
    assert state.deal is not None
    state.deal.exchanges[e.player] = {"count": e.count, "cards_out": list(e.cards_out),
                                      "cards_in": list(e.cards_in)}


@_apply.register
def _(e: ev.FlushShown, state: SessionState) -> None:
    deal = state.deal
    assert deal is not None
    deal.flush = {"flushes": {p: list(c) for p, c in e.flushes.items()}, "winner": e.winner,
                  "beaten": list(e.beaten), "pam_held_by": e.pam_held_by,
                  "payers": list(e.payers)}
    deal.phase = Phase.FLUSH  # the hand is not played; the settlement follows


@_apply.register
def _(e: ev.TrickWon, state: SessionState) -> None:
    deal = state.deal
    assert deal is not None
    if deal.pool_at_play_units is None:
        deal.pool_at_play_units = state.pool_units()
    if deal.entry is None:
        deal.entry = Entry.QUICK if not e.cards else Entry.CARDS
    deal.tricks.append({"trick": e.trick, "winner": e.winner,
                        "cards": [list(x) for x in e.cards]})
    deal.current_trick = []
    if len(deal.tricks) == state.rules.cards_each:
        review = deal.replay == ReplayStatus.ON_REQUEST and deal.first_play is None
        deal.phase = Phase.REVIEW if review else Phase.PLAYED


@_apply.register
def _(e: ev.BreachDetected, state: SessionState) -> None:
    assert state.deal is not None
    state.deal.breaches.append(cast(BreachRecord, asdict(e) if type(e).payload is
                                    ev.Event.payload else e.payload()))


@_apply.register
def _(e: ev.ReplayStarted, state: SessionState) -> None:
    deal = state.deal
    assert deal is not None
    deal.first_play = deal.tricks
    deal.tricks, deal.current_trick, deal.civil = [], [], []
    deal.replay = ReplayStatus.ASKED if e.asked_by else ReplayStatus.REQUIRED
    deal.replay_asked_by = e.asked_by
    deal.entry = None
    deal.phase = Phase.REPLAYING


@_apply.register
def _(e: ev.ReplayWaived, state: SessionState) -> None:
    assert state.deal is not None
    state.deal.replay = ReplayStatus.WAIVED
    state.deal.phase = Phase.PLAYED


@_apply.register
def _(e: ev.DealSettled, state: SessionState) -> None:
    deal = state.deal
    assert deal is not None
    deal.phase = Phase.SETTLED
    if deal.replay in (ReplayStatus.REQUIRED, ReplayStatus.ASKED):
        deal.replay = ReplayStatus.DONE
    deal.settlement = asdict(e, left_out="postings")  # the payload less its postings
    state.outcomes[e.outcome] = state.outcomes.get(e.outcome, 0) + 1
    state.next_fresh = e.next_fresh
    state.next_forced = e.next_forced
    if state.withdrawing == deal.dealer:
        state.active = [p for p in state.active if p != deal.dealer]
        state.withdrawing = None
    state.next_dealer = left_of(state.seats, deal.dealer, state.active)


@_apply.register
def _(e: ev.SessionEnded, state: SessionState) -> None:
    state.status = Status.ENDED
    state.ended_method = e.method
    state.loos_owed = []


@_apply.register
def _(e: ev.EntryCorrected, state: SessionState) -> None:
    state.corrections.append({
        "version": e.logged_as_version, "voids": list(e.voids),
        "replacements": list(e.replacements), "reason": e.reason,
        "authorised_by": e.authorised_by, "deal_no": e.deal_no, "changes": dict(e.changes)})
