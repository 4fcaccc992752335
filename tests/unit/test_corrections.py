"""Corrections on whole random sessions: void any entry, and the books read as if it had never
been logged (or are refused, exactly when the session without it is impossible)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.domain import LedgerError, OpenSession, execute, statement
from ledger.domain import commands as cmd
from ledger.domain.corrections import CorrectionRefused, correct, last_entry, live_events
from ledger.domain.execution import fold
from ledger.domain.state import SessionState
from tests.support.sessions import VARIANT_NAMES, DrawChooser, SessionShape, play_session

SHAPE = SessionShape(min_deals=1, max_deals=6, variants=VARIANT_NAMES)


def entered(played: Any) -> list[cmd.Command]:
    """The accepted entries after the opening, a dealer named only where the deal was out of
    turn (naming the dealer whose turn it is says nothing a correction must keep)."""
    accepted = [s for s in played.steps if s.accepted]
    state, _ = execute(None, played.opening, session_id="s")
    out: list[cmd.Command] = []
    for step in accepted[1:]:
        command = step.command
        if isinstance(command, cmd.StartDeal) and command.dealer == state.next_dealer \
                and state.between_deals():
            command = cmd.StartDeal(trump_card=command.trump_card, face_up=command.face_up)
        out.append(command)
        state, _ = execute(state, step.command)
    return out


def logged_right(opening: cmd.OpenSession, commands: list[cmd.Command]) -> SessionState:
    """The session as if only `commands` had been entered (raises if it cannot be)."""
    state, _ = execute(None, opening, session_id="s")
    for command in commands:
        state, _ = execute(state, command)
    return state


def books(state: SessionState) -> dict[str, Any]:
    data = statement(state)
    return {"players": data["players"], "pool": data["pool"], "outcomes": data["outcomes"],
            "settlement": data["settlement"], "status": data["status"]}


def entries(played: Any) -> list[tuple[int, int]]:
    """(version of the entry's own event, index of its step) for every accepted entry."""
    out, version = [], 0
    accepted = [s for s in played.steps if s.accepted]
    for index, step in enumerate(accepted):
        if index:  # the opening cannot be voided
            out.append((version + 1, index))
        version += len(step.events)
    return out


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_voiding_any_entry_reads_as_if_it_had_never_been_logged(data):
    check_voiding(data, SHAPE)


def check_voiding(data: Any, shape: SessionShape) -> None:
    """Void one entry of a random session of `shape`: refused exactly when the entries without
    it cannot be logged; otherwise the books are those of the session logged without it, the
    live events fold to the state, and the marker names what it voided and changed."""
    played = play_session(DrawChooser(data.draw), shape=shape)
    log = [(i + 1, e) for i, e in enumerate(played.events)]
    version, index = data.draw(st.sampled_from(entries(played)))
    rest = [c for i, c in enumerate(entered(played), start=1) if i != index]
    try:
        right: SessionState | None = logged_right(played.opening, rest)
    except LedgerError:
        right = None
    try:
        state, events = correct(log, voids=[version], reason="test", authorised_by="T",
                                session_id="s")
    except CorrectionRefused:
        assert right is None, "a correction the session could follow was refused"
        return
    assert right is not None, "a correction the session cannot follow was accepted"
    assert books(state) == books(right)
    assert sum(state.balances.values()) == 0
    # the log keeps everything; the live events fold to the state
    new_log = log + [(len(log) + 1 + i, e) for i, e in enumerate(events)]
    assert state.version == new_log[-1][0]
    rebuilt = fold([e for _, e in live_events(new_log)], session_id="s")
    assert rebuilt is not None and rebuilt.to_dict() == state.to_dict()
    marker = events[0]
    assert marker.voids[0]["version"] == version
    assert marker.changes == {k: v for k, v in (
        (a, state.balances.get(a, 0) - played.state.balances.get(a, 0))
        for a in sorted(set(state.balances) | set(played.state.balances))) if v}


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_undo_after_undo_walks_back_and_rebuilds_the_same(data):
    played = play_session(DrawChooser(data.draw), shape=SessionShape(min_deals=1, max_deals=3))
    log = [(i + 1, e) for i, e in enumerate(played.events)]
    for undo in range(data.draw(st.integers(1, 3))):
        version = last_entry(log)
        if version is None:  # walked back to the opening: a one-deal session has two entries
            assert undo >= 2
            break
        state, events = correct(log, voids=[version], reason="undo", authorised_by="T",
                                session_id="s")
        log = log + [(len(log) + 1 + i, e) for i, e in enumerate(events)]
        rebuilt = fold([e for _, e in live_events(log)], session_id="s")
        assert rebuilt is not None and rebuilt.to_dict() == state.to_dict()
        assert sum(state.balances.values()) == 0


def test_a_correction_needs_a_reason_and_a_live_entry():
    state, events = execute(None, OpenSession(players=["A", "B", "C"]), session_id="s")
    state, more = execute(state, cmd.StartDeal(trump_card="7H", face_up={
        "A": "5C", "B": "9H", "C": "KS"}))
    log = [(i + 1, e) for i, e in enumerate(events + more)]
    with pytest.raises(LedgerError) as refused:
        correct(log, voids=[2], reason=" ", authorised_by="T")
    assert refused.value.rule == "correction-reason"
    with pytest.raises(CorrectionRefused) as refused:
        correct(log, voids=[1], reason="no", authorised_by="T")
    assert "opening" in refused.value.message
    with pytest.raises(CorrectionRefused) as refused:
        correct(log, voids=[99], reason="no", authorised_by="T")
    assert refused.value.rule == "correction-voids"
