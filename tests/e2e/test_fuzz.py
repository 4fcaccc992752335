"""No input crashes the service: random JSON is refused with a 4xx problem, appending nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.schemas import EVENT_SCHEMAS

from .conftest import Table, assert_problem

# random input refused by the schemas and the domain, whatever the database
pytestmark = pytest.mark.backends("sqlite")

FUZZ = settings(max_examples=60, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers(-2**70, 2**70) \
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
names = st.sampled_from(["A", "B", "C", "D", "E", "Z", "", "pool", 3, None])
cards = st.sampled_from(["AH", "2S", "10D", "1X", "5Q", "QQ", "", "🂡", 7, None, ["AH"]])

# Events that look nearly right: a real type with plausible, wrong or missing fields.
near_events = st.fixed_dictionaries(
    {"type": st.sampled_from([*EVENT_SCHEMAS, "Nope", "", 1])},
    optional={"player": names, "card": cards, "winner": names, "declaration":
              st.sampled_from(["play", "throw_up", "take_miss", "stand", 0]),
              "trump_card": cards, "face_up": json_values, "offence": st.text(max_size=8),
              "redeal": json_values, "by": names, "after": names,
              "method": st.sampled_from(["single", "divide-pool", "never"]),
              "amount_units": st.integers(0, 9)})
bodies = json_values | near_events | st.fixed_dictionaries(
    {"events": st.lists(near_events | json_values, max_size=4)},
    optional={"expected_version": json_values})


@FUZZ
@given(body=bodies)
def test_random_json_bodies_are_refused_without_appending(playing: Table, body):
    before = playing.version()
    response = playing.post(body)
    if response.status_code == 201:
        # A random body may be a legal move (say, C plays an unseen card): then it is the
        # ledger's answer, not a crash. Everything else must be a 4xx problem.
        return
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)
    assert_problem(response, response.status_code)
    assert playing.version() == before


@FUZZ
@given(raw=st.binary(max_size=64) | st.text(max_size=64).map(str.encode),
       content_type=st.sampled_from(["application/json", "text/plain", "", "application/x"]))
def test_random_bytes_are_refused_without_appending(declaring: Table, raw, content_type):
    before = declaring.version()
    response = declaring.client.post(f"{declaring.url}/events", data=raw,
                                     content_type=content_type or None,
                                     headers={"If-Match": f'"{before}"'})
    if response.status_code == 201:
        return
    assert 400 <= response.status_code < 500, response.get_data(as_text=True)
    assert_problem(response, response.status_code)
    assert declaring.version() == before


@FUZZ
@given(body=json_values | st.fixed_dictionaries(
    {"players": json_values}, optional={"preset": json_values, "rules": json_values,
                                        "first_dealer": json_values, "unit": json_values,
                                        "money_per_unit_minor": json_values,
                                        "currency": json_values, "name": json_values}))
def test_random_session_bodies_never_crash(client, body):
    response = client.post("/sessions", json=body)
    if response.status_code == 201:
        return
    assert 400 <= response.status_code < 500, (json.dumps(body), response.get_data(True))
    assert_problem(response, response.status_code)


@FUZZ
@given(query=st.dictionaries(st.sampled_from(["after", "limit", "format", "x"]),
                             st.text(max_size=6), max_size=3),
       path=st.sampled_from(["events", "statement", "deals/1", "deals/-1", "deals/x", ""]))
def test_random_queries_never_crash(declaring: Table, query, path):
    response = declaring.client.get(f"{declaring.url}/{path}", query_string=query)
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert_problem(response, response.status_code)


def test_ids_and_numbers_the_store_could_not_hold_are_refused_not_crashed(declaring: Table):
    too_big = 2**64
    paths = [
        "/sessions/%00", "/sessions/a%00b/events", "/sessions/a%0Ab/statement",
        "/sessions/" + "x" * 65, f"{declaring.url}/events?after={too_big}",
        f"{declaring.url}/deals/{too_big}", f"{declaring.url}/deals/-1",
        f"{declaring.url}/deals/0",
    ]
    for path in paths:
        response = declaring.client.get(path)
        assert 400 <= response.status_code < 500, (path, response.status_code)
        assert_problem(response, response.status_code)
    response = declaring.client.post("/sessions/%00/events", json={"type": "ReplayWaived"})
    assert assert_problem(response, 422)["field"] == "session_id"  # a NUL: no id at all


def test_control_characters_in_names_are_refused(client, declaring: Table):
    response = client.post("/sessions", json={"players": ["A\u0000", "B"]})
    assert assert_problem(response, 422)["field"].startswith("players")
    response = client.post("/sessions", json={"players": ["A", "B"], "name": "x\ny"})
    assert assert_problem(response, 422)["field"] == "name"
    declaring.refused({"type": "PenaltyImposed", "player": "C", "offence": "x\u0000"}, 422,
                      rule="schema")
