"""docs/rules.md §11.43: no account of a session passes the amount limit. An unlimited loo
doubles the pool or more at every loo; the deal that could carry an account past the limit
is refused (rule amount-limit), and the session stays usable: it reads, it serialises, and it
can be ended with its pool divided."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.domain import LedgerError
from ledger.domain.guards import amount_limit_units, within_amount_limit
from ledger.domain.limits import MAX_AMOUNT_UNITS
from tests.rules.driver import DomainTable, Refused

SEATS = ["A", "B", "C", "D", "E", "F"]
MAX_DEALS = 200  # the pool at least doubles every deal: the limit comes within ~50


def open_unlimited(table: Any, players: int, price: int, money: int | None) -> None:
    table.open(SEATS[:players], preset="baxter-wray", first_dealer="A",
               rules={"fresh_pool": "antes", "loo": "unlimited", "fresh_deal_price": price,
                      "deal_price": price},
               **({"money_per_unit_minor": money, "currency": "GBP"} if money else {}))


def play_deal(table: Any, winners: list[int]) -> None:
    """Deal, everyone plays, the tricks go to the players `winners` picks (by index): with
    four players or more someone takes no trick and is looed for the whole pool."""
    table.send("DealStarted", trump_card="2S")
    while (actions := table.session()["expected"]["actions"]) and \
            actions[0]["type"] == "DeclarationMade":
        table.send("DeclarationMade", player=actions[0]["player"], declaration="play")
    playing = [p for p in table.session()["active"]]
    for pick in winners:
        table.send("TrickWon", winner=playing[pick % len(playing)])


def drive_to_the_limit(table: Any, winners: st.DataObject) -> tuple[dict[str, Any], int]:
    """Play deals until a deal is refused for the amount limit: (the problem, deals played)."""
    for deals in range(MAX_DEALS):
        picks = winners.draw(st.lists(st.integers(0, 5), min_size=3, max_size=3))
        try:
            play_deal(table, picks)
        except Refused as refused:
            return refused.problem, deals
    raise AssertionError(f"{MAX_DEALS} deals and the limit was never reached")


@settings(max_examples=10, deadline=None)
@given(players=st.integers(4, 6), price=st.integers(1, 10**6),
       money=st.none() | st.integers(1, 10**4), data=st.data())
def test_unlimited_loo_stops_at_the_limit_and_the_session_stays_usable(players, price, money,
                                                                      data):
    table = DomainTable()
    open_unlimited(table, players, price, money)
    problem, deals = drive_to_the_limit(table, data)
    limit = MAX_AMOUNT_UNITS // (money or 1)
    assert problem["rule"] == "amount-limit"
    assert problem["limit_units"] == limit == amount_limit_units(table.state)
    assert "End the session" in problem["detail"] and "divide-pool" in problem["detail"]
    assert deals >= 1
    view = table.session()
    # refused at the start of a deal: between deals, nothing of the refused deal kept
    assert view["expected"]["phase"] == "between-deals"
    assert all(abs(units) <= limit for units in table.state.balances.values())
    assert max(abs(units) for units in table.state.balances.values()) > limit // (4 * players)
    offered = [action["type"] for action in view["expected"]["actions"]]
    assert "DealStarted" not in offered and "SessionEnded" in offered
    orjson.dumps(view)  # the reads serialise (they failed past 2**63 before)
    orjson.dumps(table.statement())
    ended = table.send("SessionEnded", method="divide-pool")
    assert ended[-1]["type"] == "SessionEnded"
    final = table.session()
    assert final["status"] == "ended"
    assert final["pool_units"] == final["next_pool_units"] == 0
    assert sum(final["balances"].values()) == 0  # every unit went back to a player


def test_limited_loo_never_meets_the_limit_in_a_long_session():
    table = DomainTable()
    table.open(SEATS[:4], preset="baxter-wray", first_dealer="A",
               rules={"fresh_pool": "antes"})
    for _ in range(30):
        play_deal(table, [0, 1, 1])
    assert table.session()["deal_no"] == 30 and table.session()["status"] == "open"


def test_a_deal_priced_past_the_limit_is_refused_before_a_unit_moves():
    table = DomainTable()
    open_unlimited(table, 4, 10**9, 10**6)  # a limit of 10**9 units when each is 10**6 pence
    try:
        table.send("DealStarted", trump_card="2S")
    except Refused as refused:
        assert refused.problem["rule"] == "amount-limit"
        assert refused.problem["limit_units"] == 10**9
        assert refused.problem["detail"].startswith(
            "deal 1 would play for a pool of 1000000000 units, and its loos could take an "
            "account to 5000000000 units: an account of a session holds at most 1000000000 "
            "units (amount-limit)")
    else:
        raise AssertionError("a deal past the limit was dealt")
    assert table.session()["deal_no"] == 0


def test_the_backstop_names_the_account_past_the_limit():
    table = DomainTable()
    open_unlimited(table, 4, 1, None)
    state = table.state
    state.balances.update({"A": -MAX_AMOUNT_UNITS, "B": MAX_AMOUNT_UNITS})
    within_amount_limit(state)  # at the limit is within it
    state.balances.update({"A": -MAX_AMOUNT_UNITS - 1, "B": MAX_AMOUNT_UNITS + 1})
    with pytest.raises(LedgerError) as refused:
        within_amount_limit(state)
    assert refused.value.rule == "amount-limit"
    assert refused.value.message.startswith(f"A would hold {-MAX_AMOUNT_UNITS - 1} units")


def test_a_session_at_the_limit_ends_though_a_player_waits_to_withdraw_at_his_deal():
    table = DomainTable()
    open_unlimited(table, 4, 10**8, None)
    while True:
        try:
            play_deal(table, [0, 1, 0])
        except Refused:
            break
    dealer = table.session()["next_dealer"]
    table.send("PlayerWithdrew", player=dealer)  # he would withdraw after dealing his deal
    offered = [action["type"] for action in table.session()["expected"]["actions"]]
    assert offered == ["PlayerJoined", "LastRoundStarted", "SessionEnded"]
    table.send("SessionEnded", method="divide-pool")
    assert table.session()["status"] == "ended"


def test_a_session_already_past_the_limit_can_still_be_ended():
    # a session stored before the limit, its accounts past it: no deal, but the end works
    table = DomainTable()
    open_unlimited(table, 4, 1, None)
    table.state.balances.update({"A": -3 * MAX_AMOUNT_UNITS, "B": MAX_AMOUNT_UNITS,
                                 "next_pool": 2 * MAX_AMOUNT_UNITS})
    with pytest.raises(Refused):
        table.send("DealStarted", trump_card="2S")
    table.send("SessionEnded", method="divide-pool")
    assert table.session()["status"] == "ended"
    assert table.session()["next_pool_units"] == 0
