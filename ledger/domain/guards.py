"""The checks every phase makes before it decides: a known player, a deal in progress, or
none (between deals)."""

from __future__ import annotations

from .errors import InvalidInput, LedgerError, OutOfTurn
from .limits import MAX_AMOUNT_UNITS
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


def amount_limit_units(state: SessionState) -> int:
    """What an account of the session may hold: MAX_AMOUNT_UNITS, in units and, played for
    money, in minor units too (docs/rules.md §11.43)."""
    return MAX_AMOUNT_UNITS // (state.money_per_unit_minor or 1)


def amount_limit_refusal(state: SessionState, detail: str) -> LedgerError:
    """The refusal of rule `amount-limit`: it names the limit and the ways on."""
    limit = amount_limit_units(state)
    return LedgerError(
        f"{detail}: an account of a session holds at most {limit} units (amount-limit). End "
        "the session between deals (method divide-pool divides the pool equally), or start a "
        "new one", rule="amount-limit", limit_units=limit)


def within_amount_limit(state: SessionState) -> None:
    """Every account of the session (players, pool, next pool) within the amount limit."""
    limit = amount_limit_units(state)
    for account, units in state.balances.items():
        if abs(units) > limit:
            raise amount_limit_refusal(state, f"{account} would hold {units} units")
