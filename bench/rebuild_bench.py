"""Rebuild and verify every session of a database of about a million events.

    python -m bench.rebuild_bench generate URL [--events 1000000]
    python -m bench.rebuild_bench measure URL      # prints one JSON line

`generate` plays a few random legal sessions in memory (tests/support/sessions.py: cards,
declarations, breaches, penalties, quick entry), then copies them under new session ids
until the log holds `--events` events: each copy is chained anew (its own hashes) and gets
its projections (the `sessions` row, every deal view, the as-of snapshots at every
multiple of the ledger's interval and, for an ended session, its rows of `session_results`)
as a live append would have left them. Rows go in with COPY.

`measure` times, on that database and in this order:

- `fold`: the baseline, a plain fold of every event (psycopg rows, `event_from_record`,
  `evolve`, one process), with no views, no hashes and nothing compared;
- `verify`: `ledger.operations.bulk.verify_all` (one pass, a process per CPU) when the code under
  test has it, else `Ledger.verify` for each session in turn (what the command line did before);
  with the bulk pass, `Ledger.verify` is also timed on a few sessions and scaled up to the
  whole log, for a before/after in the same run;
- `rebuild`: `ledger.operations.bulk.rebuild_all` (every projection written anew), then `verify_all`
  again.

It is run as a separate process by bench/run.py so that the code under test can be another
checkout (PYTHONPATH).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

TEMPLATE_SEEDS = (11, 12, 13, 14)
SAMPLE_SESSIONS = 8
RESULT_COLUMNS = ("session_id", "seat", "session_name", "club_id", "member_id", "currency",
                  "net_units", "net_minor", "deals_dealt", "loos", "loo_units", "penalties",
                  "penalty_units", "posted_at", "version", "sessions", "corrected_by",
                  "reason")
TEMPLATE_DEALS = 120


def _psycopg_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def templates() -> list[tuple[list[tuple[str, int, dict[str, Any]]], Any]]:
    """[(records, played)] for a few random sessions, played in memory."""
    from ledger.domain import event_to_record
    from tests.support.sessions import RandomChooser, SessionShape, play_session

    out = []
    for seed in TEMPLATE_SEEDS:
        shape = SessionShape(min_deals=TEMPLATE_DEALS, max_deals=TEMPLATE_DEALS,
                             p_illegal_try=0.0)
        played = play_session(RandomChooser(seed), shape=shape, session_id="template")
        out.append(([event_to_record(e) for e in played.events], played))
    return out


def generate(url: str, events: int) -> dict[str, Any]:
    from ledger.clubs.service import Clubs
    from ledger.domain import event_from_record
    from ledger.domain.accounts import session_results
    from ledger.domain.state import to_json
    from ledger.projections import (
        SHAPE,
        SNAPSHOT_EVERY,
        fold_events,
        result_rows,
        snapshot_states,
    )
    from ledger.store.chain import link, session_genesis, utc_iso
    from ledger.store.db import make_engine
    from ledger.store.migrate import upgrade

    upgrade(url)
    started = time.perf_counter()
    made = templates()
    engine = make_engine(url)
    try:  # every session is a club's, its seats its members, every row names it
        clubs = Clubs(engine)
        club = clubs.create_club(f"Rebuild bench {time.time_ns()}")[0]["club_id"]
        names = sorted({p for records, _ in made for p in records[0][2]["players"]} |
                       {r[2]["player"] for records, _ in made for r in records
                        if r[0] == "PlayerJoined"})
        ids = {name: clubs.add_member(club, name)["member_id"] for name in names}
    finally:
        engine.dispose()
    for records, _ in made:
        records[0][2]["members"] = {p: ids[p] for p in records[0][2]["players"]}
        for type_, _, payload in records:
            if type_ == "PlayerJoined":
                payload["member"] = ids[payload["player"]]
    at = datetime(2026, 1, 1, tzinfo=UTC)
    # The projections of each template, as a live append leaves them; the session id is the
    # only thing in them that differs from copy to copy.
    folded = []
    for records, _ in made:
        log = [(v, event_from_record(*r)) for v, r in enumerate(records, start=1)]
        state, folding = fold_events("@@SID@@", log)
        # the rows of `session_results` of an ended session, and the as-of snapshots
        results = session_results(state, [(v, e, at + timedelta(seconds=v)) for v, e in log])
        kept = snapshot_states("@@SID@@", log, range(SNAPSHOT_EVERY, len(log) + 1,
                                                     SNAPSHOT_EVERY))
        # Written as the append writes them (`to_json`).
        folded.append((to_json(state), folding.views, results, kept))
    written = sessions = 0
    with psycopg.connect(_psycopg_url(url)) as conn:
        while written < events:
            records, _ = made[sessions % len(made)]
            state_json, views, results, kept = folded[sessions % len(made)]
            sid = f"bench{sessions:08d}"
            sessions += 1
            prev = session_genesis(sid, club)
            buffer = io.StringIO()
            for version, (type_, schema_version, payload) in enumerate(records, start=1):
                recorded = at + timedelta(seconds=version)
                row = {"stream_id": sid, "version": version, "type": type_,
                       "schema_version": schema_version, "payload": payload,
                       "recorded_at": utc_iso(recorded), "actor": "bench", "member_id": None,
                       "token_id": None, "idempotency_key": None}
                prev = link(row, prev)
                buffer.write("\t".join([
                    club, sid, str(version), type_, str(schema_version),
                    _copy_text(json.dumps(payload)), row["recorded_at"], "bench", prev]))
                buffer.write("\n")
            with conn.cursor() as cur:
                cur.execute(
                    "INSERT INTO sessions (id, club_id, version, state, head_hash, created_at,"
                    " updated_at, shape) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (sid, club, len(records), state_json.replace("@@SID@@", sid), prev, at, at,
                     SHAPE))
                with cur.copy("COPY events (club_id, stream_id, version, type, schema_version,"
                              " payload, recorded_at, actor, hash) FROM STDIN") as copy:
                    copy.write(buffer.getvalue())
                with cur.copy("COPY deal_views (club_id, session_id, deal_no, version, view) "
                              "FROM STDIN") as copy:
                    for deal_no, view in views.items():
                        copy.write_row((club, sid, deal_no, len(records), view))
                with cur.copy("COPY snapshots (club_id, session_id, version, state) "
                              "FROM STDIN") as copy:
                    for version, text in kept.items():
                        copy.write_row((club, sid, version, text.replace("@@SID@@", sid)))
                with cur.copy(f"COPY session_results ({', '.join(RESULT_COLUMNS)}) "
                              "FROM STDIN") as copy:
                    for r in results:
                        row = result_rows([r], club)[0]
                        row["session_id"], row["version"] = sid, len(records)
                        copy.write_row(tuple(row[c] for c in RESULT_COLUMNS))
            conn.commit()
            written += len(records)
        with conn.cursor() as cur:
            # The deal views' version column is the session's version when last written;
            # verify compares views, not that column, so any value does.
            cur.execute("ANALYZE")
        conn.commit()
    return {"events": written, "sessions": sessions,
            "seconds": round(time.perf_counter() - started, 1)}


def _copy_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def fold_baseline(url: str) -> tuple[int, float]:
    """Every event read with plain psycopg and folded with `evolve`: no views, no hashes."""
    from ledger.domain import event_from_record
    from ledger.domain.evolve import evolve

    started = time.perf_counter()
    count = 0
    with psycopg.connect(_psycopg_url(url)) as conn, conn.cursor(name="fold") as cur:
        cur.itersize = 10_000
        cur.execute("SELECT stream_id, type, schema_version, payload FROM events "
                    "ORDER BY stream_id, version")
        current, state = None, None
        for stream_id, type_, schema_version, payload in cur:
            if stream_id != current:
                current, state = stream_id, None
            state = evolve(state, event_from_record(type_, schema_version, payload),
                           session_id=stream_id)
            count += 1
    return count, time.perf_counter() - started


def measure(url: str, *, skip_fold: bool = False) -> dict[str, Any]:
    from ledger.sessions.service import Ledger
    from ledger.store.db import make_engine

    out: dict[str, Any] = {}
    if not skip_fold:
        cpu = _cpu()
        out["fold_events"], out["fold_s"] = fold_baseline(url)
        out["fold_cpu_s"] = _cpu() - cpu
    engine = make_engine(url)
    ledger = Ledger(engine)
    with psycopg.connect(_psycopg_url(url)) as conn:
        out["events"] = conn.execute("SELECT count(*) FROM events").fetchone()[0]  # type: ignore[index]
        ids = [r[0] for r in conn.execute("SELECT id FROM sessions ORDER BY id")]
    out["sessions"] = len(ids)
    try:
        from ledger.operations import bulk
    except ImportError:  # older code: verify session by session, as the command line did
        bulk = None  # type: ignore[assignment]
    if bulk is None:
        started = time.perf_counter()
        problems = {sid: p for sid in ids if (p := ledger.verify(sid))}
        out["verify_how"] = "verify per session"
        out["verify_s"] = time.perf_counter() - started
        out["verify_problems"] = len(problems)
        engine.dispose()
        return out
    # The old way on a sample, for a before/after in the same run: Ledger.verify session by
    # session, scaled up to every event.
    sample = ids[:SAMPLE_SESSIONS]
    started = time.perf_counter()
    sample_problems = sum(1 for sid in sample if ledger.verify(sid))
    elapsed = time.perf_counter() - started
    with psycopg.connect(_psycopg_url(url)) as conn:
        sample_events = conn.execute("SELECT count(*) FROM events WHERE stream_id = ANY(%s)",
                                     (sample,)).fetchone()[0]  # type: ignore[index]
    out["per_session_sample"] = {"sessions": len(sample), "events": sample_events,
                                 "seconds": elapsed, "problems": sample_problems,
                                 "per_million_s": elapsed / max(sample_events, 1) * 1e6}
    out["workers"] = bulk.workers_for(out["events"])
    started, cpu = time.perf_counter(), _cpu()
    problems = bulk.verify_all(engine)
    out["verify_s"] = time.perf_counter() - started
    out["verify_cpu_s"] = _cpu() - cpu
    out["verify_how"] = f"ledger/operations/bulk.py verify_all, {out['workers']} processes"
    out["verify_problems"] = sum(1 for p in problems.values() if p)
    started, cpu = time.perf_counter(), _cpu()
    rebuilt = bulk.rebuild_all(engine)
    out["rebuild_s"] = time.perf_counter() - started
    out["rebuild_cpu_s"] = _cpu() - cpu
    out["rebuilt_sessions"] = len(rebuilt)
    started, cpu = time.perf_counter(), _cpu()
    out["verify_after_rebuild_problems"] = sum(1 for p in bulk.verify_all(engine).values() if p)
    out["verify_again_s"] = time.perf_counter() - started
    out["verify_again_cpu_s"] = _cpu() - cpu
    # what each pass costs an event, whatever else the host is doing
    for name in ("fold", "verify", "rebuild", "verify_again"):
        if f"{name}_cpu_s" in out:
            out[f"{name}_cpu_us_per_event"] = round(out[f"{name}_cpu_s"] / out["events"] * 1e6,
                                                    1)
    engine.dispose()
    return out


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the bulk pass's workers):
    what the work costs whatever else the host is doing."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["generate", "measure"])
    parser.add_argument("url")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--skip-fold", action="store_true")
    args = parser.parse_args(argv)
    if args.action == "generate":
        print(json.dumps(generate(args.url, args.events)))
    else:
        print(json.dumps(measure(args.url, skip_fold=args.skip_fold)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
