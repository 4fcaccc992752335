"""A Merkle tree as Certificate Transparency's (RFC 6962 §2.1, RFC 9162 §2.1): its root,
inclusion proofs and consistency proofs, and their verification.

    leaf hash = SHA-256(0x00 || leaf),  node hash = SHA-256(0x01 || left || right)

The tree of n leaves splits at k, the largest power of two below n; the empty tree's root is
SHA-256 of nothing. Pure functions over lists of leaf hashes (bytes); the verifiers are RFC
9162's algorithms (§2.1.3.2 and §2.1.4.2), which need only the proof and the two roots.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def root(hashes: Sequence[bytes]) -> bytes:
    """MTH(D[n]) of the leaves whose hashes are `hashes`."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    if len(hashes) == 1:
        return hashes[0]
    k = split(len(hashes))
    return node_hash(root(hashes[:k]), root(hashes[k:]))


def inclusion_proof(index: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]): what proves leaf `index` is in the tree of `hashes`."""
    if not 0 <= index < len(hashes):
        raise ValueError(f"leaf {index} is not in a tree of {len(hashes)}")
    if len(hashes) == 1:
        return []
    k = split(len(hashes))
    if index < k:
        return inclusion_proof(index, hashes[:k]) + [root(hashes[k:])]
    return inclusion_proof(index - k, hashes[k:]) + [root(hashes[:k])]


def consistency_proof(old_size: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]): what proves the tree of the first `old_size` leaves is a prefix of the
    tree of `hashes`."""
    if not 0 < old_size <= len(hashes):
        raise ValueError(f"no consistency proof from {old_size} to {len(hashes)} leaves")
    return _subproof(old_size, hashes, True)


def _subproof(m: int, hashes: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(hashes)
    if m == n:
        return [] if whole else [root(hashes)]
    k = split(n)
    if m <= k:
        return _subproof(m, hashes[:k], whole) + [root(hashes[k:])]
    return _subproof(m - k, hashes[k:], False) + [root(hashes[:k])]


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes],
                     expected_root: bytes) -> bool:
    """Does `proof` show the leaf hash `leaf` at `index` in the tree of `size` leaves whose
    root is `expected_root` (RFC 9162 §2.1.3.2)."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected_root


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """Does `proof` show the tree of `old_size` leaves (root `old_root`) is a prefix of the
    tree of `new_size` leaves (root `new_root`) (RFC 9162 §2.1.4.2)."""
    if not 0 < old_size <= new_size:
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    path = list(proof)
    if not path:
        return False
    if old_size & (old_size - 1) == 0:  # an exact power of two: the old root is a node
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0
