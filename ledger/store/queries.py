"""Reading the log and the projections, one statement at a time.

Every function takes a Connection (`Store.reading()`, or a write's own); the writes are the
store's (ledger/store/base.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Row, Select, Table, Text, cast, func, select

from .tables import deal_views, events, sessions, snapshots


def loads(text: str | bytes | None) -> Any:
    return None if text is None else orjson.loads(text)


Q = TypeVar("Q", bound=Select[Any])


def in_club(query: Q, table: Table, club_id: str | None) -> Q:
    """`query` confined to the rows of `club_id` (every table a club owns carries its club,
    docs/operations.md "Which rows carry their club"); as it is for the operator (None)."""
    return query if club_id is None else query.where(table.c.club_id == club_id)


# -- the log -------------------------------------------------------------------------------


def read_events(conn: Connection, stream_id: str, *, after_position: int = 0,
                limit: int | None = None, types: Sequence[str] = (),
                club_id: str | None = None) -> list[Row[Any]]:
    """The stream's events after `after_position` (of `types` only, if given), in order."""
    query = in_club(select(events)
                    .where(events.c.stream_id == stream_id, events.c.position > after_position)
                    .order_by(events.c.position), events, club_id)
    if types:
        query = query.where(events.c.type.in_(types))
    if limit is not None:
        query = query.limit(limit)
    return list(conn.execute(query))


def stream(conn: Connection, stream_id: str, *, batch_size: int = 1000,
           club_id: str | None = None) -> Iterator[Row[Any]]:
    """Every event of the stream, read in batches (for rebuilds)."""
    after = 0
    while rows := read_events(conn, stream_id, after_position=after, limit=batch_size,
                              club_id=club_id):
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


def stream_version(conn: Connection, stream_id: str, *, club_id: str | None = None) -> int:
    """The highest version in the log for the stream (0 if none)."""
    return conn.scalar(in_club(select(func.coalesce(func.max(events.c.version), 0))
                               .where(events.c.stream_id == stream_id), events, club_id)) or 0


# -- the sessions projection ---------------------------------------------------------------

def load_session(conn: Connection, session_id: str, *, club_id: str | None = None,
                 for_update: bool = False) -> Any:
    """The session's row (id, club_id, version, state, head_hash, shape), locked for the
    transaction if asked."""
    query = select(sessions.c.id, sessions.c.club_id, sessions.c.version, sessions.c.state,
                   sessions.c.head_hash, sessions.c.shape) \
        .where(sessions.c.id == session_id)
    if club_id is not None:
        query = query.where(sessions.c.club_id == club_id)
    if for_update:
        # PostgreSQL: writers to one session queue here. SQLite ignores it: BEGIN IMMEDIATE
        # already holds the database's write lock.
        query = query.with_for_update()
    return conn.execute(query).first()


def session_version(conn: Connection, session_id: str, *, club_id: str | None = None
                    ) -> int | None:
    """The session's version (None if the club has no such session): what a poll compares
    with the version it last read, without loading the session's state."""
    query = select(sessions.c.version).where(sessions.c.id == session_id)
    if club_id is not None:
        query = query.where(sessions.c.club_id == club_id)
    version = conn.execute(query).scalar()
    return None if version is None else int(version)


def sessions_of_no_club(conn: Connection) -> list[Row[Any]]:
    """The sessions recorded before clubs that no club holds yet, oldest first: their id,
    when they were opened, and their version."""
    return list(conn.execute(select(sessions.c.id, sessions.c.created_at, sessions.c.version)
                             .where(sessions.c.club_id.is_(None))
                             .order_by(sessions.c.created_at, sessions.c.id)))


def club_sessions(conn: Connection, club_id: str, *, since: datetime | None = None,
                  until: datetime | None = None, name: str | None = None, after: int = 0,
                  limit: int = 20, newest_first: bool = True) -> tuple[list[Any], int]:
    """A page of the club's sessions opened in [since, until) (whose name contains `name`,
    in any case), by the time they were opened (newest first, or oldest), with their folded
    state; and how many the window holds."""
    where = [sessions.c.club_id == club_id]
    if name:
        where.append(func.lower(sessions.c.state["name"].as_string())
                     .contains(name.lower(), autoescape=True))
    if since is not None:
        where.append(sessions.c.created_at >= since)
    if until is not None:
        where.append(sessions.c.created_at < until)
    order = (sessions.c.created_at.desc(), sessions.c.id.desc()) if newest_first \
        else (sessions.c.created_at, sessions.c.id)
    total = conn.scalar(select(func.count()).select_from(sessions).where(*where)) or 0
    rows = list(conn.execute(
        select(sessions.c.id, sessions.c.version, sessions.c.created_at, sessions.c.updated_at,
               sessions.c.state).where(*where).order_by(*order).offset(after).limit(limit)))
    return rows, int(total)


def club_sessions_with_old_joins(conn: Connection) -> list[Row[Any]]:
    """The club's sessions (id, club id) where an aftercomer joined before a join named his
    member (PlayerJoined of schema version 1): where a seat may name no member."""
    return list(conn.execute(
        select(sessions.c.id, sessions.c.club_id).distinct()
        .join(events, events.c.stream_id == sessions.c.id)
        .where(sessions.c.club_id.is_not(None), events.c.type == "PlayerJoined",
               events.c.schema_version == 1)
        .order_by(sessions.c.id)))


# -- the deal views ------------------------------------------------------------------------


def load_deal_view(conn: Connection, session_id: str, deal_no: int, *,
                   club_id: str | None = None) -> dict[str, Any] | None:
    return conn.scalar(in_club(select(deal_views.c.view).where(
        deal_views.c.session_id == session_id, deal_views.c.deal_no == deal_no),
        deal_views, club_id))


def load_deal_views(conn: Connection, session_id: str, *, club_id: str | None = None
                    ) -> dict[int, dict[str, Any]]:
    rows = conn.execute(in_club(select(deal_views.c.deal_no, deal_views.c.view)
                                .where(deal_views.c.session_id == session_id),
                                deal_views, club_id))
    return {deal_no: view for deal_no, view in rows}


# -- as-of snapshots -----------------------------------------------------------------------


def snapshot_at_or_below(conn: Connection, session_id: str, version: int, *,
                         club_id: str | None = None) -> tuple[int, dict[str, Any]] | None:
    """The nearest snapshot (version, state) at or below `version`, or None."""
    row = conn.execute(in_club(
        select(snapshots.c.version, cast(snapshots.c.state, Text()))
        .where(snapshots.c.session_id == session_id, snapshots.c.version <= version)
        .order_by(snapshots.c.version.desc()).limit(1), snapshots, club_id)).first()
    return None if row is None else (int(row[0]), loads(row[1]))


def load_snapshots(conn: Connection, session_id: str, *, club_id: str | None = None
                   ) -> dict[int, dict[str, Any]]:
    """Every snapshot of the session: {version: state}."""
    rows = conn.execute(in_club(select(snapshots.c.version, cast(snapshots.c.state, Text()))
                                .where(snapshots.c.session_id == session_id),
                                snapshots, club_id))
    return {int(version): loads(text) for version, text in rows}


def events_between(conn: Connection, stream_id: str, after_version: int,
                   up_to_version: int, *, club_id: str | None = None) -> list[Row[Any]]:
    """The stream's events with after_version < version <= up_to_version, by version."""
    return list(conn.execute(in_club(
        select(events.c.version, events.c.type, events.c.schema_version, events.c.payload)
        .where(events.c.stream_id == stream_id, events.c.version > after_version,
               events.c.version <= up_to_version)
        .order_by(events.c.version), events, club_id)))


def last_correction_between(conn: Connection, stream_id: str, after_version: int,
                            up_to_version: int, *, club_id: str | None = None
                            ) -> tuple[int, int] | None:
    """(version, rewound_to) of the last EntryCorrected with after_version < version <=
    up_to_version, or None."""
    row = conn.execute(in_club(
        select(events.c.version, events.c.payload)
        .where(events.c.stream_id == stream_id, events.c.version > after_version,
               events.c.version <= up_to_version, events.c.type == "EntryCorrected")
        .order_by(events.c.version.desc()).limit(1), events, club_id)).first()
    return None if row is None else (int(row[0]), int(row[1]["rewound_to"]))


def version_at(conn: Connection, stream_id: str, moment: datetime, *,
               club_id: str | None = None) -> int:
    """The last version of the stream recorded at or before `moment` (0 if none)."""
    return conn.scalar(in_club(select(func.coalesce(func.max(events.c.version), 0))
                               .where(events.c.stream_id == stream_id,
                                      events.c.recorded_at <= moment), events, club_id)) or 0


def recorded_at(conn: Connection, stream_id: str, version: int, *,
                club_id: str | None = None) -> datetime | None:
    return conn.scalar(in_club(select(events.c.recorded_at)
                               .where(events.c.stream_id == stream_id,
                                      events.c.version == version), events, club_id))


def deal_markers(conn: Connection, stream_id: str, up_to_version: int, *,
                 club_id: str | None = None) -> list[Row[Any]]:
    """The DealStarted and EntryCorrected events up to a version (to find when a deal was
    last the current one), by version."""
    return list(conn.execute(in_club(
        select(events.c.version, events.c.type, events.c.schema_version, events.c.payload)
        .where(events.c.stream_id == stream_id, events.c.version <= up_to_version,
               events.c.type.in_(("DealStarted", "EntryCorrected")))
        .order_by(events.c.version), events, club_id)))


def events_between_full(conn: Connection, stream_id: str, after_version: int,
                        up_to_version: int, *, types: Sequence[str] = (),
                        club_id: str | None = None) -> list[Row[Any]]:
    """Whole event rows with after_version < version <= up_to_version (of `types` only, if
    given), by version."""
    query = in_club(select(events).where(events.c.stream_id == stream_id,
                                         events.c.version > after_version,
                                         events.c.version <= up_to_version), events, club_id)
    if types:
        query = query.where(events.c.type.in_(types))
    return list(conn.execute(query.order_by(events.c.version)))


def hash_at(conn: Connection, stream_id: str, version: int, *,
            club_id: str | None = None) -> str | None:
    """The chain hash of the event at `version` (the chain's head there)."""
    return conn.scalar(in_club(select(events.c.hash).where(events.c.stream_id == stream_id,
                                                           events.c.version == version),
                               events, club_id))


def result_events(conn: Connection, session_id: str, types: Sequence[str], *,
                  club_id: str | None = None) -> list[Row[Any]]:
    """The session's events of `types`, in version order, with when each was recorded."""
    return list(conn.execute(in_club(
        select(events.c.version, events.c.type, events.c.schema_version, events.c.payload,
               events.c.recorded_at)
        .where(events.c.stream_id == session_id, events.c.type.in_(types))
        .order_by(events.c.version), events, club_id)))
