"""execute = decide, evolve, then the consequences the rules draw by themselves.

A command is decided against the state, its events are folded in, and then `follow_ups`
looks at the new state and emits what the table does not log but the rules imply (a trick
completed, a breach the cards prove, a deal settled). The caller appends all of them in one
transaction, or none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .cards import pam_card
from .commands import Command, OpenSession
from .dealing import table_warnings
from .decide import decide, decide_open, follow_ups
from .errors import SessionNotFound
from .events import Event
from .evolve import evolve
from .expect import expected
from .guards import within_amount_limit
from .seating import hands_dealt
from .state import SessionState, plain
from .vocabulary import Account, Forced, Phase, Status

__all__ = ["execute", "fold", "expected", "session_view", "deal_view"]


Fold = Callable[[SessionState | None, Event], SessionState]


def execute(state: SessionState | None, command: Command, *, session_id: str = "",
            fold: Fold | None = None) -> tuple[SessionState, list[Event]]:
    """Decide `command` against `state`, fold the events in place, return them all.

    `fold` folds one event (default: `evolve`); a projection that watches the events go by
    wraps it (ledger/projections.py keeps the deal views that way)."""
    if fold is None:
        def fold(s: SessionState | None, e: Event) -> SessionState:
            return evolve(s, e, session_id=session_id)
    if isinstance(command, OpenSession):
        events = decide_open(state, command)
    elif state is None:
        raise SessionNotFound("no such session", rule="session-exists")
    else:
        events = decide(state, command)
    out: list[Event] = []
    for event in events:
        state = fold(state, event)
        out.append(event)
    assert state is not None
    while more := follow_ups(state):
        for event in more:
            state = fold(state, event)
            out.append(event)
    # the backstop of docs/rules.md §11.43 (a deal starts only if it stays within the limit);
    # the end of a session, the way out it offers, is never refused for it
    if state.status != Status.ENDED:
        within_amount_limit(state)
    return state, out


def fold(events: Iterable[Event], *, session_id: str = "") -> SessionState | None:
    """The state from scratch: the full rebuild the incremental projections must equal.

    `events` are live events (a log with corrections folds through `live_events` first).
    """
    state: SessionState | None = None
    for event in events:
        state = evolve(state, event, session_id=session_id)
    return state


def deal_view(state: SessionState) -> dict[str, Any] | None:
    """The projection of the current (or last) deal, as its JSON reads back."""
    view = deal_view_fields(state)
    return None if view is None else plain(view)


def deal_view_fields(state: SessionState) -> dict[str, Any] | None:
    """The projection of the current (or last) deal as `to_json` writes it: the deal's own
    fields (not copies: write it before the state moves on), then what the view adds."""
    if state.deal is None:
        return None
    view = state.deal.json_fields()
    view["pool_units"] = state.pool_units() if state.deal.phase != Phase.SETTLED else 0
    view["contributions"] = [p for p in state.deal.postings if p["to"] == Account.POOL]
    if state.rules.pam is not None:
        # five-card loo: the card that is Pam this deal, the highest trump (docs/rules.md §9.3)
        view["pam"] = pam_card(state.rules.pam, state.deal.trump)
    # what corrections of this deal's entries changed (docs/rules.md §12)
    view["corrections"] = [c for c in state.corrections if c["deal_no"] == state.deal.deal_no]
    return view


def session_view(state: SessionState, *, choices: bool = True) -> dict[str, Any]:
    """What the table sees: whose turn, the legal choices (`expected`; left out without
    `choices`), the pools, every balance."""
    players = list(state.seats)
    view = {
        "session_id": state.session_id,
        "name": state.name,
        "version": state.version,
        "status": state.status,
        "ended_method": state.ended_method,
        "rules": state.rules.to_dict(),
        "unit": state.unit,
        "money_per_unit_minor": state.money_per_unit_minor,
        "currency": state.currency,
        "seats": players,
        "members": dict(state.members),
        "active": list(state.active),
        "deal_no": state.deal_no,
        "next_dealer": state.next_dealer,
        "deals_dealt": dict(state.deals_dealt),
        # docs/rules.md §11.26: who withdraws at his deal (he deals, then leaves), and who has
        "withdrawing": state.withdrawing,
        "withdrawn": [p for p in players if p not in state.active],
        "last_round": _last_round(state),
        "pool_units": state.pool_units(),
        "next_pool_units": state.next_pool_units(),
        "loos_owed": list(state.loos_owed),
        "balances": {p: state.balances[p] for p in players},
        "expected": expected(state) if choices else None,
        "deal": None if state.deal is None else {
            "deal_no": state.deal.deal_no, "phase": state.deal.phase,
            "dealer": state.deal.dealer, "kind": state.deal.kind,
            "trump_card": state.deal.trump_card,
        },
    }
    if not choices:
        del view["expected"]
    warnings = table_warnings(state.rules, hands_dealt(state.rules, len(state.active)))
    if warnings:  # written only when there is one (docs/rules.md §11.42)
        view["warnings"] = warnings
    return view


def _last_round(state: SessionState) -> dict[str, Any] | None:
    """The last round (docs/rules.md §8.5, §11.27), from the moment it is called: how many of
    its deals are still to be dealt, and whether it is over (its last deal settled; the table
    then ends the session, which the ledger does not do by itself). None when no last round
    was called, or when a deal dealt after one is under way."""
    deal = state.deal
    in_round = deal is not None and deal.forced == Forced.LAST_ROUND
    if not state.last_round_left and not in_round:
        return None
    over = not state.last_round_left and deal is not None and deal.phase == Phase.SETTLED
    return {"deals_left": state.last_round_left, "over": over}
