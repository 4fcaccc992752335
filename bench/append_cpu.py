"""The CPU of a single append, in the service and in PostgreSQL, in process.

    .venv/bin/python bench/append_cpu.py [--code DIR] [--appends 1500] [--postgres-url URL]

Opens a session as bench/run.py does (a club, a dealer's token, a turned-up single), then
sends --appends single-event appends (quick-entry deals, If-Match at the session's version)
through Flask's test client. Prints the median and mean thread CPU of a request in this
process, and the CPU the database's backends used per append (their jiffies in /proc over the
run, divided by the appends), and the wall time per append. `--code DIR` runs another
checkout's `api` and `ledger` (e.g. `git worktree add /tmp/before <commit>`): run both in
turn, a few times, and compare; the backends' CPU varies less with the host's noise than the
service's does.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path


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
    parser.add_argument("--code", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--appends", type=int, default=1500)
    parser.add_argument("--postgres-url", default=None)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(args.code).resolve()))
    from bench.run import DEFAULT_POSTGRES, _prepare, cycles, postgres_database

    with postgres_database(args.postgres_url or DEFAULT_POSTGRES) as url:
        data = _prepare(url, 1, ())
        from api import create_app

        app = create_app({"DATABASE_URL": url})
        logging.getLogger("lanterloo.request").disabled = True  # no log line per request
        client = app.test_client()
        singles, _, _, _ = cycles()
        sid, version = data["single"][0]
        headers = {"Authorization": f"Bearer {data['token']}"}
        first = version
        for _, body in singles:  # one cycle, to learn its length in versions
            response = client.post(f"/sessions/{sid}/events", json=body,
                                   headers={**headers, "If-Match": f'"{version}"'})
            assert response.status_code == 201, response.get_json()
            version = response.get_json()["version"]
        period = version - first
        by_offset = {v - singles[0][0]: body for v, body in singles}
        database = url.rsplit("/", 1)[1]
        cpu: list[float] = []
        jiffies, started = backend_jiffies(database), time.perf_counter()
        for _ in range(args.appends):
            body = by_offset[(version - first) % period]
            thread = time.thread_time()
            response = client.post(f"/sessions/{sid}/events", json=body,
                                   headers={**headers, "If-Match": f'"{version}"'})
            cpu.append(time.thread_time() - thread)
            assert response.status_code == 201, response.get_data()
            version = response.get_json()["version"]
        backends = (backend_jiffies(database) - jiffies) / os.sysconf("SC_CLK_TCK")
        wall = time.perf_counter() - started
    print(f"{args.code}: service {statistics.median(cpu) * 1000:.3f} ms CPU a request "
          f"(mean {statistics.fmean(cpu) * 1000:.3f}); PostgreSQL "
          f"{backends / args.appends * 1000:.3f} ms CPU an append; wall "
          f"{wall / args.appends * 1000:.2f} ms an append")
    return 0


if __name__ == "__main__":
    sys.exit(main())
