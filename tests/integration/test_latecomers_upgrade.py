"""Latecomers recorded before a join named his member, on SQLite and PostgreSQL: `lanterloo
verify` and the books' zero-sum check fail while a result names no member, and the upgrade
(`lanterloo migrate`) attaches each such seat to the club's member of that name, or a new
guest member, by an appended `LatecomersAttached` event, never an edit of the log, so that
the past books square (docs/operations.md, "Upgrading").

The old rows are written as the earlier releases wrote them: the join's event is
`PlayerJoined` version 1, `{"player", "after"}`, and no member is looked up for it. The night
is tests/e2e/test_latecomers.py's: the latecomer wins 110p.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from api import create_app
from api.cli.main import main
from ledger.books.service import Books
from ledger.clubs.service import Actor, Clubs
from ledger.domain import OpenSession
from ledger.domain import commands as cmd
from ledger.domain import events as ev
from ledger.operations.bulk import verify_all
from ledger.sessions import service
from ledger.sessions.service import Ledger
from ledger.store.tables import club_log, events
from ledger.writes import WriteRequest
from tests.clubs import club_client, make_club


def an_old_night(ledger: Ledger, actor: Actor, latecomer: str,
                 monkeypatch: pytest.MonkeyPatch) -> str:
    """The night, its join recorded as the earlier releases recorded it."""
    with monkeypatch.context() as old:
        old.setattr(ev.PlayerJoined, "schema_version", 1)
        old.setattr(ev.PlayerJoined, "payload",
                    lambda self: {"player": self.player, "after": self.after})
        old.setattr(service, "_seat_latecomers", lambda tx, club_id, commands, by: commands)
        request = WriteRequest(actor)
        sid = ledger.open_session(OpenSession(
            players=["Ann", "Bob", "Cal"], first_dealer="Ann", currency="GBP",
            money_per_unit_minor=10), request).body["session_id"]
        ledger.append(sid, [
            cmd.StartDeal(trump_card="7H", face_up={"Ann": "5C", "Bob": "9H", "Cal": "KS"}),
            cmd.JoinPlayer(player=latecomer, after="Cal"), cmd.StartDeal(trump_card="8S"),
            *(cmd.Declare(player=p, declaration=d) for p, d in (
                ("Cal", "play"), (latecomer, "play"), ("Ann", "throw_up"),
                ("Bob", "throw_up"))),
            *(cmd.RecordTrick(winner=latecomer) for _ in range(3)),
            cmd.EndSession(method="divide-pool")], request)
    return sid


@pytest.fixture
def old_club(engine: Any) -> Any:
    club = make_club(engine, "The Bell")
    for name in ("Ann", "Bob", "Cal", "Dan"):
        club.members[name] = Clubs(engine).add_member(club.club_id, name)["member_id"]
    return club


def test_verify_and_the_zero_sum_fail_while_a_latecomers_result_names_no_member(
        engine, database_url, old_club, monkeypatch, capsys):
    ledger = Ledger(engine).for_club(old_club.club_id)
    sid = an_old_night(ledger, Actor("treasurer", old_club.members["treasurer"]), "Dan",
                       monkeypatch)
    found = Ledger(engine).verify(sid)
    assert found == ["session_results: the result of Dan names no member of the club: it is "
                     "on nobody's account (`lanterloo migrate` attaches latecomers to members)"]
    assert main(["verify", sid, "--database-url", database_url]) == 1
    assert "the result of Dan names no member" in capsys.readouterr().out
    accounts = Books(engine, old_club.club_id).accounts()
    assert accounts["check"] == {"sums": {"GBP": -110}, "zero_sum": False}
    assert accounts["club"]["left_in_sessions"] == {}  # a latecomer's money is not pool units


def test_the_upgrade_attaches_old_latecomers_to_the_member_of_that_name_or_a_new_guest(
        engine, database_url, old_club, monkeypatch, capsys):
    ledger = Ledger(engine).for_club(old_club.club_id)
    actor = Actor("treasurer", old_club.members["treasurer"])
    dans, eves = (an_old_night(ledger, actor, name, monkeypatch) for name in ("dan", "Eve"))
    with engine.connect() as conn:
        joins_before = conn.execute(select(events.c.stream_id, events.c.schema_version,
                                           events.c.payload, events.c.hash)
                                    .where(events.c.type == "PlayerJoined")).all()

    assert main(["migrate", "--database-url", database_url]) == 0
    out = capsys.readouterr().out
    assert f"session {dans}: latecomers attached to members: dan" in out
    assert f"session {eves}: latecomers attached to members: Eve" in out
    assert all(found == [] for found in verify_all(engine, workers=1).values())

    with engine.connect() as conn:  # the log kept as it was, the attachment appended
        assert conn.execute(select(events.c.stream_id, events.c.schema_version,
                                   events.c.payload, events.c.hash)
                            .where(events.c.type == "PlayerJoined")).all() == joins_before
        logged = conn.execute(select(club_log.c.payload).where(
            club_log.c.club_id == old_club.club_id,
            club_log.c.type == "LatecomersAttached")).scalars().all()
    web = club_client(create_app({"ENGINE": engine, "TESTING": True}), engine, club=old_club)
    members = {m["name"]: m for m in web.get("/members").get_json()["members"]}
    dan, eve = old_club.members["Dan"], members["Eve"]["member_id"]
    assert members["Eve"]["guest"] is True and "dan" not in members  # Dan by his name
    assert sorted(logged, key=lambda p: p["session_id"]) == sorted(
        [{"session_id": dans, "members": {"dan": dan}},
         {"session_id": eves, "members": {"Eve": eve}}], key=lambda p: p["session_id"])
    last = web.get(f"/sessions/{dans}/events?limit=1000").get_json()["events"][-1]
    assert (last["type"], last["payload"], last["actor"]) == (
        "LatecomersAttached", {"members": {"dan": dan}}, "operator")

    for member, sid in ((dan, dans), (eve, eves)):
        account = web.get(f"/members/{member}/account").get_json()
        assert [(e["kind"], e["session_id"], e["amount_minor"]) for e in account["entries"]] \
            == [("session", sid, 110)]
        paid = web.post("/payments", json={"payer": "club", "payee": member,
                                           "amount_minor": 110, "currency": "GBP",
                                           "method": "cash"})
        assert paid.status_code == 201, paid.get_json()
    standings = web.get("/standings").get_json()["members"]
    assert sum(m["net_minor"].get("GBP", 0) for m in standings if m["net_minor"]) == 0
    accounts = web.get("/accounts").get_json()
    assert accounts["check"] == {"sums": {"GBP": 0}, "zero_sum": True}
    assert accounts["club"]["left_in_sessions"] == {}

    assert main(["migrate", "--database-url", database_url]) == 0  # nothing more to do
    assert "latecomers" not in capsys.readouterr().out
    assert all(found == [] for found in verify_all(engine, workers=1).values())
