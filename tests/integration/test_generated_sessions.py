"""Whole random sessions, played in memory, then sent over HTTP to each database: the stored
log, the projections and the statement must be exactly what the pure core computed."""

from __future__ import annotations

import pytest

from api import create_app
from ledger.domain import statement
from ledger.domain.events import event_to_record
from ledger.sessions.service import Ledger
from tests.clubs import club_client
from tests.support.sessions import RandomChooser, SessionShape, play_session, to_wire


def batches(steps):
    """Accepted steps grouped up to each settled deal (as a tablet would send them)."""
    batch = []
    for step in steps:
        if not step.accepted:
            if batch:
                yield batch
                batch = []
            yield [step]
            continue
        batch.append(step)
        if any(e.type in ("DealSettled", "SessionEnded") for e in step.events):
            yield batch
            batch = []
    if batch:
        yield batch


@pytest.mark.parametrize(("seed", "variant"), [(3, "three-card"), (11, "three-card"),
                                             (29, "three-card"), (5, "irish"),
                                             (7, "five-card"), (13, "five-card")])
def test_a_generated_session_over_http_gives_the_same_log_projections_and_statement(
        engine, seed, variant):
    played = play_session(RandomChooser(seed), shape=SessionShape(min_deals=15, max_deals=30,
                                                                  variants=(variant,)))
    client = club_client(create_app({"ENGINE": engine, "TESTING": True}), engine)

    opened = client.post("/sessions", json=to_wire(played.opening))
    assert opened.status_code == 201, opened.get_json()
    sid = opened.get_json()["session_id"]
    version = opened.get_json()["version"]
    assert played.steps[0].command == played.opening
    for batch in batches(played.steps[1:]):
        if not batch[0].accepted:
            resp = client.post(f"/sessions/{sid}/events", json=batch[0].wire(),
                               headers={"If-Match": f'"{version}"'})
            assert 400 <= resp.status_code < 500, resp.get_json()
            assert resp.mimetype == "application/problem+json"
            assert client.get(f"/sessions/{sid}").get_json()["version"] == version
            continue
        resp = client.post(f"/sessions/{sid}/events",
                           json={"events": [s.wire() for s in batch],
                                 "expected_version": version})
        assert resp.status_code == 201, resp.get_json()
        body = resp.get_json()
        expected = [event_to_record(e) for s in batch for e in s.events]
        # over HTTP an aftercomer joins as a member of the club (a new guest): the join
        # names him, where the domain alone, outside a club, names nobody
        joined = [e["payload"]["member"] for e in body["appended"] if e["type"] == "PlayerJoined"]
        assert all(joined)
        assert [(e["type"], e["payload"]) for e in body["appended"]] == \
            [(t, {**p, "member": joined.pop(0)} if t == "PlayerJoined" else p)
             for t, _, p in expected]
        version = body["version"]
    assert version == played.state.version
    ours = client.get(f"/sessions/{sid}/statement").get_json()
    theirs = statement(played.state)
    # Over HTTP each seat is a member of the club: the statement names them.
    members = client.get(f"/sessions/{sid}").get_json()["members"]
    assert set(members) == set(played.state.seats)  # the aftercomers too
    for player in theirs["players"]:
        player["member_id"] = members.get(player["player"])
    # and the store pins it to the log it was drawn from: the version and the chain head
    assert ours["log"]["version"] == played.state.version and len(ours["log"]["chain_head"]) == 64
    # The store adds the cash counted at the close (docs/books.md): none was, in no evening.
    assert ours.pop("cash") is None and ours.pop("evening") is None
    assert {**ours, "session_id": None, "log": None} == {**theirs, "session_id": None}
    assert Ledger(engine).verify(sid) == []
