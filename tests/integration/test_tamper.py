"""Tamper evidence on SQLite and PostgreSQL: an edit made behind the ledger's back, as a
database administrator would make it (the append-only triggers lifted), is found by verify,
which names the first broken link; a statement printed before pins the log it came from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, select, text, update

from ledger.domain import OpenSession
from ledger.domain import commands as cmd
from ledger.sessions.service import Ledger
from ledger.store.chain import link
from ledger.store.tables import events, sessions
from ledger.writes import WriteRequest


def play(ledger: Ledger) -> str:
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
    assert ledger.verify(sid) == []
    return sid


def as_dba(engine: Any, work: Callable[[Connection], None]) -> None:
    """Run `work` with the append-only triggers out of the way, as the table's owner could."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_update"))
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_delete"))
        else:
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER USER"))
        work(conn)
        if engine.dialect.name != "sqlite":
            conn.execute(text("ALTER TABLE events ENABLE TRIGGER USER"))


def row(conn: Connection, sid: str, version: int) -> Any:
    return conn.execute(select(events).where(events.c.stream_id == sid,
                                             events.c.version == version)).one()


def chain_problem(ledger: Ledger, sid: str) -> str:
    found = [p for p in ledger.verify(sid) if p.startswith("chain")]
    assert found, ledger.verify(sid)
    return found[0]


def test_an_altered_payload_breaks_the_chain_at_that_event(ledger, engine):
    sid = play(ledger)

    def double_a_posting(conn: Connection) -> None:
        payload = dict(row(conn, sid, 4).payload)
        payload["player"] = "B"
        conn.execute(update(events).where(events.c.stream_id == sid, events.c.version == 4)
                     .values(payload=payload))

    as_dba(engine, double_a_posting)
    assert "version 4 " in chain_problem(ledger, sid)


def test_an_altered_actor_with_its_hash_recomputed_breaks_the_next_link(ledger, engine):
    sid = play(ledger)

    def rewrite(conn: Connection) -> None:
        old = row(conn, sid, 5)
        data = {**old._mapping, "actor": "someone else"}
        prev = row(conn, sid, 4).hash
        conn.execute(update(events).where(events.c.position == old.position)
                     .values(actor="someone else", hash=link(data, prev)))

    as_dba(engine, rewrite)
    assert "version 6 " in chain_problem(ledger, sid)


def test_a_deleted_event_is_named_as_the_missing_version(ledger, engine):
    sid = play(ledger)
    as_dba(engine, lambda conn: conn.execute(text(
        "DELETE FROM events WHERE stream_id = :sid AND version = 5"), {"sid": sid}))
    assert "version 5 is missing" in chain_problem(ledger, sid)


def test_two_events_swapped_break_the_chain_at_the_first(ledger, engine):
    sid = play(ledger)

    def swap(conn: Connection) -> None:
        three, four = row(conn, sid, 3), row(conn, sid, 4)
        for r, version in ((three, 10**6), (four, 3), (three, 4)):
            conn.execute(update(events).where(events.c.position == r.position)
                         .values(version=version))

    as_dba(engine, swap)
    assert "version 3 " in chain_problem(ledger, sid)


def test_a_forged_event_is_found_and_no_longer_matches_a_printed_statement(ledger, engine):
    sid = play(ledger)
    printed = ledger.statement(sid)["log"]
    assert printed["chain_head"] == ledger.verify_report(sid)["chain_head"]

    def forge(conn: Connection) -> None:
        last = conn.execute(select(events).where(events.c.stream_id == sid)
                            .order_by(events.c.version.desc()).limit(1)).one()
        forged = {**last._mapping, "version": last.version + 1, "type": "PlayerWithdrew",
                  "payload": {"player": "B"}, "actor": "treasurer"}
        forged.pop("position")
        forged["hash"] = link(forged, last.hash)  # a forger who knows the chain format
        conn.execute(events.insert().values(**forged))
        conn.execute(update(sessions).where(sessions.c.id == sid)
                     .values(head_hash=forged["hash"]))

    as_dba(engine, forge)
    report = ledger.verify_report(sid)
    assert not report["ok"] and any("sessions.version" in p for p in report["problems"])
    assert report["chain_head"] != printed["chain_head"]  # the printed statement no longer fits


def test_every_event_carries_its_hash_and_the_head_is_the_last_one(ledger):
    sid = play(ledger)
    page = ledger.events(sid, limit=100)["events"]
    assert all(len(e["hash"]) == 64 for e in page)
    assert ledger.verify_report(sid)["chain_head"] == page[-1]["hash"]
    assert ledger.statement(sid)["log"] == {"version": page[-1]["version"],
                                            "chain_head": page[-1]["hash"],
                                            "chain_format": "lanterloo/1"}
