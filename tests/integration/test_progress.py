"""The long commands' progress (api/cli/progress.py, ledger/operations/bulk.py's Progress):
every session and event of a pass is told, in one process and from worker processes; on a
terminal the line says the sessions done of all and the events a second; piped, nothing is
drawn and the command's output is what it was."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from sqlalchemy import Engine, func, select

from api.cli.demo import load_demo
from api.cli.main import main
from api.cli.progress import watching
from ledger.operations import bulk
from ledger.store.tables import events
from tests.clubs import club_ledger
from tests.integration.test_bulk import play


class Told:
    def __init__(self) -> None:
        self.size: tuple[int, int] | None = None
        self.sessions = self.events = self.chunks = 0

    def begin(self, sessions: int, events: int) -> None:
        self.size = (sessions, events)

    def advance(self, sessions: int, events: int) -> None:
        self.sessions += sessions
        self.events += events
        self.chunks += 1


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bulk, "CHUNK_EVENTS", 12)


def logged(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(events)) or 0)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_pass_tells_every_session_and_event_chunk_by_chunk(engine, small_chunks, workers):
    ledger = club_ledger(engine)
    ids = [load_demo(ledger), play(ledger), play(ledger, undo=True), play(ledger)]
    verified, rebuilt = Told(), Told()
    assert bulk.verify_all(engine, workers=workers, progress=verified) == {
        sid: [] for sid in sorted(ids)}
    bulk.rebuild_all(engine, workers=workers, progress=rebuilt)
    for told in (verified, rebuilt):
        assert told.size is not None and told.size[0] == len(ids)
        assert told.sessions == len(ids)
        assert told.events == logged(engine)
        assert told.chunks > 1  # chunk by chunk, not once at the end


def test_on_a_terminal_the_line_says_sessions_of_all_and_events_a_second(engine):
    ledger = club_ledger(engine)
    ids = [play(ledger), play(ledger)]
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    with watching(console) as watch:
        progress = watch("verifying")
        assert progress is not None
        bulk.verify_all(engine, workers=1, progress=progress)
    drawn = screen.getvalue()  # the last refresh, as the pass ended
    assert "verifying" in drawn
    assert f"{len(ids)} of {len(ids)} sessions" in drawn


def test_off_a_terminal_nothing_is_drawn_and_the_output_is_the_commands_own(
        engine, database_url, capsys):
    ledger = club_ledger(engine)
    ids = sorted([play(ledger), play(ledger)])
    with watching(Console(file=io.StringIO())) as watch:  # not a terminal
        assert watch("verifying") is None
    capsys.readouterr()
    assert main(["verify", "--all", "--database-url", database_url]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    sessions = [line for line in out.splitlines() if line.startswith("session ")]
    assert sessions == [f"session {sid}: the projections agree with a rebuild from the log"
                        for sid in ids]
    assert all(line.startswith(("session ", "club ")) for line in out.splitlines())
