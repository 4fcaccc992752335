"""GET /sessions/{id}/export: the session as one file for an auditor, which `lanterloo
verify-export` checks with no database; another club's session is not found."""

from __future__ import annotations

import pytest

from ledger.audit.export import verify_export
from tests.clubs import make_club

pytestmark = pytest.mark.backends("sqlite")


def test_an_auditor_exports_a_session_that_verifies_offline(client, engine):
    club = make_club(engine)
    opened = client.post("/sessions", json={"players": ["Ann", "Bob", "Cal"],
                                            "first_dealer": "Ann"},
                         headers=club.headers("treasurer"))
    sid = opened.get_json()["session_id"]
    appended = client.post(f"/sessions/{sid}/events", json={
        "expected_version": 1, "events": [{"type": "DealStarted", "trump_card": "7H",
                                          "face_up": {"Ann": "5C", "Bob": "9H", "Cal": "KS"}}]},
        headers=club.headers("dealer"))
    assert appended.status_code == 201, appended.get_json()

    response = client.get(f"/sessions/{sid}/export", headers=club.headers("auditor"))
    assert response.status_code == 200
    data = response.get_json()
    assert (data["format"], data["session_id"], data["club_id"]) == \
        ("lanterloo-export/1", sid, club.club_id)
    assert [e["version"] for e in data["events"]] == [1, 2, 3]
    assert data["statement"]["log"]["chain_head"] == data["events"][-1]["hash"]
    # no checkpoint key in the tests' app: everything but the signature holds
    assert verify_export(data, None) == [
        "checkpoint: the export carries no signed head (its session has not ended and it "
        "was not exported with `lanterloo export`, or nothing signs)"]

    other = make_club(engine)
    assert client.get(f"/sessions/{sid}/export",
                      headers=other.headers("auditor")).status_code == 404
