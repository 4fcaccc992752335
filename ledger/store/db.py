"""Engines: where the database is, and how each backend is made to behave.

SQLite is for one host: WAL lets readers run beside the writer, and every write transaction
starts with BEGIN IMMEDIATE so concurrent writers queue on the busy timeout instead of
failing half way. PostgreSQL (`postgresql+psycopg://`) is for several stateless app hosts.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import socket
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DisconnectionError

ENV_URL = "LOO_DATABASE_URL"
log = logging.getLogger("lanterloo.db")

# Execution option read by the SQLite "begin" hook; harmless elsewhere.
_BEGIN = "lanterloo_begin"
# Execution option of a connection in one snapshot (`one_snapshot`).
_SNAPSHOT = "lanterloo_snapshot"


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, got {raw!r}") from None


@dataclass(frozen=True)
class Limits:
    """How long the app waits on its database, and how many connections it keeps.

    Every wait is bounded, so that a database that is down, frozen or locked is answered with
    a 503 within seconds, never a hang (docs/operations.md, "Timeouts"):

    - `connect_s` (LOO_DB_CONNECT_TIMEOUT, 3 s): opening a connection (libpq connect_timeout).
    - `statement_ms` (LOO_DB_STATEMENT_TIMEOUT_MS, 5000): PostgreSQL's statement_timeout; the
      client also gives up on a statement after this plus `grace_ms` (LOO_DB_CLIENT_GRACE_MS,
      1000) by shutting the socket, for a server that does not answer at all (frozen, or a
      network that drops packets) and so cannot enforce its own timeout. 0 turns both off.
    - `lock_ms` (LOO_DB_LOCK_TIMEOUT_MS, 2000): PostgreSQL's lock_timeout, how long an append
      queues behind another writer's row lock.
    - `idle_in_transaction_ms` (LOO_DB_IDLE_TX_TIMEOUT_MS, 30000): a transaction left open by
      a stuck client is ended by the server.
    - `busy_ms` (LOO_SQLITE_BUSY_TIMEOUT_MS, 5000): SQLite's busy timeout, how long a writer
      waits for another process's write lock.
    - `pool_size`, `max_overflow`, `pool_timeout_s` (LOO_DB_POOL_SIZE 5, LOO_DB_MAX_OVERFLOW
      5, LOO_DB_POOL_TIMEOUT 5): the connection pool of one process; size it to the worker's
      threads (deploy/gunicorn.conf.py does).

    The operator's commands (migrate, copy, verify) run without the statement, lock and idle
    timeouts: a migration may legitimately run for minutes (`Limits.for_operator()`).
    """

    connect_s: int = 3
    statement_ms: int = 5000
    grace_ms: int = 1000
    lock_ms: int = 2000
    idle_in_transaction_ms: int = 30000
    busy_ms: int = 5000
    pool_size: int = 5
    max_overflow: int = 5
    pool_timeout_s: int = 5

    @classmethod
    def from_env(cls) -> Limits:
        return cls(
            connect_s=_env_int("LOO_DB_CONNECT_TIMEOUT", cls.connect_s),
            statement_ms=_env_int("LOO_DB_STATEMENT_TIMEOUT_MS", cls.statement_ms),
            grace_ms=_env_int("LOO_DB_CLIENT_GRACE_MS", cls.grace_ms),
            lock_ms=_env_int("LOO_DB_LOCK_TIMEOUT_MS", cls.lock_ms),
            idle_in_transaction_ms=_env_int("LOO_DB_IDLE_TX_TIMEOUT_MS",
                                            cls.idle_in_transaction_ms),
            busy_ms=_env_int("LOO_SQLITE_BUSY_TIMEOUT_MS", cls.busy_ms),
            pool_size=_env_int("LOO_DB_POOL_SIZE", cls.pool_size),
            max_overflow=_env_int("LOO_DB_MAX_OVERFLOW", cls.max_overflow),
            pool_timeout_s=_env_int("LOO_DB_POOL_TIMEOUT", cls.pool_timeout_s),
        )

    @classmethod
    def for_operator(cls) -> Limits:
        """The environment's limits without the statement, lock and idle timeouts."""
        limits = cls.from_env()
        return cls(**{**limits.__dict__, "statement_ms": 0, "lock_ms": 0,
                      "idle_in_transaction_ms": 0, "busy_ms": max(limits.busy_ms, 30000)})

    @property
    def client_deadline_s(self) -> float | None:
        """How long the client waits on one statement before it cuts the connection."""
        if self.statement_ms <= 0:
            return None
        return (self.statement_ms + max(self.grace_ms, 0)) / 1000


def env_number(name: str, default: float, unit: str = "a number") -> float:
    """The variable `name` as a number not below 0 (seconds, milliseconds...), `default` when
    it is unset or blank; anything else stops the process naming it."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise SystemExit(f"{name} must be {unit} not below 0, got {raw!r}")
    return value


def env_or_file(name: str) -> str | None:
    """The variable `name`, or the contents of the file `<name>_FILE` names (a container's
    secret), stripped; None when neither is set."""
    value = os.environ.get(name)
    if value:
        return value
    path = os.environ.get(f"{name}_FILE")
    if path:
        return Path(path).read_text().strip() or None
    return None


ENV_INSTANCE = "LOO_INSTANCE_DIR"


def instance_folder() -> Path:
    """The instance folder: what the service keeps outside the code (the default SQLite
    file, the checkpoint key and log). LOO_INSTANCE_DIR, else `instance` in the checkout the
    code runs from (beside pyproject.toml), else <sys.prefix>/var/lanterloo-instance for an
    installed package (as Flask places an instance folder); an absolute path whatever the
    current directory."""
    configured = os.environ.get(ENV_INSTANCE, "").strip()
    if configured:
        return Path(configured).expanduser().resolve()
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file():
        return checkout / "instance"
    return Path(sys.prefix).resolve() / "var" / "lanterloo-instance"


def default_url() -> str:
    """LOO_DATABASE_URL (or the file LOO_DATABASE_URL_FILE names), else a SQLite file in
    the instance folder (created if missing)."""
    url = env_or_file(ENV_URL)
    if url:
        return url
    folder = instance_folder()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'lanterloo.db'}"


def make_engine(url: str | URL | None = None, *, limits: Limits | None = None,
                operator: bool = False, **options: Any) -> Engine:
    """An engine for `url` (default: `default_url()`); `options` go to create_engine.

    `limits` default to the environment's (`Limits.from_env()`), or the operator's
    (`operator=True`: no statement or lock timeout, for migrations and copies).
    """
    if limits is None:
        limits = Limits.for_operator() if operator else Limits.from_env()
    # JSON columns read back with orjson, as the service reads the JSON it fetches as text:
    # the same values, at a sixth less CPU on the trail's and the series' reads
    # (docs/performance-log.md, 2026-11-26 08:20).
    options.setdefault("json_deserializer", orjson.loads)
    parsed = make_url(url if url is not None else default_url())
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        engine = create_engine(parsed, **options)
        _configure_sqlite(engine, limits)
        return engine
    if backend in ("postgresql", "postgres"):
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        parsed = _with_server_timeouts(parsed, limits)
        settings: dict[str, Any] = {
            "pool_size": limits.pool_size,
            "max_overflow": limits.max_overflow,
            "pool_timeout": limits.pool_timeout_s,
            # A failover or idle cut-off must not surface as a 500: a connection that sat
            # idle in the pool for PING_IDLE_SECONDS is pinged before it is handed out
            # (_ping_when_idle). One in steady use is not: a ping per checkout was a round
            # trip per request (docs/performance.md).
            "pool_pre_ping": False,
            "pool_recycle": 1800,
        }
        if "connect_timeout" not in parsed.query:
            settings["connect_args"] = {"connect_timeout": max(limits.connect_s, 1)}
        settings.update(options)
        engine = create_engine(parsed, **settings)
        if parsed.drivername == "postgresql+psycopg":
            _install_client_deadline(engine, limits)
        if not settings["pool_pre_ping"]:
            _ping_when_idle(engine)
        return engine
    return create_engine(parsed, **options)


def _with_server_timeouts(url: URL, limits: Limits) -> URL:
    """The URL with the server-side timeouts added to libpq's `options` (kept: whatever the
    URL already sets there, such as a search_path; a timeout it sets itself wins)."""
    existing = url.query.get("options", "")
    if isinstance(existing, tuple):
        existing = " ".join(existing)
    settings = {
        "statement_timeout": limits.statement_ms,
        "lock_timeout": limits.lock_ms,
        "idle_in_transaction_session_timeout": limits.idle_in_transaction_ms,
    }
    extra = [f"-c {name}={max(value, 0)}" for name, value in settings.items()
             if name not in existing]
    if not extra:
        return url
    return url.update_query_dict({"options": " ".join([existing, *extra]).strip()})


# -- the client-side deadline --------------------------------------------------------------

class _Watchdog:
    """One thread per process that shuts the socket of a statement past its deadline.

    A server that is frozen (SIGSTOP, a hung VM) or unreachable mid-statement never answers,
    so its own statement_timeout never fires and the kernel keeps the TCP connection open:
    the only bound is the client's. Arming and disarming are a dict operation under a lock;
    the thread wakes four times a second while anything is armed.
    """

    TICK_S = 0.25

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: dict[int, tuple[float, Callable[[], int]]] = {}
        self._heap: list[tuple[float, int]] = []
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        self.cut = 0  # statements cut so far (for the metrics and the tests)

    def arm(self, seconds: float, fileno: Callable[[], int]) -> int:
        token = next(self._ids)
        deadline = time.monotonic() + seconds
        with self._lock:
            self._armed[token] = (deadline, fileno)
            heapq.heappush(self._heap, (deadline, token))
            if self._thread is None or self._pid != os.getpid():
                self._pid = os.getpid()  # a forked child starts its own thread
                self._thread = threading.Thread(target=self._run, name="lanterloo-db-watchdog",
                                                daemon=True)
                self._thread.start()
        return token

    def disarm(self, token: int) -> None:
        with self._lock:
            self._armed.pop(token, None)

    def _run(self) -> None:
        while True:
            time.sleep(self.TICK_S)
            now = time.monotonic()
            due: list[Callable[[], int]] = []
            with self._lock:
                while self._heap and (self._heap[0][0] <= now
                                      or self._heap[0][1] not in self._armed):
                    _, token = heapq.heappop(self._heap)
                    entry = self._armed.pop(token, None)
                    if entry is not None:
                        due.append(entry[1])
            for fileno in due:
                self._cut(fileno)

    def _cut(self, fileno: Callable[[], int]) -> None:
        try:
            fd = fileno()
            # shutdown() acts on the socket itself, so a duplicate descriptor will do; the
            # blocked read in the request's thread then returns at once with an error.
            sock = socket.socket(fileno=os.dup(fd))
            try:
                sock.shutdown(socket.SHUT_RDWR)
            finally:
                sock.close()
            self.cut += 1
            log.warning("database statement past its client deadline: connection cut")
        except OSError:
            pass  # the connection closed meanwhile


WATCHDOG = _Watchdog()
_WATCH_KEY = "lanterloo_watchdog"


_DEADLINES: weakref.WeakKeyDictionary[Engine, float] = weakref.WeakKeyDictionary()
_CONNECT_S: weakref.WeakKeyDictionary[Engine, float] = weakref.WeakKeyDictionary()


@contextmanager
def bounded(conn: Connection) -> Iterator[None]:
    """The client-side deadline around work on the connection's driver itself (the
    append's statements, sent straight to psycopg), which runs no cursor event of
    SQLAlchemy's to arm it."""
    raw = conn.connection.driver_connection
    with deadline_on(conn.engine, lambda: int(raw.pgconn.socket)):  # type: ignore[union-attr]
        yield


@contextmanager
def deadline_on(engine: Engine, fileno: Callable[[], int],
                seconds: float | None = None) -> Iterator[None]:
    """The engine's client-side deadline (or `seconds`) around a wait on the socket
    `fileno` gives."""
    deadline = seconds if seconds is not None \
        else _DEADLINES.get(getattr(engine, "_proxied", engine))
    if deadline is None:
        yield
        return
    token = WATCHDOG.arm(deadline, fileno)
    try:
        yield
    finally:
        WATCHDOG.disarm(token)


def connect_timeout_s(engine: Engine) -> float:
    """How long a connection of the engine's may take to be made (Limits.connect_s)."""
    return _CONNECT_S.get(getattr(engine, "_proxied", engine), Limits.connect_s)


def _install_client_deadline(engine: Engine, limits: Limits) -> None:
    _CONNECT_S[engine] = max(limits.connect_s, 1)
    deadline = limits.client_deadline_s
    if deadline is None:
        return
    _DEADLINES[engine] = deadline
    ping_deadline = float(max(limits.connect_s, 1))

    def fileno_of(dbapi_connection: Any) -> Callable[[], int]:
        return lambda: int(dbapi_connection.pgconn.socket)

    @event.listens_for(engine, "before_cursor_execute")
    def _arm(conn: Connection, cursor: Any, statement: Any, parameters: Any, context: Any,
             executemany: bool) -> None:
        conn.info[_WATCH_KEY] = WATCHDOG.arm(deadline, fileno_of(cursor.connection))

    @event.listens_for(engine, "after_cursor_execute")
    def _disarm(conn: Connection, cursor: Any, statement: Any, parameters: Any,
                context: Any, executemany: bool) -> None:
        token = conn.info.pop(_WATCH_KEY, None)
        if token is not None:
            WATCHDOG.disarm(token)

    @event.listens_for(engine, "handle_error")
    def _disarm_on_error(context: Any) -> None:
        conn = context.connection
        token = conn.info.pop(_WATCH_KEY, None) if conn is not None else None
        if token is not None:
            WATCHDOG.disarm(token)

    # The pool's pre-ping runs no cursor event: bound it too (SQLAlchemy calls the dialect's
    # do_ping on checkout; a frozen server would hold it forever).
    dialect = engine.dialect
    ping = dialect.do_ping

    def do_ping(dbapi_connection: Any) -> bool:
        token = WATCHDOG.arm(ping_deadline, fileno_of(dbapi_connection))
        try:
            return bool(ping(dbapi_connection))
        finally:
            WATCHDOG.disarm(token)

    dialect.do_ping = do_ping  # type: ignore[method-assign]

    # Nor do COMMIT and ROLLBACK (the DBAPI connection's own commit() and rollback(), which
    # the pool's reset on return calls too): a COMMIT sent just before the server froze
    # would wait for as long as it stays frozen. Bound each by the statement's deadline; a
    # COMMIT cut so is in doubt (the server may still commit it), which a retry with the
    # same Idempotency-Key settles (docs/operations.md, "Timeouts").
    for name in ("do_commit", "do_rollback"):
        setattr(dialect, name, _within_deadline(getattr(dialect, name), deadline, fileno_of))


def _within_deadline(call: Callable[[Any], None], seconds: float,
                     fileno_of: Callable[[Any], Callable[[], int]]) -> Callable[[Any], None]:
    """`call(dbapi_connection)` under the client-side deadline of `seconds`."""

    def bounded_call(dbapi_connection: Any) -> None:
        token = WATCHDOG.arm(seconds, fileno_of(dbapi_connection))
        try:
            call(dbapi_connection)
        finally:
            WATCHDOG.disarm(token)

    return bounded_call


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


def _configure_sqlite(engine: Engine, limits: Limits) -> None:
    # SQLAlchemy docs, "Transactions with SQLite and the sqlite3 driver": turn off the
    # driver's own BEGIN handling and emit BEGIN ourselves.
    in_memory = engine.url.database in (None, "", ":memory:")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            if not in_memory:
                try:
                    cursor.execute("PRAGMA journal_mode=WAL")
                except Exception as error:  # a read-only file: reads still work, writes 503
                    log.warning("SQLite: cannot switch to WAL (%s); reads only", error)
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={max(limits.busy_ms, 0)}")
        finally:
            cursor.close()

    @event.listens_for(engine, "handle_error")
    def _reopen_after_read_only(context: Any) -> None:
        # A file opened while it was read-only stays read-only for that connection: drop the
        # connection, so that one opened after the file is writable again can write.
        if "readonly" in str(context.original_exception).lower():
            context.is_disconnect = True

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(_BEGIN, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def writer(engine: Engine) -> Engine:
    """The same engine, whose transactions take the write lock up front on SQLite.

    Made once per engine and kept on it: `Engine.execution_options` builds a new engine
    object each call, with its own event registrations (docs/performance.md)."""
    return derived(engine, "lanterloo_writer",
                   lambda: engine.execution_options(**{_BEGIN: "IMMEDIATE"}))


T = TypeVar("T")


def derived(engine: Engine, name: str, make: Callable[[], T]) -> T:
    """`make()`, made once per engine and kept on it under `name`."""
    made: T | None = engine.__dict__.get(name)
    if made is None:
        made = engine.__dict__[name] = make()
    return made


def clock(conn: Connection) -> datetime:
    """The database's time now, in UTC: what stamps every entry of a log (events, book
    entries, club log entries), so that an entry's time is never an app host's and a read as
    of a time never changes after the fact, whatever the hosts' clocks say. PostgreSQL:
    clock_timestamp(), the moment it is read (not its transaction's start: a writer stamps
    after it holds its log, so times run in the log's order). SQLite: the database lives on
    this one host, whose clock is its clock."""
    if conn.dialect.name == "postgresql":
        moment: datetime = conn.execute(text("SELECT clock_timestamp()")).scalar_one()
        return moment.astimezone(UTC)
    return datetime.now(UTC)


@contextmanager
def one_snapshot(conn: Connection) -> Iterator[Connection]:
    """`conn` in one transaction, rolled back after: every statement in it sees the
    database as of one moment (the caller has set the isolation level that makes it so:
    ledger/store/base.py `Store.consistent`), and says so (`in_snapshot`)."""
    conn.execution_options(**{_SNAPSHOT: True})
    with conn.begin() as tx:
        yield conn
        tx.rollback()


class NotOneSnapshot(AssertionError):
    """A check that compares two reads was given a connection whose statements may each
    see another moment: a bug of the ledger's."""


def in_snapshot(conn: Connection) -> bool:
    """Whether `conn` reads in one snapshot (`one_snapshot`)."""
    return bool(conn.get_execution_options().get(_SNAPSHOT)) and conn.in_transaction()


@contextmanager
def connection_for(url_or_engine: str | URL | Engine | None) -> Iterator[Connection]:
    """A connection in a transaction; an engine made here from a URL is disposed after."""
    if isinstance(url_or_engine, Engine):
        with url_or_engine.begin() as conn:
            yield conn
        return
    engine = make_engine(url_or_engine, operator=True)
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        engine.dispose()
