"""Writes that move the same accounts the other way round, at once, on PostgreSQL: two
sessions ending with their seats in opposite orders, and payments A to B and B to A, each
round released together by a barrier. Every write holds the kept rows it moves
(`account_balances`, `member_standings`, `session_totals`; a member's open items with his
balance) in one order before it moves any (ledger/store/openitems.py `hold`), so none
deadlocks, none is refused, and the balances and open items are the sums and the walk of
what was written. (Before the rows were held in order, the session ends' triggers moved the
members' rows in their seats' order: three runs of this test deadlocked at rounds 13, 0 and
10, PostgreSQL's DeadlockDetected on `account_balances`.)"""

from __future__ import annotations

import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert

from ledger.books.service import Books
from ledger.domain.accounts import SessionResult
from ledger.projections import result_rows
from ledger.store import open_store
from ledger.store.tables import sessions
from ledger.writes import WriteRequest

from .test_books_store import new_club

ROUNDS = 30
T0 = datetime(2026, 9, 1, 19, 0, tzinfo=UTC)


def race(calls: list[Any]) -> list[Any]:
    """Run the calls at once; each one's exception, or None."""
    barrier = threading.Barrier(len(calls))

    def run(call: Any) -> Any:
        barrier.wait()
        try:
            call()
        except Exception as error:  # noqa: BLE001 - the test lists what any of them raised
            return error
        return None

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def ending(engine: Any, club: str, ids: dict[str, str], n: int,
           seats: list[tuple[str, int]]) -> Any:
    """A session's end (its results' lines, in its seats' order, written as the session's
    write writes them), to be run."""
    sid = secrets.token_hex(8)
    with engine.begin() as conn:
        conn.execute(insert(sessions).values(id=sid, club_id=club, version=1, state={},
                                             created_at=T0, updated_at=T0))
    rows = result_rows([SessionResult(
        session_id=sid, seat=name, member_id=ids[name], currency="GBP", net_units=net,
        net_minor=net * 10, deals_dealt=1, loos=0, loo_units=0, penalties=0,
        penalty_units=0, posted_at=T0 + timedelta(minutes=n), session_name=f"s{n}",
        version=1) for name, net in seats], club)

    def end() -> None:
        with open_store(engine).transaction() as tx:
            tx.replace_results(sid, club, rows)
    return end


def test_opposing_writes_at_once_never_deadlock_and_keep_the_books(engine):
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: nothing to deadlock")
    club, actor, ids = new_club(engine, "Ann", "Bob", "Cal")
    books = Books(engine, club)
    want = {name: 0 for name in ids}
    for n in range(ROUNDS):
        calls = [
            ending(engine, club, ids, 2 * n, [("Ann", 7), ("Bob", -4), ("Cal", -3)]),
            ending(engine, club, ids, 2 * n + 1, [("Cal", 2), ("Bob", 5), ("Ann", -7)]),
            lambda: books.record_payment(payer="Ann", payee="Bob", amount_minor=3,
                                         currency="GBP", method="cash",
                                         request=WriteRequest(actor)),
            lambda: books.record_payment(payer="Bob", payee="Ann", amount_minor=2,
                                         currency="GBP", method="transfer",
                                         request=WriteRequest(actor)),
        ]
        assert race(calls) == [None] * len(calls), f"round {n}"
        for name, net in (("Ann", 70 - 70 + 3 - 2), ("Bob", -40 + 50 - 3 + 2),
                          ("Cal", -30 + 20)):
            want[name] += net
    accounts = books.accounts()["accounts"]
    assert {name: accounts[f"member:{ids[name]}"]["GBP"] for name in ids} == want
    assert books.verify() == []
