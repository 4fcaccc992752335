"""Signed checkpoints (ledger/audit/checkpoints.py) as an auditor checks them: an Ed25519
signature over the sorted, spaceless JSON of six members, by a key given as 64 hex digits
or PEM; any member altered, or another key, and it no longer holds."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from ledger.audit.checkpoints import KeyProblem, Signer, keep, read_log, signature_problem

SEED = "11" * 32


def test_a_checkpoint_is_a_signature_over_the_sorted_json_of_six_members():
    signer = Signer.from_text(SEED)
    signed = signer.sign("s1", 7, "ab" * 32, at=datetime(2026, 11, 26, 1, 2, 3, tzinfo=UTC))
    assert signed["signed_at"] == "2026-11-26T01:02:03+00:00"
    body = {k: v for k, v in signed.items() if k != "signature"}
    message = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(signed["key"])).verify(
        bytes.fromhex(signed["signature"]), message)  # raises if it does not hold
    assert signature_problem(signed, {signer.public_hex}) is None
    for member, value in (("version", 8), ("head", "cd" * 32), ("stream", "s2")):
        assert signature_problem({**signed, member: value}, None) == \
            "the signature does not match the checkpoint: it was altered or forged"


def test_a_pem_key_signs_like_its_seed_and_a_bad_key_is_refused():
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(SEED))
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode()
    assert Signer.from_text(pem).public_hex == Signer.from_text(SEED).public_hex
    with pytest.raises(KeyProblem, match="neither 64 hex digits nor a PEM"):
        Signer.from_text("not a key")


def test_the_checkpoint_log_is_appended_a_line_each(tmp_path):
    signer = Signer.from_text(SEED)
    path = tmp_path / "log.jsonl"
    keep([signer.sign("s1", 1, "00" * 32)], path)
    keep([signer.sign("s1", 2, "01" * 32), signer.sign("books:c", 3, "02" * 32)], path)
    assert [(c["stream"], c["version"]) for c in read_log(path)] == \
        [("s1", 1), ("s1", 2), ("books:c", 3)]
