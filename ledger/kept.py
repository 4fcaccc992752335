"""What a session keeps beside its log besides its projections, held against the log by verify.

- **Snapshots** (`missing_snapshots`): an append that crosses a multiple m of the interval
  keeps the state at its last version, a rebuild keeps the state at m itself
  (ledger/sessions/service.py, ledger/projections.py); so for every multiple m the log reaches, one
  of those must be stored. Their content is compared by `projections.differences`; a
  deleted one is found here. (A missing snapshot never changes an answer, only its cost:
  a read as of a version folds from the one before it.)
- **Stored answers** (`answer_problems`): the first answer to a write with an
  Idempotency-Key is replayed to every retry, so an edit of it would tell a client what the
  ledger never did. A session's answer is made again from the log: the events it appended
  are the stored events at those versions, field for field (their hashes are the chain's,
  and each must carry the answer's key), its version is the last of them, and its session
  view is the view of the state the log folds to at that version.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from ledger.domain import SessionState
from ledger.domain.execution import session_view
from ledger.store.base import EventRow

# The fields of an appended event an answer repeats, as the log stores them.
APPENDED = ("position", "version", "type", "schema_version", "payload", "recorded_at", "actor",
            "member_id", "token_id", "hash")


@dataclass(frozen=True)
class Answer:
    """A stored answer (a row of `idempotency_keys`)."""

    scope: str
    key: str
    body: Any


def missing_snapshots(rows: Sequence[EventRow], kept: Collection[int], every: int
                      ) -> list[str]:
    """The snapshots the log says were kept and are not stored: for each multiple m of
    `every` up to its last version, one at m (a rebuild's) or at the end of the write that
    reached m (an append's; a write's events share their `recorded_at`)."""
    if every <= 0 or not rows:
        return []
    versions = sorted(kept)
    out = []
    for m in range(every, rows[-1].version + 1, every):
        at = bisect_left(rows, m, key=lambda row: row.version)
        if at == len(rows) or rows[at].version != m:
            continue  # a gap in the log: reported as one already
        end = at
        while end + 1 < len(rows) and rows[end + 1].recorded_at == rows[at].recorded_at:
            end += 1
        found = bisect_left(versions, m)
        if found == len(versions) or versions[found] > rows[end].version:
            out.append(f"snapshots: none at version {m} or at {rows[end].version}, where the "
                       f"write that reached version {m} ends: a snapshot was deleted")
    return out


def answered_versions(answers: Sequence[Answer]) -> set[int]:
    """The versions whose states the answers' session views are checked against."""
    return {a.body["version"] for a in answers if isinstance(a.body, dict)
            and isinstance(a.body.get("version"), int) and not isinstance(
                a.body.get("version"), bool)}


def answer_view(state: SessionState) -> Any:
    """The session view an answer carries of `state`, as JSON reads it back, less the legal
    choices (`expected`: what the table may do next, derived from the rules at each step and
    the costliest part of a view to make; a client reads them afresh)."""
    return orjson.loads(orjson.dumps(session_view(state, choices=False),
                                     option=orjson.OPT_NON_STR_KEYS))


def answer_problems(answers: Sequence[Answer], rows: Sequence[EventRow],
                    views: Mapping[int, Any]) -> list[str]:
    """What is wrong with the session's stored answers against its log (`rows`, in version
    order) and the views of its states at their versions (`answer_view`, as `fold_log`
    keeps them)."""
    by_version = {row.version: row for row in rows}
    out = []
    for answer in sorted(answers, key=lambda a: (a.scope, a.key)):
        where = f"idempotency_keys.{answer.scope}/{answer.key}"
        out += [f"{where}: {p}" for p in _one(answer, by_version, views)]
    return out


def _one(answer: Answer, log: Mapping[int, EventRow], views: Mapping[int, Any]) -> list[str]:
    body = answer.body
    version = body.get("version") if isinstance(body, dict) else None
    appended = body.get("appended") if isinstance(body, dict) else None
    if not isinstance(version, int) or isinstance(version, bool) \
            or not isinstance(appended, list) or version not in log:
        return [f"the stored answer names version {version!r}, which the log does not hold"]
    out = []
    for i, sent in enumerate(appended):
        at: Any = sent.get("version") if isinstance(sent, dict) else None
        row = log.get(at)
        if row is None:
            out.append(f"appended.{i}: an event the log does not hold")
            continue
        stored = row._asdict()
        out += [f"appended.{i}.{name}: answered {sent.get(name)!r}, the log's "
                f"{stored[name]!r}" for name in APPENDED if sent.get(name) != stored[name]]
        if sent.get("superseded_by") is not None:
            out.append(f"appended.{i}.superseded_by: answered {sent['superseded_by']!r}, "
                       "an answer is sent before any correction")
        if row.idempotency_key != answer.key:
            out.append(f"appended.{i}: version {row.version} was written with key "
                       f"{row.idempotency_key!r}, not this one")
    if appended and isinstance(appended[-1], dict) and appended[-1].get("version") != version:
        out.append(f"version: answered {version}, its last event is version "
                   f"{appended[-1].get('version')!r}")
    if version in views:
        sent = body.get("session")
        if not isinstance(sent, dict) \
                or {k: v for k, v in sent.items() if k != "expected"} != views[version]:
            out.append(f"session: not the view of the state at version {version}, which "
                       "the log folds to")
    return out
