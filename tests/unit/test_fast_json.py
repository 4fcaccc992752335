"""The fast encoders write what the definitions write.

The hash chain's canonical form is defined by json.dumps (ledger/store/chain.py); orjson
writes it faster and must agree byte for byte. The projections are SessionState.to_dict()
and deal_view(state) as JSON; the service writes them from the dataclasses directly and must
agree value for value and key order for key order.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.domain import deal_view
from ledger.service import _deal_view_json, _state_json
from ledger.store.chain import _reference, canonical, link
from tests.support.sessions import RandomChooser, SessionShape, play_session

scalars = st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) \
    | st.text() | st.floats(allow_nan=False, allow_infinity=False)
payloads = st.dictionaries(st.text(), st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(), inner, max_size=4), max_leaves=12), max_size=6)


def row(payload: dict, **extra) -> dict:
    return {"stream_id": "s1", "version": 3, "type": "CardPlayed", "schema_version": 1,
            "payload": payload, "recorded_at": datetime(2026, 1, 2, 3, 4, 5, 6789, tzinfo=UTC),
            "actor": "Ann", "member_id": None, "token_id": "t", "idempotency_key": None,
            **extra}


def reference(event: dict, prev: str) -> bytes:
    body = {name: event.get(name) for name in event if name != "position"}
    body["recorded_at"] = event["recorded_at"].isoformat()
    body["chain"], body["prev"] = "lanterloo/1", prev
    return _reference(body)


@settings(max_examples=300)
@given(payloads, st.text(min_size=1, max_size=20))
def test_the_canonical_bytes_are_json_dumps_bytes(payload, actor):
    event = row(payload, actor=actor)
    assert canonical(event, "0" * 64) == reference(event, "0" * 64)


def test_the_canonical_form_of_awkward_strings_and_numbers():
    for value in ["\x00\x1f\x7f\u2028é\U0001d11e\"\\/", 2**63, 2**64 + 1, -2**70, 1e16, 1.5,
                  1e-7, {"é": 1, "a": 2, "Z": 3}]:
        event = row({"v": value})
        assert canonical(event, "f" * 64) == reference(event, "f" * 64)
    assert len(link(row({}), "0" * 64)) == 64


def test_the_projections_written_from_the_dataclasses_are_the_definitions():
    for seed in range(6):
        played = play_session(RandomChooser(seed), shape=SessionShape(min_deals=4,
                                                                      max_deals=8))
        state = played.state
        expected = json.dumps(state.to_dict())
        assert json.dumps(json.loads(_state_json(state))) == expected
        view = deal_view(state)
        if view is not None:
            assert json.dumps(json.loads(_deal_view_json(state))) == json.dumps(view)
