"""The auditor's view of the whole club over HTTP, on both databases (api/routes/audit.py,
ledger/audit/club.py): the sessions by the time they were opened, paged and windowed; the
club verified page by page, with a verdict that turns when an event is altered behind the
ledger's back; an exported session checked as `lanterloo verify-export` checks it."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from ledger.audit import checkpoints
from ledger.store.tables import sessions
from tests.clubs import Club, make_club, open_table

from .conftest import assert_problem


@pytest.fixture
def club(engine) -> Club:
    return make_club(engine, "Audit")


@pytest.fixture
def http(app):
    return app.test_client()


def open_session(http, club: Club, name: str, *, end: str | None = None) -> str:
    """A table of the club's treasurer, dealer and auditor, opened (and ended `end`) through
    the ledger's service: these tests are about the auditor's reads."""
    engine = http.application.config["ENGINE"]
    return open_table(engine, club, name, players=["treasurer", "dealer", "auditor"], end=end)


def test_the_sessions_are_listed_newest_first_by_name_paged_and_windowed(http, club):
    first = open_session(http, club, "Monday", end="divide-pool")
    second = open_session(http, club, "Tuesday")
    auditor = club.headers("auditor")
    page = http.get("/audit/sessions?limit=1", headers=auditor).get_json()
    assert [(s["name"], s["status"], s["players"]) for s in page["sessions"]] == [
        ("Tuesday", "open", ["treasurer", "dealer", "auditor"])]
    assert (page["total"], page["next_after"]) == (2, 1)
    rest = http.get("/audit/sessions?limit=1&after=1", headers=auditor).get_json()
    assert [(s["session_id"], s["status"], s["version"]) for s in rest["sessions"]] == [
        (first, "ended", 2)]
    assert rest["next_after"] is None
    named = http.get("/audit/sessions?name=TUES", headers=auditor).get_json()
    assert [s["name"] for s in named["sessions"]] == ["Tuesday"] and named["total"] == 1
    assert http.get("/audit/sessions?name=%25", headers=auditor).get_json()["total"] == 0
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    empty = http.get("/audit/sessions", query_string={"since": later}, headers=auditor)
    assert empty.get_json() == {"sessions": [], "total": 0, "next_after": None}
    bad = http.get("/audit/sessions", query_string={"since": later, "until": later},
                   headers=auditor)
    assert_problem(bad, 422)
    assert_problem(http.get("/audit/sessions", headers=club.headers("dealer")), 403)
    # another club sees none of ours
    theirs = make_club(http.application.config["ENGINE"], "Theirs")
    assert http.get("/audit/sessions", headers=theirs.headers("auditor")).get_json()[
        "total"] == 0
    assert second


def test_the_whole_club_verifies_page_by_page_and_an_altered_event_is_named(http, engine,
                                                                           club):
    sids = [open_session(http, club, name) for name in ("Monday", "Tuesday", "Wednesday")]
    auditor = club.headers("auditor")
    first = http.get("/audit/verify?limit=2", headers=auditor).get_json()
    assert first["ok"] is True and first["books"] == {"ok": True, "problems": []}
    assert [s["name"] for s in first["sessions"]] == ["Monday", "Tuesday"]
    assert (first["total"], first["next_after"]) == (3, 2)
    last = http.get("/audit/verify?limit=2&after=2", headers=auditor).get_json()
    assert last["ok"] is True and last["books"] is None and last["next_after"] is None

    with engine.begin() as conn:  # behind the ledger's back: the stored head moved
        conn.execute(update(sessions).where(sessions.c.id == sids[2])
                     .values(head_hash="0" * 64))
    again = http.get("/audit/verify?limit=2&after=2", headers=auditor).get_json()
    assert again["ok"] is False
    (wednesday,) = again["sessions"]
    assert wednesday["name"] == "Wednesday" and wednesday["ok"] is False
    assert any("head" in p for p in wednesday["problems"]), wednesday


def test_an_exported_session_is_checked_and_a_changed_figure_is_found(http, club,
                                                                     signing_key):
    sid = open_session(http, club, "Friday", end="divide-pool")
    auditor = club.headers("auditor")
    exported = http.get(f"/sessions/{sid}/export", headers=auditor).get_json()
    checked = http.post("/audit/export-check", headers=auditor, json=exported)
    assert checked.status_code == 200, checked.get_json()
    assert checked.get_json()["ok"] is True, checked.get_json()
    assert f"session {sid}" in checked.get_json()["summary"]
    assert f"key {checkpoints.key_id(signing_key.public_hex)}" in checked.get_json()["summary"]
    assert checked.get_json()["key_id"] == checkpoints.key_id(signing_key.public_hex)
    assert checked.get_json()["events"] == len(exported["events"])

    altered = copy.deepcopy(exported)
    altered["events"][0]["actor"] = "somebody else"
    refused = http.post("/audit/export-check", headers=auditor, json=altered).get_json()
    assert refused["ok"] is False and refused["problems"]
    not_one = http.post("/audit/export-check", headers=auditor, json={"format": "x"})
    assert not_one.get_json()["ok"] is False
    assert_problem(http.post("/audit/export-check", headers=club.headers("dealer"),
                             json=exported), 403)
