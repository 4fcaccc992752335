"""`/accounts` and the sessions' own accounts a page at a time (docs/api.md, "/accounts";
issue 31): the sessions' accounts are not listed by `/accounts` but summed
(`club.left_in_sessions`) and paged by `/accounts/sessions` (Link header, `after`, `limit`);
across the pages every account comes once, and the pages with `/accounts` are every account
the books hold, as the unpaged sums say. The book log's chain is rehashed from the head last
verified (the header Loo-Chain-Checked-From), and a broken link after it is still caught.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from ledger.books import reads
from ledger.domain import accounts as bk
from ledger.store import open_store

from .conftest import assert_problem, every_account, session_accounts
from .test_book_register import pay
from .test_books_api import a_night


def unpaged(engine: Any, club_id: str, as_of: str | None = None) -> dict[str, dict[str, int]]:
    """Every account's balance as the books sum them, in one list (what /accounts listed
    before it was paged)."""
    with open_store(engine).consistent() as conn:
        return reads.balances(conn, club_id, reads.cut_at(conn, club_id, as_of))


def test_every_session_account_comes_once_across_the_pages_and_the_sums_hold(
        tess, club, engine):
    nights = [a_night(tess, f"Night {n}") for n in range(5)]
    pay(tess, "Ann", "club", 30)
    a_night(tess, "Unended", end=False)
    accounts = tess.get("/accounts").get_json()
    assert not any(a.startswith("session:") for a in accounts["accounts"])
    every = unpaged(engine, club.club_id)
    sessions = {a: per for a, per in every.items() if a.startswith("session:")}
    assert {f"session:{s}" for s in nights} <= set(sessions)
    for limit in (1, 2, 5, 100):  # each account once (the helper fails on a second)
        assert session_accounts(tess, limit=limit) == sessions
    # the pages and /accounts are every account, and the sums are the unpaged ones
    assert every_account(tess) == every
    assert accounts["check"] == {"sums": bk.zero_sum(every), "zero_sum": True}
    left = {c: -sum(per.get(c, 0) for per in sessions.values())
            for c in {c for per in sessions.values() for c in per}}
    assert accounts["club"]["left_in_sessions"] == {c: n for c, n in left.items() if n}
    # as of a point, the same
    assert every_account(tess, as_of="1") == unpaged(engine, club.club_id, "1")
    first = tess.get("/accounts/sessions", query_string={"limit": 2}).get_json()
    assert [s["session_id"] for s in first["sessions"]] == sorted(
        a[len("session:"):] for a in sessions)[:2]
    assert first["next_after"] == first["sessions"][-1]["session_id"]


def test_the_session_accounts_page_refuses_a_bad_limit_or_after(tess):
    assert_problem(tess.get("/accounts/sessions", query_string={"limit": 0}), 422)
    assert_problem(tess.get("/accounts/sessions", query_string={"after": "x" * 65}), 422)


def test_the_chain_is_rehashed_from_the_head_verified_and_a_later_break_is_caught(
        tess, club, engine):
    for amount in (10, 20, 30):
        pay(tess, "Ann", "club", amount)
    first = tess.get("/accounts")
    assert first.get_json()["log"]["chain_ok"] is True
    pay(tess, "Bob", "club", 40)
    second = tess.get("/accounts")
    assert second.get_json()["log"] == {**first.get_json()["log"], "entries": 4,
                                        "chain_head": second.get_json()["log"]["chain_head"]}
    # the first read verified the whole log (or an earlier test's read of the same club
    # cannot be: the club is new), the second only what came after
    assert first.headers["Loo-Chain-Checked-From"] == "0"
    assert second.headers["Loo-Chain-Checked-From"] == "3"
    pay(tess, "Cal", "club", 50)  # entry 5, after the head verified (4): changed below
    with engine.begin() as conn:  # a DBA with the append-only triggers out of the way
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER book_entries_no_update"))
        else:
            conn.execute(text("ALTER TABLE book_entries DISABLE TRIGGER USER"))
        conn.execute(text("UPDATE book_entries SET actor = 'someone else' "
                          "WHERE club_id = :c AND seq = 5"), {"c": club.club_id})
        if engine.dialect.name == "postgresql":
            conn.execute(text("ALTER TABLE book_entries ENABLE TRIGGER USER"))
    broken = tess.get("/accounts")
    log = broken.get_json()["log"]
    assert log["chain_ok"] is False and log["problem"].startswith("version 5 "), log
    assert broken.headers["Loo-Chain-Checked-From"] == "0"  # said as the whole walk finds it
