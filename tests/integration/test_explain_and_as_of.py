"""The explain trail and reads as of a version, through the store, on SQLite and PostgreSQL.

Random whole sessions are sent through the Ledger with random undos and corrections, and
snapshots every few versions (a small interval, so that a session crosses many): every figure
is the sum of its trail and is the statement's; as of every tenth version the state, the
session view, the statement and the deals are those of a fresh fold of the log up to it.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, func, select, update

from ledger.domain import InvalidInput, session_view, statement
from ledger.domain.corrections import live_events
from ledger.sessions import history
from ledger.sessions.service import DealNotFound, Ledger
from ledger.store.chain import utc_iso
from ledger.store.queries import load_snapshots
from ledger.store.tables import snapshots
from tests.clubs import club_ledger
from tests.support.projected import fold_with_views, plain
from tests.support.sessions import (
    VARIANT_NAMES,
    DrawChooser,
    RandomChooser,
    SessionShape,
    play_session,
)
from tests.support.through_ledger import drive, stored_log

SLOW = bool(os.environ.get("LANTERLOO_SLOW"))
EXAMPLES = 20 if SLOW else 5
SHAPE = SessionShape(min_deals=2, max_deals=8, variants=VARIANT_NAMES)


def prefix_fold(log: list[Any], version: int, sid: str) -> tuple[Any, dict[int, Any]]:
    return fold_with_views((e for _, e in live_events(log[:version])), sid)


def check_session(ledger: Ledger, sid: str, *, snapshots_deleted: bool = False) -> None:
    rows = stored_log(ledger, sid)
    log = history.versioned(rows)
    # (a) every figure is the sum of its trail and is the statement's
    trail = ledger.explain(sid)
    stated = ledger.statement(sid)
    players = {p["player"]: p for p in stated["players"]}
    assert trail["version"] == len(log) and trail["as_of"] is None
    for fig in trail["figures"]:
        assert sum(p["signed_units"] for p in fig["postings"]) == fig["net_units"]
        for name, units in fig["categories"].items():
            assert sum(p["signed_units"] for p in fig["postings"]
                       if p["category"] == name) == units
        if fig["kind"] == "player":
            line = players[fig["account"]]
            assert fig["net_units"] == line["net_units"]
            assert {k: -v for k, v in fig["categories"].items() if v < 0} == line["paid_units"]
            assert {k: v for k, v in fig["categories"].items() if v > 0} == \
                line["received_units"]
        elif fig["kind"] == "pool":
            assert fig["net_units"] == stated["pool"]["current_pool_units"]
        else:
            assert fig["net_units"] == stated["pool"]["next_pool_units"]
    # every posting is from a live event, named by its version and position
    positions = {r.version: r.position for r in rows}
    live = {v for v, _ in live_events(log)}
    assert all(p["version"] in live and p["position"] == positions[p["version"]]
               for f in trail["figures"] for p in f["postings"])
    # (b) as of every tenth version (and the last): a fresh fold of the log up to it
    for version in sorted({*range(1, len(log) + 1, 10), len(log)}):
        state, views = prefix_fold(log, version, sid)
        with ledger.engine.connect() as conn:
            assert plain(history.state_at(conn, sid, version).to_dict()) == \
                plain(state.to_dict()), version
        view = ledger.session(sid, as_of=version)
        assert view["as_of"] == {"version": version,
                                 "recorded_at": utc_iso(rows[version - 1].recorded_at)}
        assert {**view, "as_of": None} == {**plain(session_view(state)), "as_of": None}
        then = ledger.statement(sid, as_of=str(version))
        # the cash is counted after the close, outside the log: none as of a version
        assert {**then, "log": None, "as_of": None} == \
            {**plain(statement(state)), "log": None, "as_of": None, "cash": None,
             "evening": None}
        assert then["log"]["version"] == version
        assert then["log"]["chain_head"] == rows[version - 1].hash
        assert ledger.statement_csv(sid, as_of=version).startswith("player,")
        for deal_no, deal in views.items():
            assert {**ledger.deal(sid, deal_no, as_of=version), "as_of": None} == \
                {**plain(deal), "as_of": None}, (version, deal_no)
        with pytest.raises(DealNotFound):
            ledger.deal(sid, state.deal_no + 1, as_of=version)
        explained = ledger.explain(sid, as_of=version)
        assert explained["version"] == version and explained["as_of"]["version"] == version
        assert {f["account"]: f["net_units"] for f in explained["figures"]} == \
            {a: state.balances[a] for a in [*state.seats, "pool", "next_pool"]}
    # a time names the last event recorded at or before it
    assert ledger.session(sid, as_of=utc_iso(rows[-1].recorded_at))["as_of"]["version"] == \
        len(log)
    found = ledger.verify(sid)
    if snapshots_deleted:  # the reads are right without them, and verify says they are gone
        assert found and all(p.startswith("snapshots: none at version ") for p in found)
    else:
        assert found == []


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_random_sessions_with_corrections_explain_every_figure_and_read_as_of_any_version(
        engine, data):
    ledger = club_ledger(engine, snapshot_every=data.draw(st.integers(3, 12)))
    played = play_session(DrawChooser(data.draw), shape=SHAPE)
    sid = drive(ledger, played, DrawChooser(data.draw), p_undo=0.15, p_correct=0.1)
    check_session(ledger, sid)


def test_an_append_that_crosses_the_interval_keeps_one_snapshot_at_its_version(engine):
    ledger = club_ledger(engine, snapshot_every=10)
    played = play_session(RandomChooser(3), shape=SessionShape(min_deals=4, max_deals=4))
    sid = drive(ledger, played, RandomChooser(4), p_undo=0.0, p_correct=0.0)
    rows = stored_log(ledger, sid)
    with engine.connect() as conn:
        kept = list(conn.execute(select(snapshots.c.version)
                                 .where(snapshots.c.session_id == sid)).scalars())
    # one snapshot per multiple of 10 crossed, each at the version its append ended on
    assert len(kept) == len(rows) // 10
    assert [k // 10 for k in sorted(kept)] == list(range(1, len(rows) // 10 + 1))


def test_a_session_without_snapshots_reads_as_of_from_the_start(engine):
    ledger = club_ledger(engine, snapshot_every=5)
    played = play_session(RandomChooser(8), shape=SessionShape(min_deals=3, max_deals=3))
    sid = drive(ledger, played, RandomChooser(9), p_undo=0.3)
    with engine.begin() as conn:
        conn.execute(delete(snapshots).where(snapshots.c.session_id == sid))
    check_session(ledger, sid, snapshots_deleted=True)


def test_verify_finds_a_snapshot_that_differs_and_rebuild_puts_them_right(engine):
    ledger = club_ledger(engine, snapshot_every=6)
    played = play_session(RandomChooser(12), shape=SessionShape(min_deals=4, max_deals=4))
    sid = drive(ledger, played, RandomChooser(13), p_undo=0.2)
    with engine.begin() as conn:
        first = conn.scalar(select(func.min(snapshots.c.version))
                            .where(snapshots.c.session_id == sid))
        kept = load_snapshots(conn, sid)[first]
        conn.execute(update(snapshots).where(snapshots.c.session_id == sid,
                                             snapshots.c.version == first)
                     .values(state={**kept, "version": first + 1}))
    assert ledger.verify(sid) == [f"snapshots.{first}.version: stored {first + 1}, "
                                  f"rebuilt {first}"]
    Ledger(engine).rebuild(sid)
    assert Ledger(engine).verify(sid) == []
    with engine.connect() as conn:
        kept = sorted(conn.execute(select(snapshots.c.version)
                                   .where(snapshots.c.session_id == sid)).scalars())
    every = Ledger(engine).snapshot_every
    assert kept == list(range(every, len(stored_log(ledger, sid)) + 1, every))


def test_as_of_out_of_range_is_refused_naming_as_of(engine):
    ledger = club_ledger(engine)
    played = play_session(RandomChooser(2), shape=SessionShape(min_deals=1, max_deals=1))
    sid = drive(ledger, played, RandomChooser(2), p_undo=0.0, p_correct=0.0)
    last = len(stored_log(ledger, sid))
    opened_at = stored_log(ledger, sid)[0].recorded_at
    before = utc_iso(opened_at - timedelta(seconds=1))
    for bad in (0, last + 1, "-3", "yesterday", "2026-11-22T18:00:00", before):
        with pytest.raises(InvalidInput) as refused:
            ledger.statement(sid, as_of=bad)
        assert refused.value.field == "as_of", bad
