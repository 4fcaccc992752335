"""Reading and writing the club's books: the book log and the session results projection.

Like the event store, every function takes a Connection inside the caller's transaction.
A book entry's hash chains it to the one before it in its club's book log with the events'
canonical form (ledger/store/chain.py): its stream is "books:<club id>", its version `seq`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, delete, func, insert, select

from ledger.domain import Event, SessionState, event_from_record
from ledger.domain.books import RESULT_EVENT_TYPES, SessionResult
from ledger.domain.books import session_results as fold_results
from ledger.domain.vocabulary import Status

from .chain import GENESIS, first_broken_link, link
from .eventstore import utc_iso
from .tables import book_entries, clubs, events, session_results, sessions


def chain_stream(club_id: str) -> str:
    return f"books:{club_id}"


def hashed_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A book entry as the chain hashes it: the events' canonical fields."""
    return {"stream_id": chain_stream(row["club_id"]), "version": row["seq"],
            "type": row["type"], "schema_version": row["schema_version"],
            "payload": row["payload"], "recorded_at": row["recorded_at"],
            "actor": row["actor"], "member_id": row["member_id"],
            "token_id": row["token_id"], "idempotency_key": row["idempotency_key"],
            "position": row.get("position"), "hash": row.get("hash")}


def lock_club(conn: Connection, club_id: str) -> bool:
    """Serialise the club's book appends: its row locked on PostgreSQL (SQLite's writers
    already queue for the database's write lock). False if there is no such club."""
    query = select(clubs.c.id).where(clubs.c.id == club_id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return conn.execute(query).first() is not None


def head(conn: Connection, club_id: str) -> tuple[int, str]:
    """(the last seq, its hash) of the club's book log; (0, GENESIS) when it is empty."""
    row = conn.execute(select(book_entries.c.seq, book_entries.c.hash)
                       .where(book_entries.c.club_id == club_id)
                       .order_by(book_entries.c.seq.desc()).limit(1)).first()
    return (0, GENESIS) if row is None else (int(row.seq), str(row.hash))


def append_entry(conn: Connection, club_id: str, *, seq: int, prev_hash: str, type_: str,
                 schema_version: int, payload: dict[str, Any], recorded_at: datetime,
                 actor: str, member_id: str | None, token_id: str | None,
                 idempotency_key: str | None) -> dict[str, Any]:
    """Insert the entry as `seq` of the club's book log, chained after `prev_hash`."""
    row: dict[str, Any] = {
        "club_id": club_id, "seq": seq, "type": type_, "schema_version": schema_version,
        "payload": payload, "recorded_at": recorded_at, "actor": actor,
        "member_id": member_id, "token_id": token_id, "idempotency_key": idempotency_key}
    row["hash"] = link(hashed_row(row), prev_hash)
    position = conn.execute(insert(book_entries).returning(book_entries.c.position),
                            row).scalar_one()
    return entry_dict({**row, "position": position})


def entry_dict(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"position": row["position"], "seq": row["seq"], "type": row["type"],
            "schema_version": row["schema_version"], "payload": row["payload"],
            "recorded_at": utc_iso(row["recorded_at"]), "actor": row["actor"],
            "member_id": row["member_id"], "token_id": row["token_id"], "hash": row["hash"]}


def entries(conn: Connection, club_id: str, types: Sequence[str] = ()) -> list[Row[Any]]:
    """The club's book log in order (its entries of `types` only, if given)."""
    query = select(book_entries).where(book_entries.c.club_id == club_id)
    if types:
        query = query.where(book_entries.c.type.in_(types))
    return list(conn.execute(query.order_by(book_entries.c.seq)))


def verify_chain(rows: Iterable[Row[Any]]) -> tuple[str, str | None]:
    """(the chain head recomputed, the first broken link or None) of a club's book log."""
    return first_broken_link(hashed_row(dict(r._mapping)) for r in rows)


# -- session results --------------------------------------------------------------------------

def result_events(conn: Connection, session_id: str,
                  types: Sequence[str]) -> Iterator[Any]:
    """The session's events of `types`, in version order, with when each was recorded."""
    yield from conn.execute(
        select(events.c.version, events.c.type, events.c.schema_version, events.c.payload,
               events.c.recorded_at)
        .where(events.c.stream_id == session_id, events.c.type.in_(types))
        .order_by(events.c.version))


def replace_results(conn: Connection, session_id: str, *, club_id: str | None, version: int,
                    results: Sequence[SessionResult]) -> None:
    """The session's rows of `session_results` become `results` (none: removed)."""
    conn.execute(delete(session_results).where(session_results.c.session_id == session_id))
    if results:
        conn.execute(insert(session_results), [result_row(r, club_id, version)
                                               for r in results])


def result_row(r: SessionResult, club_id: str | None, version: int) -> dict[str, Any]:
    return {"session_id": r.session_id, "seat": r.seat, "session_name": r.session_name,
            "club_id": club_id, "member_id": r.member_id, "currency": r.currency,
            "net_units": r.net_units, "net_minor": r.net_minor,
            "deals_dealt": r.deals_dealt, "loos": r.loos, "loo_units": r.loo_units,
            "penalties": r.penalties, "penalty_units": r.penalty_units,
            "ended_at": r.ended_at, "version": version}


def load_results(conn: Connection, *, club_id: str | None = None,
                 session_id: str | None = None, member_id: str | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 debits_only: bool = False) -> list[Row[Any]]:
    query = select(session_results)
    if debits_only:  # the results that left a member owing
        query = query.where(func.coalesce(session_results.c.net_minor,
                                          session_results.c.net_units) < 0)
    if club_id is not None:
        query = query.where(session_results.c.club_id == club_id)
    if session_id is not None:
        query = query.where(session_results.c.session_id == session_id)
    if member_id is not None:
        query = query.where(session_results.c.member_id == member_id)
    if since is not None:
        query = query.where(session_results.c.ended_at >= since)
    if until is not None:
        query = query.where(session_results.c.ended_at <= until)
    return list(conn.execute(query.order_by(session_results.c.ended_at,
                                            session_results.c.session_id,
                                            session_results.c.seat)).all())


def result_sums(conn: Connection, club_id: str, by: str) -> list[tuple[str, str, int]]:
    """(member or session id, currency, the sum of its seats' amounts) of the club's results:
    `by` "member_id" or "session_id"; the amount is net_minor, or net_units for counters."""
    key = session_results.c[by]
    amount = func.sum(func.coalesce(session_results.c.net_minor, session_results.c.net_units))
    rows = conn.execute(select(key, session_results.c.currency, amount)
                        .where(session_results.c.club_id == club_id,
                               session_results.c.member_id.is_not(None))
                        .group_by(key, session_results.c.currency))
    return [(str(k), str(c), int(a)) for k, c, a in rows]


STANDING_SUMS = ("deals_dealt", "net_units", "net_minor", "loos", "loo_units", "penalties",
                 "penalty_units")


def standing_sums(conn: Connection, club_id: str, *, since: datetime | None,
                  until: datetime | None) -> list[Row[Any]]:
    """Per member and currency, over the club's results that ended in [since, until]: the
    number of sessions and the sum of each of STANDING_SUMS (net_minor None for counters)."""
    r = session_results.c
    query = (select(r.member_id, r.currency, func.count().label("sessions"),
                    *(func.sum(r[name]).label(name) for name in STANDING_SUMS))
             .where(r.club_id == club_id, r.member_id.is_not(None))
             .group_by(r.member_id, r.currency))
    if since is not None:
        query = query.where(r.ended_at >= since)
    if until is not None:
        query = query.where(r.ended_at <= until)
    return list(conn.execute(query))


def as_utc(moment: datetime) -> datetime:
    """The moment in UTC; SQLite hands back the naive UTC value it was given."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


# -- the projection's writer: the hook of the append (ledger/service.py) -----------------------

RESULT_TRIGGERS = frozenset({"SessionEnded", "EntryCorrected"})


def moves_results(appended: Iterable[Event]) -> bool:
    """Whether appending these events may end, reopen or change an ended session."""
    return any(e.type in RESULT_TRIGGERS for e in appended)


def results_from_log(conn: Connection, session_id: str, state: SessionState,
                     pending: Sequence[tuple[int, Event]] = (),
                     now: datetime | None = None) -> list[SessionResult]:
    """The session's results from its stored log and `pending` events (being appended at
    `now`, not in the log yet)."""
    if state.status != Status.ENDED:
        return []
    log = [(row.version, event_from_record(row.type, row.schema_version, row.payload),
            as_utc(row.recorded_at))
           for row in result_events(conn, session_id, RESULT_EVENT_TYPES)]
    assert now is not None or not pending
    log += [(version, event, now) for version, event in pending  # type: ignore[misc]
            if event.type in RESULT_EVENT_TYPES]
    return fold_results(state, log)


def project_results(conn: Connection, session_id: str, state: SessionState, *,
                    pending: Sequence[tuple[int, Event]] = (),
                    now: datetime | None = None) -> None:
    """Write the session's rows of `session_results` as its state now stands (removed when
    it is not ended), in the caller's transaction."""
    club_id = conn.scalar(select(sessions.c.club_id).where(sessions.c.id == session_id))
    replace_results(conn, session_id, club_id=club_id, version=state.version,
                    results=results_from_log(conn, session_id, state, pending, now))
