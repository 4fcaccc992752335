"""Where an append request's CPU goes, layer by layer (PostgreSQL, in process, over HTTP).

    .venv/bin/python bench/profile_request.py [--appends 1500] [--batches 60]
        [--code DIR] [--postgres-url URL] [--cprofile N]

Opens a session as bench/run.py does, then sends --appends single-event appends (quick-entry
deals, If-Match at the session's version) and --batches batches of a few deals (~110 events)
through Flask's test client, a dealer's bearer token on each. Every request's thread CPU is
measured, and so is the CPU of the layers it passes through, by wrapping the functions that
do them: the bearer token (Clubs.authenticate), reading the body into commands
(load_events), the ledger (Ledger.append), and writing the response (marshmallow's dump, or
the ready response the route builds). What is left is Flask, werkzeug, flask-smorest,
Flask-HTTPAuth and the request's log line. Medians per request (and means: a garbage
collection lands on few requests, so it shows in the mean, not the median), in milliseconds;
and the CPU PostgreSQL's backends used per request (their jiffies in /proc over the run).

--cprofile N also runs the single appends under cProfile and prints the N functions with the
most time of their own: wall time, so waits on PostgreSQL count (the layers' CPU figures are
then inflated by the profiler).

--code runs another checkout's code (e.g. the main branch) for an A/B: run both, alternately,
and compare the medians; the CPU of a request does not depend on the wall clock, but the
host's noise does show in it.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

LAYERS = [
    ("bearer token", "ledger.clubs.service", "Clubs", "authenticate"),
    ("body -> commands", "api.schemas", None, "load_events"),
    ("ledger append", "ledger.sessions.service", "Ledger", "append"),
    ("response: marshmallow dump", "marshmallow.schema", "Schema", "dump"),
    ("response: ready JSON", "api.http.writing", None, "json_response"),
]


def backend_jiffies(database: str) -> int:
    """The CPU jiffies (user + system) of PostgreSQL's backends serving `database`."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().decode(errors="replace")
            if title.startswith("postgres:") and f" {database} " in title:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                total += int(stat[11]) + int(stat[12])
        except OSError:
            continue
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=1500)
    parser.add_argument("--batches", type=int, default=60)
    parser.add_argument("--code", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--postgres-url", default=None)
    parser.add_argument("--cprofile", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(args.code).resolve()))
    import importlib

    from bench.run import DEFAULT_POSTGRES, _prepare, cycles, postgres_database

    spent: dict[str, float] = defaultdict(float)
    running: set[str] = set()

    def wrap(label: str, module: str, owner: str | None, name: str) -> None:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            return
        holder = getattr(mod, owner) if owner else mod
        original = getattr(holder, name, None)
        if original is None:
            return

        def timed(*a: Any, **k: Any) -> Any:
            if label in running:  # a nested call (a Nested field's dump) counts once
                return original(*a, **k)
            running.add(label)
            started = time.thread_time()
            try:
                return original(*a, **k)
            finally:
                spent[label] += time.thread_time() - started
                running.discard(label)

        setattr(holder, name, timed)
        # Rebind the name where a module imported it with `from ... import`.
        for other in list(sys.modules.values()):
            if owner is None and getattr(other, "__name__", "").startswith("api.") \
                    and getattr(other, name, None) is original:
                setattr(other, name, timed)

    for layer in LAYERS:
        wrap(*layer)

    with postgres_database(args.postgres_url or DEFAULT_POSTGRES) as url:
        data = _prepare(url, 1, ())
        from api import create_app

        app = create_app({"DATABASE_URL": url})
        client = app.test_client()
        singles, batches, _, start = cycles()
        token = data["token"]  # a dealer's
        headers = {"Authorization": f"Bearer {token}"}

        def run(sid: str, version: int, bodies: list[tuple[int, dict[str, Any]]], n: int
                ) -> dict[str, list[float]]:
            # The session starts where the cycle does (the dealer's seat), at its own version.
            by_offset = {v - bodies[0][0]: body for v, body in bodies}
            first = version
            # The cycle's length in versions: learnt by sending one cycle.
            for _, body in bodies:
                resp = client.post(f"/sessions/{sid}/events", json=body,
                                   headers={**headers, "If-Match": f'"{version}"'})
                assert resp.status_code == 201, resp.get_json()
                version = resp.get_json()["version"]
            period = version - first
            samples: dict[str, list[float]] = defaultdict(list)
            database = url.rsplit("/", 1)[1]
            jiffies = backend_jiffies(database)
            for _ in range(n):
                body = by_offset[(version - first) % period]
                spent.clear()
                started = time.thread_time()
                resp = client.post(f"/sessions/{sid}/events", json=body,
                                   headers={**headers, "If-Match": f'"{version}"'})
                total = time.thread_time() - started
                assert resp.status_code == 201, resp.get_data()
                version = resp.get_json()["version"]
                samples["whole request"].append(total)
                for label, *_ in LAYERS:
                    samples[label].append(spent.get(label, 0.0))
                samples["rest (HTTP layers)"].append(total - sum(spent.values()))
            backends = (backend_jiffies(database) - jiffies) / os.sysconf("SC_CLK_TCK")
            samples["PostgreSQL's backends"] = [backends / n]  # a mean: jiffies are coarse
            return samples

        (single_sid, single_version), (batch_sid, batch_version) = data["single"][0], \
            data["batch"][0]
        assert single_version == batch_version == start
        for title, sid, version, bodies, n in (
                ("single event", single_sid, single_version, singles, args.appends),
                (f"batch of ~{len(batches[0][1]['events'])} events", batch_sid, batch_version,
                 batches, args.batches)):
            if n <= 0:
                continue
            profiler = cProfile.Profile() if args.cprofile and title == "single event" \
                else None
            if profiler is not None:
                profiler.enable()
            samples = run(sid, version, bodies, n)
            if profiler is not None:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("tottime").print_stats(args.cprofile)
            print(f"{title}: {n} requests, code {args.code}")
            for label, values in samples.items():
                print(f"  {label:28s} {statistics.median(values) * 1000:8.3f} ms CPU"
                      f" (mean {statistics.fmean(values) * 1000:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
