"""The one write path, from the store's side (ledger/store/base.py): what each database's
`Tx.write_session` writes, and the version check that guards it. Each test runs on both
databases.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from ledger.domain import ConcurrencyConflict, OpenSession
from ledger.sessions.service import Ledger
from ledger.store import open_store
from ledger.store.base import SessionWrite, VersionMoved
from ledger.store.chain import chain_rows
from ledger.store.tables import deal_views, events, idempotency_keys, sessions, snapshots
from ledger.writes import WriteRequest
from tests.clubs import club_ledger
from tests.integration.helpers import open_command, quick_deal, turn_up_single

pytestmark = pytest.mark.partitioned  # and on PostgreSQL partitioned by club

AWKWARD = ["Ann \"the\" \\ Ace", "Bén", "Cat\U0001d11e", "Dan </script>", "Ève ∑ 表"]


def _open(ledger: Ledger, players: list[str] | None = None) -> tuple[str, int]:
    command = OpenSession(players=players, preset="baxter-wray") if players else open_command()
    opened = ledger.open_session(command, WriteRequest("Ann"))
    return opened.body["session_id"], opened.version


def _stored_events(engine, session_id: str) -> list[dict]:
    with engine.connect() as conn:
        rows = conn.execute(select(events).where(events.c.stream_id == session_id)
                            .order_by(events.c.version))
        return [dict(row._mapping) for row in rows]


def test_awkward_strings_in_payloads_read_back_as_they_were_appended(ledger, engine):
    session_id, version = _open(ledger, AWKWARD)
    first = ledger.append(session_id, [turn_up_single_for(AWKWARD)],
                          WriteRequest("Ann \"the\" \\ Ace", expected_version=version))
    view = first.body["session"]
    batch = ledger.append(session_id, quick_deal(view),
                          WriteRequest("Bén\u2028", expected_version=first.version))
    stored = {row["version"]: row for row in _stored_events(engine, session_id)}
    for appended in first.body["appended"] + batch.body["appended"]:
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
    version = ledger.append(session_id, [turn_up_single()],
                            WriteRequest("Ann", expected_version=version)).body["version"]
    commands = []
    view = ledger.session(session_id)
    # Decide ahead on a scratch session, to know the deals' commands: twelve deals, over a
    # hundred events in one batch (more than one multi-row INSERT on SQLite).
    scratch, scratch_version = _open(ledger)
    scratch_version = ledger.append(scratch, [turn_up_single()], WriteRequest(
        "Ann", expected_version=scratch_version)).version
    for _ in range(12):
        deal = quick_deal(view)
        commands += deal
        reply = ledger.append(scratch, deal, WriteRequest("Ann", expected_version=scratch_version))
        scratch_version, view = reply.version, reply.body["session"]
    response = ledger.append(session_id, commands, WriteRequest("Ann", expected_version=version))
    appended = response.body["appended"]
    assert len(appended) > 100
    assert [e["version"] for e in appended] == list(range(version + 1, response.version + 1))
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
    assert response.body["session"] == ledger.session(session_id)


def test_a_write_from_a_version_the_session_is_not_at_raises_version_moved_and_writes_nothing(
        ledger, engine):
    session_id, version = _open(ledger)
    store = open_store(engine)
    before = _stored_events(engine, session_id)
    rows = chain_rows(session_id, version + 1, [("ReplayWaived", 1, {"deal_no": 1})],
                      actor="Ann", recorded_at=datetime.now(UTC), idempotency_key=None,
                      member_id=None, token_id=None, prev_hash=before[-1]["hash"])
    stale = SessionWrite(session_id, ledger.club_id, old_version=version - 1,
                         version=version + 1, rows=rows, state_json="{}", views={1: "{}"},
                         last=True, snapshot=True)
    with pytest.raises(VersionMoved), store.transaction() as tx:
        # something written before it in the same transaction goes with it: not committed
        tx.keep_reply("scope", "earlier", club_id=ledger.club_id, fingerprint="f", body={},
                      now=datetime.now(UTC))
        tx.write_session(stale)
    with pytest.raises(VersionMoved), store.transaction() as tx:
        tx.write_session(stale)  # alone in its transaction (on PostgreSQL: one statement)
    assert _stored_events(engine, session_id) == before
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(idempotency_keys)
                           .where(idempotency_keys.c.key == "earlier")) == 0
    with engine.connect() as conn:
        assert conn.scalar(select(sessions.c.version).where(sessions.c.id == session_id)) \
            == version
        assert conn.scalar(select(deal_views.c.view).where(
            deal_views.c.session_id == session_id)) is None
        assert conn.scalar(select(func.count()).select_from(snapshots)
                           .where(snapshots.c.session_id == session_id)) == 0
    assert ledger.verify(session_id) == []


def test_a_version_moved_under_a_write_is_a_conflict_naming_the_current_version(
        ledger, engine, monkeypatch):
    """Should the store find the row elsewhere than the head it was read at (it cannot
    while the row is held, but the check is the store's to make), the write is refused as
    a conflict with the version the log is at, and nothing is appended."""
    session_id, version = _open(ledger)
    original = SessionWrite.__init__

    def one_behind(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if self.old_version is not None:
            self.old_version -= 1

    monkeypatch.setattr(SessionWrite, "__init__", one_behind)
    with pytest.raises(ConcurrencyConflict) as refused:
        ledger.append(session_id, [turn_up_single()],
                      WriteRequest("Ann", expected_version=version))
    assert refused.value.current_version == version
    assert len(_stored_events(engine, session_id)) == version


def test_the_sqlite_writers_queue_is_held_only_for_the_transaction(engine, monkeypatch):
    """The connection is taken from the pool before the writers' queue and given back after
    it: other writers wait for the transaction, not for the pool's checkout and its reset."""
    if engine.dialect.name != "sqlite":
        pytest.skip("only a SQLite file has the writers' queue")
    from sqlalchemy import event

    from ledger.store.sqlite import WriterQueue

    ledger = club_ledger(engine)
    session_id, version = _open(ledger)
    steps: list[str] = []
    event.listen(engine, "checkout", lambda *_: steps.append("checkout"))
    event.listen(engine, "checkin", lambda *_: steps.append("checkin"))
    event.listen(engine, "commit", lambda *_: steps.append("commit"))
    enter, leave = WriterQueue.__enter__, WriterQueue.__exit__

    def entered(queue):
        steps.append("queue taken")
        return enter(queue)

    def left(queue, *exc):
        leave(queue, *exc)
        steps.append("queue left")

    monkeypatch.setattr(WriterQueue, "__enter__", entered)
    monkeypatch.setattr(WriterQueue, "__exit__", left)
    ledger.append(session_id, [turn_up_single()], WriteRequest("Ann", expected_version=version))
    writes = steps[steps.index("queue taken") - 1:]
    assert writes == ["checkout", "queue taken", "commit", "queue left", "checkin"], steps
