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
every digest was the same as before; and again when PlayerJoined became version 2 with the
aftercomer's `member` (None outside a club), after checking that with it written as version 1
without `member` every digest was the same as before (`python -m tests.unit.test_golden_json`
prints them).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from api.http.errors import status_of
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
    2: "687de0ba17ac6b09297cda668a15b71234658250adb2742b322043b18e6baee1",
    3: "4db8b94a027cc96a27ed2227a02bb4a33c7671e93a9c78e765d3a3bbc8195094",
    4: "508821b8b42a860bfed95dc20a7eddb137d197c64e7f7781e63f4bba2a635c67",
    5: "7454b4141e86013243645c858c6e4ebba0a0344a63ad6e9b5c5c49e6d6304ecc",
    6: "6ff67e7fa946da0b27d41a40aa2b2bd30c81efebf63b6af8b6ce67acfe74c9d9",
    7: "501dc4a283d19b789ed54fdc73514963e1cf624845a287f5d9aa57cf03b0cce5",
    8: "5bda661120e34c1d5738d8c61c38555343914832f51a76d9f0610370a28f1ef6",
    9: "e9f1d1b0c40a7082572066191dcfcec0e2a0b5cc88b4d54cb1fce32cf7e3470c",
    10: "299b08b7abd27fc86394644ab98808631b27459a8ae92a64125b98f8f9c4115d",
    11: "cd33fcd5b440f96958b7b51007f9304f736f7fdce1d4644b93f48ef2d2ab8879",
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
