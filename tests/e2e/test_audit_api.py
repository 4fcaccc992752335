"""GET /audit/events, /audit/penalties and /audit/corrections over HTTP: JSON and CSV say the
same, filters travel with the next page, and a bad filter is a problem naming its field."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from ledger.audit.queries import CORRECTION_COLUMNS, EVENT_COLUMNS, REGISTER_COLUMNS
from tests.clubs import club_client, make_club

from .conftest import PROBLEM

PLAYERS = ["A", "B", "C"]


@pytest.fixture
def club(engine):
    return make_club(engine)


@pytest.fixture
def logged(client_for, club) -> dict[str, Any]:
    """A session of three with a penalty (B's revoke), a formula-like name, and an undo."""
    treasurer = client_for(club, "treasurer")
    opened = treasurer.post("/sessions", json={
        "players": ["A", "=B()", "C"], "guests": ["A", "=B()", "C"], "preset": "baxter-wray",
        "first_dealer": "A", "name": "Thursday"})
    assert opened.status_code == 201, opened.get_json()
    sid = opened.get_json()["session_id"]

    def send(body: dict[str, Any]) -> dict[str, Any]:
        version = treasurer.get(f"/sessions/{sid}").get_json()["version"]
        answer = treasurer.post(f"/sessions/{sid}/events", json=body,
                                headers={"If-Match": f'"{version}"'})
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()

    send({"type": "DealStarted", "trump_card": "7H",
          "face_up": {"A": "5C", "=B()": "9H", "C": "KS"}})
    send({"type": "DealStarted", "trump_card": "3C"})
    send({"type": "PenaltyImposed", "player": "=B()", "offence": "looked-at-own-cards"})
    version = treasurer.get(f"/sessions/{sid}").get_json()["version"]
    undone = treasurer.post(f"/sessions/{sid}/undo", json={"reason": "=wrong player"},
                            headers={"If-Match": f'"{version}"'})
    assert undone.status_code == 201, undone.get_json()
    send({"type": "PenaltyImposed", "player": "C", "offence": "looked-at-own-cards"})
    return {"session_id": sid, "client": client_for(club, "auditor")}


@pytest.fixture
def client_for(app, engine):
    def make(club, role):
        return club_client(app, engine, role=role, club=club)

    return make


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def as_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    else:
        text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") and \
        not isinstance(value, int) else text


@pytest.mark.parametrize(("path", "key", "columns"), [
    ("/audit/events", "events", EVENT_COLUMNS),
    ("/audit/penalties", "entries", REGISTER_COLUMNS),
    ("/audit/corrections", "corrections", CORRECTION_COLUMNS),
])
def test_the_csv_export_holds_the_json_rows_cell_for_cell(logged, path, key, columns):
    client = logged["client"]
    page = client.get(f"{path}?limit=500")
    assert page.status_code == 200, page.get_json()
    rows = page.get_json()[key]
    assert rows
    for asked in ({"query_string": {"limit": 500, "format": "csv"}},
                  {"query_string": {"limit": 500}, "headers": {"Accept": "text/csv"}}):
        exported = client.get(path, **asked)
        assert exported.status_code == 200 and exported.mimetype == "text/csv"
        assert "attachment" in exported.headers["Content-Disposition"]
        lines = rows_of(exported.get_data(as_text=True))
        assert list(lines[0]) == columns
        assert lines == [{c: as_cell(r.get(c)) for c in columns} for r in rows]


def test_the_register_names_the_penalty_its_law_and_the_one_an_undo_voided(logged):
    entries = logged["client"].get("/audit/penalties").get_json()["entries"]
    assert [(e["player"], e["offence"], e["live"]) for e in entries] == [
        ("=B()", "looked-at-own-cards", False), ("C", "looked-at-own-cards", True)]
    voided, kept = entries
    assert voided["superseded_by"] == kept["version"] - 1  # the undo, just before it
    assert kept["detected"] is False and kept["law"] and kept["amount_units"] > 0
    assert kept["actor"] == "treasurer" and kept["device"] == "test treasurer"
    corrections = logged["client"].get("/audit/corrections").get_json()["corrections"]
    assert [c["reason"] for c in corrections] == ["=wrong player"]
    assert corrections[0]["voids"][0]["version"] == voided["version"]
    assert corrections[0]["changes"] == {"=B()": voided["amount_units"],
                                         "pool": -voided["amount_units"]}


def test_the_registers_name_each_rows_table_by_its_name_and_opening(logged):
    """An auditor reads which table a penalty or a correction is of, not only its id."""
    client, sid = logged["client"], logged["session_id"]
    opening = client.get(f"/audit/events?session_id={sid}&limit=1").get_json()["events"][0]
    assert opening["type"] == "SessionOpened"
    rows = [*client.get("/audit/penalties").get_json()["entries"],
            *client.get("/audit/corrections").get_json()["corrections"],
            *client.get(f"/audit/events?session_id={sid}").get_json()["events"]]
    assert len(rows) > 3
    assert {(r["session_name"], r["session_opened_at"]) for r in rows} == {
        ("Thursday", opening["recorded_at"])}


def test_the_next_page_keeps_the_filters(logged):
    client = logged["client"]
    sid = logged["session_id"]
    first = client.get(f"/audit/events?session_id={sid}&type=PenaltyImposed&limit=1")
    body = first.get_json()
    assert [e["type"] for e in body["events"]] == ["PenaltyImposed"]
    assert first.headers["Link"] == f'<{body["next"]}>; rel="next"'
    second = client.get(body["next"]).get_json()
    assert [e["type"] for e in second["events"]] == ["PenaltyImposed"]
    assert second["events"][0]["position"] > body["events"][0]["position"]
    assert second["next_after"] is None and second["next"] is None


@pytest.mark.parametrize(("query", "field"), [
    ("type=CardPlayd", "type"), ("offence=cheating", "offence"), ("breach=x", "breach"),
    ("since=2026-11-22T18:00:00", "since"), ("until=yesterday", "until"),
    ("since=2026-11-22T18:00:00Z&until=2026-11-22T17:00:00Z", "until"),
    ("limit=501", "limit"), ("limit=0", "limit"), ("after=-1", "after"),
    ("member=ann", "member"), ("session_id=" + "x" * 65, "session_id"),
])
def test_a_bad_filter_is_a_problem_naming_the_field(logged, query, field):
    for path in ("/audit/events", "/audit/penalties", "/audit/corrections"):
        response = logged["client"].get(f"{path}?{query}")
        assert response.status_code == 422, (path, query, response.get_data(True))
        assert response.mimetype == PROBLEM
        problem = response.get_json()
        assert problem["field"] == field, problem


def test_the_register_refuses_another_type_and_the_corrections_an_offence(logged):
    client = logged["client"]
    refused = client.get("/audit/penalties?type=CardPlayed")
    assert refused.status_code == 422 and refused.get_json()["field"] == "type"
    refused = client.get("/audit/corrections?offence=revoke")
    assert refused.status_code == 422 and refused.get_json()["field"] == "offence"


def test_another_club_finds_nothing_of_ours_by_any_filter(logged, engine, client_for):
    theirs = client_for(make_club(engine), "auditor")
    sid = logged["session_id"]
    for path, key in (("/audit/events", "events"), ("/audit/penalties", "entries"),
                      ("/audit/corrections", "corrections")):
        for query in (f"session_id={sid}", ""):
            body = theirs.get(f"{path}?{query}").get_json()
            assert body[key] == [] and body["next_after"] is None


def test_a_time_window_pages_through_its_next_links_with_the_offset_kept(logged):
    client = logged["client"]
    every = client.get("/audit/events?limit=500").get_json()["events"]
    # the same wall-clock time at UTC-1: an hour after every event
    since = every[1]["recorded_at"].replace("+00:00", "-01:00")
    shifted = client.get("/audit/events", query_string={"since": since}).get_json()["events"]
    assert shifted == []  # an hour after the last event: nothing
    window = {"since": every[1]["recorded_at"], "limit": 1}
    url, seen = "/audit/events", []
    response = client.get(url, query_string=window)
    while True:
        body = response.get_json()
        seen += [e["position"] for e in body["events"]]
        if body["next"] is None:
            break
        response = client.get(body["next"])
    assert seen == [e["position"] for e in every
                    if e["recorded_at"] >= every[1]["recorded_at"]]


@pytest.mark.parametrize(("winners", "charged"), [
    (["C", "C", "C"], (18, 18, "loo")),  # no trick: looed instead, 18 (the deal's loo)
    (["B", "C", "C"], (12, 12, "fine")),  # a trick: four stakes of 3, to the next pool
])
def test_the_register_shows_a_penalty_fixed_at_settlement_as_the_ledger_charged_it(
        client_for, club, winners, charged):
    # Blenheim law 9 (tests/rules/test_penalties.py): a revoke costs four stakes, or a loo
    # if the offender makes no trick; known only when the deal is settled.
    treasurer = client_for(club, "treasurer")
    opened = treasurer.post("/sessions", json={"players": ["A", "B", "C", "D", "E"],
                                               "preset": "blenheim", "first_dealer": "A"})
    sid = opened.get_json()["session_id"]
    bodies = [{"type": "DealStarted", "trump_card": "2S"},
              *({"type": "DeclarationMade", "player": p, "declaration": d} for p, d in (
                  ("B", "play"), ("C", "play"), ("D", "throw_up"), ("E", "throw_up"),
                  ("A", "throw_up"))),
              {"type": "PenaltyImposed", "player": "B", "offence": "revoke"},
              *({"type": "TrickWon", "winner": w} for w in winners)]
    for n, body in enumerate(bodies):
        answer = treasurer.post(f"/sessions/{sid}/events", json=body,
                                headers={"Idempotency-Key": f"{sid}-{n}"})
        assert answer.status_code == 201, answer.get_json()
    auditor = client_for(club, "auditor")
    (before,) = auditor.get(f"/audit/penalties?session_id={sid}").get_json()["entries"]
    assert (before["amount_units"], before["paid_units"], before["charged_as"]) == (
        None, 0, None)  # the deal waits on the replay: not settled yet
    waived = treasurer.post(f"/sessions/{sid}/events", json={"type": "ReplayWaived"},
                            headers={"Idempotency-Key": f"{sid}-waived"})
    assert waived.status_code == 201, waived.get_json()
    (entry,) = auditor.get(f"/audit/penalties?session_id={sid}").get_json()["entries"]
    assert (entry["amount_units"], entry["paid_units"], entry["charged_as"]) == charged
    exported = auditor.get(f"/audit/penalties?session_id={sid}&format=csv&bom=1")
    assert exported.data.startswith(b"\xef\xbb\xbf")
    (row,) = rows_of(exported.data.decode("utf-8-sig"))
    assert (row["amount_units"], row["charged_as"]) == (str(charged[0]), charged[2])
