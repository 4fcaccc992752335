"""The long commands' progress on a terminal: `verify --all`, `rebuild --all`, `copy`.

    with watching() as watch:
        verify_all(engine, progress=watch("verifying"))

One line per pass, drawn by rich on standard error: what the pass does, its bar, the
sessions done of all, the events a second and the time left. It is drawn only while standard
error is a terminal; piped or sent to a file, `watch` gives None and the command prints
exactly what it printed without it. The line goes once its pass is over: what stays on the
screen is the command's own output.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ledger.operations.bulk import Progress as PassProgress

Watch = Callable[[str], PassProgress | None]


class _EventsPerSecond(ProgressColumn):
    """The pass's events a second, as rich measures its speed (over its last 30 s)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} events/s" if speed else "", style="progress.data.speed")


class _Sessions(ProgressColumn):
    def render(self, task: Task) -> Text:
        of = task.fields.get("of", 0)
        return Text(f"{task.fields.get('sessions', 0):,} of {of:,} sessions" if of else "")


class _Pass:
    """One pass (a bulk.Progress) as one task of `bar`."""

    def __init__(self, bar: Progress, what: str) -> None:
        self.bar, self.what = bar, what
        self.task: TaskID | None = None
        self.sessions = 0

    def begin(self, sessions: int, events: int) -> None:
        self.task = self.bar.add_task(self.what, total=max(events, 1), sessions=0,
                                      of=sessions)

    def advance(self, sessions: int, events: int) -> None:
        if self.task is None:
            return
        self.sessions += sessions
        self.bar.update(self.task, advance=events, sessions=self.sessions)

    def end(self) -> None:
        if self.task is not None:
            self.bar.remove_task(self.task)


@contextmanager
def watching(console: Console | None = None) -> Iterator[Watch]:
    """A `watch(what)` that gives each pass its line, or None off a terminal."""
    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield lambda what: None
        return
    passes: list[_Pass] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), _Sessions(),
                  _EventsPerSecond(), TimeRemainingColumn(), console=console,
                  transient=True) as bar:

        def watch(what: str) -> PassProgress:
            for earlier in passes:  # one line at a time: the pass under way
                earlier.end()
            passes[:] = [_Pass(bar, what)]
            return passes[0]

        yield watch
