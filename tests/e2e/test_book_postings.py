"""The book log's postings' table (`book_postings`, migration 0015) is a projection kept by
the books' one write, on SQLite and PostgreSQL (docs/books.md, "The postings' table and the
kept sums"): after a month of payments, a reversal, a write-off, a cash count, a late
correction, a closing and a reversal in the closed month, the table is the fold of the log,
row for row, and its sums are the fold's at every book position; verify names a table (or a
kept balance) that is not; `lanterloo migrate` writes it again from the log, and the
upgrade to 0015 fills it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from alembic import command
from sqlalchemy import delete, func, select, update

from api.cli.main import main
from ledger.books import postings, reads
from ledger.books.service import Books
from ledger.store import booklog as store
from ledger.store.db import connection_for
from ledger.store.migrate import alembic_config, upgrade
from ledger.store.tables import account_balances, book_postings

from .clock import past_month
from .test_beancount import books_of_the_month
from .test_closing import close


def a_month_closed(tess: Any, monkeypatch: Any) -> None:
    """The Beancount test's month (sessions, payments, a reversal, a write-off, a cash
    count, a late correction), closed, then its first payment reversed in the open month."""
    month = past_month()
    books_of_the_month(tess, monkeypatch, month)
    closed = close(tess, month)
    assert closed.status_code == 201, closed.get_json()
    reversed_ = tess.post("/book-entries/1/reversal", json={"reason": "paid by cheque"})
    assert reversed_.status_code == 201, reversed_.get_json()
    assert reversed_.get_json()["payload"]["closed_period"] == month


def compared(row: Any) -> tuple[Any, ...]:
    return postings._compared(row)


def fold_sums(conn: Any, club_id: str, seq: int) -> dict[tuple[str, str], int]:
    """Every account's sum per currency over the log's postings up to `seq`, folded."""
    sums: Counter[tuple[str, str]] = Counter()
    log = reads.Log.read(conn, club_id, reads.Cut(seq=seq))
    for entry_postings in log.postings.values():
        for p in entry_postings:
            sums[(p.account, p.currency)] += p.amount
    return dict(sums)


def test_the_postings_table_is_the_fold_of_the_log_after_a_month(tess, club, monkeypatch,
                                                                   engine):
    a_month_closed(tess, monkeypatch)
    with engine.connect() as conn:
        log = store.entries(conn, club.club_id)
        table = store.postings(conn, club.club_id)
        assert [compared(r) for r in table] == \
            [compared(r) for r in postings.folded(club.club_id, log)]
        # every kind of entry that moves money is there; the closing and the count are not
        assert {r.type for r in table} == {"PaymentRecorded", "EntryReversed",
                                           "DebtWrittenOff"}
        assert {r.type for r in log} >= {"PeriodClosed", "CashCounted"}
        # the database's sums are the fold's at every position of the log (as-of reads)
        for seq in range(1, len(log) + 1):
            summed = {(a, c): n for a, c, n in store.posting_sums(conn, club.club_id,
                                                                  up_to=seq)}
            assert summed == fold_sums(conn, club.club_id, seq), seq
    assert Books(engine, club.club_id).verify() == []


def test_verify_names_postings_and_balances_that_are_not_the_logs_and_migrate_rebuilds_them(
        tess, club, monkeypatch, engine, capsys):
    a_month_closed(tess, monkeypatch)
    books = Books(engine, club.club_id)
    p = book_postings.c
    with engine.begin() as conn:
        conn.execute(delete(book_postings).where(p.club_id == club.club_id, p.seq == 2))
        conn.execute(update(book_postings).where(p.club_id == club.club_id, p.seq == 1,
                                                 p.n == 0).values(amount_minor=11))
        b = account_balances.c
        conn.execute(update(account_balances).where(
            b.club_id == club.club_id, b.account == f"member:{club.members['Ann']}")
            .values(amount_minor=b.amount_minor + 1000))
    found = books.verify()
    assert any("entry 2 posting 0" in line and "is not in the table" in line
               for line in found), found
    assert any(line.startswith(f"account_balances: member:{club.members['Ann']} GBP holds")
               for line in found), found
    assert any("entry 1 posting 0" in line and "GBP 11)" in line
               and "is not the book log's" in line for line in found), found
    url = engine.url.render_as_string(hide_password=False)
    assert main(["migrate", "--database-url", url]) == 0
    assert f"club {club.club_id}: its postings' table rebuilt" in capsys.readouterr().out
    assert books.verify() == []
    accounts = tess.get("/accounts").get_json()
    assert accounts["check"]["zero_sum"]
    assert {m["name"]: m["balances"] for m in accounts["members"] if m["balances"]} == {
        "Ann": {"GBP": -30}, "Bob": {"GBP": -10}, "Cal": {"GBP": 40}}


@pytest.mark.isolated
def test_the_upgrade_to_0015_fills_the_table_from_the_book_logs(tess, club, monkeypatch,
                                                                 engine):
    a_month_closed(tess, monkeypatch)
    with engine.connect() as conn:
        before = [compared(r) for r in store.postings(conn, club.club_id)]
    assert before
    with connection_for(engine) as conn:  # back to before the table, then up again
        config = alembic_config()
        config.attributes["connection"] = conn
        command.downgrade(config, "0014")
    upgrade(engine)
    with engine.connect() as conn:
        assert [compared(r) for r in store.postings(conn, club.club_id)] == before
        assert conn.scalar(select(func.count()).select_from(book_postings)) == len(before)
    assert Books(engine, club.club_id).verify() == []
