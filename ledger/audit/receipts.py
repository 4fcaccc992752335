"""Receipts: each session's end as a leaf of its club's Merkle log (ledger/audit/merkle.py, RFC 6962
style), so that the members who were paid hold evidence the club's owner cannot take back.

The club's log is a Merkle tree over the heads of its sessions' ends, in the order they were
signed; each leaf is the canonical JSON (keys sorted) of {"stream": <session id>, "version",
"head"}. Each time a session of the club ends (its head signed, ledger/audit/checkpoint_log.py),
the tree grows by that leaf and its new root is signed as a checkpoint of the stream
"tree:<club id>": version = the tree's size, head = its root (hex), and the line carries the
leaf it appended (`appended`), so the checkpoint log alone rebuilds the tree.

A receipt (a statement's `log.receipt`, an export's `receipt`):

    {"format": "lanterloo-receipt/1", "club_id": ..., "leaf": {"stream", "version", "head"},
     "leaf_index": i, "tree_head": <the latest signed head of the club's tree>,
     "inclusion": [hex, ...]}

proves the session's end is leaf i of the tree the club's key signed; a later tree head and
a consistency proof prove that tree was kept, never rewritten (`lanterloo verify-receipt`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection

from ledger.audit import checkpoint_log, merkle
from ledger.audit.checkpoints import SIGNED, configured_signer, signature_problem, stored_hash

FORMAT = "lanterloo-receipt/1"
TREE = "tree:"
LEAF = ("stream", "version", "head")


def tree_stream(club_id: str) -> str:
    return f"{TREE}{club_id}"


def leaf_hash(leaf: dict[str, Any]) -> bytes:
    """The hash of the leaf of a session's end (remembered: each read of a receipt hashes
    every leaf of the club's log)."""
    return _leaf_hash(leaf.get("stream"), leaf.get("version"), leaf.get("head"))


@lru_cache(maxsize=1 << 16)
def _leaf_hash(stream: Any, version: Any, head: Any) -> bytes:
    return merkle.leaf_hash(orjson.dumps({"stream": stream, "version": version, "head": head},
                                         option=orjson.OPT_SORT_KEYS))


_trees_read: dict[tuple[str, str], tuple[int, str, Any]] = {}


def _tree(club_id: str, path: Path | None = None) -> tuple[list[dict[str, Any]],
                                                          list[dict[str, Any]]]:
    """(the club's tree heads, one per size 1..n, and the leaves they appended); a head that
    repeats a size (never written by the service) ends the tree there. Remembered until
    the log has another line of the club's tree."""
    lines = checkpoint_log.kept(tree_stream(club_id), path)
    key = (str(path), club_id)
    seen = _trees_read.get(key)
    mark = (len(lines), lines[-1]["signature"] if lines else "")
    if seen is not None and seen[:2] == mark:
        found: tuple[list[dict[str, Any]], list[dict[str, Any]]] = seen[2]
        return found
    heads: list[dict[str, Any]] = []
    for line in lines:
        if line["version"] == len(heads) + 1 and isinstance(line.get("appended"), dict):
            heads.append(line)
    found = heads, [{k: h["appended"].get(k) for k in LEAF} for h in heads]
    _trees_read[key] = (*mark, found)
    return found


def tree_problems(club_id: str, path: Path | None = None) -> list[str]:
    """Where the club's tree in the log is not what its signed heads say: each signed root
    must be the root of the leaves before it (a fork or an edit is named)."""
    problems = []
    lines = checkpoint_log.kept(tree_stream(club_id), path)
    heads, leaves = _tree(club_id, path)
    hashes = [leaf_hash(leaf) for leaf in leaves]
    for head in heads:
        if merkle.root(hashes[:head["version"]]).hex() != head["head"]:
            problems.append(f"{tree_stream(club_id)}: the head of size {head['version']} "
                            "signs a root its leaves do not make: the log was edited")
    if len(lines) > len(heads):
        problems.append(f"{tree_stream(club_id)}: {len(lines) - len(heads)} signed heads "
                        "repeat a size: the club's log was forked")
    return problems


def append_end(club_id: str, checkpoint: dict[str, Any], path: Path | None = None) -> None:
    """Grow the club's tree by the session's end head (the signed `checkpoint`) and sign its
    new root, unless that head is a leaf already; OSError when the log cannot be written."""
    signer = configured_signer()
    if signer is None:
        return
    leaf = {k: checkpoint[k] for k in LEAF}

    def grown() -> list[dict[str, Any]]:
        _, leaves = _tree(club_id, path)
        if leaf in leaves:
            return []
        hashes = [leaf_hash(x) for x in [*leaves, leaf]]
        return [{**signer.sign(tree_stream(club_id), len(hashes), merkle.root(hashes).hex()),
                 "appended": leaf}]

    checkpoint_log.append_locked(grown, path)


def grow(ends: list[tuple[str, dict[str, Any]]]) -> None:
    """Add each (club, signed end head) to its club's tree, with those that waited for the
    log; what cannot be written waits for the next call (logged, and shown by /readyz)."""
    batch = [*checkpoint_log.take_waiting_ends(), *ends]
    for n, (club_id, checkpoint) in enumerate(batch):
        try:
            append_end(club_id, checkpoint)
        except OSError as error:
            failure = f"cannot append to the checkpoint log {checkpoint_log.log_path()}: " \
                f"{error.strerror or error}"
            checkpoint_log.wait_ends(batch[n:], failure)
            checkpoint_log.log.error("club %s's log of ends: %s; %d ends wait", club_id,
                                     failure, len(batch) - n)
            return


def receipt(club_id: str | None, session_id: str, path: Path | None = None
            ) -> dict[str, Any] | None:
    """The receipt of the session's latest end in its club's tree (None: none is there, or
    the log cannot be read)."""
    if club_id is None:
        return None
    try:
        heads, leaves = _tree(club_id, path)
    except OSError:
        return None
    index = next((i for i in range(len(leaves) - 1, -1, -1)
                  if leaves[i]["stream"] == session_id), None)
    if index is None:
        return None
    return {"format": FORMAT, "club_id": club_id, "leaf": dict(leaves[index]),
            "leaf_index": index,
            "tree_head": {k: heads[-1][k] for k in (*SIGNED, "signature")},
            "inclusion": _inclusion(heads[-1]["head"], tuple(leaf_hash(x) for x in leaves),
                                    index)}


def _inclusion(root_hex: str, hashes: tuple[bytes, ...], index: int) -> list[str]:
    """The inclusion proof of leaf `index`, from the tree's subtree roots, each computed
    once per tree (a tree of a given root never changes)."""
    return [p.hex() for p in _Tree.of(root_hex, hashes).path(index, 0, len(hashes))]


class _Tree:
    """A tree's leaf hashes and the roots of its subtrees as they are asked for."""

    _trees: dict[str, _Tree] = {}

    def __init__(self, hashes: tuple[bytes, ...]):
        self.hashes = hashes
        self.roots: dict[tuple[int, int], bytes] = {}

    @classmethod
    def of(cls, root_hex: str, hashes: tuple[bytes, ...]) -> _Tree:
        tree = cls._trees.get(root_hex)
        if tree is None or tree.hashes != hashes:
            if len(cls._trees) > 64:
                cls._trees.clear()
            tree = cls._trees[root_hex] = cls(hashes)
        return tree

    def root(self, lo: int, hi: int) -> bytes:
        found = self.roots.get((lo, hi))
        if found is None:
            if hi - lo == 1:
                found = self.hashes[lo]
            else:
                k = merkle.split(hi - lo)
                found = merkle.node_hash(self.root(lo, lo + k), self.root(lo + k, hi))
            self.roots[(lo, hi)] = found
        return found

    def path(self, index: int, lo: int, hi: int) -> list[bytes]:
        """RFC 6962's PATH(index, D[lo:hi])."""
        if hi - lo == 1:
            return []
        k = merkle.split(hi - lo)
        if index < lo + k:
            return self.path(index, lo, lo + k) + [self.root(lo + k, hi)]
        return self.path(index, lo + k, hi) + [self.root(lo, lo + k)]


def check_receipt(found: Any, trusted: set[str] | None) -> list[str]:
    """What is wrong with a receipt on its own ([] when it holds): its tree head signed by a
    trusted key (None given: unchecked, a problem), the leaf in that tree."""
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        return [f"receipt: not a receipt of format {FORMAT}"]
    head, leaf, club = found.get("tree_head"), found.get("leaf"), found.get("club_id")
    if trusted is None:
        return ["receipt: the signature is unchecked: no --public-key was given"]
    problem = signature_problem(head, trusted)
    if problem is not None:
        return [f"receipt: its tree head: {problem}"]
    assert isinstance(head, dict)
    if not isinstance(club, str) or head.get("stream") != tree_stream(club):
        return [f"receipt: its tree head is of {head.get('stream')!r}, not club {club}'s log"]
    try:
        proof = [bytes.fromhex(p) for p in found["inclusion"]]
        holds = isinstance(leaf, dict) and merkle.verify_inclusion(
            int(found["leaf_index"]), int(head["version"]), leaf_hash(leaf), proof,
            bytes.fromhex(head["head"]))
    except (KeyError, TypeError, ValueError):
        holds = False
    if not holds:
        return [f"receipt: its leaf is not leaf {found.get('leaf_index')} of the tree of "
                f"{head.get('version')} the club signed: it was altered"]
    return []


def check_database(conn: Connection, found: dict[str, Any]) -> list[str]:
    """The receipt's session end against the database: it must still hold that head."""
    leaf = found["leaf"]
    stored = stored_hash(conn, str(leaf["stream"]), int(leaf["version"]))
    if stored is None:
        return [f"database: session {leaf['stream']} no longer has version {leaf['version']}, "
                "whose end the receipt holds: entries were removed"]
    if stored != leaf["head"]:
        return [f"database: session {leaf['stream']}'s version {leaf['version']} has hash "
                f"{stored}, the receipt's end is {leaf['head']}: the chain was rewritten"]
    return []


def check_later(found: dict[str, Any], later: Any, trusted: set[str],
                path: Path | None = None) -> list[str]:
    """The receipt's tree against a later signed head of the club's tree: the club's log
    must prove the receipt's tree a prefix of the later one (RFC 6962 consistency)."""
    problem = signature_problem(later, trusted)
    if problem is not None:
        return [f"later tree head: {problem}"]
    head, club = found["tree_head"], found["club_id"]
    if later.get("stream") != head["stream"]:
        return [f"later tree head: it is of {later.get('stream')!r}, not {head['stream']}"]
    old, new = int(head["version"]), int(later["version"])
    if new < old:
        return [f"later tree head: its tree of {new} is smaller than the receipt's of {old}"]
    _, leaves = _tree(club, path)
    hashes = [leaf_hash(x) for x in leaves[:new]]
    if len(hashes) < new or merkle.root(hashes).hex() != later["head"]:
        return [f"the club's log does not hold the tree of {new} the later head signs: it "
                "was cut or rewritten"]
    proof = merkle.consistency_proof(old, hashes)
    if not merkle.verify_consistency(old, new, bytes.fromhex(head["head"]),
                                     bytes.fromhex(later["head"]), proof):
        return [f"the club's log of {old} the receipt holds is not a prefix of its log of "
                f"{new}: the log was rewritten"]
    return []
