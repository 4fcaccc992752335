"""Golden digests: seeded sessions must give byte-identical JSON, event by event.

Each session is played by the generator (tests/support/sessions.py) with a seeded chooser; the
digest covers, in order, every event's stored record (type, schema version, payload), the
refusals met on the way (the error's class, status and problem fields), what the table was
told to expect after every command, and at the end the state's JSON, the session and deal
views and the statement. Stored events and snapshots must still read, and the API must say
the same: a change to any key, its order or a string value changes a digest.

The digests were first recorded from the code as it stood before the domain was reshaped;
they were recorded again when the session gained its members, corrections and the chain head
on the statement, after checking that with those new members left out every digest was the
same as before; and again when the Baxter-Wray page numbers in the penalties' `law` were
corrected (`python -m tests.unit.test_golden_json` prints them).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from api.errors import status_of
from ledger.domain import deal_view, expected, session_view, statement
from ledger.domain.events import event_from_record, event_to_record
from ledger.domain.state import SessionState
from tests.support.sessions import PRESET_NAMES, RandomChooser, SessionShape, Step, play_session

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
    0: "0d2ba8490a5d7d51b3f8c703e04a0203c413f24aed1a2bf2d79b09523188ba9d",
    1: "97d2a992ed193c236f22eff4cb105008a3adf32c737224f1189f83f74d915c89",
    2: "4b7148be67dcc9c14f78cbc3d1e49a79131e2f3a296b160a6f7041289bedb9dd",
    3: "8c7f835a5719e18544932bf3a2c153a831fa06d23092d149e1c5ff3943f422c2",
    4: "985e58c1ebb553626a6cd101c9f4fe83df879c3887785e43be5d1244a627fc98",
    5: "1078bbd14cf0aefecbdadcfc250588f8c225b2d6b683aa92f599ff276e1ec89a",
    6: "f07306abcb6db0ce37bf444b0d4f28582de72df3577550bf194a30bfbf9d8f04",
    7: "6d1501c77a1afb3df0caf4871491cb7aca1f7ba4a309c3ba5b9b8688a43d5dae",
    8: "97ba3ccf9da88d9d83cbb9f5ce103c80706d0a934958d90940e74df6f381c8e5",
    9: "047bf21396d0a9a90e0663f8fd1e7b8f93252f7d57d6f554aa13d2062ca31d91",
    10: "c03a8a0ca02a1474223c1db19416cbfe1a3154cfeddc8035966831ce0d255495",
    11: "c6aa43140eef52a7c915ee2e695260439103c97bc63aaaf61a170b35cb67e88c",
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
            add("refused", [type(err).__name__, status_of(err), err.code, err.to_dict()])
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
