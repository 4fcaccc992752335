"""Append latency must not grow with the log; a statement must not either.

Appends to one session, one command per append, and compares the median latency of the
first appends (after a few untimed ones that open connections) with that of appends made
after the log passed 10,000 events (about 1,000
deals); then times the statement of that 1,000-deal session. Runs on SQLite and PostgreSQL.

    .venv/bin/python bench/append_bench.py [--deals 1000] [--samples 100]
        [--backends sqlite,postgresql] [--postgres-url postgresql+psycopg://postgres@127.0.0.1/test]

PostgreSQL: a database `lanterloo_bench_<random>` is created on that server (through the
`postgres` maintenance database) and dropped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from ledger.domain import OpenSession
from ledger.domain.commands import Command, Declare, RecordTrick, StartDeal
from ledger.sessions.service import Ledger
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from ledger.store.tables import events, sessions
from ledger.writes import WriteRequest
from tests.clubs import club_ledger

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
ACTOR = "bench"
DEFAULT_POSTGRES = os.environ.get("LOO_TEST_POSTGRES_URL",
                                  "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def turn_up_single() -> StartDeal:
    return StartDeal(trump_card="7H", face_up={
        "Ann": "2C", "Ben": "3C", "Cat": "4C", "Dan": "5C", "Eve": "KS"})


def quick_deal(view: dict[str, Any]) -> list[Command]:
    """Ten events: the deal, five declarations, three tricks by quick entry, the settlement."""
    seats, dealer = view["active"], view["next_dealer"]
    at = seats.index(dealer)
    dealt = seats[at + 1:] + seats[:at + 1]
    return [StartDeal(trump_card="9S"),
            *(Declare(player=p, declaration="play" if i < 2 else "throw_up")
              for i, p in enumerate(dealt)),
            *(RecordTrick(winner=dealt[0]) for _ in range(3))]


class Table:
    """Keeps one session going, deal after deal, and times single-command appends."""

    def __init__(self, ledger: Ledger):
        self.ledger = ledger
        opened = ledger.open_session(OpenSession(players=list(PLAYERS), preset="baxter-wray",
                                                 name="bench"),
                                     WriteRequest(ACTOR))
        self.session_id: str = opened.body["session_id"]
        self.version: int = opened.body["version"]
        self.deals = 0
        self.pending: list[Command] = [turn_up_single()]

    def _next_commands(self) -> list[Command]:
        if not self.pending:
            self.pending = quick_deal(self.ledger.session(self.session_id))
        return self.pending

    def timed_appends(self, n: int) -> list[float]:
        """n appends of one command each, at the current expected version; ms each."""
        latencies_ms = []
        while len(latencies_ms) < n:
            command = self._next_commands().pop(0)
            started = time.perf_counter()
            result = self.ledger.append(self.session_id, [command],
                                        WriteRequest(ACTOR, expected_version=self.version))
            latencies_ms.append((time.perf_counter() - started) * 1000)
            self._advance(result)
        return latencies_ms

    def fill(self, deals: int, events_at_least: int, count_events: Callable[[], int]) -> None:
        """Whole deals, one batch each, until both targets are reached."""
        while self.deals < deals or count_events() < events_at_least:
            for _ in range(50):
                result = self.ledger.append(self.session_id, self._next_commands(),
                                            WriteRequest(ACTOR, expected_version=self.version))
                self.pending = []
                self._advance(result)

    def _advance(self, result: dict[str, Any]) -> None:
        self.version = result.body["version"]
        self.deals = result.body["session"]["deal_no"]


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{Path(folder) / 'bench.db'}"


@contextmanager
def postgresql_url(server: str) -> Iterator[str]:
    url = make_url(server)
    maintenance = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT",
                                poolclass=NullPool)
    name = f"lanterloo_bench_{secrets.token_hex(4)}"
    with maintenance.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with maintenance.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        maintenance.dispose()


class StatementCounter:
    """Counts the SQL statements the engine sends: an append must send the same number
    whatever the size of the log."""

    def __init__(self, engine: Engine):
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: object) -> None:
        self.count += 1


def snapshot_bytes(engine: Engine, session_id: str) -> int:
    with engine.connect() as conn:
        state = conn.scalar(select(sessions.c.state).where(sessions.c.id == session_id))
    return len(json.dumps(state))


def median_ms(call: Callable[[], object], repeat: int = 20) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def run(backend: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    upgrade(url)
    engine = make_engine(url)
    try:
        ledger = club_ledger(engine)  # every session is a club's

        def count_events() -> int:
            with engine.connect() as conn:
                return conn.scalar(select(func.count()).select_from(events)) or 0

        started = time.perf_counter()
        table = Table(ledger)
        statements = StatementCounter(engine)
        table.timed_appends(args.warmup)  # connections opened, statements compiled and cached
        before, first_bytes = statements.count, snapshot_bytes(engine, table.session_id)
        first = table.timed_appends(args.samples)
        first_sql = (statements.count - before) / args.samples
        table.fill(args.deals, args.events, count_events)
        later_at, later_bytes = count_events(), snapshot_bytes(engine, table.session_id)
        before = statements.count
        later = table.timed_appends(args.samples)
        later_sql = (statements.count - before) / args.samples
        statement_ms = median_ms(lambda: ledger.statement(table.session_id))
        csv_ms = median_ms(lambda: ledger.statement_csv(table.session_id))
        session_ms = median_ms(lambda: ledger.session(table.session_id))
        problems = ledger.verify(table.session_id) if args.verify else []
        return {
            "backend": backend,
            "first_ms": statistics.median(first),
            "later_ms": statistics.median(later),
            "later_at": later_at,
            "sql": f"{first_sql:.1f}/{later_sql:.1f}",
            "snapshot": f"{first_bytes / 1024:.1f}/{later_bytes / 1024:.1f}",
            "deals": table.deals,
            "events": count_events(),
            "statement_ms": statement_ms,
            "csv_ms": csv_ms,
            "session_ms": session_ms,
            "verified": "yes" if args.verify and not problems else ("NO" if problems else "-"),
            "seconds": time.perf_counter() - started,
        }
    finally:
        engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--events", type=int, default=10_000,
                        help="the log size before the later appends are timed")
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10,
                        help="untimed appends before the first timed ones")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--verify", action="store_true",
                        help="also rebuild the session from its log and compare")
    args = parser.parse_args(argv)

    rows = []
    for backend in args.backends.split(","):
        maker = sqlite_url() if backend == "sqlite" else postgresql_url(args.postgres_url)
        with maker as url:
            rows.append(run(backend, url, args))

    columns = [
        ("backend", "{backend}", 10),
        ("first ms", "{first_ms:.2f}", 8),
        ("log events", "{later_at:,}", 10),
        ("later ms", "{later_ms:.2f}", 8),
        ("ratio", "{ratio:.2f}", 5),
        ("SQL/append", "{sql}", 10),
        ("state KB", "{snapshot}", 9),
        ("deals", "{deals}", 5),
        ("statement ms", "{statement_ms:.2f}", 12),
        ("csv ms", "{csv_ms:.2f}", 6),
        ("view ms", "{session_ms:.2f}", 7),
        ("verified", "{verified}", 8),
        ("run s", "{seconds:.1f}", 5),
    ]
    print("  ".join(f"{name:>{width}}" for name, _, width in columns))
    for r in rows:
        r["ratio"] = r["later_ms"] / r["first_ms"]
        print("  ".join(f"{fmt.format(**r):>{width}}" for _, fmt, width in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
