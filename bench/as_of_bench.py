"""What a read as of an earlier version costs, and what keeping its snapshots adds to an append.

Fills one session with 1,000 deals (ten events each, as bench/append_bench.py), then on that
session: the present statement, the statement as of a version in the middle of the log, as of
one near its end and as of the worst place (just before a snapshot, so the most events are
folded), each the median of 20 calls in process; the same as of a time; the whole explain
trail (median of 5); then the worst case
again for several snapshot intervals (the snapshots rebuilt at each); and the cost the snapshot
adds to an append: the median of single-command appends that cross a multiple of the interval
(and so write a snapshot) against those that do not.

    .venv/bin/python bench/as_of_bench.py [--deals 1000] [--every 100]
        [--postgres-url postgresql+psycopg://postgres@127.0.0.1/test]

A database `lanterloo_bench_<random>` is created on that server and dropped at the end.
Numbers and how to read them: docs/explain.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from append_bench import DEFAULT_POSTGRES, Table, median_ms, postgresql_url
from sqlalchemy import Text, func, select

from ledger.domain.asof import snapshot_due
from ledger.projections import SNAPSHOT_EVERY, snapshot_states
from ledger.sessions.history import versioned
from ledger.sessions.service import Ledger
from ledger.store import queries as store
from ledger.store.base import json_text
from ledger.store.chain import utc_iso
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from ledger.store.tables import snapshots
from tests.clubs import GuestLedger, club_ledger


def every_nth(sid: str, log: list[Any], every: int) -> dict[int, str]:
    """The session's states at every multiple of `every` (none for 0), as JSON."""
    return snapshot_states(sid, log, range(every, len(log) + 1, every)) if every else {}


def replace_snapshots(engine: Any, sid: str, states: dict[int, str]) -> None:
    with engine.begin() as conn:
        conn.execute(snapshots.delete().where(snapshots.c.session_id == sid))
        for version, text in states.items():
            conn.execute(snapshots.insert().values(session_id=sid, version=version,
                                                   state=json_text(text)))


def appends_crossing(ledger: Ledger, table: Table, n: int) -> tuple[float, float]:
    """Median ms of single-command appends that write a snapshot, and of those that do not."""
    crossing: list[float] = []
    plain: list[float] = []
    while len(crossing) < n or len(plain) < n:
        before = table.version
        [ms] = table.timed_appends(1)
        (crossing if snapshot_due(before, table.version, ledger.snapshot_every)
         else plain).append(ms)
    return statistics.median(crossing), statistics.median(plain)


def run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    upgrade(url)
    engine = make_engine(url)
    try:
        ledger = club_ledger(engine, snapshot_every=args.every)  # every session is a club's
        table = Table(ledger)
        started = time.perf_counter()
        table.fill(args.deals, 0, lambda: 0)
        sid, last = table.session_id, table.version
        fill_s = time.perf_counter() - started
        with engine.connect() as conn:
            kept = sorted(conn.execute(select(snapshots.c.version)
                                       .where(snapshots.c.session_id == sid)).scalars())
            size = conn.scalar(select(func.avg(func.length(
                snapshots.c.state.cast(Text())))).where(snapshots.c.session_id == sid))
        middle, near_end = last // 2, last - 3
        worst = next(v for v in kept if v > middle) - 1  # the most events after a snapshot
        with engine.connect() as conn:
            moment = utc_iso(store.recorded_at(conn, sid, middle))  # type: ignore[arg-type]
        out: dict[str, Any] = {
            "deals": table.deals, "events": last, "every": args.every,
            "snapshots": len(kept), "snapshot_kb": round(float(size or 0) / 1024, 1),
            "fill_s": round(fill_s, 1),
            "statement_ms": median_ms(lambda: ledger.statement(sid)),
            "as_of_middle_ms": median_ms(lambda: ledger.statement(sid, as_of=middle)),
            "as_of_near_end_ms": median_ms(lambda: ledger.statement(sid, as_of=near_end)),
            "as_of_worst_ms": median_ms(lambda: ledger.statement(sid, as_of=worst)),
            "as_of_time_ms": median_ms(lambda: ledger.statement(sid, as_of=moment)),
            "session_as_of_ms": median_ms(lambda: ledger.session(sid, as_of=middle)),
            "explain_ms": median_ms(lambda: ledger.explain(sid), repeat=5),
            "explain_player_ms": median_ms(lambda: ledger.explain(sid, player="Ben"), repeat=5),
        }
        # the same read with the snapshots at other intervals (and none: the whole fold)
        with engine.connect() as conn:
            log = versioned(store.stream_by_version(conn, sid))
        sweep = {}
        for every in args.sweep:
            replace_snapshots(engine, sid, every_nth(sid, log, every))
            at = (middle // every + 1) * every - 1 if every else middle
            sweep[every or "none"] = round(median_ms(
                lambda at=at: ledger.statement(sid, as_of=at)), 2)
        out["worst_by_interval_ms"] = sweep
        replace_snapshots(engine, sid, every_nth(sid, log, args.every))
        # what writing the snapshot adds to an append: every other append crosses at 2
        every_other = GuestLedger(engine, club_id=ledger.club_id, snapshot_every=2)
        table.ledger = every_other
        table.timed_appends(10)
        out["append_crossing_ms"], out["append_plain_ms"] = appends_crossing(
            every_other, table, args.appends)
        out["verified"] = ledger.verify(sid) == []
        return out
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--every", type=int, default=SNAPSHOT_EVERY)
    parser.add_argument("--sweep", type=lambda s: [int(x) for x in s.split(",")],
                        default=[25, 50, 100, 200, 400, 0])
    parser.add_argument("--appends", type=int, default=100)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    args = parser.parse_args()
    with postgresql_url(args.postgres_url) as url:
        result = run(url, args)
    print(json.dumps({k: round(v, 2) if isinstance(v, float) else v
                      for k, v in result.items()}, indent=1))


if __name__ == "__main__":
    main()
