"""Where a single-event append's time goes, step by step (in process).

    .venv/bin/python bench/profile_append.py [--appends 2000] [--postgres-url URL] [--sqlite]

Opens a session through the Ledger (no HTTP), makes --appends single-command appends of
quick-entry deals at the expected version, alternately from two Ledgers on two engines (so
that half of them find the session's state in their worker's cache and half decode it from
the row, as with several gunicorn workers), and prints the median time of each step. The
steps are timed by wrapping the functions that do them; what is left is the service's own
bookkeeping. With --sqlite, on a SQLite file instead: there the append is decided before the
write lock, so the row is read twice (before the lock, then checked under it). The median
thread CPU of an append is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import DEFAULT_POSTGRES, postgres_database, quick_deal, turn_up_single  # noqa: E402
from ledger.writes import WriteRequest  # noqa: E402
from tests.clubs import GuestLedger, club_ledger

STEPS = [
    ("pool checkout", "sqlalchemy.pool.base", "_ConnectionFairy", "_checkout"),
    ("hold the row (+ its key)", "ledger.store.postgres", "PostgresTx", "session_head"),
    ("SQLite: the row (+ its key)", "ledger.store.sqlite", "SqliteTx", "session_head"),
    ("the state decoded", "ledger.domain.state", "SessionState", "from_dict"),
    ("the domain (decide, evolve)", "ledger.sessions.service", None, "execute"),
    ("the deal views as JSON", "ledger.projections", None, "deal_view_json"),
    ("chain the events (SHA-256)", "ledger.sessions.service", None, "chain_rows"),
    ("session view", "ledger.sessions.service", None, "session_view"),
    ("the state as JSON", "ledger.sessions.service", None, "to_json"),
    ("write the events and projections", "ledger.store.postgres", "PostgresTx",
     "write_session"),
    ("SQLite: write the events and projections", "ledger.store.sqlite", "SqliteTx",
     "write_session"),
]


def wrap(samples: dict[str, list[float]], label: str, owner: Any, name: str) -> None:
    original: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            samples[label].append((time.perf_counter() - started) * 1000)

    setattr(owner, name, timed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file instead")
    args = parser.parse_args(argv)

    import importlib
    import tempfile
    from contextlib import contextmanager

    from ledger.domain import OpenSession
    from ledger.store.db import make_engine
    from ledger.store.migrate import upgrade

    @contextmanager
    def sqlite_file() -> Any:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/profile.db"

    samples: dict[str, list[float]] = defaultdict(list)
    cpu: list[float] = []
    with (sqlite_file() if args.sqlite else postgres_database(args.postgres_url)) as url:
        upgrade(url)
        engines = [make_engine(url), make_engine(url)]
        first = club_ledger(engines[0])  # every session is a club's
        ledgers = [first, GuestLedger(engines[1], club_id=first.club_id)]
        opened = ledgers[0].open_session(OpenSession(
            players=["A", "B", "C", "D", "E"], preset="baxter-wray", first_dealer="A"),
            WriteRequest("bench"))
        sid, version = opened.body["session_id"], opened.body["version"]
        version = ledgers[0].append(sid, [turn_up_single()],
                                    WriteRequest("bench", expected_version=version)).body["version"]
        pending: list[Any] = []

        def append(i: int) -> float:
            nonlocal version, pending
            ledger = ledgers[i % 2] if i % 4 < 2 else ledgers[0]
            if not pending:
                pending = quick_deal(ledger.session(sid))
            command = pending.pop(0)
            started, thread = time.perf_counter(), time.thread_time()
            version = ledger.append(sid, [command],
                                    WriteRequest("bench", expected_version=version)).body["version"]
            cpu.append((time.thread_time() - thread) * 1000)
            return (time.perf_counter() - started) * 1000

        for i in range(200):  # warm: connections, prepared statements
            append(i)
        for label, module, cls, name in STEPS:
            owner = importlib.import_module(module)
            wrap(samples, label, getattr(owner, cls) if cls else owner, name)
        cpu.clear()
        totals = [append(i) for i in range(args.appends)]
        for engine in engines:
            engine.dispose()
    print(f"{'step':42} {'median ms':>9} {'calls/append':>12}")
    for label, *_ in STEPS:
        values = samples[label]
        print(f"{label:42} {statistics.median(values) if values else 0:9.3f} "
              f"{len(values) / len(totals):12.2f}")
    print(f"{'whole append (median)':42} {statistics.median(totals):9.3f}")
    print(f"{'its thread CPU (median)':42} {statistics.median(cpu):9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
