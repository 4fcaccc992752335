"""Backup and restore with pg_dump, and `lanterloo copy` from SQLite to PostgreSQL: the copy
holds every session whole (its chain and projections verify) and every token still works."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import func, select

from api.cli.main import main
from ledger.sessions.service import Ledger
from ledger.store.tables import events
from ledger.writes import WriteRequest
from tests.clubs import club_ledger
from tests.support.projected import all_sessions
from tests.support.sessions import RandomChooser, SessionShape, play_session

from .harness import PG_BIN, PrivateCluster, http
from .table import bearer


def fill(url: str, engine_for, sessions: int = 3) -> list[str]:
    """The demo session and a few random ones, recorded through the ledger."""
    assert main(["demo", "--database-url", url]) == 0
    ledger = club_ledger(engine_for(url))
    made = []
    for seed in range(sessions):
        played = play_session(RandomChooser(seed), shape=SessionShape(max_deals=4))
        opened = ledger.open_session(played.opening, WriteRequest("cli"))
        sid = opened.body["session_id"]
        for step in played.steps[1:]:
            if step.accepted:
                ledger.append(sid, [step.command], WriteRequest("cli"))
        made.append(sid)
    return made


def lanterloo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "lanterloo"), *args],
                          capture_output=True, text=True, timeout=300)


def test_a_pg_dump_restored_into_a_fresh_database_verifies_session_by_session(
        cluster: PrivateCluster, pg_url, engine_for, tmp_path):
    made = fill(pg_url, engine_for)
    name = pg_url.rsplit("/", 1)[1]
    dump = tmp_path / "lanterloo.dump"
    subprocess.run([str(PG_BIN / "pg_dump"), "-h", "127.0.0.1", "-p", str(cluster.port),
                    "-U", "postgres", "-Fc", "-f", str(dump), name], check=True)
    restored = cluster.create_database(f"{name}_restored")
    subprocess.run([str(PG_BIN / "pg_restore"), "-h", "127.0.0.1", "-p", str(cluster.port),
                    "-U", "postgres", "--no-owner", "--exit-on-error", "-d",
                    restored.rsplit("/", 1)[1], str(dump)], check=True)
    sessions = all_sessions(engine_for(restored))
    assert set(made) <= set(sessions) and len(sessions) == len(made) + 1
    result = lanterloo("verify", "--all", "--database-url", restored)
    assert result.returncode == 0, result.stdout + result.stderr
    for session_id in sessions:
        assert f"session {session_id}: the projections agree" in result.stdout
    # The restored log goes on: the append-only triggers and the position sequence came too.
    engine = engine_for(restored)
    with engine.connect() as conn:
        before = conn.scalar(select(func.max(events.c.position)))
    ledger = club_ledger(engine)
    played = play_session(RandomChooser(99), shape=SessionShape(max_deals=1))
    opened = ledger.open_session(played.opening, WriteRequest("cli"))
    assert opened.body["appended"][0]["position"] > before


def test_copy_from_sqlite_to_postgresql_verifies_and_keeps_every_token(
        sqlite_url, pg_url, engine_for, club_for, serve):
    club = club_for(sqlite_url)
    made = fill(sqlite_url, engine_for)
    result = lanterloo("copy", "--from", sqlite_url, "--to", pg_url)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every session's chain and projections verify" in result.stdout
    source, target = engine_for(sqlite_url), engine_for(pg_url)
    assert all_sessions(target) == all_sessions(source)
    for session_id in made:
        assert Ledger(target).verify(session_id) == []
        assert Ledger(target).statement(session_id) == Ledger(source).statement(session_id)
    # The club's tokens work against the copy, and the log goes on after the copied one.
    server = serve(pg_url, workers=1)
    status, _, me = http(server.port, "GET", "/club", headers=bearer(club.tokens["admin"]))
    assert status == 200 and me["club_id"] == club.club_id
    status, _, opened = http(server.port, "POST", "/sessions",
                             {"players": ["A", "B", "C"], "guests": ["A", "B", "C"]},
                             headers=bearer(club.tokens["treasurer"]))
    assert status == 201, opened
    with source.connect() as conn:
        last = conn.scalar(select(func.max(events.c.position)))
    assert opened["appended"][0]["position"] > last
    # A target that holds anything is refused, and left as it was.
    again = lanterloo("copy", "--from", sqlite_url, "--to", pg_url)
    assert again.returncode == 1 and "not empty" in again.stderr


def test_rebuild_restores_projections_a_dba_damaged(any_url, engine_for):
    from sqlalchemy import update

    from ledger.store.tables import sessions

    (session_id,) = fill(any_url, engine_for, sessions=1)
    engine = engine_for(any_url)
    with engine.begin() as conn:
        conn.execute(update(sessions).where(sessions.c.id == session_id)
                     .values(state={"broken": True}))
    assert Ledger(engine).verify(session_id)
    result = lanterloo("rebuild", session_id, "--database-url", any_url)
    assert result.returncode == 0, result.stdout + result.stderr
    assert Ledger(engine).verify(session_id) == []
