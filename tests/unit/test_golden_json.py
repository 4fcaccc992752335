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
corrected; and again when the PenaltyImposed action of `expected` gained `by_player` and
`redeal` (what the ledger accepts now, per player), after checking that with those two left out
every digest was the same as before (`python -m tests.unit.test_golden_json` prints them).
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
    0: "6e596abd00882b60b60a59842c6132793f77cee2275575976ab8602f0cd6d856",
    1: "6ab8062e1ce76f6dc53748a05c8ab461af9c24dcf1ee1069a666fcc83b8e174d",
    2: "46a19590dde6c076ae9a33d12e5645e3cd9d2c8ff92e260903291003b5def79f",
    3: "f152330a11d51142f2e1fee93fdad1f611ba24eaaa28fcddff3ba6cf29994c52",
    4: "91b8b0f60d3491e32853398b17871bb5231835cd62a20528fccebc79fa428f2f",
    5: "b948f9d5dabefc63f4c8324cfebfa55005a5905d9ad8226adb38e87f9c72ad2a",
    6: "113f60029870ec6ba8cb2cd74542c407f2418d2b6effc084b8ed5cdb89776e6d",
    7: "880f1f499181d0e8c97ccf1370a143b0782b1181a857a9396c2790d690b126c1",
    8: "5bda661120e34c1d5738d8c61c38555343914832f51a76d9f0610370a28f1ef6",
    9: "a1bdfb4dd666297d54ececa43c2ea199f925e3931dcc58382b2c568f9ee399da",
    10: "2a15bb63060eb545f3eede5a531422aa49c43bf632858b394633b645fec52f6e",
    11: "034b8b687d0c2280c3916069fa831ffcd5a362d87394249aff91a91a7b653db9",
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
