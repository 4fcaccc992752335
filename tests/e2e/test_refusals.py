"""Every refusal is a problem+json naming what was wrong, and appends nothing."""

from __future__ import annotations

import pytest

from .conftest import EXAMPLE_1, Table, assert_problem, open_table

# refusals decided before anything is written; a refused batch's atomicity runs on both
pytestmark = pytest.mark.backends("sqlite")

# ---------------------------------------------------------------- turn order


def test_declaring_before_your_turn_is_refused_naming_whose_turn_it_is(declaring: Table):
    problem = declaring.refused(
        {"type": "DeclarationMade", "player": "D", "declaration": "play"}, 409,
        rule="declare-in-turn", mentions=("C's turn",))
    assert problem["title"]


def test_playing_out_of_turn_is_refused_naming_the_leader(playing: Table):
    playing.refused({"type": "CardPlayed", "player": "D", "card": "AH"}, 409,
                    rule="play-in-turn", mentions=("C's turn",))


def test_a_second_declaration_by_the_same_player_is_refused(declaring: Table):
    declaring.declare(("C", "play"))
    declaring.refused({"type": "DeclarationMade", "player": "C", "declaration": "throw_up"},
                      409, rule="one-declaration", mentions=("already declared",))


def test_taking_the_miss_when_it_is_already_taken_is_refused(declaring: Table):
    declaring.declare(("C", "take_miss"))
    problem = declaring.refused(
        {"type": "DeclarationMade", "player": "D", "declaration": "take_miss"}, 409,
        rule="miss-taken", mentions=("miss is already taken",))
    assert "take_miss" not in problem["choices"]


def test_a_card_played_before_the_declarations_are_over_is_refused(declaring: Table):
    declaring.declare(("C", "play"), ("D", "play"))
    declaring.refused({"type": "CardPlayed", "player": "C", "card": "AH"}, 409,
                      rule="declarations-over", mentions=("declarations are not over",))


# ---------------------------------------------------------------- cards


def test_a_card_with_a_rank_that_does_not_exist_is_refused_by_the_schema(playing: Table):
    problem = playing.refused({"type": "CardPlayed", "player": "C", "card": "11H"}, 422,
                              rule="schema", mentions=("11H", "not a card"))
    assert problem["field"] == "card"


def test_a_card_with_a_suit_that_does_not_exist_is_refused_by_the_schema(playing: Table):
    problem = playing.refused({"type": "CardPlayed", "player": "C", "card": "5Q"}, 422,
                              rule="schema", mentions=("5Q",))
    assert problem["field"] == "card"


def test_a_face_up_card_that_is_not_a_card_is_refused_naming_the_player(table: Table):
    problem = table.refused({"type": "DealStarted", "trump_card": "7H",
                             "face_up": {"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2X"}},
                            422, rule="schema", mentions=("2X",))
    assert problem["field"] == "face_up.E.value"


def test_the_card_aliases_the_parser_takes_are_accepted(playing: Table):
    # 1 for the ace, T for ten, lower case, and the suit symbols.
    result = playing.append({"events": [
        {"type": "CardPlayed", "player": "C", "card": "1h"},
        {"type": "CardPlayed", "player": "D", "card": "T♥"},
        {"type": "CardPlayed", "player": "E", "card": "6♥"}]})
    cards = [e["payload"]["card"] for e in result["appended"] if e["type"] == "CardPlayed"]
    assert cards == ["AH", "10H", "6H"]


def test_a_two_is_refused_when_the_session_plays_with_the_piquet_pack(client):
    table = open_table(client, rules={"pack": 32}, first_dealer="A")
    table.refused({"type": "DealStarted", "trump_card": "2H",
                   "face_up": {"A": "7C", "B": "9H", "C": "KS", "D": "QH", "E": "8H"}},
                  422, rule="card-in-pack", mentions=("32-card pack",))


def test_the_turned_up_trump_card_cannot_be_played(playing: Table):
    playing.refused({"type": "CardPlayed", "player": "C", "card": "2S"}, 422,
                    rule="card-unseen", mentions=("2S", "already"))


def test_a_card_already_played_in_this_deal_cannot_be_played_again(playing: Table):
    playing.play(("C", "AH"))
    playing.refused({"type": "CardPlayed", "player": "D", "card": "AH"}, 422,
                    rule="card-unseen", mentions=("AH", "already"))


# ---------------------------------------------------------------- entry modes


def test_quick_entry_of_a_trick_is_refused_once_cards_are_entered_one_by_one(playing: Table):
    playing.play(("C", "AH"), ("D", "5H"), ("E", "6H"))
    playing.refused({"type": "TrickWon", "winner": "C"}, 409, rule="entry-mode",
                    mentions=("card by card",))


def test_a_trick_won_with_the_wrong_number_of_cards_in_it_is_refused(playing: Table):
    playing.play(("C", "AH"))
    playing.refused({"type": "TrickWon", "winner": "C"}, 409, rule="entry-mode",
                    mentions=("1 of 3 cards",))


def test_cards_cannot_be_entered_into_a_deal_entered_trick_by_trick(playing: Table):
    playing.send("TrickWon", winner="C")
    playing.refused({"type": "CardPlayed", "player": "D", "card": "AH"}, 409,
                    rule="entry-mode", mentions=("quick entry",))


# ---------------------------------------------------------------- players


def test_an_unknown_player_is_refused_naming_the_players(declaring: Table):
    declaring.refused({"type": "DeclarationMade", "player": "Z", "declaration": "play"}, 422,
                      rule="known-player", mentions=("'Z'", "A, B, C, D, E"))


# ---------------------------------------------------------------- what the client may send


def test_a_money_amount_sent_with_an_event_is_refused_naming_the_field(playing: Table):
    problem = playing.refused(
        {"type": "CardPlayed", "player": "C", "card": "AH", "amount_units": 5}, 422,
        rule="no-client-amounts", mentions=("decided by the rules", "amount_units"))
    assert problem["field"] == "amount_units"


def test_a_pool_or_a_loo_sent_in_a_batch_is_refused_naming_the_event(playing: Table):
    problem = playing.refused(
        {"events": [{"type": "CardPlayed", "player": "C", "card": "AH"},
                    {"type": "TrickWon", "winner": "C", "loo": 6}]}, 422,
        rule="no-client-amounts", mentions=("loo",))
    assert problem["field"] == "events.1.loo"


def test_postings_are_never_accepted_from_a_client(declaring: Table):
    declaring.refused({"type": "DeclarationMade", "player": "C", "declaration": "play",
                       "postings": [{"from": "C", "to": "pool", "amount_units": 3}]}, 422,
                      rule="no-client-amounts", mentions=("postings",))


def test_a_money_amount_sent_when_opening_a_session_points_to_the_rules(client):
    response = client.post("/sessions", json={"players": ["A", "B", "C"], "stake": 6})
    problem = assert_problem(response, 422, rule="no-client-amounts",
                             mentions=("stake", "rules"))
    assert problem["field"] == "stake"


def test_an_unknown_event_type_is_refused_listing_the_accepted_types(declaring: Table):
    problem = declaring.refused({"type": "PoolTaken", "player": "C"}, 422, rule="event-type",
                                mentions=("PoolTaken", "CardPlayed", "SessionEnded"))
    assert "DealStarted" in problem["accepted"]


def test_an_event_the_rules_draw_themselves_cannot_be_sent_by_a_client(declaring: Table):
    declaring.refused({"type": "DealSettled", "deal_no": 2}, 422, rule="event-type",
                      mentions=("DealSettled",))


def test_an_unknown_field_is_refused_naming_it(declaring: Table):
    problem = declaring.refused(
        {"type": "DeclarationMade", "player": "C", "declaration": "play", "mood": "bold"}, 422,
        rule="schema", mentions=("mood",))
    assert problem["field"] == "mood"


# ---------------------------------------------------------------- malformed bodies


def test_a_body_that_is_not_json_is_a_bad_request(declaring: Table):
    declaring.refused('{"type": "CardPlayed",', 400, rule="json", raw=True,
                      content_type="application/json", mentions=("not valid JSON",))


def test_a_json_array_is_a_bad_request(declaring: Table):
    declaring.refused([{"type": "DeclarationMade", "player": "C", "declaration": "play"}], 400,
                      rule="json-object", mentions=("array",))


def test_a_body_sent_as_something_other_than_json_is_unsupported(declaring: Table):
    declaring.refused("type=CardPlayed", 415, rule="content-type", raw=True,
                      content_type="application/x-www-form-urlencoded",
                      mentions=("application/json",))


def test_an_event_missing_a_required_field_is_refused_naming_it(declaring: Table):
    problem = declaring.refused({"type": "DeclarationMade", "player": "C"}, 422,
                                rule="schema", mentions=("declaration",))
    assert problem["errors"] == {"declaration": ["Missing data for required field."]}


def test_an_event_with_a_field_of_the_wrong_type_is_refused_naming_it(playing: Table):
    problem = playing.refused({"type": "CardPlayed", "player": "C", "card": 5}, 422,
                              rule="schema", mentions=("card",))
    assert problem["field"] == "card"


def test_a_declaration_that_does_not_exist_is_refused_naming_the_choices(declaring: Table):
    declaring.refused({"type": "DeclarationMade", "player": "C", "declaration": "pass"}, 422,
                      rule="schema", mentions=("play", "throw_up"))


def test_an_event_without_a_type_is_refused_listing_the_types(declaring: Table):
    declaring.refused({"player": "C", "declaration": "play"}, 422, mentions=("type",))


def test_a_batch_that_is_not_a_list_of_objects_is_refused_naming_the_position(declaring: Table):
    problem = declaring.refused({"events": [{"type": "ReplayWaived"}, 7]}, 422, rule="schema")
    assert problem["field"].startswith("events.1")


def test_an_empty_batch_is_refused(declaring: Table):
    declaring.refused({"events": []}, 422, mentions=("at least one event",))


def test_a_batch_over_the_limit_is_too_large(declaring: Table):
    too_many = [{"type": "ReplayWaived"}] * 51  # the e2e app allows 50
    declaring.refused({"events": too_many}, 413, rule="batch-limit", mentions=("50",))


def test_a_body_over_the_size_limit_is_too_large(declaring: Table):
    declaring.client.application.config["MAX_CONTENT_LENGTH"] = 1000
    declaring.refused({"type": "DeclarationMade", "player": "C" * 2000,
                       "declaration": "play"}, 413)


def test_the_actor_header_no_longer_names_anyone(declaring: Table):
    """X-Actor is ignored: the actor is the member behind the bearer token."""
    result = declaring.append({"type": "DeclarationMade", "player": "C", "declaration": "play"},
                              headers={"X-Actor": "x" * 101})
    assert {e["actor"] for e in result["appended"]} == {"treasurer"}


# ---------------------------------------------------------------- sessions


def test_events_for_an_unknown_session_are_not_found(client):
    response = client.post("/sessions/no-such-session/events",
                           json={"type": "DealStarted", "trump_card": "7H"})
    assert_problem(response, 404, rule="session-exists", mentions=("no-such-session",))


def test_an_unknown_session_is_not_found(client):
    for path in ("/sessions/nope", "/sessions/nope/deals/1", "/sessions/nope/statement",
                 "/sessions/nope/statement?format=csv", "/sessions/nope/events"):
        assert_problem(client.get(path), 404, mentions=("nope",))


def test_a_deal_that_has_not_been_dealt_is_not_found(table: Table):
    assert_problem(table.client.get(f"{table.url}/deals/7"), 404, rule="deal-exists",
                   mentions=("7",))


def test_opening_a_session_with_an_unknown_preset_is_refused_naming_the_presets(client):
    response = client.post("/sessions", json={"players": ["A", "B", "C"], "preset": "hoyle"})
    problem = assert_problem(response, 422, rule="schema")
    assert problem["field"] == "preset"
    assert "baxter-wray" in problem["detail"]


def test_opening_a_session_with_an_unknown_rule_parameter_is_refused(client):
    response = client.post("/sessions", json={"players": ["A", "B", "C"],
                                              "rules": {"jokers": True}})
    problem = assert_problem(response, 422, mentions=("jokers",))
    assert problem["field"] == "rules.jokers"


def test_opening_a_session_with_a_stake_not_divisible_by_three_is_refused(client):
    response = client.post("/sessions", json={"players": ["A", "B", "C"],
                                              "rules": {"stake": 4}})
    assert_problem(response, 422, mentions=("divisible by 3",))


def test_opening_a_session_with_the_same_player_twice_is_refused(client):
    response = client.post("/sessions", json={"players": ["A", "B", "A"]})
    assert_problem(response, 422, mentions=("distinct",))


# ---------------------------------------------------------------- batches


@pytest.mark.backends("sqlite", "postgresql")
def test_a_batch_whose_third_event_is_illegal_appends_none_of_it(declaring: Table):
    before = declaring.view()
    declaring.refused({"events": [
        {"type": "DeclarationMade", "player": "C", "declaration": "play"},
        {"type": "DeclarationMade", "player": "D", "declaration": "play"},
        {"type": "DeclarationMade", "player": "D", "declaration": "throw_up"},
        {"type": "DeclarationMade", "player": "E", "declaration": "play"},
    ]}, 409, rule="one-declaration", mentions=("D has already declared",))
    after = declaring.view()
    assert after["deal"] == before["deal"]
    assert after["expected"] == before["expected"]


@pytest.mark.backends("sqlite", "postgresql")
def test_a_batch_whose_third_event_is_malformed_appends_none_of_it(declaring: Table):
    problem = declaring.refused({"events": [
        {"type": "DeclarationMade", "player": "C", "declaration": "play"},
        {"type": "DeclarationMade", "player": "D", "declaration": "play"},
        {"type": "CardPlayed", "player": "E"},
    ]}, 422, rule="schema", mentions=("events.2.card",))
    assert problem["field"] == "events.2.card"


def test_the_example_single_cannot_be_dealt_twice_by_the_same_dealer(table: Table):
    table.append(EXAMPLE_1)
    table.refused({**EXAMPLE_1, "dealer": "A"}, 409, rule="deal-in-turn",
                  mentions=("B's turn",))
