"""The store: one interface for writing the log and its projections, two implementations.

    store = open_store(engine)            # SqliteStore or PostgresStore, chosen once
    with store.transaction() as tx:       # one write transaction
        head = tx.session_head(session_id, club_id=club, reply_to=(scope, key))
        positions = tx.write_session(SessionWrite(...))
        tx.keep_reply(scope, key, club_id=club, fingerprint=..., body=..., now=...)

Every write of the ledger goes through `Tx`: a session's events with its projections
(`write_session`), an entry of a club's book log (`append_book_entry`), the stored answer
to an Idempotency-Key (`keep_reply`), and a rebuild's projections (`replace_projections`).
What differs between the databases is how two writers of one stream meet (on PostgreSQL
in the write itself, conditional on the version it was decided on; on SQLite at the
database's one write lock, taken before the head is read) and how many round trips the
write takes; the rest is shared here. A read of one statement needs no transaction:
`store.reading()`; a read of several that must agree (a log and its stored head, a check,
the books) is one snapshot: `store.consistent()`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

import orjson
from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Table,
    Text,
    cast,
    delete,
    insert,
    or_,
    select,
    type_coerce,
    update,
)
from sqlalchemy.exc import IntegrityError

from . import booklog, clublog, openitems
from .chain import EventRow as EventRow  # re-exported: the rows the checks read
from .chain import as_utc, utc_iso
from .db import clock, one_snapshot
from .tables import (
    KEPT_STATUS_CODE,
    book_entries,
    clubs,
    deal_views,
    events,
    idempotency_keys,
    session_results,
    sessions,
    snapshots,
)


class VersionMoved(Exception):
    """The stream was not at the version the write was decided against; nothing was
    written."""


@dataclass(frozen=True)
class StoredReply:
    """The first answer to a request with an Idempotency-Key."""

    fingerprint: str
    body: dict[str, Any]


@dataclass(frozen=True)
class Head:
    """A stream as a write finds it, locked for the write's transaction."""

    version: int  # the stream's last version (0: empty)
    head_hash: str  # the chain hash at `version` (GENESIS when empty)
    state_json: str | bytes | None = None  # a session's folded state at `version`
    club_id: str | None = None
    reply: StoredReply | None = None  # the stored answer to the write's key, if any
    shape: int = 0  # the form its projections were written in (ledger/projections.py)
    now: datetime | None = None  # the database's clock, read with the head (`Tx.now`)


@dataclass
class SessionWrite:
    """Everything one write of a session changes: new events and the projections after them.

    `old_version` None opens the session (its row is created). Deal views are written at
    `version`; with `keep_views_to` set (a correction), views of later deals are dropped.
    `results` None leaves the session's results as they are; a list replaces them.
    `club_id` is the session's club after the write: its own, or the club a session from
    before clubs is attached to (ledger/sessions/service.py `attach`).
    With `last`, the store may send the COMMIT with the write (no answer is kept after it).
    """

    session_id: str
    club_id: str | None
    old_version: int | None
    version: int
    rows: list[dict[str, Any]]  # the chained events (chain.chain_rows)
    state_json: str
    views: dict[int, str] = field(default_factory=dict)  # deal_no -> view as JSON
    keep_views_to: int | None = None
    snapshot: bool = False  # keep state_json as the snapshot at `version`
    results: list[dict[str, Any]] | None = None  # rows of session_results
    last: bool = False  # nothing follows in the transaction: the store may commit with it
    shape: int = 0  # the form the projections are written in (ledger/projections.py SHAPE)

    @property
    def head_hash(self) -> str:
        return str(self.rows[-1]["hash"])


@dataclass
class Rebuilt:
    """A session's projections as a rebuild writes them (ledger/projections.py)."""

    session_id: str
    club_id: str | None
    version: int
    state_json: str
    views: dict[int, tuple[int, str]]  # deal_no -> (version written at, view as JSON)
    snapshots: dict[int, str]  # version -> state as JSON
    results: list[dict[str, Any]]
    shape: int


class Tx(ABC):
    """One write transaction (see the module's docstring)."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.after_commit: list[Callable[[], None]] = []  # run once it has committed
        # sessions from before clubs given their club in this transaction (`move_to_club`):
        # their row is found as a row of no club by the write that attaches them
        self.attached: set[str] = set()

    def club_before(self, write: SessionWrite) -> str | None:
        """The club the session's row names as the write finds it: the write's own, but
        none for a session being attached (or, at revision 0017, one from before clubs)."""
        return None if write.session_id in self.attached else write.club_id

    def now(self) -> datetime:
        """The database's clock (db.clock): the time the write's entries are stamped with,
        read once its log is held (or with its head, `Head.now`), before they are chained."""
        return clock(self.conn)

    @abstractmethod
    def session_head(self, session_id: str, *, club_id: str | None,
                     reply_to: tuple[str, str] | None) -> Head | None:
        """The session's row as it stands (None: no such session in `club_id`, or at all
        when `club_id` is None), with the stored answer to `reply_to` (scope, key). It is
        not held: `write_session` writes only if the row is still at its version."""

    @abstractmethod
    def write_session(self, write: SessionWrite) -> list[int]:
        """Insert the events and move every projection to `write.version`; the events'
        positions, in order. Raises VersionMoved, writing nothing, when the session's row
        is not at `write.old_version`."""

    @abstractmethod
    def _lock_club(self, club_id: str) -> bool:
        """Hold the club's book log for this transaction; False when there is no club."""

    @abstractmethod
    def replace_projections(self, rebuilt: Sequence[Rebuilt]) -> None:
        """Write the sessions' projections anew, as a rebuild made them."""

    def stored_reply(self, scope: str, key: str, club_id: str | None) -> StoredReply | None:
        return stored_reply(self.conn, scope, key, club_id)

    def keep_reply(self, scope: str, key: str, *, club_id: str | None, fingerprint: str,
                   body: dict[str, Any], now: datetime) -> None:
        """Keep the first answer to `key`, in `club_id`'s rows (a concurrent twin of the
        request then fails on the key's primary key, and is answered with this)."""
        self.conn.execute(insert(idempotency_keys).values(
            scope=scope, key=key, club_id=club_id, fingerprint=fingerprint,
            status_code=KEPT_STATUS_CODE, response=body, created_at=now))

    def move_to_club(self, session_id: str, club_id: str) -> None:
        """Give the rows of a session recorded before clubs, attached to `club_id` in this
        transaction, their club: its events (a column the chain does not hash), deal views,
        snapshots, result lines and stored answers. (Only at revision 0017: from 0018 on every
        session is a club's, and this changes nothing.)"""
        self.attached.add(session_id)
        # (the open items of its result lines are the upgrade's to fill: 0019 comes after)
        for table, column in ((events, events.c.stream_id),
                              (deal_views, deal_views.c.session_id),
                              (snapshots, snapshots.c.session_id),
                              (session_results, session_results.c.session_id)):
            self.conn.execute(update(table).where(column == session_id,
                                                  table.c.club_id.is_(None))
                              .values(club_id=club_id))
        keys = idempotency_keys.c
        self.conn.execute(update(idempotency_keys)
                          .where(keys.club_id.is_(None),
                                 or_(keys.scope == session_id,
                                     keys.scope.startswith(f"{session_id}:", autoescape=True),
                                     keys.scope == f"attach:{session_id}"))
                          .values(club_id=club_id))

    def book_head(self, club_id: str, *, reply_to: tuple[str, str] | None) -> Head | None:
        """The club's book log, held for this transaction (None: no such club), and the
        database's clock read after it was held."""
        if not self._lock_club(club_id):
            return None
        seq, head = clublog.held_head(self.conn, clublog.books_stream(club_id))
        reply = self.stored_reply(*reply_to, club_id) if reply_to is not None else None
        return Head(seq, head, club_id=club_id, reply=reply, now=self.now())

    def append_book_entry(self, row: dict[str, Any],
                          postings: Sequence[dict[str, Any]] = ()) -> int:
        """Insert a chained book entry (its `seq` the optimistic lock) and its rows of the
        `book_postings` projection, and move the book log's stored head to it; its
        position."""
        position = int(self.conn.execute(
            insert(book_entries).returning(book_entries.c.position), row).scalar_one())
        self.hold_postings(row["club_id"], postings)
        booklog.insert_postings(self.conn, postings)
        openitems.keep(self.conn, row["club_id"], list(openitems.posted_lines(postings)))
        clublog.advance(self.conn, clublog.books_stream(row["club_id"]), row["seq"] - 1,
                        row["seq"], row["hash"])
        return position

    def sessions_in(self, first: str, last: str) -> dict[str, str | None]:
        """{id: club id} of the sessions whose ids are in [first, last], their rows locked
        for this transaction."""
        rows = self.conn.execute(select(sessions.c.id, sessions.c.club_id)
                                 .where(sessions.c.id >= first, sessions.c.id <= last)
                                 .with_for_update())
        return {sid: club for sid, club in rows}

    def hold_postings(self, club_id: str, postings: Iterable[dict[str, Any]]) -> None:
        """Hold the balances' rows the book postings move (all of a write's entries' at
        once, before the first is appended: openitems.hold's order)."""
        openitems.hold(self.conn, club_id, [(p["account"], p["currency"]) for p in postings])

    def hold_results(self, session_ids: Sequence[str], rows: Sequence[dict[str, Any]], *,
                     club_id: str | None = None) -> list[Any]:
        """Hold the kept rows that replacing the sessions' results' lines with `rows`
        moves (openitems.hold's order, every club's in turn); their lines as they stand.
        With `club_id`, the sessions are that club's (a write's); without, any club's (the
        operator's rebuild)."""
        query = select(session_results).where(session_results.c.session_id.in_(
            list(session_ids)))
        if club_id is not None:
            query = query.where(session_results.c.club_id == club_id)
        old = list(self.conn.execute(query))
        by_club: dict[str, list[Mapping[str, Any]]] = {}
        lines: list[Mapping[str, Any]] = [dict(o._mapping) for o in old]
        lines += rows
        for r in lines:
            if r["club_id"] is not None:
                by_club.setdefault(r["club_id"], []).append(r)
        for club in sorted(by_club):
            openitems.hold(self.conn, club, openitems.result_holds(by_club[club]))
        return old

    def replace_results(self, session_id: str, club_id: str | None,
                        rows: Sequence[dict[str, Any]]) -> None:
        """Write the session's results' lines anew (the club's), and its members' open
        items after them."""
        self.replace_results_of([session_id], rows, club_id=club_id)

    def replace_results_of(self, session_ids: Sequence[str], rows: Sequence[dict[str, Any]],
                           *, club_id: str | None = None) -> None:
        """The result lines of the sessions `session_ids` (of `club_id`, if given: a write's;
        else any club's, the operator's rebuild) replaced by `rows`, in one DELETE and one
        INSERT of many rows whatever the number of sessions; then their members' open items
        (a line kept as it was moves nothing; one taken back or changed walks its member's
        lines again)."""
        old = self.hold_results(session_ids, rows, club_id=club_id)
        query = delete(session_results).where(session_results.c.session_id.in_(
            list(session_ids)))
        if club_id is not None:
            query = query.where(session_results.c.club_id == club_id)
        self.conn.execute(query)
        if rows:
            self.conn.execute(insert(session_results), list(rows))
        if self.attached.intersection(session_ids):  # attached at revision 0017, before the
            return  # open items were kept: the upgrade to 0019 fills them from the books
        before = {_line_of(r._mapping): r for r in old}
        after = {_line_of(r): r for r in rows}
        clubs: dict[str, tuple[list[Any], set[tuple[str, str]]]] = {}
        for key in before.keys() - after.keys():
            r = before[key]
            if r.club_id is not None and r.member_id is not None:
                clubs.setdefault(r.club_id, ([], set()))[1].add((r.member_id, r.currency))
        for key in after.keys() - before.keys():
            if after[key]["club_id"] is not None:
                clubs.setdefault(after[key]["club_id"], ([], set()))[0].append(
                    openitems.result_line(after[key]))
        for club, (added, rewalk) in sorted(clubs.items()):
            openitems.keep(self.conn, club, added, rewalk)


# what makes a result's line on the books: a row changed in any of these is another line
LINE_COLUMNS = ("session_id", "seat", "version", "club_id", "member_id", "currency",
                "net_units", "net_minor", "posted_at", "session_name", "corrected_by",
                "reason")


def _line_of(r: Any) -> tuple[Any, ...]:
    return tuple(as_utc(r[name]) if name == "posted_at" else r[name] for name in LINE_COLUMNS)


class Store(ABC):
    """The log and its projections in one database."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @abstractmethod
    def transaction(self) -> Any:
        """A context manager: one write transaction, as a `Tx`; committed on a clean exit."""

    @abstractmethod
    def violated_table(self, error: IntegrityError) -> str | None:
        """The table whose unique or primary key `error` violated, else None."""

    @abstractmethod
    def token_epoch(self) -> Any:
        """A value that changes, for every process of every host, whenever a write of
        tokens, members or clubs commits (`tokens_changed`); None when this process cannot
        tell, and must read such rows afresh every time. A database that cannot be reached
        raises, as a statement would."""

    @abstractmethod
    def tokens_changed(self, tx: Tx) -> None:
        """Mark, in `tx`, that it changes tokens, members or clubs (the epoch moves when it
        commits)."""

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection for reads of one statement each (no transaction held open)."""
        with self.engine.connect() as conn:
            yield conn

    def event_rows(self, conn: Connection, first: str, last: str
                   ) -> Iterator[tuple[str, list[EventRow]]]:
        """(session id, its events in version order) for every stream whose id is in
        [first, last], in id order, read in pages."""
        query = (select(events.c.stream_id, events.c.version, events.c.position, events.c.type,
                        events.c.schema_version, cast(events.c.payload, Text),
                        events.c.recorded_at, events.c.actor, events.c.member_id,
                        events.c.token_id, events.c.idempotency_key, events.c.hash)
                 .where(events.c.stream_id >= first, events.c.stream_id <= last)
                 .order_by(events.c.stream_id, events.c.version)
                 .execution_options(stream_results=True, yield_per=PAGE))
        rows = (EventRow(sid, version, position, type_, schema_version, orjson.loads(payload),
                         utc_iso(at), *rest)
                for sid, version, position, type_, schema_version, payload, at, *rest
                in conn.execute(query))
        return by_stream(rows)

    @contextmanager
    def consistent(self) -> Iterator[Connection]:
        """A read-only transaction that sees the whole database as of one moment: a log and
        its stored head, the projections, the books. Every check of a chain reads through
        it (`clublog.head_problems` refuses any other connection): two statements of
        `reading()` each see a moment of their own, and an append committed between the
        read of a log and the read of its head would make the log look cut short.

        SQLite: one read transaction is one snapshot (WAL: taken at its first read, held to
        its end, beside the writer). PostgreSQL: REPEATABLE READ READ ONLY (`PostgresStore`);
        the same round trips as a READ COMMITTED transaction, and it never waits for a
        writer."""
        with self.engine.connect() as conn, one_snapshot(conn):
            yield conn


PAGE = 10_000  # rows per fetch when reading the log in bulk


def by_stream(rows: Iterable[EventRow]) -> Iterator[tuple[str, list[EventRow]]]:
    """(stream id, its rows) for each run of rows of one stream."""
    for stream_id, batch in groupby(rows, key=_stream_of):
        yield stream_id, list(batch)


_stream_of = itemgetter(0)  # EventRow.stream_id


def stored_reply(conn: Connection, scope: str, key: str, club_id: str | None
                 ) -> StoredReply | None:
    """The first answer to `key` in `scope`, among `club_id`'s (None: the operator's, who
    may ask of any club's; a session being attached, whose club is not yet its own)."""
    query = select(idempotency_keys.c.fingerprint, idempotency_keys.c.response).where(
        idempotency_keys.c.scope == scope, idempotency_keys.c.key == key)
    if club_id is not None:
        query = query.where(idempotency_keys.c.club_id == club_id)
    row = conn.execute(query).first()
    return None if row is None else StoredReply(row[0], row[1])


def club_is(table: Table, club_id: str | None) -> ColumnElement[bool]:
    """The rows of `club_id` in a write's statement; of no club only at revision 0017 (a
    session from before clubs, before it is attached: migration 0018 refuses to run while
    one is left)."""
    return table.c.club_id.is_(None) if club_id is None else table.c.club_id == club_id


def club_exists(conn: Connection, club_id: str, *, lock: bool) -> bool:
    query = select(clubs.c.id).where(clubs.c.id == club_id)
    if lock:
        query = query.with_for_update()
    return conn.execute(query).first() is not None


def by_club(rebuilt: Sequence[Rebuilt]) -> dict[str | None, list[str]]:
    """The rebuilt sessions' ids by their club."""
    found: dict[str | None, list[str]] = {}
    for r in rebuilt:
        found.setdefault(r.club_id, []).append(r.session_id)
    return found


def json_text(text: str) -> Any:
    """JSON already written, bound as text for a JSON column (not encoded a second time)."""
    return type_coerce(text, Text())
