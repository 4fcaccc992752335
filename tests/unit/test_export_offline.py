"""`verify_export` (ledger/audit/export.py) on files that are not what an export should be: each is
a finding, never a crash; it needs no database."""

from __future__ import annotations

import pytest

from ledger.audit.export import verify_export

BROKEN = [
    (None, "not an export of format lanterloo-export/1"),
    ({"format": "lanterloo-export/1"}, "the export is incomplete: 'events'"),
    ({"format": "lanterloo-export/1", "session_id": "s", "events": [{"x": 1}],
      "statement": {}}, "the export is incomplete: "),
    ({"format": "lanterloo-export/1", "session_id": "s", "events": [], "statement": {}},
     "the export has no session id or no events"),
    ({"format": "lanterloo-export/1", "session_id": "s", "club_id": None, "statement": {},
      "events": [{"stream_id": "s", "version": 1, "position": 1, "type": "SessionOpened",
                  "schema_version": 1, "payload": {}, "recorded_at": "2026-01-01T00:00:00+00:00",
                  "actor": "a", "member_id": None, "token_id": None, "idempotency_key": None,
                  "hash": "0" * 64}]},
     "chain: version 1 (position 1, SessionOpened): its stored hash does not follow"),
]


@pytest.mark.parametrize(("data", "found"), BROKEN)
def test_a_broken_export_is_a_finding(data, found):
    problems = verify_export(data, None)
    assert any(p.startswith(found) for p in problems), problems
