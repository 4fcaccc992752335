"""Fifty writers from one version, and retries of one request, through real gunicorn servers:
one host, and two hosts (two gunicorn instances on different ports) on one database."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from .harness import http
from .table import FIRST_DEAL, assert_whole, bearer, log_versions, open_session, version_of

WRITERS = 50


@pytest.fixture(params=["sqlite", "postgresql", "postgresql-partitioned"])
def any_url(request: pytest.FixtureRequest) -> str:
    """The drills' databases (tests/faults/conftest.py), and PostgreSQL installed
    partitioned by club: the writers meet there as they do in one table."""
    return str(request.getfixturevalue({"sqlite": "sqlite_url", "postgresql": "pg_url"}.get(
        request.param, "partitioned_url")))


def race(calls: list[Any]) -> list[Any]:
    """Run the calls at once (a barrier releases them together); their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Any) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.mark.parametrize("hosts", [1, 2])
def test_fifty_appends_from_one_version_one_wins_the_rest_are_told(any_url, hosts, serve,
                                                                    club_for, engine_for):
    club = club_for(any_url)
    token = club.tokens["treasurer"]
    servers = [serve(any_url) for _ in range(hosts)]
    session_id, version = open_session(servers[0].port, token)

    def append(i: int) -> Any:
        port = servers[i % hosts].port
        return lambda: http(port, "POST", f"/sessions/{session_id}/events", FIRST_DEAL,
                            headers={**bearer(token), "If-Match": f'"{version}"'})

    results = race([append(i) for i in range(WRITERS)])
    statuses = Counter(status for status, _, _ in results)
    assert statuses == {201: 1, 409: WRITERS - 1}, statuses
    (won,) = [body for status, _, body in results if status == 201]
    for status, headers, body in results:
        if status == 409:
            assert headers["content-type"] == "application/problem+json"
            assert body["rule"] == "expected-version"
            assert body["current_version"] == won["version"]
    engine = engine_for(any_url)
    assert log_versions(engine, session_id) == list(range(1, won["version"] + 1))
    assert version_of(servers[-1].port, token, session_id) == won["version"]
    assert_whole(engine, session_id)


@pytest.mark.parametrize("hosts", [1, 2])
def test_one_idempotency_key_sent_at_once_appends_once_and_answers_alike(
        any_url, hosts, serve, club_for, engine_for):
    club = club_for(any_url)
    token = club.tokens["dealer"]
    servers = [serve(any_url) for _ in range(hosts)]
    session_id, version = open_session(servers[0].port, club.tokens["treasurer"])
    headers = {**bearer(token), "Idempotency-Key": "deal-1"}

    def send(i: int) -> Any:
        port = servers[i % hosts].port
        return lambda: http(port, "POST", f"/sessions/{session_id}/events", FIRST_DEAL,
                            headers=headers)

    results = race([send(i) for i in range(20)])
    assert {status for status, _, _ in results} == {201}, [r[2] for r in results]
    bodies = [body for _, _, body in results]
    assert all(body == bodies[0] for body in bodies)  # the identical stored answer
    replayed = [h.get("idempotent-replayed") for _, h, _ in results]
    assert replayed.count(None) == 1 and replayed.count("true") == 19
    appended = len(bodies[0]["appended"])
    assert version_of(servers[0].port, token, session_id) == version + appended
    engine = engine_for(any_url)
    assert len(log_versions(engine, session_id)) == version + appended

    # The same key again: the same answer, nothing appended; another body: refused.
    status, again_headers, again = http(servers[-1].port, "POST",
                                        f"/sessions/{session_id}/events", FIRST_DEAL,
                                        headers=headers)
    assert (status, again, again_headers["idempotent-replayed"]) == (201, bodies[0], "true")
    status, _, refused = http(servers[-1].port, "POST", f"/sessions/{session_id}/events",
                              {"type": "DealStarted", "trump_card": "8S"}, headers=headers)
    assert status == 422 and refused["rule"] == "idempotency-key-reuse"
    assert version_of(servers[0].port, token, session_id) == version + appended
    assert_whole(engine, session_id)
