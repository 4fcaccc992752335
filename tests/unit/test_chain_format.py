"""The hash chain's canonical form (ledger/store/chain.py), as an auditor recomputes it: for
the values events hold (strings, integers within 64 bits, booleans, null, lists, objects),
the bytes are Python's `json.dumps(sort_keys=True, separators=(",", ":"),
ensure_ascii=False)` of the event with `chain` and `prev`, UTF-8. A fixed event's hash is
pinned, so that no change to the form goes unnoticed."""

from __future__ import annotations

import enum
import hashlib
import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.store.chain import GENESIS, NotHashable, canonical, link

scalars = st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**63 - 1) \
    | st.text()
payloads = st.dictionaries(st.text(), st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(), inner, max_size=4), max_leaves=12), max_size=6)


def row(payload: dict, **extra) -> dict:
    return {"stream_id": "s1", "version": 3, "type": "CardPlayed", "schema_version": 1,
            "payload": payload, "recorded_at": datetime(2026, 1, 2, 3, 4, 5, 6789, tzinfo=UTC),
            "actor": "Ann", "member_id": None, "token_id": "t", "idempotency_key": None,
            **extra}


def by_the_definition(event: dict, prev: str) -> bytes:
    body = {name: event[name] for name in event if name != "position"}
    body["recorded_at"] = event["recorded_at"].isoformat()
    body["chain"], body["prev"] = "lanterloo/1", prev
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


@settings(max_examples=300)
@given(payloads, st.text(min_size=1, max_size=20))
def test_the_canonical_bytes_are_the_definitions_bytes(payload, actor):
    event = row(payload, actor=actor)
    assert canonical(event, GENESIS) == by_the_definition(event, GENESIS)


def test_the_canonical_form_of_awkward_strings_and_numbers():
    for value in ["\x00\x1f\x7f\u2028é\U0001d11e\"\\/", 2**63 - 1, -2**63, 0,
                  {"é": 1, "a": 2, "Z": 3, "10": 4, "9": 5}]:
        event = row({"v": value})
        assert canonical(event, "f" * 64) == by_the_definition(event, "f" * 64)


def test_a_vocabulary_member_as_a_key_is_written_as_its_string():
    class Account(enum.StrEnum):
        POOL = "pool"

    assert canonical(row({"changes": {Account.POOL: 3, "Ann": -3}}), GENESIS) == \
        canonical(row({"changes": {"pool": 3, "Ann": -3}}), GENESIS)


def test_an_integer_past_64_bits_cannot_be_hashed():
    with pytest.raises(NotHashable):
        link(row({"amount_units": 2**64}), GENESIS)


def test_the_hash_of_a_fixed_event_is_pinned():
    event = row({"player": "Ann", "card": "QH"})
    assert link(event, GENESIS) == hashlib.sha256(by_the_definition(event, GENESIS)).hexdigest()
    # the hash the first chained release gave this event
    assert link(event, GENESIS) == \
        "28e9f2c441804cc73ea70f5151a2debb0cd188a9faff5566af08401d0b67ee7b"
