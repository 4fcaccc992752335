"""The bearer token's lookup (ledger/store/clubstore.py) on PostgreSQL runs on psycopg's cursor.

It must read what SQLAlchemy's execution of the same statement reads, run the engine's cursor
events (the client-side deadline) as that does, and handle a driver's error as that does: a
lost connection is a 503 and is not handed out again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.pool import NullPool

from api import create_app
from ledger.clubs import Clubs
from ledger.store import clubstore, db
from ledger.store.tables import tokens
from tests.clubs import make_club

from .conftest import assert_problem


def core_row(conn, token_id: str):
    return conn.execute(clubstore._AUTHENTICATION, {"token_id": token_id}).first()


def as_dict(row) -> dict:
    return row._asdict() if hasattr(row, "_asdict") else dict(row._mapping)


def test_the_lookup_reads_what_sqlalchemy_reads(engine):
    club = make_club(engine)
    clubs = Clubs(engine)
    later = datetime.now(UTC) + timedelta(days=3)
    with engine.begin() as conn:
        conn.execute(update(tokens).where(tokens.c.id == club.token_ids["dealer"])
                     .values(expires_at=later))
    clubs.revoke_token(club.token_ids["auditor"], club_id=club.club_id)
    with clubs._reader.connect() as conn:
        for token_id in [*club.token_ids.values(), "0123456789abcdef"]:
            fast, core = clubstore.token_for_authentication(conn, token_id), \
                core_row(conn, token_id)
            if core is None:
                assert fast is None
                continue
            assert tuple(fast) == tuple(core)
            assert as_dict(fast) == dict(core._mapping)
            assert fast.secret_hash and fast.club_name == club.name
    assert clubs.authenticate(club.tokens["dealer"]) is not None
    assert clubs.authenticate(club.tokens["auditor"]) is None  # revoked: at once


def test_the_lookup_runs_under_the_client_deadline(engine, monkeypatch):
    """The engine's cursor events arm and disarm the deadline around the lookup exactly as
    around a statement SQLAlchemy executes."""
    club = make_club(engine)
    calls = {"arm": 0, "disarm": 0}
    arm, disarm = db.WATCHDOG.arm, db.WATCHDOG.disarm

    def counted_arm(*args):
        calls["arm"] += 1
        return arm(*args)

    def counted_disarm(*args):
        calls["disarm"] += 1
        return disarm(*args)

    monkeypatch.setattr(db.WATCHDOG, "arm", counted_arm)
    monkeypatch.setattr(db.WATCHDOG, "disarm", counted_disarm)
    reader = Clubs(engine)._reader
    with reader.connect() as conn:
        core_row(conn, club.token_ids["admin"])
    by_sqlalchemy = dict(calls)
    calls.update(arm=0, disarm=0)
    with reader.connect() as conn:
        clubstore.token_for_authentication(conn, club.token_ids["admin"])
    assert calls == by_sqlalchemy
    if engine.dialect.name == "postgresql":
        assert calls == {"arm": 1, "disarm": 1}


def test_a_lost_connection_is_invalidated_and_not_used_again(engine):
    if engine.dialect.name != "postgresql":
        pytest.skip("a server-side disconnect needs PostgreSQL")
    club = make_club(engine)
    engine.dispose()  # then one connection in the pool: the one cut below
    clubs = Clubs(engine)
    assert clubs.authenticate(club.tokens["treasurer"]) is not None
    with clubs._reader.connect() as conn:
        pid = conn.connection.driver_connection.info.backend_pid
    killer = create_engine(engine.url, poolclass=NullPool)
    with killer.connect() as other:
        other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
    killer.dispose()
    with clubs._reader.connect() as conn:
        if conn.connection.driver_connection.info.backend_pid != pid:
            pytest.skip("the pool handed out another connection")
        with pytest.raises(sa_exc.DBAPIError) as raised:
            clubstore.token_for_authentication(conn, club.token_ids["treasurer"])
    assert raised.value.connection_invalidated
    assert isinstance(raised.value, sa_exc.OperationalError)
    assert clubs.authenticate(club.tokens["treasurer"]) is not None  # a fresh connection


def test_a_database_error_in_the_lookup_is_a_503(engine, monkeypatch):
    club = make_club(engine)
    app = create_app({"ENGINE": engine, "TESTING": True})
    client = app.test_client()
    dbapi_error = engine.dialect.loaded_dbapi.OperationalError

    class Broken:
        def __init__(self, real):
            self.real = real

        def execute(self, *args, **kwargs):
            raise dbapi_error("the server closed the connection unexpectedly")

        def __getattr__(self, name):
            return getattr(self.real, name)

    if engine.dialect.driver == "psycopg":
        from psycopg import Connection as PsycopgConnection

        cursor = PsycopgConnection.cursor
        monkeypatch.setattr(PsycopgConnection, "cursor",
                            lambda self, *a, **k: Broken(cursor(self, *a, **k)))
    else:
        monkeypatch.setattr(clubstore, "token_for_authentication",
                            lambda conn, token_id: (_ for _ in ()).throw(
                                sa_exc.OperationalError("SELECT", {}, dbapi_error("gone"))))
    response = client.get("/sessions/no-such-session", headers=club.headers("treasurer"))
    problem = assert_problem(response, 503)
    assert problem["type"].endswith("database-unavailable"), problem
    assert response.headers.get("Retry-After")
