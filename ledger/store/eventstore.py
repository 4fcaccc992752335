"""Reading and writing the log and the projections, one statement at a time.

Every function takes a Connection already inside the caller's transaction; the unit of work
is the service's (`ledger.service.Ledger`). Nothing here updates or deletes an event.
"""

from __future__ import annotations

import dataclasses
import re
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
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError

from .chain import GENESIS, link
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
        return engine.execution_options(isolation_level="AUTOCOMMIT")
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


_LOCK_SQL = ("SELECT version, head_hash, state::text FROM sessions WHERE id = %s{club} "
             "FOR UPDATE")
_KEY_SQL = ("SELECT fingerprint, status_code, response::text FROM idempotency_keys "
            "WHERE scope = %s AND key = %s")


def lock_for_append(conn: Connection, session_id: str, *, club_id: str | None,
                    scope: str, key: str | None) -> Locked | None:
    """The session's row, locked for the transaction, and the stored answer to `key`."""
    club = " AND club_id = %s" if club_id is not None else ""
    lock_params: tuple[Any, ...] = (session_id, club_id) if club_id is not None \
        else (session_id,)
    if _is_postgresql(conn):
        pg = conn.connection.driver_connection
        assert pg is not None
        with _driver_errors(_LOCK_SQL), pg.pipeline():
            lock = pg.cursor()
            lock.execute(_LOCK_SQL.format(club=club), lock_params)
            found = pg.cursor() if key else None
            if found is not None:
                found.execute(_KEY_SQL, (scope, key))
        row = lock.fetchone()
        stored = found.fetchone() if found is not None else None
    else:
        row = conn.exec_driver_sql(
            _LOCK_SQL.format(club=club).replace("%s", "?").replace("state::text", "state")
            .replace(" FOR UPDATE", ""), lock_params).first()
        stored = conn.exec_driver_sql(_KEY_SQL.replace("%s", "?").replace(
            "response::text", "response"), (scope, key)).first() if key else None
    if row is None:
        return None
    return Locked(version=row[0], head_hash=row[1], state_text=row[2],
                  idempotency=tuple(stored) if stored is not None else None)


_INSERT_EVENTS_PG = (
    "INSERT INTO events (stream_id, version, type, schema_version, payload, recorded_at, "
    "actor, idempotency_key, member_id, token_id, hash) "
    "SELECT %s, u.v, u.t, u.sv, u.p::json, %s, %s, %s, %s, %s, u.h FROM unnest("
    "%s::int[], %s::text[], %s::smallint[], %s::text[], %s::text[]) WITH ORDINALITY "
    "AS u(v, t, sv, p, h, o) ORDER BY u.o RETURNING position, version")
# The row is locked and its version checked: the update cannot miss. Should it, the division
# by zero aborts the transaction (and the COMMIT queued after it) instead of committing
# events without their projection.
_MOVE_SESSION_PG = (
    "WITH moved AS (UPDATE sessions SET version = %s, state = %s::json, head_hash = %s, "
    "updated_at = %s WHERE id = %s AND version = %s RETURNING 1) "
    "SELECT 1 / count(*) FROM moved")
_UPSERT_VIEW_PG = ("INSERT INTO deal_views (session_id, deal_no, version, view) "
                   "VALUES (%s, %s, %s, %s::json) ON CONFLICT (session_id, deal_no) "
                   "DO UPDATE SET version = excluded.version, view = excluded.view")
_INSERT_SNAPSHOT_PG = ("INSERT INTO snapshots (session_id, version, state) "
                       "VALUES (%s, %s, %s::json)")
_INSERT_KEY_PG = ("INSERT INTO idempotency_keys (scope, key, fingerprint, status_code, "
                  "response, created_at) VALUES (%s, %s, %s, %s, %s::json, %s)")


class SessionMoved(Exception):
    """The session's row was not at the version the append was decided against."""


def chained_rows(stream_id: str, first_version: int, records: Sequence[Record], *, actor: str,
          recorded_at: datetime, idempotency_key: str | None, member_id: str | None,
          token_id: str | None, prev_hash: str) -> list[dict[str, Any]]:
    """The rows of `records` as versions first_version.. of the stream, each with its hash
    chained to the one before it (`prev_hash`: the hash of version first_version - 1)."""
    rows = []
    for i, (type_, schema_version, payload) in enumerate(records):
        row = {"stream_id": stream_id, "version": first_version + i, "type": type_,
               "schema_version": schema_version, "payload": payload,
               "recorded_at": recorded_at, "actor": actor, "idempotency_key": idempotency_key,
               "member_id": member_id, "token_id": token_id}
        row["hash"] = prev_hash = link(row, prev_hash)
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
        try:
            with _driver_errors(_INSERT_EVENTS_PG), pg.pipeline():
                inserted = pg.cursor()
                inserted.execute(_INSERT_EVENTS_PG, (
                    session_id, now, first["actor"], first["idempotency_key"],
                    first["member_id"], first["token_id"], [r["version"] for r in rows],
                    [r["type"] for r in rows], [r["schema_version"] for r in rows],
                    [orjson.dumps(r["payload"]).decode() for r in rows],
                    [r["hash"] for r in rows]))
                pg.cursor().execute(_MOVE_SESSION_PG, (version, state_json, head, now,
                                                       session_id, old_version))
                if views:
                    pg.cursor().executemany(_UPSERT_VIEW_PG, [
                        (session_id, deal_no, version, view) for deal_no, view in views])
                if snapshot:
                    pg.cursor().execute(_INSERT_SNAPSHOT_PG, (session_id, version, state_json))
                if key is None:
                    pg.commit()
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) == "22012":
                raise SessionMoved(session_id) from error
            raise
        by_version = {v: p for p, v in inserted.fetchall()}
        response = respond([by_version[r["version"]] for r in rows])
        if key is not None:
            with _driver_errors(_INSERT_KEY_PG), pg.pipeline():
                pg.cursor().execute(_INSERT_KEY_PG, (*key, dumps(response), now))
                pg.commit()
        return response
    positions = append_rows(conn, rows)
    moved = conn.execute(
        update(sessions).where(sessions.c.id == session_id, sessions.c.version == old_version)
        .values(version=version, state=type_coerce(state_json, Text()), head_hash=head,
                updated_at=now))
    if moved.rowcount != 1:
        raise SessionMoved(session_id)
    for deal_no, view in views:
        upsert = sqlite_insert(deal_views).values(
            session_id=session_id, deal_no=deal_no, version=version,
            view=type_coerce(view, Text()))
        conn.execute(upsert.on_conflict_do_update(
            index_elements=[deal_views.c.session_id, deal_views.c.deal_no],
            set_={"version": upsert.excluded.version, "view": upsert.excluded.view}))
    if snapshot:
        save_snapshot(conn, session_id, version, state_json)
    response = respond(positions)
    if key is not None:
        scope, key_, fingerprint, status = key
        conn.execute(insert(idempotency_keys).values(
            scope=scope, key=key_, fingerprint=fingerprint, status_code=status,
            response=type_coerce(dumps(response), Text()), created_at=now))
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
