"""Which offences the ledger would accept now, player by player: what a penalty dialog offers.

The answer is not a second copy of the rules of penalising: each player and each offence of
the preset's table is put to the checks `decide` makes of an `ImposePenalty` (the functions
penalising.check_penalty calls before impose_penalty writes the event; the refusals returned,
not raised, as they are asked of every offence on every answer), and kept when they
pass. So the offer cannot disagree with the refusal (STYLE.md 13: one rule, one place);
tests/unit/test_penalty_offers.py checks it over generated sessions through `execute`.
"""

from __future__ import annotations

from typing import Any

from .errors import LedgerError
from .guards import known_player, open_deal
from .offence_tables import offences_for
from .penalising import check_offender, offence_refusal, offender
from .state import SessionState
from .vocabulary import RedealRule, Status


def penalty_offers(state: SessionState) -> dict[str, Any]:
    """`by_player`: {player: the offences the ledger accepts for him now, in the table's order}
    (a player with none is left out); `redeal`: {player: the offences for which it accepts
    `redeal: true` too}, those the laws let the table ask a redeal for (Baxter-Wray p. 24,
    interference "if cards were mixed or exposed") while a redeal is still possible."""
    by_player: dict[str, list[str]] = {}
    redeal: dict[str, list[str]] = {}
    if state.status == Status.ENDED:  # decide refuses everything once the session ended
        return {"by_player": by_player, "redeal": redeal}
    table = offences_for(state.rules)  # the table less what the game has no part for
    for seat in state.seats:
        try:
            player = known_player(state, seat)
            deal = open_deal(state, "penalties")
            check_offender(deal, player)
        except LedgerError:
            continue
        offered: list[str] = []
        asked: list[str] = []
        who = offender(deal, player)  # read once for all his offences
        for name, spec in table.items():
            if offence_refusal(deal, who, name, spec, False) is not None:
                continue
            offered.append(name)
            if spec.redeal == RedealRule.OPTIONAL \
                    and offence_refusal(deal, who, name, spec, True) is None:
                asked.append(name)
        if offered:
            by_player[player] = offered
        if asked:
            redeal[player] = asked
    return {"by_player": by_player, "redeal": redeal}
