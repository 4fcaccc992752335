"""The application layer: find the stream, decide, append with the projections, one transaction.

    ledger = Ledger(make_engine()).for_club(club_id)
    opened = ledger.open_session(OpenSession(players=["Ann", "Bob", "Cal"]),
                                 WriteRequest(Actor("Ann", member_id, token_id)))
    ledger.append(opened.body["session_id"], [StartDeal(trump_card="7H")],
                  WriteRequest(actor, expected_version=1))

Every write of a session (open, append, correct, undo) is one path: the write protocol of
ledger/writes.py (the session's row held, a stored answer replayed, the version checked),
then `_record`: the events chained (ledger/store/chain.py) and written with every
projection they move by the store (ledger/store/base.py), the views being those of
ledger/projections.py. The reads are ledger/sessions/reads.py's. A club's ledger (`for_club`) reads
and writes only that club's sessions; `Ledger(engine)` alone is the operator's view (the
command line): it reads, verifies, rebuilds and attaches every club's sessions, and opens
none, for every session is a club's.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

import orjson
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ledger import projections
from ledger.audit import checkpoint_log, receipts
from ledger.books import reads as bookreads
from ledger.clubs.service import Actor, name_key, resolve_players
from ledger.domain import (
    Command,
    Event,
    InvalidInput,
    InvariantBroken,
    LedgerError,
    OpenSession,
    OutOfTurn,
    SessionState,
    asof,
    event_to_record,
    execute,
    session_view,
)
from ledger.domain.accounts import RESULT_EVENT_TYPES
from ledger.domain.commands import AttachLatecomers, AttachToClub, JoinPlayer
from ledger.domain.corrections import correct, last_entry, live_events
from ledger.domain.currencies import check_kept
from ledger.domain.state import to_json
from ledger.domain.vocabulary import Status
from ledger.projections import (
    RESULT_TRIGGERS,
    SHAPE,
    SNAPSHOT_EVERY,
    Folding,
    posted_result,
    result_rows,
    results_after,
)
from ledger.sessions import history
from ledger.sessions.reads import (
    MAX_PAGE_LIMIT,
    DealNotFound,
    SessionReads,
    plain_json,
    session_not_found,
)
from ledger.store import booklog, clublog, open_store, queries
from ledger.store.base import Head, SessionWrite, Tx
from ledger.store.chain import (
    GENESIS,
    as_utc,
    chain_rows,
    session_genesis,
    utc_iso,
)
from ledger.writes import AppendResult, WriteRequest, perform

log = logging.getLogger("lanterloo.ledger")

__all__ = ["Ledger", "WriteRequest", "AppendResult", "DealNotFound", "MAX_PAGE_LIMIT"]


class Forbidden(LedgerError):
    """The caller's role or membership does not allow this on the object."""

    code = "forbidden"


class Ledger(SessionReads):
    """The ledger over one database: the writes below and the reads of ledger/sessions/reads.py;
    `club_id` confines every call to one club's sessions."""

    def __init__(self, engine: Any, *, club_id: str | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY):
        self.engine = engine
        self.store = open_store(engine)
        self.club_id = club_id
        self.snapshot_every = snapshot_every

    def for_club(self, club_id: str) -> Ledger:
        """The same ledger, seeing and opening only the sessions of `club_id`."""
        return Ledger(self.engine, club_id=club_id, snapshot_every=self.snapshot_every)

    # -- writes ----------------------------------------------------------------------------

    def open_session(self, command: OpenSession, request: WriteRequest,
                     guests: Sequence[str] = ()) -> AppendResult:
        """Open a new session. In a club each player is a member's name (any case) or id,
        or a name listed in `guests`, who becomes a guest member; each seat records its
        member. Money is in a currency the club keeps (docs/books.md). An idempotency key
        is its sender's own: the same key from another member (or club) opens another
        session. Every session is a club's: the operator's ledger (no club) opens none."""
        if self.club_id is None:
            raise InvalidInput("a session is opened in a club: open it through the club's "
                               "ledger (Ledger.for_club), as a member of the club",
                               rule="session-in-a-club")
        club_id: str = self.club_id
        scope = ":".join(["open", club_id,
                          *(p for p in (request.actor.member_id,) if p)])
        request = request.fingerprinted(scope, _command_dict(command), list(guests))
        session_id = uuid4().hex

        def find(tx: Tx) -> Head:
            key = request.idempotency_key
            return Head(0, GENESIS, reply=tx.stored_reply(scope, key, club_id) if key else None)

        def write(tx: Tx, head: Head) -> dict[str, Any]:
            if command.currency is not None:
                check_kept(command.currency,
                           bookreads.currencies(tx.conn, club_id, bookreads.NOW).kept)
            seated = _seat_members(tx, club_id, command, list(guests), request.actor)
            folding = Folding(session_id)
            state, events = execute(None, seated, session_id=session_id, fold=folding)
            return self._record(tx, session_id, None, state, events, folding.finish(state),
                                request)

        return self._seating(lambda: perform(self.store, request, scope=scope, find=find,
                                             write=write, current_version=lambda: 0,
                                             club_id=club_id))

    def append(self, session_id: str, commands: Sequence[Command],
               request: WriteRequest) -> AppendResult:
        """Decide `commands` in order and append all their events, or none."""
        commands = list(commands)
        if not commands:
            raise InvalidInput("send at least one event", rule="non-empty-batch",
                               field="events")
        scope = self._scope(session_id, request)
        if request.unfingerprinted:  # the commands as data only for a fingerprint made here
            request = request.fingerprinted(scope, [_command_dict(c) for c in commands])

        def write(tx: Tx, head: Head) -> dict[str, Any]:
            state = SessionState.from_dict(orjson.loads(head.state_json or b"null"))
            folding = Folding(session_id)
            events: list[Event] = []
            for command in _seat_latecomers(tx, head.club_id, commands, request.actor):
                state, produced = execute(state, command, session_id=session_id,
                                          fold=folding)
                events += produced
            return self._record(tx, session_id, head, state, events, folding.finish(state),
                                request)

        return self._signed_after(session_id, self._write(session_id, scope, request, write))

    def correct(self, session_id: str, *, voids: Sequence[int],
                replacements: Sequence[Command] = (), reason: str,
                request: WriteRequest) -> AppendResult:
        """Void entries (by version) and put `replacements` in place of the first; append the
        correction and the session's tail decided anew, or refuse and append nothing. Reads
        the whole log: corrections are rare."""
        scope = self._scope(session_id, request)
        request = request.fingerprinted(scope, [_command_dict(c) for c in replacements],
                                        "correct", list(voids), reason)
        return self._restate(session_id, scope, request, lambda log, by: list(voids),
                             replacements, reason)

    def undo(self, session_id: str, *, reason: str, request: WriteRequest,
             own_entry_only: bool = False) -> AppendResult:
        """Void the last entry a client made (a correction event, never a deletion);
        `own_entry_only` (a dealer's undo): refuse unless the actor's member appended it."""
        scope = self._scope(session_id, request)
        request = request.fingerprinted(scope, [], "undo", reason)
        member = request.actor.member_id

        def last(log: list[tuple[int, Event]], appended_by: dict[int, str | None]) -> list[int]:
            version = last_entry(log)
            if version is None:
                raise InvalidInput("there is no entry to undo", rule="undo",
                                   field="session_id")
            if own_entry_only and appended_by.get(version) != member:
                raise Forbidden("the last entry was made by someone else; a treasurer "
                                "corrects it", rule="undo-own-entry")
            return [version]

        return self._restate(session_id, scope, request, last, (), reason)

    def sessions_before_clubs(self) -> list[Any]:
        """The sessions recorded before clubs that no club holds yet, oldest first: their id,
        when they were opened (`created_at`) and their version; what `attach` takes."""
        with self.store.reading() as conn:
            return list(queries.sessions_of_no_club(conn))

    def attach(self, session_id: str, request: WriteRequest) -> AppendResult:
        """Bring a session recorded before clubs into this club (an administrator's act,
        once per session): each seat becomes the member of that name, or a new guest
        member, and from then on the session and its results are the club's
        (docs/operations.md, "Upgrading")."""
        club_id = self.club_id
        if club_id is None:
            raise InvalidInput("a session is attached to a club: name the club",
                               rule="club-exists", field="club_id")
        scope = f"attach:{session_id}"
        request = request.fingerprinted(scope, club_id)

        def find(tx: Tx) -> Head:
            key = request.idempotency_key
            head = tx.session_head(session_id, club_id=None,
                                   reply_to=(scope, key) if key else None)
            if head is not None and head.reply is None and head.club_id is not None:
                if head.club_id != club_id:  # another club's session is not even named
                    raise session_not_found(session_id)
                raise OutOfTurn(f"session {session_id} is the club's already",
                               rule="attached-once", field="session_id")
            if head is None:
                raise session_not_found(session_id)
            if head.shape != SHAPE:
                projections.rebuild_in(self.store, tx, session_id, session_id)
                head = tx.session_head(session_id, club_id=None,
                                       reply_to=(scope, key) if key else None)
                assert head is not None
            return head

        def write(tx: Tx, head: Head) -> dict[str, Any]:
            state = SessionState.from_dict(orjson.loads(head.state_json or b"null"))
            now = datetime.now(UTC)
            resolved = resolve_players(tx.conn, club_id, list(state.seats), list(state.seats),
                                       now=now, by=request.actor, retired_ok=True)
            members = {seat: resolved[seat][1] for seat in state.seats}
            if len(set(members.values())) != len(members):
                raise InvalidInput("two seats name one member of the club (names differ only "
                               "in case): the session is not attached", rule="club-member",
                               field="session_id")
            folding = Folding(session_id)
            state, events = execute(state, AttachToClub(club_id=club_id, members=members),
                                    session_id=session_id, fold=folding)
            # the club's own record of it: who attached which session, when
            clublog.record(tx.conn, club_id, clublog.SESSION_ATTACHED,
                           {"session_id": session_id, "members": members}, by=request.actor)
            tx.move_to_club(session_id, club_id)  # the rows written before it
            return self._record(tx, session_id, dataclasses.replace(head, club_id=club_id),
                                state, events, folding.finish(state), request)

        def current_version() -> int:
            with self.store.reading() as conn:
                return queries.stream_version(conn, session_id)

        return self._signed_after(session_id, perform(
            self.store, request, scope=scope, find=find, write=write,
            current_version=current_version, club_id=club_id))

    def attach_latecomers(self, session_id: str, request: WriteRequest) -> AppendResult:
        """Attach the seats of a club's session that name no member (aftercomers who joined
        before a join named his member) to the club's member of that name, or a new guest
        member, as `attach` does for a whole session; the upgrade's (docs/operations.md,
        "Upgrading"). A session whose every seat is a member's is left as it is (nothing is
        appended)."""
        scope = self._scope(session_id, request)
        request = request.fingerprinted(scope, "attach-latecomers")

        def write(tx: Tx, head: Head) -> dict[str, Any]:
            state = SessionState.from_dict(orjson.loads(head.state_json or b"null"))
            club_id = head.club_id
            if club_id is None:
                raise InvalidInput("a session from before clubs is attached whole (`lanterloo "
                                   "club attach`)", rule="club-member", field="session_id")
            missing = [seat for seat in state.seats if seat not in state.members]
            now = datetime.now(UTC)
            resolved = resolve_players(tx.conn, club_id, missing, missing, now=now,
                                       by=request.actor, retired_ok=True)
            members = {seat: resolved[seat][1] for seat in missing}
            folding = Folding(session_id)
            state, events = execute(state, AttachLatecomers(members=members),
                                    session_id=session_id, fold=folding)
            if events:  # the club's own record of it, as for an attached session
                clublog.record(tx.conn, club_id, clublog.LATECOMERS_ATTACHED,
                               {"session_id": session_id, "members": members},
                               by=request.actor)
            return self._record(tx, session_id, head, state, events, folding.finish(state),
                                request)

        return self._write(session_id, scope, request, write)

    def _restate(self, session_id: str, scope: str, request: WriteRequest,
                 choose: Callable[[list[tuple[int, Event]], dict[int, str | None]], list[int]],
                 replacements: Sequence[Command], reason: str) -> AppendResult:
        def write(tx: Tx, head: Head) -> dict[str, Any]:
            rows = list(queries.stream(tx.conn, session_id, club_id=head.club_id))
            log = history.versioned(rows)
            state, events = correct(log, voids=choose(log, {r.version: r.member_id
                                                            for r in rows}),
                                    replacements=_seat_latecomers(tx, head.club_id,
                                                                  replacements, request.actor),
                                    reason=reason,
                                    authorised_by=request.actor.name, session_id=session_id)
            new_log = log + [(head.version + 1 + i, e) for i, e in enumerate(events)]
            # every deal's view anew, and none of the deals the correction took away
            _, folding = projections.fold_events(session_id, live_events(new_log))
            return self._record(tx, session_id, head, state, events, folding.views, request,
                                keep_views_to=state.deal_no)

        return self._signed_after(session_id, self._write(session_id, scope, request, write))

    def _write(self, session_id: str, scope: str, request: WriteRequest,
               write: Callable[[Tx, Head], dict[str, Any]]) -> AppendResult:
        def find(tx: Tx) -> Head:
            key = request.idempotency_key
            head = tx.session_head(session_id, club_id=self.club_id,
                                   reply_to=(scope, key) if key else None)
            if head is None:
                raise session_not_found(session_id)
            if head.shape != SHAPE:  # written by an older release: rebuilt first
                projections.rebuild_in(self.store, tx, session_id, session_id)
                head = tx.session_head(session_id, club_id=self.club_id,
                                       reply_to=(scope, key) if key else None)
                assert head is not None
            return head

        def current_version() -> int:
            with self.store.reading() as conn:
                return queries.stream_version(conn, session_id, club_id=self.club_id)

        return self._seating(lambda: perform(self.store, request, scope=scope, find=find,
                                             write=write, current_version=current_version))

    def _seating(self, run: Callable[[], AppendResult]) -> AppendResult:
        """`run` a write that may seat a new guest member, again if a concurrent request
        added the same guest first: now he is a member. Each retry finds one more member,
        so this ends."""
        while True:
            try:
                return run()
            except IntegrityError as error:
                if self.store.violated_table(error) != "members":
                    raise

    def _signed_after(self, session_id: str, result: AppendResult) -> AppendResult:
        """After a committed write that leaves the session ended (its end, or a correction
        after it): its head signed and kept in the checkpoint log (ledger/audit/checkpoint_log.py),
        and added to its club's log of ends (ledger/audit/receipts.py); after any other, the heads
        and ends that waited for the log signed and written. Signing never
        fails the write: what goes wrong is logged and shown by /readyz."""
        try:
            ends = not result.replayed and result.body["session"]["status"] == Status.ENDED
            if ends or checkpoint_log.pending():
                with self.store.reading() as conn:
                    done = checkpoint_log.sign_heads(
                        conn, [(session_id, result.version)] if ends else [])
                    club_id = self.club_id or queries.load_session(  # the operator's: any
                        conn, session_id, club_id=None).club_id if ends else None
                end = {"stream": session_id, "version": result.version,
                       "head": result.body["appended"][-1]["hash"]} if ends else None
                receipts.grow([(club_id, end)] if end and club_id and done.key
                              and session_id not in done.refused else [])
        except (OSError, SQLAlchemyError) as error:
            log.error("session %s: its head was not signed: %s", session_id, error)
        return result

    def _record(self, tx: Tx, session_id: str, head: Head | None, state: SessionState,
                events: list[Event], views: dict[int, str], request: WriteRequest, *,
                keep_views_to: int | None = None) -> dict[str, Any]:
        """Chain `events` after `head` (None: a new session) and write them with every
        projection they move; the answer to the request."""
        old_version = head.version if head is not None else None
        first = (old_version or 0) + 1
        if state.version != first + len(events) - 1:
            raise InvariantBroken(f"state at version {state.version} after {len(events)} "
                                  f"events from version {first - 1}")
        if not events:
            return _answer(session_id, state, [])
        # The database's clock, read with the head or once the write holds its log: every
        # host stamps by it (ledger/store/db.py `clock`)
        now = head.now if head is not None and head.now is not None else tx.now()
        actor = request.actor
        rows = chain_rows(session_id, first, [event_to_record(e) for e in events],
                          actor=actor.name, member_id=actor.member_id, token_id=actor.token_id,
                          recorded_at=now, idempotency_key=request.idempotency_key,
                          prev_hash=head.head_hash if head is not None
                          else session_genesis(session_id, self.club_id))
        club_id = head.club_id if head is not None else self.club_id
        results = None
        if any(e.type in RESULT_TRIGGERS for e in events):  # the club's books: docs/books.md
            timed = [(r.version, e, as_utc(r.recorded_at))
                     for r, (_, e) in _result_log(tx, session_id, club_id)]
            timed += [(first + i, e, now) for i, e in enumerate(events)
                      if e.type in RESULT_EVENT_TYPES]
            posted = [posted_result(r) for r in booklog.load_results(
                tx.conn, session_id=session_id, club_id=club_id)]
            results = result_rows(results_after(posted, state, timed, events, at=now,
                                                first=first), club_id)
        positions = tx.write_session(SessionWrite(
            session_id, club_id, old_version, state.version, rows, to_json(state), views,
            keep_views_to=keep_views_to,
            snapshot=asof.snapshot_due(old_version or 0, state.version, self.snapshot_every),
            results=results, last=request.idempotency_key is None, shape=SHAPE))
        appended = [{"position": position, "version": r["version"], "type": r["type"],
                     "schema_version": r["schema_version"], "payload": r["payload"],
                     "recorded_at": utc_iso(now), "actor": r["actor"],
                     "member_id": r["member_id"], "token_id": r["token_id"],
                     "superseded_by": None, "hash": r["hash"]}
                    for r, position in zip(rows, positions, strict=True)]
        return _answer(session_id, state, appended)

    def _scope(self, session_id: str, request: WriteRequest) -> str:
        member = request.actor.member_id
        return f"{session_id}:{member}" if member else session_id

# -- helpers -------------------------------------------------------------------------------

def _seat_members(tx: Tx, club_id: str, command: OpenSession, guests: list[str],
                  by: Actor) -> OpenSession:
    """The command with each player replaced by the seat name of the club member it names,
    and the name -> member id map the session records."""
    resolved = resolve_players(tx.conn, club_id, list(command.players), guests,
                               now=datetime.now(UTC), by=by)
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


def _seat_latecomers(tx: Tx, club_id: str | None, commands: Sequence[Command],
                     by: Actor) -> list[Command]:
    """The commands with each aftercomer of a club's session seated as at the opening
    (`_seat_members`): under the name of the member he names (his id, or his name in any
    case), or a new guest member with `guest`; the join records the member."""
    out = list(commands)
    if club_id is None:  # a session from before clubs: its seats are attached with it
        return out
    for i, command in enumerate(out):
        if isinstance(command, JoinPlayer):
            sent = command.player
            seat, member = resolve_players(
                tx.conn, club_id, [sent], [sent] if command.guest else [],
                now=datetime.now(UTC), by=by, field="player")[sent]
            out[i] = dataclasses.replace(command, player=seat, member=member)
    return out


def _result_log(tx: Tx, session_id: str, club_id: str | None
                ) -> list[tuple[Any, tuple[int, Event]]]:
    """The session's stored events its results count, each with its row (its time)."""
    rows = list(queries.result_events(tx.conn, session_id, RESULT_EVENT_TYPES,
                                      club_id=club_id))
    return list(zip(rows, history.versioned(rows), strict=True))


def _answer(session_id: str, state: SessionState, appended: list[dict[str, Any]]
            ) -> dict[str, Any]:
    return plain_json({"session_id": session_id, "version": state.version, "appended": appended,
                   "session": session_view(state)})


def _command_dict(command: Command) -> list[Any]:
    return [type(command).__name__, dataclasses.asdict(command)]


