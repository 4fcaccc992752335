"""Verify covers what is kept beside the logs, not only the projections: a snapshot row
deleted (an append that crossed a multiple of the interval kept one, a rebuild keeps the
multiple itself), and a stored answer to an Idempotency-Key edited (a session's write, a book
entry, a token issued: each made again from its log), are found by `Ledger.verify`, the
books' verify and `lanterloo verify --all`; a retry would else be told what never happened."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, delete, select, update

from ledger.books.service import Books
from ledger.clubs.service import Clubs
from ledger.clubs.tokens import issue_token
from ledger.sessions.service import Ledger
from ledger.store.tables import idempotency_keys, snapshots
from ledger.writes import WriteRequest
from tests.clubs import club_ledger
from tests.integration.helpers import open_command, quick_deal, turn_up_single
from tests.integration.test_chains import new_club, verify_all_exit


def long_session(ledger: Ledger, past: int) -> str:
    """A session past version `past`, each deal appended in one write with a key."""
    def keyed(n: int) -> WriteRequest:
        return WriteRequest("scorer", idempotency_key=f"k-{n}")

    sid = ledger.open_session(open_command(), keyed(0)).body["session_id"]
    ledger.append(sid, [turn_up_single()], keyed(1))
    n = 2
    while ledger.session(sid)["version"] <= past:
        ledger.append(sid, quick_deal(ledger.session(sid)), keyed(n))
        n += 1
    return sid


def answers(engine: Engine, scope_like: str) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(select(idempotency_keys)
                                 .where(idempotency_keys.c.scope.like(scope_like))
                                 .order_by(idempotency_keys.c.created_at)))


def edit_answer(engine: Engine, row: Any, body: dict[str, Any]) -> None:
    with engine.begin() as conn:
        conn.execute(update(idempotency_keys).where(idempotency_keys.c.scope == row.scope,
                                                    idempotency_keys.c.key == row.key)
                     .values(response=body))


def test_a_deleted_snapshot_is_found_and_a_rebuild_keeps_it_again(engine: Engine,
                                                                  capsys: Any) -> None:
    ledger = club_ledger(engine, snapshot_every=10)
    sid = long_session(ledger, 25)
    with engine.connect() as conn:
        kept = sorted(conn.scalars(select(snapshots.c.version)
                                   .where(snapshots.c.session_id == sid)))
    # one where each write that reached a multiple of 10 ended
    assert len(kept) == ledger.session(sid)["version"] // 10 > 1
    assert ledger.verify(sid) == []
    with engine.begin() as conn:
        conn.execute(delete(snapshots).where(snapshots.c.session_id == sid,
                                             snapshots.c.version == kept[1]))
    found = ledger.verify(sid)
    assert found == [f"snapshots: none at version 20 or at {kept[1]}, where the write that "
                     "reached version 20 ends: a snapshot was deleted"]
    assert ledger.verify_report(sid)["ok"] is False
    ledger.rebuild(sid)  # keeps every multiple of SNAPSHOT_EVERY (100): none here
    assert Ledger(engine).verify(sid) == []


def test_a_deleted_snapshot_fails_lanterloo_verify(engine: Engine, capsys: Any) -> None:
    ledger = club_ledger(engine)  # the service's interval, as the command line verifies it
    sid = long_session(ledger, 100)
    assert verify_all_exit(engine, capsys)[0] == 0
    with engine.begin() as conn:
        conn.execute(delete(snapshots).where(snapshots.c.session_id == sid))
    code, out = verify_all_exit(engine, capsys)
    assert code == 1
    assert "  snapshots: none at version 100 or at " in out


def test_an_edited_answer_to_a_sessions_write_is_found(engine: Engine) -> None:
    ledger = club_ledger(engine)
    sid = long_session(ledger, 12)
    assert ledger.verify(sid) == []  # every answer, the opening's among them, as made
    [opened] = [a for a in answers(engine, "open%") if a.response["session_id"] == sid]
    [dealt] = answers(engine, sid)[1:2]
    edit_answer(engine, opened, {**opened.response, "session": {
        **opened.response["session"], "name": "Wednesday"}})
    appended = [dict(e) for e in dealt.response["appended"]]
    appended[0]["payload"] = {**appended[0]["payload"], "trump_card": "9H"}
    edit_answer(engine, dealt, {**dealt.response, "appended": appended})
    found = ledger.verify(sid)
    assert sorted(found) == sorted([
        f"idempotency_keys.open:{ledger.club_id}/k-0: session: not the view of the state at "
        f"version {opened.response['version']}, which the log folds to",
        f"idempotency_keys.{sid}/k-2: appended.0.payload: answered "
        f"{appended[0]['payload']!r}, the log's {dealt.response['appended'][0]['payload']!r}",
    ])


def test_an_answer_moved_to_another_version_is_found(engine: Engine) -> None:
    ledger = club_ledger(engine)
    sid = long_session(ledger, 12)
    [dealt] = answers(engine, sid)[:1]
    edit_answer(engine, dealt, {**dealt.response, "version": dealt.response["version"] + 1})
    assert any(p.startswith(f"idempotency_keys.{sid}/k-1: version: answered ")
               for p in ledger.verify(sid))


def test_an_edited_answer_to_a_payment_or_a_token_is_found(engine: Engine,
                                                           capsys: Any) -> None:
    club_id, actor, clubs = new_club(engine)
    books = Books(engine, club_id)
    books.record_payment(payer="club", payee="Ann", amount_minor=100, currency="GBP",
                         method="cash", request=WriteRequest(actor, idempotency_key="pay-1"))
    issue_token(Clubs(engine), club_id, "Ann", "member", "Ann's phone", expires_in_days=None,
                request=WriteRequest(actor, idempotency_key="tok-1"))
    assert books.verify() == []
    [paid] = answers(engine, f"books:{club_id}:%")
    [issued] = answers(engine, f"tokens:{club_id}:%")
    edit_answer(engine, paid, {**paid.response, "payload": {
        **paid.response["payload"], "amount_minor": 10}})
    edit_answer(engine, issued, {**issued.response, "role": "admin"})
    found = books.verify()
    assert found == [
        f"idempotency_keys.{paid.scope}/pay-1.payload: answered "
        f"{ {**paid.response['payload'], 'amount_minor': 10}!r}, the book log's "
        f"{paid.response['payload']!r}",
        f"idempotency_keys.{issued.scope}/tok-1.role: answered 'admin', the club log's "
        "'member'"]
    code, out = verify_all_exit(engine, capsys)
    assert code == 1 and f"club {club_id}: its logs are not right:" in out


def test_the_answers_of_a_corrected_session_hold_and_an_edited_one_is_found(
        engine: Engine) -> None:
    ledger = club_ledger(engine)
    sid = long_session(ledger, 12)
    ledger.undo(sid, reason="the last trick was Ann's",
                request=WriteRequest("scorer", idempotency_key="undo-1"))
    assert ledger.verify(sid) == []  # the states the answers name fold across the correction
    [undone] = [a for a in answers(engine, sid) if a.key == "undo-1"]
    session = undone.response["session"]
    edit_answer(engine, undone, {**undone.response, "session": {
        **session, "balances": {**session["balances"], "Ann": session["balances"]["Ann"] + 1}}})
    assert ledger.verify(sid) == [
        f"idempotency_keys.{sid}/undo-1: session: not the view of the state at version "
        f"{undone.response['version']}, which the log folds to"]


def test_an_answer_of_several_book_entries_is_held_entry_by_entry(engine: Engine) -> None:
    club_id, actor, _ = new_club(engine)
    books = Books(engine, club_id)
    for n in (1, 2):
        books.record_payment(payer="club", payee="Ann", amount_minor=10 * n, currency="GBP",
                             method="cash",
                             request=WriteRequest(actor, idempotency_key=f"pay-{n}"))
    first, second = answers(engine, f"books:{club_id}:%")
    # the form of an answer to a write of several entries: each, and the last one's seq
    edit_answer(engine, first, {"entries": [first.response], "version": 1})
    assert books.verify() == []
    edit_answer(engine, second, {"entries": [second.response], "version": 3})
    assert books.verify() == [
        f"idempotency_keys.{second.scope}/pay-2.version: answered 3, its last entry is 2"]
