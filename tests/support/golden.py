"""Golden event streams and the projections they must fold to (tests/golden/*.json).

Each file holds a session's log as the store keeps it (type, schema version, payload of
every event) and what it folds to: the state, every deal's view, the statement. They are
written once from the generated sessions of tests/support/sessions.py and are the
reference the reader and the fold are held to; they change only when a rule is meant to
change (then `python -m tests.support.golden` writes them again, and the diff is reviewed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ledger.domain import statement
from ledger.domain.corrections import correct, last_entry, live_events
from ledger.domain.events import event_to_record
from ledger.domain.state import plain
from tests.support.projected import fold_with_views
from tests.support.sessions import RandomChooser, SessionShape, play_session

HERE = Path(__file__).resolve().parents[1] / "golden"

# name -> (seed, preset, variant, deals, a correction at the end)
SESSIONS: dict[str, tuple[int, str, str, int, bool]] = {
    "baxter-wray-three-card": (1, "baxter-wray", "three-card", 12, False),
    "blenheim-three-card": (2, "blenheim", "three-card", 12, False),
    "enquire-within-irish": (3, "enquire-within", "irish", 10, False),
    "cassell-three-card": (4, "cassell", "three-card", 12, False),
    "baxter-wray-five-card": (5, "baxter-wray", "five-card", 10, False),
    "blenheim-five-card-corrected": (6, "blenheim", "five-card", 8, True),
}


def make(name: str) -> dict[str, Any]:
    seed, preset, variant, deals, corrected = SESSIONS[name]
    shape = SessionShape(min_deals=deals, max_deals=deals, preset=preset, variants=(variant,))
    played = play_session(RandomChooser(seed), shape=shape, session_id=name)
    log = list(enumerate(played.events, start=1))
    if corrected:
        state, tail = correct(log, voids=[last_entry(log) or 1], replacements=[],
                              reason="entered twice", authorised_by="treasurer",
                              session_id=name)
        log += [(len(log) + i, e) for i, e in enumerate(tail, start=1)]
    state, views = fold_with_views((e for _, e in live_events(log)), name)
    return {"session_id": name,
            "events": [list(event_to_record(e)) for _, e in log],
            "state": plain(state), "views": {str(n): v for n, v in sorted(views.items())},
            "statement": plain(statement(state))}


def load(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((HERE / f"{name}.json").read_text())
    return found


if __name__ == "__main__":
    for each in SESSIONS:
        (HERE / f"{each}.json").write_text(json.dumps(make(each), indent=1) + "\n")
        print(f"wrote tests/golden/{each}.json")
