"""Reading and writing the log and the projections, one statement at a time.

Every function takes a Connection already inside the caller's transaction; the unit of work
is the service's (`ledger.service.Ledger`). Nothing here updates or deletes an event.
"""

from __future__ import annotations

import dataclasses
import re
import sqlite3
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    Row,
    Text,
    cast,
    delete,
    func,
    insert,
    select,
    type_coerce,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from .chain import GENESIS, link
from .db import derived
from .tables import deal_views, events, idempotency_keys, sessions, snapshots

Record = tuple[str, int, dict[str, Any]]  # (type, schema_version, payload)


def utc_iso(moment: datetime) -> str:
    """ISO 8601 in UTC; SQLite hands back the naive UTC value it was given."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def reader(engine: Engine) -> Engine:
    """The engine for reads of one statement each: on PostgreSQL in autocommit, so that a
    read is one round trip, without a BEGIN before it and a ROLLBACK after it. (Under READ
    COMMITTED every statement sees a snapshot of its own, in a transaction or not.)"""
    if engine.dialect.name == "postgresql":
        # Made once per engine (db.derived): a new option engine per call was measurable.
        return derived(engine, "lanterloo_reader",
                       lambda: engine.execution_options(isolation_level="AUTOCOMMIT"))
    return engine


def dumps(value: Any) -> str:
    """JSON text for a projection column: what json.dumps gives, read back (orjson).

    A dataclass is written as its `json_fields()` where it has them (fields a to_dict()
    leaves out when empty), else field by field.
    """
    return orjson.dumps(value, default=_fields,
                        option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
                        ).decode()


def _fields(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        own = getattr(value, "json_fields", None)
        if own is not None:
            return own()
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def loads(text: str | bytes | None) -> Any:
    return None if text is None else orjson.loads(text)


# -- the log -------------------------------------------------------------------------------

def append_events(conn: Connection, stream_id: str, first_version: int,
                  records: Sequence[Record], *, actor: str, recorded_at: datetime,
                  idempotency_key: str | None, member_id: str | None = None,
                  token_id: str | None = None, prev_hash: str = GENESIS
                  ) -> list[dict[str, Any]]:
    """Insert `records` as versions first_version.. of the stream, each chained to the one
    before it (`prev_hash`: the hash of version first_version - 1); return them as stored.

    `actor` is the display name of the member behind `member_id`, appending from the device
    `token_id` (both None from the command line)."""
    rows = chained_rows(stream_id, first_version, records, actor=actor,
                        recorded_at=recorded_at, idempotency_key=idempotency_key,
                        member_id=member_id, token_id=token_id, prev_hash=prev_hash)
    positions = append_rows(conn, rows)
    return [stored(row, position) for row, position in zip(rows, positions, strict=True)]


def stored(row: dict[str, Any], position: int) -> dict[str, Any]:
    """A chained row (see `chain`) as the log gives it back."""
    return {"position": position, "version": row["version"], "type": row["type"],
            "schema_version": row["schema_version"], "payload": row["payload"],
            "recorded_at": utc_iso(row["recorded_at"]), "actor": row["actor"],
            "member_id": row["member_id"], "token_id": row["token_id"], "superseded_by": None,
            "hash": row["hash"]}


def read_events(conn: Connection, stream_id: str, *, after_position: int = 0,
                limit: int | None = None, types: Sequence[str] = ()) -> list[Row[Any]]:
    """The stream's events after `after_position` (of `types` only, if given), in order."""
    query = (select(events)
             .where(events.c.stream_id == stream_id, events.c.position > after_position)
             .order_by(events.c.position))
    if types:
        query = query.where(events.c.type.in_(types))
    if limit is not None:
        query = query.limit(limit)
    return list(conn.execute(query))


def stream(conn: Connection, stream_id: str, *, batch_size: int = 1000) -> Iterator[Row[Any]]:
    """Every event of the stream, read in batches (for rebuilds)."""
    after = 0
    while rows := read_events(conn, stream_id, after_position=after, limit=batch_size):
        yield from rows
        after = rows[-1].position


def version_positions(conn: Connection, stream_id: str) -> list[tuple[int, int]]:
    """(version, position) of every event of the stream, in version order (for verify)."""
    rows = conn.execute(select(events.c.version, events.c.position)
                        .where(events.c.stream_id == stream_id)
                        .order_by(events.c.version))
    return [(int(version), int(position)) for version, position in rows]


def stream_by_version(conn: Connection, stream_id: str) -> Iterator[Row[Any]]:
    """Every event of the stream in version order (for the hash chain), in batches."""
    after = 0
    while rows := list(conn.execute(
            select(events).where(events.c.stream_id == stream_id, events.c.version > after)
            .order_by(events.c.version).limit(1000))):
        yield from rows
        after = rows[-1].version


def stream_version(conn: Connection, stream_id: str) -> int:
    """The highest version in the log for the stream (0 if none)."""
    return conn.scalar(select(func.coalesce(func.max(events.c.version), 0))
                       .where(events.c.stream_id == stream_id)) or 0


# -- the sessions projection ---------------------------------------------------------------

def load_session(conn: Connection, session_id: str, *, club_id: str | None = None,
                 for_update: bool = False) -> Row[Any, Any, Any, Any, Any] | None:
    """The session's row (id, club_id, version, state, head_hash), locked for the
    transaction if asked."""
    query = select(sessions.c.id, sessions.c.club_id, sessions.c.version, sessions.c.state,
                   sessions.c.head_hash) \
        .where(sessions.c.id == session_id)
    if club_id is not None:
        query = query.where(sessions.c.club_id == club_id)
    if for_update:
        # PostgreSQL: writers to one session queue here. SQLite ignores it: BEGIN IMMEDIATE
        # already holds the database's write lock.
        query = query.with_for_update()
    return conn.execute(query).first()


def insert_session(conn: Connection, session_id: str, *, club_id: str | None, version: int,
                   state: dict[str, Any], now: datetime) -> None:
    conn.execute(insert(sessions).values(id=session_id, club_id=club_id, version=version,
                                         state=state, created_at=now, updated_at=now))


def update_session(conn: Connection, session_id: str, *, old_version: int, version: int,
                   state: dict[str, Any] | None, now: datetime, head_hash: str) -> bool:
    """Move the snapshot from old_version to version (`state` None: only the chain head, at
    the same version); False if someone else moved it."""
    values: dict[str, Any] = {"version": version, "updated_at": now, "head_hash": head_hash}
    if state is not None:
        values["state"] = state
    result = conn.execute(
        update(sessions)
        .where(sessions.c.id == session_id, sessions.c.version == old_version)
        .values(**values))
    return result.rowcount == 1


# -- the deal views ------------------------------------------------------------------------

def save_deal_views(conn: Connection, session_id: str,
                    views: dict[int, tuple[int, dict[str, Any]]]) -> None:
    """Upsert {deal_no: (version, view)}; the caller holds the session's lock."""
    for deal_no, (version, view) in sorted(views.items()):
        result = conn.execute(
            update(deal_views)
            .where(deal_views.c.session_id == session_id, deal_views.c.deal_no == deal_no)
            .values(version=version, view=view))
        if result.rowcount == 0:
            conn.execute(insert(deal_views).values(
                session_id=session_id, deal_no=deal_no, version=version, view=view))


def delete_deal_views_after(conn: Connection, session_id: str, deal_no: int) -> None:
    """Drop the views of deals a correction took away (a projection, never the log)."""
    conn.execute(delete(deal_views).where(deal_views.c.session_id == session_id,
                                          deal_views.c.deal_no > deal_no))


def load_deal_view(conn: Connection, session_id: str, deal_no: int) -> dict[str, Any] | None:
    return conn.scalar(select(deal_views.c.view).where(
        deal_views.c.session_id == session_id, deal_views.c.deal_no == deal_no))


def load_deal_views(conn: Connection, session_id: str) -> dict[int, dict[str, Any]]:
    rows = conn.execute(select(deal_views.c.deal_no, deal_views.c.view)
                        .where(deal_views.c.session_id == session_id))
    return {deal_no: view for deal_no, view in rows}


# -- the append, in two round trips --------------------------------------------------------
#
# An append reads the session's row (locked) and its idempotency key, then writes the events,
# the session's row, the deal views it touched and the key, and commits. On PostgreSQL each
# half is one round trip: psycopg's pipeline mode sends the statements together (the BEGIN
# with the first half, the COMMIT with the second); the JSON columns are sent as text already
# encoded, and psycopg prepares each statement on the server after its first uses. SQLite
# has no round trips to save: the same statements run one by one on the same connection.


@dataclass
class Locked:
    """The session's row as an append reads it: JSON columns still as text."""

    version: int
    head_hash: str | None
    state_text: str | bytes
    idempotency: Any | None = None  # (fingerprint, status_code, response text) or None


def _is_postgresql(conn: Connection) -> bool:
    return conn.dialect.name == "postgresql"


@contextmanager
def _driver_errors(statement: str) -> Iterator[None]:
    """psycopg's errors from a pipeline, as SQLAlchemy would have raised them."""
    import psycopg

    try:
        yield
    except psycopg.Error as error:
        raise DBAPIError.instance(statement, None, error, psycopg.Error) from error


def _lite(conn: Connection, sql: str, params: Sequence[Any]) -> tuple[list[Any], int]:
    """(rows, rowcount) of `sql` run by the SQLite driver itself, in the connection's
    transaction if it is in one: no SQLAlchemy statement, result or event per call. On an
    error the statement is run again through SQLAlchemy, which raises the error as it
    always does and drops a connection that must be dropped (a file opened read-only); a
    statement that failed changed nothing, so running it again is safe."""
    raw = conn.connection.driver_connection
    assert raw is not None
    try:
        cursor = raw.execute(sql, params)
        return cursor.fetchall(), cursor.rowcount
    except sqlite3.Error:
        result = conn.exec_driver_sql(sql, tuple(params))
        return (list(result.fetchall()) if result.returns_rows else []), result.rowcount


# PostgreSQL: the row, locked, then the stored answer to the key in a statement of its own:
# under READ COMMITTED that statement sees what committed while the lock was waited for (a
# join in the locking statement would read the key as of before the wait).
_LOCK_PG_ANY = "SELECT version, head_hash, state::text FROM sessions WHERE id = %s FOR UPDATE"
_LOCK_PG_CLUB = ("SELECT version, head_hash, state::text FROM sessions "
                 "WHERE id = %s AND club_id = %s FOR UPDATE")
_KEY_PG = ("SELECT fingerprint, status_code, response::text FROM idempotency_keys "
           "WHERE scope = %s AND key = %s")
# SQLite: BEGIN IMMEDIATE holds the database's write lock already (or, read before it, the
# row as it stands: see `check_append`).
_LOCK_LITE = ("SELECT s.version, s.head_hash, s.state, k.fingerprint, k.status_code, "
              "k.response FROM sessions s LEFT JOIN idempotency_keys k "
              "ON k.scope = ? AND k.key = ? WHERE s.id = ?{club}")
_LOCK_LITE_ANY = _LOCK_LITE.format(club="")
_LOCK_LITE_CLUB = _LOCK_LITE.format(club=" AND s.club_id = ?")
_CHECK_LITE = ("SELECT s.version, s.head_hash, k.fingerprint FROM sessions s "
               "LEFT JOIN idempotency_keys k ON k.scope = ? AND k.key = ? WHERE s.id = ?")


def lock_for_append(conn: Connection, session_id: str, *, club_id: str | None,
                    scope: str, key: str | None) -> Locked | None:
    """The session's row, locked for the transaction, and the stored answer to `key`.

    On SQLite outside a write transaction this is the row as it stands, unlocked: an append
    decided on it is written only if `check_append` finds the row unmoved under the lock."""
    if _is_postgresql(conn):
        pg = conn.connection.driver_connection
        assert pg is not None
        sql = _LOCK_PG_ANY if club_id is None else _LOCK_PG_CLUB
        # The BEGIN goes with the statements: one round trip.
        with _driver_errors(sql), pg.pipeline():
            lock = pg.cursor()
            lock.execute(sql, (session_id,) if club_id is None else (session_id, club_id))
            found = pg.cursor() if key else None
            if found is not None:
                found.execute(_KEY_PG, (scope, key))
        locked = lock.fetchone()
        if locked is None:
            return None
        stored = found.fetchone() if found is not None else None
        row: Sequence[Any] | None = (*locked, *(stored or (None, None, None)))
    else:
        rows, _ = _lite(conn, _LOCK_LITE_ANY if club_id is None else _LOCK_LITE_CLUB,
                        (scope, key, session_id) if club_id is None
                        else (scope, key, session_id, club_id))
        row = rows[0] if rows else None
    if row is None:
        return None
    return Locked(version=row[0], head_hash=row[1], state_text=row[2],
                  idempotency=(row[3], row[4], row[5]) if row[3] is not None else None)


def check_append(conn: Connection, session_id: str, seen: Locked, *, scope: str,
                 key: str | None) -> bool:
    """Whether the session's row is still at the version and chain head of `seen` and `key`
    still unanswered, read inside the write transaction (SQLite: under its write lock)."""
    rows, _ = _lite(conn, _CHECK_LITE, (scope, key, session_id))
    row = rows[0] if rows else None
    return row is not None and row[0] == seen.version and row[1] == seen.head_hash \
        and row[2] is None


# PostgreSQL: the events, the session's row and the deal views in one statement. The rows
# and the views go as one JSON document each (json_to_recordset): psycopg sends a string
# as it is, where arrays of strings are escaped element by element in Python. A `json`
# column keeps the text of its value as it stood in the document (no re-ordering).
# The row is locked and its version checked: the update cannot miss. Should it, the division
# by zero aborts the transaction (and the COMMIT queued after it) instead of committing
# events without their projection.
_WRITE_PG = (
    "WITH moved AS (UPDATE sessions SET version = %s, state = %s::json, head_hash = %s, "
    "updated_at = %s WHERE id = %s AND version = %s RETURNING 1), "
    "viewed AS (INSERT INTO deal_views (session_id, deal_no, version, view) "
    "SELECT %s, w.d, %s, w.w FROM json_to_recordset(%s::json) AS w(d int, w json) "
    "ON CONFLICT (session_id, deal_no) "
    "DO UPDATE SET version = excluded.version, view = excluded.view), "
    "inserted AS (INSERT INTO events (stream_id, version, type, schema_version, payload, "
    "recorded_at, actor, idempotency_key, member_id, token_id, hash) "
    "SELECT %s, u.v, u.t, u.sv, u.p, %s, %s, %s, %s, %s, u.h "
    "FROM json_to_recordset(%s::json) AS u(v int, t text, sv smallint, p json, h text) "
    "ORDER BY u.v RETURNING position, version) "
    "SELECT position, version, 1 / (SELECT count(*) FROM moved) FROM inserted")
_INSERT_SNAPSHOT_PG = ("INSERT INTO snapshots (session_id, version, state) "
                       "VALUES (%s, %s, %s::json)")
_INSERT_KEY_PG = ("INSERT INTO idempotency_keys (scope, key, fingerprint, status_code, "
                  "response, created_at) VALUES (%s, %s, %s, %s, %s::json, %s)")

# SQLite: the same statements one by one, through the driver (no statement to build). The
# timestamps and the payloads are bound as the tables' own types bind them.
_INSERT_EVENTS_LITE = (
    "INSERT INTO events (stream_id, version, type, schema_version, payload, recorded_at, "
    "actor, idempotency_key, member_id, token_id, hash) VALUES ")
_EVENT_VALUES_LITE = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_LITE_ROWS_PER_INSERT = 80  # 11 parameters each, under SQLite's oldest limit of 999
_MOVE_SESSION_LITE = ("UPDATE sessions SET version = ?, state = ?, head_hash = ?, "
                      "updated_at = ? WHERE id = ? AND version = ?")
_UPSERT_VIEW_LITE = ("INSERT INTO deal_views (session_id, deal_no, version, view) "
                     "VALUES (?, ?, ?, ?) ON CONFLICT (session_id, deal_no) "
                     "DO UPDATE SET version = excluded.version, view = excluded.view")
_INSERT_KEY_LITE = ("INSERT INTO idempotency_keys (scope, key, fingerprint, status_code, "
                    "response, created_at) VALUES (?, ?, ?, ?, ?, ?)")


def _binders(conn: Connection) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """(timestamp, JSON) as the tables bind them on this connection's dialect."""
    dialect = conn.dialect
    found = _BINDERS.get(dialect)
    if found is None:
        def same(value: Any) -> Any:
            return value

        found = _BINDERS[dialect] = (
            events.c.recorded_at.type.dialect_impl(dialect).bind_processor(dialect) or same,
            events.c.payload.type.dialect_impl(dialect).bind_processor(dialect) or same)
    return found


_BINDERS: weakref.WeakKeyDictionary[Any, tuple[Callable[[Any], Any], Callable[[Any], Any]]] \
    = weakref.WeakKeyDictionary()


class SessionMoved(Exception):
    """The session's row was not at the version the append was decided against."""


def chained_rows(stream_id: str, first_version: int, records: Sequence[Record], *, actor: str,
          recorded_at: datetime, idempotency_key: str | None, member_id: str | None,
          token_id: str | None, prev_hash: str) -> list[dict[str, Any]]:
    """The rows of `records` as versions first_version.. of the stream, each with its hash
    chained to the one before it (`prev_hash`: the hash of version first_version - 1)."""
    rows = []
    # the same moment for every row, as the chain writes it: written once
    at = utc_iso(recorded_at) if isinstance(recorded_at, datetime) else recorded_at
    for i, (type_, schema_version, payload) in enumerate(records):
        row = {"stream_id": stream_id, "version": first_version + i, "type": type_,
               "schema_version": schema_version, "payload": payload,
               "recorded_at": recorded_at, "actor": actor, "idempotency_key": idempotency_key,
               "member_id": member_id, "token_id": token_id}
        row["hash"] = prev_hash = link(row, prev_hash, recorded_at=at)
        rows.append(row)
    return rows


def write_append(conn: Connection, session_id: str, rows: list[dict[str, Any]], *,
                 old_version: int, version: int, state_json: str,
                 views_json: dict[int, str], key: tuple[str, str, str, int] | None,
                 respond: Callable[[list[int]], dict[str, Any]], now: datetime,
                 snapshot: bool = False) -> dict[str, Any]:
    """Insert the chained `rows`, move the session's row from old_version to version with
    `state_json`, upsert `views_json` ({deal_no: view JSON}), with `snapshot` keep
    `state_json` as the snapshot at `version` too, and, with `key` (scope, key,
    fingerprint, status), store the response under it; commit. `respond(positions)` makes
    the response once the rows' positions are known; it is returned.

    PostgreSQL: one round trip with the COMMIT, two with a key (its response names the
    positions). Raises SessionMoved, with nothing written, if the row was not at old_version.
    """
    head = rows[-1]["hash"]
    views = sorted(views_json.items())
    if _is_postgresql(conn):
        pg = conn.connection.driver_connection
        assert pg is not None
        first = rows[0]
        documents = orjson.dumps([{"v": r["version"], "t": r["type"],
                                   "sv": r["schema_version"], "p": r["payload"],
                                   "h": r["hash"]} for r in rows]).decode()
        views_document = "[" + ",".join(f'{{"d":{deal_no},"w":{view}}}'
                                        for deal_no, view in views) + "]"
        try:
            with _driver_errors(_WRITE_PG), pg.pipeline():
                inserted = pg.cursor()
                inserted.execute(_WRITE_PG, (
                    version, state_json, head, now, session_id, old_version,
                    session_id, version, views_document,
                    session_id, now, first["actor"], first["idempotency_key"],
                    first["member_id"], first["token_id"], documents))
                if snapshot:
                    pg.cursor().execute(_INSERT_SNAPSHOT_PG, (session_id, version, state_json))
                if key is None:
                    pg.commit()
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) == "22012":
                raise SessionMoved(session_id) from error
            raise
        by_version = {v: p for p, v, _ in inserted.fetchall()}
        response = respond([by_version[r["version"]] for r in rows])
        if key is not None:
            with _driver_errors(_INSERT_KEY_PG), pg.pipeline():
                pg.cursor().execute(_INSERT_KEY_PG, (*key, dumps(response), now))
                pg.commit()
        return response
    stamp, as_json = _binders(conn)
    at = stamp(now)
    positions: dict[int, int] = {}
    for lo in range(0, len(rows), _LITE_ROWS_PER_INSERT):
        chunk = rows[lo:lo + _LITE_ROWS_PER_INSERT]
        params: list[Any] = []
        for r in chunk:
            params += (session_id, r["version"], r["type"], r["schema_version"],
                       as_json(r["payload"]), at, r["actor"], r["idempotency_key"],
                       r["member_id"], r["token_id"], r["hash"])
        sql = _INSERT_EVENTS_LITE + ", ".join([_EVENT_VALUES_LITE] * len(chunk)) \
            + " RETURNING position, version"
        positions.update((v, p) for p, v in _lite(conn, sql, params)[0])
    _, moved = _lite(conn, _MOVE_SESSION_LITE, (version, state_json, head, at, session_id,
                                                old_version))
    if moved != 1:
        raise SessionMoved(session_id)
    for deal_no, view in views:
        _lite(conn, _UPSERT_VIEW_LITE, (session_id, deal_no, version, view))
    if snapshot:
        save_snapshot(conn, session_id, version, state_json)
    response = respond([positions[r["version"]] for r in rows])
    if key is not None:
        scope, key_, fingerprint, status = key
        _lite(conn, _INSERT_KEY_LITE, (scope, key_, fingerprint, status, dumps(response), at))
    return response


def append_rows(conn: Connection, rows: list[dict[str, Any]]) -> list[int]:
    """Insert chained rows (see `chain`); their positions, in order."""
    result = conn.execute(
        insert(events).returning(events.c.position, sort_by_parameter_order=True), rows)
    return list(result.scalars().all())


# -- idempotency ---------------------------------------------------------------------------

def find_idempotency(conn: Connection, scope: str, key: str) -> Row[Any, Any, Any] | None:
    return conn.execute(
        select(idempotency_keys.c.fingerprint, idempotency_keys.c.status_code,
               idempotency_keys.c.response)
        .where(idempotency_keys.c.scope == scope, idempotency_keys.c.key == key)).first()


def save_idempotency(conn: Connection, scope: str, key: str, *, fingerprint: str,
                     status_code: int, response: dict[str, Any], now: datetime) -> None:
    conn.execute(insert(idempotency_keys).values(
        scope=scope, key=key, fingerprint=fingerprint, status_code=status_code,
        response=response, created_at=now))


# -- telling unique violations apart -------------------------------------------------------

_SQLITE_UNIQUE = re.compile(r"UNIQUE constraint failed: (\w+)\.")


def violated_table(error: IntegrityError) -> str | None:
    """The table whose unique or primary key `error` violated, else None."""
    original = error.orig
    if getattr(original, "sqlstate", None) == "23505":  # psycopg: unique_violation
        return original.diag.table_name  # type: ignore[union-attr]
    match = _SQLITE_UNIQUE.match(str(original))
    return match.group(1) if match else None


# -- as-of snapshots -----------------------------------------------------------------------

def save_snapshot(conn: Connection, session_id: str, version: int,
                  state: str | dict[str, Any]) -> None:
    """Keep the state at `version` (JSON text, or the dict) as a snapshot."""
    if isinstance(state, str) and _is_postgresql(conn):
        state = loads(state)  # text is bound as varchar there, not as json
    value = type_coerce(state, Text()) if isinstance(state, str) else state
    conn.execute(insert(snapshots).values(session_id=session_id, version=version, state=value))


def snapshot_at_or_below(conn: Connection, session_id: str, version: int
                         ) -> tuple[int, dict[str, Any]] | None:
    """The nearest snapshot (version, state) at or below `version`, or None."""
    row = conn.execute(
        select(snapshots.c.version, cast(snapshots.c.state, Text()))
        .where(snapshots.c.session_id == session_id, snapshots.c.version <= version)
        .order_by(snapshots.c.version.desc()).limit(1)).first()
    return None if row is None else (int(row[0]), loads(row[1]))


def load_snapshots(conn: Connection, session_id: str) -> dict[int, dict[str, Any]]:
    """Every snapshot of the session: {version: state}."""
    rows = conn.execute(select(snapshots.c.version, cast(snapshots.c.state, Text()))
                        .where(snapshots.c.session_id == session_id))
    return {int(version): loads(text) for version, text in rows}


def replace_snapshots(conn: Connection, session_id: str,
                      states: dict[int, dict[str, Any]]) -> None:
    """Drop the session's snapshots and keep `states` ({version: state}) instead (rebuild)."""
    conn.execute(delete(snapshots).where(snapshots.c.session_id == session_id))
    if states:
        conn.execute(insert(snapshots), [
            {"session_id": session_id, "version": v, "state": state}
            for v, state in sorted(states.items())])


def events_between(conn: Connection, stream_id: str, after_version: int,
                   up_to_version: int) -> list[Row[Any]]:
    """The stream's events with after_version < version <= up_to_version, by version."""
    return list(conn.execute(
        select(events.c.version, events.c.type, events.c.schema_version, events.c.payload)
        .where(events.c.stream_id == stream_id, events.c.version > after_version,
               events.c.version <= up_to_version)
        .order_by(events.c.version)))


def last_correction_between(conn: Connection, stream_id: str, after_version: int,
                            up_to_version: int) -> tuple[int, int] | None:
    """(version, rewound_to) of the last EntryCorrected with after_version < version <=
    up_to_version, or None."""
    row = conn.execute(
        select(events.c.version, events.c.payload)
        .where(events.c.stream_id == stream_id, events.c.version > after_version,
               events.c.version <= up_to_version, events.c.type == "EntryCorrected")
        .order_by(events.c.version.desc()).limit(1)).first()
    return None if row is None else (int(row[0]), int(row[1]["rewound_to"]))


def version_at(conn: Connection, stream_id: str, moment: datetime) -> int:
    """The last version of the stream recorded at or before `moment` (0 if none)."""
    return conn.scalar(select(func.coalesce(func.max(events.c.version), 0))
                       .where(events.c.stream_id == stream_id,
                              events.c.recorded_at <= moment)) or 0


def recorded_at(conn: Connection, stream_id: str, version: int) -> datetime | None:
    return conn.scalar(select(events.c.recorded_at).where(events.c.stream_id == stream_id,
                                                          events.c.version == version))


def deal_markers(conn: Connection, stream_id: str, up_to_version: int) -> list[Row[Any]]:
    """The DealStarted and EntryCorrected events up to a version (to find when a deal was
    last the current one), by version."""
    return list(conn.execute(
        select(events.c.version, events.c.type, events.c.schema_version, events.c.payload)
        .where(events.c.stream_id == stream_id, events.c.version <= up_to_version,
               events.c.type.in_(("DealStarted", "EntryCorrected")))
        .order_by(events.c.version)))


def events_between_full(conn: Connection, stream_id: str, after_version: int,
                        up_to_version: int, *, types: Sequence[str] = ()) -> list[Row[Any]]:
    """Whole event rows with after_version < version <= up_to_version (of `types` only, if
    given), by version."""
    query = select(events).where(events.c.stream_id == stream_id,
                                 events.c.version > after_version,
                                 events.c.version <= up_to_version)
    if types:
        query = query.where(events.c.type.in_(types))
    return list(conn.execute(query.order_by(events.c.version)))


def hash_at(conn: Connection, stream_id: str, version: int) -> str | None:
    """The chain hash of the event at `version` (the chain's head there)."""
    return conn.scalar(select(events.c.hash).where(events.c.stream_id == stream_id,
                                                   events.c.version == version))
