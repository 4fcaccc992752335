"""Every check reads a log and its stored head in one snapshot, so that the books never cry
wolf: while payments and a session's appends commit beside them, `/accounts`' chain_ok, the
books' verify, a session's verify and `lanterloo verify --all` find nothing wrong. (On
PostgreSQL's READ COMMITTED each statement saw a moment of its own: the log read before a
payment committed and its stored head after it, "entries were deleted", in most reads.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import uuid4

import pytest
from sqlalchemy import Engine, select

from api.cli.main import main
from ledger.books.service import Books
from ledger.operations.bulk import verify_all
from ledger.store import booklog, clublog, open_store
from ledger.store.db import NotOneSnapshot
from ledger.store.tables import book_entries, events
from ledger.writes import WriteRequest
from tests.clubs import club_ledger
from tests.integration.helpers import open_command, quick_deal, turn_up_single
from tests.integration.test_chains import new_club

SECONDS = 8.0  # at most, racing (a few hundred checks take 2-3 s on an idle machine)
READS = 300  # checks at most; at least MIN_READS while the writers ran
MIN_READS = 50
PAUSE = 0.002  # between two writes of one writer (the checks get the processor too)


def _until(stop: threading.Event, errors: list[BaseException],
           work: Callable[[], None]) -> Callable[[], None]:
    def run() -> None:
        try:
            while not stop.is_set():
                work()
                time.sleep(PAUSE)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
            stop.set()
    return run


def test_no_check_cries_wolf_while_payments_and_appends_commit(engine: Engine,
                                                               capsys: Any) -> None:
    club_id, actor, _ = new_club(engine)
    books = Books(engine, club_id)
    ledger = club_ledger(engine)
    sid = ledger.open_session(open_command(), WriteRequest("scorer")).body["session_id"]
    ledger.append(sid, [turn_up_single()], WriteRequest("scorer"))
    paid = [0, 0]

    def pay(payee: str, n: int) -> Callable[[], None]:
        def one() -> None:
            books.record_payment(payer="club", payee=payee, amount_minor=1, currency="GBP",
                                 method="cash", request=WriteRequest(actor))
            paid[n] += 1
        return one

    def deal() -> None:  # each command an append of its own, with a key
        for command in quick_deal(ledger.session(sid)):
            ledger.append(sid, [command], WriteRequest("scorer", idempotency_key=uuid4().hex))

    stop, errors = threading.Event(), []
    writers = [threading.Thread(target=_until(stop, errors, work)) for work in
               (pay("Ann", 0), pay("Bob", 1), deal)]
    for writer in writers:
        writer.start()

    def accounts() -> list[str]:
        log = books.accounts()["log"]
        return [] if log["chain_ok"] else [f"/accounts: {log['problem']}"]

    checks: list[Callable[[], list[str]]] = [
        accounts, books.verify, accounts, lambda: ledger.verify(sid), accounts, books.verify,
        accounts, lambda: [p for ps in verify_all(engine).values() for p in ps]]
    alarms: list[str] = []
    reads = 0
    url = engine.url.render_as_string(hide_password=False)
    deadline = time.monotonic() + SECONDS
    try:
        while reads < READS and time.monotonic() < deadline and not stop.is_set():
            alarms += checks[reads % len(checks)]()
            reads += 1
            if reads % 100 == 30:  # the operator's command, now and then
                code = main(["verify", "--all", "--database-url", url])
                if code != 0:
                    alarms.append(f"lanterloo verify --all: exit {code}: "
                                  f"{capsys.readouterr().out}")
    finally:
        stop.set()
        for writer in writers:
            writer.join()
    assert errors == []
    assert alarms == [], f"{len(alarms)} false alarms in {reads} reads: {alarms[:3]}"
    assert reads >= MIN_READS and min(paid) > 0  # the reads raced the writes
    assert books.accounts()["log"]["entries"] == sum(paid)
    # stamped by one clock once each log was held: times run in the logs' order
    with engine.connect() as conn:
        for times in (conn.scalars(select(book_entries.c.recorded_at).where(
                book_entries.c.club_id == club_id).order_by(book_entries.c.seq)).all(),
                conn.scalars(select(events.c.recorded_at).where(
                    events.c.stream_id == sid).order_by(events.c.version)).all()):
            assert times == sorted(times)


def test_a_log_and_its_head_are_compared_only_in_one_snapshot(engine: Engine) -> None:
    club_id, _, _ = new_club(engine)
    stream = clublog.books_stream(club_id)
    with engine.connect() as conn, pytest.raises(NotOneSnapshot):
        clublog.head_problems(conn, stream, "head", 0, "")
    with open_store(engine).consistent() as conn:
        assert booklog.verify_chain(conn, club_id, booklog.entries(conn, club_id))[1] is None
