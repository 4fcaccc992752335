"""The same generated sessions, with undos and corrections, written through the Ledger to SQLite
and to PostgreSQL: the two stores hold the same log and answer every read alike.

Each session (tests/support/sessions.py, seeded) is driven into both databases by the same
seeded driver (tests/support/through_ledger.py), so both receive the same calls. Compared:
every stored event as the API lists it, the session, every deal, the statement (JSON and
CSV), the explanation of every figure and the balance series, with only what a database
chooses for itself set aside: the session's id, its club's and its members' ids, the times
of recording and the chain's hashes, which cover them. Each store must also verify its own chain.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from ledger.sessions.service import Ledger
from ledger.store.db import make_engine
from ledger.store.tables import members
from tests.clubs import club_ledger
from tests.conftest import unreachable
from tests.support.databases import Databases, PostgresUnreachable, quick_commits
from tests.support.sessions import RandomChooser, SessionShape, play_session
from tests.support.through_ledger import drive

pytestmark = pytest.mark.postgres

# (seed, variant): each variant, with 6 to 12 deals (test_generated_sessions.py sends six
# more over HTTP to each database, against the pure core).
SESSIONS = [(3, "three-card"), (5, "irish"), (7, "five-card")]
# What a database chooses for itself (times and the hashes that cover them).
ITS_OWN = frozenset({"recorded_at", "hash", "chain_head"})


def scrubbed(value: Any, names: dict[str, str]) -> Any:
    """`value` with what the database chose set aside, and the session's id and chain head
    (in text: the CSV) given the same names."""
    if isinstance(value, dict):
        return {k: scrubbed(v, names) for k, v in value.items() if k not in ITS_OWN}
    if isinstance(value, list):
        return [scrubbed(v, names) for v in value]
    if isinstance(value, str):
        for its_own, name in names.items():
            value = value.replace(its_own, name)
    return value


def every_event(ledger: Ledger, session_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = ledger.events(session_id, after_position=after, limit=1000)
        events += page["events"]
        if page["next_after"] is None:
            return events
        after = page["next_after"]


def everything_read(ledger: Ledger, session_id: str) -> dict[str, Any]:
    session = ledger.session(session_id)
    deals = range(1, int(session["deal_no"]) + 1)
    read = {
        "events": every_event(ledger, session_id),
        "session": session,
        "deals": [ledger.deal(session_id, n) for n in deals],
        "statement": ledger.statement(session_id),
        "statement_csv": ledger.statement_csv(session_id),
        "explain": ledger.explain(session_id),
        "balance_series": ledger.balance_series(session_id),
    }
    head = read["statement"]["log"]["chain_head"]
    # The session is a club's: the club's id and its members' are the database's own too.
    with ledger.engine.connect() as conn:
        seated = {str(m.id): f"<member {m.name}>" for m in conn.execute(
            select(members.c.id, members.c.name).where(members.c.club_id == ledger.club_id))}
    return scrubbed(read, {session_id: "<session>", head: "<chain head>",
                           str(ledger.club_id): "<club>", **seated})


@pytest.fixture
def both(databases: Databases) -> Any:
    """A fresh migrated database of each kind: {backend: Ledger}."""
    made: list[tuple[str, Any]] = []
    try:
        for backend in ("sqlite", "postgresql"):
            url = databases.migrated(backend)
            made.append((url, quick_commits(make_engine(url))))
    except PostgresUnreachable as error:
        unreachable(error)
    yield {"sqlite": club_ledger(made[0][1]), "postgresql": club_ledger(made[1][1])}
    for url, engine in made:
        engine.dispose()
        databases.drop(url)


@pytest.mark.parametrize(("seed", "variant"), SESSIONS)
def test_a_generated_session_with_corrections_reads_the_same_from_both_databases(
        both, seed, variant):
    played = play_session(RandomChooser(seed), shape=SessionShape(min_deals=6, max_deals=12,
                                                                  variants=(variant,)))
    read = {}
    for backend, ledger in both.items():
        session_id = drive(ledger, played, RandomChooser(seed + 1000), p_undo=0.1,
                           p_correct=0.05)
        assert ledger.verify(session_id) == [], backend
        read[backend] = everything_read(ledger, session_id)

    sqlite, postgresql = read["sqlite"], read["postgresql"]
    types = {e["type"] for e in sqlite["events"]}
    assert "DealSettled" in types and "EntryCorrected" in types, types
    for part in sqlite:
        assert sqlite[part] == postgresql[part], part
