"""The club's books in the store, on SQLite and PostgreSQL: session results written in the
transaction that ends a session (and what a correction changes, posted beside them), the
book log append-only
and chained, and every account the sum of its entries."""

from __future__ import annotations

import secrets
from collections import Counter
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.exc import DBAPIError

from ledger.books.service import Books
from ledger.clubs.service import Actor, Clubs
from ledger.domain import LedgerError, OpenSession
from ledger.domain.accounts import SessionResult
from ledger.domain.commands import EndSession, StartDeal
from ledger.domain.events import DealSettled, PenaltyImposed
from ledger.projections import result_rows
from ledger.sessions.service import Ledger
from ledger.store import booklog as store
from ledger.store import open_store
from ledger.store.tables import book_entries, session_results, sessions
from ledger.writes import WriteRequest
from tests.support.sessions import RandomChooser, SessionShape, play_session


def new_club(engine, *names):
    clubs = Clubs(engine)
    info, admin, _ = clubs.create_club(f"club {secrets.token_hex(4)}")
    ids = {n: clubs.add_member(info["club_id"], n)["member_id"] for n in names}
    return info["club_id"], Actor("Tess", admin["member_id"]), ids


def rows(engine, session_id):
    """Each seat's result as it stands: its lines summed (a seat whose lines sum to no
    session, the session reopened, is left out)."""
    sums: dict = {}
    for r in lines(engine, session_id):
        s = sums.setdefault(r.seat, SimpleNamespace(
            currency=r.currency, member_id=r.member_id, net_minor=None,
            **dict.fromkeys(SUMMED, 0)))
        for name in SUMMED:
            setattr(s, name, getattr(s, name) + getattr(r, name))
        if r.net_minor is not None:
            s.net_minor = (s.net_minor or 0) + r.net_minor
    return {seat: s for seat, s in sums.items() if s.sessions}


SUMMED = ("net_units", "sessions", "deals_dealt", "loos", "loo_units", "penalties",
          "penalty_units")


def lines(engine, session_id, seat=None):
    """The session's lines on the books (the seat's only, if given), as posted."""
    with engine.connect() as conn:
        return [r for r in store.load_results(conn, session_id=session_id)
                if seat is None or r.seat == seat]


def single_then_end(ledger, actor, **money):
    """Deal 1, the turn-up single (Ann deals, Bob's 9H takes the pool of 3), then the end."""
    sid = ledger.open_session(OpenSession(players=["Ann", "Bob", "Cal"], **money),
                              WriteRequest(actor)).body["session_id"]
    ledger.append(sid, [StartDeal(trump_card="7H", face_up={
        "Ann": "5C", "Bob": "9H", "Cal": "KS"})], WriteRequest(actor))
    ledger.append(sid, [EndSession(method="divide-pool")], WriteRequest(actor))
    return sid


def test_ending_a_session_writes_each_seats_result_in_the_same_transaction(engine):
    club, actor, ids = new_club(engine, "Ann", "Bob", "Cal")
    ledger = Ledger(engine).for_club(club)
    sid = single_then_end(ledger, actor, currency="GBP", money_per_unit_minor=10)
    found = rows(engine, sid)
    state = ledger.session(sid)
    assert {seat: (r.net_units, r.net_minor, r.currency, r.member_id)
            for seat, r in found.items()} == {
        seat: (state["balances"][seat], state["balances"][seat] * 10, "GBP", ids[seat])
        for seat in ("Ann", "Bob", "Cal")}
    assert sum(r.net_minor for r in found.values()) == 0
    # Ann dealt the single; Ann and Cal were looed at it (docs/rules.md §10.1)
    assert found["Ann"].deals_dealt == 1 and (found["Ann"].loos, found["Cal"].loos) == (1, 1)
    assert found["Bob"].loos == 0
    assert ledger.verify(sid) == []


def test_a_correction_that_reopens_an_ended_session_posts_its_result_back_out(engine):
    club, actor, _ = new_club(engine, "Ann", "Bob", "Cal")
    ledger = Ledger(engine).for_club(club)
    sid = single_then_end(ledger, actor)
    assert len(rows(engine, sid)) == 3
    undone = ledger.undo(sid, reason="ended too soon", request=WriteRequest(actor))
    marker = undone.body["appended"][0]["version"]
    assert rows(engine, sid) == {}
    # Bob's +5 stays where it was posted; the undo posts -5 at its own time, naming itself
    assert [(r.net_units, r.sessions, r.corrected_by, r.reason)
            for r in lines(engine, sid, "Bob")] == [(5, 1, None, None),
                                                     (-5, -1, marker, "ended too soon")]
    assert ledger.verify(sid) == []
    ledger.append(sid, [EndSession(method="divide-pool")], WriteRequest(actor))
    assert [(r.net_units, r.sessions, r.corrected_by) for r in lines(engine, sid, "Bob")] \
        == [(5, 1, None), (-5, -1, marker), (5, 1, None)]
    assert len(rows(engine, sid)) == 3 and ledger.verify(sid) == []


def test_verify_finds_a_session_result_that_differs_from_the_log_and_a_rebuild_mends_it(engine):
    club, actor, _ = new_club(engine, "Ann", "Bob", "Cal")
    ledger = Ledger(engine).for_club(club)
    sid = single_then_end(ledger, actor)
    with engine.begin() as conn:
        conn.execute(update(session_results).where(session_results.c.session_id == sid,
                                                   session_results.c.seat == "Bob")
                     .values(net_units=99))
    (bob,) = lines(engine, sid, "Bob")
    assert ledger.verify(sid) == [
        f"session_results.Bob@{bob.version}.net_units: stored 99, rebuilt 5"]
    with engine.begin() as conn:
        conn.execute(delete(session_results).where(session_results.c.session_id == sid))
    Ledger(engine).rebuild(sid)
    assert ledger.verify(sid) == [] and len(rows(engine, sid)) == 3


@pytest.mark.parametrize("seed", [3, 17])
def test_a_generated_session_ended_through_the_ledger_has_the_results_the_domain_folds(
        engine, seed):
    played = play_session(RandomChooser(seed), shape=SessionShape(min_deals=3, max_deals=6))
    club, actor, _ = new_club(engine)
    ledger = Ledger(engine).for_club(club)
    opening = played.opening
    sid = ledger.open_session(opening,
                              WriteRequest(actor), guests=list(opening.players)).body["session_id"]
    for step in played.steps[1:]:
        if step.accepted:
            ledger.append(sid, [step.command], WriteRequest(actor))
        else:
            with pytest.raises(LedgerError):
                ledger.append(sid, [step.command], WriteRequest(actor))
    if played.state.status != "ended":
        ledger.append(sid, [EndSession(method="divide-pool")], WriteRequest(actor))
    state = ledger.session(sid)
    assert state["status"] == "ended"
    found = rows(engine, sid)
    loos = Counter(p for e in played.events if isinstance(e, DealSettled) for p in e.looed)
    penalties = Counter(e.player for e in played.events if isinstance(e, PenaltyImposed))
    assert set(found) == set(played.state.seats)
    for seat, row in found.items():
        assert row.net_units == state["balances"][seat]
        assert row.deals_dealt == played.state.deals_dealt.get(seat, 0)
        assert (row.loos, row.penalties) == (loos[seat], penalties[seat])
    pool = ledger.statement(sid)["pool"]
    assert sum(r.net_units for r in found.values()) == -(
        pool["current_pool_units"] + pool["next_pool_units"])
    assert ledger.verify(sid) == []


def test_the_book_log_is_append_only_in_the_database_and_chained(engine):
    club, actor, _ = new_club(engine, "Ann")
    books = Books(engine, club)
    first = books.record_payment(payer=CLUB_, payee="Ann", amount_minor=100, currency="GBP",
                                 method="cash",
                                 request=WriteRequest(actor))
    second = books.record_payment(payer="Ann", payee=CLUB_, amount_minor=60, currency="GBP",
                                  method="transfer",
                                  request=WriteRequest(actor))
    assert (first.body["seq"], second.body["seq"]) == (1, 2)
    assert books.accounts()["log"]["chain_head"] == second.body["hash"]
    for statement in (update(book_entries).values(actor="someone else"),
                      delete(book_entries)):
        with pytest.raises(DBAPIError), engine.begin() as conn:
            conn.execute(statement)
    assert books.verify() == []



def test_a_book_entry_changed_behind_the_ledgers_back_breaks_the_chain_and_verify_says_so(
        engine, database_url, capsys):
    from api.cli.main import main

    club, actor, _ = new_club(engine, "Ann")
    books = Books(engine, club)
    for amount in (100, 40):
        books.record_payment(payer=CLUB_, payee="Ann", amount_minor=amount, currency="GBP",
                             method="cash",
                             request=WriteRequest(actor))
    assert main(["verify", "--all", "--database-url", database_url]) == 0
    assert f"club {club}: the book log and the club log are whole and at their stored " \
        "heads; the members and tokens are the club log's" in capsys.readouterr().out
    with engine.begin() as conn:  # a DBA with the append-only triggers out of the way
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER book_entries_no_update"))
        else:
            conn.execute(text("ALTER TABLE book_entries DISABLE TRIGGER USER"))
        conn.execute(update(book_entries).where(book_entries.c.seq == 1)
                     .values(actor="someone else"))
    problems = books.verify()
    assert len(problems) == 1 and problems[0].startswith("book log: ")
    assert books.accounts()["log"]["chain_ok"] is False
    assert main(["verify", "--all", "--database-url", database_url]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"club {club}: its logs are not right:" in out
    assert f"  {problems[0]}" in out


CLUB_ = "club"


def test_a_write_off_may_not_exceed_the_debt_and_nothing_is_written(engine):
    club, actor, _ = new_club(engine, "Ann")
    books = Books(engine, club)
    books.record_payment(payer=CLUB_, payee="Ann", amount_minor=100, currency="GBP", method="cash",
                         request=WriteRequest(actor))
    with pytest.raises(LedgerError) as refused:
        books.write_off(member="Ann", amount_minor=101, currency="GBP", reason="gone",
                        request=WriteRequest(actor))
    assert (refused.value.rule, refused.value.field) == ("write-off-exceeds-debt",
                                                         "amount_minor")
    books.write_off(member="Ann", amount_minor=100, currency="GBP", reason="gone",
                    request=WriteRequest(actor))
    assert books.accounts()["club"]["written_off"] == {"GBP": 100}
    with engine.connect() as conn:
        assert len(store.entries(conn, club)) == 2


def test_appends_to_one_clubs_books_are_numbered_without_a_gap(engine):
    club, actor, _ = new_club(engine, "Ann")
    books = Books(engine, club)
    import threading

    def pay() -> None:
        for _ in range(5):
            books.record_payment(payer="Ann", payee=CLUB_, amount_minor=1, currency="GBP",
                                 method="cash",
                                 request=WriteRequest(actor))

    threads = [threading.Thread(target=pay) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with engine.connect() as conn:
        assert [r.seq for r in store.entries(conn, club)] == list(range(1, 16))
    assert books.verify() == []


# -- the property: random nets written through the projection writer, with payments -------------

NAMES = ("Ann", "Bob", "Cal", "Dan")
T0 = datetime(2026, 9, 1, 19, 0, tzinfo=UTC)


@st.composite
def histories(draw):
    steps = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(("session", "payment", "write-off")))
        if kind == "session":
            seated = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True))
            nets = [draw(st.integers(-40, 40)) for _ in seated[1:]]
            steps.append(("session", list(zip(seated, [-sum(nets), *nets], strict=True))))
        elif kind == "payment":
            payer, payee = draw(st.lists(st.sampled_from((*NAMES, CLUB_)), min_size=2,
                                         max_size=2, unique=True))
            steps.append(("payment", (payer, payee, draw(st.integers(1, 60)),
                                      draw(st.sampled_from(("cash", "transfer"))))))
        else:
            steps.append(("write-off", (draw(st.sampled_from(NAMES)),
                                        draw(st.integers(1, 30)))))
    return steps


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(histories())
def test_payments_and_write_offs_keep_every_account_the_sum_of_its_entries(engine, steps):
    club, actor, ids = new_club(engine, *NAMES)
    books = Books(engine, club)
    for n, (kind, what) in enumerate(steps):
        if kind == "session":
            sid = secrets.token_hex(8)
            with engine.begin() as conn:
                conn.execute(insert(sessions).values(id=sid, club_id=club, version=1, state={},
                                                     created_at=T0, updated_at=T0))
            with open_store(engine).transaction() as tx:  # as a session's end writes them
                tx.replace_results(sid, club, result_rows([
                    SessionResult(session_id=sid, seat=m, member_id=ids[m], currency="GBP",
                                  net_units=net, net_minor=net, deals_dealt=1, loos=0,
                                  loo_units=0, penalties=0, penalty_units=0,
                                  posted_at=T0 + timedelta(minutes=n), session_name=f"s{n}",
                                  version=1)
                    for m, net in what], club))
        elif kind == "payment":
            payer, payee, amount, method = what
            books.record_payment(payer=payer, payee=payee, amount_minor=amount, currency="GBP",
                                 method=method,
                                 request=WriteRequest(actor))
        else:
            member, amount = what
            owes = books.account(ids[member])["owes"].get("GBP", 0)
            if amount > owes:
                with pytest.raises(LedgerError):
                    books.write_off(member=member, amount_minor=amount, currency="GBP", reason="r",
                                    request=WriteRequest(actor))
            else:
                books.write_off(member=member, amount_minor=amount, currency="GBP", reason="r",
                                request=WriteRequest(actor))
    accounts = books.accounts()
    assert accounts["check"]["zero_sum"] and accounts["log"]["chain_ok"]
    debts = books.debts()
    owes_total = 0
    for name in NAMES:
        account = books.account(ids[name], limit=1000)
        balance = account["balances"].get("GBP", 0)
        assert balance == sum(e["amount_minor"] for e in account["entries"])
        # read two lines at a time, the pages join up to the whole account, numbered alike
        paged: list = []
        after = 0
        while after is not None:
            page = books.account(ids[name], after=after, limit=2)
            assert (page["total_entries"], page["balances"], page["open"]) == (
                account["total_entries"], account["balances"], account["open"])
            paged += page["entries"]
            after = page["next_after"]
        assert paged == account["entries"]
        assert [e["n"] for e in paged] == list(range(1, account["total_entries"] + 1))
        assert accounts["accounts"].get(f"member:{ids[name]}", {}).get("GBP", 0) == balance
        owes_total += max(-balance, 0)
        assert sum(d["amount_minor"] for d in debts["debts"] if d["member_id"] == ids[name]) \
            == max(-balance, 0)
        # the open debts are the lines his account's FIFO leaves open
        assert sorted((d["session_id"] or "", d["seq"] or 0, d["amount_minor"])
                      for d in debts["debts"] if d["member_id"] == ids[name]) == sorted(
            (o["session_id"] or "", o["seq"] or 0, o["amount_minor"]) for o in account["open"]
            if o["owes"])
    assert debts["totals"].get("GBP", 0) == owes_total
    assert [d["since"] for d in debts["debts"]] == sorted(d["since"] for d in debts["debts"])


def test_the_tables_are_created_by_the_migration(engine):
    with engine.connect() as conn:
        assert conn.execute(select(book_entries.c.seq)).all() == []
        assert conn.execute(text("SELECT count(*) FROM session_results")).scalar() == 0


def test_a_correction_that_changes_an_ended_session_posts_the_difference(engine):
    club, actor, _ = new_club(engine, "Ann", "Bob", "Cal")
    ledger = Ledger(engine).for_club(club)
    sid = single_then_end(ledger, actor)
    assert rows(engine, sid)["Bob"].net_units == 5
    # The single was misread: Cal held the KH, which beats Bob's 9H (docs/rules.md §10.1).
    ledger.correct(sid, voids=[2], replacements=[StartDeal(trump_card="7H", face_up={
        "Ann": "5C", "Bob": "9H", "Cal": "KH"})], reason="Cal's card misread",
        request=WriteRequest(actor))
    found = rows(engine, sid)
    assert ledger.session(sid)["status"] == "ended"
    assert {seat: r.net_units for seat, r in found.items()} == {
        seat: ledger.session(sid)["balances"][seat] for seat in ("Ann", "Bob", "Cal")}
    assert found["Cal"].net_units > 0 > found["Bob"].net_units
    # the first result stays as posted; the difference is posted beside it
    (first, change) = lines(engine, sid, "Bob")
    assert (first.net_units, first.corrected_by) == (5, None)
    assert (change.net_units, change.sessions, change.reason) == (
        found["Bob"].net_units - 5, 0, "Cal's card misread")
    assert change.posted_at > first.posted_at and change.corrected_by == first.version + 1
    assert ledger.verify(sid) == []
