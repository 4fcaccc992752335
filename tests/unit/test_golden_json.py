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
without `member` every digest was the same as before; and again when the session view gained
`withdrawing`, `withdrawn` and `last_round` and the between-deals DealStarted action `dealt`
(for the tablet between deals), after checking that with those four left out every digest was
the same as before (`python -m tests.unit.test_golden_json` prints them).
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
    0: "cd4b6476758158a76ffe5b89f484835d46852a5f4e9b1a9fda09f0c2c75daada",
    1: "4eb98e4f04a2bad58fc041eba9949c01d179e71baa4d430898197a53e196e9d0",
    2: "195a51c5ae42f0cc236d004de9cbd8de38a43645205737504a7ba06794cb2b98",
    3: "6f68078fb57d94eb95dad8f3d81facbdac0ebeae3547f4d447a2dfb30790d3be",
    4: "d00a45338dd7073b78322447d3575211a7dc4987cd9aa795098e568ff93bfa91",
    5: "66388781a69d3aba1321d33e17fa6d610444bf3caaa9331c49cc7b783f25dd94",
    6: "60e9fda9042aca58f23d6c018782406ea262ae2fceddd233d70f2a0a469e3744",
    7: "e2e1aba84e2f080bbd9f98238f94fed3a6f763979b496b4e7d20659a548dfdc4",
    8: "0f558fb4918dee00e34a3977162036a235a48f75788c703d8b0bb3cf846e2a4e",
    9: "9a3817031f11477908eb766740c3823b3f0afbd91fc6e76e4bccc1046ad5a0c8",
    10: "1ff9874e5a3b1ea3eda01b5a60b3db9f2758b703bf4cfe2b77096257deadd1a5",
    11: "1e622c122fc36c7f46c1d1ab64f695577d2e8e0fff14677632b7f1dd09930512",
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
