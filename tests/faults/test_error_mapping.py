"""Which database failures are the database's (a 503 naming the reason) and which stay 500s:
PostgreSQL's by SQLSTATE, SQLite's by extended code or text."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import exc

from api.http.errors import database_reason


class PgError(Exception):
    def __init__(self, sqlstate: str | None, text: str = "error"):
        super().__init__(text)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(("sqlstate", "reason"), [
    ("08006", "database-unavailable"), ("08001", "database-unavailable"),
    ("57P01", "database-unavailable"), ("57P03", "database-unavailable"),
    ("53300", "database-unavailable"), ("25006", "database-read-only"),
    ("53100", "database-full"), ("55P03", "database-busy"), ("57014", "database-busy"),
    ("40001", "database-busy"), ("40P01", "database-busy"),
    ("23505", None), ("42P01", None), ("22P02", None),
])
def test_postgresql_errors_by_sqlstate(sqlstate, reason):
    error = exc.OperationalError("SELECT 1", {}, PgError(sqlstate))
    if reason is None:
        error = exc.IntegrityError("SELECT 1", {}, PgError(sqlstate))
    assert database_reason(error) == reason


@pytest.mark.parametrize(("text", "reason"), [
    ("attempt to write a readonly database", "database-read-only"),
    ("database or disk is full", "database-full"),
    ("database is locked", "database-busy"),
    ("unable to open database file", "database-unavailable"),
    ("disk I/O error", "database-unavailable"),
])
def test_sqlite_errors_by_text(text, reason):
    assert database_reason(exc.OperationalError("x", {}, sqlite3.OperationalError(text))) \
        == reason


def test_a_constraint_or_a_bug_stays_a_500():
    assert database_reason(exc.IntegrityError(
        "x", {}, sqlite3.IntegrityError("UNIQUE constraint failed: events.stream_id"))) is None
    assert database_reason(ValueError("a bug")) is None


def test_no_connection_at_all_and_an_empty_pool():
    assert database_reason(exc.OperationalError(
        "x", {}, PgError(None, "connection refused"))) == "database-unavailable"
    assert database_reason(exc.TimeoutError("QueuePool limit reached")) == "database-busy"


# A child process under a file-size limit (RLIMIT_FSIZE) records sessions on SQLite until a
# write is refused: Python ignores SIGXFSZ, so write(2) fails with EFBIG and SQLite says
# "disk I/O error" (SQLITE_IOERR_WRITE), where a full disk (ENOSPC) says SQLITE_FULL.
_UNDER_A_FILE_SIZE_LIMIT = """
import resource, sys
from api import create_app
from ledger.store.db import make_engine
from tests.clubs import club_client

url = sys.argv[1]
engine = make_engine(url)
app = create_app({"ENGINE": engine, "AUTO_MIGRATE": True, "TESTING": True})
client = club_client(app, engine)
size = __import__("os").path.getsize(url.removeprefix("sqlite:///"))
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 64 * 1024, resource.RLIM_INFINITY))
for _ in range(2000):
    response = client.post("/sessions", json={"players": ["A", "B", "C", "D", "E"],
                                               "preset": "blenheim", "name": "x" * 150})
    if response.status_code != 201:
        print(response.status_code, response.get_json().get("rule"))
        break
"""


def test_a_file_size_limit_on_sqlite_is_a_503_database_full(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    url = f"sqlite:///{tmp_path / 'limited.db'}"
    done = subprocess.run([sys.executable, "-c", _UNDER_A_FILE_SIZE_LIMIT, url],
                          capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.split() == ["503", "database-full"], (done.stdout, done.stderr[-2000:])


def test_sqlite_errors_by_extended_code():
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorname = "SQLITE_IOERR_WRITE"  # type: ignore[attr-defined]
    assert database_reason(exc.OperationalError("x", {}, error)) == "database-full"
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorname = "SQLITE_IOERR_READ"  # type: ignore[attr-defined]
    assert database_reason(exc.OperationalError("x", {}, error)) == "database-unavailable"
