"""The append's fast path keeps every guarantee of the slow one (docs/performance.md).

On PostgreSQL the events, the session's row and the deal views go in one statement, the rows
as a JSON document; on SQLite the append is decided before the write lock and written under
it only if the session's row has not moved. Each test runs on both databases.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from sqlalchemy import select

from ledger.domain import ConcurrencyConflict, OpenSession
from ledger.service import Ledger
from ledger.store import eventstore as store
from ledger.store.tables import deal_views, events, sessions
from tests.integration.helpers import open_command, quick_deal, turn_up_single

AWKWARD = ["Ann \"the\" \\ Ace", "Bén", "Cat\U0001d11e", "Dan </script>", "Ève ∑ 表"]


def _open(ledger: Ledger, players: list[str] | None = None) -> tuple[str, int]:
    opened = ledger.open_session(
        OpenSession(players=players, preset="baxter-wray") if players else open_command(),
        actor="Ann")
    return opened["session_id"], opened["version"]


def _stored_events(engine, session_id: str) -> list[dict]:
    with engine.connect() as conn:
        rows = conn.execute(select(events).where(events.c.stream_id == session_id)
                            .order_by(events.c.version))
        return [dict(row._mapping) for row in rows]


def test_awkward_strings_in_payloads_read_back_as_they_were_appended(ledger, engine):
    session_id, version = _open(ledger, AWKWARD)
    first = ledger.append(session_id, [turn_up_single_for(AWKWARD)], expected_version=version,
                          actor="Ann \"the\" \\ Ace")
    view = first["session"]
    batch = ledger.append(session_id, quick_deal(view), expected_version=first["version"],
                          actor="Bén\u2028")
    stored = {row["version"]: row for row in _stored_events(engine, session_id)}
    for appended in first["appended"] + batch["appended"]:
        row = stored[appended["version"]]
        assert row["position"] == appended["position"]
        assert row["payload"] == appended["payload"]
        assert list(row["payload"]) == list(appended["payload"])  # key order kept
        assert row["type"] == appended["type"] and row["hash"] == appended["hash"]
        assert row["actor"] == appended["actor"]
    assert ledger.verify(session_id) == []


def turn_up_single_for(players: list[str]):
    from ledger.domain.commands import StartDeal

    return StartDeal(trump_card="7H", face_up=dict(zip(players, ["2C", "3C", "4C", "5C", "KS"],
                                                       strict=True)))


def test_a_batch_of_many_events_gets_increasing_positions_in_version_order(ledger, engine):
    session_id, version = _open(ledger)
    version = ledger.append(session_id, [turn_up_single()], expected_version=version,
                            actor="Ann")["version"]
    commands = []
    view = ledger.session(session_id)
    # Decide ahead on a scratch session, to know the deals' commands: twelve deals, over a
    # hundred events in one batch (more than one multi-row INSERT on SQLite).
    scratch, scratch_version = _open(ledger)
    scratch_version = ledger.append(scratch, [turn_up_single()],
                                    expected_version=scratch_version,
                                    actor="Ann")["version"]
    for _ in range(12):
        deal = quick_deal(view)
        commands += deal
        reply = ledger.append(scratch, deal, expected_version=scratch_version, actor="Ann")
        scratch_version, view = reply["version"], reply["session"]
    response = ledger.append(session_id, commands, expected_version=version, actor="Ann")
    appended = response["appended"]
    assert len(appended) > 100
    assert [e["version"] for e in appended] == list(range(version + 1, response["version"] + 1))
    positions = [e["position"] for e in appended]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    stored = _stored_events(engine, session_id)[-len(appended):]
    assert [(r["version"], r["position"], r["hash"]) for r in stored] == \
        [(e["version"], e["position"], e["hash"]) for e in appended]
    with engine.connect() as conn:
        views = dict(conn.execute(select(deal_views.c.deal_no, deal_views.c.version)
                                  .where(deal_views.c.session_id == session_id)).all())
    assert set(views) == set(range(1, 14))
    assert ledger.verify(session_id) == []
    assert response["session"] == ledger.session(session_id)


def _move_between_read_and_write(monkeypatch, engine, action) -> list[int]:
    """Run `action` (another writer) once, right after the next append first reads the
    session's row: on SQLite that read is outside the write lock, on PostgreSQL it is the
    locked read itself, so `action` must not need the row's lock there."""
    original = store.lock_for_append
    calls: list[int] = []  # the reads of the append under test
    inside: list[int] = []

    def read_then_move(conn, *args, **kwargs):
        found = original(conn, *args, **kwargs)
        if inside:  # the other writer's own reads
            return found
        calls.append(1)
        if len(calls) == 1:
            inside.append(1)
            try:
                action()
            finally:
                inside.clear()
        return found

    monkeypatch.setattr(store, "lock_for_append", read_then_move)
    return calls


@pytest.mark.parametrize("pinned", [False, True])
def test_an_append_decided_on_a_row_that_moved_is_decided_again_or_refused(
        engine, monkeypatch, pinned):
    if engine.dialect.name != "sqlite":
        pytest.skip("on PostgreSQL the first read holds the row's lock: nothing moves it")
    ledger, other = Ledger(engine), Ledger(engine)
    session_id, version = _open(ledger)
    version = ledger.append(session_id, [turn_up_single()], expected_version=version,
                            actor="Ann")["version"]
    deal = quick_deal(ledger.session(session_id))
    moved: list[int] = []
    calls = _move_between_read_and_write(monkeypatch, engine, lambda: moved.append(
        other.append(session_id, deal[:1], expected_version=version, actor="Ben")["version"]))
    if pinned:
        # The append was decided on a version that is no longer the session's: refused, as
        # if the other writer had been first outright; nothing of it is written.
        with pytest.raises(ConcurrencyConflict) as refused:
            ledger.append(session_id, deal[1:2], expected_version=version, actor="Ann")
        assert refused.value.current_version == version + 1
        assert len(calls) == 2  # read before the lock, then again under it
        assert ledger.session(session_id)["version"] == version + 1
    else:
        reply = ledger.append(session_id, deal[1:2], actor="Ann")
        assert len(calls) == 2
        assert moved == [version + 1] and reply["version"] == version + 2
        assert [e["version"] for e in reply["appended"]] == [version + 2]
        stored = _stored_events(engine, session_id)
        assert stored[-1]["hash"] == reply["appended"][0]["hash"]
        with engine.connect() as conn:
            head = conn.scalar(select(sessions.c.head_hash).where(sessions.c.id == session_id))
        assert head == reply["appended"][0]["hash"]
    assert ledger.verify(session_id) == []


def test_a_key_answered_between_the_read_and_the_write_is_replayed(engine, monkeypatch):
    if engine.dialect.name != "sqlite":
        pytest.skip("on PostgreSQL the first read holds the row's lock: nothing moves it")
    ledger, other = Ledger(engine), Ledger(engine)
    session_id, version = _open(ledger)
    first: list[dict] = []
    _move_between_read_and_write(monkeypatch, engine, lambda: first.append(other.append(
        session_id, [turn_up_single()], expected_version=version, actor="Ann",
        idempotency_key="k1")))
    again = ledger.append(session_id, [turn_up_single()], expected_version=version,
                          actor="Ann", idempotency_key="k1")
    assert again["idempotent_replay"] is True
    assert {k: v for k, v in again.items() if k != "idempotent_replay"} == \
        {k: v for k, v in first[0].items() if k != "idempotent_replay"}
    assert len(_stored_events(engine, session_id)) == version + len(first[0]["appended"])
    assert ledger.verify(session_id) == []


def test_the_state_kept_by_a_worker_is_not_used_after_another_wrote(engine):
    one, two = Ledger(engine), Ledger(make_engine_like(engine))
    try:
        session_id, version = _open(one)
        version = one.append(session_id, [turn_up_single()], expected_version=version,
                             actor="Ann")["version"]
        deal = quick_deal(one.session(session_id))
        for i, command in enumerate(deal):
            writer = (one, two)[i % 2]
            version = writer.append(session_id, [command], expected_version=version,
                                    actor="Ann")["version"]
        assert one.verify(session_id) == []
        assert one.session(session_id) == two.session(session_id)
    finally:
        two.engine.dispose()


def make_engine_like(engine):
    from ledger.store.db import make_engine

    return make_engine(engine.url)


def test_the_sqlite_writers_queue_is_held_only_for_the_transaction(engine, monkeypatch):
    """The connection is taken from the pool before the writers' queue and given back after
    it: other writers wait for the transaction, not for the pool's checkout and its reset."""
    if engine.dialect.name != "sqlite":
        pytest.skip("only a SQLite file has the writers' queue")
    from sqlalchemy import event

    from ledger import service

    ledger = Ledger(engine)
    session_id, version = _open(ledger)
    steps: list[str] = []
    event.listen(engine, "checkout", lambda *_: steps.append("checkout"))
    event.listen(engine, "checkin", lambda *_: steps.append("checkin"))
    event.listen(engine, "commit", lambda *_: steps.append("commit"))
    held = service._WriterQueue.held

    def recorded(queue):
        steps.append("queue taken")
        with held(queue):
            yield
        steps.append("queue left")

    monkeypatch.setattr(service._WriterQueue, "held", contextmanager(recorded))
    ledger.append(session_id, [turn_up_single()], expected_version=version, actor="Ann")
    writes = steps[steps.index("queue taken") - 1:]
    assert writes == ["checkout", "queue taken", "commit", "queue left", "checkin"], steps
