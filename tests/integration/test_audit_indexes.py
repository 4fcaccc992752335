"""PostgreSQL reads the register's pages off migration 0006's indexes on a large log.

A hundred thousand events in one club (written straight into the table: only the plans
matter here), analysed; then each query the register sends is EXPLAINed as it was sent.
The full-size measurement is bench/books_bench.py (docs/audit.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, text

from ledger.audit.queries import Audit, Filters
from ledger.clubs.service import Clubs
from ledger.store.db import make_engine

EVENTS = 100_000
SESSIONS = 400


@pytest.fixture
def big_club(engine, database_url):
    if engine.dialect.name != "postgresql":
        pytest.skip("the plans are PostgreSQL's")
    clubs = Clubs(engine)
    club, admin, _ = clubs.create_club("Plans")
    hero = clubs.add_member(club["club_id"], "Hero")
    loader = make_engine(database_url, operator=True)  # no request deadline for the load
    with loader.begin() as conn:
        # The planner's inputs are made the data's own, not a sample's: the analyses below
        # read every row (300 x the statistics target rows are sampled), and no autoanalyze
        # of a sample replaces them afterwards. With sampled statistics one CI run in
        # several found the told-cards page costed a hair cheaper through the register.
        conn.execute(text("ALTER TABLE events SET (autovacuum_enabled = false)"))
        conn.execute(text("ALTER TABLE sessions SET (autovacuum_enabled = false)"))
        conn.execute(text("SET LOCAL default_statistics_target = 10000"))
        conn.execute(text(
            "INSERT INTO sessions (id, club_id, version, state, created_at, updated_at) "
            "SELECT 's' || g, :club, 500, '{}', now(), now() FROM generate_series(1, :n) g"),
            {"club": club["club_id"], "n": SESSIONS})
        # Every 40th event a penalty (one in twenty of them for told-cards), every 97th a
        # breach (one in five for a revoke); twelve players in turn, Hero one of them.
        conn.execute(text("""
            INSERT INTO events (club_id, stream_id, version, type, schema_version, payload,
                                recorded_at, actor)
            SELECT :club, 's' || (1 + g % CAST(:sessions AS int)), 1 + g / CAST(:sessions AS int),
                   CASE WHEN g % 40 = 0 THEN 'PenaltyImposed'
                        WHEN g % 97 = 0 THEN 'BreachDetected' ELSE 'CardPlayed' END,
                   1,
                   json_build_object('deal_no', 1, 'player',
                                     (ARRAY['A','B','C','D','E','F','G','H','I','J','K','Hero'])[
                                         1 + (g / 7) % 12],
                                     'offence', CASE WHEN (g / 40) % 20 = 0 THEN 'told-cards'
                                                ELSE (ARRAY['revoke', 'misdeal'])[1 + g % 2] END,
                                     'rule', CASE WHEN g % 5 = 0 THEN 'revoke'
                                             ELSE 'not-heading' END,
                                     'law', 'a law', 'amount_units', 3,
                                     'destination', 'pool', 'detected', false,
                                     'postings', json_build_array(), 'detail', 'a card',
                                     'members', json_build_object('Hero', CAST(:hero AS text))),
                   timestamptz '2026-01-01' + g * interval '1 minute', 'bench'
            FROM generate_series(1, :n) g"""),
            {"club": club["club_id"], "sessions": SESSIONS, "n": EVENTS,
             "hero": hero["member_id"]})
        conn.execute(text("ANALYZE events"))
        conn.execute(text("ANALYZE sessions"))
    loader.dispose()
    return Audit(engine, club_id=club["club_id"]), hero["member_id"]


def plan_of(audit: Audit, run: Any) -> str:
    """PostgreSQL's plan of the page's main query, as the register sent it."""
    sent: list[tuple[str, Any]] = []

    def seen(conn, cursor, statement, parameters, context, executemany):
        sent.append((statement, parameters))

    event.listen(audit.engine, "before_cursor_execute", seen)
    try:
        run()
    finally:
        event.remove(audit.engine, "before_cursor_execute", seen)
    statement, parameters = next(s for s in sent if "ORDER BY events.position" in s[0])
    with audit.engine.connect() as conn:
        return "\n".join(conn.exec_driver_sql("EXPLAIN " + statement, parameters).scalars())


def test_the_register_pages_read_the_indexes_in_order(big_club):
    audit, hero = big_club
    first = plan_of(audit, lambda: audit.penalties(limit=100))
    assert "Index Scan using ix_events_register on events" in first, first
    assert "Sort" not in first, first
    # A filtered page reads the filter's own index (a sort of the few rows it finds is the
    # planner's choice on a log this small), or the register in order; never the table.
    offence = plan_of(audit, lambda: audit.penalties(Filters(offence="told-cards")))
    assert "using ix_events_offence on events" in offence, offence
    month = Filters(since=datetime(2026, 1, 20, tzinfo=UTC), until=datetime(2026, 2, 20,
                                                                            tzinfo=UTC))
    for filters, own in ((Filters(breach="revoke"), "ix_events_breach"),
                         (Filters(member_id=hero), "ix_events_player"),
                         (month, "ix_events_register_time")):
        plan = plan_of(audit, lambda f=filters: audit.penalties(f))
        assert any(f"using {index} on events" in plan
                   for index in (own, "ix_events_register")), plan
        assert "Seq Scan on events" not in plan, plan
    # and the pages hold what was asked
    page = audit.penalties(Filters(offence="told-cards"), limit=100)
    assert len(page["entries"]) == 100 and page["next_after"] is not None  # of 125
    assert {e["offence"] for e in page["entries"]} == {"told-cards"}
