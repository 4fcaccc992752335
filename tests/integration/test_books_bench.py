"""The books benchmark's club is what the live ledger would have left (PostgreSQL).

bench/books_bench.py writes its log with COPY, so its projections are checked here on a
small run: every session ended with its seats' results, the as-of snapshots where the live
append keeps them, nothing `verify --all` would report, and a hero whose account has a line
of every kind. The full-size measurement is docs/audit.md's.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from bench import books_bench
from ledger.books.service import Books
from ledger.operations.bulk import verify_all
from ledger.sessions.service import SNAPSHOT_EVERY


def test_a_small_benchmark_club_has_the_projections_an_append_leaves_and_a_full_account(
        engine, database_url, monkeypatch):
    if engine.dialect.name != "postgresql":
        pytest.skip("the benchmark writes with PostgreSQL's COPY")
    monkeypatch.setattr(books_bench, "LONG_DEALS", 30)
    monkeypatch.setattr(books_bench, "TEMPLATE_SEEDS", (21, 22))
    made = books_bench.generate(database_url, 3000)

    with engine.connect() as conn:
        def one(sql: str, **params: object) -> object:
            return conn.execute(text(sql), params).scalar()

        sessions = one("SELECT count(*) FROM sessions")
        assert made["sessions"] == sessions and made["events"] == one(
            "SELECT count(*) FROM events")
        # every session ended, and each of its seats has its result
        assert one("SELECT count(*) FROM sessions WHERE state ->> 'status' = 'ended'") \
            == sessions
        assert one("SELECT count(DISTINCT session_id) FROM session_results") == sessions
        hero = one("SELECT id FROM members WHERE name = 'Hero'")
        assert made["hero_sessions"] == one(
            "SELECT count(*) FROM session_results WHERE member_id = :hero", hero=hero) > 0
        # a snapshot at every SNAPSHOT_EVERY versions of every session
        assert made["snapshots"] == one(
            f"SELECT sum(version / {SNAPSHOT_EVERY}) FROM sessions")
        club = one("SELECT id FROM clubs WHERE name = 'Bench club'")

    assert all(found == [] for found in verify_all(engine, workers=1).values())
    books = Books(engine, str(club))
    account = books.account(str(hero), limit=1000)
    kinds = [e["kind"] for e in account["entries"]]
    assert set(kinds) == {"session", "payment", "write-off"}
    assert kinds.count("session") == made["hero_sessions"]
    assert books.verify() == [] and books.accounts()["check"]["zero_sum"]


def test_the_accounts_benchmark_reads_every_books_read_of_a_small_club_and_tables_runs(
        database_url):
    """bench/accounts_bench.py on a small club (the full sizes, up to 10,000 sessions and
    10,000 book entries, are docs/performance.md's): every read answers, the paged lists
    their first page, and two runs are tabled side by side."""
    import argparse

    from bench import accounts_bench

    args = argparse.Namespace(sessions=30, payments=30, deals=2)
    facts = accounts_bench.build(database_url, args)
    try:
        run = {"sessions": 30, "payments": 30,
               "reads": accounts_bench.measure(facts, repeat=1, only=None)}
        books = Books(facts["engine"], facts["club"])
        assert set(run["reads"]) == set(accounts_bench.reads(facts))
        assert all(r["median_ms"] > 0 for r in run["reads"].values())
        assert len(books.debts()["debts"]) > 0 and books.accounts()["check"]["zero_sum"]
        bigger = {**run, "sessions": 300, "reads": {
            name: {**r, "median_ms": r["median_ms"] * 2} for name, r in run["reads"].items()}}
        table = accounts_bench.side_by_side([run, bigger]).splitlines()
        assert table[0] == ("| read | 30 sessions, 30 payments | 300 sessions, 30 payments "
                            "| last / first |")
        assert len(table) == 2 + len(run["reads"]) and table[2].endswith("| 2.0 x |")
    finally:
        facts["engine"].dispose()

