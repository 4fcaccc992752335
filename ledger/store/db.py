"""Engines: where the database is, and how each backend is made to behave.

SQLite is for one host: WAL lets readers run beside the writer, and every write transaction
starts with BEGIN IMMEDIATE so concurrent writers queue on the busy timeout instead of
failing half way. PostgreSQL (`postgresql+psycopg://`) is for several stateless app hosts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DisconnectionError

ENV_URL = "LOO_DATABASE_URL"
SQLITE_BUSY_TIMEOUT_MS = 10_000

# Execution option read by the SQLite "begin" hook; harmless elsewhere.
_BEGIN = "lanterloo_begin"


def default_url() -> str:
    """LOO_DATABASE_URL, else a SQLite file in ./instance (created if missing)."""
    url = os.environ.get(ENV_URL)
    if url:
        return url
    folder = Path.cwd() / "instance"
    folder.mkdir(exist_ok=True)
    return f"sqlite:///{folder / 'lanterloo.db'}"


def make_engine(url: str | URL | None = None, **options: Any) -> Engine:
    """An engine for `url` (default: `default_url()`); `options` go to create_engine."""
    parsed = make_url(url if url is not None else default_url())
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        engine = create_engine(parsed, **options)
        _configure_sqlite(engine)
        return engine
    if backend in ("postgresql", "postgres"):
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        settings: dict[str, Any] = {
            "pool_size": 5,
            "max_overflow": 10,
            "pool_timeout": 10,
            # A failover or idle cut-off must not surface as a 500: a connection that sat
            # idle in the pool for PING_IDLE_SECONDS is pinged before it is handed out
            # (_ping_when_idle). One in steady use is not: a ping per checkout was a round
            # trip per request (docs/performance.md).
            "pool_pre_ping": False,
            "pool_recycle": 1800,
        }
        settings.update(options)
        engine = create_engine(parsed, **settings)
        if not settings["pool_pre_ping"]:
            _ping_when_idle(engine)
        return engine
    return create_engine(parsed, **options)


PING_IDLE_SECONDS = 1.0
_IDLE_SINCE = "lanterloo_idle_since"


def _ping_when_idle(engine: Engine) -> None:
    """SQLAlchemy's pre-ping, for connections idle longer than PING_IDLE_SECONDS only."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since < PING_IDLE_SECONDS:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            # The pool throws the connection away and makes a new one (SQLAlchemy,
            # "Disconnect Handling - Pessimistic, custom").
            raise DisconnectionError(str(error)) from error
        if not alive:
            raise DisconnectionError("the connection did not answer a ping")


def _configure_sqlite(engine: Engine) -> None:
    # SQLAlchemy docs, "Transactions with SQLite and the sqlite3 driver": turn off the
    # driver's own BEGIN handling and emit BEGIN ourselves.
    in_memory = engine.url.database in (None, "", ":memory:")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            if not in_memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(_BEGIN, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def writer(engine: Engine) -> Engine:
    """The same engine, whose transactions take the write lock up front on SQLite."""
    return engine.execution_options(**{_BEGIN: "IMMEDIATE"})


@contextmanager
def connection_for(url_or_engine: str | URL | Engine | None) -> Iterator[Connection]:
    """A connection in a transaction; an engine made here from a URL is disposed after."""
    if isinstance(url_or_engine, Engine):
        with url_or_engine.begin() as conn:
            yield conn
        return
    engine = make_engine(url_or_engine)
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        engine.dispose()
