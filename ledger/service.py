"""The application layer: load -> decide -> append -> project -> respond, one transaction.

    ledger = Ledger(make_engine()).for_club(club_id)
    opened = ledger.open_session(OpenSession(players=["Ann", "Bob", "Cal"]),
                                 actor=Actor("Ann", member_id, token_id))
    ledger.append(opened["session_id"], [StartDeal(trump_card="7H")], expected_version=1,
                  actor=Actor("Ann", member_id, token_id))

A club's ledger (`for_club`) reads and writes only that club's sessions: another club's
session is not found. Its sessions are played by the club's members. `Ledger(engine)` alone
is the operator's view (the command line): every session, seated by plain names.

An append loads the session's folded state from its projection row (locked), never the
stream, so its cost does not grow with the log. Reads come from the projections too.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, TypeVar, cast
from uuid import uuid4

import orjson
from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import IntegrityError

from ledger.clubs import Actor, name_key, resolve_players
from ledger.domain import (
    Command,
    ConcurrencyConflict,
    Event,
    InvalidInput,
    InvariantBroken,
    LedgerError,
    OpenSession,
    SessionNotFound,
    SessionState,
    asof,
    deal_view,
    event_from_record,
    event_to_record,
    execute,
    session_view,
    statement,
    statement_csv,
)
from ledger.domain import events as ev
from ledger.domain.corrections import correct, last_entry, live_events
from ledger.domain.evolve import evolve
from ledger.domain.explain import TRAIL_TYPES, Logged, explain, explain_csv
from ledger.domain.series import balance_series
from ledger.domain.state import DealState
from ledger.store import books as books_store
from ledger.store import eventstore as store
from ledger.store.chain import CHAIN_FORMAT, GENESIS, first_broken_link
from ledger.store.db import writer
from ledger.store.tables import sessions

__all__ = ["Ledger", "Actor", "IdempotencyKeyReused", "DealNotFound", "REPLAY_FLAG",
           "MAX_PAGE_LIMIT"]

REPLAY_FLAG = "idempotent_replay"
MAX_PAGE_LIMIT = 1000
MAX_DEAL_NO = 2**31 - 1  # deal_views.deal_no is a 32-bit integer
# An append that crosses a multiple of this version keeps the state as a snapshot, so a read
# as of any version folds at most about this many events (docs/explain.md: the measurements).
SNAPSHOT_EVERY = 100
CREATED = 201

T = TypeVar("T")
_Write = Callable[[Connection], dict[str, Any]]  # writes a decided append; its response


class IdempotencyKeyReused(LedgerError):
    """The Idempotency-Key was already used for a different request."""

    code = "idempotency-key-reuse"

    def __init__(self, key: str):
        super().__init__(f"idempotency key {key!r} was already used for a different request",
                         rule="idempotency-key-reuse", field="Idempotency-Key")


class Forbidden(LedgerError):
    """The caller's role or membership does not allow this on the object."""

    code = "forbidden"


class DealNotFound(LedgerError):
    code = "not-found"


class Ledger:
    """The ledger over one database; `club_id` confines every call to one club's sessions."""

    def __init__(self, engine: Engine, *, club_id: str | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY):
        self.engine = engine
        self.club_id = club_id
        self.snapshot_every = snapshot_every
        self._writer = writer(engine)
        self._reader = store.reader(engine)
        self._states = _states_of(engine)
        self._decide_first = engine.dialect.name == "sqlite"

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction. On a SQLite file, writers first queue on a lock file beside
        the database (`_sqlite_writers`): each is woken the moment the one before it is done,
        where SQLite's own busy handler has them sleep and poll, up to 100 ms a turn. The
        connection is taken from the pool before the queue and given back after it, so that
        only the transaction itself holds the other writers back."""
        with self._writer.connect() as conn, _sqlite_writers(self.engine), conn.begin():
            yield conn

    def for_club(self, club_id: str) -> Ledger:
        """The same ledger, seeing and opening only the sessions of `club_id`."""
        return Ledger(self.engine, club_id=club_id, snapshot_every=self.snapshot_every)

    # -- writes ----------------------------------------------------------------------------

    def open_session(self, command: OpenSession, *, actor: str | Actor,
                     idempotency_key: str | None = None, fingerprint: str | None = None,
                     guests: Sequence[str] = ()) -> dict[str, Any]:
        """Open a new session; return the append response (see `append`).

        In a club, each player is a member's name (any case) or id, or a name listed in
        `guests`, who becomes a guest member; the session records each seat's member.
        """
        actor = _as_actor(actor)
        club_id = self.club_id
        # An idempotency key is the sender's own: the same key from another member (or
        # another club) opens another session.
        scope = ":".join(["open", *(p for p in (club_id, actor.member_id) if p)])
        guests = list(guests)
        fingerprint = fingerprint or _fingerprint(scope, [command], guests)

        def work() -> dict[str, Any]:
            with self._write() as conn:
                if idempotency_key and (stored := store.find_idempotency(
                        conn, scope, idempotency_key)):
                    return _replay(stored, fingerprint, idempotency_key)
                session_id = uuid4().hex
                seated = command
                if club_id is not None:
                    seated = _seat_members(conn, club_id, command, guests)
                state, events = execute(None, seated, session_id=session_id)
                views = {state.deal.deal_no: _current_deal_view(state)} if state.deal else {}
                now = _now()
                store.insert_session(conn, session_id, club_id=club_id, version=state.version,
                                     state=state.to_dict(), now=now)
                return self._commit(conn, session_id, state, events, views, old_version=None,
                                    actor=actor, now=now, scope=scope, key=idempotency_key,
                                    fingerprint=fingerprint)

        return self._guarded(work, scope=scope, key=idempotency_key, fingerprint=fingerprint)

    def append(self, session_id: str, commands: Sequence[Command], *,
               expected_version: int | None = None, actor: str | Actor,
               idempotency_key: str | None = None,
               fingerprint: str | None = None) -> dict[str, Any]:
        """Decide `commands` in order and append all their events, or none.

        Returns {"session_id", "version", "appended": [{"position", "version", "type",
        "schema_version", "payload", "recorded_at", "actor"}, ...], "session": session view,
        "idempotent_replay": bool}.
        """
        commands = list(commands)
        if not commands:
            raise InvalidInput("send at least one event", rule="non-empty-batch",
                               field="events")
        actor = _as_actor(actor)
        scope = f"{session_id}:{actor.member_id}" if actor.member_id else session_id
        # The fingerprint matters only to a request with a key (docs/api.md, "Retries").
        fingerprint = fingerprint or (_fingerprint(scope, commands, expected_version)
                                      if idempotency_key else "")
        based_on: list[int] = []  # the version the batch was decided against

        def screen(row: store.Locked | None) -> dict[str, Any] | None:
            """The answer owed before deciding anything: a refusal, or a replay."""
            if row is None:
                raise _not_found(session_id)
            # A retry of a request that already succeeded is answered before the version
            # check: the stream has moved on because of that very request.
            if idempotency_key and row.idempotency is not None:
                fingerprint_, _, response = row.idempotency
                return _replay(SimpleNamespace(fingerprint=fingerprint_,
                                               response=store.loads(response)),
                               fingerprint, idempotency_key)
            if expected_version is not None and expected_version != row.version:
                raise ConcurrencyConflict(row.version, expected_version)
            based_on.append(row.version)
            return None

        def decide(row: store.Locked) -> tuple[SessionState, _Write | None]:
            """The state after the commands, and what writes their events (None: no
            events)."""
            # The state folded at this version: this worker's own copy when it made the
            # last append, else the projection row's. From here on it is folded in place,
            # so it is back in the cache only once the transaction has committed.
            state = self._states.take(session_id, row)
            events: list[Event] = []
            views: dict[int, str] = {}
            last: tuple[DealState, int] | None = None  # a deal, the pool after it moved
            for command in commands:
                state, produced = execute(state, command, session_id=session_id)
                events.extend(produced)
                if state.deal is None or not produced:
                    continue
                # A command's events belong to one deal at most, so the view after the
                # command is that deal's view as a rebuild would leave it. A deal's view
                # is written once per request: when the next deal replaces it (the
                # replaced DealState is no longer folded into), or at the end.
                if any(getattr(e, "deal_no", state.deal.deal_no) != state.deal.deal_no
                       for e in produced):
                    raise InvariantBroken(f"{type(command).__name__} produced events "
                                          "for more than one deal")
                if last is not None and last[0] is not state.deal:
                    views[last[0].deal_no] = _deal_view_json(state, *last)
                last = (state.deal, state.pool_units())
            if last is not None:
                views[last[0].deal_no] = _deal_view_json(state, *last)
            if not events:
                return state, None
            return state, self._prepare_append(
                session_id, state, events, views, old_version=row.version, actor=actor,
                now=_now(), scope=scope, key=idempotency_key, fingerprint=fingerprint,
                prev_hash=row.head_hash)

        def work() -> dict[str, Any]:
            seen: store.Locked | None = None
            ahead: _Write | None = None
            if self._decide_first:
                # SQLite has one writer at a time for the whole database: the append is
                # decided, chained and encoded on the row as it stands, before the write
                # lock, and written under it only if the row has not moved meanwhile (its
                # version and chain head, the key still unanswered); else it is decided
                # again under the lock, as on PostgreSQL.
                with self._reader.connect() as conn:
                    seen = store.lock_for_append(conn, session_id, club_id=self.club_id,
                                                 scope=scope, key=idempotency_key)
                if seen is not None and expected_version is not None \
                        and expected_version > seen.version:
                    seen = None  # it may be the version by the time of the lock: decide there
                elif (early := screen(seen)) is not None:
                    return early  # a replay: the key's answer is for good
            if seen is not None:
                refused: LedgerError | None = None
                try:
                    state, ahead = decide(seen)
                except LedgerError as error:
                    refused = error
                if ahead is None:
                    # A refusal, or no events to write: the answer stands if the row has not
                    # moved since it was read (no write lock needed to tell).
                    with self._reader.connect() as conn:
                        unmoved = store.check_append(conn, session_id, seen, scope=scope,
                                                     key=idempotency_key)
                    if unmoved:
                        if refused is not None:
                            raise refused
                        self._states.put(session_id, state, None, seen)
                        return self._respond(session_id, state, [], replay=False)
            with self._write() as conn:
                if ahead is not None and seen is not None and store.check_append(
                        conn, session_id, seen, scope=scope, key=idempotency_key):
                    row, result = seen, ahead(conn)
                else:
                    locked = store.lock_for_append(conn, session_id, club_id=self.club_id,
                                                   scope=scope, key=idempotency_key)
                    if (early := screen(locked)) is not None:
                        return early
                    assert locked is not None
                    row = locked
                    state, write = decide(row)
                    result = write(conn) if write is not None else \
                        self._respond(session_id, state, [], replay=False)
            # committed
            self._states.put(session_id, state, result.get("appended"), row)
            return result

        def conflict() -> ConcurrencyConflict:
            with self.engine.connect() as conn:
                current = store.stream_version(conn, session_id)
            return ConcurrencyConflict(current, expected_version if expected_version
                                       is not None else based_on[-1])

        return self._guarded(work, scope=scope, key=idempotency_key, fingerprint=fingerprint,
                             conflict=conflict)

    def correct(self, session_id: str, *, voids: Sequence[int],
                replacements: Sequence[Command] = (), reason: str, actor: str | Actor,
                expected_version: int | None = None, idempotency_key: str | None = None,
                fingerprint: str | None = None) -> dict[str, Any]:
        """Void entries (by version) and put `replacements` in place of the first; append the
        correction and the session's tail decided anew, or refuse and append nothing.

        Returns the append response (see `append`). Reads the whole log: corrections are rare.
        """
        return self._restate(session_id, lambda log, by: list(voids), replacements=replacements,
                             reason=reason, actor=actor, expected_version=expected_version,
                             idempotency_key=idempotency_key, fingerprint=fingerprint,
                             scope_body=["correct", list(voids), reason])

    def undo(self, session_id: str, *, reason: str, actor: str | Actor,
             own_entry_only: bool = False, expected_version: int | None = None,
             idempotency_key: str | None = None,
             fingerprint: str | None = None) -> dict[str, Any]:
        """Void the last entry a client made (a correction event, never a deletion).

        `own_entry_only` (a dealer's undo): refuse unless the actor's member appended it.
        """
        member = _as_actor(actor).member_id

        def last(log: list[tuple[int, Event]], appended_by: dict[int, str | None]) -> list[int]:
            version = last_entry(log)
            if version is None:
                raise InvalidInput("there is no entry to undo", rule="undo",
                                   field="session_id")
            if own_entry_only and appended_by.get(version) != member:
                raise Forbidden("the last entry was made by someone else; a treasurer "
                                "corrects it", rule="undo-own-entry")
            return [version]

        return self._restate(session_id, last, replacements=(), reason=reason, actor=actor,
                             expected_version=expected_version,
                             idempotency_key=idempotency_key, fingerprint=fingerprint,
                             scope_body=["undo", reason])

    def _restate(self, session_id: str,
                 choose: Callable[[list[tuple[int, Event]], dict[int, str | None]], list[int]],
                 *, replacements: Sequence[Command], reason: str, actor: str | Actor,
                 expected_version: int | None, idempotency_key: str | None,
                 fingerprint: str | None, scope_body: list[Any]) -> dict[str, Any]:
        actor = _as_actor(actor)
        scope = f"{session_id}:{actor.member_id}" if actor.member_id else session_id
        fingerprint = fingerprint or _fingerprint(scope, replacements, expected_version,
                                                  *scope_body)

        def work() -> dict[str, Any]:
            with self._write() as conn:
                row = store.load_session(conn, session_id, club_id=self.club_id,
                                         for_update=True)
                if row is None:
                    raise _not_found(session_id)
                if idempotency_key and (stored := store.find_idempotency(
                        conn, scope, idempotency_key)):
                    return _replay(stored, fingerprint, idempotency_key)
                if expected_version is not None and expected_version != row.version:
                    raise ConcurrencyConflict(row.version, expected_version)
                rows = list(store.stream(conn, session_id))
                log = _versioned(rows)
                appended_by = {row.version: row.member_id for row in rows}
                state, events = correct(log, voids=choose(log, appended_by),
                                        replacements=replacements, reason=reason,
                                        authorised_by=actor.name, session_id=session_id)
                new_log = log + [(row.version + 1 + i, e) for i, e in enumerate(events)]
                _, views = _fold_with_views(
                    None, (e for _, e in live_events(new_log)), session_id)
                store.delete_deal_views_after(conn, session_id, state.deal_no)
                return self._commit(conn, session_id, state, events, views,
                                    old_version=row.version, actor=actor, now=_now(),
                                    scope=scope, key=idempotency_key, fingerprint=fingerprint,
                                    prev_hash=row.head_hash)

        def conflict() -> ConcurrencyConflict:
            with self.engine.connect() as conn:
                current = store.stream_version(conn, session_id)
            return ConcurrencyConflict(current, expected_version or 0)

        return self._guarded(work, scope=scope, key=idempotency_key, fingerprint=fingerprint,
                             conflict=conflict)

    def _commit(self, conn: Connection, session_id: str, state: SessionState,
                events: list[Event], views: dict[int, dict[str, Any]], *,
                old_version: int | None, actor: Actor, now: datetime, scope: str,
                key: str | None, fingerprint: str,
                prev_hash: str | None = None) -> dict[str, Any]:
        """Append the events and bring every projection to the new version."""
        first_version = state.version - len(events) + 1
        if old_version is not None and first_version != old_version + 1:
            raise InvariantBroken(f"state at version {state.version} after {len(events)} "
                                  f"events from version {old_version}")
        appended = store.append_events(
            conn, session_id, first_version, [event_to_record(e) for e in events],
            actor=actor.name, member_id=actor.member_id, token_id=actor.token_id,
            recorded_at=now, idempotency_key=key, prev_hash=prev_hash or GENESIS)
        if books_store.moves_results(events):  # the club's books (docs/books.md)
            books_store.project_results(conn, session_id, state)
        head = appended[-1]["hash"]
        if old_version is None:  # just inserted at this version: only the chain head
            store.update_session(conn, session_id, old_version=state.version,
                                 version=state.version, state=None, now=now, head_hash=head)
        elif not store.update_session(
                conn, session_id, old_version=old_version, version=state.version,
                state=state.to_dict(), now=now, head_hash=head):
            row = store.load_session(conn, session_id)
            raise ConcurrencyConflict(row.version if row else 0, old_version)
        store.save_deal_views(conn, session_id, {
            deal_no: (state.version, view) for deal_no, view in views.items()})
        if asof.snapshot_due(old_version or 0, state.version, self.snapshot_every):
            store.save_snapshot(conn, session_id, state.version, state.to_dict())
        response = _plain({"session_id": session_id, "version": state.version,
                           "appended": appended, "session": session_view(state)})
        if key:
            store.save_idempotency(conn, scope, key, fingerprint=fingerprint,
                                   status_code=CREATED, response=response, now=now)
        return {**response, REPLAY_FLAG: False}

    def _prepare_append(self, session_id: str, state: SessionState, events: list[Event],
                        views: dict[int, str], *, old_version: int, actor: Actor,
                        now: datetime, scope: str, key: str | None, fingerprint: str,
                        prev_hash: str | None) -> _Write:
        """What appends the events and brings every projection to the new version: all
        that needs no database (the chain, the JSON, the response but for the positions)
        done here; the write, in one round trip with the commit on PostgreSQL
        (store.write_append), when it is called with the transaction."""
        first_version = state.version - len(events) + 1
        if first_version != old_version + 1:
            raise InvariantBroken(f"state at version {state.version} after {len(events)} "
                                  f"events from version {old_version}")
        rows = store.chained_rows(
            session_id, first_version, [event_to_record(e) for e in events],
            actor=actor.name, member_id=actor.member_id, token_id=actor.token_id,
            recorded_at=now, idempotency_key=key, prev_hash=prev_hash or GENESIS)
        # The response as JSON gives it back, the positions still to come (integers).
        response: dict[str, Any] = _plain({
            "session_id": session_id, "version": state.version,
            "appended": [store.stored(r, 0) for r in rows], "session": session_view(state)})
        state_json = _state_json(state)
        snapshot = asof.snapshot_due(old_version, state.version, self.snapshot_every)
        results = books_store.moves_results(events)  # the club's books (docs/books.md)

        def respond(positions: list[int]) -> dict[str, Any]:
            for event, position in zip(response["appended"], positions, strict=True):
                event["position"] = position
            return response

        def write(conn: Connection) -> dict[str, Any]:
            if results:
                books_store.project_results(conn, session_id, state, now=now, pending=[
                    (first_version + i, e) for i, e in enumerate(events)])
            written = store.write_append(
                conn, session_id, rows, old_version=old_version, version=state.version,
                state_json=state_json, views_json=views,
                key=(scope, key, fingerprint, CREATED) if key else None, respond=respond,
                now=now, snapshot=snapshot)
            return {**written, REPLAY_FLAG: False}

        return write

    def _respond(self, session_id: str, state: SessionState, appended: list[dict[str, Any]],
                 *, replay: bool) -> dict[str, Any]:
        return {**_plain({"session_id": session_id, "version": state.version,
                          "appended": appended, "session": session_view(state)}),
                REPLAY_FLAG: replay}

    def _guarded(self, work: Callable[[], dict[str, Any]], *, scope: str, key: str | None,
                 fingerprint: str,
                 conflict: Callable[[], ConcurrencyConflict] | None = None) -> dict[str, Any]:
        """Run `work`; turn a lost race into a replay or a ConcurrencyConflict."""
        try:
            return work()
        except store.SessionMoved as error:
            if conflict is None:
                raise
            raise conflict() from error
        except IntegrityError as error:
            table = store.violated_table(error)
            if table == "idempotency_keys" and key:
                # The same key committed first in a concurrent request.
                with self.engine.connect() as conn:
                    stored = store.find_idempotency(conn, scope, key)
                if stored is not None:
                    return _replay(stored, fingerprint, key)
            if table == "events" and conflict is not None:
                # Another writer appended this version first.
                raise conflict() from error
            if table == "members":
                # A concurrent request added the same guest first: now they are a member.
                # Again through the guard: a third request may add the next guest meanwhile
                # (each retry finds one more member, so this ends).
                return self._guarded(work, scope=scope, key=key, fingerprint=fingerprint,
                                     conflict=conflict)
            raise

    # -- reads (from the projections, never by replaying) ---------------------------------

    def session_exists(self, session_id: str) -> bool:
        with self._reader.connect() as conn:
            return store.load_session(conn, session_id, club_id=self.club_id) is not None

    def session(self, session_id: str, *, as_of: int | str | None = None) -> dict[str, Any]:
        """The session view: whose turn, the legal choices, the pools, every balance; with
        `as_of` (a version, or an ISO-8601 time), as it stood then, marked `as_of`."""
        if as_of is None:
            return _plain(session_view(self._state(session_id)))
        with self._reader.connect() as conn:
            state, at = self._as_of(conn, session_id, as_of)
        return _plain({**session_view(state), "as_of": at})

    def deal(self, session_id: str, deal_no: int, *,
             as_of: int | str | None = None) -> dict[str, Any]:
        """The deal's view as it last stood (as of a version or a time, if given)."""
        if as_of is not None:
            return self._deal_as_of(session_id, deal_no, as_of)
        with self._reader.connect() as conn:
            if store.load_session(conn, session_id, club_id=self.club_id) is None:
                raise _not_found(session_id)
            # Outside the store's 32-bit deal numbers there is no deal to look for.
            in_range = 1 <= deal_no <= MAX_DEAL_NO
            view = store.load_deal_view(conn, session_id, deal_no) if in_range else None
        if view is None:
            raise DealNotFound(f"session {session_id} has no deal {deal_no}",
                               rule="deal-exists", field="deal_no")
        return view

    def statement(self, session_id: str, *, as_of: int | str | None = None) -> dict[str, Any]:
        """The statement, pinned to the log it was drawn from (its version and chain head);
        with `as_of`, the statement as it stood then, marked `as_of`."""
        if as_of is None:
            row = self._row(session_id)
            state = SessionState.from_dict(row.state)
            return _plain({**statement(state, _pin(row)), "cash": self._cash(row, state)})
        # The cash is counted after the close, outside the session's log: a statement as of
        # a point of that log shows none.
        state, pin, at = self._statement_as_of(session_id, as_of)
        return _plain({**statement(state, pin), "cash": None, "as_of": at})

    def statement_csv(self, session_id: str, *, as_of: int | str | None = None) -> str:
        from ledger.domain.books import cash_csv

        if as_of is None:
            row = self._row(session_id)
            state = SessionState.from_dict(row.state)
            return statement_csv(state, _pin(row)) + cash_csv(self._cash(row, state))
        state, pin, _ = self._statement_as_of(session_id, as_of)
        return statement_csv(state, pin)

    def _cash(self, row: Any, state: SessionState) -> dict[str, Any] | None:
        """The cash counted at the session's close against what is expected (docs/books.md)."""
        from ledger.books import cash_of

        return cash_of(self.engine, row.club_id, state)

    def explain(self, session_id: str, *, player: str | None = None,
                as_of: int | str | None = None) -> dict[str, Any]:
        """Every figure of the session (or `player`'s) with the postings that make it up and
        the rule behind each (docs/explain.md); as of a version or a time, if given."""
        with self._reader.connect() as conn:
            row = store.load_session(conn, session_id, club_id=self.club_id)
            if row is None:
                raise _not_found(session_id)
            at = self._as_of_point(conn, session_id, as_of, row.version) \
                if as_of is not None else None
            version = at["version"] if at is not None else row.version
            rows = store.events_between_full(conn, session_id, 0, version, types=TRAIL_TYPES)
        log = _versioned(rows)
        live = {v for v, _ in live_events(log)}
        logged = [Logged(version=r.version, position=r.position,
                         recorded_at=store.utc_iso(r.recorded_at), actor=r.actor, event=e)
                  for r, (v, e) in zip(rows, log, strict=True) if v in live]
        # plain already: strings, integers and None (no copy through JSON for a long trail)
        return explain(session_id, logged, version=version, player=player, as_of=at)

    def explain_csv(self, session_id: str, *, player: str | None = None,
                    as_of: int | str | None = None) -> str:
        return explain_csv(self.explain(session_id, player=player, as_of=as_of))

    # -- as of an earlier version ---------------------------------------------------------

    def _as_of_point(self, conn: Connection, session_id: str, as_of: int | str,
                     current: int) -> dict[str, Any]:
        """{"version", "recorded_at"} of the point `as_of` names: a version of the session's
        log (1 to its last), or an ISO-8601 time with its offset (the last event recorded at
        or before it); a clear refusal naming `as_of` otherwise."""
        version = _as_version(as_of)
        if version is None:
            moment = _as_moment(as_of)
            version = store.version_at(conn, session_id, moment)
            if version == 0:
                raise InvalidInput(f"as_of {as_of} is before the session opened",
                                   rule="as-of-in-range", field="as_of")
        elif not 1 <= version <= current:
            raise InvalidInput(f"as_of must be a version from 1 to {current} (the session's "
                               f"log), got {version}", rule="as-of-in-range", field="as_of")
        moment_at = store.recorded_at(conn, session_id, version)
        return {"version": version,
                "recorded_at": store.utc_iso(moment_at) if moment_at is not None else None}

    def _as_of(self, conn: Connection, session_id: str, as_of: int | str
               ) -> tuple[SessionState, dict[str, Any]]:
        row = store.load_session(conn, session_id, club_id=self.club_id)
        if row is None:
            raise _not_found(session_id)
        at = self._as_of_point(conn, session_id, as_of, row.version)
        if at["version"] == row.version:
            return SessionState.from_dict(row.state), at
        return self._state_at(conn, session_id, at["version"]), at

    def _state_at(self, conn: Connection, session_id: str, version: int) -> SessionState:
        """The state at `version`: the nearest snapshot, then the events after it
        (domain/asof.py, across corrections)."""

        def events(lo: int, hi: int) -> list[tuple[int, Event]]:
            return _versioned(store.events_between(conn, session_id, lo, hi))

        return asof.state_at(
            version, snapshot=lambda v: store.snapshot_at_or_below(conn, session_id, v),
            events=events,
            last_correction=lambda lo, hi: store.last_correction_between(conn, session_id,
                                                                         lo, hi),
            session_id=session_id)

    def _statement_as_of(self, session_id: str, as_of: int | str
                         ) -> tuple[SessionState, dict[str, Any], dict[str, Any]]:
        with self._reader.connect() as conn:
            state, at = self._as_of(conn, session_id, as_of)
            head = store.hash_at(conn, session_id, at["version"])
        return state, {"version": at["version"], "chain_head": head,
                       "chain_format": CHAIN_FORMAT}, at

    def _deal_as_of(self, session_id: str, deal_no: int, as_of: int | str) -> dict[str, Any]:
        """The deal's view as it last stood at that point: the current deal's from the state
        then, an earlier deal's from the state just before the next deal was dealt."""
        with self._reader.connect() as conn:
            state, at = self._as_of(conn, session_id, as_of)
            if not (state.deal is not None and 1 <= deal_no <= state.deal_no):
                raise DealNotFound(f"session {session_id} had no deal {deal_no} as of version "
                                   f"{at['version']}", rule="deal-exists", field="deal_no")
            if deal_no != state.deal_no:
                markers = live_events(_versioned(
                    store.deal_markers(conn, session_id, at["version"])))
                dealt = next((v for v, e in markers if isinstance(e, ev.DealStarted)
                              and e.deal_no == deal_no + 1 and not e.redeal), None)
                if dealt is None:
                    raise InvariantBroken(f"deal {deal_no + 1} of session {session_id} is "
                                          f"current at version {at['version']} but was "
                                          "never dealt")
                state = self._state_at(conn, session_id, dealt - 1)
        return _plain({**_current_deal_view(state), "as_of": at})

    def rebuild_snapshots(self, session_id: str) -> dict[int, dict[str, Any]]:
        """The snapshots a rebuild keeps: the state at every multiple of `snapshot_every` up
        to the log's last version, each folded from the one before it."""
        with self.engine.connect() as conn:
            log = _versioned(store.stream_by_version(conn, session_id))
        return _snapshots_of(log, self.snapshot_every, session_id)

    def events(self, session_id: str, after_position: int = 0,
               limit: int = 100) -> dict[str, Any]:
        """One page of the log: {"events": [...], "next_after": position or None}.

        An event a correction superseded names it (`superseded_by`: the correction's version;
        docs/rules.md §12.3): the log keeps it, the projections no longer count it.
        """
        if isinstance(limit, bool) or not isinstance(limit, int) \
                or not 1 <= limit <= MAX_PAGE_LIMIT:
            raise InvalidInput(f"limit must be from 1 to {MAX_PAGE_LIMIT}",
                               rule="page-limit", field="limit")
        if isinstance(after_position, bool) or not isinstance(after_position, int) \
                or after_position < 0:
            raise InvalidInput("after must be a position >= 0", rule="page-after",
                               field="after")
        with self.engine.connect() as conn:
            if store.load_session(conn, session_id, club_id=self.club_id) is None:
                raise _not_found(session_id)
            rows = store.read_events(conn, session_id, after_position=after_position,
                                     limit=limit + 1)
            superseded = [(row.payload["rewound_to"], row.version)
                          for row in store.read_events(conn, session_id,
                                                       types=("EntryCorrected",))]
        page = [{**_event_dict(row), "superseded_by": next(
            (version for kept, version in superseded if kept < row.version < version), None)}
            for row in rows[:limit]]
        more = len(rows) > limit
        return {"events": page, "next_after": page[-1]["position"] if more else None}

    def balance_series(self, session_id: str) -> dict[str, Any]:
        """Each player's balance after every deal, from the stored deal views (the
        statement's chart; ledger/domain/series.py)."""
        with self._reader.connect() as conn:
            row = store.load_session(conn, session_id, club_id=self.club_id)
            if row is None:
                raise _not_found(session_id)
            views = store.load_deal_views(conn, session_id)
        state = row.state
        return _plain(balance_series(state["seats"], views, state["balances"]))

    def _state(self, session_id: str) -> SessionState:
        return SessionState.from_dict(self._row(session_id).state)

    def _row(self, session_id: str) -> Any:
        with self._reader.connect() as conn:
            row = store.load_session(conn, session_id, club_id=self.club_id)
        if row is None:
            raise _not_found(session_id)
        return row

    # -- rebuild and verify ---------------------------------------------------------------

    def rebuild(self, session_id: str) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """(state dict, {deal_no: view}) folded from the log alone."""
        with self.engine.connect() as conn:
            if store.load_session(conn, session_id, club_id=self.club_id) is None:
                raise _not_found(session_id)
            events = (e for _, e in live_events(_versioned(store.stream(conn, session_id))))
            state, views = _fold_with_views(None, events, session_id)
        if state is None:
            raise InvariantBroken(f"session {session_id} has a projection but no events")
        return _plain(state.to_dict()), {n: _plain(v) for n, v in views.items()}

    def verify_report(self, session_id: str) -> dict[str, Any]:
        """What `verify` finds, as the API reports it: ok, the chain head, every problem."""
        problems = self.verify(session_id)
        with self.engine.connect() as conn:
            row = store.load_session(conn, session_id, club_id=self.club_id)
        assert row is not None
        return {"session_id": session_id, "ok": not problems, "version": row.version,
                "chain_head": row.head_hash, "chain_format": CHAIN_FORMAT,
                "problems": problems}

    def verify(self, session_id: str) -> list[str]:
        """Where the log is broken or the stored projections differ from a rebuild; [] when
        the log is whole and they agree.

        The log is whole when its versions are 1..N with no gap and its global positions
        increase with the version: an event deleted or moved behind the store's back (by a
        DBA with the append-only triggers disabled, say) is reported as the first gap.
        """
        with self.engine.connect() as conn:
            head_row = store.load_session(conn, session_id, club_id=self.club_id)
            if head_row is None:
                raise _not_found(session_id)
            differences = _log_gaps(store.version_positions(conn, session_id))
            head, broken = first_broken_link(
                row._mapping for row in store.stream_by_version(conn, session_id))
        if broken:
            differences.append(f"chain: {broken}")
        elif head_row.head_hash not in (None, head) or (head_row.head_hash is None
                                                        and head != GENESIS):
            differences.append(f"chain head: sessions.head_hash is {head_row.head_hash}, the "
                               f"log's is {head}")
        try:
            state, views = self.rebuild(session_id)
        except Exception as error:
            if not differences:
                raise
            # A log with a hole may not fold at all: the hole is the finding.
            return [*differences, f"rebuild: the log does not fold ({error})"]
        with self.engine.connect() as conn:
            row = store.load_session(conn, session_id)
            assert row is not None
            stored_views = store.load_deal_views(conn, session_id)
            log_version = store.stream_version(conn, session_id)
        if row.version != log_version:
            differences.append(f"sessions.version: stored {row.version}, log {log_version}")
        differences += _diff("state", row.state, state)
        differences += _diff("deal_views", {str(k): v for k, v in stored_views.items()},
                             {str(k): v for k, v in views.items()})
        with self.engine.connect() as conn:
            stored_results = {r.seat: _result_dict(r) for r in books_store.load_results(
                conn, session_id=session_id)}
        differences += _diff("session_results", stored_results,
                             {r["seat"]: r for r in self.rebuild_results(session_id, state)})
        differences += self._verify_snapshots(session_id)
        return differences

    def rebuild_results(self, session_id: str, state: dict[str, Any] | None = None
                        ) -> list[dict[str, Any]]:
        """The session's rows of `session_results` folded from its log alone (without the
        version they were written at); `state`: the state rebuilt already, if at hand."""
        if state is None:
            state, _ = self.rebuild(session_id)
        with self.engine.connect() as conn:
            club_id = conn.scalar(select(sessions.c.club_id)
                                  .where(sessions.c.id == session_id))
            results = books_store.results_from_log(conn, session_id,
                                                   SessionState.from_dict(state))
        return [_result_dict(SimpleNamespace(**books_store.result_row(r, club_id, 0)))
                for r in results]

    def _verify_snapshots(self, session_id: str) -> list[str]:
        """Each stored snapshot against the fold to its version, each folded from the
        snapshot before it (once that one is found right): one pass over the log."""
        with self.engine.connect() as conn:
            stored = store.load_snapshots(conn, session_id)
            if not stored:
                return []
            log = _versioned(store.stream_by_version(conn, session_id))
        out: list[str] = []
        checked: dict[int, dict[str, Any]] = {}
        for version in sorted(stored):
            if not 1 <= version <= len(log):
                out.append(f"snapshots.{version}: beyond the log's {len(log)} versions")
                continue
            snapshot, events, last_correction = asof.in_memory(log, checked)
            folded = _plain(asof.state_at(version, snapshot=snapshot, events=events,
                                          last_correction=last_correction,
                                          session_id=session_id).to_dict())
            found = _diff(f"snapshots.{version}", stored[version], folded)
            out += found
            checked[version] = folded
        return out


# -- helpers -------------------------------------------------------------------------------

def _now() -> datetime:
    return datetime.now(UTC)


def _as_actor(actor: str | Actor) -> Actor:
    return actor if isinstance(actor, Actor) else Actor(str(actor))


def _seat_members(conn: Connection, club_id: str, command: OpenSession,
                  guests: list[str]) -> OpenSession:
    """The command with each player replaced by the seat name of the club member it names,
    and the name -> member id map the session records."""
    resolved = resolve_players(conn, club_id, list(command.players), guests, now=_now())
    players = [resolved[p][0] for p in command.players]
    first = command.first_dealer
    if isinstance(first, str):
        # A member's id or a name in another case names the same seat.
        for sent, (seat, member) in resolved.items():
            if first in (sent, member) or name_key(first) == name_key(sent):
                first = seat
                break
    return dataclasses.replace(command, players=players, first_dealer=first,
                               members={seat: member for seat, member in resolved.values()})


def _not_found(session_id: str) -> SessionNotFound:
    return SessionNotFound(f"no session {session_id}", rule="session-exists",
                           field="session_id")


def _current_deal_view(state: SessionState) -> dict[str, Any]:
    """The view of the deal in progress (or just settled); the caller knows there is one."""
    view = deal_view(state)
    if view is None:
        raise InvariantBroken("no deal to view")
    return view


def _plain(value: T) -> T:
    """The value as JSON gives it back, so a stored response equals the one first sent."""
    try:
        return cast(T, orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)))
    except TypeError:  # an integer past 64 bits: the standard library takes any
        return cast(T, json.loads(json.dumps(value)))


def _state_json(state: SessionState) -> str:
    """SessionState.to_dict() as JSON, written from the dataclasses without copying them."""
    return store.dumps(state)


class _DealAt:
    """The session as `deal_view` reads it for one deal: the pool as it stood when the deal
    last moved, and the deal's fields without the deep copy of `asdict`."""

    def __init__(self, state: SessionState, deal: DealState, pool_units: int):
        self._state, self._pool_units = state, pool_units
        self.deal = _ShallowDeal(deal)

    def pool_units(self) -> int:
        return self._pool_units

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class _ShallowDeal:
    def __init__(self, deal: DealState):
        self._deal = deal

    def to_dict(self) -> dict[str, Any]:
        return self._deal.json_fields()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._deal, name)


def _deal_view_json(state: SessionState, deal: DealState | None = None,
                    pool_units: int | None = None) -> str:
    """deal_view(state) as JSON (of `deal`, with the pool at `pool_units`, if given)."""
    deal = deal if deal is not None else state.deal
    assert deal is not None
    at = _DealAt(state, deal, state.pool_units() if pool_units is None else pool_units)
    view = deal_view(cast(SessionState, at))
    if view is None:
        raise InvariantBroken("no deal to view")
    return store.dumps(view)


class _WriterQueue:
    """One lock for the writers of one SQLite file: a thread lock for this process's threads,
    then flock(2) on a file beside the database for the other processes (gunicorn's
    workers). The kernel wakes a waiter as soon as the lock is released."""

    def __init__(self, path: str):
        self._path = path
        self._threads = threading.Lock()
        self._fd: int | None = None
        self._pid = -1

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._threads:
            if self._fd is None or self._pid != os.getpid():  # a fork gets its own
                self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
                self._pid = os.getpid()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)


_QUEUES: weakref.WeakKeyDictionary[Engine, _WriterQueue | None] = weakref.WeakKeyDictionary()


def _sqlite_writers(engine: Engine) -> Any:
    if engine not in _QUEUES:
        database = engine.url.database
        file_backed = engine.dialect.name == "sqlite" and database not in (None, "", ":memory:") \
            and not str(database).startswith("file:")
        _QUEUES[engine] = _WriterQueue(f"{database}.writers") if file_backed else None
    queue = _QUEUES[engine]
    return queue.held() if queue is not None else nullcontext()


class _StateCache:
    """Each worker's folded states, by session: trusted only for the locked row's version
    and chain head (a hash of the whole log up to it), so never for a log that moved on
    without this worker. An append takes its session's state out and puts the new one back
    once committed; a failed append leaves nothing behind."""

    SIZE = 512

    def __init__(self) -> None:
        self._states: dict[str, tuple[int, str | None, SessionState]] = {}

    def take(self, session_id: str, row: Any) -> SessionState:
        cached = self._states.pop(session_id, None)
        if cached is not None and cached[0] == row.version and cached[1] == row.head_hash:
            return cached[2]
        return SessionState.from_dict(store.loads(row.state_text))

    def put(self, session_id: str, state: SessionState, appended: list[dict[str, Any]] | None,
            row: Any) -> None:
        head = appended[-1]["hash"] if appended else row.head_hash
        if state.version != (appended[-1]["version"] if appended else row.version):
            return
        self._states[session_id] = (state.version, head, state)
        while len(self._states) > self.SIZE:
            self._states.pop(next(iter(self._states)))


_CACHES: weakref.WeakKeyDictionary[Engine, _StateCache] = weakref.WeakKeyDictionary()


def _states_of(engine: Engine) -> _StateCache:
    cache = _CACHES.get(engine)
    if cache is None:
        cache = _CACHES[engine] = _StateCache()
    return cache


def _fingerprint(scope: str, commands: Iterable[Command], *extra: object) -> str:
    """What makes two calls "the same" when the caller gave no fingerprint of its own."""
    body = [scope, [[type(c).__name__, dataclasses.asdict(c)] for c in commands], *extra]
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _pin(row: Any) -> dict[str, Any]:
    """What pins a statement to its log: the version and the hash chain's head there."""
    return {"version": row.version, "chain_head": row.head_hash, "chain_format": CHAIN_FORMAT}


def _versioned(rows: Iterable[Any]) -> list[tuple[int, Event]]:
    """The stream's events with their versions, as the domain reads a log."""
    return [(row.version, event_from_record(row.type, row.schema_version, row.payload))
            for row in rows]


def _replay(stored: Any, fingerprint: str, key: str) -> dict[str, Any]:
    if stored.fingerprint != fingerprint:
        raise IdempotencyKeyReused(key)
    return {**stored.response, REPLAY_FLAG: True}


def _event_dict(row: Any) -> dict[str, Any]:
    """A stored event as clients read it, upcast to the current shape of its type."""
    type_, schema_version, payload = event_to_record(
        event_from_record(row.type, row.schema_version, row.payload))
    return _plain({"position": row.position, "version": row.version, "type": type_,
                   "schema_version": schema_version, "payload": payload,
                   "recorded_at": store.utc_iso(row.recorded_at), "actor": row.actor,
                   "member_id": row.member_id, "token_id": row.token_id, "hash": row.hash})


def _fold_with_views(state: SessionState | None, events: Iterable[Event], session_id: str
                     ) -> tuple[SessionState | None, dict[int, dict[str, Any]]]:
    """Fold `events` onto `state`, keeping each deal's view as it stood when it was last
    the current deal."""
    views: dict[int, dict[str, Any]] = {}
    touched = False
    for event in events:
        deal = state.deal if state is not None else None
        if state is not None and deal is not None and touched \
                and getattr(event, "deal_no", deal.deal_no) != deal.deal_no:
            views[deal.deal_no] = _current_deal_view(state)
        state = evolve(state, event, session_id=session_id)
        touched = True
    if state is not None and state.deal is not None and touched:
        views[state.deal.deal_no] = _current_deal_view(state)
    return state, views


def _result_dict(row: Any) -> dict[str, Any]:
    """A row of `session_results` as verify compares it: every column but the version."""
    return {"session_id": row.session_id, "seat": row.seat, "session_name": row.session_name,
            "club_id": row.club_id, "member_id": row.member_id, "currency": row.currency,
            "net_units": int(row.net_units),
            "net_minor": None if row.net_minor is None else int(row.net_minor),
            "deals_dealt": row.deals_dealt, "loos": row.loos, "loo_units": int(row.loo_units),
            "penalties": row.penalties, "penalty_units": int(row.penalty_units),
            "ended_at": store.utc_iso(books_store.as_utc(row.ended_at))}


def _snapshots_of(log: list[tuple[int, Event]], every: int, session_id: str
                  ) -> dict[int, dict[str, Any]]:
    """The state at every multiple of `every` of the log's versions, each from the last."""
    out: dict[int, dict[str, Any]] = {}
    if every <= 0:
        return out
    for version in range(every, len(log) + 1, every):
        snapshot, events, last_correction = asof.in_memory(log, out)
        out[version] = _plain(asof.state_at(version, snapshot=snapshot, events=events,
                                            last_correction=last_correction,
                                            session_id=session_id).to_dict())
    return out


def _as_version(as_of: int | str) -> int | None:
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


def _as_moment(as_of: int | str) -> datetime:
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


def _log_gaps(versions: list[tuple[int, int]]) -> list[str]:
    """The first break in a stream's (version, position) pairs, in version order."""
    expected, last_position = 1, None
    for version, position in versions:
        if version != expected:
            missing = (f"version {expected} is missing" if version == expected + 1 else
                       f"versions {expected} to {version - 1} are missing")
            return [f"events: {missing} (the log goes from version {expected - 1} to "
                    f"{version}; {len(versions)} events for versions 1..{versions[-1][0]})"]
        if last_position is not None and position <= last_position:
            return [f"events: version {version} is at position {position}, not after version "
                    f"{version - 1}'s position {last_position}"]
        expected, last_position = version + 1, position
    return []


def _diff(path: str, stored: Any, rebuilt: Any) -> list[str]:
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        out = []
        for key in sorted(set(stored) | set(rebuilt), key=str):
            if key not in rebuilt:
                out.append(f"{path}.{key}: stored only")
            elif key not in stored:
                out.append(f"{path}.{key}: rebuilt only")
            else:
                out += _diff(f"{path}.{key}", stored[key], rebuilt[key])
        return out
    if stored != rebuilt:
        return [f"{path}: stored {stored!r}, rebuilt {rebuilt!r}"]
    return []
