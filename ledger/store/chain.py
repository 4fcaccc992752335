"""The tamper-evident log: each event's hash chains it to the one before it in its stream.

    hash(event) = SHA-256 of the canonical form (below) of the event and the previous hash

The canonical form is JSON with the keys sorted, no spaces, UTF-8: an object with `chain`
(this format's name, "lanterloo/1"), `prev` (the previous event's hash; 64 zeros for a
stream's first event), and the event as stored: `stream_id`, `version`, `type`,
`schema_version`, `payload`, `recorded_at` (ISO 8601 in UTC, as `utc_iso` writes it),
`actor`, `member_id`, `token_id`, `idempotency_key`. The global position is left out: it is
the store's, and a copy of the log into another database may renumber it.

The bytes are orjson's with sorted keys. Events hold strings, integers (the ledger's amounts
are bounded well inside 64 bits: ledger/domain/money.py), booleans, null, lists and
objects, and for those this is byte for byte what Python's `json.dumps(sort_keys=True,
separators=(",", ":"), ensure_ascii=False)` writes, so a verifier in any language can
recompute it. An integer past 64 bits cannot be written and is refused (NotHashable).

Any change to a stored event (its payload, who appended it, when), a deletion, a reordering
or an insertion breaks the chain at that event, and `verify` names the first broken link.
A rewrite of every later hash is caught against a chain head printed earlier: the statement
carries the head, so a printed statement pins the log as it was, and a signed checkpoint
kept outside the database pins it for an auditor (ledger/audit/checkpoints.py, docs/operations.md).

Binding. A session's chain starts from a genesis that binds it to its owner: the `prev` of
its first event is `genesis(session id, {"club_id": club})`, the SHA-256 of the canonical
form of `{"chain": "lanterloo/1", "genesis": {"club_id": ..., "stream_id": ...}}` (club
null for a session opened outside clubs). Moving the session to another club then breaks
its first link. Chains written before binding (the first releases) start from 64 zeros;
they stay verifiable, and their club is bound by the club's chained log instead
(ledger/store/clublog.py). A club's book log and club log carry their club in every entry's
stream id ("books:<club>", "club:<club>"), so they start from 64 zeros.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

import orjson

CHAIN_FORMAT = "lanterloo/1"
GENESIS = "0" * 64
HASHED = ("stream_id", "version", "type", "schema_version", "payload", "recorded_at", "actor",
          "member_id", "token_id", "idempotency_key")

Record = tuple[str, int, dict[str, Any]]  # (type, schema_version, payload)


class EventRow(NamedTuple):
    """A stored event as the checks read it (`Store.event_rows`), and as `walk` hashes it."""

    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    payload: Any  # decoded
    recorded_at: str  # as the chain hashes it (`utc_iso`)
    actor: str
    member_id: str | None
    token_id: str | None
    idempotency_key: str | None
    hash: str | None


class NotHashable(ValueError):
    """An event holds a value the canonical form cannot write (an integer past 64 bits)."""


def utc_iso(moment: datetime) -> str:
    """ISO 8601 in UTC; SQLite hands back the naive UTC value it was given."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def as_utc(moment: datetime) -> datetime:
    """The moment in UTC; SQLite hands back the naive UTC value it was given."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def canonical(event: Mapping[Any, Any], prev: str) -> bytes:
    """The bytes that are hashed for `event` (a stored row as a mapping) after `prev`."""
    return _canonical(as_row(event), prev)


def as_row(event: Mapping[Any, Any]) -> EventRow:
    """A stored row given as a mapping, as `walk` reads it (a field it lacks is null)."""
    get: Any = event.get
    return EventRow(get("stream_id"), get("version"), get("position"), get("type"),
                    get("schema_version"), get("payload"), get("recorded_at"), get("actor"),
                    get("member_id"), get("token_id"), get("idempotency_key"), get("hash"))


def _canonical(row: EventRow, prev: str) -> bytes:
    # One dict display of the hashed fields (HASHED), `chain` and `prev`: a verify hashes
    # every event of the log, and this is most of what it does beside the fold.
    moment: Any = row.recorded_at
    if isinstance(moment, datetime):
        moment = utc_iso(moment)
    try:
        return orjson.dumps(
            {"actor": row.actor, "chain": CHAIN_FORMAT, "idempotency_key": row.idempotency_key,
             "member_id": row.member_id, "payload": row.payload, "prev": prev,
             "recorded_at": moment, "schema_version": row.schema_version,
             "stream_id": row.stream_id, "token_id": row.token_id, "type": row.type,
             "version": row.version}, option=_SORTED)
    except TypeError as error:  # an integer past 64 bits
        raise NotHashable(f"event {row.stream_id}/{row.version}: {error}") from None


# A key that is a vocabulary member (a StrEnum) is written as its string, as the payload
# reads back from the store; keys are sorted as the strings they are written as.
_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _sorted_json(body: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(body, option=_SORTED)
    except TypeError as error:  # an integer past 64 bits
        raise NotHashable(f"event {body['stream_id']}/{body['version']}: {error}") from None


def link(event: Mapping[Any, Any], prev: str) -> str:
    """The hash of `event` chained after `prev`."""
    return _link(as_row(event), prev)


def _link(row: EventRow, prev: str) -> str:
    return hashlib.sha256(_canonical(row, prev)).hexdigest()


def chain_rows(stream_id: str, first_version: int, records: Sequence[Record], *, actor: str,
               recorded_at: datetime, idempotency_key: str | None, member_id: str | None,
               token_id: str | None, prev_hash: str) -> list[dict[str, Any]]:
    """The rows of `records` as versions first_version.. of the stream, each with its hash
    chained to the one before it (`prev_hash`: the hash of version first_version - 1)."""
    rows = []
    for i, (type_, schema_version, payload) in enumerate(records):
        row = {"stream_id": stream_id, "version": first_version + i, "type": type_,
               "schema_version": schema_version, "payload": payload,
               "recorded_at": recorded_at, "actor": actor, "idempotency_key": idempotency_key,
               "member_id": member_id, "token_id": token_id}
        row["hash"] = prev_hash = link(row, prev_hash)
        rows.append(row)
    return rows


def genesis(stream_id: str, owner: Mapping[str, str | None]) -> str:
    """The hash a chain bound to `owner` (its club) starts from (see the module's docstring)."""
    body = {"chain": CHAIN_FORMAT, "genesis": {**owner, "stream_id": stream_id}}
    return hashlib.sha256(_sorted_json(body)).hexdigest()


def session_genesis(session_id: str, club_id: str | None) -> str:
    """The start of the chain of a session opened in `club_id` (None: outside clubs)."""
    return genesis(session_id, {"club_id": club_id})


def first_broken_link(rows: Iterable[Mapping[Any, Any]]) -> tuple[str, str | None]:
    """(the chain head recomputed, a description of the first broken link or None).

    `rows` are a stream's stored events in version order, as mappings, each with its stored
    `hash`; the chain starts from 64 zeros.
    """
    head, broken, _ = walk((as_row(row) for row in rows), (GENESIS,))
    return head, broken


def walk(rows: Iterable[EventRow], starts: Sequence[str]
         ) -> tuple[str, str | None, str | None]:
    """(the chain head recomputed, the first broken link or None, which of `starts` the
    chain starts from: None when its first link follows from none of them).

    `rows`: a stream's stored events in version order (`as_row` makes one of a mapping).
    An empty stream's head is `starts[0]`.
    """
    prev = starts[0]
    start: str | None = starts[0] if len(starts) == 1 else None
    expected_version = 1
    for row in rows:
        if start is None and row.version == 1:
            try:
                start = next((s for s in starts if _link(row, s) == row.hash), None)
            except NotHashable as error:
                return prev, f"version 1 (position {row.position}): {error}", None
            if start is None:
                return prev, (f"version 1 (position {row.position}, {row.type}): its "
                              "stored hash does not follow from the chain's genesis (its "
                              "stream and owner): the stream was moved to another owner, "
                              "or the log was altered at or before this event"), None
            prev = start
        if row.version != expected_version:
            return prev, (f"version {expected_version} is missing: the event after version "
                          f"{expected_version - 1} is version {row.version} "
                          f"(position {row.position})"), start
        try:
            computed = _link(row, prev)
        except NotHashable as error:
            return prev, f"version {row.version} (position {row.position}): {error}", \
                start
        if row.hash != computed:
            return prev, (f"version {row.version} (position {row.position}, "
                          f"{row.type}): its stored hash does not match its content and "
                          f"the hash before it; the log was altered at or before this event"), start
        prev = computed
        expected_version += 1
    return prev, None, start
