"""The checkpoint log: the chain heads the service signed, kept outside the database.

A head is signed when a session ends (right after the write that ends it commits, and after
every later write to an ended session: a correction), by `lanterloo checkpoint` (every
chain that verifies), and by `lanterloo export` for the head the export ends at. Never on a
read: a statement or an export served over HTTP carries the latest head kept here for its
session (`latest`), read from this log, and writes nothing.

Each checkpoint is one JSON line appended to the log (LOO_CHECKPOINT_LOG, default
checkpoints.jsonl in the instance folder: ledger/store/db.py), which an auditor copies
elsewhere (docs/audit.md). The signer reads its own log before it signs: a head that
contradicts one it signed before for that stream (a kept version whose hash in today's chain
differs, or that today's chain no longer has) is refused, logged as an error, and shown by
/readyz and `lanterloo verify`: a rewritten chain is never signed again.

A log that cannot be written (a full disk, a read-only folder) fails no request: the
checkpoints wait in memory, are written at the process's next write to a session, and
`signing_status` says the signing is failing until they are.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection

from ledger.audit.checkpoints import (
    ENV_KEY,
    KeyProblem,
    check,
    configured_signer,
    keep,
    key_id,
    log_path,
    read_log,
    signature_problem,
    stored_hash,
)

__all__ = ["keep", "log_path", "read_log"]  # the log's file, ledger/audit/checkpoints.py's

log = logging.getLogger("lanterloo.checkpoints")


def append_locked(build: Callable[[], Sequence[dict[str, Any]]],
                  path: Path | None = None) -> list[dict[str, Any]]:
    """Append what `build` returns, `build` called while this process holds the log's lock
    (so that what it read of the log is still its end when the lines are written); OSError
    when the log cannot be written."""
    path = path or log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        lines = list(build())
        data = b"".join(orjson.dumps(c) + b"\n" for c in lines)
        if data:
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(f"only {written} of {len(data)} bytes were written")
            os.fsync(fd)
        return lines
    finally:
        os.close(fd)


# -- the log, indexed by stream -------------------------------------------------------------

@dataclass
class _Index:
    """The log's checkpoints by stream, read up to `offset` (their signatures are checked
    when one is used: a log of many thousand lines is indexed in milliseconds)."""

    identity: tuple[int, int] = (-1, -1)
    offset: int = 0
    tail: bytes = b""  # the last bytes read: a log rewritten in place no longer has them
    checked: dict[int, bool] = field(default_factory=dict)  # id(line) -> its signature holds
    streams: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


_lock = threading.Lock()
_indexes: dict[Path, _Index] = {}
# pending: (log, checkpoint) signed, not yet written; unsigned: (log, stream, version) not
# signed because the log could not be read; refused: stream -> why its head was not signed
# ends: (club, signed end head) not yet added to the club's tree (ledger/audit/receipts.py)
_state: dict[str, Any] = {"pending": [], "unsigned": [], "ends": [], "failure": None,
                          "refused": {}, "unreadable": None}


def _refresh(path: Path) -> _Index:
    """The index of the log at `path`, with the lines appended since it was last read (the
    whole log again when the file was replaced or cut)."""
    index = _indexes.setdefault(path, _Index())
    try:
        fd = os.open(path, os.O_RDONLY)
    except (FileNotFoundError, NotADirectoryError):  # no log there (yet): nothing kept
        _indexes[path] = _Index()
        return _indexes[path]
    try:
        stat = os.fstat(fd)
        if (stat.st_dev, stat.st_ino) != index.identity or stat.st_size < index.offset \
                or os.pread(fd, len(index.tail), index.offset - len(index.tail)) != index.tail:
            index = _indexes[path] = _Index(identity=(stat.st_dev, stat.st_ino))
        if stat.st_size > index.offset:
            os.lseek(fd, index.offset, os.SEEK_SET)
            data = b""
            while chunk := os.read(fd, 1 << 20):
                data += chunk
            whole = data[:data.rfind(b"\n") + 1]  # a line being written is read next time
            index.offset += len(whole)
            index.tail = (index.tail + whole)[-64:]
            for line in whole.splitlines():
                _index_line(index, line)
    finally:
        os.close(fd)
    return index


def _index_line(index: _Index, line: bytes) -> None:
    try:
        checkpoint = orjson.loads(line)
    except orjson.JSONDecodeError:
        return
    if isinstance(checkpoint, dict) and isinstance(checkpoint.get("stream"), str) \
            and isinstance(checkpoint.get("version"), int) \
            and isinstance(checkpoint.get("head"), str):
        index.streams.setdefault(checkpoint["stream"], []).append(checkpoint)


def kept(stream: str, path: Path | None = None) -> list[dict[str, Any]]:
    """The checkpoints of `stream` in the log whose signature holds (by the key each names),
    oldest first; OSError when the log cannot be read."""
    path = path or log_path()
    with _lock:
        index = _refresh(path)
        out = []
        for line in index.streams.get(stream, ()):
            holds = index.checked.get(id(line))
            if holds is None:  # each line's signature checked once
                holds = index.checked[id(line)] = signature_problem(line, None) is None
            if holds:
                out.append(line)
        return out


def streams(path: Path | None = None) -> list[str]:
    """The streams the log holds a signed head of; OSError when it cannot be read."""
    path = path or log_path()
    with _lock:
        return sorted(_refresh(path).streams)


def latest(stream: str, path: Path | None = None, *,
           at: tuple[int, str | None] | None = None) -> dict[str, Any] | None:
    """The head kept for `stream` at `at` (a version and its hash) when there is one, else
    the latest kept (the highest version; of those the last signed); None when none is, or
    the log cannot be read (which `signing_status` then reports: a read never fails on it)."""
    try:
        found = kept(stream, path)
    except OSError as error:
        _state["unreadable"] = f"cannot read the checkpoint log: {error.strerror or error}"
        log.error("checkpoint log unreadable: %s", error)
        return None
    _state["unreadable"] = None
    exact = [c for c in found if at is not None and (c["version"], c["head"]) == at]
    return exact[-1] if exact else max(reversed(found), key=lambda c: c["version"],
                                       default=None)


# -- signing ---------------------------------------------------------------------------------

@dataclass
class Signing:
    """What a round of signing did: the heads now kept, the streams refused and why, and
    why the log could not be written (None: it was)."""

    signed: list[dict[str, Any]] = field(default_factory=list)
    refused: dict[str, list[str]] = field(default_factory=dict)
    unwritten: str | None = None
    key: str | None = None


def contradictions(conn: Connection, stream: str, path: Path | None = None) -> list[str]:
    """Where the stream's chain in the database contradicts a head kept in the log (or
    waiting to be written to it): [] when every one holds."""
    path = path or log_path()
    with _lock:
        waiting = [c for p, c in _state["pending"] if p == path and c["stream"] == stream]
    seen: set[tuple[int, str]] = set()
    problems = []
    for checkpoint in kept(stream, path) + waiting:
        if (checkpoint["version"], checkpoint["head"]) in seen:
            continue
        seen.add((checkpoint["version"], checkpoint["head"]))
        problem = check(conn, checkpoint, None)
        if problem is not None:
            problems.append(problem)
    return problems


def sign_heads(conn: Connection, heads: Sequence[tuple[str, int]],
               path: Path | None = None) -> Signing:
    """Sign each stream's head at its version, as the database holds it, unless it
    contradicts a head signed before; keep the new ones in the log, with any that waited
    for it (`sign_heads(conn, [])`: only those). Nothing is signed without a key."""
    signer = configured_signer()
    if signer is None:
        return Signing()
    path = path or log_path()
    done = Signing(key=signer.public_hex)
    with _lock:
        waiting = [(s, v) for p, s, v in _state["unsigned"] if p == path]
        _state["unsigned"] = [w for w in _state["unsigned"] if w[0] != path]
    wanted = list(dict.fromkeys([*waiting, *heads]))
    new: list[dict[str, Any]] = []
    for n, (stream, version) in enumerate(wanted):
        try:
            problems = contradictions(conn, stream, path)
            found = kept(stream, path)
        except OSError as error:  # its own log unread, nothing is signed: later
            done.unwritten = f"cannot read the checkpoint log {path}: " \
                f"{error.strerror or error}"
            with _lock:
                _state["unsigned"] += [(path, s, v) for s, v in wanted[n:]]
            break
        head = stored_hash(conn, stream, version) if not problems else None
        if not problems and head is None:
            problems = [f"{stream}: the log has no version {version} to sign"]
        if problems:
            done.refused[stream] = problems
            continue
        same = next((c for c in found if c["version"] == version and c["head"] == head
                     and c["key"] == signer.public_hex), None)
        if same is not None:  # signed and kept already: not twice
            done.signed.append(same)
        else:
            new.append(signer.sign(stream, version, str(head)))
    with _lock:
        others = [(p, c) for p, c in _state["pending"] if p != path]
        batch = [c for p, c in _state["pending"] if p == path] + new
        try:
            keep(batch, path)
        except OSError as error:
            done.unwritten = f"cannot append to the checkpoint log {path}: " \
                f"{error.strerror or error}"
            _state["pending"] = others + [(path, c) for c in batch]
        else:
            _state["pending"] = others
            done.signed += new
        _state["failure"] = done.unwritten
        for stream, _ in wanted:
            _state["refused"].pop(stream, None)
        _state["refused"].update(done.refused)
    if done.unwritten:
        log.error("checkpoint log: %s; %d heads wait to be signed or written", done.unwritten,
                  pending())
    elif batch and len(batch) > len(new):
        log.info("checkpoint log: %d signed heads that waited are written",
                 len(batch) - len(new))
    for stream, problems in done.refused.items():
        log.error("REFUSED to sign the head of %s: it contradicts a head signed before: %s",
                  stream, "; ".join(problems))
    return done


def pending() -> int:
    """How many heads wait to be signed or written to the log (session ends to be added to
    their club's tree among them)."""
    with _lock:
        return len(_state["pending"]) + len(_state["unsigned"]) + len(_state["ends"])


def take_waiting_ends() -> list[tuple[str, dict[str, Any]]]:
    """The (club, end head) that wait to be added to their club's tree; no longer waiting."""
    with _lock:
        ends, _state["ends"] = _state["ends"], []
        return list(ends)


def wait_ends(ends: list[tuple[str, dict[str, Any]]], failure: str) -> None:
    """These (club, end head) wait for the log, which could not be written."""
    with _lock:
        _state["ends"] += ends
        _state["failure"] = failure


def signing_status() -> str:
    """"ok", "off" (no key), or what is failing: the log unwritable or unreadable, or a
    head refused because it contradicts one signed before."""
    signer = configured_signer()
    if signer is None:
        return "off"
    with _lock:
        failure, refused = _state["failure"], dict(_state["refused"])
        waiting = len(_state["pending"]) + len(_state["unsigned"]) + len(_state["ends"])
        unreadable = _state["unreadable"]
    parts = []
    if failure:
        parts.append(f"failing: {failure} ({waiting} heads wait)")
    if unreadable:
        parts.append(f"failing: {unreadable}")
    if refused:
        parts.append(f"refused: {len(refused)} chains contradict a head signed before ("
                     + ", ".join(sorted(refused)[:3]) + ")")
    return "; ".join(parts) or "ok"


def key_status() -> dict[str, Any]:
    """The service's checkpoint key as the club's admin and auditor see it: whether heads
    are signed, how the signing goes (`signing_status`), the public key an auditor pins
    (`lanterloo verify-export FILE --public-key <it>`) and its short id, and where the key
    is kept: "environment" (LOO_CHECKPOINT_KEY or its _FILE) or "instance folder". Never
    the private key nor its path."""
    source = "environment" if os.environ.get(ENV_KEY) or os.environ.get(f"{ENV_KEY}_FILE") \
        else "instance folder"
    try:
        signer = configured_signer()
    except (KeyProblem, OSError) as error:
        return {"signed": False, "signing": f"failing: {error}", "public_key": None,
                "key_id": None, "source": source}
    if signer is None:
        return {"signed": False, "signing": "off", "public_key": None, "key_id": None,
                "source": None}
    return {"signed": True, "signing": signing_status(), "public_key": signer.public_hex,
            "key_id": key_id(signer.public_hex), "source": source}


def forget_state() -> None:
    """Drop what this process remembers of the log (tests, after the environment changed)."""
    with _lock:
        _indexes.clear()
        _state.update(pending=[], unsigned=[], ends=[], failure=None, refused={},
                      unreadable=None)
