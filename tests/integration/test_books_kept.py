"""The book postings and the kept sums (migration 0015) over generated histories, on SQLite
and PostgreSQL: whatever the order of results posted, corrected and taken back, payments,
reversals and write-offs, and a closing, `book_postings` is the fold of the book log and
`account_balances` and `member_standings` are the sums of the postings and the results'
lines (Books.verify says nothing), and the reads of now say what the same reads as of the
log's last position say (summed from the tables, not kept)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert, select

from ledger.books import reads
from ledger.books.closing import Periods
from ledger.books.service import Books
from ledger.domain import LedgerError
from ledger.domain.accounts import SessionResult
from ledger.domain.periods import period_of
from ledger.projections import result_rows
from ledger.store import open_store
from ledger.store.tables import session_results, sessions
from ledger.writes import WriteRequest

from .test_books_store import NAMES, T0, new_club

KINDS = ("session", "session", "correction", "adjusted", "taken back", "payment",
         "payment", "reversal", "write-off", "close")


@st.composite
def months(draw):
    return [(draw(st.sampled_from(KINDS)), draw(st.integers(0, 10**6)))
            for _ in range(draw(st.integers(3, 14)))]


def post_session(engine, club, ids, n, seed):
    """A session's result of 2-4 members, zero-sum, posted at T0 + n hours (the projection
    writer's rows, as the session's end writes them)."""
    sid = secrets.token_hex(8)
    seated = [NAMES[(seed + k) % len(NAMES)] for k in range(2 + seed % 3)]
    nets = [(seed >> k) % 41 - 20 for k in range(1, len(seated))]
    with engine.begin() as conn:
        conn.execute(insert(sessions).values(id=sid, club_id=club, version=1, state={},
                                             created_at=T0, updated_at=T0))
    post(engine, club, sid, result_rows([
            SessionResult(session_id=sid, seat=m, member_id=ids[m], currency="GBP",
                          net_units=net, net_minor=net * 10, deals_dealt=2, loos=seed % 2,
                          loo_units=3, penalties=seed % 3, penalty_units=1,
                          posted_at=T0 + timedelta(hours=n), session_name=f"s{n}",
                          version=1)
            for m, net in zip(seated, [-sum(nets), *nets], strict=True)], club))
    return sid


def post(engine, club, sid, rows):
    """The session's results' lines written anew, as its end, a correction and a rebuild
    write them (the store's write: the kept sums by the triggers, the open items by it)."""
    with open_store(engine).transaction() as tx:
        tx.replace_results(sid, club, rows)


def lines_of(engine, sid):
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(
            select(session_results).where(session_results.c.session_id == sid))]


def same_as_the_walk(books):
    """The open items of now (the kept table's) are the walk's to the end of time, and
    their pages of two put together are the whole list."""
    end = reads.Cut(at=reads.END_OF_TIME, seq=reads.MAX_SEQ, asked="the end")
    with books.store.consistent() as conn:
        now = reads.open_items(conn, books.club_id, reads.NOW)
        walked = reads.open_items(conn, books.club_id, end)
    walked.pop("as_of")
    assert now == walked
    for side, read in (("debts", books.debts), ("payables", books.payables)):
        pages, after = [], 0
        while after is not None:
            page = read(after=after, limit=2)
            assert page["totals"] == now[f"{side}_totals"]
            pages += page[side]
            after = page["next_after"]
        assert pages == now[side] == read()[side]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(months())
def test_a_generated_month_keeps_the_postings_and_the_sums_the_logs(engine, steps):
    club, actor, ids = new_club(engine, *NAMES)
    books = Books(engine, club)
    posted: list[str] = []
    paid: list[int] = []
    for n, (kind, seed) in enumerate(steps):
        request = WriteRequest(actor)
        try:
            if kind == "session":
                posted.append(post_session(engine, club, ids, n, seed))
            elif kind == "correction" and posted:  # a seat's net changed (the relabel path)
                sid = posted[seed % len(posted)]
                post(engine, club, sid, [{**r, "net_minor": r["net_minor"] + 10 * (seed % 7),
                                    "member_id": ids[NAMES[seed % len(NAMES)]]}
                                   for r in lines_of(engine, sid)])
            elif kind == "adjusted" and posted:  # a correction's difference, posted later
                sid = posted[seed % len(posted)]
                first = lines_of(engine, sid)
                post(engine, club, sid, first + [
                    {**r, "version": 100 + n, "net_minor": -r["net_minor"] + seed % 5 - 2,
                     "corrected_by": 100 + n, "reason": "miscounted", "sessions": 0,
                     "posted_at": T0 + timedelta(hours=n)} for r in first
                    if r["corrected_by"] is None][:1])
            elif kind == "taken back" and posted:  # a rebuild that posts nothing
                post(engine, club, posted.pop(seed % len(posted)), [])
            elif kind == "payment":
                payer, payee = NAMES[seed % 4], ("club", NAMES[(seed + 1) % 4])[seed % 2]
                paid.append(books.record_payment(
                    payer=payer, payee=payee, amount_minor=1 + seed % 90, currency="GBP",
                    method="cash", request=request).body["seq"])
            elif kind == "reversal" and paid:
                books.reverse(paid.pop(seed % len(paid)), reason="typed wrong",
                              request=request)
            elif kind == "write-off":
                books.write_off(member=NAMES[seed % 4], amount_minor=1 + seed % 30,
                                currency="GBP", reason="gone", request=request)
            elif kind == "close":
                Periods(books).close(period_of(T0), request=request)
        except LedgerError:
            pass  # refused (more than he owes, closed already): nothing appended
        # after every write: the open items kept are the walk's (verify compares them), and
        # the pages of now read from them are what the walk as of the last entry lists
        assert books.verify() == []
        same_as_the_walk(books)
    last = str(books.accounts()["log"]["entries"])
    if last != "0":  # now (the kept sums) against as of the last entry (summed)
        for read in (books.accounts, books.debts, books.payables, books.settle_up):
            now, then = read(), read(as_of=last)
            then.pop("as_of")
            if read == books.accounts:  # a read of now also checks the stored head
                now.pop("log"), then.pop("log")
            assert now == then, read.__name__
    standings = books.standings()
    assert standings == {**books.standings(until=T0 + timedelta(days=365)),
                         "until": None}
