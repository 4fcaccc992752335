"""What the table expects next: whose turn it is and which choices are legal."""

from __future__ import annotations

from typing import Any

from .decide import END_METHODS, hand_penalties, legal_declarations, next_deal, next_declarer
from .penalties import TABLES
from .play import in_play, next_to_play
from .state import SessionState


def expected(state: SessionState) -> dict[str, Any]:
    deal = state.deal
    if state.status == "ended":
        return {"phase": "ended", "actions": []}
    offences = list(TABLES[state.rules.penalties])
    if deal is None or deal.phase == "settled":
        plan = next_deal(state)
        methods = [m for m in END_METHODS if not (m == "single" and state.loos_owed)]
        actions: list[dict[str, Any]] = [
            {"type": "DealStarted", "dealer": state.next_dealer, "kind": plan.kind,
             "fresh": plan.fresh,
             # why everyone will stand with no miss, whatever the trump; else None, and then
             # with club law a club turned up forces the stand ("club-law")
             "forced": plan.forced,
             "club_law": plan.kind == "hand" and plan.forced is None and state.rules.club_law,
             "needs": ["trump_card", "face_up"] if plan.kind == "single" else ["trump_card"]},
            {"type": "PlayerJoined"},
        ]
        if not state.withdrawing and len(state.active) > 2:
            actions.append({"type": "PlayerWithdrew", "player": state.next_dealer})
        if not state.last_round_left:
            actions.append({"type": "LastRoundStarted"})
        if not state.withdrawing:
            actions.append({"type": "SessionEnded", "methods": methods})
        return {"phase": "between-deals", "round_even": _round_even(state), "actions": actions}
    if deal.phase == "redeal":
        return {"phase": "redeal", "actions": [
            {"type": "DealStarted", "dealer": deal.dealer, "kind": deal.kind,
             "needs": ["trump_card"]}]}
    penalty = {"type": "PenaltyImposed", "offences": offences}
    if deal.phase == "declaring":
        player = next_declarer(deal)
        assert player is not None
        return {"phase": "declaring", "actions": [
            {"type": "DeclarationMade", "player": player,
             "choices": legal_declarations(state, deal, player)}, penalty]}
    if deal.phase in ("playing", "replaying"):
        trick = len(deal.tricks) + 1
        actions = []
        if deal.entry in (None, "cards"):
            actions.append({"type": "CardPlayed", "player": next_to_play(deal, state.rules),
                            "trick": trick})
        if deal.entry in (None, "quick"):
            actions.append({"type": "TrickWon", "trick": trick,
                            "winners": in_play(deal, trick)})
        return {"phase": deal.phase, "actions": actions + [penalty]}
    if deal.phase == "review":
        offenders = {p["player"] for p in hand_penalties(deal) if p["stage"] == "in-play"}
        return {"phase": "review", "actions": [
            {"type": "ReplayAsked", "by": [p for p in state.active if p not in offenders]},
            {"type": "ReplayWaived"}, penalty]}
    return {"phase": deal.phase, "actions": []}


def _round_even(state: SessionState) -> bool:
    """Britannica: the game should not end till the deal returns to the original dealer."""
    counts = {state.deals_dealt.get(p, 0) for p in state.active}
    return len(counts) == 1
