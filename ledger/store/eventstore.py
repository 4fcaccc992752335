"""Reading and writing the log and the projections, one statement at a time.

Every function takes a Connection already inside the caller's transaction; the unit of work
is the service's (`ledger.service.Ledger`). Nothing here updates or deletes an event.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .chain import GENESIS, link
from .tables import deal_views, events, idempotency_keys, sessions

Record = tuple[str, int, dict[str, Any]]  # (type, schema_version, payload)


def utc_iso(moment: datetime) -> str:
    """ISO 8601 in UTC; SQLite hands back the naive UTC value it was given."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


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
    rows = []
    for i, (type_, schema_version, payload) in enumerate(records):
        row = {"stream_id": stream_id, "version": first_version + i, "type": type_,
               "schema_version": schema_version, "payload": payload,
               "recorded_at": recorded_at, "actor": actor, "idempotency_key": idempotency_key,
               "member_id": member_id, "token_id": token_id}
        row["hash"] = prev_hash = link(row, prev_hash)
        rows.append(row)
    result = conn.execute(
        insert(events).returning(events.c.position, sort_by_parameter_order=True), rows)
    positions = result.scalars().all()
    return [
        {"position": position, "version": row["version"], "type": row["type"],
         "schema_version": row["schema_version"], "payload": row["payload"],
         "recorded_at": utc_iso(recorded_at), "actor": actor, "member_id": member_id,
         "token_id": token_id, "superseded_by": None, "hash": row["hash"]}
        for position, row in zip(positions, rows, strict=True)
    ]


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
