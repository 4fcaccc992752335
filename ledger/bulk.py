"""Verify and rebuild every session's projections in one pass over the log.

    problems = verify_all(engine)          # {session_id: [difference, ...]}, every session
    rebuilt = rebuild_all(engine)          # {session_id: [log problem, ...]}, as rewritten

`Ledger.verify(session_id)` reads a session's log four times (versions, the chain, the stream,
the views) and `lanterloo verify --all` ran it session after session: 121 s for a million
events on a loaded host (docs/performance.md). Here the log is read once, in large pages,
ordered by (stream, version):

- the sessions, in id order, are cut into chunks of about CHUNK_EVENTS events (by their
  `sessions.version`), and the chunks are shared out among worker processes (one per CPU,
  each with its own connection pool: `engine.dispose(close=False)` after the fork, as
  SQLAlchemy's pooling docs say);
- a chunk is read in one transaction (REPEATABLE READ on PostgreSQL: the log and the
  projections as of one moment): the stored projections of its sessions, then its events
  through a server-side cursor (psycopg's own on PostgreSQL, plain tuples), the payload as
  text decoded by orjson;
- each session's events are checked as `Ledger.verify` checks them (versions 1..N without a
  gap, positions increasing with the version, the hash chain: ledger/store/chain.py) and
  folded with `evolve` alone as they are read, keeping each deal's view
  (`_fold_with_views`): no command is decided again. The same fold keeps the state at each
  version a snapshot is stored at (verify) or due at (rebuild), so the snapshots cost no
  second fold; a log with a correction (EntryCorrected) is folded anew from its live events
  (corrections drop the tail they supersede) and its snapshots as `Ledger.verify` folds them;
- a chunk is folded with Python's cyclic garbage collector paused (`_collector_paused`):
  its scans of the chunk's live objects were a third of the pass's CPU, and the fold makes
  no cycles for it to find;
- every projection is compared by one entry of CHECKS: how to load the stored value of a
  chunk's sessions, what the fold says it should be, and, for `rebuild_all`, how to write it
  (the sessions' rows, the deal views, the results, the snapshots).

A session whose log is not whole (a gap, a broken link, positions out of order, no events,
or a log that does not fold) is handed to `Ledger.verify` (and, when rebuilding, to
`rebuild_projections`) in the parent process, one at a time, so that what is reported for it
is exactly what the per-session command reports. Such sessions are rare; the pass stays fast.

`rebuild_all` takes each chunk's `sessions` rows FOR UPDATE (PostgreSQL), folds them as above
and writes every projection anew: on PostgreSQL by COPY into a temporary table and one
UPDATE from it, COPY of the deal views and snapshots after deleting the chunk's, and the
result rows in one statement; on SQLite with executemany. What it writes equals what
`rebuild_projections` writes, session by session.
"""

from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import (
    Connection,
    Engine,
    Text,
    bindparam,
    cast,
    delete,
    insert,
    select,
    update,
)

from ledger.domain import SessionState, event_from_record
from ledger.domain.books import RESULT_EVENT_TYPES
from ledger.domain.corrections import live_events
from ledger.domain.events import EntryCorrected
from ledger.domain.evolve import evolve
from ledger.store import books as books_store
from ledger.store import eventstore as store
from ledger.store.chain import CHAIN_FORMAT, GENESIS, link
from ledger.store.db import writer
from ledger.store.tables import deal_views, events, session_results, sessions, snapshots

__all__ = ["CHECKS", "Check", "Folded", "rebuild_all", "verify_all", "workers_for"]

CHUNK_EVENTS = 50_000  # events read and folded per transaction
PAGE = 10_000  # rows per fetch from the server-side cursor
INLINE_EVENTS = 100_000  # below this, one process: forking costs more than it saves


@dataclass
class Folded:
    """One session as the log makes it: what the checks compare and rebuild writes."""

    session_id: str
    log_version: int  # the highest version in the log
    head: str  # the chain's head recomputed from the log
    state: str  # SessionState.to_dict() after the live events, as JSON text
    views: dict[int, str]  # each deal's view as it last stood, as JSON text
    last_of_deal: dict[int, int]  # deal_no -> the version of its last live event
    folded: SessionState | None = None  # the state itself, for checks that derive from it
    # every event of the log (voided ones too), in version order
    log: list[tuple[int, Any]] = field(default_factory=list)
    # the events session results count (RESULT_EVENT_TYPES), each with its time as read
    timed: list[tuple[int, Any, Any]] = field(default_factory=list)
    # the state at the versions asked for (the stored snapshots', or every multiple of the
    # interval), as JSON text, taken as the fold passed them; None where the log holds a
    # correction (the state at a version is then not a step of the fold of the live events)
    states_at: dict[int, str] | None = None
    club_id: str | None = None  # the session's club (set by the chunk from its row)


@dataclass(frozen=True)
class Check:
    """One projection, compared (and rewritten) for every session of a chunk.

    `load(conn, first, last)`: {session_id: stored value} for the sessions first..last (ids);
    `rebuilt(folded)`: what the log says the value is; `diff(stored, rebuilt)`: the
    differences, worded as `Ledger.verify` words them; `write(conn, folded_list)`: replace
    the stored values of those sessions (None: the projection is written by another check's
    write, or not rewritten).
    """

    name: str
    load: Callable[[Connection, str, str], dict[str, Any]]
    rebuilt: Callable[[Folded], Any]
    diff: Callable[[Any, Any], list[str]]
    write: Callable[[Connection, list[Folded]], None] | None = None
    absent: Callable[[], Any] = lambda: None  # the stored value of a session with none


# -- the checks ----------------------------------------------------------------------------

def _load_sessions(conn: Connection, first: str, last: str) -> dict[str, Any]:
    """{id: (version, state as text, head_hash)}, read once per chunk for every check."""
    memo = conn.info.get("bulk_sessions")
    if memo is None or memo[0] != (first, last):
        rows = conn.execute(select(sessions.c.id, sessions.c.version,
                                   cast(sessions.c.state, Text), sessions.c.head_hash,
                                   sessions.c.club_id)
                            .where(sessions.c.id >= first, sessions.c.id <= last))
        memo = conn.info["bulk_sessions"] = ((first, last), {
            sid: (version, state, head, club) for sid, version, state, head, club in rows})
    return memo[1]


def _load_views(conn: Connection, first: str, last: str) -> dict[str, Any]:
    out: dict[str, dict[str, str]] = {}
    rows = conn.execute(select(deal_views.c.session_id, deal_views.c.deal_no,
                               cast(deal_views.c.view, Text))
                        .where(deal_views.c.session_id >= first,
                               deal_views.c.session_id <= last))
    for sid, deal_no, view in rows:
        out.setdefault(sid, {})[str(deal_no)] = view
    return out


def _chain_head_diff(stored: str | None, head: str) -> list[str]:
    if stored not in (None, head) or (stored is None and head != GENESIS):
        return [f"chain head: sessions.head_hash is {stored}, the log's is {head}"]
    return []


def _version_diff(stored: int, log_version: int) -> list[str]:
    if stored != log_version:
        return [f"sessions.version: stored {stored}, log {log_version}"]
    return []


def _write_sessions(conn: Connection, folded: list[Folded]) -> None:
    """The `sessions` rows' state and version, as `rebuild_projections` writes them (the
    chain head is the log's pin and is not rewritten)."""
    if not folded:
        return
    if conn.dialect.name == "postgresql":
        raw = conn.connection.driver_connection
        with raw.cursor() as cur:  # type: ignore[union-attr]
            cur.execute("CREATE TEMPORARY TABLE IF NOT EXISTS bulk_sessions (id text, "
                        "version integer, state text) ON COMMIT DELETE ROWS")
            with cur.copy("COPY bulk_sessions (id, version, state) FROM STDIN") as copy:
                for f in folded:
                    copy.write_row((f.session_id, f.log_version, f.state))
            cur.execute("UPDATE sessions SET state = b.state::json, version = b.version "
                        "FROM bulk_sessions b WHERE sessions.id = b.id")
        return
    conn.execute(update(sessions).where(sessions.c.id == bindparam("b_id"))
                 .values(state=bindparam("b_state"), version=bindparam("b_version")),
                 [{"b_id": f.session_id, "b_state": orjson.loads(f.state),
                   "b_version": f.log_version}
                  for f in folded])


def _write_views(conn: Connection, folded: list[Folded]) -> None:
    """Every deal view of the sessions anew, each with the version of its deal's last live
    event (`rebuild_projections`)."""
    if not folded:
        return
    ids = [f.session_id for f in folded]
    rows = [(f.session_id, n, f.last_of_deal.get(n, f.log_version), view)
            for f in folded for n, view in sorted(f.views.items())]
    if conn.dialect.name == "postgresql":
        raw = conn.connection.driver_connection
        with raw.cursor() as cur:  # type: ignore[union-attr]
            cur.execute("DELETE FROM deal_views WHERE session_id = ANY(%s)", (ids,))
            with cur.copy("COPY deal_views (session_id, deal_no, version, view) "
                          "FROM STDIN") as copy:
                for sid, n, version, view in rows:
                    copy.write_row((sid, n, version, view))
        return
    conn.execute(delete(deal_views).where(deal_views.c.session_id.in_(ids)))
    if rows:
        conn.execute(deal_views.insert(), [
            {"session_id": sid, "deal_no": n, "version": version, "view": orjson.loads(view)}
            for sid, n, version, view in rows])


def _json_diff(path: str) -> Callable[[Any, Any], list[str]]:
    """The differences between a stored JSON text and a rebuilt one, as `Ledger.verify`
    words them (`_diff` of the values). Equal texts are equal values: the append, and
    `rebuild_all`, write projections as the rebuild writes them (orjson, `store.dumps`), so
    a whole projection is parsed only where its text differs."""
    from ledger.service import _diff

    def diff(stored: str | None, rebuilt: str) -> list[str]:
        if stored == rebuilt:
            return []
        return _diff(path, None if stored is None else orjson.loads(stored),
                     orjson.loads(rebuilt))

    return diff


def _json_map_diff(path: str) -> Callable[[dict[str, str], dict[str, str]], list[str]]:
    """`_json_diff` for a map of JSON texts (each deal's view by its number)."""

    def diff(stored: dict[str, str], rebuilt: dict[str, str]) -> list[str]:
        out = []
        for key in sorted(set(stored) | set(rebuilt), key=str):
            if key not in rebuilt:
                out.append(f"{path}.{key}: stored only")
            elif key not in stored:
                out.append(f"{path}.{key}: rebuilt only")
            else:
                out += _json_diff(f"{path}.{key}")(stored[key], rebuilt[key])
        return out

    return diff


def _load_snapshots(conn: Connection, first: str, last: str) -> dict[str, Any]:
    out: dict[str, dict[int, str]] = {}
    rows = conn.execute(select(snapshots.c.session_id, snapshots.c.version,
                               cast(snapshots.c.state, Text))
                        .where(snapshots.c.session_id >= first, snapshots.c.session_id <= last))
    for sid, version, state in rows:
        out.setdefault(sid, {})[int(version)] = state
    return out


def _snapshots_diff(stored: dict[int, str], folded: Folded) -> list[str]:
    """Each stored snapshot against the log folded to its version (as `Ledger.verify`:
    each from the snapshot before it once that one is found right; domain/asof.py).

    The states were taken as the fold passed the stored versions (`states_at`); a log with a
    correction is folded again to each version, as `Ledger.verify` folds it."""
    if not stored:
        return []
    from ledger.service import _diff

    if folded.states_at is None:
        return _snapshots_refolded(stored, folded)
    out: list[str] = []
    for version in sorted(stored):
        if not 1 <= version <= folded.log_version:
            out.append(f"snapshots.{version}: beyond the log's {folded.log_version} versions")
            continue
        text = folded.states_at[version]
        if stored[version] == text:
            continue
        kept, rebuilt = orjson.loads(stored[version]), orjson.loads(text)
        if kept != rebuilt:
            out += _diff(f"snapshots.{version}", kept, rebuilt)
    return out


def _snapshots_refolded(stored: dict[int, str], folded: Folded) -> list[str]:
    from ledger.domain import asof
    from ledger.service import _diff

    versioned = folded.log
    out: list[str] = []
    checked: dict[int, dict[str, Any]] = {}
    for version in sorted(stored):
        if not 1 <= version <= len(versioned):
            out.append(f"snapshots.{version}: beyond the log's {len(versioned)} versions")
            continue
        snapshot, events_, last_correction = asof.in_memory(versioned, checked)
        state = asof.state_at(version, snapshot=snapshot, events=events_,
                              last_correction=last_correction,
                              session_id=folded.session_id)
        rebuilt = orjson.loads(store.dumps(state))
        kept = orjson.loads(stored[version])
        if kept != rebuilt:
            out += _diff(f"snapshots.{version}", kept, rebuilt)
        checked[version] = rebuilt
    return out


def _snapshot_every() -> int:
    from ledger.service import SNAPSHOT_EVERY

    return SNAPSHOT_EVERY


def _snapshot_texts(f: Folded) -> dict[int, str]:
    """The snapshots a rebuild keeps: the state at every multiple of the ledger's interval
    (`Ledger.rebuild_snapshots`), as JSON text: as the fold passed them, or (a log with a
    correction) each folded from the one before it."""
    from ledger.service import _snapshots_of

    every = _snapshot_every()
    if f.states_at is not None:
        return {v: f.states_at[v] for v in range(every, f.log_version + 1, every)} \
            if every > 0 else {}
    return {v: store.dumps(state) for v, state in
            _snapshots_of(f.log, every, f.session_id).items()}


def _write_snapshots(conn: Connection, folded: list[Folded]) -> None:
    """Every snapshot of the sessions anew (`Ledger.rebuild_snapshots`)."""
    if not folded:
        return
    ids = [f.session_id for f in folded]
    if conn.dialect.name == "postgresql":
        raw = conn.connection.driver_connection
        with raw.cursor() as cur:  # type: ignore[union-attr]
            cur.execute("DELETE FROM snapshots WHERE session_id = ANY(%s)", (ids,))
            with cur.copy("COPY snapshots (session_id, version, state) FROM STDIN") as copy:
                for f in folded:
                    for version, text in sorted(_snapshot_texts(f).items()):
                        copy.write_row((f.session_id, version, text))
        return
    for f in folded:
        store.replace_snapshots(conn, f.session_id, {
            v: orjson.loads(text) for v, text in _snapshot_texts(f).items()})


def _load_results(conn: Connection, first: str, last: str) -> dict[str, Any]:
    from ledger.service import _result_dict

    out: dict[str, dict[str, Any]] = {}
    rows = conn.execute(select(session_results)
                        .where(session_results.c.session_id >= first,
                               session_results.c.session_id <= last))
    for row in rows:
        out.setdefault(row.session_id, {})[row.seat] = _result_dict(row)
    return out


def _results_of(folded: Folded) -> list[Any]:
    from ledger.domain.books import session_results as results
    from ledger.domain.vocabulary import Status

    if folded.folded is None or folded.folded.status != Status.ENDED:
        return []
    # the events results count, as `results_from_log` reads them
    return results(folded.folded, [(v, e, _moment(at)) for v, e, at in folded.timed])


def _rebuilt_results(folded: Folded) -> dict[str, Any]:
    """The session's rows of `session_results` as the log makes them (`Ledger.verify`)."""
    from types import SimpleNamespace

    from ledger.service import _result_dict

    return {r.seat: _result_dict(SimpleNamespace(**books_store.result_row(r, folded.club_id,
                                                                          0)))
            for r in _results_of(folded)}


def _results_diff(stored: dict[str, Any], rebuilt: dict[str, Any]) -> list[str]:
    from ledger.service import _diff

    return _diff("session_results", stored, rebuilt)


def _write_results(conn: Connection, folded: list[Folded]) -> None:
    """The sessions' rows of `session_results` anew (`replace_results`, a chunk at once)."""
    if not folded:
        return
    conn.execute(delete(session_results).where(
        session_results.c.session_id.in_([f.session_id for f in folded])))
    rows = [books_store.result_row(r, f.club_id, f.log_version)
            for f in folded for r in _results_of(f)]
    if rows:
        conn.execute(insert(session_results), rows)


# In the order `Ledger.verify` reports them.
CHECKS: list[Check] = [
    Check("chain_head", lambda conn, a, b: {k: v[2] for k, v in _load_sessions(conn, a, b)
                                            .items()},
          lambda f: f.head, _chain_head_diff),
    Check("version", lambda conn, a, b: {k: v[0] for k, v in _load_sessions(conn, a, b)
                                         .items()},
          lambda f: f.log_version, _version_diff),
    Check("state", lambda conn, a, b: {k: v[1] for k, v in _load_sessions(conn, a, b).items()},
          lambda f: f.state, _json_diff("state"), _write_sessions),
    Check("deal_views", _load_views,
          lambda f: {str(n): v for n, v in f.views.items()}, _json_map_diff("deal_views"),
          _write_views, absent=dict),
    Check("session_results", _load_results, _rebuilt_results, _results_diff, _write_results,
          absent=dict),
    # compared by `_snapshots_diff` against the fold itself: stored snapshots sit wherever an
    # append crossed the interval, so there is no one set of them to rebuild and compare
    Check("snapshots", _load_snapshots, lambda f: f, _snapshots_diff, _write_snapshots,
          absent=dict),
]


# -- the pass ------------------------------------------------------------------------------

@dataclass
class ChunkResult:
    problems: dict[str, list[str]] = field(default_factory=dict)  # sessions that differ
    suspects: list[str] = field(default_factory=list)  # logs not whole: for Ledger.verify
    sessions: int = 0
    events: int = 0


def workers_for(engine: Engine, events: int) -> int:
    """One process per CPU this process may use; one for a small log or where fork is not."""
    if events < INLINE_EVENTS or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, cpus)


def _plan(engine: Engine) -> tuple[list[str], list[tuple[str, str]], int]:
    """(every session id in order, chunks as (first id, last id), events the rows claim)."""
    with engine.connect() as conn:
        rows = list(conn.execute(select(sessions.c.id, sessions.c.version)
                                 .order_by(sessions.c.id)))
    ids = [sid for sid, _ in rows]
    chunks: list[tuple[str, str]] = []
    first, size = None, 0
    for sid, version in rows:
        first = first if first is not None else sid
        size += max(int(version), 1)
        if size >= CHUNK_EVENTS:
            chunks.append((first, sid))
            first, size = None, 0
    if first is not None:
        chunks.append((first, ids[-1]))
    return ids, chunks, sum(max(int(v), 1) for _, v in rows)


# The time as `utc_iso` writes it, less the offset and with ".000000" where it leaves the
# microseconds out (`_iso`), written by PostgreSQL: a tenth of the time of datetime's
# astimezone().isoformat() for each event.
_PG_ISO = "to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US')"


def _iso(moment: Any) -> str:
    """The event's time as the chain hashes it (`utc_iso`), from a datetime or `_PG_ISO`."""
    if isinstance(moment, str):
        return (moment[:-7] if moment.endswith(".000000") else moment) + "+00:00"
    return store.utc_iso(moment)


def _moment(moment: Any) -> datetime:
    """The event's time as a datetime in UTC, from a datetime or `_PG_ISO`."""
    if isinstance(moment, str):
        return datetime.fromisoformat(moment).replace(tzinfo=UTC)
    return books_store.as_utc(moment)


def _event_rows(conn: Connection, first: str, last: str) -> Iterator[tuple[Any, ...]]:
    if conn.dialect.name == "postgresql":
        yield from _pg_event_rows(conn, first, last)
        return
    query = (select(events.c.stream_id, events.c.version, events.c.position, events.c.type,
                    events.c.schema_version, cast(events.c.payload, Text),
                    events.c.recorded_at, events.c.actor, events.c.member_id,
                    events.c.token_id, events.c.idempotency_key, events.c.hash)
             .where(events.c.stream_id >= first, events.c.stream_id <= last)
             .order_by(events.c.stream_id, events.c.version))
    # the options on the statement: on the connection they would stay for the writes after it
    result = conn.execute(query.execution_options(stream_results=True, yield_per=PAGE))
    for page in result.partitions():
        yield from page


def _pg_event_rows(conn: Connection, first: str, last: str) -> Iterator[tuple[Any, ...]]:
    """The rows as plain tuples from psycopg's server-side cursor, in the chunk's
    transaction (SQLAlchemy's rows cost more than the rest of reading them)."""
    raw = conn.connection.driver_connection
    with raw.cursor(name="bulk_events") as cur:  # type: ignore[union-attr]
        cur.execute(
            f"SELECT stream_id, version, position, type, schema_version, payload::text, "
            f"{_PG_ISO}, actor, member_id, token_id, idempotency_key, hash FROM events "
            f"WHERE stream_id >= %s AND stream_id <= %s ORDER BY stream_id, version",
            (first, last))
        while page := cur.fetchmany(PAGE):
            yield from page


def _sessions_of(rows: Iterator[tuple[Any, ...]]) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    current: str | None = None
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        if row[0] != current:
            if current is not None:
                yield current, batch
            current, batch = row[0], []
        batch.append(row)
    if current is not None:
        yield current, batch


def _link(row: dict[str, Any], prev: str, stored: str | None) -> str | None:
    """`chain.link(row, prev)` when it is `stored`, else None.

    `canonical` walks the payload for floats, where orjson and json.dumps part, before it
    hashes orjson's bytes: a tenth of a rebuild. Here orjson's bytes are hashed at once and
    the definition is asked only when that hash is not the stored one. A match is the
    definition's hash (the bytes are the same, or SHA-256 has a collision), so nothing is
    taken on trust."""
    body = dict(row, chain=CHAIN_FORMAT, prev=prev)
    try:
        fast: str | None = hashlib.sha256(
            orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()
    except TypeError:  # an integer past 64 bits
        fast = None
    if fast == stored:
        return fast
    return stored if link(row, prev) == stored else None


_SORTED = orjson.OPT_SORT_KEYS
_NO_DEAL = object()


def _fold(session_id: str, rows: list[tuple[Any, ...]], states_at: Collection[int] = ()
          ) -> Folded | None:
    """The session folded from its rows (in version order), or None when its log is not
    whole: a gap, a position out of order, a broken link, or a log that does not fold.

    Each row is checked, read and folded as it is met: one pass. The state at each version
    in `states_at` is kept as JSON text as the fold passes it (the snapshots). A correction
    (EntryCorrected) ends the folding as it goes: the live events are then folded anew from
    the first (`live_events`), as `Ledger.rebuild` folds them, and no state is kept."""
    from ledger.service import _deal_view_json

    prev = GENESIS
    last_position = -1
    log: list[tuple[int, Any]] = []
    timed: list[tuple[int, Any, Any]] = []
    # Ledger.rebuild: the live events folded with `evolve`, each deal's view kept as it stood
    # when it was last the current deal (`_fold_with_views`), written as the append writes it.
    state: SessionState | None = None
    views: dict[int, str] = {}
    last_of_deal: dict[int, int] = {}
    taken: dict[int, str] | None = {}
    folding = True  # no correction met yet
    for expected, (sid, version, position, type_, schema_version, payload_text, recorded_at,
                   actor, member_id, token_id, key, stored_hash) in enumerate(rows, start=1):
        if version != expected or position <= last_position:
            return None
        try:
            payload = orjson.loads(payload_text)
        except orjson.JSONDecodeError:  # an integer past 64 bits, say
            payload = json.loads(payload_text)
        # `_link`, its first hash inline
        row = {"stream_id": sid, "version": version, "type": type_,
               "schema_version": schema_version, "payload": payload,
               "recorded_at": _iso(recorded_at), "actor": actor, "member_id": member_id,
               "token_id": token_id, "idempotency_key": key, "chain": CHAIN_FORMAT,
               "prev": prev}
        try:
            linked: str | None = hashlib.sha256(orjson.dumps(row, option=_SORTED)).hexdigest()
        except TypeError:  # an integer past 64 bits
            linked = None
        if linked != stored_hash:
            linked = _link(row, prev, stored_hash)
        if linked is None:
            return None
        prev = linked
        last_position = position
        try:
            event = event_from_record(type_, schema_version, payload)
        except Exception:  # noqa: BLE001 - Ledger.verify says what it is
            return None
        log.append((version, event))
        if type_ in RESULT_EVENT_TYPES:
            timed.append((version, event, recorded_at))
        if not folding:
            continue
        if type(event) is EntryCorrected:
            folding, taken = False, None
            continue
        try:
            deal_no = getattr(event, "deal_no", _NO_DEAL)
            if deal_no is not _NO_DEAL and state is not None:
                deal = state.deal
                if deal is not None and deal_no != deal.deal_no:
                    views[deal.deal_no] = _deal_view_json(state)
            if isinstance(deal_no, int):
                last_of_deal[deal_no] = version
            state = evolve(state, event, session_id=session_id)
            if taken is not None and version in states_at:
                taken[version] = store.dumps(state)
        except Exception:  # noqa: BLE001 - Ledger.verify says what it is
            return None
    if not log:
        return None
    try:
        if not folding:  # a correction: the live events folded anew
            state, views, last_of_deal = None, {}, {}
            for version, event in live_events(log):
                deal = state.deal if state is not None else None
                if state is not None and deal is not None \
                        and getattr(event, "deal_no", deal.deal_no) != deal.deal_no:
                    views[deal.deal_no] = _deal_view_json(state)
                deal_no = getattr(event, "deal_no", None)
                if isinstance(deal_no, int):
                    last_of_deal[deal_no] = version
                state = evolve(state, event, session_id=session_id)
        if state is None:
            return None
        if state.deal is not None:
            views[state.deal.deal_no] = _deal_view_json(state)
    except Exception:  # noqa: BLE001 - Ledger.verify says what it is
        return None
    return Folded(session_id, len(rows), prev, store.dumps(state), views, last_of_deal,
                  state, log, timed, taken)


def _chunk(conn: Connection, first: str, last: str, *, rebuild: bool) -> ChunkResult:
    out = ChunkResult()
    if rebuild and conn.dialect.name == "postgresql":
        conn.execute(select(sessions.c.id).where(sessions.c.id >= first, sessions.c.id <= last)
                     .with_for_update())
    ids = sorted(_load_sessions(conn, first, last))
    known = set(ids)
    stored = {} if rebuild else {check.name: check.load(conn, first, last) for check in CHECKS}
    seen: set[str] = set()
    good: list[Folded] = []
    # the versions whose state the fold keeps: each stored snapshot's, to compare it; every
    # multiple of the interval, to write it
    every = _snapshot_every() if rebuild else 0
    snapshot_versions = {} if rebuild else stored["snapshots"]
    for sid, rows in _sessions_of(_event_rows(conn, first, last)):
        out.events += len(rows)
        if sid not in known:
            continue  # a stream with no session row: not a session's log
        seen.add(sid)
        states_at: Collection[int] = range(every, len(rows) + 1, every) if every > 0 \
            else snapshot_versions.get(sid, ())
        folded = _fold(sid, rows, states_at)
        if folded is None:
            out.suspects.append(sid)
            continue
        folded.club_id = _load_sessions(conn, first, last)[sid][3]
        if rebuild:
            good.append(folded)
            continue
        found = []
        for check in CHECKS:
            values = stored[check.name]
            value = values[sid] if sid in values else check.absent()
            rebuilt = check.rebuilt(folded)
            if value != rebuilt or type(value) is not type(rebuilt):
                found += check.diff(value, rebuilt)
        if found:
            out.problems[sid] = found
    out.suspects += [sid for sid in ids if sid not in seen]  # sessions without events
    out.sessions = len(ids)
    conn.info.pop("bulk_sessions", None)
    if rebuild:
        for check in CHECKS:
            if check.write is not None:
                check.write(conn, good)
    return out


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for one chunk, and back as it was after it.

    A chunk holds tens of thousands of events and states alive while it folds them, and
    every few hundred allocations the collector walks the young objects, and now and then
    all of them: a third of a verify's CPU (docs/performance.md). What the fold makes is
    freed by reference counting when a session is done, cycles or not; what is left in a
    cycle (all of it still young: nothing is promoted while the collector is off) is
    collected when the chunk ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(0)


def _run_chunks(engine: Engine, chunks: Sequence[tuple[str, str]], rebuild: bool
                ) -> ChunkResult:
    total = ChunkResult()
    for first, last in chunks:
        if rebuild:
            with writer(engine).begin() as conn, _collector_paused():
                result = _chunk(conn, first, last, rebuild=True)
        else:
            with _snapshot(engine) as conn, _collector_paused():
                result = _chunk(conn, first, last, rebuild=False)
        total.problems.update(result.problems)
        total.suspects += result.suspects
        total.sessions += result.sessions
        total.events += result.events
    return total


class _snapshot:
    """A read-only transaction that sees the log and the projections as of one moment."""

    def __init__(self, engine: Engine):
        self._engine = engine

    def __enter__(self) -> Connection:
        options = {"isolation_level": "REPEATABLE READ"} \
            if self._engine.dialect.name == "postgresql" else {}
        self._conn = self._engine.connect().execution_options(**options)
        self._conn.begin()
        return self._conn

    def __exit__(self, *exc: object) -> None:
        self._conn.rollback()
        self._conn.close()


_FORKED: dict[str, Any] = {}


def _in_worker(job: tuple[int, list[tuple[str, str]], bool]) -> ChunkResult:
    key, chunks, rebuild = job
    engine: Engine = _FORKED[str(key)]
    if not _FORKED.get("disposed"):
        # The parent's pooled connections are its own: this process opens its own.
        engine.dispose(close=False)
        _FORKED["disposed"] = True
    return _run_chunks(engine, chunks, rebuild)


def _pass(engine: Engine, *, rebuild: bool, workers: int | None
          ) -> tuple[list[str], ChunkResult]:
    ids, chunks, claimed = _plan(engine)
    n = workers if workers is not None else workers_for(engine, claimed)
    n = max(1, min(n, len(chunks)))
    if rebuild and engine.dialect.name == "sqlite":
        n = 1  # one writer at a time on a SQLite file
    if n == 1:
        return ids, _run_chunks(engine, chunks, rebuild)
    # Chunk i goes to worker i mod n: each worker's share of the log is about the same.
    shares = [list(chunks[i::n]) for i in range(n)]
    key = id(engine)
    _FORKED[str(key)] = engine
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            results = pool.map(_in_worker, [(key, share, rebuild) for share in shares])
    finally:
        _FORKED.pop(str(key), None)
    total = ChunkResult()
    for result in results:
        total.problems.update(result.problems)
        total.suspects += result.suspects
        total.sessions += result.sessions
        total.events += result.events
    return ids, total


def verify_all(engine: Engine, *, workers: int | None = None) -> dict[str, list[str]]:
    """{session_id: what `Ledger.verify` finds for it} for every session, in id order ([]
    where the log is whole and the projections agree with it)."""
    from ledger.service import Ledger

    ids, result = _pass(engine, rebuild=False, workers=workers)
    found = dict(result.problems)
    ledger = Ledger(engine)
    for sid in sorted(set(result.suspects)):
        found[sid] = ledger.verify(sid)
    return {sid: found.get(sid, []) for sid in ids}


def rebuild_all(engine: Engine, *, workers: int | None = None) -> list[str]:
    """Rewrite every session's projections from its log; return the session ids in order.

    Sessions whose log is not whole are rebuilt by `rebuild_projections` one at a time
    (which raises where the log does not fold); `verify_all` afterwards says what is wrong
    with their logs."""
    from ledger.store.copy import rebuild_projections

    ids, result = _pass(engine, rebuild=True, workers=workers)
    for sid in sorted(set(result.suspects)):
        rebuild_projections(engine, sid)
    return ids
