"""The database down, frozen, locked, read-only or full: a 503 problem naming the reason,
with Retry-After, within the configured timeouts; never a hang, never a bare 500. And the
service recovers by itself when the database comes back."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from api import create_app
from ledger.store.db import make_engine
from tests.clubs import club_client

from .conftest import FAST_TIMEOUTS
from .harness import EXERCISED, http
from .table import FIRST_DEAL, bearer, events_by_key, open_session

STATEMENT_S = int(FAST_TIMEOUTS["LOO_DB_STATEMENT_TIMEOUT_MS"]) / 1000
GRACE_S = int(FAST_TIMEOUTS["LOO_DB_CLIENT_GRACE_MS"]) / 1000
CONNECT_S = int(FAST_TIMEOUTS["LOO_DB_CONNECT_TIMEOUT"])


def timed(call: Any) -> tuple[float, Any]:
    started = time.monotonic()
    result = call()
    return time.monotonic() - started, result


def assert_unavailable(result: Any, reason: str) -> dict[str, Any]:
    status, headers, body = result
    assert status == 503, (status, body)
    assert headers["content-type"] == "application/problem+json"
    assert body["rule"] == reason, body
    assert int(headers["retry-after"]) >= 1
    assert "Traceback" not in str(body)
    return body


def append(port: int, token: str, session_id: str, **headers: str) -> Any:
    return http(port, "POST", f"/sessions/{session_id}/events", FIRST_DEAL,
                headers={**bearer(token), "Idempotency-Key": "first-deal", **headers},
                timeout=60)


# ------------------------------------------------------------------------- a held lock

def test_a_session_locked_by_another_writer_is_a_503_busy_within_the_lock_timeout(
        any_url, serve, club_for, engine_for):
    club = club_for(any_url)
    token = club.tokens["treasurer"]
    server = serve(any_url)
    session_id, _ = open_session(server.port, token)
    if any_url.startswith("sqlite"):
        holder = sqlite3.connect(any_url.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process's write lock
        bound = int(FAST_TIMEOUTS["LOO_SQLITE_BUSY_TIMEOUT_MS"]) / 1000
        release = holder.rollback
    else:
        connection = engine_for(any_url).connect()
        transaction = connection.begin()
        connection.execute(text("SELECT 1 FROM sessions WHERE id = :id FOR UPDATE"),
                           {"id": session_id})
        bound = int(FAST_TIMEOUTS["LOO_DB_LOCK_TIMEOUT_MS"]) / 1000
        release = transaction.rollback
    try:
        took, result = timed(lambda: append(server.port, token, session_id))
        assert_unavailable(result, "database-busy")
        assert took < bound + 1.5, took
        # Reads do not wait for the writer.
        took, (status, _, _) = timed(lambda: http(server.port, "GET",
                                                  f"/sessions/{session_id}",
                                                  headers=bearer(token)))
        assert status == 200 and took < 1.0
    finally:
        release()
    status, _, body = append(server.port, token, session_id)
    assert status == 201, body


# ------------------------------------------------------------------- PostgreSQL stopped

def test_postgresql_down_is_a_503_unavailable_at_once_and_the_service_recovers(
        cluster, pg_url, serve, club_for):
    club = club_for(pg_url)
    token = club.tokens["treasurer"]
    server = serve(pg_url)
    session_id, _ = open_session(server.port, token)
    cluster.stop("fast")
    try:
        took, result = timed(lambda: append(server.port, token, session_id))
        assert_unavailable(result, "database-unavailable")
        assert took < CONNECT_S + 1
        assert_unavailable(http(server.port, "GET", "/readyz"), "database-unavailable")
        assert http(server.port, "GET", "/healthz")[0] == 200  # alive: do not restart it
        assert_unavailable(http(server.port, "GET", f"/sessions/{session_id}",
                                headers=bearer(token)), "database-unavailable")
    finally:
        cluster.start()
    assert http(server.port, "GET", "/readyz")[0] == 200
    status, _, body = append(server.port, token, session_id)
    assert status == 201, body
    assert "Traceback" not in server.output()


# -------------------------------------------------------------------- PostgreSQL frozen

def test_postgresql_frozen_is_a_503_within_the_statement_timeout_never_a_hang(
        cluster, pg_url, serve, club_for):
    club = club_for(pg_url)
    token = club.tokens["treasurer"]
    server = serve(pg_url)
    session_id, _ = open_session(server.port, token)
    # Warm every worker's pool, so that the freeze catches pooled connections mid-request.
    for _ in range(6):
        http(server.port, "GET", f"/sessions/{session_id}", headers=bearer(token))
    pids = cluster.freeze()  # the postmaster and every backend: SIGSTOP
    try:
        # A pooled connection: the pre-ping is cut at the connect timeout, then a new
        # connection times out connecting. A new one: the connect timeout.
        bound = max(STATEMENT_S + GRACE_S, 2 * CONNECT_S) + 1.5
        took, result = timed(lambda: append(server.port, token, session_id))
        assert_unavailable(result, "database-unavailable")
        assert took < bound, took
        took, result = timed(lambda: http(server.port, "GET", "/readyz", timeout=60))
        assert_unavailable(result, "database-unavailable")
        assert took < bound, took
        took, (status, _, _) = timed(lambda: http(server.port, "GET", "/healthz"))
        assert status == 200 and took < 0.5
    finally:
        cluster.thaw(pids)
    deadline = time.monotonic() + 20
    while http(server.port, "GET", "/readyz")[0] != 200:
        assert time.monotonic() < deadline, "not ready again after the thaw"
        time.sleep(0.2)
    status, _, body = append(server.port, token, session_id)
    assert status == 201, body


def test_new_requests_at_once_during_a_freeze_are_each_a_503_within_the_documented_bound(
        cluster, pg_url, serve, club_for):
    """Eight requests at once on one worker's eight threads, each new after the freeze: none
    waits for another's round trip to the frozen server (docs/operations.md, "Timeouts":
    two connect timeouts, or one statement deadline, whichever is longer)."""
    club = club_for(pg_url)
    token = club.tokens["treasurer"]
    server = serve(pg_url, workers=1, threads=8)
    session_id, _ = open_session(server.port, token)
    for _ in range(8):
        http(server.port, "GET", f"/sessions/{session_id}", headers=bearer(token))
    bound = max(STATEMENT_S + GRACE_S, 2 * CONNECT_S)
    answers: dict[int, tuple[float, Any]] = {}

    def ask(n: int) -> None:
        answers[n] = timed(lambda: http(server.port, "GET", f"/sessions/{session_id}",
                                        headers=bearer(token), timeout=60))

    pids = cluster.freeze()
    try:
        askers = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
    finally:
        cluster.thaw(pids)
    slowest = max(took for took, _ in answers.values())
    EXERCISED.append(f"8 new requests during a freeze: the slowest 503 in {slowest:.2f} s "
                     f"(bound {bound:.1f} s + 0.5 s)")
    for _, result in answers.values():
        assert_unavailable(result, "database-unavailable")
    assert slowest < bound + 0.5, sorted(took for took, _ in answers.values())


# A COMMIT that takes a second on the server (a deferred trigger sleeps in it), so that the
# freeze can catch appends with their COMMIT sent and unanswered.
SLOW_COMMIT = [
    """CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_sleep(1); RETURN NULL; END $$""",
    """CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON events
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()""",
]
IN_COMMIT = text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                 "AND state = 'active' AND query = 'COMMIT'")


def test_appends_in_flight_when_postgresql_freezes_are_answered_within_the_bound(
        cluster, pg_url, serve, club_for, engine_for):
    club = club_for(pg_url)
    token = club.tokens["treasurer"]
    server = serve(pg_url)
    sessions = [open_session(server.port, token)[0] for _ in range(4)]
    watcher = engine_for(pg_url).connect()
    for statement in SLOW_COMMIT:
        watcher.execute(text(statement))
    watcher.commit()
    # a statistics snapshot lasts a transaction: each look is a transaction of its own
    watcher = watcher.execution_options(isolation_level="AUTOCOMMIT")
    bound = max(STATEMENT_S + GRACE_S, 2 * CONNECT_S) + 1.5
    answers: dict[str, tuple[float, Any]] = {}

    def send(session_id: str) -> None:
        result = append(server.port, token, session_id)
        answers[session_id] = (time.monotonic(), result)

    threads = [threading.Thread(target=send, args=(sid,)) for sid in sessions]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    while watcher.execute(IN_COMMIT).scalar() < 2:  # appends waiting on their COMMIT
        assert time.monotonic() < deadline, ("no append reached its COMMIT", answers, list(
            watcher.execute(text("SELECT state, query FROM pg_stat_activity "
                                 "WHERE datname = current_database()"))))
        time.sleep(0.01)
    pids = cluster.freeze()
    frozen_at = time.monotonic()
    try:
        took, result = timed(lambda: http(server.port, "GET", "/readyz", timeout=60))
        assert_unavailable(result, "database-unavailable")
        assert took < 2.0, took  # /readyz answers within 2 s whatever the database does
        for thread in threads:
            thread.join(timeout=bound + 1)
        # frozen for longer than the bound: every answer came while it was frozen
        time.sleep(max(0.0, frozen_at + bound + 1 - time.monotonic()))
        assert len(answers) == len(sessions)
        for session_id, (answered_at, (status, headers, body)) in answers.items():
            assert answered_at - frozen_at < bound, (session_id, answered_at - frozen_at)
            assert status in (201, 503), (status, body)
            if status == 503:
                assert_unavailable((status, headers, body), "database-unavailable")
        assert any(status == 503 for _, (status, _, _) in answers.values())
        EXERCISED.append(
            f"PostgreSQL frozen with {len(sessions)} appends in flight: answered "
            f"{sorted(status for _, (status, _, _) in answers.values())} at most "
            f"{max(at for at, _ in answers.values()) - frozen_at:.2f} s after the freeze "
            f"(bound {bound:.1f} s); /readyz in {took:.2f} s")
    finally:
        cluster.thaw(pids)
    deadline = time.monotonic() + 20
    while http(server.port, "GET", "/readyz")[0] != 200:
        assert time.monotonic() < deadline, "not ready again after the thaw"
        time.sleep(0.2)
    # A 503 for a COMMIT cut in flight is in doubt: the retry with the same key settles it,
    # and the deal is in each log once.
    for session_id in sessions:
        status, _, body = append(server.port, token, session_id)
        assert status == 201, body
        assert events_by_key(engine_for(pg_url), session_id) == {"first-deal": 1}
    watcher.close()
    assert "Traceback" not in server.output()


# --------------------------------------------------------------------- SQLite read-only

def test_a_read_only_sqlite_file_refuses_writes_with_503_and_still_answers_reads(
        sqlite_url, serve, club_for):
    if shutil.which("chattr") is None:
        pytest.skip("no chattr")
    club = club_for(sqlite_url)
    token = club.tokens["treasurer"]
    first = serve(sqlite_url)
    session_id, _ = open_session(first.port, token)
    first.stop()
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    # Immutable: read-only even for root (the tests may run as root, whom chmod does not
    # stop). A connection opened before keeps its writable descriptor (as with chmod), so
    # the server starts after: its connections open the file read-only.
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if made.returncode:
        pytest.skip(f"chattr +i is not supported here: {made.stderr!r}")
    try:
        server = serve(sqlite_url)
        assert_unavailable(append(server.port, token, session_id), "database-read-only")
        assert_unavailable(http(server.port, "POST", "/sessions",
                                {"players": ["A", "B", "C"], "guests": ["A", "B", "C"]},
                                headers=bearer(token)), "database-read-only")
        assert_unavailable(http(server.port, "GET", "/readyz"), "database-read-only")
        for path_ in (f"/sessions/{session_id}", f"/sessions/{session_id}/statement",
                      f"/sessions/{session_id}/events", "/club"):
            status, _, body = http(server.port, "GET", path_, headers=bearer(token))
            assert status == 200, (path_, body)
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    # Writable again: a worker whose pooled connections opened the file read-only answers
    # its next write with one more 503 (and drops those connections); then every write works.
    answers = [append(server.port, token, session_id)[0] for _ in range(4)]
    assert answers[-1] == 201 and set(answers) <= {201, 503}, answers
    assert answers.count(503) <= server.workers, answers


@pytest.mark.parametrize("frozen", ["every file", "the folder and every file",
                                    "the folder, no token epoch yet"])
def test_a_read_only_sqlite_folder_answers_every_request_with_a_token_and_never_a_500(
        sqlite_url, serve, club_for, frozen):
    """The files beside the database (the writers' queue, the token epoch) read-only too, or
    missing and not to be made: a token still signs in (the epoch is read, or every token is
    looked up), reads answer, writes are 503 database-read-only."""
    if shutil.which("chattr") is None:
        pytest.skip("no chattr")
    club = club_for(sqlite_url)
    token = club.tokens["treasurer"]
    first = serve(sqlite_url)
    session_id, _ = open_session(first.port, token)
    first.stop()
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    if frozen == "the folder, no token epoch yet":
        Path(f"{path}.tokens").unlink(missing_ok=True)
    files = sorted(str(p) for p in path.parent.iterdir() if p.name.startswith(path.name))
    targets = files + ([str(path.parent)] if "folder" in frozen else [])
    made = subprocess.run(["chattr", "+i", *targets], capture_output=True)
    if made.returncode:
        pytest.skip(f"chattr +i is not supported here: {made.stderr!r}")
    try:
        server = serve(sqlite_url)
        assert_unavailable(append(server.port, token, session_id), "database-read-only")
        for path_ in (f"/sessions/{session_id}", f"/sessions/{session_id}/events", "/club",
                      "/audit/tokens"):
            status, _, body = http(server.port, "GET", path_,
                                   headers=bearer(club.tokens["admin"]))
            assert status == 200, (path_, body)
        status, _, body = http(server.port, "GET", "/club", headers=bearer("loo_" + "0" * 16
                                                                            + "_" + "x" * 43))
        assert status == 401, body
    finally:
        subprocess.run(["chattr", "-i", *targets], check=True)
    assert "Traceback" not in server.output()


# -------------------------------------------------------------------------- a full disk

def test_a_full_sqlite_database_is_a_503_full_and_nothing_is_half_written(tmp_path):
    url = f"sqlite:///{tmp_path / 'full.db'}"
    engine = make_engine(url)
    app = create_app({"ENGINE": engine, "AUTO_MIGRATE": True, "TESTING": True})
    client = club_client(app, engine)
    response = client.post("/sessions", json={"players": ["A", "B", "C", "D", "E"],
                                               "preset": "blenheim"})
    session = response.get_json()["session_id"]

    @event.listens_for(engine, "connect")
    def _full(dbapi_connection: Any, _: Any) -> None:
        # No page beyond those the file has now: SQLite answers SQLITE_FULL, as on a disk
        # with no room left.
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    engine.dispose()  # new connections, each with the cap
    statuses = set()
    for _ in range(300):  # each session opened takes room, until there is none
        response = client.post("/sessions", json={"players": ["A", "B", "C", "D", "E"],
                                                   "preset": "blenheim", "name": "x" * 150})
        statuses.add(response.status_code)
        assert response.status_code in (201, 503), response.get_json()
        if response.status_code == 503:
            problem = response.get_json()
            assert problem["rule"] == "database-full" and response.headers["Retry-After"]
            break
    assert 503 in statuses, statuses
    assert client.get(f"/sessions/{session}").status_code == 200
    assert client.get("/healthz").status_code == 200
    from ledger.sessions.service import Ledger

    assert Ledger(engine).verify(session) == []
    engine.dispose()
