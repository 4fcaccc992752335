"""docs/rules.md §5.6 and §6: play in seat order, trick winners, and the breaches cards prove."""

from __future__ import annotations

import pytest

from .driver import Refused
from .helpers import breaches, deal_and_declare, open_three, play, tricks


def test_a_clean_hand_by_cards_detects_nothing_and_the_winner_leads_next(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "9H"), ("C", "QH"), ("A", "2H"),
                          ("C", "7H"), ("A", "3D"), ("B", "5D"),
                          ("C", "9C"), ("A", "4C"), ("B", "6C")])
    assert breaches(events) == []
    assert [e["payload"]["winner"] for e in events if e["type"] == "TrickWon"] == ["C", "C", "C"]


def test_the_ace_of_trumps_must_be_led_and_the_hand_is_replayed(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "5H"), ("C", "7H"), ("A", "KH"),
                          ("A", "QD"), ("B", "6D"), ("C", "8D"),
                          ("A", "3C"), ("B", "AS"), ("C", "9C")])
    assert breaches(events) == [("B", "lead-ace-of-trumps", 1)]
    penalty = [e["payload"] for e in events if e["type"] == "PenaltyImposed"][0]
    assert (penalty["offence"], penalty["amount_units"], penalty["destination"]) == \
        ("lead-rule", 6, "next_pool")
    assert penalty["detected"] and penalty["evidence"]["held"] == ["AS", "6D", "5H"] \
        or penalty["evidence"]["card"] == "5H"
    assert events[-1]["type"] == "ReplayStarted"
    assert table.session()["deal"]["phase"] == "replaying"


def test_the_replay_uses_the_same_cards_and_its_result_stands(table):
    test_the_ace_of_trumps_must_be_led_and_the_hand_is_replayed(table)
    with pytest.raises(Refused) as refused:
        table.send("CardPlayed", player="B", card="KD")
    assert refused.value.problem["rule"] == "replay-same-cards"
    events = play(table, [("B", "AS"), ("C", "9C"), ("A", "3C"),
                          ("B", "5H"), ("C", "7H"), ("A", "KH"),
                          ("A", "QD"), ("B", "6D"), ("C", "8D")])
    assert breaches(events) == []
    result = [e["payload"] for e in events if e["type"] == "DealSettled"][0]
    # Pool 3: B won trick 1 of the replay but forfeits it; A takes two shares; C is looed;
    # B is not looed again: "this is his one loo for the deal".
    assert result["shares"][0] == {"trick": 1, "winner": "B", "amount_units": 1,
                                   "paid_to": None, "stays_in_pool": "forfeited"}
    assert result["looed"] == ["C"] and result["carried_units"] == 1
    assert table.session()["balances"] == {"A": -3 + 2, "B": -6, "C": -6}


HANDS_B = {"trump": "2S"}


def test_with_two_trumps_the_highest_is_led_at_baxter_wray(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "5S"), ("C", "7H"), ("A", "3C"),
                          ("B", "KS"), ("C", "8D"), ("A", "KH"),
                          ("B", "6D"), ("C", "9C"), ("A", "QD")])
    assert breaches(events) == [("B", "lead-highest-trump", 1)]


def test_with_two_trumps_any_one_may_be_led_at_blenheim_when_three_declare(table):
    open_three(table, preset="blenheim")
    deal_and_declare(table)
    events = play(table, [("B", "5S"), ("C", "7H"), ("A", "3C"),
                          ("B", "KS"), ("C", "8D"), ("A", "KH"),
                          ("B", "6D"), ("C", "9C"), ("A", "QD")])
    assert breaches(events) == []


def test_with_two_trumps_a_trump_must_be_led_at_blenheim(table):
    open_three(table, preset="blenheim")
    deal_and_declare(table)
    events = play(table, [("B", "6D"), ("C", "8D"), ("A", "QD"),
                          ("A", "KH"), ("B", "5S"), ("C", "7H"),
                          ("B", "KS"), ("C", "9C"), ("A", "3C")])
    assert breaches(events) == [("B", "lead-a-trump", 1)]


TWO_DECLARED = (("B", "play"), ("C", "throw_up"), ("A", "play"))


def test_with_two_declared_the_highest_trump_is_led_at_blenheim(table):
    open_three(table, preset="blenheim")
    deal_and_declare(table, declarations=TWO_DECLARED)
    events = play(table, [("B", "5S"), ("A", "3C"), ("B", "KS"), ("A", "KH"),
                          ("B", "6D"), ("A", "QD")])
    assert breaches(events) == [("B", "lead-highest-trump", 1)]


def test_sequence_trumps_are_of_equal_value_at_blenheim(table):
    open_three(table, preset="blenheim")
    deal_and_declare(table, declarations=TWO_DECLARED)
    events = play(table, [("B", "QS"), ("A", "3C"), ("B", "KS"), ("A", "KH"),
                          ("B", "6D"), ("A", "QD")])
    assert breaches(events) == []


def test_without_trumps_the_highest_card_is_led_at_cassell(table):
    open_three(table, preset="cassell")
    deal_and_declare(table)
    events = play(table, [("B", "5D"), ("C", "8D"), ("A", "QD"),
                          ("A", "QH"), ("B", "KH"), ("C", "7H"),
                          ("B", "6C"), ("C", "9C"), ("A", "3C")])
    assert breaches(events) == [("B", "lead-highest-card", 1)]


def test_the_first_tricks_winner_leads_the_higher_of_two_trumps(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "AH"), ("C", "5H"), ("A", "3S"),
                          ("A", "5S"), ("B", "3H"), ("C", "6D"),
                          ("A", "8S"), ("B", "4H"), ("C", "7C")])
    assert breaches(events) == [("A", "trump-after-trick", 2)]


def test_the_first_tricks_winner_holding_a_trump_must_lead_one(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "AH"), ("C", "5H"), ("A", "3S"),
                          ("A", "9D"), ("B", "3H"), ("C", "6D"),
                          ("A", "8S"), ("B", "4H"), ("C", "7C")])
    assert breaches(events) == [("A", "trump-after-trick", 2)]


def test_enquire_within_has_no_trump_after_trick(table):
    open_three(table, preset="enquire-within")
    deal_and_declare(table)
    events = play(table, [("B", "AH"), ("C", "5H"), ("A", "3S"),
                          ("A", "9D"), ("B", "3H"), ("C", "6D"),
                          ("A", "8S"), ("B", "4H"), ("C", "7C")])
    assert breaches(events) == []


def test_a_revoke_shows_when_the_suit_is_played_later(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "KH"), ("C", "8D"), ("A", "QH"),
                          ("B", "5D"), ("C", "9C"), ("A", "3D"),
                          ("B", "6C"), ("C", "7H"), ("A", "4C")])
    assert breaches(events) == [("C", "revoke", 1)]


def test_a_player_must_head_the_trick_when_able(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "9H"), ("C", "7H"), ("A", "2H"),
                          ("B", "5D"), ("C", "QH"), ("A", "3D"),
                          ("B", "6C"), ("C", "9C"), ("A", "4C")])
    assert breaches(events) == [("C", "not-heading", 1)]


def test_holding_none_of_the_suit_a_player_must_trump_to_head(table):
    open_three(table)
    deal_and_declare(table)
    events = play(table, [("B", "9H"), ("C", "8D"), ("A", "2H"),
                          ("B", "5D"), ("C", "5S"), ("A", "3D"),
                          ("C", "9C"), ("A", "4C"), ("B", "6C")])
    assert breaches(events) == [("C", "not-trumping-to-head", 1)]


def test_play_follows_seat_order_from_the_leader(table):
    open_three(table)
    deal_and_declare(table)
    with pytest.raises(Refused) as refused:
        table.send("CardPlayed", player="C", card="9H")
    assert refused.value.status == 409 and refused.value.problem["rule"] == "play-in-turn"


def test_quick_entry_records_winners_and_cannot_be_mixed_with_cards(table):
    open_three(table)
    deal_and_declare(table)
    tricks(table, ["B"])
    with pytest.raises(Refused) as refused:
        table.send("CardPlayed", player="B", card="9H")
    assert refused.value.problem["rule"] == "entry-mode"
    events = tricks(table, ["C", "C"])
    assert breaches(events) == [] and events[-1]["type"] == "DealSettled"


def test_a_trick_winner_must_be_standing_at_quick_entry(table):
    open_three(table)
    deal_and_declare(table, declarations=TWO_DECLARED)
    with pytest.raises(Refused) as refused:
        table.send("TrickWon", winner="C")
    assert refused.value.problem["rule"] == "standing-player"


def test_the_holder_of_the_miss_leads_when_the_club_agrees(table):
    open_three(table, miss_holder_leads=True)
    deal_and_declare(table, declarations=(("B", "play"), ("C", "take_miss"), ("A", "play")))
    actions = table.session()["expected"]["actions"]
    assert actions[0] == {"type": "CardPlayed", "player": "C", "trick": 1}


def test_trumps_with_only_played_cards_between_them_are_of_equal_value_at_blenheim(table):
    open_three(table, preset="blenheim")
    deal_and_declare(table, declarations=TWO_DECLARED)
    # B leads the knave; A wins with the king and, holding the queen and the ten with the
    # knave gone, may lead either after the trick.
    events = play(table, [("B", "JS"), ("A", "KS"), ("A", "10S"), ("B", "3C"),
                          ("A", "QS"), ("B", "4C")])
    assert breaches(events) == []
