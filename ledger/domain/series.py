"""Each player's balance deal by deal, from the stored deal views (for the statement's chart).

A deal view keeps the postings of its deal (docs/rules.md §8: every movement is a posting from
an account to an account), so the running balance after deal n is the sum of the postings of
deals 1..n. Postings that belong to no deal (the division at the end of the session, §8) are
shown as a last point, "end", so the series always finishes at the statement's nets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .events import NEXT_POOL, POOL
from .vocabulary import Reason

END = "end"
LOO_REASONS = (Reason.LOO, Reason.SINGLE_LOO)


def balance_series(players: Sequence[str], views: Mapping[int, Mapping[str, Any]],
                   nets: Mapping[str, int]) -> dict[str, Any]:
    """{"players": [...], "points": [{"label", "deal_no", "balances": {player: units}}],
    "counts": {player: {"tricks", "pools_taken", "loos"}}}.

    The first point is the start (every balance 0); then one point per deal in order; then
    "end" when the postings outside any deal moved a balance (the nets are the truth).
    """
    running = {p: 0 for p in players}
    counts = {p: {"tricks": 0, "pools_taken": 0, "loos": 0} for p in players}
    points: list[dict[str, Any]] = [{"label": "start", "deal_no": 0, "balances": dict(running)}]
    for deal_no in sorted(views):
        view = views[deal_no]
        for posting in view.get("postings") or []:
            amount, src, dst = posting["amount_units"], posting["from"], posting["to"]
            if src not in (POOL, NEXT_POOL):
                running[src] = running.get(src, 0) - amount
                if posting.get("reason") in LOO_REASONS and src in counts:
                    counts[src]["loos"] += 1
            if dst not in (POOL, NEXT_POOL):
                running[dst] = running.get(dst, 0) + amount
                if posting.get("reason") == Reason.POOL_TAKEN and dst in counts:
                    counts[dst]["pools_taken"] += 1
        for trick in view.get("tricks") or []:
            winner = trick.get("winner")
            if winner in counts:
                counts[winner]["tricks"] += 1
        points.append({"label": str(deal_no), "deal_no": deal_no,
                       "balances": {p: running.get(p, 0) for p in players}})
    if any(running.get(p, 0) != nets.get(p, 0) for p in players):
        points.append({"label": END, "deal_no": None,
                       "balances": {p: nets.get(p, 0) for p in players}})
    return {"players": list(players), "points": points, "counts": counts}
