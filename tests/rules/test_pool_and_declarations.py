"""docs/rules.md §5.1-5.5 and §9.1: pool formation, declarations, outcomes before play."""

from __future__ import annotations

import pytest

from .driver import Refused, one, postings
from .helpers import tricks

FIVE = ["A", "B", "C", "D", "E"]


def open_five(table, preset, **rules):
    return table.open(FIVE, preset=preset, rules=rules, first_dealer="A")


def declare(table, *pairs):
    events = []
    for player, declaration in pairs:
        events += table.send("DeclarationMade", player=player, declaration=declaration)
    return events


def test_blenheim_fresh_pool_dealer_pays_double_and_every_other_player_a_stake(table):
    open_five(table, "blenheim")
    events = table.send("DealStarted", trump_card="2S")
    assert postings(events, "deal") == [("A", "pool", 6)]
    assert postings(events, "ante") == [(p, "pool", 3) for p in "BCDE"]
    assert table.session()["pool_units"] == 18


def test_cassell_fresh_pool_antes_a_stake_from_everyone(table):
    open_five(table, "cassell")
    table.send("DealStarted", trump_card="2S")
    assert table.session()["pool_units"] == 15


def test_enquire_within_fresh_pool_is_the_penny_for_the_deal(table):
    open_five(table, "enquire-within")
    table.send("DealStarted", trump_card="2S")
    assert table.session()["pool_units"] == 1


def test_baxter_wray_fresh_pool_is_the_turn_up_single_and_needs_face_up_cards(table):
    open_five(table, "baxter-wray")
    with pytest.raises(Refused) as refused:
        table.send("DealStarted", trump_card="2S")
    assert refused.value.problem["rule"] == "turn-up-single"
    assert table.session()["version"] == 1


def test_nobody_beating_the_turn_up_looes_everyone_and_the_pool_stays(table):
    open_five(table, "baxter-wray")
    events = table.send("DealStarted", trump_card="QH",
                        face_up={"B": "9H", "C": "KS", "D": "2H", "E": "3D", "A": "5C"})
    result = one(events, "DealSettled")
    assert result["outcome"] == "single-not-won" and len(result["looed"]) == 5
    assert result["carried_units"] == 3
    assert table.session()["next_pool_units"] == 3 + 5 * 3


def test_declarations_go_in_turn_from_the_elder_hand(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    with pytest.raises(Refused) as refused:
        table.send("DeclarationMade", player="C", declaration="play")
    assert refused.value.status == 409 and refused.value.problem["rule"] == "declare-in-turn"


def test_a_declaration_is_never_changed(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"))
    with pytest.raises(Refused) as refused:
        table.send("DeclarationMade", player="B", declaration="throw_up")
    assert refused.value.problem["rule"] == "one-declaration"


def test_the_miss_can_be_taken_once(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "take_miss"))
    with pytest.raises(Refused) as refused:
        table.send("DeclarationMade", player="C", declaration="take_miss")
    assert refused.value.problem["rule"] == "miss-taken"


def test_the_miss_holder_takes_the_pool_when_everyone_else_throws_up(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    events = declare(table, ("B", "take_miss"), ("C", "throw_up"), ("D", "throw_up"),
                     ("E", "throw_up"), ("A", "throw_up"))
    assert one(events, "DealSettled")["outcome"] == "miss-holder-took-pool"
    assert postings(events, "pool_taken") == [("pool", "B", 18)]


def test_with_one_player_standing_the_dealer_may_not_throw_up(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "throw_up"), ("D", "throw_up"), ("E", "throw_up"))
    choices = table.session()["expected"]["actions"][0]["choices"]
    assert choices == ["play", "take_miss", "play_miss_for_pool"]
    with pytest.raises(Refused) as refused:
        table.send("DeclarationMade", player="A", declaration="throw_up")
    assert refused.value.problem["rule"] == "must-stand"


def test_what_the_miss_wins_for_the_pool_is_carried_into_the_next_pool(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "throw_up"), ("D", "throw_up"), ("E", "throw_up"),
            ("A", "play_miss_for_pool"))
    events = tricks(table, ["B", "A", "A"])
    result = one(events, "DealSettled")
    assert postings(events, "trick") == [("pool", "B", 6)]
    assert result["carried_units"] == 12 and result["looed"] == []
    assert result["next_fresh"] is True
    table.send("DealStarted", trump_card="3S")
    assert table.session()["pool_units"] == 6 + 4 * 3 + 12


def test_the_miss_played_for_the_pool_is_never_looed(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "throw_up"), ("D", "throw_up"), ("E", "throw_up"),
            ("A", "play_miss_for_pool"))
    result = one(tricks(table, ["B", "B", "B"]), "DealSettled")
    assert result["looed"] == [] and result["carried_units"] == 0


def test_club_law_makes_everyone_stand_with_no_miss_when_a_club_is_turned_up(table):
    open_five(table, "blenheim", club_law=True)
    started = one(table.send("DealStarted", trump_card="5C"), "DealStarted")
    assert started["forced"] == "club-law" and started["miss"] is False
    with pytest.raises(Refused) as refused:
        table.send("DeclarationMade", player="B", declaration="play")
    assert refused.value.problem["rule"] == "forced-stand"
    assert table.session()["deal"]["phase"] == "playing"


def test_club_law_does_not_apply_when_another_suit_is_turned_up(table):
    open_five(table, "blenheim", club_law=True)
    started = one(table.send("DealStarted", trump_card="5D"), "DealStarted")
    assert started["forced"] is None and started["miss"] is True


def test_force_after_single_makes_a_fresh_pool_a_bold_stand(table):
    open_five(table, "blenheim", force_after_single=True)
    started = one(table.send("DealStarted", trump_card="5D"), "DealStarted")
    assert started["forced"] == "after-single"


def test_the_dealer_stands_out_above_the_set_number_of_players_but_pays_his_price(table):
    table.open(["A", "B", "C", "D", "E", "F"], preset="blenheim",
               rules={"dealer_stands_out_above": 5}, first_dealer="A")
    started = one(table.send("DealStarted", trump_card="5D"), "DealStarted")
    assert started["dealt"] == ["B", "C", "D", "E", "F"]
    assert ("A", "pool", 6) in postings([{"payload": started}])
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("E", "throw_up"),
            ("F", "throw_up"))
    with pytest.raises(Refused):
        table.send("DeclarationMade", player="A", declaration="play")


def test_cassell_binds_the_last_before_the_dealer_when_at_most_one_stands(table):
    table.open(["A", "B", "C", "D"], preset="cassell", first_dealer="A")
    table.send("DealStarted", trump_card="5D")
    declare(table, ("B", "throw_up"), ("C", "play"))
    with pytest.raises(Refused) as refused:
        table.send("DeclarationMade", player="D", declaration="throw_up")
    assert refused.value.problem["rule"] == "must-stand"
    declare(table, ("D", "take_miss"))


def test_the_32_card_pack_has_no_two(table):
    open_five(table, "blenheim", pack=32)
    with pytest.raises(Refused) as refused:
        table.send("DealStarted", trump_card="2H")
    assert refused.value.problem["rule"] == "card-in-pack"
    table.send("DealStarted", trump_card="7H")


def test_the_32_card_pack_limits_the_number_of_players(table):
    with pytest.raises(Refused) as refused:
        table.open([f"P{i}" for i in range(10)], preset="blenheim", rules={"pack": 32})
    assert refused.value.problem["rule"] == "pack-size"


def test_every_rule_parameter_can_be_overridden_and_is_stored_in_the_first_event(table):
    view = table.open(FIVE, preset="cassell", rules={"loo": "unlimited", "stake": 6,
                                                      "deal_price": 6})
    assert view["rules"]["loo"] == "unlimited" and view["rules"]["stake"] == 6
    assert view["rules"]["preset"] == "cassell"


@pytest.mark.parametrize("rules, field", [
    ({"stake": 4}, "rules.stake"),
    ({"loo": "sometimes"}, "rules.loo"),
    ({"loo": "mixed", "loo_limit": None}, "rules.loo_limit"),
    ({"deal_price": 2.5}, "rules.deal_price"),
    ({"colour": "red"}, "rules.colour"),
])
def test_bad_rule_parameters_are_refused_naming_the_parameter(table, rules, field):
    with pytest.raises(Refused) as refused:
        table.open(FIVE, preset="blenheim", rules=rules)
    assert refused.value.status == 422
    assert refused.value.problem.get("field") == field or field in str(refused.value.problem)


def test_cassell_binds_the_elder_hand_when_only_he_and_the_dealer_are_dealt(table):
    table.open(["A", "B"], preset="cassell", first_dealer="A")
    table.send("DealStarted", trump_card="5D")
    with pytest.raises(Refused) as refused:
        table.send("DeclarationMade", player="B", declaration="throw_up")
    assert refused.value.problem["rule"] == "must-stand"


@pytest.mark.parametrize("rules", [{"loo_amount": "6"}, {"loo_amount": [6]}, {"stake": None}])
def test_rule_parameters_of_the_wrong_type_are_refused_not_crashed_on(table, rules):
    with pytest.raises(Refused) as refused:
        table.open(FIVE, preset="baxter-wray", rules=rules)
    assert refused.value.status == 422 and refused.value.problem["rule"] == "rule-parameter"
