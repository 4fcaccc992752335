"""Capacity: how many tables at a dealer's pace one machine serves before a dealer waits.

    make capacity                                  # PostgreSQL to 1,000 tables, then SQLite
    .venv/bin/python bench/capacity.py --backends postgresql --start 4 --step 4 \
        --max-tables 8 --step-seconds 20 --pace 4 --no-write      # a small proof

Lanterloo under deploy/gunicorn.conf.py (gthread, the CPU count + 1 workers x 8 threads) on
PostgreSQL (a database `lanterloo_bench_<random>` on --postgres-url, dropped at the end) or
on a SQLite file, and simulated tables, each one five-player Baxter-Wray session of one club
(--tables-per-club tables a club, its own treasurer and dealer tokens), as the tablet and the
live view drive it (api/pages/static/table/table.js, live.js):

- the dealer logs deals at a dealer's pace, quick entry and card by card mixed (half the
  deals each, at random): a quick deal is 9 taps in about a minute, card by card 21-22, so one
  append every 60/9 s or 60/22 s (each wait drawn in 0.5-1.5 x of it); after each append the
  tablet reads the deal (`GET /sessions/<id>/deals/<n>`), and at each new deal its last
  entries (`GET /sessions/<id>/entries?after=`);
- the tablet polls its session every 2 s (`GET /sessions/<id>`, `If-None-Match`: a 304);
- one live view per table polls the session every second, and on a change reads the deal;
- one treasurer per club reads the books every 5 s (`GET /accounts`, `GET /book-entries`).

--pace multiplies every rate (dealers and polls alike; 1 is a human table). Tables are added
--step at a time every --step-seconds from --start, until a step's append p99 passes
--append-p99-ms (100) or its live view lags more than --lag-ms (1,000) at the p99, or
--max-tables. A live view's lag is the time from an append's answer to the view having drawn
it, less the time the view waited for its next poll (the view polls once a second, so what
it waits for that is not the server's doing): the poll's own requests, and how late it
started. Each step reports the tables, the appends and events a second, p50/p99 per request
kind, the CPU per request of the workers and of PostgreSQL's backends (ms), the CPU of the
load generators (--clients processes, on the same machine), and the workers' memory. The
tables held are those of the last step within both bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import multiprocessing
import os
import queue
import random
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import (  # noqa: E402
    DEFAULT_POSTGRES,
    PLAYERS,
    SERVERS,
    _env,
    _jiffies,
    gunicorn,
    host,
    postgres_database,
    quick_deal,
    turn_up_single,
    wire,
    worker_rss_mb,
    workers_jiffies,
)

DOC = ROOT / "docs" / "performance.md"
BEGIN, END = "<!-- bench:capacity:begin -->", "<!-- bench:capacity:end -->"
TAPS_PER_MINUTE = {"quick": 9, "cards": 22}
TABLET_POLL_S, LIVE_POLL_S, BOOKS_S = 2.0, 1.0, 5.0
KINDS = ("append", "deal", "entries", "tablet_poll", "live_poll", "live_deal", "books",
         "open")
RANKS, SUITS = "23456789TJQKA", "CDHS"


# -- what the dealers log ----------------------------------------------------------------------

def _ordered(hand: list[str], led: str | None, trump: str) -> list[str]:
    """The cards to try, a law-abiding player's first: follow suit and head, else trump."""
    def rank(card: str) -> int:
        return RANKS.index(card[0])

    if led is None:
        return sorted(hand, key=rank, reverse=True)
    follow = sorted((c for c in hand if c[1] == led[1]), key=rank, reverse=True)
    trumps = sorted((c for c in hand if c[1] == trump[1] and c not in follow), key=rank,
                    reverse=True)
    return follow + trumps + sorted((c for c in hand if c not in follow + trumps), key=rank)


def _card_deal(state: Any, rng: random.Random) -> tuple[Any, list[Any]] | None:
    """A deal entered card by card, everyone standing, or None when the cards dealt led to a
    breach of the laws (the ledger would then ask for a replay): the caller deals again."""
    from ledger.domain import execute, session_view
    from ledger.domain.commands import Declare, PlayCard, StartDeal
    from ledger.domain.errors import LedgerError

    view = session_view(state)
    seats, dealer = view["active"], view["next_dealer"]
    deck = [r + s for s in SUITS for r in RANKS]
    rng.shuffle(deck)
    trump = deck.pop()
    hands = {p: [deck.pop() for _ in range(3)] for p in seats}
    at = seats.index(dealer)
    commands: list[Any] = [StartDeal(trump_card=trump)]
    commands += [Declare(player=p, declaration="play") for p in seats[at + 1:] + seats[:at + 1]]
    for command in commands:
        state, _ = execute(state, command)
    while state.deal.phase == "playing":
        actions = session_view(state)["expected"]["actions"]
        player = next(a["player"] for a in actions if a["type"] == "CardPlayed")
        led = state.deal.current_trick[0][1] if state.deal.current_trick else None
        for card in _ordered(hands[player], led, trump):
            try:
                state, _ = execute(state, PlayCard(player=player, card=card))
            except LedgerError:
                continue
            hands[player].remove(card)
            commands.append(PlayCard(player=player, card=card))
            break
        else:
            return None
    return (state, commands) if state.deal.phase == "settled" else None


def script(seed: int, deals: int) -> list[tuple[str, list[str]]]:
    """A table's evening, played in memory first: [(entry, [JSON bodies])], the turn-up
    single, then `deals` deals, quick or card by card at random."""
    from ledger.domain import OpenSession, execute, session_view

    rng = random.Random(seed)
    state, _ = execute(None, OpenSession(players=list(PLAYERS), preset="baxter-wray",
                                         first_dealer="A"), session_id="s")
    state, _ = execute(state, turn_up_single())
    out = [("quick", [json.dumps(wire(turn_up_single()))])]
    for _ in range(deals):
        if rng.random() < 0.5:
            commands = quick_deal(session_view(state))
            for command in commands:
                state, _ = execute(state, command)
            out.append(("quick", [json.dumps(wire(c)) for c in commands]))
            continue
        for _ in range(1000):
            dealt = _card_deal(copy.deepcopy(state), rng)
            if dealt is not None:
                break
        else:
            raise RuntimeError("no deal without a breach in 1,000 tries")
        state, commands = dealt
        out.append(("cards", [json.dumps(_wire(c)) for c in commands]))
    return out


def _wire(command: Any) -> dict[str, Any]:
    from ledger.domain.commands import PlayCard

    if isinstance(command, PlayCard):
        return {"type": "CardPlayed", "player": command.player, "card": command.card}
    return wire(command)


# -- the load: one process of --clients, its tables ---------------------------------------------

class Load:
    """One generator process's tables: requests timed into `samples` [(t, kind, ms, ok)]."""

    def __init__(self, base: str, plan: dict[str, Any]) -> None:
        self.base, self.plan = base, plan
        self.samples: list[tuple[float, str, float, bool]] = []
        self.events = 0  # events appended (the versions the appends moved on)
        self.lags: list[tuple[float, float]] = []  # (t, ms)
        self.pace = plan["pace"]

    async def call(self, client: Any, kind: str, method: str, path: str, token: str,
                   **kw: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}", **kw.pop("headers", {})}
        start = time.monotonic()
        try:
            resp = await client.request(method, self.base + path, headers=headers, **kw)
            ok = resp.status_code < 400
        except Exception:  # a timeout or a cut connection counts as a failure of its kind
            resp, ok = None, False
        end = time.monotonic()
        self.samples.append((time.time(), kind, (end - start) * 1000, ok))
        return resp

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.pace)

    async def table(self, client: Any, club: dict[str, str], evening: list[Any]) -> None:
        resp = await self.call(client, "open", "POST", "/sessions", club["treasurer"], json={
            "name": "capacity", "players": PLAYERS, "preset": "baxter-wray",
            "first_dealer": "A"})
        if resp is None or resp.status_code != 201:
            return
        sid, version = resp.json()["session_id"], resp.json()["version"]
        shown = {"version": version, "appended": {}}  # what the live view has drawn
        tasks = [asyncio.create_task(self.poll_tablet(client, club, sid, shown)),
                 asyncio.create_task(self.live_view(client, club, sid, shown))]
        try:
            for entry, bodies in evening:
                for i, body in enumerate(bodies):
                    await self.sleep(60 / TAPS_PER_MINUTE[entry] * random.uniform(0.5, 1.5))
                    resp = await self.call(client, "append", "POST", f"/sessions/{sid}/events",
                                           club["dealer"], content=body, headers={
                                               "Content-Type": "application/json",
                                               "If-Match": f'"{version}"',
                                               "Idempotency-Key": uuid.uuid4().hex})
                    if resp is None or resp.status_code != 201:
                        return  # the table stops: its next entries would build on nothing
                    session = resp.json()["session"]
                    self.events += session["version"] - version
                    version = shown["tablet"] = session["version"]
                    shown["appended"][version] = time.monotonic()
                    if session.get("deal_no"):
                        await self.call(client, "deal", "GET",
                                        f"/sessions/{sid}/deals/{session['deal_no']}",
                                        club["dealer"])
                    if i == 0:
                        await self.call(client, "entries", "GET", f"/sessions/{sid}/entries"
                                        f"?after={max(0, version - 60)}", club["dealer"])
        finally:
            for task in tasks:
                task.cancel()

    async def poll_tablet(self, client: Any, club: dict[str, str], sid: str,
                          shown: dict[str, Any]) -> None:
        await self.sleep(random.uniform(0, TABLET_POLL_S))
        while True:
            await self.call(client, "tablet_poll", "GET", f"/sessions/{sid}", club["dealer"],
                            headers={"If-None-Match": f'"{shown.get("tablet", 0)}"'})
            await self.sleep(TABLET_POLL_S)

    async def live_view(self, client: Any, club: dict[str, str], sid: str,
                        shown: dict[str, Any]) -> None:
        await self.sleep(random.uniform(0, LIVE_POLL_S))
        due = time.monotonic()
        while True:
            started = time.monotonic()
            resp = await self.call(client, "live_poll", "GET", f"/sessions/{sid}",
                                   club["treasurer"],
                                   headers={"If-None-Match": f'"{shown["version"]}"'})
            if resp is not None and resp.status_code == 200:
                session = resp.json()
                if session.get("deal_no"):
                    await self.call(client, "live_deal", "GET",
                                    f"/sessions/{sid}/deals/{session['deal_no']}",
                                    club["treasurer"])
                drawn = time.monotonic()
                for v in [v for v in shown["appended"] if v <= session["version"]]:
                    answered = shown["appended"].pop(v)
                    self.lags.append((time.time(), (drawn - max(answered, min(due, started)))
                                      * 1000))
                shown["version"] = session["version"]
            due = time.monotonic() + LIVE_POLL_S / self.pace
            await self.sleep(LIVE_POLL_S)

    async def treasurer(self, client: Any, club: dict[str, str]) -> None:
        await self.sleep(random.uniform(0, BOOKS_S))
        while True:
            await self.call(client, "books", "GET", "/accounts", club["treasurer"])
            await self.call(client, "books", "GET", "/book-entries?limit=25", club["treasurer"])
            await self.sleep(BOOKS_S)

    async def run(self, out: Any, stop: Any) -> None:
        import httpx

        plan = self.plan
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None,
                              keepalive_expiry=4)
        async with httpx.AsyncClient(limits=limits, timeout=10) as client:
            tasks: list[asyncio.Task[None]] = []
            clubs_started: set[int] = set()
            for table_no, at in plan["tables"]:  # (global number, seconds after t0)
                delay = plan["t0"] + at - time.time()
                if delay > 0:
                    await self._flush_until(out, stop, delay)
                if stop.is_set():
                    break
                club_no = table_no // plan["tables_per_club"]
                club = plan["clubs"][club_no]
                if club_no not in clubs_started:
                    clubs_started.add(club_no)
                    tasks.append(asyncio.create_task(self.treasurer(client, club)))
                evening = plan["scripts"][table_no % len(plan["scripts"])]
                tasks.append(asyncio.create_task(self.table(client, club, evening)))
            while not stop.is_set():
                await self._flush_until(out, stop, 3600)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _flush_until(self, out: Any, stop: Any, seconds: float) -> None:
        end = time.time() + seconds
        while time.time() < end and not stop.is_set():
            await asyncio.sleep(min(1.0, max(0.0, end - time.time())))
            out.put((os.getpid(), self.samples, self.lags, self.events))
            self.samples, self.lags, self.events = [], [], 0


def _generate(base: str, plan: dict[str, Any], out: Any, stop: Any) -> None:
    asyncio.run(Load(base, plan).run(out, stop))


# -- the run -------------------------------------------------------------------------------------

def _prepare(url: str, clubs: int) -> list[dict[str, str]]:
    """Migrate; `clubs` clubs with the five players, a treasurer's and a dealer's token."""
    from api import create_app
    from ledger.clubs.service import Clubs
    from ledger.store.migrate import upgrade

    upgrade(url)
    app = create_app({"DATABASE_URL": url})
    service = Clubs(app.extensions["lanterloo"].engine)
    out = []
    for n in range(clubs):
        club, _, _ = service.create_club(f"Capacity club {n}")
        for p in PLAYERS:
            service.add_member(club["club_id"], p)
        out.append({"treasurer": service.create_token(club["club_id"], "A", "treasurer",
                                                      "capacity")["token"],
                    "dealer": service.create_token(club["club_id"], "B", "dealer",
                                                   "tablet")["token"]})
    app.extensions["lanterloo"].engine.dispose()
    return out


def _cpu(master: int, database: str, generators: list[int]) -> dict[str, Any]:
    """CPU seconds so far of the gunicorn workers (those recycled included: workers_jiffies),
    of PostgreSQL's backends of `database` (by process: `_grown`), and of the load
    generators."""
    tick = os.sysconf("SC_CLK_TCK")
    backends: dict[str, float] = {}
    if database:
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    title = (entry / "cmdline").read_bytes().decode(errors="replace")
                except OSError:
                    continue
                if title.startswith("postgres:") and f" {database} " in title:
                    backends[entry.name] = _jiffies(entry.name) / tick
    return {"app": workers_jiffies(master) / tick, "pg": backends,
            "load": sum(_jiffies(p) for p in generators) / tick}


def _grown(before: Any, after: Any) -> float:
    """CPU seconds spent between two readings of `_cpu`'s: for the backends, each process's
    own growth (one born in the window spent all its CPU in it; one that ended in it is left
    out, as PostgreSQL's count of ended backends is the whole shared server's)."""
    if isinstance(after, dict):
        return float(sum(v - before.get(pid, 0.0) for pid, v in after.items()))
    return float(after - before)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ramp(backend: str, url: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    steps = list(range(args.start, args.max_tables + 1, args.step))
    clubs = -(-steps[-1] // args.tables_per_club)
    print(f"{backend}: preparing {clubs} clubs and the tables' evenings", file=sys.stderr)
    plan_clubs = _prepare(url, clubs)
    deals = int(len(steps) * args.step_seconds / 60 * args.pace) + 3
    scripts = [script(seed, deals) for seed in range(args.scripts)]
    env = _env(ROOT, LOO_DATABASE_URL=url, LOO_LOG_LEVEL="WARNING")
    database = url.rsplit("/", 1)[1] if backend == "postgresql" else ""
    with ExitStack() as stack:
        base = stack.enter_context(gunicorn("api:create_app()", env, args, ROOT,
                                            config=ROOT / "deploy" / "gunicorn.conf.py"))
        master = SERVERS[base]
        t0 = time.time() + 3
        # table n starts in its step, spread over the step's first quarter
        starts = []
        for k, total in enumerate(steps):
            before = steps[k - 1] if k else 0
            for n in range(before, total):
                starts.append((n, k * args.step_seconds + (n - before) / max(1, total - before)
                               * args.step_seconds / 4))
        ctx = multiprocessing.get_context("spawn")
        out, stop = ctx.Queue(), ctx.Event()
        procs = []
        for i in range(args.clients):
            plan = {"t0": t0, "pace": args.pace, "clubs": plan_clubs, "scripts": scripts,
                    "tables_per_club": args.tables_per_club,
                    "tables": [s for s in starts if (s[0] // args.tables_per_club)
                               % args.clients == i]}
            proc = ctx.Process(target=_generate, args=(base, plan, out, stop), daemon=True)
            proc.start()
            procs.append(proc)
        results = []
        try:
            for k, tables in enumerate(steps):
                begin, end = t0 + k * args.step_seconds, t0 + (k + 1) * args.step_seconds
                samples: list[tuple[float, str, float, bool]] = []
                lags: list[float] = []
                events = 0
                measured_from = begin + args.step_seconds / 4
                pids = [p.pid for p in procs if p.pid]
                cpu: dict[str, dict[str, Any]] = {}
                while time.time() < end + 1.5:  # the last batches of the step come late
                    now = time.time()
                    if "from" not in cpu and now >= measured_from:
                        cpu["from"] = _cpu(master, database, pids)
                    if "to" not in cpu and now >= end:
                        cpu["to"] = _cpu(master, database, pids)
                    try:
                        _, got, got_lags, got_events = out.get(timeout=0.25)
                    except queue.Empty:
                        continue
                    samples += [s for s in got if measured_from <= s[0] < end]
                    lags += [ms for t, ms in got_lags if measured_from <= t < end]
                    events += got_events if measured_from <= time.time() < end + 1 else 0
                step = _summary(tables, samples, lags, events, end - measured_from,
                                {k_: _grown(cpu["from"][k_], cpu["to"][k_])
                                 for k_ in cpu["to"]},
                                worker_rss_mb(master), args)
                results.append(step)
                print(f"{backend} {tables} tables: " + _line(step), file=sys.stderr)
                if not step["within"]:
                    break
        finally:
            stop.set()
            for proc in procs:
                proc.join(timeout=15)
                if proc.is_alive():
                    proc.terminate()
    held = [s["tables"] for s in results if s["within"]]
    return {"backend": backend, "steps": results, "held": max(held, default=0),
            "ramp": f"{args.start} tables, then {args.step} more every {args.step_seconds:g} s"
                    f" up to {args.max_tables}",
            "stopped": not results[-1]["within"] if results else False}


def _summary(tables: int, samples: list[tuple[float, str, float, bool]], lags: list[float],
             events: int, seconds: float, cpu: dict[str, float], rss: list[float],
             args: argparse.Namespace) -> dict[str, Any]:
    kinds: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        ms = [s[2] for s in samples if s[1] == kind]
        if ms:
            kinds[kind] = {"n": len(ms), "p50": _pct(ms, 0.5), "p99": _pct(ms, 0.99),
                           "failed": sum(1 for s in samples if s[1] == kind and not s[3])}
    requests = len(samples)
    span = seconds if seconds == seconds and seconds > 0 else 1.0
    append_p99 = kinds.get("append", {}).get("p99", float("nan"))
    lag_p99 = _pct(lags, 0.99)
    failed = sum(1 for s in samples if not s[3])
    within = (append_p99 <= args.append_p99_ms and (lag_p99 != lag_p99
                                                     or lag_p99 <= args.lag_ms)
              and failed <= 0.01 * max(1, requests))
    return {"tables": tables, "within": within, "requests_per_s": requests / span,
            "appends_per_s": kinds.get("append", {}).get("n", 0) / span,
            "events_per_s": events / span, "kinds": kinds, "lag_p50": _pct(lags, 0.5),
            "lag_p99": lag_p99, "failed": failed,
            "app_ms_per_req": 1000 * cpu["app"] / max(1, requests),
            "pg_ms_per_req": 1000 * cpu["pg"] / max(1, requests),
            "load_cpu_pct": 100 * cpu["load"] / span,
            "rss_max_mb": max(rss, default=0.0), "rss_sum_mb": sum(rss)}


def _line(step: dict[str, Any]) -> str:
    k = step["kinds"]
    return (f"{step['requests_per_s']:.0f} req/s, {step['appends_per_s']:.1f} appends/s, "
            f"{step['events_per_s']:.1f} events/s; append p50/p99 "
            f"{k.get('append', {}).get('p50', 0):.1f}/{k.get('append', {}).get('p99', 0):.1f} ms,"
            f" live lag p99 {step['lag_p99']:.0f} ms; CPU/request app "
            f"{step['app_ms_per_req']:.2f} ms, pg {step['pg_ms_per_req']:.2f} ms; load "
            f"generators {step['load_cpu_pct']:.0f} %; worker RSS max {step['rss_max_mb']:.0f}"
            f" MB; failed {step['failed']}; {'within' if step['within'] else 'PAST'} the bounds")


def report(runs: list[dict[str, Any]], args: argparse.Namespace, when: str, load: str
           ) -> str:
    lines = [
        f"Run {when} on {host()}; `uptime` load average {load} at the start; pace "
        f"{args.pace:g} x a human table, {args.tables_per_club} tables a club; "
        + "; ".join(f"{r['backend']}: {r['ramp']}" for r in runs)
        + f" (the first quarter of each step not measured); {args.clients} load-generator "
        "processes on the same machine; bounds: "
        f"append p99 <= {args.append_p99_ms:.0f} ms, live view lag p99 <= {args.lag_ms:.0f} "
        "ms, failures <= 1 %.",
        "",
        "| backend | tables held | tables | req/s | appends/s | events/s | append p50/p99 | "
        "deal read p99 | tablet poll p99 | live poll p99 | live lag p50/p99 | books p99 | "
        "CPU/request app + PostgreSQL | load generators CPU | worker RSS max (sum) |",
        "|" + "---|" * 15,
    ]  # the first step, the last within the bounds and the first past them

    def p(step: dict[str, Any], kind: str, key: str = "p99") -> str:
        got = step["kinds"].get(kind)
        return f"{got[key]:.1f}" if got else "-"

    for run_ in runs:
        steps = run_["steps"]
        within = [s for s in steps if s["within"]]
        past = [s for s in steps if not s["within"]]
        # on the page: the first step, the last within the bounds and the first past them
        # (every step is printed as it ends, and kept by --json)
        shown = [s for s in steps if s is steps[0] or (within and s is within[-1])
                 or (past and s is past[0])]
        for step in shown:
            lines.append(
                f"| {run_['backend']} | {run_['held']} | {step['tables']}"
                f"{'' if step['within'] else ' (past)'} | {step['requests_per_s']:,.0f} | "
                f"{step['appends_per_s']:.1f} | {step['events_per_s']:.1f} | "
                f"{p(step, 'append', 'p50')} / {p(step, 'append')} ms | {p(step, 'deal')} ms | "
                f"{p(step, 'tablet_poll')} ms | {p(step, 'live_poll')} ms | "
                f"{step['lag_p50']:.0f} / {step['lag_p99']:.0f} ms | {p(step, 'books')} ms | "
                f"{step['app_ms_per_req']:.2f} + "
                + (f"{step['pg_ms_per_req']:.2f} ms | " if run_["backend"] == "postgresql"
                   else "- ms | ") +
                f"{step['load_cpu_pct']:.0f} % | {step['rss_max_mb']:.0f} "
                f"({step['rss_sum_mb']:.0f}) MB |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="postgresql,sqlite")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES)
    parser.add_argument("--start", type=int, default=25, help="tables at the first step")
    parser.add_argument("--step", type=int, default=25, help="tables added at each step")
    parser.add_argument("--max-tables", type=int, default=1000)
    parser.add_argument("--sqlite-start", type=int, default=5)
    parser.add_argument("--sqlite-step", type=int, default=5)
    parser.add_argument("--sqlite-max-tables", type=int, default=60)
    parser.add_argument("--step-seconds", type=float, default=60)
    parser.add_argument("--pace", type=float, default=1.0,
                        help="x a human table's rates (dealers and polls alike)")
    parser.add_argument("--tables-per-club", type=int, default=10)
    parser.add_argument("--clients", type=int, default=2, help="load-generator processes")
    parser.add_argument("--scripts", type=int, default=8, help="different evenings played")
    parser.add_argument("--append-p99-ms", type=float, default=100)
    parser.add_argument("--lag-ms", type=float, default=1000)
    parser.add_argument("--json", default="", help="also write the raw results here")
    parser.add_argument("--no-write", action="store_true",
                        help="print the table, leave docs/performance.md alone")
    args = parser.parse_args(argv)
    # gunicorn() reads these when it is not given a config file; the deploy config is used.
    args.workers, args.worker_class, args.threads = 0, "gthread", 0
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for backend in args.backends.split(","):
            if backend == "postgresql":
                with postgres_database(args.postgres_url) as url:
                    runs.append(ramp(backend, url, args, Path(folder)))
            elif backend == "sqlite":
                lite = argparse.Namespace(**{**vars(args), "start": args.sqlite_start,
                                             "step": args.sqlite_step,
                                             "max_tables": args.sqlite_max_tables})
                runs.append(ramp(backend, f"sqlite:///{folder}/capacity.db", lite,
                                 Path(folder)))
            else:
                parser.error(f"unknown backend {backend}")
    table = report(runs, args, when, load)
    print(table)
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "args": vars(args)}, indent=1))
    if not args.no_write:
        from bench.run import write_doc

        write_doc(table, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
