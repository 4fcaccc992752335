"""Verify and rebuild of every session in one pass (ledger/operations/bulk.py), on SQLite and
PostgreSQL: it finds exactly what `Ledger.verify` finds session by session (a tampered state, a
deleted event, a broken hash, a stale deal view, a projection ahead of its log), in one process and
in several, and what it rebuilds is what `Ledger.rebuild` rebuilds."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Connection, Engine, select, text, update

from api.cli.demo import load_demo
from api.cli.main import main
from ledger.domain import OpenSession
from ledger.domain import commands as cmd
from ledger.operations import bulk
from ledger.sessions.service import Ledger
from ledger.store.chain import link, session_genesis
from ledger.store.tables import deal_views, events, sessions
from ledger.writes import WriteRequest
from tests.clubs import club_ledger
from tests.support.projected import all_sessions


def play(ledger: Ledger, *, undo: bool = False) -> str:
    sid = ledger.open_session(OpenSession(players=["A", "B", "C"], first_dealer="A"),
                              WriteRequest("treasurer")).body["session_id"]
    ledger.append(sid, [cmd.StartDeal(trump_card="7H", face_up={"A": "5C", "B": "9H",
                                                                "C": "KS"})],
                  WriteRequest("dealer"))
    ledger.append(sid, [cmd.StartDeal(trump_card="2S"),
                        cmd.Declare(player="C", declaration="play"),
                        cmd.Declare(player="A", declaration="play"),
                        cmd.Declare(player="B", declaration="play"),
                        *(cmd.RecordTrick(winner=w) for w in "CAC")], WriteRequest("dealer"))
    if undo:  # a correction: the fold keeps only the live events
        ledger.undo(sid, reason="wrong winner", request=WriteRequest("treasurer"))
        ledger.append(sid, [cmd.RecordTrick(winner="B")], WriteRequest("dealer"))
    return sid


def as_dba(engine: Engine, statement: str, **params: Any) -> None:
    """A change behind the ledger's back, with the append-only triggers out of the way."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_update"))
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_delete"))
        else:
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER USER"))
        conn.execute(text(statement), params)
        if engine.dialect.name != "sqlite":
            conn.execute(text("ALTER TABLE events ENABLE TRIGGER USER"))


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of a session or two, so that a handful of sessions spans several chunks (and
    several worker processes)."""
    monkeypatch.setattr(bulk, "CHUNK_EVENTS", 12)


def per_session(engine: Engine) -> dict[str, list[str]]:
    ledger = Ledger(engine)  # the operator's: every club's sessions
    return {sid: ledger.verify(sid) for sid in all_sessions(engine)}


def test_bulk_verify_of_a_whole_ledger_finds_nothing_and_reads_every_session(
        engine, small_chunks):
    ledger = club_ledger(engine)
    ids = sorted([load_demo(ledger), play(ledger), play(ledger, undo=True)])
    assert bulk.verify_all(engine, workers=1) == {sid: [] for sid in ids}
    assert bulk.verify_all(engine, workers=2) == {sid: [] for sid in ids}


def test_bulk_verify_finds_exactly_what_verify_finds_session_by_session(
        engine, database_url, small_chunks, capsys):
    ledger = club_ledger(engine)
    demo = load_demo(ledger)
    state_tampered, deleted, broken, stale_view, ahead, whole = (
        play(ledger) for _ in range(6))
    corrected = play(ledger, undo=True)

    def tamper_state(conn: Connection) -> None:
        state = conn.scalar(select(sessions.c.state).where(sessions.c.id == state_tampered))
        state["balances"]["A"] += 5
        state["balances"]["B"] -= 5
        conn.execute(update(sessions).where(sessions.c.id == state_tampered)
                     .values(state=state))

    def stale(conn: Connection) -> None:
        view = conn.scalar(select(deal_views.c.view).where(
            deal_views.c.session_id == stale_view, deal_views.c.deal_no == 2))
        view["pool_units"] += 3
        conn.execute(update(deal_views).where(deal_views.c.session_id == stale_view,
                                              deal_views.c.deal_no == 2).values(view=view))

    with engine.begin() as conn:
        tamper_state(conn)
        stale(conn)
    as_dba(engine, "DELETE FROM events WHERE stream_id = :s AND version = 5", s=deleted)
    as_dba(engine, "UPDATE events SET actor = 'someone else' WHERE stream_id = :s AND "
                   "version = 4", s=broken)
    last = ledger.session(ahead)["version"]
    as_dba(engine, "DELETE FROM events WHERE stream_id = :s AND version = :v", s=ahead, v=last)

    expected = per_session(engine)
    assert [sid for sid, found in expected.items() if found] == sorted(
        [state_tampered, deleted, broken, stale_view, ahead])
    assert expected[whole] == expected[corrected] == expected[demo] == []
    assert any("state.balances.A: stored" in p for p in expected[state_tampered])
    assert "version 5 is missing" in expected[deleted][0]
    assert expected[broken][0].startswith("chain: version 4 ")
    assert expected[stale_view] == [
        f"deal_views.2.pool_units: stored {stale_pool(engine, stale_view)}, rebuilt "
        f"{stale_pool(engine, stale_view) - 3}"]
    assert f"sessions.version: stored {last}, log {last - 1}" in expected[ahead]

    assert bulk.verify_all(engine, workers=1) == expected
    assert bulk.verify_all(engine, workers=2) == expected
    capsys.readouterr()
    assert main(["verify", "--all", "--database-url", database_url]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"session {whole}: the projections agree with a rebuild from the log" in out
    assert f"session {stale_view}: the projections differ from a rebuild from the log:" in out
    assert f"  {expected[stale_view][0]}" in out
    assert len([line for line in out if line.startswith("session ")]) == len(expected)


def stale_pool(engine: Engine, sid: str) -> int:
    with engine.connect() as conn:
        view = conn.scalar(select(deal_views.c.view).where(deal_views.c.session_id == sid,
                                                           deal_views.c.deal_no == 2))
    return int(view["pool_units"])


def projections(engine: Engine) -> tuple[list[Any], list[Any]]:
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(
            select(sessions.c.id, sessions.c.version, sessions.c.state, sessions.c.head_hash)
            .order_by(sessions.c.id))]
        views = [tuple(r) for r in conn.execute(
            select(deal_views.c.session_id, deal_views.c.deal_no, deal_views.c.version,
                   deal_views.c.view).order_by(deal_views.c.session_id, deal_views.c.deal_no))]
    # as JSON reads back, key order included: a state's order is part of what it says
    return [(i, v, list(_items(s)), h) for i, v, s, h in rows], \
        [(i, n, v, list(_items(w))) for i, n, v, w in views]


def _items(value: Any) -> Any:
    if isinstance(value, dict):
        return [(k, _items(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_items(v) for v in value]
    return value


def spoil(engine: Engine, ids: list[str]) -> None:
    """Projections gone wrong: a state, a view changed, a view missing, a view too many."""
    with engine.begin() as conn:
        conn.execute(update(sessions).where(sessions.c.id == ids[0])
                     .values(state={"nonsense": True}, version=1))
        conn.execute(update(deal_views).where(deal_views.c.session_id == ids[1])
                     .values(view={"stale": 1}, version=99))
        conn.execute(deal_views.delete().where(deal_views.c.session_id == ids[2],
                                               deal_views.c.deal_no == 1))
        club = conn.scalar(select(sessions.c.club_id).where(sessions.c.id == ids[3]))
        conn.execute(deal_views.insert().values(club_id=club, session_id=ids[3], deal_no=7,
                                                version=3, view={"ghost": True}))


@pytest.mark.parametrize("workers", [1, 2])
def test_bulk_rebuild_writes_what_the_session_by_session_rebuild_writes(
        engine, small_chunks, workers):
    ledger = club_ledger(engine)
    ids = sorted([load_demo(ledger), play(ledger), play(ledger), play(ledger, undo=True),
                  play(ledger)])
    live = projections(engine)

    spoil(engine, ids)
    assert all(bulk.verify_all(engine)[sid] for sid in ids[:4])
    for sid in ids:
        Ledger(engine).rebuild(sid)
    one_by_one = projections(engine)

    spoil(engine, ids)
    assert bulk.rebuild_all(engine, workers=workers) == ids
    assert projections(engine) == one_by_one
    assert bulk.verify_all(engine, workers=workers) == {sid: [] for sid in ids}
    # and rebuild equals live: the states and views the appends left
    assert projections(engine)[0] == live[0]
    assert [v[:2] + v[3:] for v in projections(engine)[1]] == [v[:2] + v[3:] for v in live[1]]


def test_rebuild_all_from_the_command_line_restores_the_projections(engine, database_url,
                                                                    capsys):
    ledger = club_ledger(engine)
    ids = sorted([play(ledger), play(ledger, undo=True), play(ledger), play(ledger)])
    spoil(engine, ids)
    assert main(["rebuild", "--all", "--database-url", database_url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [*(f"session {sid}: projections rebuilt from the log" for sid in ids),
                   "the book postings and kept sums of 1 clubs rebuilt from their logs"]
    assert main(["verify", "--all", "--database-url", database_url]) == 0


def test_the_chain_is_checked_with_the_times_as_the_append_hashed_them(engine):
    """The pass reads each event's time as text on PostgreSQL (`_PG_ISO`); with and without
    microseconds it must be what `utc_iso` wrote into the hash."""
    ledger = club_ledger(engine)
    with_micros = play(ledger)
    whole_seconds = play(ledger)
    with engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(
            select(events).where(events.c.stream_id == whole_seconds)
            .order_by(events.c.version))]
    assert any(r["recorded_at"].microsecond for r in rows)
    prev = session_genesis(whole_seconds, ledger.club_id)  # a club's session's chain
    for r in rows:  # the same log, recorded on the second, chained anew
        r["recorded_at"] = r["recorded_at"].replace(microsecond=0)
        prev = r["hash"] = link(r, prev)
        as_dba(engine, "UPDATE events SET recorded_at = :t, hash = :h WHERE position = :p",
               t=r["recorded_at"], h=r["hash"], p=r["position"])
    with engine.begin() as conn:
        conn.execute(update(sessions).where(sessions.c.id == whole_seconds)
                     .values(head_hash=prev))
    assert per_session(engine) == bulk.verify_all(engine) == {
        sid: [] for sid in sorted([with_micros, whole_seconds])}

    as_dba(engine, "UPDATE events SET recorded_at = :t WHERE stream_id = :s AND version = 2",
           s=with_micros, t=rows[1]["recorded_at"])
    found = bulk.verify_all(engine)[with_micros]
    assert found == Ledger(engine).verify(with_micros)
    assert found[0].startswith("chain: version 2 ")  # the time is part of the hash


def test_bulk_verify_checks_the_snapshots_and_the_session_results_as_verify_does(
        engine, small_chunks):
    """The projections the as-of reads and the club's books keep are compared too: a
    snapshot or a result row changed behind the ledger's back is found, as `Ledger.verify`
    finds it, and the bulk rebuild puts both right."""
    from ledger.domain.vocabulary import EndMethod
    from ledger.store.tables import session_results, snapshots

    ledger = club_ledger(engine, snapshot_every=3)
    snap_tampered, result_tampered, whole = (play(ledger) for _ in range(3))
    for sid in (result_tampered, whole):
        ledger.append(sid, [cmd.EndSession(method=EndMethod.DIVIDE_POOL)],
                      WriteRequest("treasurer"))
    with engine.begin() as conn:
        version = conn.scalar(select(snapshots.c.version)
                              .where(snapshots.c.session_id == snap_tampered)
                              .order_by(snapshots.c.version.desc()).limit(1))
        state = conn.scalar(select(snapshots.c.state).where(
            snapshots.c.session_id == snap_tampered, snapshots.c.version == version))
        state["balances"]["A"] += 2
        state["balances"]["B"] -= 2
        conn.execute(update(snapshots).where(snapshots.c.session_id == snap_tampered,
                                             snapshots.c.version == version)
                     .values(state=state))
        conn.execute(update(session_results)
                     .where(session_results.c.session_id == result_tampered,
                            session_results.c.seat == "A")
                     .values(net_units=session_results.c.net_units + 1))
    expected = per_session(engine)
    assert any(p.startswith(f"snapshots.{version}.balances.A") for p in expected[snap_tampered])
    assert any(p.startswith("session_results.A@") and p.split(".", 2)[2].startswith(
        "net_units") for p in expected[result_tampered])
    assert expected[whole] == []
    assert bulk.verify_all(engine, workers=1) == expected
    assert bulk.verify_all(engine, workers=2) == expected

    bulk.rebuild_all(engine, workers=1)
    assert bulk.verify_all(engine, workers=1) == {sid: [] for sid in sorted(expected)}
    assert per_session(engine) == {sid: [] for sid in sorted(expected)}


def kept_projections(engine: Engine) -> tuple[list[Any], list[Any]]:
    """Every snapshot (as JSON reads back, key order included) and every result row."""
    from ledger.store.tables import session_results, snapshots

    with engine.connect() as conn:
        kept = [(sid, v, list(_items(s))) for sid, v, s in conn.execute(
            select(snapshots.c.session_id, snapshots.c.version, snapshots.c.state)
            .order_by(snapshots.c.session_id, snapshots.c.version))]
        results = [tuple(r) for r in conn.execute(
            select(session_results).order_by(session_results.c.session_id,
                                             session_results.c.seat))]
    return kept, results


@pytest.mark.parametrize("workers", [1, 2])
def test_bulk_rebuild_writes_the_snapshots_and_results_the_session_by_session_rebuild_writes(
        engine, small_chunks, workers, monkeypatch):
    """The snapshots the one fold keeps as it passes each multiple of the interval (and, for
    a log with a correction, folds anew) are the states `Ledger.rebuild` writes; the
    result rows of ended sessions are its rows too."""
    from ledger import projections
    from ledger.domain.vocabulary import EndMethod
    from ledger.store.tables import session_results, snapshots

    ledger = club_ledger(engine, snapshot_every=4)
    ended = [play(ledger), play(ledger, undo=True)]
    for sid in ended:
        ledger.append(sid, [cmd.EndSession(method=EndMethod.DIVIDE_POOL)],
                      WriteRequest("treasurer"))
    ids = sorted([load_demo(ledger), play(ledger), play(ledger, undo=True), *ended])
    monkeypatch.setattr(projections, "SNAPSHOT_EVERY", 4)  # what a rebuild keeps
    for sid in ids:
        Ledger(engine).rebuild(sid)
    one_by_one = kept_projections(engine)
    assert len(one_by_one[0]) > 8 and one_by_one[1]

    spoil(engine, ids)
    with engine.begin() as conn:
        conn.execute(snapshots.delete().where(snapshots.c.session_id == ids[0]))
        conn.execute(update(session_results).values(net_units=session_results.c.net_units + 1))
    assert bulk.verify_all(engine, workers=workers) == per_session(engine)
    assert bulk.rebuild_all(engine, workers=workers) == ids
    assert kept_projections(engine) == one_by_one
    assert bulk.verify_all(engine, workers=workers) == {sid: [] for sid in ids}
    assert per_session(engine) == {sid: [] for sid in ids}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_pass_leaves_the_garbage_collector_as_it_found_it(engine, enabled, monkeypatch):
    """A chunk is folded with the cyclic collector paused (ledger/operations/bulk.py): after the
    pass, and after a pass that failed, the collector is on or off as it was before."""
    import gc

    from ledger import projections

    ledger = club_ledger(engine)
    play(ledger)
    during: list[bool] = []

    def watched(run):
        def chunk(*args, **kwargs):
            during.append(gc.isenabled())
            return run(*args, **kwargs)
        return chunk

    monkeypatch.setattr(projections, "verify", watched(projections.verify))
    monkeypatch.setattr(projections, "rebuild", watched(projections.rebuild))
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        assert all(found == [] for found in bulk.verify_all(engine, workers=1).values())
        assert gc.isenabled() is enabled
        bulk.rebuild_all(engine, workers=1)
        assert gc.isenabled() is enabled
        assert during == [False, False]  # one chunk verified, one rebuilt, both paused
        with pytest.raises(RuntimeError):
            with bulk._collector_paused():
                assert not gc.isenabled()
                raise RuntimeError("a chunk that failed")
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
