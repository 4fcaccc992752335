"""Verify and rebuild every session's projections, in chunks, on every core.

    problems = verify_all(engine)          # {session_id: [difference, ...]}, every session
    ids = rebuild_all(engine)              # every session id, its projections rewritten

What is checked and written is ledger/projections.py's, session by session as for one
session; here the sessions are cut, in id order, into chunks of at most CHUNK_EVENTS events
(by their `sessions.version`; finer for a smaller log, so that each worker gets several),
each read in one transaction, and the chunks are handed out one at a time, the largest
first, to worker processes (one per CPU, forked, each with its own connection pool:
`engine.dispose(close=False)` after the fork, as SQLAlchemy's pooling docs say) as each
asks for more: none waits for another at the end.

A `Progress` given to a pass hears of each chunk as it is done (its sessions and events), as
the chunk's findings come back from its worker: api/cli/progress.py draws it on a terminal.

A chunk is folded with Python's cyclic garbage collector paused (`_collector_paused`): it
holds tens of thousands of events and states alive, the collector's scans of them were a
third of the pass's CPU, and the fold makes no cycles for it to find (docs/performance.md).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from sqlalchemy import Engine, select

from ledger import projections
from ledger.projections import Pass
from ledger.store import open_store, partitions
from ledger.store.base import Store
from ledger.store.migrate import SessionsOutsideClubs, upgrade
from ledger.store.tables import sessions

__all__ = ["Progress", "migrate", "rebuild_all", "rebuild_stale", "verify_all", "workers_for"]

CHUNK_EVENTS = 50_000  # events read and folded per transaction, at most
MIN_CHUNK_EVENTS = 5_000  # ... and at least, where the log is cut finer for the workers
SHARES = 4  # chunks a worker is given at least, one at a time
INLINE_EVENTS = 100_000  # below this, one process: forking costs more than it saves

Run = Callable[[Store, str, str], Pass]


class Progress(Protocol):
    """Who watches a long pass: told its size, then what each chunk did."""

    def begin(self, sessions: int, events: int) -> None:
        """The pass starts: `sessions` sessions, about `events` events (their versions)."""

    def advance(self, sessions: int, events: int) -> None:
        """One more chunk is done: its sessions and the events it read."""


def verify_all(engine: Engine, *, workers: int | None = None,
               progress: Progress | None = None) -> dict[str, list[str]]:
    """{session_id: what verify finds for it} for every session, in id order ([] where the
    log is whole and the projections agree with it)."""
    ids, found = _pass(engine, projections.verify, workers, progress=progress)
    return {sid: found.problems.get(sid, []) for sid in ids}


def rebuild_all(engine: Engine, *, workers: int | None = None,
                progress: Progress | None = None) -> list[str]:
    """Rewrite every session's projections from its log; the session ids in order. A log
    that does not fold is refused (its chunk is not written); `verify_all` afterwards says
    what is wrong with logs that are not whole."""
    ids, _ = _pass(engine, projections.rebuild, workers, progress=progress)
    return ids


def migrate(engine: Engine, *, partition_by_club: int | None = None) -> list[str]:
    """An upgrade: the schema to the head (Alembic), then the projections of every session
    of an older form rebuilt from its log (`rebuild_stale`); the sessions rebuilt. A
    database with sessions from before clubs goes as far as it can (SessionsOutsideClubs'
    `below`: where `lanterloo club attach` gives them a club), its projections are rebuilt
    there, and the refusal is raised. With `partition_by_club` (an install's, on an empty
    PostgreSQL database) the big tables are then made partitioned by club
    (ledger/store/partitions.py); PartitionRefused, before anything is done, elsewhere."""
    if partition_by_club is not None:
        with engine.connect() as conn:
            why = partitions.refusal(conn, partition_by_club)
        if why is not None:
            raise partitions.PartitionRefused(why)
    try:
        upgrade(engine)
    except SessionsOutsideClubs as refused:
        upgrade(engine, refused.below)
        rebuild_stale(engine)
        raise
    if partition_by_club is not None:
        partitions.partition_by_club(engine, partition_by_club)
    return rebuild_stale(engine)


def rebuild_stale(engine: Engine, *, workers: int | None = None) -> list[str]:
    """Rebuild the sessions whose projections are of an older form than this code writes
    (projections.SHAPE), as an upgrade leaves them; their ids in order."""
    ids, _ = _pass(engine, projections.rebuild, workers, stale_only=True)
    return ids


def workers_for(events: int) -> int:
    """One process per CPU this process may use; one for a small log or where fork is not."""
    if events < INLINE_EVENTS or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, cpus)


def _plan(engine: Engine, stale_only: bool = False
          ) -> tuple[list[str], list[tuple[str, int]]]:
    """(every session id in order, (id, events its row claims) of those the pass takes:
    all, or with `stale_only` those of an older projection form)."""
    query = select(sessions.c.id, sessions.c.version, sessions.c.shape).order_by(sessions.c.id)
    with engine.connect() as conn:
        rows = list(conn.execute(query))
    return [sid for sid, _, _ in rows], [
        (sid, max(int(version), 1)) for sid, version, shape in rows
        if not stale_only or shape != projections.SHAPE]


def _chunks(sizes: Sequence[tuple[str, int]], workers: int, stale_only: bool = False
            ) -> list[tuple[str, str, int]]:
    """The sessions cut into (first id, last id, events) in id order, of about `_chunk_size`
    events each; with `stale_only` one chunk a session (others may lie between them)."""
    if stale_only:
        return [(sid, sid, size) for sid, size in sizes]
    target = _chunk_size(sum(size for _, size in sizes), workers)
    chunks: list[tuple[str, str, int]] = []
    first, total = None, 0
    for sid, size in sizes:
        first = first if first is not None else sid
        total += size
        if total >= target:
            chunks.append((first, sid, total))
            first, total = None, 0
    if first is not None:
        chunks.append((first, sizes[-1][0], total))
    return chunks


def _chunk_size(events: int, workers: int) -> int:
    """CHUNK_EVENTS, or less where that would leave a worker with fewer than SHARES
    chunks (never under MIN_CHUNK_EVENTS): the chunks are handed out one at a time as the
    workers ask, the largest first, so that the workers end together."""
    if workers <= 1:
        return CHUNK_EVENTS
    return min(CHUNK_EVENTS, max(MIN_CHUNK_EVENTS, -(-events // (workers * SHARES))))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for one chunk, and back as it was after it. What
    the fold makes is freed by reference counting when a session is done; what is left in
    a cycle (all of it young: nothing is promoted while the collector is off) is collected
    when the chunk ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(0)


Done = Callable[[tuple[int, int]], None]


def _run_chunks(engine: Engine, run: Run, chunks: Sequence[tuple[str, str, int]],
                done: Done | None = None) -> Pass:
    """`done`: told (sessions, events) of each chunk as it is done."""
    store = open_store(engine)
    total = Pass()
    for first, last, _ in chunks:
        with _collector_paused():
            chunk = run(store, first, last)
        total.add(chunk)
        if done is not None:
            done((len(chunk.problems), chunk.events))
    return total


_FORKED: dict[str, Any] = {}


def _in_worker(job: tuple[str, tuple[str, str, int]]) -> Pass:
    key, chunk = job
    engine, run = _FORKED[key]
    if not _FORKED.get("disposed"):
        # The parent's pooled connections are its own: this process opens its own.
        engine.dispose(close=False)
        _FORKED["disposed"] = True
    return _run_chunks(engine, run, [chunk])


def _pass(engine: Engine, run: Run, workers: int | None, stale_only: bool = False,
          progress: Progress | None = None) -> tuple[list[str], Pass]:
    ids, sizes = _plan(engine, stale_only)
    claimed = sum(size for _, size in sizes)
    if progress is not None:
        progress.begin(len(ids), claimed)
    if not sizes:
        return ids, Pass()
    done = _telling(progress) if progress is not None else None
    n = workers if workers is not None else workers_for(claimed)
    if run is projections.rebuild and engine.dialect.name == "sqlite":
        n = 1  # one writer at a time on a SQLite file
    chunks = _chunks(sizes, n, stale_only)
    n = max(1, min(n, len(chunks)))
    if n == 1:
        return ids, _run_chunks(engine, run, chunks, done)
    # One chunk at a time to whichever worker is free, the largest first: the workers end
    # together, whatever else the machine gives each of them.
    largest_first = sorted(chunks, key=lambda chunk: -chunk[2])
    key = str(id(engine))
    _FORKED[key] = (engine, run)
    total = Pass()
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            for result in pool.imap_unordered(_in_worker, [(key, c) for c in largest_first]):
                total.add(result)
                if done is not None:
                    done((len(result.problems), result.events))
    finally:
        _FORKED.pop(key, None)
    return ids, total


def _telling(progress: Progress) -> Done:
    return lambda counts: progress.advance(*counts)
