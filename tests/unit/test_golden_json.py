"""Golden digests: seeded sessions must give byte-identical JSON, event by event.

Each session is played by the generator (tests/unit/sessions.py) with a seeded chooser; the
digest covers, in order, every event's stored record (type, schema version, payload), the
refusals met on the way (the error's class, status and problem fields), what the table was
told to expect after every command, and at the end the state's JSON, the session and deal
views and the statement. Stored events and snapshots must still read, and the API must say
the same: a change to any key, its order or a string value changes a digest.

The digests were recorded from the code as it stood before the domain was reshaped
(`python -m tests.unit.test_golden_json` prints them).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from ledger.domain import deal_view, expected, session_view, statement
from ledger.domain.events import event_from_record, event_to_record
from ledger.domain.state import SessionState
from tests.unit.sessions import PRESET_NAMES, RandomChooser, SessionShape, Step, play_session

# The parameters that reach the rarer paths (as COVERAGE_RULES in test_properties.py).
RULES = (
    {}, {"loo": "all-or-nothing"}, {"loo": "unlimited"}, {"club_law": True},
    {"fresh_pool": "antes", "force_after_single": True}, {"dealer_stands_out_above": 3},
    {"pack": 32, "miss_holder_leads": True},
    {"loo": "mixed", "loo_limit": 9, "loo_capped_at_pool": True},
    {}, {"loo": "limited", "loo_amount": 4, "loo_capped_at_pool": True},
    {"deal_out_of_turn": "stands", "last_before_dealer_bound": True}, {},
)
SEEDS = tuple(range(len(RULES)))

GOLDEN: dict[int, str] = {
    0: "6573eee6b58412d07d497f8b28fb866b2f9002404ab841b03c7f2c9af454e667",
    1: "3be3dfbbf31ddafdc87df665a7d15da2c3cfd3d34dcb9659c64789b7764c73d4",
    2: "f492603a72b1ee852bdfa4a2ceb8e02ffccb8bea39d2e26c37e012e90f0f1592",
    3: "ab73c8604a9fb01970dfe73a0035fc410c4b8fa5497ea5b812c63eaa9541d1b6",
    4: "252bc0f6ba2f32a2385875255b89ce2755cd05d0c7174cec3544473f7b21b4d5",
    5: "96b4f4a3d093ac6ea86290de637510f34630fdf45b6d0a545ebe701172a336c5",
    6: "8028836e8aa2a9b1f4559231ad3a6fffc5c2c8aa7b936597217a71cecb903af4",
    7: "6c165e64e3f67341e67103d0aa42eafa08e01dade3cbf6a335f9e111a6295bb2",
    8: "4a75907d00a3f4802b3fae07ffc9394ea5c7f86e42c48568f142e55a923cbe3e",
    9: "d6ce507735609d88937056cf5b772844b9255533a449ebf352f8715f9a10bdf8",
    10: "19cb50a6b7e95e40fe9e59281386b481a37e695eb4ca858b3cd3cac3c01f1e52",
    11: "00c8ef55c11329ca073987d62a1f8140616c44a2e0a1870cac6923e41d8e009a",
}


def _dumps(value: Any) -> str:
    return json.dumps(value)


def golden_digest(seed: int) -> str:
    digest = hashlib.sha256()

    def add(label: str, value: Any) -> None:
        digest.update(label.encode())
        digest.update(_dumps(value).encode())
        digest.update(b"\n")

    def observe(step: Step, state: SessionState) -> None:
        if step.error is not None:
            err = step.error
            add("refused", [type(err).__name__, err.status, err.code, err.to_dict()])
        for event in step.events:
            record = event_to_record(event)
            add("event", list(record))
            # an event read back from its JSON equals it and gives the same JSON
            type_, version, payload = record
            again = event_from_record(type_, version, json.loads(_dumps(payload)))
            assert again == event and _dumps(event_to_record(again)[2]) == _dumps(payload)
        add("expected", expected(state))

    shape = SessionShape(min_deals=20, max_deals=40, p_overrides=0.0 if RULES[seed] else 0.9,
                         preset=PRESET_NAMES[seed % len(PRESET_NAMES)], rules=RULES[seed])
    played = play_session(RandomChooser(seed), shape=shape, observer=observe)
    state = played.state
    snapshot = state.to_dict()
    # a snapshot read back from its JSON gives the same JSON
    again = SessionState.from_dict(json.loads(_dumps(snapshot))).to_dict()
    assert _dumps(again) == _dumps(snapshot)
    add("state", snapshot)
    add("session", session_view(state))
    add("deal", deal_view(state))
    add("statement", statement(state))
    return digest.hexdigest()


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_sessions_give_the_recorded_json(seed):
    assert golden_digest(seed) == GOLDEN[seed]


def test_every_preset_is_covered():
    assert {PRESET_NAMES[s % len(PRESET_NAMES)] for s in SEEDS} == set(PRESET_NAMES)


if __name__ == "__main__":
    for s in SEEDS:
        print(f"    {s}: \"{golden_digest(s)}\",")
