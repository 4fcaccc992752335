"""The Merkle tree of ledger/audit/merkle.py against RFC 6962: the reference roots of the
Certificate Transparency test leaves, trees small enough to check by hand, and every
inclusion and consistency proof of trees up to 20 leaves verified, a changed one refused."""

from __future__ import annotations

import hashlib

from ledger.audit import merkle

# The test leaves of RFC 6962's reference implementations and the roots of their first
# 0..8 leaves.
LEAVES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243",
                                     "5051525354555657", "606162636465666768696a6b6c6d6e6f")]
ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
HASHES = [merkle.leaf_hash(leaf) for leaf in LEAVES]


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def test_the_roots_are_rfc_6962s_for_every_size_up_to_eight():
    assert [merkle.root(HASHES[:n]).hex() for n in range(9)] == ROOTS


def test_a_tree_of_three_by_hand():
    a, b, c = (h(b"\x00" + x) for x in (b"a", b"b", b"c"))
    ab = h(b"\x01" + a + b)
    assert merkle.root([a, b, c]) == h(b"\x01" + ab + c)  # split at 2: (a b) c
    assert merkle.inclusion_proof(0, [a, b, c]) == [b, c]
    assert merkle.inclusion_proof(2, [a, b, c]) == [ab]
    assert merkle.consistency_proof(2, [a, b, c]) == [c]
    assert merkle.consistency_proof(1, [a, b, c]) == [b, c]
    assert merkle.verify_consistency(2, 3, ab, merkle.root([a, b, c]), [c])


def test_the_reference_inclusion_proof_of_the_first_leaf_of_eight():
    proof = merkle.inclusion_proof(0, HASHES)
    assert [p.hex() for p in proof] == [
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]


def test_every_proof_of_trees_up_to_twenty_verifies_and_a_changed_one_does_not():
    hashes = [merkle.leaf_hash(bytes([i, i * 7 % 256])) for i in range(20)]
    for n in range(1, 21):
        top = merkle.root(hashes[:n])
        for i in range(n):
            proof = merkle.inclusion_proof(i, hashes[:n])
            assert merkle.verify_inclusion(i, n, hashes[i], proof, top)
            assert not merkle.verify_inclusion(i, n, hashes[(i + 1) % 20], proof, top)
            if proof:
                bent = [proof[0][:-1] + bytes([proof[0][-1] ^ 1]), *proof[1:]]
                assert not merkle.verify_inclusion(i, n, hashes[i], bent, top)
        for m in range(1, n + 1):
            proof = merkle.consistency_proof(m, hashes[:n])
            old = merkle.root(hashes[:m])
            assert merkle.verify_consistency(m, n, old, top, proof)
            forked = merkle.root([*hashes[:m - 1], merkle.leaf_hash(b"forged")])
            if m < n or proof:
                assert not merkle.verify_consistency(m, n, forked, top, proof)
            if proof:
                assert not merkle.verify_consistency(m, n, old, top, proof[:-1])
