"""The checks every phase makes before it decides: a known player, a deal in progress, or
none (between deals)."""

from __future__ import annotations

from .errors import InvalidInput, OutOfTurn
from .state import DealState, SessionState
from .vocabulary import Phase


def known_player(state: SessionState, player: object, field: str = "player") -> str:
    if not isinstance(player, str) or player not in state.seats:
        raise InvalidInput(f"unknown player {player!r}; the players are "
                           f"{', '.join(state.seats)}", rule="known-player", field=field)
    return player


def open_deal(state: SessionState, what: str) -> DealState:
    deal = state.deal
    if deal is None or deal.phase == Phase.SETTLED:
        raise OutOfTurn(f"no deal is in progress: deal first ({what})", rule="deal-in-progress")
    return deal


def between_deals(state: SessionState, what: str) -> None:
    if not state.between_deals():
        assert state.deal is not None
        raise OutOfTurn(f"{what} only between deals; deal {state.deal.deal_no} is in progress "
                        f"({state.deal.phase})", rule="between-deals")
