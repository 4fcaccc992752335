"""Lanterloo's single append beside the peer's (bench/peer_app.py) and the raw INSERT, for
bench/run.py: the scenarios, the peer's server and tables, and the table of the results.

The three are measured in the same run, rounds interleaved, at one wrk connection and at
eight: Lanterloo and the peer each under deploy/gunicorn.conf.py (gthread, the CPU count + 1
workers x 8 threads), the raw INSERT (bench/baseline_app.py) under the run's --workers sync
workers, as in the main table. Both appenders receive the same request bodies in the same
order (the quick-entry cycle of `run.cycles`), one request at a time per connection, each
connection on its own table; Lanterloo's command may append more than one event (a deal's
last trick also settles it), the peer's always one.
"""

from __future__ import annotations

import json
import statistics
import urllib.request
from typing import Any

CONNECTIONS = (1, 8)
# (name, what) for each connection count: the raw INSERT, Lanterloo, the peer.
KINDS = (("raw", "psycopg INSERT per request (sync workers)"),
         ("loo", "Lanterloo single append"),
         ("peer", "pyeventsourcing append"))
SCENARIOS = tuple(f"peer_{kind}_c{c}" for c in CONNECTIONS for kind, _ in KINDS)
BEGIN, END = "<!-- bench:peer:begin -->", "<!-- bench:peer:end -->"
TOKEN = "peer"  # the peer asks for none; any non-empty token makes wrk send If-Match


def available() -> str:
    """'' when the peer can run here, else why not."""
    try:
        import eventsourcing  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "eventsourcing is not installed (pip install -e '.[bench]')"
    return ""


def bodies(singles: list[tuple[int, dict[str, Any]]]) -> tuple[int, int, list[tuple[int, str]]]:
    """The peer's schedule, as run.wrk takes it: the bodies Lanterloo is sent, in the same
    order, one version each from the peer's first (1, its table opened)."""
    return 1, len(singles), [(1 + i, json.dumps(b)) for i, (_, b) in enumerate(singles)]


def open_tables(base: str, count: int) -> list[tuple[str, int]]:
    """`count` new tables on the peer's server: [(id, version)]."""
    out = []
    for _ in range(count):
        request = urllib.request.Request(f"{base}/sessions", data=b"{}", method="POST",
                                          headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as resp:
            made = json.load(resp)
        out.append((made["session_id"], int(made["version"])))
    return out


def report(data: dict[str, Any]) -> str:
    res, a = data["results"], data["args"]
    if not all(name in res for name in SCENARIOS):
        return ""

    def med(name: str, key: str) -> float:
        return statistics.median(r[key] for r in res[name])

    def within(top: str, bottom: str, key: str) -> float:
        """The median over the rounds of top's `key` over bottom's, taken within a round."""
        return statistics.median(x[key] / y[key] for x, y in zip(res[top], res[bottom],
                                                                strict=True) if y[key])

    lines = [
        f"Run {data['when']} on {data['host']}; load average {data['load_start']} at the "
        f"start; {a['rounds']} rounds of {a['duration']:.0f} s, rounds interleaved; medians "
        "over the rounds, each ratio the median of the ratios within a round. Lanterloo and "
        "the peer under deploy/gunicorn.conf.py, the raw INSERT under "
        f"{a['workers']} sync workers; CPU per request in ms, of the serving workers and of "
        "PostgreSQL's backends.",
        "",
        "| connections | scenario | req/s | p50 | p99 | CPU/request app + PostgreSQL | "
        "Lanterloo vs the peer: throughput, p99 | vs the raw INSERT |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in CONNECTIONS:
        raw, loo, peer = (f"peer_{kind}_c{c}" for kind, _ in KINDS)
        for kind, label in KINDS:
            name = f"peer_{kind}_c{c}"
            versus = ""
            if kind == "loo":
                versus = (f"**{within(loo, peer, 'rps'):.2f} x**, "
                          f"**{within(loo, peer, 'p99_ms'):.2f} x** (target >= 1.0, <= 1.0)")
            elif kind == "peer":
                versus = "(the peer)"
            lines.append(
                f"| {c} | {label} | {med(name, 'rps'):,.0f} | {med(name, 'p50_ms'):.2f} ms | "
                f"{med(name, 'p99_ms'):.2f} ms | {med(name, 'app_ms_per_req'):.2f} + "
                f"{med(name, 'pg_ms_per_req'):.2f} | {versus} | "
                + (f"{within(name, raw, 'rps'):.2f} x |" if kind != "raw" else "(baseline) |"))
    lines.append("")
    for c in CONNECTIONS:  # round by round, for the spread
        loo, peer = f"peer_loo_c{c}", f"peer_peer_c{c}"
        lines.append(f"{c} connection{'s' if c > 1 else ''}, Lanterloo over the peer round "
                     "by round: throughput " + ", ".join(
                         f"{x['rps'] / y['rps']:.2f}" for x, y in zip(res[loo], res[peer],
                                                                       strict=True))
                     + "; p99 " + ", ".join(
                         f"{x['p99_ms'] / y['p99_ms']:.2f}" for x, y in zip(
                             res[loo], res[peer], strict=True)) + "; non-2xx answers "
                     + str(sum(r["non2xx"] for r in res[loo] + res[peer])) + ".")
    return "\n".join(lines)
