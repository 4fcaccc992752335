"""Signed checkpoints: chain heads signed with a key the database never holds.

Whoever owns the database can rewrite a whole chain, every hash recomputed, with its stored
head; nothing inside the database can tell. A checkpoint is remembered outside it:

    {"format": "lanterloo-checkpoint/1", "stream": "<session id>" | "books:<club>" |
     "club:<club>", "version": 41, "head": "<the chain hash at that version>",
     "signed_at": "<ISO 8601 UTC>", "key": "<the Ed25519 public key, hex>",
     "signature": "<Ed25519 signature, hex>"}

The signature covers the canonical form of every other member (JSON, keys sorted, no
spaces, UTF-8: as the chain's own, ledger/store/chain.py). The key is Ed25519 (the
`cryptography` package), read from LOO_CHECKPOINT_KEY or the file LOO_CHECKPOINT_KEY_FILE
names, else from the file checkpoint.key in the instance folder (ledger/store/db.py), which
`lanterloo serve --demo` and `lanterloo club create` write (mode 600) when no key is
configured: 64 hex digits (the private key's seed, as `lanterloo keygen` writes it) or a PEM
PKCS#8 private key. Without a key nothing is signed.

The checkpoint log's file (LOO_CHECKPOINT_LOG, default checkpoints.jsonl in the instance
folder: one JSON line per checkpoint) is written and read here; what is signed, when, and
how the log is indexed is ledger/audit/checkpoint_log.py's. `lanterloo verify
--checkpoint FILE` checks every kept checkpoint against the database: its signature, by the
auditor's pinned public key, and the chain's stored hash at its version, which a rewrite
cannot keep (docs/operations.md, "How an auditor keeps heads").
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, select

from ledger.domain.vocabulary import Status
from ledger.store import clublog
from ledger.store.db import env_or_file, instance_folder
from ledger.store.tables import book_entries, club_log, events, log_heads, sessions

FORMAT = "lanterloo-checkpoint/1"
ENV_KEY = "LOO_CHECKPOINT_KEY"
SIGNED = ("format", "stream", "version", "head", "signed_at", "key")


class KeyProblem(ValueError):
    """The checkpoint key cannot be read."""


def _canonical(body: dict[str, Any]) -> bytes:
    return orjson.dumps({k: body.get(k) for k in SIGNED}, option=orjson.OPT_SORT_KEYS)


def key_id(public_hex: str) -> str:
    """A short name of a public key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


class Signer:
    """Signs chain heads with one Ed25519 private key."""

    def __init__(self, private: Any):
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        self._private = private
        self.public_hex = private.public_key().public_bytes(
            Encoding.Raw, PublicFormat.Raw).hex()

    @classmethod
    def from_text(cls, text: str) -> Signer:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        text = text.strip()
        try:
            if text.startswith("-----BEGIN"):
                key = load_pem_private_key(text.encode(), password=None)
                if not isinstance(key, Ed25519PrivateKey):
                    raise KeyProblem("the checkpoint key is not an Ed25519 key")
                return cls(key)
            return cls(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text)))
        except KeyProblem:
            raise
        except ValueError as error:
            raise KeyProblem(f"the checkpoint key is neither 64 hex digits nor a PEM "
                             f"Ed25519 key: {error}") from None

    @classmethod
    def generate(cls) -> tuple[Signer, str]:
        """A new key, and its seed as 64 hex digits (what LOO_CHECKPOINT_KEY holds)."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import (
            Encoding,
            NoEncryption,
            PrivateFormat,
        )

        key = Ed25519PrivateKey.generate()
        seed = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()
        return cls(key), seed

    def sign(self, stream: str, version: int, head: str, *,
             at: datetime | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "format": FORMAT, "stream": stream, "version": version, "head": head,
            "signed_at": (at or datetime.now(UTC)).astimezone(UTC).isoformat(),
            "key": self.public_hex}
        body["signature"] = self._private.sign(_canonical(body)).hex()
        return body


def signature_problem(checkpoint: Any, trusted: Iterable[str] | None) -> str | None:
    """Why the checkpoint's signature does not hold (None: it does), by one of the `trusted`
    public keys (hex; None: by the key it names, which proves only that it was not altered
    since)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        return f"not a checkpoint of format {FORMAT}"
    key, signature = checkpoint.get("key"), checkpoint.get("signature")
    if not isinstance(key, str) or not isinstance(signature, str):
        return "the checkpoint has no key or no signature"
    if trusted is not None and key not in set(trusted):
        return f"signed by key {_safe_id(key)}, which is not a trusted key"
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
            bytes.fromhex(signature), _canonical(checkpoint))
    except (InvalidSignature, ValueError):
        return "the signature does not match the checkpoint: it was altered or forged"
    return None


def _safe_id(key: str) -> str:
    try:
        return key_id(key)
    except ValueError:
        return repr(key[:16])


# -- the service's key ----------------------------------------------------------------------

KEY_FILE = "checkpoint.key"  # in the instance folder, when no key is configured
_lock = threading.Lock()
_configured: dict[str, Any] = {}


def instance_key_path() -> Path:
    """Where the service keeps its own key when none is configured."""
    return instance_folder() / KEY_FILE


def _key_text() -> str | None:
    text = env_or_file(ENV_KEY)
    if text:
        return text
    path = instance_key_path()
    return (path.read_text().strip() or None) if path.is_file() else None


def configured_signer() -> Signer | None:
    """The signer of LOO_CHECKPOINT_KEY (or its _FILE), else of the instance folder's key
    file; read once per process; None when there is no key."""
    with _lock:
        if "signer" not in _configured:
            text = _key_text()
            _configured["signer"] = Signer.from_text(text) if text else None
        signer: Signer | None = _configured["signer"]
        return signer


def forget_configuration() -> None:
    """Read the key afresh (after the environment or the instance folder changed)."""
    with _lock:
        _configured.clear()


def ensure_key() -> tuple[Signer, Path | None]:
    """The configured signer, or, when no key is configured, a new one written to the
    instance folder (mode 600) and the file's path (None: a key was there already)."""
    signer = configured_signer()
    if signer is not None:
        return signer, None
    path = instance_key_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    signer, seed = Signer.generate()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it a moment ago: that one is the key
        forget_configuration()
        found = configured_signer()
        assert found is not None
        return found, None
    with os.fdopen(fd, "w") as out:
        out.write(seed + "\n")
    forget_configuration()
    return signer, path


# -- the checkpoint log's file ------------------------------------------------------------

ENV_LOG = "LOO_CHECKPOINT_LOG"
LOG_FILE = "checkpoints.jsonl"


def log_path() -> Path:
    """The checkpoint log: LOO_CHECKPOINT_LOG, else checkpoints.jsonl in the instance
    folder; an absolute path whatever the current directory."""
    configured = os.environ.get(ENV_LOG, "").strip()
    if configured:
        return Path(configured).expanduser().resolve()
    return instance_folder() / LOG_FILE


def keep(checkpoints: Sequence[dict[str, Any]], path: Path | None = None) -> None:
    """Append the checkpoints to the checkpoint log, one JSON line each (a lock on the file
    keeps the lines of several processes whole); OSError when it cannot be written."""
    if not checkpoints:
        return
    path = path or log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"".join(orjson.dumps(c) + b"\n" for c in checkpoints)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(f"only {written} of {len(data)} bytes were written")
        os.fsync(fd)
    finally:
        os.close(fd)


def read_log(path: Path) -> list[Any]:
    """The checkpoints of a checkpoint log (a JSON line each; a line that is not JSON is
    kept as None, and reported)."""
    out: list[Any] = []
    for line in path.read_bytes().splitlines():
        if line.strip():
            try:
                out.append(orjson.loads(line))
            except orjson.JSONDecodeError:
                out.append(None)
    return out


# -- a checkpoint against the database -----------------------------------------------------

def stored_hash(conn: Connection, stream: str, version: int) -> str | None:
    """The hash the database holds for the stream's entry at `version` (None: none)."""
    kind, _, club_id = stream.partition(":")
    if kind == "books" and club_id:
        query = select(book_entries.c.hash).where(book_entries.c.club_id == club_id,
                                                  book_entries.c.seq == version)
    elif kind == "club" and club_id:
        query = select(club_log.c.hash).where(club_log.c.club_id == club_id,
                                              club_log.c.seq == version)
    else:
        query = select(events.c.hash).where(events.c.stream_id == stream,
                                            events.c.version == version)
    return conn.execute(query).scalar()


def check(conn: Connection, checkpoint: Any, trusted: Iterable[str] | None) -> str | None:
    """What is wrong with the database against one kept checkpoint (None: it holds)."""
    problem = signature_problem(checkpoint, trusted)
    if problem is not None:
        return f"checkpoint: {problem}"
    stream, version = checkpoint.get("stream"), checkpoint.get("version")
    if isinstance(stream, str) and stream.startswith("tree:"):
        return None  # a club's log of ends, kept outside the database (ledger/audit/receipts.py)
    if not isinstance(stream, str) or isinstance(version, bool) or not isinstance(version, int):
        return "checkpoint: it names no stream or no version"
    if version < 1:
        return None  # an empty chain's head: nothing stored to hold it against
    if version > 2**31 - 1:
        return f"{stream}: a checkpoint pins version {version}, past any the store can hold"
    found = stored_hash(conn, stream, version)
    when = checkpoint.get("signed_at")
    if found is None:
        return (f"{stream}: the log no longer has version {version}, which a checkpoint "
                f"signed at {when} pins: entries were removed")
    if found != checkpoint.get("head"):
        return (f"{stream}: version {version}'s hash is {found}, a checkpoint signed at "
                f"{when} pins {checkpoint.get('head')}: the chain was rewritten")
    return None


@dataclass(frozen=True)
class StoredHeads:
    """Every chain's head as stored, read at once, for signing."""

    sessions: dict[str, tuple[int, str | None]]  # each session's (version, head hash)
    clubs: dict[str, tuple[str, str]]  # each club's two logs: its book log's, its club log's
    logs: dict[str, int]  # each of those logs' last seq, by stream
    ended: dict[str, str]  # each ended session held by a club: its club's id


def stored_heads(engine: Engine) -> StoredHeads:
    """Every session's head, every club's logs and their last seqs, and the ended sessions
    of the clubs, read in one connection."""
    with engine.connect() as conn:
        heads, ended = {}, {}
        for sid, v, h, club_id, state in conn.execute(select(
                sessions.c.id, sessions.c.version, sessions.c.head_hash, sessions.c.club_id,
                sessions.c.state)):
            heads[sid] = (int(v), h)
            if club_id is not None and (state or {}).get("status") == Status.ENDED:
                ended[sid] = club_id
        club_ids = clublog.club_ids(conn)
        logs = {s: int(q) for s, q in conn.execute(
            select(log_heads.c.stream_id, log_heads.c.seq))}
    clubs = {club_id: (clublog.books_stream(club_id), clublog.stream(club_id))
             for club_id in club_ids}
    return StoredHeads(heads, clubs, logs, ended)
