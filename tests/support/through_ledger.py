"""A generated session sent through the Ledger (the store), with random undos and corrections.

The generated session (tests/support/sessions.py) makes no corrections of its own, so as its
entries are sent this driver now and then undoes the last entry and sends it again, or voids
an earlier entry and puts the same entry in its place: the log then holds corrections and
superseded tails, while the books end as the session was played.

    sid = drive(ledger, played, chooser)        # a Chooser decides where the corrections go
"""

from __future__ import annotations

from typing import Any

from ledger.clubs.service import Actor
from ledger.domain.corrections import CorrectionRefused, client_command, live_events
from ledger.domain.evolve import evolve
from ledger.domain.state import SessionState
from ledger.sessions.service import Ledger
from ledger.store import queries as store
from ledger.writes import WriteRequest
from tests.support.sessions import Chooser, PlayedSession

ACTOR = Actor("Tess")


def drive(ledger: Ledger, played: PlayedSession, chooser: Chooser, *,
          p_undo: float = 0.08, p_correct: float = 0.05) -> str:
    """Open the session and send every accepted entry, in batches of one to four; return the
    session's id."""
    opened = ledger.open_session(played.opening, WriteRequest(ACTOR))
    sid = opened.body["session_id"]
    accepted = [s.command for s in played.steps[1:] if s.accepted]
    i = 0
    while i < len(accepted):
        size = chooser.integer(1, 4)
        batch = accepted[i:i + size]
        ledger.append(sid, batch, WriteRequest(ACTOR))
        i += len(batch)
        if chooser.chance(p_undo):
            # void the last entry, then enter it again
            ledger.undo(sid, reason="entered in haste", request=WriteRequest(ACTOR))
            ledger.append(sid, [batch[-1]], WriteRequest(ACTOR))
        elif chooser.chance(p_correct):
            entries = live_entries(ledger, sid)
            if len(entries) > 1:
                version, command = entries[chooser.integer(1, len(entries) - 1)]
                try:
                    ledger.correct(sid, voids=[version], replacements=[command],
                                   reason="the same entry, confirmed",
                                   request=WriteRequest(ACTOR))
                except CorrectionRefused:
                    pass  # refused whole: nothing was appended
    return str(sid)


def live_entries(ledger: Ledger, sid: str) -> list[tuple[int, Any]]:
    """(version, the entry as a command) of every live entry a client made."""
    rows = stored_log(ledger, sid)
    log = list(zip((r.version for r in rows), _events(rows), strict=True))
    out: list[tuple[int, Any]] = []
    state: SessionState | None = None
    for version, event in live_events(log):
        command = client_command(event, state)
        if command is not None:
            out.append((version, command))
        state = evolve(state, event, session_id=sid)
    return out


def _events(rows: list[Any]) -> list[Any]:
    from ledger.domain import event_from_record

    return [event_from_record(r.type, r.schema_version, r.payload) for r in rows]


def stored_log(ledger: Ledger, sid: str) -> list[Any]:
    """The whole event rows of the session, by version."""
    with ledger.engine.connect() as conn:
        return list(store.stream_by_version(conn, sid))
