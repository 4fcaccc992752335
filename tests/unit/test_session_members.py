"""A session remembers which club member sits behind each player's name."""

from __future__ import annotations

import pytest

from ledger.domain import InvalidInput, OpenSession, execute, session_view, statement
from ledger.domain.events import event_from_record


def test_the_members_map_is_recorded_and_shown_in_the_view_and_the_statement():
    members = {"Ann": "m-ann", "Bob": "m-bob", "Cal": "m-cal"}
    state, events = execute(None, OpenSession(players=["Ann", "Bob", "Cal"], members=members),
                            session_id="s")
    assert events[0].payload()["members"] == members
    assert session_view(state)["members"] == members
    assert {p["player"]: p["member_id"] for p in statement(state)["players"]} == members


def test_a_session_opened_before_clubs_reads_with_no_members():
    payload = {"name": "", "players": ["A", "B"], "first_dealer": "A", "rules": {},
               "unit": "counter", "money_per_unit_minor": None, "currency": None}
    assert event_from_record("SessionOpened", 1, payload).members == {}
    state, _ = execute(None, OpenSession(players=["A", "B"]), session_id="s")
    assert session_view(state)["members"] == {}
    assert [p["member_id"] for p in statement(state)["players"]] == [None, None]


def test_members_may_name_only_seated_players():
    with pytest.raises(InvalidInput) as refused:
        execute(None, OpenSession(players=["A", "B"], members={"Z": "m-z"}), session_id="s")
    assert refused.value.field == "members"
