"""The store on SQLite: one writer at a time for the whole database.

A write transaction starts with BEGIN IMMEDIATE, so it holds the database's write lock from
its first statement and cannot fail half way on a lock it did not get. Before that, writers
queue on a lock file beside the database (`WriterQueue`): each is woken the moment the one
before it is done, where SQLite's own busy handler has waiters sleep and poll. The
connection is taken from the pool before the queue and given back after it, so that only
the transaction itself holds the other writers back.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import Engine, Text, bindparam, cast, delete, insert, select, update
from sqlalchemy.dialects.sqlite import insert as upsert
from sqlalchemy.exc import IntegrityError

from .base import (
    Head,
    Rebuilt,
    SessionWrite,
    Store,
    Tx,
    VersionMoved,
    by_club,
    club_exists,
    club_is,
    json_text,
)
from .chain import GENESIS
from .db import writer
from .tables import deal_views, events, sessions, snapshots

log = logging.getLogger("lanterloo.store")
_UNIQUE = re.compile(r"UNIQUE constraint failed: (\w+)\.")


class SqliteTx(Tx):
    def session_head(self, session_id: str, *, club_id: str | None,
                     reply_to: tuple[str, str] | None) -> Head | None:
        # BEGIN IMMEDIATE already holds the database's write lock: the row cannot move.
        # The state is read as its text: the caller decodes it once.
        query = select(sessions.c.version, sessions.c.head_hash, cast(sessions.c.state, Text),
                       sessions.c.club_id, sessions.c.shape).where(sessions.c.id == session_id)
        if club_id is not None:
            query = query.where(sessions.c.club_id == club_id)
        row = self.conn.execute(query).first()
        if row is None:
            return None
        reply = self.stored_reply(*reply_to, club_id) if reply_to is not None else None
        return Head(int(row[0]), row[1] or GENESIS, row[2], row[3], reply, int(row[4]))

    def write_session(self, write: SessionWrite) -> list[int]:
        conn, sid = self.conn, write.session_id
        moved = {"club_id": write.club_id, "version": write.version,
                 "state": json_text(write.state_json), "head_hash": write.head_hash,
                 "updated_at": write.rows[0]["recorded_at"], "shape": write.shape}
        if write.old_version is None:
            conn.execute(insert(sessions).values(id=sid, created_at=moved["updated_at"],
                                                 **moved))
        elif conn.execute(update(sessions).where(club_is(sessions, self.club_before(write)),
                                                 sessions.c.id == sid,
                                                 sessions.c.version == write.old_version)
                          .values(**moved)).rowcount != 1:
            raise VersionMoved(sid)
        positions = conn.execute(
            insert(events).returning(events.c.position, sort_by_parameter_order=True),
            [{**row, "club_id": write.club_id} for row in write.rows]).scalars().all()
        if write.keep_views_to is not None:
            conn.execute(delete(deal_views).where(club_is(deal_views, write.club_id),
                                                  deal_views.c.session_id == sid,
                                                  deal_views.c.deal_no > write.keep_views_to))
        for deal_no, view in sorted(write.views.items()):
            statement = upsert(deal_views).values(session_id=sid, club_id=write.club_id,
                                                  deal_no=deal_no, version=write.version,
                                                  view=json_text(view))
            # No conflict target: the view's primary key, whichever it is (migration 0018
            # leads it with the club; `lanterloo club attach` writes at 0017 too).
            conn.execute(statement.on_conflict_do_update(
                set_={"version": statement.excluded.version, "view": statement.excluded.view}))
        if write.snapshot:
            conn.execute(insert(snapshots).values(session_id=sid, club_id=write.club_id,
                                                  version=write.version,
                                                  state=json_text(write.state_json)))
        if write.results is not None:
            self.replace_results(sid, write.club_id, write.results)
        return [int(p) for p in positions]

    def _lock_club(self, club_id: str) -> bool:
        return club_exists(self.conn, club_id, lock=False)  # the write lock is held already

    def replace_projections(self, rebuilt: Sequence[Rebuilt]) -> None:
        if not rebuilt:
            return
        conn = self.conn
        # SQLite's IS: equal, or both NULL (a session from before clubs, at revision 0017)
        conn.execute(update(sessions).where(sessions.c.club_id.is_(bindparam("b_club")),
                                            sessions.c.id == bindparam("b_id"))
                     .values(version=bindparam("b_version"),
                             state=bindparam("b_state", type_=Text),
                             shape=bindparam("b_shape")),
                     [{"b_club": r.club_id, "b_id": r.session_id, "b_version": r.version,
                       "b_state": r.state_json, "b_shape": r.shape} for r in rebuilt])
        for club_id, ids in by_club(rebuilt).items():
            conn.execute(delete(deal_views).where(club_is(deal_views, club_id),
                                                  deal_views.c.session_id.in_(ids)))
            conn.execute(delete(snapshots).where(club_is(snapshots, club_id),
                                                 snapshots.c.session_id.in_(ids)))
        views = [{"s": r.session_id, "c": r.club_id, "n": n, "v": v, "t": text}
                 for r in rebuilt for n, (v, text) in sorted(r.views.items())]
        if views:
            conn.execute(insert(deal_views).values(
                session_id=bindparam("s"), club_id=bindparam("c"), deal_no=bindparam("n"),
                version=bindparam("v"), view=bindparam("t", type_=Text)), views)
        kept = [{"s": r.session_id, "c": r.club_id, "v": v, "t": text}
                for r in rebuilt for v, text in sorted(r.snapshots.items())]
        if kept:
            conn.execute(insert(snapshots).values(
                session_id=bindparam("s"), club_id=bindparam("c"), version=bindparam("v"),
                state=bindparam("t", type_=Text)), kept)
        self.replace_results_of([r.session_id for r in rebuilt],
                                [row for r in rebuilt for row in r.results])


class SqliteStore(Store):
    def __init__(self, engine: Engine):
        super().__init__(engine)
        self._writer = writer(engine)
        self._queue = WriterQueue.beside(engine)
        self._epoch = Epoch.beside(engine)

    @contextmanager
    def transaction(self) -> Iterator[SqliteTx]:
        with self._writer.connect() as conn:
            with self._queue, conn.begin():
                tx = SqliteTx(conn)
                yield tx
            for then in tx.after_commit:
                then()

    def token_epoch(self) -> Any:
        return self._epoch.read() if self._epoch is not None else None

    def tokens_changed(self, tx: Tx) -> None:
        if self._epoch is not None:
            tx.after_commit.append(self._epoch.bump)

    def violated_table(self, error: IntegrityError) -> str | None:
        match = _UNIQUE.match(str(error.orig))
        return match.group(1) if match else None


class Epoch:
    """A counter in a file beside the database, moved after each commit that changes
    tokens, members or clubs: every process on the host reads it (one pread) to know
    whether what it knows of them still holds."""

    def __init__(self, path: str):
        self._path = path
        self._fd: int | None = None
        self._pid = -1

    @staticmethod
    def beside(engine: Engine) -> Epoch | None:
        database = str(engine.url.database or "")
        if database in ("", ":memory:") or database.startswith("file:"):
            return None
        return Epoch(f"{database}.tokens")

    def _file(self) -> int | None:
        """The counter's file, opened once per process: read-write (made if missing), or
        read-only where the file or its folder is read-only (nothing can then change a
        token through the service), or None where it cannot be opened at all."""
        if self._fd is None or self._pid != os.getpid():
            try:
                self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                try:
                    self._fd = os.open(self._path, os.O_RDONLY)
                except OSError:
                    return None  # no file and no room for one: nothing may be taken as known
            self._pid = os.getpid()
        return self._fd

    def read(self) -> int | None:
        """The epoch, or None when there is no counter to read (every token is then looked
        up in the database, and a read-only database still answers reads)."""
        fd = self._file()
        if fd is None:
            return None
        try:
            return int.from_bytes(os.pread(fd, 8, 0) or b"\0", "big")
        except OSError:
            return None

    def bump(self) -> None:
        fd = self._file()
        try:
            if fd is None:
                raise OSError(f"{self._path} cannot be opened")
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                os.pwrite(fd, ((self.read() or 0) + 1).to_bytes(8, "big"), 0)
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        except OSError as error:
            # The change is committed: it must not be answered as a failure. Other processes
            # see it when they look their tokens up again (Clubs.recheck_s).
            log.warning("the token epoch could not be moved: %s", error)


class WriterQueue:
    """One lock for the writers of one SQLite file: a thread lock for this process's threads,
    then flock(2) on a file beside the database for the other processes (gunicorn's
    workers). The kernel wakes a waiter as soon as the lock is released."""

    def __init__(self, path: str):
        self._path = path
        self._threads = threading.Lock()
        self._fd: int | None = None
        self._pid = -1

    @staticmethod
    def beside(engine: Engine) -> Any:
        """The queue of the engine's database file (none for a database in memory)."""
        database = str(engine.url.database or "")
        if database in ("", ":memory:") or database.startswith("file:"):
            return nullcontext()
        return WriterQueue(f"{database}.writers")

    def __enter__(self) -> None:
        self._threads.acquire()
        try:
            if self._fd is None or self._pid != os.getpid():  # a fork gets its own
                try:
                    self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
                except OSError:
                    # A read-only file or folder: no queue file can be made or locked. The
                    # write goes on, and SQLite refuses it as a read-only database (a 503),
                    # or its busy timeout queues it where only the lock file was read-only.
                    self._fd = None
                self._pid = os.getpid()
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._threads.release()
            raise

    def __exit__(self, *exc: object) -> None:
        try:
            if self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._threads.release()
