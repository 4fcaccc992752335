"""Time from one clock: the database's stamps every entry of every log (a session's events,
the book log, the club log) and judges pairing codes, so that an app host whose clock is ten
minutes behind changes nothing: its entries carry the database's time, a read as of a time
never changes after the fact, a session read as of before it opened is refused, and a code
it shows is good on every host. (SQLite lives on one host, whose clock is the database's.)"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, select, text

from ledger.books.accountreads import CHECKED_FROM
from ledger.books.reads import Filters
from ledger.books.service import Books
from ledger.clubs.tablets import Tablets
from ledger.domain import InvalidInput, OpenSession
from ledger.sessions.service import Ledger
from ledger.store.tables import book_entries, club_log, events
from ledger.writes import WriteRequest
from tests.clubs import GuestLedger, club_ledger
from tests.integration.helpers import open_command, turn_up_single
from tests.integration.test_chains import new_club

BEHIND = timedelta(minutes=10)


class _SlowClock(datetime):
    """datetime, whose now() is this host's clock ten minutes behind."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return datetime.now(tz) - BEHIND


@pytest.fixture
def slow_host(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """This app host's clock ten minutes behind: every module of the ledger and the API that
    reads the time reads it from a slow clock (undo with `slow_host.undo()`)."""
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("ledger", "api") and getattr(module, "datetime", None) \
                is datetime:
            monkeypatch.setattr(module, "datetime", _SlowClock)
    yield monkeypatch


def database_now(engine: Engine) -> datetime:
    with engine.connect() as conn:
        return conn.execute(text("SELECT clock_timestamp()")).scalar_one().astimezone(UTC)


def figures(accounts: dict[str, Any]) -> dict[str, Any]:
    """The accounts' figures, without where this process began rehashing the chain (a
    header's matter: ledger/books/accountreads.py CHECKED_FROM)."""
    return {k: v for k, v in accounts.items() if k != CHECKED_FROM}


def pay(books: Books, actor: Any, amount: int = 100) -> None:
    books.record_payment(payer="club", payee="Ann", amount_minor=amount, currency="GBP",
                         method="cash", request=WriteRequest(actor))


@pytest.mark.backends("postgresql")
def test_a_slow_hosts_entries_carry_the_databases_time(engine: Engine, slow_host: Any) -> None:
    before = database_now(engine)
    club_id, actor, _ = new_club(engine)  # the club log: created, members, a token
    pay(Books(engine, club_id), actor)
    ledger = GuestLedger(engine, club_id=club_id)
    sid = ledger.open_session(open_command(), WriteRequest("scorer")).body["session_id"]
    ledger.append(sid, [turn_up_single()], WriteRequest("scorer"))
    after = database_now(engine)
    with engine.connect() as conn:
        stamps = [*conn.scalars(select(club_log.c.recorded_at)
                                .where(club_log.c.club_id == club_id)),
                  *conn.scalars(select(book_entries.c.recorded_at)
                                .where(book_entries.c.club_id == club_id)),
                  *conn.scalars(select(events.c.recorded_at).where(events.c.stream_id == sid))]
    assert len(stamps) >= 7
    assert all(before <= stamp <= after for stamp in stamps), (before, stamps, after)


@pytest.mark.backends("postgresql")
def test_a_read_as_of_a_time_does_not_change_when_a_slow_host_writes_after_it(
        engine: Engine, slow_host: Any) -> None:
    club_id, actor, _ = new_club(engine)
    books = Books(engine, club_id)
    pay(books, actor, 100)
    at = database_now(engine).isoformat()
    then = figures(books.accounts(as_of=at))
    register = books.register(filters=Filters(), as_of=at)
    pay(books, actor, 40)  # after `at`, by a host whose clock says it is ten minutes earlier
    assert figures(books.accounts(as_of=at)) == then
    assert books.register(filters=Filters(), as_of=at) == register
    assert books.accounts()["log"]["entries"] == 2


@pytest.mark.backends("postgresql")
def test_a_session_read_as_of_before_it_opened_is_refused_on_a_slow_host(
        engine: Engine, slow_host: Any) -> None:
    ledger = club_ledger(engine)
    opened = database_now(engine)
    sid = ledger.open_session(open_command(), WriteRequest("scorer")).body["session_id"]
    ledger.append(sid, [turn_up_single()], WriteRequest("scorer"))
    a_minute_before = (opened - timedelta(minutes=1)).isoformat()
    for read in (ledger.session, ledger.statement, ledger.explain, ledger.balance_series):
        with pytest.raises(InvalidInput) as refused:
            read(sid, as_of=a_minute_before)
        assert refused.value.rule == "as-of-in-range"
    now = ledger.session(sid, as_of=database_now(engine).isoformat())
    assert now["version"] == ledger.session(sid)["version"] > 1


@pytest.mark.backends("postgresql")
def test_a_code_a_slow_host_shows_is_good_on_every_host(engine: Engine, slow_host: Any
                                                        ) -> None:
    club_id, actor, _ = new_club(engine)
    sid = Ledger(engine).for_club(club_id).open_session(
        OpenSession(players=["Ann", "Bob", "Cal"], first_dealer="Ann"),
        WriteRequest(actor)).body["session_id"]
    made = Tablets(engine).create_code(club_id, sid, created_by=str(actor.member_id),
                                       member=str(actor.member_id))
    assert datetime.fromisoformat(made["expires_at"]) > database_now(engine) \
        + timedelta(minutes=9)
    slow_host.undo()  # the tablet reaches a host whose clock is right
    paired = Tablets(engine).exchange(made["code"])
    assert paired["session_id"] == sid
