"""docs/rules.md §8: dealing in rotation, withdrawal, aftercomers, the three ways to end."""

from __future__ import annotations

import pytest

from .driver import Refused, one, postings
from .helpers import tricks

FIVE = ["A", "B", "C", "D", "E"]


def open_blenheim(table, players=FIVE, **rules):
    table.open(players, preset="blenheim", rules=rules, first_dealer="A")


def hand_with_a_loo(table, trump="2S", stand=("B", "C"), winners=("B", "B", "B")):
    """Everyone declared; the first two standers play; the second is looed."""
    table.send("DealStarted", trump_card=trump)
    dealt = table.session()["expected"]["actions"][0]
    while dealt["type"] == "DeclarationMade":
        p = dealt["player"]
        choice = "play" if p in stand else (
            "throw_up" if "throw_up" in dealt["choices"] else "play")
        table.send("DeclarationMade", player=p, declaration=choice)
        dealt = table.session()["expected"]["actions"][0]
    return tricks(table, list(winners))


def test_the_deal_passes_to_the_left(table):
    open_blenheim(table)
    hand_with_a_loo(table)
    assert table.session()["next_dealer"] == "B"


def test_a_deal_out_of_turn_is_refused_unless_the_laws_let_it_stand(table):
    table.open(FIVE, preset="cassell", first_dealer="A")
    with pytest.raises(Refused) as refused:
        table.send("DealStarted", trump_card="2S", dealer="C")
    assert refused.value.problem["rule"] == "deal-in-turn"


def test_blenheim_deal_out_of_turn_stands_and_rotation_continues_from_him(table):
    open_blenheim(table)
    started = one(table.send("DealStarted", trump_card="2S", dealer="C"), "DealStarted")
    assert started["dealer"] == "C" and started["dealt"] == ["D", "E", "A", "B", "C"]


def test_a_player_withdraws_at_his_deal_pays_the_price_and_takes_no_further_part(table):
    open_blenheim(table)
    hand_with_a_loo(table)  # C looed; B deals next
    with pytest.raises(Refused) as refused:
        table.send("PlayerWithdrew", player="C")
    assert refused.value.problem["rule"] == "withdraw-at-own-deal"
    table.send("PlayerWithdrew", player="B")
    # every tablet of the table reads who withdraws at his deal, then who has withdrawn
    assert (table.session()["withdrawing"], table.session()["withdrawn"]) == ("B", [])
    started = one(table.send("DealStarted", trump_card="3S"), "DealStarted")
    assert started["dealer"] == "B" and "B" not in started["dealt"]
    assert ("B", "pool", 3) in postings([{"payload": started}])
    for p in ("C", "D", "E", "A"):
        table.send("DeclarationMade", player=p,
                   declaration="play" if p in "CD" else "throw_up")
    tricks(table, ["C", "C", "C"])
    session = table.session()
    assert session["active"] == ["A", "C", "D", "E"] and session["next_dealer"] == "C"
    assert (session["withdrawing"], session["withdrawn"]) == (None, ["B"])


def test_an_aftercomer_joins_at_a_seat_between_deals(table):
    open_blenheim(table)
    table.send("PlayerJoined", player="F", after="C")
    session = table.session()
    assert session["seats"] == ["A", "B", "C", "F", "D", "E"]
    started = one(table.send("DealStarted", trump_card="3S"), "DealStarted")
    assert started["dealt"] == ["B", "C", "F", "D", "E", "A"]
    with pytest.raises(Refused) as refused:
        table.send("PlayerJoined", player="G", after="A")
    assert refused.value.problem["rule"] == "between-deals"


def test_the_session_ends_after_a_hand_without_a_loo_not_before(table):
    open_blenheim(table)
    hand_with_a_loo(table)
    with pytest.raises(Refused) as refused:
        table.send("SessionEnded", method="single")
    assert refused.value.problem["rule"] == "end-after-single"
    hand_with_a_loo(table, stand=("C", "D"), winners=("C", "D", "C"))
    events = table.send("SessionEnded", method="single")
    assert one(events, "SessionEnded")["method"] == "single"
    statement = table.statement()
    assert statement["status"] == "ended" and statement["settlement"]["final"] is True


def test_dividing_the_pool_gives_the_odd_units_from_the_dealers_left(table):
    open_blenheim(table)
    hand_with_a_loo(table, winners=("B", "B", "B"))  # C looed 18 into the next pool
    events = table.send("SessionEnded", method="divide-pool")
    # 18 among five, remainder 3: one each to B, C, D (the dealer A's left).
    assert postings(events, "end_division") == [("next_pool", "B", 4), ("next_pool", "C", 4),
                                                ("next_pool", "D", 4), ("next_pool", "E", 3),
                                                ("next_pool", "A", 3)]
    assert table.session()["next_pool_units"] == 0


def test_releasing_the_last_loos_reverses_them_with_their_own_entries(table):
    open_blenheim(table)
    hand_with_a_loo(table)
    before = table.session()["balances"]["C"]
    events = table.send("SessionEnded", method="release-last-loos")
    assert postings(events, "loo_released") == [("next_pool", "C", 18)]
    assert table.session()["balances"]["C"] == before + 18
    statement = table.statement()
    c = [p for p in statement["players"] if p["player"] == "C"][0]
    assert c["paid_units"]["loo"] == 18 and c["received_units"]["loo_released"] == 18


def test_the_last_round_makes_everyone_stand_with_no_miss(table):
    open_blenheim(table)
    table.send("LastRoundStarted")
    started = one(table.send("DealStarted", trump_card="2S"), "DealStarted")
    assert started["forced"] == "last-round" and started["miss"] is False


def test_the_session_view_says_when_the_last_round_is_called_and_when_it_is_over(table):
    table.open(["A", "B", "C"], preset="blenheim", first_dealer="A")
    assert table.session()["last_round"] is None
    table.send("LastRoundStarted")
    assert table.session()["last_round"] == {"deals_left": 3, "over": False}
    for trump, left in (("2S", 2), ("3S", 1), ("4S", 0)):
        table.send("DealStarted", trump_card=trump)
        assert table.session()["last_round"] == {"deals_left": left, "over": False}
        tricks(table, ["A", "B", "C"])  # everyone stands: the tricks divide the pool
    assert table.session()["last_round"] == {"deals_left": 0, "over": True}
    table.send("DealStarted", trump_card="5S")  # the table plays on: the round is behind it
    assert table.session()["last_round"] is None


def test_nothing_is_recorded_after_the_end(table):
    open_blenheim(table)
    table.send("SessionEnded", method="divide-pool")
    with pytest.raises(Refused) as refused:
        table.send("DealStarted", trump_card="2S")
    assert refused.value.problem["rule"] == "session-open"


def test_the_statement_shows_who_pays_whom_in_money(table):
    table.open(FIVE, preset="blenheim", first_dealer="A", money_per_unit_minor=5,
               currency="GBP")
    hand_with_a_loo(table)
    table.send("SessionEnded", method="divide-pool")
    statement = table.statement()
    nets = {p["player"]: p["net_units"] for p in statement["players"]}
    assert sum(nets.values()) == 0
    paid = {p: 0 for p in nets}
    for t in statement["settlement"]["transfers"]:
        paid[t["from"]] += t["amount_units"]
        paid[t["to"]] -= t["amount_units"]
        assert t["amount_money_minor"] == 5 * t["amount_units"]
    assert all(paid[p] == -nets[p] for p in nets)
    assert all(p["net_money_minor"] == 5 * p["net_units"] for p in statement["players"])
