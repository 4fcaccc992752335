"""Small pure pieces: cards, shares, loos, divisions, presets, events round trip."""

from __future__ import annotations

import pytest

from ledger.domain import InvalidInput, build_rules, events
from ledger.domain.cards import parse_card, trick_winner_index
from ledger.domain.events import EVENT_TYPES, event_from_record
from ledger.domain.money import equal_division, loo_units, trick_shares


@pytest.mark.parametrize("text, card", [("QH", "QH"), ("10s", "10S"), ("7♥", "7H"),
                                        ("TD", "10D"), ("a♠", "AS")])
def test_cards_are_read_in_their_usual_spellings(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["1X", "5Q", "", "QHH", 7, None, "11H"])
def test_a_card_not_in_the_pack_is_refused(text):
    with pytest.raises(InvalidInput) as err:
        parse_card(text)
    assert err.value.rule == "card-in-pack"


def test_the_piquet_pack_has_no_six():
    with pytest.raises(InvalidInput):
        parse_card("6H", 32)


def test_the_highest_trump_wins_else_the_highest_of_the_suit_led():
    assert trick_winner_index(["9H", "KH", "2S"], "S") == 2
    assert trick_winner_index(["9H", "KH", "AD"], "S") == 1
    assert trick_winner_index(["9H", "3S", "5S"], "S") == 2


@pytest.mark.parametrize("pool, shares", [(10, [4, 3, 3]), (11, [4, 4, 3]), (15, [5, 5, 5]),
                                          (1, [1, 0, 0]), (0, [0, 0, 0])])
def test_trick_shares_give_the_odd_units_to_the_first_and_second_tricks(pool, shares):
    assert trick_shares(pool) == shares


def test_loo_amounts_follow_the_loo_kind():
    assert loo_units(build_rules("baxter-wray"), 100) == 6
    assert loo_units(build_rules("blenheim"), 15) == 15
    assert loo_units(build_rules("blenheim"), 40) == 21
    assert loo_units(build_rules("cassell"), 2) == 2
    assert loo_units(build_rules("cassell", {"loo": "all-or-nothing"}), 50) == 6
    assert loo_units(build_rules("enquire-within", {"loo": "unlimited"}), 50) == 50


def test_an_equal_division_hands_the_remainder_out_in_seat_order():
    assert equal_division(7, ["B", "C", "A"]) == [("B", 3), ("C", 2), ("A", 2)]


def test_single_loo_defaults_to_half_the_loo_or_the_deal_price_never_a_fraction():
    assert build_rules("baxter-wray").single_loo == 3
    assert build_rules("enquire-within").single_loo == 1
    assert build_rules("baxter-wray", {"loo_amount": 5, "deal_price": 2}).single_loo == 2


def test_unknown_event_types_are_refused_on_read():
    with pytest.raises(InvalidInput):
        event_from_record("Nonsense", 1, {})


def test_every_event_type_round_trips_through_its_payload():
    assert len(EVENT_TYPES) >= 14
    for name, cls in EVENT_TYPES.items():
        assert cls.type == name and cls.schema_version >= 1


def test_an_old_event_shape_is_upcast_on_read_not_rewritten():
    stored = {"player": "F", "after": "C"}  # version 1: a join before it named a member
    event = events.event_from_record("PlayerJoined", 1, stored)
    assert event == events.PlayerJoined(player="F", after="C", member=None)
    assert stored == {"player": "F", "after": "C"}
    assert events.event_to_record(event) == (
        "PlayerJoined", 2, {"player": "F", "after": "C", "member": None})


@pytest.mark.parametrize("name", ["=1+1", "+1", "-2", '=HYPERLINK("http://x","y")'])
def test_a_player_name_that_is_a_formula_is_neutralised_in_the_statement_csv(name):
    # OWASP, CSV injection: a cell that begins with = + - @ (or a tab or CR) is escaped.
    import csv
    import io

    from ledger.domain import OpenSession, execute, statement_csv

    state, _ = execute(None, OpenSession(players=[name, "B"]), session_id="s")
    rows = list(csv.reader(io.StringIO(statement_csv(state))))
    assert rows[1][0] == "'" + name and rows[2][0] == "B"
    assert rows[1][rows[0].index("net_units")] == "0"  # numbers stay numbers


@pytest.mark.parametrize("value", [52.0, "52", True])
def test_a_pack_that_is_not_a_whole_number_is_refused(value):
    with pytest.raises(InvalidInput) as err:
        build_rules("baxter-wray", {"pack": value})
    assert err.value.field == "rules.pack"
