"""docs/rules.md §4 loo kinds, §5.7 division, §5.8 loos and carry-forward."""

from __future__ import annotations

import pytest

from .driver import one, postings
from .helpers import open_three, tricks

TWO_STAND = (("B", "play"), ("C", "play"), ("A", "throw_up"))


def hand(table, declarations=TWO_STAND, trump="2S"):
    table.send("DealStarted", trump_card=trump)
    for player, declaration in declarations:
        table.send("DeclarationMade", player=player, declaration=declaration)


@pytest.mark.parametrize("pool, shares", [(10, [4, 3, 3]), (11, [4, 4, 3]), (9, [3, 3, 3])])
def test_the_first_and_second_tricks_have_the_preference(table, pool, shares):
    open_three(table, fresh_deal_price=pool)
    hand(table)
    result = one(tricks(table, ["B", "C", "B"]), "DealSettled")
    assert [s["amount_units"] for s in result["shares"]] == shares
    assert table.session()["balances"]["B"] == shares[0] + shares[2]


def test_example_3_pool_of_seven_is_paid_three_two_two(table):
    table.open(["W", "X", "Y", "Z"], preset="baxter-wray", first_dealer="W",
               rules={"fresh_pool": "antes", "deal_price": 2, "fresh_deal_price": 2,
                      "loo_amount": 5})
    table.send("DealStarted", trump_card="2S")
    for p, d in (("X", "play"), ("Y", "play"), ("Z", "throw_up"), ("W", "throw_up")):
        table.send("DeclarationMade", player=p, declaration=d)
    assert one(tricks(table, ["X", "X", "X"]), "DealSettled")["looed"] == ["Y"]
    table.send("DealStarted", trump_card="3S")
    assert table.session()["pool_units"] == 7
    for p, d in (("Y", "play"), ("Z", "play"), ("W", "throw_up"), ("X", "play")):
        table.send("DeclarationMade", player=p, declaration=d)
    events = tricks(table, ["X", "Y", "Z"])
    assert postings(events, "trick") == [("pool", "X", 3), ("pool", "Y", 2), ("pool", "Z", 2)]
    assert one(events, "DealSettled")["next_fresh"] is True


def test_limited_loo_is_the_fixed_amount(table):
    open_three(table, fresh_deal_price=30)
    hand(table)
    events = tricks(table, ["B", "B", "B"])
    assert postings(events, "loo") == [("C", "next_pool", 6)]


def test_unlimited_loo_is_the_whole_pool(table):
    open_three(table, loo="unlimited", fresh_deal_price=30)
    hand(table)
    assert postings(tricks(table, ["B", "B", "B"]), "loo") == [("C", "next_pool", 30)]


@pytest.mark.parametrize("pool, loo", [(18, 18), (30, 21)])
def test_mixed_loo_is_the_pool_up_to_the_limit(table, pool, loo):
    open_three(table, loo="mixed", loo_limit=21, fresh_deal_price=pool)
    hand(table)
    assert postings(tricks(table, ["B", "B", "B"]), "loo") == [("C", "next_pool", loo)]


def test_a_loo_capped_at_the_pool_never_exceeds_it(table):
    open_three(table, loo_amount=30, loo_capped_at_pool=True, fresh_deal_price=9)
    hand(table)
    assert postings(tricks(table, ["B", "B", "B"]), "loo") == [("C", "next_pool", 9)]


def test_all_or_nothing_pool_goes_only_to_three_tricks_and_then_a_bold_stand(table):
    open_three(table, loo="all-or-nothing", fresh_deal_price=9)
    hand(table)
    events = tricks(table, ["B", "B", "B"])
    result = one(events, "DealSettled")
    assert result["outcome"] == "pool-won" and result["next_forced"] == "bold-stand"
    assert postings(events, "pool_taken") == [("pool", "B", 9)]
    assert postings(events, "loo") == [("C", "next_pool", 6)]  # double the deal price
    started = one(table.send("DealStarted", trump_card="3D"), "DealStarted")
    assert started["forced"] == "bold-stand"


def test_all_or_nothing_divided_tricks_leave_the_pool_untouched(table):
    open_three(table, loo="all-or-nothing", fresh_deal_price=9)
    hand(table)
    result = one(tricks(table, ["B", "C", "B"]), "DealSettled")
    assert result["outcome"] == "pool-stays" and result["carried_units"] == 9
    assert result["looed"] == [] and result["next_fresh"] is True


def test_a_deal_with_a_loo_is_followed_by_a_deal_that_is_not_fresh(table):
    open_three(table, fresh_deal_price=9)
    hand(table)
    tricks(table, ["B", "B", "B"])
    started = one(table.send("DealStarted", trump_card="3D"), "DealStarted")
    assert started["fresh"] is False
    assert postings([{"payload": started}]) == [("B", "pool", 3), ("next_pool", "pool", 6)]


def test_after_an_all_or_nothing_pool_is_won_the_bold_stand_replaces_the_turn_up_single(table):
    table.open(["A", "B", "C"], preset="baxter-wray", rules={"loo": "all-or-nothing"},
               first_dealer="A")
    table.send("DealStarted", trump_card="7H", face_up={"B": "9H", "C": "2C", "A": "3D"})
    table.send("DealStarted", trump_card="5S")
    for p, d in (("C", "play"), ("A", "throw_up"), ("B", "play_miss_for_pool")):
        table.send("DeclarationMade", player=p, declaration=d)
    result = one(tricks(table, ["C", "C", "C"]), "DealSettled")
    assert result["outcome"] == "pool-won" and result["next_fresh"] is True
    started = one(table.send("DealStarted", trump_card="4D"), "DealStarted")
    assert (started["kind"], started["forced"]) == ("hand", "bold-stand")
