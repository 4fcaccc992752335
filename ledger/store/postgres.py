"""The store on PostgreSQL: a session's write is conditional on the version it was decided on.

A write reads the stream's row without locking it, decides, and writes in one statement:
the row moved from the version the write was decided on, the events inserted and the deal
views upserted only where it moved (`WRITE_SESSION`). No row moved: another write came
first (VersionMoved; ledger/writes.py answers 409, or decides again for a request that named
no version). Two writers of one session meet only in that statement, where the second waits
for the first's row (up to the role's lock_timeout, ledger/store/db.py) and then finds it
moved. Writers to different sessions never wait for each other.

The statements go straight to psycopg's connection, one after the other (its pipeline mode
saves round trips, but costs more CPU in the service and in the server than it saves:
docs/performance-log.md, 2026-11-26). While the transaction has not begun, a statement runs
on its own (`_alone`): the head's read needs no BEGIN, and a write that is the transaction's
only statement is atomic by itself and commits as it runs: a single append is two round
trips. The statements run under the engine's client-side deadline (`db.bounded`), and their
errors are handled as SQLAlchemy handles a statement's (`_driver`).
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any

import orjson
from psycopg.types.json import set_json_loads
from sqlalchemy import Connection, delete, event, text
from sqlalchemy.exc import IntegrityError, OperationalError

from .base import (
    PAGE,
    EventRow,
    Head,
    Rebuilt,
    SessionWrite,
    Store,
    StoredReply,
    Tx,
    VersionMoved,
    by_club,
    by_stream,
    club_exists,
    club_is,
)
from .chain import GENESIS
from .db import bounded, connect_timeout_s, deadline_on, derived, one_snapshot
from .partitions import table_of
from .tables import deal_views

# The database's clock comes with the head (db.clock): it stamps the write's events.
_HEAD_ANY_SQL = ("SELECT version, head_hash, state::text, club_id, shape, clock_timestamp() "
                 "FROM sessions WHERE id = %s")
_HEAD_SQL = ("SELECT version, head_hash, state::text, club_id, shape, clock_timestamp() "
             "FROM sessions WHERE id = %s AND club_id = %s")
_CLOCK_SQL = "SELECT clock_timestamp()"
_REPLY_ANY_SQL = ("SELECT fingerprint, response::text FROM idempotency_keys "
                  "WHERE scope = %s AND key = %s")
_REPLY_SQL = _REPLY_ANY_SQL + " AND club_id = %s"

# The session's row moves from the version the write was decided on (`moved`), or is
# created (`created`, a new session); the events, the deal views and the snapshot when one
# is due are written only where it did. No row comes back when it did not: VersionMoved. The
# events and the views go as one JSON document each (json_to_recordset); a `json` column
# keeps the text it is given.
_WRITE = (
    "WITH {row}, "
    "snapped AS (INSERT INTO snapshots (session_id, club_id, version, state) "
    "SELECT %(id)s, %(club)s, %(version)s, %(state)s::json "
    "WHERE %(snapshot)s AND EXISTS (SELECT 1 FROM {row_name})), "
    "viewed AS (INSERT INTO deal_views (session_id, club_id, deal_no, version, view) "
    "SELECT %(id)s, %(club)s, w.d, %(version)s, w.w FROM json_to_recordset(%(views)s::json) "
    "AS w(d int, w json) WHERE EXISTS (SELECT 1 FROM {row_name}) "
    # the view's primary key by its name: (club, session, deal) from migration 0018, and
    # (session, deal) at 0017, where `lanterloo club attach` writes too
    "ON CONFLICT ON CONSTRAINT pk_deal_views "
    "DO UPDATE SET version = excluded.version, view = excluded.view), "
    "inserted AS (INSERT INTO events (club_id, stream_id, version, type, schema_version, "
    "payload, recorded_at, actor, idempotency_key, member_id, token_id, hash) "
    "SELECT %(club)s, %(id)s, e.v, e.t, e.sv, e.p, %(now)s, %(actor)s, %(key)s, %(member)s, "
    "%(token)s, e.h FROM json_to_recordset(%(events)s::json) "
    "AS e(v int, t text, sv smallint, p json, h text) "
    "WHERE EXISTS (SELECT 1 FROM {row_name}) ORDER BY e.v RETURNING position, version) "
    "SELECT position FROM inserted ORDER BY version")
_MOVED = ("moved AS (UPDATE sessions SET club_id = %(club)s, version = %(version)s, "
          "state = %(state)s::json, head_hash = %(head)s, updated_at = %(now)s, "
          "shape = %(shape)s WHERE {club} AND id = %(id)s AND version = %(old)s "
          "RETURNING 1)")
_CREATED = ("created AS (INSERT INTO sessions (id, club_id, version, state, head_hash, "
            "created_at, updated_at, shape) VALUES (%(id)s, %(club)s, %(version)s, "
            "%(state)s::json, %(head)s, %(now)s, %(now)s, %(shape)s) RETURNING 1)")
WRITE_SESSION = _WRITE.format(row=_MOVED.format(club="club_id = %(club)s"), row_name="moved")
# a session of no club: one being attached (Tx.club_before), or, at 0017, from before clubs
WRITE_SESSION_OF_NO_CLUB = _WRITE.format(row=_MOVED.format(club="club_id IS NULL"),
                                         row_name="moved")
OPEN_SESSION = _WRITE.format(row=_CREATED, row_name="created")
# Each row as `Store.event_rows` gives it: the payload decoded by orjson as psycopg reads it,
# the time written by PostgreSQL as chain.utc_iso writes it (its microseconds left out where
# they are 0), each row made straight into an EventRow.
_EVENT_ROWS = ("SELECT stream_id, version, position, type, schema_version, payload, "
               "replace(to_char(recorded_at AT TIME ZONE 'UTC', "
               "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"'), '.000000+', '+'), "
               "actor, member_id, token_id, idempotency_key, hash FROM events "
               "WHERE stream_id >= %s AND stream_id <= %s ORDER BY stream_id, version")


@contextmanager
def _alone(pg: Any) -> Iterator[None]:
    """The statements inside run each on its own (autocommit) when the transaction has not
    begun: no BEGIN goes before them. Inside a begun transaction, they are part of it."""
    import psycopg

    if pg.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        yield
        return
    pg.autocommit = True
    try:
        yield
    finally:
        # A connection lost meanwhile is thrown away by the pool: nothing to set back.
        if not pg.closed and pg.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            pg.autocommit = False


class PostgresTx(Tx):
    def session_head(self, session_id: str, *, club_id: str | None,
                     reply_to: tuple[str, str] | None) -> Head | None:
        params: tuple[str, ...] = (session_id,) if club_id is None else (session_id, club_id)
        sql = _HEAD_ANY_SQL if club_id is None else _HEAD_SQL
        with self._driver(sql) as pg, _alone(pg):
            head = pg.cursor()
            head.execute(sql, params)
            reply = pg.cursor() if reply_to is not None else None
            if reply is not None and reply_to is not None:
                if club_id is None:
                    reply.execute(_REPLY_ANY_SQL, reply_to)
                else:
                    reply.execute(_REPLY_SQL, (*reply_to, club_id))
        row = head.fetchone()
        if row is None:
            return None
        found = reply.fetchone() if reply is not None else None
        stored = None if found is None else StoredReply(found[0], orjson.loads(found[1]))
        return Head(int(row[0]), row[1] or GENESIS, row[2], row[3], stored, int(row[4]),
                    row[5].astimezone(UTC))

    def now(self) -> datetime:
        # On its own when the transaction has not begun (an opening without a key): one
        # round trip, and the write that follows may still commit as it runs.
        with self._driver(_CLOCK_SQL) as pg, _alone(pg):
            moment: datetime = pg.execute(_CLOCK_SQL).fetchone()[0]
        return moment.astimezone(UTC)

    @contextmanager
    def _driver(self, statement: str) -> Iterator[Any]:
        """psycopg's own connection, under the deadline; its errors raised as SQLAlchemy
        raises a statement's (the connection dropped when it is lost)."""
        import psycopg

        pg = self.conn.connection.driver_connection
        try:
            with bounded(self.conn):
                yield pg
        except psycopg.Error as error:
            self.conn._handle_dbapi_exception(error, statement, None, None, None)

    def write_session(self, write: SessionWrite) -> list[int]:
        first = write.rows[0]
        events = orjson.dumps([{"v": r["version"], "t": r["type"], "sv": r["schema_version"],
                                "p": r["payload"], "h": r["hash"]} for r in write.rows],
                              option=orjson.OPT_NON_STR_KEYS).decode()
        views = "[" + ",".join(f'{{"d":{deal_no},"w":{view}}}'
                               for deal_no, view in sorted(write.views.items())) + "]"
        params = {"id": write.session_id, "club": write.club_id, "old": write.old_version,
                  "version": write.version, "state": write.state_json,
                  "head": write.head_hash, "now": first["recorded_at"], "views": views,
                  "events": events, "actor": first["actor"], "key": first["idempotency_key"],
                  "member": first["member_id"], "token": first["token_id"],
                  "shape": write.shape, "snapshot": write.snapshot}
        sql = OPEN_SESSION if write.old_version is None else \
            WRITE_SESSION if self.club_before(write) is not None else WRITE_SESSION_OF_NO_CLUB
        # Nothing follows the one statement: it commits as it runs when the transaction has
        # not begun (a row that did not move wrote nothing), else with what came before it,
        # only once the row is known to have moved.
        commit = write.last and write.keep_views_to is None and write.results is None
        if write.keep_views_to is not None:
            self.conn.execute(delete(deal_views).where(
                club_is(deal_views, write.club_id), deal_views.c.session_id == write.session_id,
                deal_views.c.deal_no > write.keep_views_to))
        with self._driver(sql) as pg, _alone(pg) if commit else nullcontext():
            inserted = pg.cursor()
            inserted.execute(sql, params)
            positions = [int(p) for (p,) in inserted.fetchall()]
            if len(positions) != len(write.rows):
                raise VersionMoved(write.session_id)  # the transaction is rolled back
            if commit:
                pg.commit()  # when the transaction had begun before it
        if write.results is not None:
            self.replace_results(write.session_id, write.club_id, write.results)
        return positions

    def _lock_club(self, club_id: str) -> bool:
        return club_exists(self.conn, club_id, lock=True)

    def replace_projections(self, rebuilt: Sequence[Rebuilt]) -> None:
        """COPY into a temporary table and one UPDATE for the sessions' rows; the deal views
        and snapshots deleted and COPYed anew."""
        if not rebuilt:
            return
        raw = self.conn.connection.driver_connection
        with raw.cursor() as cur:  # type: ignore[union-attr]
            cur.execute("CREATE TEMPORARY TABLE IF NOT EXISTS rebuilt_club_sessions (club text, "
                        "id text, version integer, state text, shape smallint) "
                        "ON COMMIT DELETE ROWS")
            with cur.copy("COPY rebuilt_club_sessions (club, id, version, state, shape) "
                          "FROM STDIN") as copy:
                for r in rebuilt:
                    copy.write_row((r.club_id, r.session_id, r.version, r.state_json, r.shape))
            # NOT DISTINCT: a session of no club is rebuilt at 0017 (migration 0018)
            cur.execute("UPDATE sessions SET state = b.state::json, version = b.version, "
                        "shape = b.shape FROM rebuilt_club_sessions b WHERE sessions.id = b.id "
                        "AND sessions.club_id IS NOT DISTINCT FROM b.club")
            for club_id, ids in by_club(rebuilt).items():
                for table in ("deal_views", "snapshots"):
                    if club_id is None:
                        cur.execute(f"DELETE FROM {table} WHERE club_id IS NULL "
                                    "AND session_id = ANY(%s)", (ids,))
                    else:
                        cur.execute(f"DELETE FROM {table} WHERE club_id = %s "
                                    "AND session_id = ANY(%s)", (club_id, ids))
            with cur.copy("COPY deal_views (session_id, club_id, deal_no, version, view) "
                          "FROM STDIN") as copy:
                for r in rebuilt:
                    for deal_no, (version, view) in sorted(r.views.items()):
                        copy.write_row((r.session_id, r.club_id, deal_no, version, view))
            with cur.copy("COPY snapshots (session_id, club_id, version, state) FROM STDIN") \
                    as copy:
                for r in rebuilt:
                    for version, state in sorted(r.snapshots.items()):
                        copy.write_row((r.session_id, r.club_id, version, state))
        self.replace_results_of([r.session_id for r in rebuilt],
                                [row for r in rebuilt for row in r.results])


class PostgresStore(Store):
    def __init__(self, engine: Any):
        super().__init__(engine)
        self._listener = Listener(engine)

    @contextmanager
    def transaction(self) -> Iterator[PostgresTx]:
        with self.engine.connect() as conn:
            with conn.begin():
                tx = PostgresTx(conn)
                yield tx
            for then in tx.after_commit:
                then()

    def token_epoch(self) -> Any:
        return self._listener.epoch()

    def tokens_changed(self, tx: Tx) -> None:
        tx.conn.execute(text(f"NOTIFY {Listener.CHANNEL}"))

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        # In autocommit: a read is one round trip, without a BEGIN before it and a ROLLBACK
        # after it. (Under READ COMMITTED every statement sees a snapshot of its own.)
        autocommit = derived(self.engine, "lanterloo_reader",
                             lambda: self.engine.execution_options(isolation_level="AUTOCOMMIT"))
        with autocommit.connect() as conn:
            yield conn

    def event_rows(self, conn: Connection, first: str, last: str
                   ) -> Iterator[tuple[str, list[EventRow]]]:
        """Read through psycopg's server-side cursor, each row made an EventRow by psycopg
        as it reads it, its payload decoded by orjson, with the time written by PostgreSQL
        as the chain hashes it: SQLAlchemy's rows, datetime's isoformat, and a Python step
        per row cost more than the rest of reading a million events."""
        raw = conn.connection.driver_connection

        def rows() -> Iterator[EventRow]:
            with raw.cursor(name="lanterloo_event_rows",  # type: ignore[union-attr]
                            row_factory=_event_rows) as cur:
                set_json_loads(orjson.loads, cur)
                cur.execute(_EVENT_ROWS, (first, last))
                while page := cur.fetchmany(PAGE):
                    yield from page

        return by_stream(rows())

    @contextmanager
    def consistent(self) -> Iterator[Connection]:
        # Under READ COMMITTED every statement sees a snapshot of its own; REPEATABLE READ
        # takes one at the first statement and keeps it to the end. READ ONLY: nothing here
        # writes, and the server then takes no lock a writer could wait for.
        with self.engine.connect() as conn:
            conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
            with one_snapshot(conn):
                yield conn

    def violated_table(self, error: IntegrityError) -> str | None:
        original: Any = error.orig
        if getattr(original, "sqlstate", None) == "23505":  # unique_violation
            return table_of(str(original.diag.table_name))  # a partition's, its table's
        return None


def _event_rows(cursor: Any) -> Callable[[Sequence[Any]], EventRow]:
    return _event_row


def _event_row(values: Sequence[Any]) -> EventRow:
    return tuple.__new__(EventRow, values)


class _Line:
    """The listening connection of one process (shared with the listener's finalizer)."""

    def __init__(self) -> None:
        self.conn: Any = None
        self.pid = -1

    def close(self) -> None:
        if self.conn is not None and self.pid == os.getpid():
            self.conn.close()
        self.conn = None


class Listener:
    """This process's LISTEN on the channel the writes of tokens, members and clubs NOTIFY
    as they commit, on every host: the epoch counts the notifications seen. Each read of it
    is one empty query on the listening connection, the cheapest round trip there is: the
    server sends every notification committed before it ahead of its answer, so a change
    committed before a request began is always seen by that request. A connection lost or
    not yet made counts as a change; when none can be made the epoch is None (nothing may be
    taken as known). The round trip is cut at the engine's connect timeout, and then, as
    when no connection can be made, the database is unavailable (SQLAlchemy's
    OperationalError: a 503); the connection is closed with the engine's pool
    (engine.dispose()) and with the listener."""

    CHANNEL = "lanterloo_tokens"

    def __init__(self, engine: Any):
        self._engine = engine
        url = engine.url
        self._conninfo = {**url.translate_connect_args(username="user", database="dbname"),
                          **{k: " ".join(v) if isinstance(v, tuple) else v
                             for k, v in url.query.items()}}
        self._lock = threading.Lock()
        self._line = _Line()
        self._inherited: list[Any] = []  # a parent's connection: never closed by a child
        self._count = 0
        self._failed_at = float("-inf")  # time.monotonic() of the last failed round trip
        self._down = False  # the last round trip failed: the pool's connections predate it
        event.listen(engine, "engine_disposed", lambda _engine: self.close())
        weakref.finalize(self, self._line.close)

    def close(self) -> None:
        with self._lock:
            self._line.close()

    def epoch(self) -> int:
        """The epoch, within two connect timeouts whatever the database does, however many
        of the process's threads ask at once: a thread that waited for another's round trip
        is answered by its outcome when that failed (it does not then start its own), and
        none waits for the line longer than the bound."""
        import psycopg

        asked = time.monotonic()
        bound = 2 * connect_timeout_s(self._engine)
        if not self._lock.acquire(timeout=bound):
            raise OperationalError("LISTEN", None, psycopg.OperationalError(
                "the database did not answer: the token epoch's line is still waiting"))
        try:
            if self._failed_at >= asked:  # failed while this thread waited for the line
                raise OperationalError("LISTEN", None, psycopg.OperationalError(
                    "the database did not answer: the token epoch's line failed just now"))
            try:
                return self._up(self._sync())
            except psycopg.Error:
                # A connection that broke while it sat listening (a restart, a failover) is
                # no sign that the database is down now: once more, on a new one.
                self._line.close()
                self._down = True
            try:
                return self._up(self._sync())
            except psycopg.Error as error:
                self._line.close()
                self._failed_at = time.monotonic()
                self._down = True
                raise OperationalError("LISTEN", None, error) from error
        finally:
            self._lock.release()

    def _up(self, epoch: int) -> int:
        """The epoch, once a round trip succeeded; after a restart, a failover or an outage
        (the line broke, or the last round trip failed) the pool's idle connections were
        made before it and are cut: closed now, so that the request does not meet one."""
        if self._down:
            self._down = False
            self._engine.pool.dispose()
        return epoch

    def _sync(self) -> int:
        import psycopg

        line, limit = self._line, connect_timeout_s(self._engine)
        if line.conn is not None and line.pid != os.getpid():
            self._inherited.append(line.conn)
            line.conn = None
        if line.conn is None or line.conn.closed:
            line.conn = psycopg.connect(**{"connect_timeout": int(limit), **self._conninfo},
                                        autocommit=True)
            line.pid = os.getpid()
            socket = line.conn.pgconn.socket
            with deadline_on(self._engine, lambda: int(socket), limit):
                line.conn.execute(f"LISTEN {self.CHANNEL}")
            self._count += 1  # what was missed while not listening: a change
        pg = line.conn.pgconn
        with deadline_on(self._engine, lambda: int(pg.socket), limit):
            synced = pg.exec_(b"")
        if synced.status != psycopg.pq.ExecStatus.EMPTY_QUERY:
            raise psycopg.OperationalError("the database did not answer: "
                                           f"{synced.error_message.decode()}")
        while pg.notifies() is not None:
            self._count += 1
        return self._count
