"""The treasurer's and the auditor's reads over a club of about a million events (PostgreSQL).

    createdb books_bench
    python -m bench.books_bench generate postgresql+psycopg://postgres@127.0.0.1/books_bench \
        [--events 1000000]
    python -m bench.books_bench measure postgresql+psycopg://postgres@127.0.0.1/books_bench \
        [--repeat 25] [--explain] [--only "member history"]

`generate` builds one club: 60 members, three dealers' devices, random legal sessions of the
generator (tests/support/sessions.py, as bench/rebuild_bench.py plays them: cards,
declarations, breaches, penalties) copied under new ids and new seats until the log holds
`--events` events, spread over a season; one member ("Hero") is seated in 1,000 of them (in
most of them on a smaller run), and one session has 1,000 deals. Every session is played to
its end; every copy is chained anew and its rows go in with COPY. Then `rebuild_all`
(ledger/operations/bulk.py) writes every projection the live append would have: the state and deal
views, each ended session's results per seat (`session_results`) and the as-of snapshots
every SNAPSHOT_EVERY versions; and a treasurer records a payment or two and a write-off for
the hero through `Books`, so that his account has a line of every kind. Start from an empty
database (dropdb/createdb).

`measure` serves each scenario through the app (Flask's test client, an auditor's token, the
real routes and serialisation) `--repeat` times after a warm-up, side by side in one run, and
prints one JSON line: the median and p90 in milliseconds of each. `--explain` also prints
PostgreSQL's plan (EXPLAIN ANALYZE) of each scenario's main query.

Scenarios are a list (`SCENARIOS`): each names a URL made from the facts of the database
(`Facts`: the hero's member id, the long session, a month in the middle of the season, ...).
Add one line per read to measure beside them.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from ledger.writes import WriteRequest

MEMBERS = 60
HERO = "Hero"
HERO_SESSIONS = 1000
LONG_DEALS = 1000
TEMPLATE_SEEDS = tuple(range(21, 29))
SEASON = timedelta(days=360)
START = datetime(2026, 1, 1, 19, 0, tzinfo=UTC)


def _psycopg_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


# ---------------------------------------------------------------- the scenarios


@dataclass(frozen=True)
class Facts:
    """What the scenarios' URLs are made of, read from the generated database."""

    hero_id: str
    long_session: str
    long_version: int
    offence: str  # the commonest offence
    breach: str  # the commonest breach
    since: str  # a month in the middle of the season
    until: str


@dataclass(frozen=True)
class Scenario:
    name: str
    url: Callable[[Facts], str]
    # `--explain` plans the first statement the read sends that holds each of these
    main: tuple[str, ...] = ("ORDER BY events.position",)


AS_OF_QUERIES = ("FROM snapshots",  # the nearest snapshot, then the events after it
                 "SELECT events.version, events.type, events.schema_version, events.payload")


SCENARIOS: list[Scenario] = [
    Scenario("register, first page", lambda f: "/audit/penalties?limit=100"),
    Scenario("register by offence", lambda f: f"/audit/penalties?limit=100&offence={f.offence}"),
    Scenario("register by breach", lambda f: f"/audit/penalties?limit=100&breach={f.breach}"),
    Scenario("register by member", lambda f: f"/audit/penalties?limit=100&member_id={f.hero_id}"),
    Scenario("register by time range",
             lambda f: f"/audit/penalties?limit=100&since={f.since}&until={f.until}"),
    Scenario("events by member", lambda f: f"/audit/events?limit=100&member_id={f.hero_id}"),
    Scenario("events by type", lambda f: "/audit/events?limit=100&type=TrickWon"),
    Scenario("events by time range",
             lambda f: f"/audit/events?limit=100&since={f.since}&until={f.until}"),
    Scenario("statement of the 1,000-deal session",
             lambda f: f"/sessions/{f.long_session}/statement"),
    Scenario("member history across 1,000 sessions",
             lambda f: f"/members/{f.hero_id}/account", ("FROM session_results",)),
    Scenario("as-of statement of the 1,000-deal session, mid-log",
             lambda f: f"/sessions/{f.long_session}/statement?as_of={f.long_version // 2}",
             AS_OF_QUERIES),
    Scenario("as-of statement of the 1,000-deal session, near the end",
             lambda f: f"/sessions/{f.long_session}/statement?as_of={f.long_version - 7}",
             AS_OF_QUERIES),
]


# ---------------------------------------------------------------- generate


def _templates(count: int) -> list[Any]:
    from tests.support.sessions import RandomChooser, SessionShape, play_session

    shape = SessionShape(min_deals=20, max_deals=40, p_illegal_try=0.0, p_join=0.0)
    return [play_session(RandomChooser(seed), shape=shape, session_id="template")
            for seed in TEMPLATE_SEEDS[:count]]


def _long_session() -> Any:
    from tests.support.sessions import RandomChooser, SessionShape, play_session

    shape = SessionShape(min_deals=LONG_DEALS, max_deals=LONG_DEALS, p_illegal_try=0.0,
                         p_join=0.0)
    return play_session(RandomChooser(99), shape=shape, session_id="template")


class _Copier:
    """A played session, ready to be written under any id with any seats."""

    def __init__(self, played: Any):
        from ledger.domain import event_from_record, event_to_record
        from ledger.domain.state import to_json
        from ledger.projections import fold_events

        records = [event_to_record(e) for e in played.events]
        state, folding = fold_events(
            "@@SID@@", ((v, event_from_record(*r)) for v, r in enumerate(records, 1)))
        self.players = list(played.opening.players)
        self.records = [(t, v, json.dumps(p)) for t, v, p in records]
        self.state = to_json(state)
        self.views = dict(folding.views)

    def seated(self, text: str, seats: dict[str, str]) -> str:
        for old, new in seats.items():
            text = text.replace(f'"{old}"', f'"@@{new}@@"')
        return text.replace('"@@', '"').replace('@@"', '"')


def generate(url: str, events: int) -> dict[str, Any]:
    from ledger.clubs.service import Clubs
    from ledger.operations.bulk import rebuild_all
    from ledger.store.chain import link, session_genesis, utc_iso
    from ledger.store.db import make_engine
    from ledger.store.migrate import upgrade

    started = time.perf_counter()
    upgrade(url)
    engine = make_engine(url)
    clubs = Clubs(engine)
    club, admin, _ = clubs.create_club("Bench club")
    names = [HERO, *(f"M{i:02d}" for i in range(MEMBERS - 1))]
    member_ids = {n: clubs.add_member(club["club_id"], n)["member_id"] for n in names}
    dealers = [(n, member_ids[n], clubs.create_token(club["club_id"], n, "dealer",
                                                     f"tablet {i}")["token_id"])
               for i, n in enumerate(names[1:4], start=1)]
    engine.dispose()

    copiers = [_Copier(p) for p in _templates(len(TEMPLATE_SEEDS))]
    long_copier = _Copier(_long_session())
    average = sum(len(c.records) for c in copiers) / len(copiers)
    sessions_planned = max(1, round((events - len(long_copier.records)) / average))
    rng = random.Random(5)
    hero_in = set(rng.sample(range(sessions_planned), min(HERO_SESSIONS,
                                                          round(sessions_planned * 0.6))))
    written = count = 0
    with psycopg.connect(_psycopg_url(url)) as conn:
        plan = [(i, copiers[i % len(copiers)]) for i in range(sessions_planned)]
        plan.insert(sessions_planned // 2, (-1, long_copier))
        for i, copier in plan:
            others = rng.sample(names[1:], len(copier.players))
            if i in hero_in:
                others[rng.randrange(len(others))] = HERO
            seats = dict(zip(copier.players, others, strict=True))
            sid = f"books{count:07d}"
            at = START + SEASON * count / (sessions_planned + 1)
            dealer = dealers[count % len(dealers)]
            _write(conn, sid, copier, seats, {s: member_ids[s] for s in others}, at, dealer,
                   link, session_genesis(sid, club["club_id"]), utc_iso)
            conn.commit()
            written += len(copier.records)
            count += 1
    copied = time.perf_counter()
    # the projections the live append writes as it goes: each ended session's results and
    # the as-of snapshots every SNAPSHOT_EVERY versions (and the state and views again)
    engine = make_engine(url)
    rebuild_all(engine)
    rebuilt = time.perf_counter()
    payments = _hero_payments(engine, club["club_id"], member_ids)
    engine.dispose()
    # as autovacuum would leave it: statistics, and the visibility map for index-only scans
    with psycopg.connect(_psycopg_url(url), autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        counts = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # type: ignore[index]
                  for table in ("session_results", "snapshots", "book_entries")}
        hero_results = conn.execute(
            "SELECT count(*) FROM session_results WHERE member_id = %s",
            (member_ids[HERO],)).fetchone()[0]  # type: ignore[index]
    return {"events": written, "sessions": count, "hero_sessions": hero_results,
            "long_session_events": len(long_copier.records), **counts,
            "hero_book_entries": payments,
            "seconds": round(time.perf_counter() - started, 1),
            "rebuild_seconds": round(rebuilt - copied, 1)}


def _hero_payments(engine: Any, club_id: str, member_ids: dict[str, str]) -> int:
    """A few of the hero's book entries, through the books as a treasurer records them: a
    payment each way and a write-off, so his account has a line of every kind."""
    from ledger.books.service import Books
    from ledger.clubs.service import Actor, Clubs

    treasurer = Clubs(engine).create_token(club_id, "M00", "treasurer", "bench treasurer")
    actor = Actor("M00", member_ids["M00"], treasurer["token_id"])
    books = Books(engine, club_id)
    hero = member_ids[HERO]
    balances = books.account(hero, limit=1)["balances"]
    money = [c for c in balances if c != "units"] or list(balances) or ["units"]
    currency = money[0]
    balance = balances.get(currency, 0)
    entries = 2
    if balance > -1000:  # the club pays him what he is owed and more: now he owes 1,000
        books.record_payment(payer="club", payee=hero, amount_minor=balance + 1000,
                             currency=currency, method="transfer",
                             request=WriteRequest(actor))
        entries += 1
    books.record_payment(payer=hero, payee="club", amount_minor=600, currency=currency,
                         method="cash", note="on account",
                         request=WriteRequest(actor))
    books.write_off(member=hero, amount_minor=100, currency=currency,
                    reason="a rounding the club forgave",
                    request=WriteRequest(actor))
    return entries


def _write(conn: Any, sid: str, copier: _Copier, seats: dict[str, str],
           members: dict[str, str], at: datetime, dealer: tuple[str, str, str],
           link: Any, prev: str, utc_iso: Any) -> None:
    actor, member_id, token_id = dealer
    club_id = conn.execute("SELECT id FROM clubs WHERE name = 'Bench club'").fetchone()[0]
    buffer = io.StringIO()
    for version, (type_, schema_version, text) in enumerate(copier.records, start=1):
        payload = json.loads(copier.seated(text, seats))
        if version == 1:
            payload["members"] = members
        recorded = utc_iso(at + timedelta(seconds=2 * version))
        row = {"stream_id": sid, "version": version, "type": type_,
               "schema_version": schema_version, "payload": payload, "recorded_at": recorded,
               "actor": actor, "member_id": member_id, "token_id": token_id,
               "idempotency_key": None}
        prev = link(row, prev)
        buffer.write("\t".join([club_id, sid, str(version), type_, str(schema_version),
                                _copy_text(json.dumps(payload)), recorded, actor, member_id,
                                token_id, prev]))
        buffer.write("\n")
    state = json.loads(copier.seated(copier.state.replace("@@SID@@", sid), seats))
    state["members"] = members
    # every row of a club's session carries its club (docs/operations.md)
    with conn.cursor() as cur:
        cur.execute(
            "INSERT INTO sessions (id, club_id, version, state, head_hash, created_at, "
            "updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (sid, club_id, len(copier.records), json.dumps(state), prev, at, at))
        with cur.copy("COPY events (club_id, stream_id, version, type, schema_version, "
                      "payload, recorded_at, actor, member_id, token_id, hash) FROM STDIN"
                      ) as copy:
            copy.write(buffer.getvalue())
        with cur.copy("COPY deal_views (club_id, session_id, deal_no, version, view) "
                      "FROM STDIN") as copy:
            for deal_no, view in copier.views.items():
                copy.write_row((club_id, sid, deal_no, len(copier.records),
                                copier.seated(view.replace("@@SID@@", sid), seats)))


def _copy_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


# ---------------------------------------------------------------- measure


def facts(url: str) -> Facts:
    with psycopg.connect(_psycopg_url(url)) as conn:
        hero = conn.execute("SELECT id FROM members WHERE name = %s", (HERO,)).fetchone()
        long = conn.execute("SELECT id, version FROM sessions ORDER BY version DESC LIMIT 1"
                            ).fetchone()
        offence = conn.execute(
            "SELECT payload ->> 'offence' FROM events WHERE type = 'PenaltyImposed' "
            "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()
        breach = conn.execute(
            "SELECT payload ->> 'rule' FROM events WHERE type = 'BreachDetected' "
            "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").fetchone()
        first, last = conn.execute("SELECT min(recorded_at), max(recorded_at) FROM events"
                                   ).fetchone()  # type: ignore[misc]
    assert hero and long and offence and breach
    middle = first + (last - first) / 2
    return Facts(hero_id=hero[0], long_session=long[0], long_version=long[1],
                 offence=offence[0], breach=breach[0],
                 since=middle.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                 until=(middle + timedelta(days=30)).astimezone(UTC)
                 .strftime("%Y-%m-%dT%H:%M:%SZ"))


def measure(url: str, *, repeat: int, explain: bool, only: str | None = None
            ) -> dict[str, Any]:
    from sqlalchemy import event

    from api import create_app
    from ledger.clubs.service import Clubs
    from ledger.store.db import make_engine

    found = facts(url)
    engine = make_engine(url)
    clubs = Clubs(engine)
    club = clubs.club("Bench club")
    token = clubs.create_token(club["club_id"], "admin", "auditor", "bench")["token"]
    app = create_app({"ENGINE": engine, "AUTO_MIGRATE": False, "TESTING": True,
                      "LOG_LEVEL": "WARNING"})
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    out: dict[str, Any] = {"events": _count(url), "repeat": repeat, "scenarios": {}}
    plans: dict[str, str] = {}
    for scenario in SCENARIOS:
        if only is not None and only not in scenario.name:
            continue
        path = scenario.url(found)
        for _ in range(3):  # warm-up: connections, prepared statements, caches
            response = client.get(path, headers=headers)
            assert response.status_code == 200, (path, response.get_data(as_text=True))
        timings = []
        for _ in range(repeat):
            began = time.perf_counter()
            response = client.get(path, headers=headers)
            response.get_data()
            timings.append((time.perf_counter() - began) * 1000)
        timings.sort()
        body = response.get_json()
        rows = len(body["entries"]) if isinstance(body.get("entries"), list) else next(
            (len(v) for v in body.values() if isinstance(v, list)), None)
        out["scenarios"][scenario.name] = {
            "url": path, "median_ms": round(statistics.median(timings), 2),
            "p90_ms": round(timings[max(0, int(len(timings) * 0.9) - 1)], 2), "rows": rows}
        if explain:
            statements: list[tuple[str, Any]] = []

            def seen(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
                     executemany: bool, into: list[tuple[str, Any]] = statements) -> None:
                into.append((statement, parameters))

            event.listen(engine, "before_cursor_execute", seen)
            client.get(path, headers=headers)
            event.remove(engine, "before_cursor_execute", seen)
            found_plans = []
            for marker in scenario.main:
                main = [s for s in statements if marker in s[0]]
                if main:
                    with engine.connect() as conn:
                        found_plans += conn.exec_driver_sql(
                            "EXPLAIN (ANALYZE, COSTS OFF) " + main[0][0], main[0][1]
                        ).scalars().all()
            if found_plans:
                plans[scenario.name] = "\n".join(found_plans)
    engine.dispose()
    if explain:
        out["plans"] = plans
    return out


def _count(url: str) -> int:
    with psycopg.connect(_psycopg_url(url)) as conn:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])  # type: ignore[index]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("action", choices=["generate", "measure"])
    parser.add_argument("url")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--only", help="the scenarios whose name holds this text")
    args = parser.parse_args(argv)
    if args.action == "generate":
        print(json.dumps(generate(args.url, args.events)))
        return 0
    result = measure(args.url, repeat=args.repeat, explain=args.explain, only=args.only)
    plans = result.pop("plans", {})
    print(json.dumps(result))
    for name, plan in plans.items():
        print(f"\n-- {name}\n{plan}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
