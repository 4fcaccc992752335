"""The queries of ledger/clubs/codes.py, tablets.py and signin.py: codes exchanged for a
token, a club's recent sessions, the last entries of a session with the device that logged
each."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, func, insert, select, update

from .tables import events, members, pairing_codes, sessions, tokens


def insert_code(conn: Connection, **values: Any) -> None:
    conn.execute(insert(pairing_codes).values(**values))


def codes_by_lookup(conn: Connection, lookup: str) -> list[Row[Any]]:
    """The codes whose first symbols are `lookup` (used or not), locked for the transaction
    on PostgreSQL (SQLite's writer holds the database's lock already)."""
    return list(conn.execute(select(pairing_codes).where(pairing_codes.c.lookup == lookup)
                             .with_for_update()))


def unused_codes(conn: Connection, now: datetime) -> list[Row[Any]]:
    """The codes not used and not expired (those a new code's lookup must differ from)."""
    return list(conn.execute(select(pairing_codes).where(
        pairing_codes.c.used_at.is_(None), pairing_codes.c.expires_at > now)))


def codes_used_for(conn: Connection, session_id: str) -> int:
    return int(conn.scalar(select(func.count()).select_from(pairing_codes).where(
        pairing_codes.c.session_id == session_id, pairing_codes.c.used_at.is_not(None))) or 0)


def count_failure(conn: Connection, code_id: str) -> None:
    conn.execute(update(pairing_codes).where(pairing_codes.c.id == code_id)
                 .values(failed_attempts=pairing_codes.c.failed_attempts + 1))


def mark_used(conn: Connection, code_id: str, *, now: datetime, token_id: str) -> bool:
    """Use the code once: False if another request used it first."""
    result = conn.execute(update(pairing_codes).where(
        pairing_codes.c.id == code_id, pairing_codes.c.used_at.is_(None))
        .values(used_at=now, token_id=token_id))
    return result.rowcount == 1


def recent_sessions(conn: Connection, club_id: str, limit: int) -> list[Row[Any]]:
    """The club's sessions last written to, newest first, with their folded state."""
    return list(conn.execute(
        select(sessions.c.id, sessions.c.version, sessions.c.updated_at, sessions.c.state)
        .where(sessions.c.club_id == club_id)
        .order_by(sessions.c.updated_at.desc(), sessions.c.id).limit(limit)))


def club_states(conn: Connection, club_id: str) -> list[Any]:
    """The folded state of every session of the club (whose seat is whose, and open or
    ended): a member's retirement looks for a seat he still holds."""
    return [state or {} for state in conn.scalars(
        select(sessions.c.state).where(sessions.c.club_id == club_id))]


def withdraw_member_codes(conn: Connection, club_id: str, member_id: str, *,
                          now: datetime) -> None:
    """Let every unused code (sign-in link, pairing code) for the member expire now."""
    conn.execute(update(pairing_codes).where(
        pairing_codes.c.club_id == club_id, pairing_codes.c.member_id == member_id,
        pairing_codes.c.used_at.is_(None), pairing_codes.c.expires_at > now)
        .values(expires_at=now))


def events_after(conn: Connection, session_id: str, after_version: int,
                 limit: int) -> list[Row[Any]]:
    """The session's events after `after_version`, in order, each with the label of the
    token (device) that appended it (None for the command line's)."""
    return list(conn.execute(
        select(events.c.version, events.c.type, events.c.schema_version, events.c.payload,
               events.c.recorded_at, events.c.actor, events.c.token_id,
               tokens.c.label.label("device"))
        .select_from(events.outerjoin(tokens, tokens.c.id == events.c.token_id))
        .where(events.c.stream_id == session_id, events.c.version > after_version)
        .order_by(events.c.version).limit(limit)))


def corrections(conn: Connection, session_id: str) -> list[tuple[int, int]]:
    """(the version a correction rewound to, its own version) for each correction."""
    rows = conn.execute(select(events.c.version, events.c.payload).where(
        events.c.stream_id == session_id, events.c.type == "EntryCorrected"))
    return [(int(payload["rewound_to"]), int(version)) for version, payload in rows]


def signin_links(conn: Connection, club_id: str, limit: int) -> list[Row[Any]]:
    """The club's sign-in links (codes for no session), newest first, with the names of
    the member each is for and of the member who made it."""
    maker = members.alias("maker")
    return list(conn.execute(
        select(pairing_codes.c.id, pairing_codes.c.member_id, pairing_codes.c.role,
               pairing_codes.c.created_at, pairing_codes.c.expires_at,
               pairing_codes.c.used_at, pairing_codes.c.failed_attempts,
               pairing_codes.c.token_id, members.c.name.label("member_name"),
               maker.c.name.label("maker_name"))
        .join(members, members.c.id == pairing_codes.c.member_id)
        .join(maker, maker.c.id == pairing_codes.c.created_by)
        .where(pairing_codes.c.club_id == club_id, pairing_codes.c.session_id.is_(None))
        .order_by(pairing_codes.c.created_at.desc(), pairing_codes.c.id).limit(limit)))


def withdraw_code(conn: Connection, code_id: str, club_id: str, *, now: datetime) -> bool:
    """Let an unused sign-in link of the club expire now: False if there is none such."""
    result = conn.execute(update(pairing_codes).where(
        pairing_codes.c.id == code_id, pairing_codes.c.club_id == club_id,
        pairing_codes.c.session_id.is_(None), pairing_codes.c.used_at.is_(None),
        pairing_codes.c.expires_at > now).values(expires_at=now))
    return result.rowcount == 1
