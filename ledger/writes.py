"""The write protocol: every write of the ledger, a session's or a book log's, is one of these.

    result = perform(store, request, scope=..., find=..., write=..., current_version=...)

1. The stream's head is found (`find`); none: not found. It is not locked: the write
   itself is conditional on the version it was decided on (ledger/store/base.py), the
   optimistic lock.
2. A request with an Idempotency-Key that was answered before gets that answer again
   (`replayed`), before anything else: the stream may have moved on because of it. The
   same key with a different request is refused (IdempotencyKeyReused).
3. A request that names the version it builds on (If-Match, expected_version) is refused
   with ConcurrencyConflict when the stream is elsewhere.
4. `write` decides, and writes the events and projections: the response's body.
5. With a key, that body is kept as its answer, in the same transaction; then commit.

A race lost at the database is turned into what the request would have met a moment
later: the twin request's answer (same key, committed first), a ConcurrencyConflict (the
version it named moved), or, for a request that named no version, the write decided again on
the stream as it now stands. A request with a key or without a version is therefore found
again after a lost race (up to RETRIES times, then a ConcurrencyConflict).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from ledger.clubs.service import Actor
from ledger.domain import ConcurrencyConflict, LedgerError
from ledger.store.base import Store, StoredReply, Tx, VersionMoved, stored_reply

# writes decided again after losing a race, for a request that named no version
RETRIES = 8


def fingerprint(what: object) -> str:
    """What makes two requests with one Idempotency-Key "the same": the SHA-256 of `what` as
    canonical JSON (keys sorted, no spaces, text as it is; what JSON cannot write, as its
    str). The one recipe: the API's (method, path, body), a service's own, the demo's."""
    canonical = json.dumps(what, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                           default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class IdempotencyKeyReused(LedgerError):
    """The Idempotency-Key was already used for a different request."""

    code = "idempotency-key-reuse"

    def __init__(self, key: str):
        super().__init__(f"idempotency key {key!r} was already used for a different request",
                         rule="idempotency-key-reuse", field="Idempotency-Key")


@dataclass(frozen=True)
class WriteRequest:
    """Who writes, and what the write says it builds on."""

    actor: Actor  # a name alone (the command line's) is taken as Actor(name)
    expected_version: int | None = None  # If-Match, or expected_version in the body
    idempotency_key: str | None = None
    # What makes two requests with one key "the same" (the API's: method, path, body); None:
    # the service's own, from the command.
    fingerprint: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.actor, str):
            object.__setattr__(self, "actor", Actor(self.actor))

    @property
    def unfingerprinted(self) -> bool:
        """A key without a fingerprint: `fingerprinted` makes one. (The API's requests carry
        theirs: a caller need not build `what` for them.)"""
        return self.fingerprint is None and self.idempotency_key is not None

    def fingerprinted(self, *what: object) -> WriteRequest:
        """This request with its fingerprint: the caller's, else made from `what`."""
        if not self.unfingerprinted:
            return self
        return WriteRequest(self.actor, self.expected_version, self.idempotency_key,
                            fingerprint([*what, self.expected_version]))


@dataclass(frozen=True)
class AppendResult:
    """A write's answer: the body, exactly as first sent, and whether it is a replay."""

    body: dict[str, Any]
    replayed: bool = False

    @property
    def version(self) -> int:
        return int(self.body["version"])


class Found(Protocol):
    """A stream's head as `find` returns it."""

    @property
    def version(self) -> int: ...

    @property
    def reply(self) -> StoredReply | None: ...

    @property
    def club_id(self) -> str | None: ...  # whose stream: its answers are kept in its rows


def perform(store: Store, request: WriteRequest, *, scope: str,
            find: Callable[[Tx], Found], write: Callable[[Tx, Any], dict[str, Any]],
            current_version: Callable[[], int], club_id: str | None = None) -> AppendResult:
    """Run one write under the protocol above (`scope`: whose keys these are; `club_id`:
    the club its answer is kept in, when not the club of the head `find` found)."""
    for attempt in range(RETRIES + 1):
        try:
            return _attempt(store, request, scope=scope, find=find, write=write,
                            club_id=club_id)
        except _RaceLost as lost:
            # Found again, the stream says what this request meets now: the answer of a
            # twin with its key, the 409 of the version it named, or a head to decide on.
            again = request.expected_version is None or request.idempotency_key is not None
            if not again or attempt == RETRIES:
                raise _conflict(current_version(), request, lost.decided_on) from lost.cause
    raise AssertionError("unreachable")


class _RaceLost(Exception):
    """Another write moved the stream after this one found it."""

    def __init__(self, decided_on: int | None, cause: Exception):
        super().__init__(str(cause))
        self.decided_on, self.cause = decided_on, cause


def _attempt(store: Store, request: WriteRequest, *, scope: str,
             find: Callable[[Tx], Found], write: Callable[[Tx, Any], dict[str, Any]],
             club_id: str | None) -> AppendResult:
    key = request.idempotency_key
    decided_on: int | None = None  # the version the write was decided against
    try:
        with store.transaction() as tx:
            head = find(tx)
            if key is not None and head.reply is not None:
                return replay(head.reply, request)
            if request.expected_version is not None \
                    and head.version != request.expected_version:
                raise ConcurrencyConflict(head.version, request.expected_version)
            decided_on = head.version
            body = write(tx, head)
            if key is not None:
                tx.keep_reply(scope, key, club_id=club_id or head.club_id,
                              fingerprint=str(request.fingerprint), body=body,
                              now=datetime.now(UTC))
            return AppendResult(body)
    except VersionMoved as error:
        raise _RaceLost(decided_on, error) from error
    except IntegrityError as error:
        table = store.violated_table(error)
        if table == "idempotency_keys" and key is not None:
            # The same key committed first, by a concurrent twin of this request.
            with store.reading() as conn:
                stored = stored_reply(conn, scope, key, club_id)
            if stored is not None:
                return replay(stored, request)
        if table in ("events", "book_entries"):
            raise _RaceLost(decided_on, error) from error
        raise


def replay(stored: StoredReply, request: WriteRequest) -> AppendResult:
    if stored.fingerprint != request.fingerprint:
        raise IdempotencyKeyReused(str(request.idempotency_key))
    return AppendResult(stored.body, replayed=True)


def _conflict(current: int, request: WriteRequest, decided_on: int | None
              ) -> ConcurrencyConflict:
    wanted = request.expected_version if request.expected_version is not None \
        else (decided_on if decided_on is not None else 0)
    return ConcurrencyConflict(current, wanted)
