"""What the table expects next: whose turn it is and which choices are legal."""

from __future__ import annotations

from typing import Any

from .cards import pam_card
from .dealing import next_deal, next_deal_past_amount_limit
from .declaring import legal_declarations, next_declarer
from .ending import END_METHODS
from .exchanging import may_exchange, may_show_flush, pam_asked, pam_exempts, pam_place, stock_left
from .legality import in_play, next_to_play, trick_complete
from .offence_tables import offences_for
from .penalising import offenders_in_play
from .penalty_offers import penalty_offers
from .playing import pam_call_card
from .seating import dealt_in
from .state import DealState, SessionState
from .vocabulary import BETWEEN_DEALS, Call, DealKind, EndMethod, Entry, Phase, Status


def expected(state: SessionState) -> dict[str, Any]:
    deal = state.deal
    if state.status == Status.ENDED:
        return {"phase": Status.ENDED, "actions": []}
    # the preset's offences the game can have: none with the miss at Irish and five-card loo
    offences = list(offences_for(state.rules))
    if deal is None or deal.phase == Phase.SETTLED:
        plan = next_deal(state)
        methods = [m for m in END_METHODS if not (m == EndMethod.SINGLE and state.loos_owed)]
        # docs/rules.md §11.43: past the amount limit no deal is offered; the session ends
        at_limit = next_deal_past_amount_limit(state) is not None
        actions: list[dict[str, Any]] = [] if at_limit else [
            {"type": "DealStarted", "dealer": state.next_dealer, "kind": plan.kind,
             "fresh": plan.fresh,
             # why everyone will stand with no miss, whatever the trump; else None, and then
             # with club law a club turned up forces the stand ("club-law")
             "forced": plan.forced,
             "club_law": plan.kind == DealKind.HAND and plan.forced is None
             and state.rules.club_law,
             # who is dealt in, from the dealer's left: a withdrawing dealer, or one standing
             # out at a large table, is not (the turn-up single asks a card of each)
             "dealt": dealt_in(state, state.next_dealer) if state.next_dealer else [],
             "needs": ["trump_card", "face_up"] if plan.kind == DealKind.SINGLE
             else ["trump_card"]}]
        actions.append({"type": "PlayerJoined"})
        if not state.withdrawing and len(state.active) > 2:
            actions.append({"type": "PlayerWithdrew", "player": state.next_dealer})
        if not state.last_round_left:
            actions.append({"type": "LastRoundStarted"})
        if not state.withdrawing or at_limit:
            actions.append({"type": "SessionEnded", "methods": methods})
        return {"phase": BETWEEN_DEALS, "round_even": _round_even(state), "actions": actions}
    if deal.phase == Phase.REDEAL:
        return {"phase": Phase.REDEAL, "actions": [
            {"type": "DealStarted", "dealer": deal.dealer, "kind": deal.kind,
             "needs": ["trump_card"]}]}
    # `offences`: the preset's whole table; `by_player` and `redeal`: what the ledger accepts
    # now, for whom (penalty_offers asks the decide path itself)
    penalty = {"type": "PenaltyImposed", "offences": offences, **penalty_offers(state)}
    if deal.phase == Phase.DECLARING:
        player = next_declarer(deal)
        # Everyone has declared, and what the rules draw from it (play begins, or the deal is
        # settled without play) is in the same append: seen only as of a version inside that
        # entry (docs/explain.md), where no declaration is due.
        declare = [] if player is None else [
            {"type": "DeclarationMade", "player": player,
             "choices": legal_declarations(state, deal, player)}]
        return {"phase": Phase.DECLARING, "actions": [
            *declare, *_variant_actions(state, deal), penalty]}
    if deal.phase in (Phase.PLAYING, Phase.REPLAYING):
        trick = len(deal.tricks) + 1
        actions = _variant_actions(state, deal)
        # A complete trick not yet won is seen only as of a version inside one entry (the
        # ledger draws the trick in the same append, docs/explain.md): no card is due then.
        if deal.entry in (None, Entry.CARDS) and not trick_complete(deal, state.rules):
            card: dict[str, Any] = {"type": "CardPlayed",
                                    "player": next_to_play(deal, state.rules), "trick": trick}
            if state.rules.pam is not None and not deal.current_trick:
                # five-card loo: the ace of trumps may be led with "Pam be civil"
                card["calls"] = [Call.PAM_BE_CIVIL]
                ace = pam_call_card(state, deal)
                if ace is not None:
                    # Pam is out: the lead of the ace must say whether the call was made
                    card["pam_call"] = {"card": ace, "choices": [Call.PAM_BE_CIVIL, Call.NONE]}
            actions.append(card)
        if deal.entry in (None, Entry.QUICK):
            actions.append({"type": "TrickWon", "trick": trick,
                            "winners": in_play(deal, trick)})
        return {"phase": deal.phase, "actions": actions + [penalty]}
    if deal.phase == Phase.REVIEW:
        offenders = offenders_in_play(deal)
        return {"phase": Phase.REVIEW, "actions": [
            {"type": "ReplayAsked", "by": [p for p in state.active if p not in offenders]},
            {"type": "ReplayWaived"}, penalty]}
    return {"phase": deal.phase, "actions": []}


def _variant_actions(state: SessionState, deal: DealState) -> list[dict[str, Any]]:
    """Irish and five-card loo, before the first card: who may still exchange and how many
    cards the pack has left; at five-card loo, that a flush may be shown (§11.30)."""
    out: list[dict[str, Any]] = []
    players = may_exchange(state, deal)
    if players:
        out.append({"type": "CardsExchanged", "players": players,
                    "stock_left": stock_left(state.rules, deal),
                    # turn-to-declare: each at his turn, after his "play" and before the next
                    # player declares; before-play: any standing player until the first card
                    "exchange_at": state.rules.exchange_turn})
    if may_show_flush(state, deal):
        flush: dict[str, Any] = {"type": "FlushShown", "players": deal.standing_names(),
                                 "pam": pam_card(state.rules.pam, deal.trump)}
        candidates = pam_asked(state, deal)
        if candidates is not None:
            # who holds Pam exempts him from paying, and no logged card tells: the table says
            flush["needs"] = ["flushes", "pam_held_by"]
            flush["pam_candidates"] = candidates
        else:
            flush["needs"] = ["flushes"]
            if pam_exempts(state.rules):
                flush["pam_held_by"] = pam_place(state, deal).holder
        out.append(flush)
    return out


def _round_even(state: SessionState) -> bool:
    """Britannica: the game should not end till the deal returns to the original dealer."""
    counts = {state.deals_dealt.get(p, 0) for p in state.active}
    return len(counts) == 1
