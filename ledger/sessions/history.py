"""A session as it stood at an earlier point of its log: a version, or a time.

    at = point(conn, session_id, "2026-11-22T21:00:00Z", current=row.version)
    state = state_at(conn, session_id, at["version"])

The state at a version comes from the nearest stored snapshot and the events after it
(ledger/domain/asof.py, across corrections), so a read as of any point folds at most about
SNAPSHOT_EVERY events (docs/explain.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection

from ledger.domain import Event, InvalidInput, InvariantBroken, SessionState, asof
from ledger.domain import events as ev
from ledger.domain.corrections import live_events
from ledger.domain.events import event_from_record
from ledger.store import queries
from ledger.store.chain import CHAIN_FORMAT, utc_iso


def versioned(rows: Iterable[Any]) -> list[tuple[int, Event]]:
    """The stream's events with their versions, as the domain reads a log."""
    return [(row.version, event_from_record(row.type, row.schema_version, row.payload))
            for row in rows]


def as_version(as_of: int | str) -> int | None:
    """The version `as_of` names, or None when it is not a whole number."""
    if isinstance(as_of, bool):
        raise InvalidInput("as_of must be a version or an ISO-8601 time", rule="as-of",
                           field="as_of")
    if isinstance(as_of, int):
        return as_of
    text = str(as_of).strip()
    if text.lstrip("+-").isdigit() and text.isascii():
        return int(text)
    return None


def as_moment(as_of: int | str) -> datetime:
    """The ISO-8601 time `as_of` names; it must carry its offset (Z or +01:00)."""
    try:
        moment = datetime.fromisoformat(str(as_of).strip())
    except ValueError:
        raise InvalidInput(f"as_of must be a version (a whole number) or an ISO-8601 time "
                           f"with its offset, such as 2026-11-22T21:00:00Z; got {as_of!r}",
                           rule="as-of", field="as_of") from None
    if moment.tzinfo is None:
        raise InvalidInput(f"as_of {as_of!r} has no offset: add Z or +hh:mm",
                           rule="as-of", field="as_of")
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00:00+14:00 is before the year 1 in UTC
        raise InvalidInput(f"as_of {as_of!r} is outside the years a time can name",
                           rule="as-of-in-range", field="as_of") from None


def point(conn: Connection, session_id: str, as_of: int | str, current: int, *,
          club_id: str | None = None) -> dict[str, Any]:
    """{"version", "recorded_at"} of the point `as_of` names: a version of the session's log
    (1 to its last), or an ISO-8601 time with its offset (the last event recorded at or
    before it); a clear refusal naming `as_of` otherwise."""
    version = as_version(as_of)
    if version is None:
        version = queries.version_at(conn, session_id, as_moment(as_of), club_id=club_id)
        if version == 0:
            raise InvalidInput(f"as_of {as_of} is before the session opened",
                               rule="as-of-in-range", field="as_of")
    elif not 1 <= version <= current:
        raise InvalidInput(f"as_of must be a version from 1 to {current} (the session's "
                           f"log), got {version}", rule="as-of-in-range", field="as_of")
    moment = queries.recorded_at(conn, session_id, version, club_id=club_id)
    return {"version": version, "recorded_at": utc_iso(moment) if moment is not None else None}


def state_at(conn: Connection, session_id: str, version: int, *,
             club_id: str | None = None) -> SessionState:
    """The state at `version`: the nearest snapshot, then the events after it."""

    def events(lo: int, hi: int) -> list[tuple[int, Event]]:
        return versioned(queries.events_between(conn, session_id, lo, hi, club_id=club_id))

    return asof.state_at(
        version, snapshot=lambda v: queries.snapshot_at_or_below(conn, session_id, v,
                                                                 club_id=club_id),
        events=events,
        last_correction=lambda lo, hi: queries.last_correction_between(
            conn, session_id, lo, hi, club_id=club_id),
        session_id=session_id)


def pin(version: int, head: str | None) -> dict[str, Any]:
    """What pins a statement to its log: the version and the hash chain's head there."""
    return {"version": version, "chain_head": head, "chain_format": CHAIN_FORMAT}


def state_and_pin_at(conn: Connection, row: Any, as_of: int | str
                     ) -> tuple[SessionState, dict[str, Any], dict[str, Any]]:
    """(the state, its pin, the point) of the session `row` as of `as_of`."""
    at = point(conn, row.id, as_of, row.version, club_id=row.club_id)
    state = SessionState.from_dict(row.state) if at["version"] == row.version \
        else state_at(conn, row.id, at["version"], club_id=row.club_id)
    return state, pin(at["version"], queries.hash_at(conn, row.id, at["version"],
                                                     club_id=row.club_id)), at


def deal_state_at(conn: Connection, row: Any, deal_no: int, as_of: int | str
                  ) -> tuple[SessionState | None, dict[str, Any]]:
    """The state whose current deal is `deal_no` as it last stood at that point (None: the
    session had no such deal then), and the point: the current deal's from the state then,
    an earlier deal's from the state just before the next deal was dealt."""
    state, _, at = state_and_pin_at(conn, row, as_of)
    if not (state.deal is not None and 1 <= deal_no <= state.deal_no):
        return None, at
    if deal_no != state.deal_no:
        markers = live_events(versioned(queries.deal_markers(conn, row.id, at["version"],
                                                             club_id=row.club_id)))
        dealt = next((v for v, e in markers if isinstance(e, ev.DealStarted)
                      and e.deal_no == deal_no + 1 and not e.redeal), None)
        if dealt is None:
            raise InvariantBroken(f"deal {deal_no + 1} of session {row.id} is current at "
                                  f"version {at['version']} but was never dealt")
        state = state_at(conn, row.id, dealt - 1, club_id=row.club_id)
    return state, at
