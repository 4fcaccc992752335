"""The club's books at a club's scale: every books, audit and explain read, through the app.

    python -m bench.accounts_bench URL [--sessions 400] [--payments 400] [--deals 200]
        [--repeat 10] [--only TEXT] [--club FILE] [--code DIR]        # prints one JSON line
    python -m bench.accounts_bench URL --sizes 1000,10000 [--club-dir DIR] ...   # clubs
        of 1,000 and 10,000 sessions (and as many payments) measured in one run, read by
        read, their calls alternated: one JSON line of runs
    python -m bench.accounts_bench --table RUN.json RUN.json ...     # medians side by side

The sizes measured (docs/performance.md): 400 sessions and 400 payments, 1,000 and 1,000, and
10,000 sessions with 10,000 book entries (`--sessions 10000 --payments 10000`: the club of the
target "reads that stay flat", whose cost should be within 1.3 x of the 1,000-session club's).

Makes a club of 10 members on the (migrated, may be shared) database at URL (PostgreSQL, or
`sqlite:///file.db`), writes the results of `--sessions` ended sessions of five seats (random
zero-sum nets, through the projection writer, straight to the table; then what the database
keeps of them written as `lanterloo rebuild` writes it), appends `--payments` payments
through the service, and plays one session of `--deals` deals through the service (a random
legal session of the generator, tests/support/sessions.py, card by card, with breaches and
penalties; 10p a unit), ended. Then it serves every read through the app (Flask's test
client, a treasurer's token, the real routes and serialisation; first the served code's
gunicorn `post_worker_init`,
as a worker runs it once it has loaded the app): the median and p90 of `--repeat` calls after
a warm-up, every call's time (`ms`, to pool alternating runs), the median and every call of
this process's CPU time (`cpu_median_ms`, `cpu_ms`: the app's own work, without the
database server's or the wait for a core on a busy machine), and the size of each answer
(docs/performance.md, "Books, audit and explain reads").

`--club FILE` keeps the club: the first run writes what the reads need (the token, the
member, the long session) to FILE, and a later run with the same URL and FILE reads that club
again instead of making one. `--code DIR` serves (and builds) with another checkout's `api`
and `ledger` (e.g. `git archive` of an earlier commit, unpacked): the script runs again with
DIR first on its path, as bench/run.py does. A before/after is then one command each, run
alternately on the same database and club:

    python bench/accounts_bench.py URL --club c.json --code /tmp/before   # builds, before
    python bench/accounts_bench.py URL --club c.json                      # after
    python bench/accounts_bench.py URL --club c.json --code /tmp/before   # before again ...

`--bodies DIR` also writes each read's answer to DIR (one file a read), to compare the bytes
of a before and an after.

`--sizes 1000,10000` measures clubs of those sizes (sessions, and as many payments) in one
run, for the target "reads that stay flat": for each read, each club's calls alternate (a
call to one, then to the next), so that the load of a shared machine weighs on every size
alike; `--club-dir DIR` keeps the clubs (DIR/club-<size>.json) for the next run. It prints
one JSON line, {"runs": [a run per size]}, which `--table` reads as well as single runs.
A club made here is ANALYZEd on PostgreSQL once written (the statistics autovacuum would
gather in a while: a fresh club's bulk write would else leave the planner guessing).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import re
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sqlalchemy import insert

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests.support, run as a file; after --code's DIR if given
    sys.path.insert(0, str(ROOT))

import ledger  # noqa: E402
from ledger.books.service import Books  # noqa: E402
from ledger.clubs.service import Actor, Clubs  # noqa: E402
from ledger.domain.accounts import SessionResult  # noqa: E402
from ledger.domain.commands import EndSession  # noqa: E402
from ledger.projections import result_rows  # noqa: E402
from ledger.sessions.service import Ledger  # noqa: E402
from ledger.store.db import make_engine  # noqa: E402
from ledger.store.migrate import upgrade  # noqa: E402
from ledger.store.tables import session_results, sessions  # noqa: E402
from ledger.writes import WriteRequest  # noqa: E402

# the generator's seats first, so that the long session is played by members
NAMES = ["Ada", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
BATCH = 200  # commands per append while the long session is played


def long_session(engine: Any, club: str, actor: Actor, deals: int) -> str:
    """A random legal session of `deals` deals, played through the club's ledger, ended."""
    import dataclasses

    from tests.support.sessions import RandomChooser, SessionShape, play_session

    shape = SessionShape(min_deals=deals, max_deals=deals, p_illegal_try=0.0, p_join=0.0,
                         p_withdraw=0.0, p_last_round=0.0, preset="baxter-wray",
                         p_overrides=0.0)
    played = play_session(RandomChooser(7), shape=shape, deals=deals)
    ledger = Ledger(engine).for_club(club)
    opening = dataclasses.replace(played.opening, name=f"{deals} deals",
                                  money_per_unit_minor=10, currency="GBP")
    opened = ledger.open_session(opening, WriteRequest(actor))
    sid, version = opened.body["session_id"], opened.body["version"]
    commands = [s.command for s in played.steps[1:] if s.accepted]
    for at in range(0, len(commands), BATCH):
        version = ledger.append(sid, commands[at:at + BATCH],
                                WriteRequest(actor, expected_version=version)).body["version"]
    if ledger.session(sid)["status"] != "ended":
        ledger.append(sid, [EndSession(method="agreed")],
                      WriteRequest(actor, expected_version=version))
    return sid


def build(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """The club, its results and payments, and the long session: what the reads are made of."""
    upgrade(url)
    engine = make_engine(url)
    clubs = Clubs(engine)
    info, admin, _ = clubs.create_club(f"bench {secrets.token_hex(4)}")
    club = info["club_id"]
    ids = {n: clubs.add_member(club, n)["member_id"] for n in NAMES}
    treasurer = clubs.create_token(club, "Jon", "treasurer", "bench")
    actor = Actor("Jon", ids["Jon"], treasurer["token_id"])
    rnd = random.Random(1)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        for s in range(args.sessions):
            sid = secrets.token_hex(16)
            conn.execute(insert(sessions).values(id=sid, club_id=club, version=1, state={},
                                                 created_at=start, updated_at=start))
            seated = rnd.sample(NAMES, 5)
            nets = [rnd.randint(-30, 30) for _ in range(4)]
            nets.insert(0, -sum(nets))
            conn.execute(insert(session_results), result_rows([SessionResult(
                session_id=sid, seat=m, member_id=ids[m], currency="GBP", net_units=n,
                net_minor=n * 10, deals_dealt=3, loos=1, loo_units=3, penalties=0,
                penalty_units=0, posted_at=start + timedelta(hours=s),
                session_name=f"night {s}", version=1)
                for m, n in zip(seated, nets, strict=True)], club))
    books = Books(engine, club)
    # the results were written straight to the table: what the database keeps of them (the
    # open items) written as `lanterloo rebuild` writes it, before the payments post theirs
    books.rebuild_postings()
    begun = time.perf_counter()
    for _ in range(args.payments):
        books.record_payment(payer=rnd.choice(NAMES), payee="club",
                             amount_minor=rnd.randint(1, 100), currency="GBP", method="cash",
                             request=WriteRequest(actor))
    payment_ms = (time.perf_counter() - begun) * 1000 / max(args.payments, 1)
    begun = time.perf_counter()
    sid = long_session(engine, club, actor, args.deals)
    played_s = time.perf_counter() - begun
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("ANALYZE")
    return {"engine": engine, "club": club, "sessions": args.sessions, "payments": args.payments,
            "deals": args.deals, "token": treasurer["token"], "member": ids["Ada"], "sid": sid,
            "middle": max(args.payments // 2, 1), "payment_append_ms": round(payment_ms, 1),
            "long_session_s": round(played_s, 1)}


def reads(f: dict[str, Any]) -> dict[str, str]:
    """Every read measured: name -> path."""
    m, sid, mid = f["member"], f["sid"], f["middle"]
    return {
        "member account": f"/members/{m}/account",
        "accounts": "/accounts",
        "accounts' sessions, a page of 100": "/accounts/sessions?limit=100",
        "debts": "/debts",
        "debts csv": "/debts?format=csv",
        "debts, a page of 100": "/debts?limit=100",
        "payables": "/payables",
        "payables, a page of 100": "/payables?limit=100",
        "payables, a page of 100 from the 5,000th": "/payables?limit=100&after=5000",
        "settle-up": "/settle-up",
        "standings": "/standings",
        "club page (html)": "/standings?format=html",
        "register, a page of 100": "/book-entries?limit=100",
        "register, one member's": f"/book-entries?limit=100&member_id={m}",
        "accounts as of": f"/accounts?as_of={mid}",
        "debts as of": f"/debts?as_of={mid}",
        "member account as of": f"/members/{m}/account?as_of={mid}",
        "audit events, a page": "/audit/events?limit=100",
        "audit penalties, a page": "/audit/penalties?limit=100",
        "audit corrections": "/audit/corrections",
        "statement": f"/sessions/{sid}/statement",
        "statement csv": f"/sessions/{sid}/statement?format=csv",
        "statement html": f"/sessions/{sid}/statement?format=html",
        "explain": f"/sessions/{sid}/explain",
        "explain, one player": f"/sessions/{sid}/explain?player=Ada",
        "explain csv": f"/sessions/{sid}/explain?format=csv",
    }


def side_by_side(runs: list[dict[str, Any]]) -> str:
    """Runs' medians (and CPU medians) as one Markdown table, a column per run, and the
    last run's median over the first's."""
    names = [name for name in runs[0]["reads"] if all(name in r["reads"] for r in runs)]
    head = [f"{r['sessions']} sessions, {r['payments']} payments" for r in runs]
    lines = ["| read | " + " | ".join(head) + " | last / first |",
             "|---|" + "---|" * (len(runs) + 1)]
    for name in names:
        cells = [f"{r['reads'][name]['median_ms']} ({r['reads'][name]['cpu_median_ms']})"
                 for r in runs]
        first, last = (runs[i]["reads"][name]["median_ms"] for i in (0, -1))
        ratio = f"{last / first:.1f} x" if first else "-"
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")
    return "\n".join(lines)


def measure(f: dict[str, Any], *, repeat: int, only: str | None,
            bodies: Path | None = None) -> dict[str, Any]:
    return measure_alternating([f], repeat=repeat, only=only, bodies=bodies)[0]


def measure_alternating(clubs: list[dict[str, Any]], *, repeat: int, only: str | None,
                        bodies: Path | None = None) -> list[dict[str, Any]]:
    """Every read of each club (all on one database), each read's calls alternating between
    the clubs; {read: its timings} per club."""
    from api import create_app

    app = create_app({"ENGINE": clubs[0]["engine"], "AUTO_MIGRATE": False, "TESTING": True,
                      "LOG_LEVEL": "WARNING"})
    as_a_worker_starts()
    client = app.test_client()
    out: list[dict[str, Any]] = [{} for _ in clubs]
    for name in reads(clubs[0]):
        if only is not None and only not in name:
            continue
        calls: list[Callable[[], bytes]] = []
        for f in clubs:
            path, headers = reads(f)[name], {"Authorization": f"Bearer {f['token']}"}

            def call(path: str = path, headers: dict[str, str] = headers) -> bytes:
                response = client.get(path, headers=headers)
                assert response.status_code == 200, (path,
                                                     response.get_data(as_text=True)[:300])
                return response.get_data()
            calls.append(call)
        answers = [b""] * len(clubs)
        for n, call in enumerate(calls):
            for _ in range(2):  # warm-up: connections, caches
                answers[n] = call()
        timed_calls: list[list[tuple[float, float]]] = [[] for _ in clubs]
        for _ in range(repeat):
            for n, call in enumerate(calls):
                timed_calls[n].append(timed(call))
        for n, measured in enumerate(timed_calls):
            timings = sorted(wall for wall, _ in measured)
            out[n][name] = {
                "median_ms": round(statistics.median(timings), 1),
                "p90_ms": round(timings[max(0, int(len(timings) * 0.9) - 1)], 1),
                "cpu_median_ms": round(statistics.median(cpu for _, cpu in measured), 1),
                "kb": round(len(answers[n]) / 1024, 1), "ms": [round(t, 1) for t in timings],
                "cpu_ms": [round(cpu, 1) for _, cpu in measured]}
            if bodies is not None:
                folder = bodies / str(clubs[n]["sessions"]) if len(clubs) > 1 else bodies
                folder.mkdir(parents=True, exist_ok=True)
                (folder / re.sub(r"[^a-z0-9]+", "-", name).strip("-")).write_bytes(answers[n])
    return out


def as_a_worker_starts() -> None:
    """Run the served code's gunicorn `post_worker_init` hook (deploy/gunicorn.conf.py), if it
    has one, as a worker does once it has loaded the app."""
    conf = Path(ledger.__file__).resolve().parent.parent / "deploy" / "gunicorn.conf.py"
    namespace: dict[str, Any] = {}
    exec(compile(conf.read_text(), str(conf), "exec"), namespace)
    if "post_worker_init" in namespace:
        namespace["post_worker_init"](SimpleNamespace(log=logging.getLogger("bench")))


def timed(call: Callable[[], Any]) -> tuple[float, float]:
    """The call's wall time and this process's CPU time in it, in ms (the CPU time leaves out
    the database server's work, and the waiting for a core on a busy machine)."""
    start, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def serve_code(code: str) -> None:
    """Run this script again with `code`'s api and ledger first on the path, unless they are
    the ones imported already."""
    wanted = Path(code).resolve()
    if Path(ledger.__file__).resolve().parent.parent == wanted:
        return
    if not (wanted / "ledger").is_dir() or not (wanted / "api").is_dir():
        sys.exit(f"--code {code}: no api and ledger there")
    if os.environ.get("LOO_BENCH_CODE") == str(wanted):
        sys.exit(f"--code {code}: ledger still imported from {ledger.__file__}")
    env = {**os.environ, "LOO_BENCH_CODE": str(wanted),
           "PYTHONPATH": os.pathsep.join([str(wanted), str(ROOT)])}
    os.execve(sys.executable, [sys.executable, str(Path(__file__).resolve()), *sys.argv[1:]],
              env)


def club_facts(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """The club of `--club`'s file if it was made already, else a new one (kept there)."""
    kept = Path(args.club) if args.club else None
    if kept is not None and kept.exists():
        facts = json.loads(kept.read_text())
        if facts.pop("url") != url:
            sys.exit(f"--club {kept}: made on another database")
        return {**facts, "engine": make_engine(url)}
    facts = build(url, args)
    if kept is not None:
        kept.write_text(json.dumps({"url": url, **{k: v for k, v in facts.items()
                                                    if k != "engine"}}))
    return facts


def sizes_run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The runs of `--sizes`: a club per size (kept in `--club-dir`), measured together."""
    clubs = []
    for size in (int(n) for n in args.sizes.split(",")):
        args.sessions = args.payments = size
        args.club = str(Path(args.club_dir) / f"club-{size}.json") if args.club_dir else None
        clubs.append(club_facts(args.url, args))
    measured = measure_alternating(clubs, repeat=args.repeat, only=args.only,
                                   bodies=args.bodies)
    code = str(Path(ledger.__file__).resolve().parent.parent)
    runs = [{"code": code, **{k: f[k] for k in ("sessions", "payments", "deals",
                                                "payment_append_ms", "long_session_s")},
             "reads": m} for f, m in zip(clubs, measured, strict=True)]
    clubs[0]["engine"].dispose()
    for f in clubs[1:]:
        f["engine"].dispose()
    return runs


def main() -> None:
    if sys.argv[1:2] == ["--table"]:  # the medians of earlier runs, side by side
        runs = [json.loads(Path(p).read_text()) for p in sys.argv[2:]]
        print(side_by_side([r for run in runs for r in run.get("runs", [run])]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--sessions", type=int, default=400)
    parser.add_argument("--payments", type=int, default=400)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--only", help="the reads whose name holds this text")
    parser.add_argument("--club", help="keep the club in this file and read it again")
    parser.add_argument("--code", help="serve another checkout's api and ledger")
    parser.add_argument("--bodies", type=Path, help="write each read's answer in this folder")
    parser.add_argument("--sizes", help="clubs of these sizes, e.g. 1000,10000, in one run")
    parser.add_argument("--club-dir", help="with --sizes: keep the clubs in this folder")
    args = parser.parse_args()
    if args.code:
        serve_code(args.code)
    if args.sizes:
        print(json.dumps({"runs": sizes_run(args)}))
        return
    facts = club_facts(args.url, args)
    result = {"code": str(Path(ledger.__file__).resolve().parent.parent),
              **{k: facts[k] for k in ("sessions", "payments", "deals", "payment_append_ms",
                                       "long_session_s")},
              "reads": measure(facts, repeat=args.repeat, only=args.only,
                               bodies=args.bodies)}
    facts["engine"].dispose()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
