"""A latecomer's money over HTTP, on SQLite and PostgreSQL (docs/books.md, "A latecomer";
docs/rules.md, the aftercomer): every seat is someone's. An aftercomer joins as a member of
the club, chosen by name or id or made a guest member as at the opening; the join records
his member, and his result, his debts and his payments are on his account like everyone's.

The night (10p a unit): tests/e2e/test_books_api.py's turn-up single leaves Ann -6, Bob +3,
Cal -3 and 6 in the next pool; Dan joins after Cal; Bob deals with spades trumps, Cal and Dan
play, Dan takes all three tricks (the pool of 9). Divided at the end: Ann -5, Bob +1, Cal -7,
Dan +11: the club owes Dan 110p.
"""

from __future__ import annotations

import secrets
from typing import Any

from .conftest import assert_problem
from .test_books_api import SINGLE, post

NETS = {"Ann": -50, "Bob": 10, "Cal": -70, "Dan": 110}


def open_night(client: Any) -> str:
    opened = client.post("/sessions", json={
        "name": "Thursday", "players": ["Ann", "Bob", "Cal"], "guests": [],
        "currency": "GBP", "money_per_unit_minor": 10, "first_dealer": "Ann"})
    assert opened.status_code == 201, opened.get_json()
    sid = opened.get_json()["session_id"]
    assert post(client, f"/sessions/{sid}/events", SINGLE, key=f"{sid}-1").status_code == 201
    return sid


def join(client: Any, sid: str, **fields: Any) -> Any:
    return post(client, f"/sessions/{sid}/events",
                {"type": "PlayerJoined", "after": "Cal", **fields}, key=secrets.token_hex(8))


def play_out(client: Any, sid: str) -> None:
    """Bob deals; Cal and Dan play, Dan takes every trick; the session ends."""
    events = [{"type": "DealStarted", "trump_card": "8S"},
              *({"type": "DeclarationMade", "player": p, "declaration": d}
                for p, d in (("Cal", "play"), ("Dan", "play"), ("Ann", "throw_up"),
                             ("Bob", "throw_up"))),
              *({"type": "TrickWon", "winner": "Dan"} for _ in range(3)),
              {"type": "SessionEnded", "method": "divide-pool"}]
    done = post(client, f"/sessions/{sid}/events", {"events": events}, key=f"{sid}-night")
    assert done.status_code == 201, done.get_json()


def the_books_square(tess: Any, dan: str) -> None:
    """Dan's result on his account, the club pays him, the standings and accounts sum to
    zero and nothing is left in the session."""
    account = tess.get(f"/members/{dan}/account").get_json()
    assert [(e["kind"], e["amount_minor"]) for e in account["entries"]] == [("session", 110)]
    assert account["owed"] == {"GBP": 110}
    payables = tess.get("/payables").get_json()
    assert sorted((p["name"], p["amount_minor"]) for p in payables["payables"]) == [
        ("Bob", 10), ("Dan", 110)]
    assert payables["totals"] == {"GBP": 120}
    paid = post(tess, "/payments", {"payer": "club", "payee": dan, "amount_minor": 110,
                                    "currency": "GBP", "method": "cash"})
    assert paid.status_code == 201, paid.get_json()
    account = tess.get(f"/members/{dan}/account").get_json()
    assert [(e["kind"], e["amount_minor"], e["balance_minor"]) for e in account["entries"]] \
        == [("session", 110, 110), ("payment", -110, 0)]
    standings = tess.get("/standings").get_json()["members"]
    assert {m["name"]: m["net_minor"] for m in standings if m["sessions"]} == {
        name: {"GBP": net} for name, net in NETS.items()}
    assert sum(m["net_minor"].get("GBP", 0) for m in standings if m["net_minor"]) == 0
    accounts = tess.get("/accounts").get_json()
    assert accounts["check"] == {"sums": {"GBP": 0}, "zero_sum": True}
    assert accounts["club"]["left_in_sessions"] == {}
    assert {m["name"]: m["balances"] for m in accounts["members"]}["Dan"] == {"GBP": 0}


def test_a_latecomer_who_is_a_new_guest_is_made_a_member_and_the_club_pays_him(tess, club):
    sid = open_night(tess)
    joined = join(tess, sid, player="Dan", guest=True)
    assert joined.status_code == 201, joined.get_json()
    event = joined.get_json()["appended"][0]
    members = {m["name"]: m for m in tess.get("/members").get_json()["members"]}
    dan = members["Dan"]["member_id"]
    assert members["Dan"]["guest"] is True
    assert (event["type"], event["schema_version"], event["payload"]) == (
        "PlayerJoined", 2, {"player": "Dan", "after": "Cal", "member": dan})
    assert joined.get_json()["session"]["members"]["Dan"] == dan
    play_out(tess, sid)
    the_books_square(tess, dan)
    statement = tess.get(f"/sessions/{sid}/statement").get_json()
    assert {p["player"]: p["net_money_minor"] for p in statement["players"]} == NETS
    trail = tess.get(f"/audit/events?member_id={dan}&session_id={sid}").get_json()["events"]
    assert {e["type"] for e in trail} >= {"PlayerJoined", "DeclarationMade"}


def test_a_latecomer_who_is_a_member_joins_by_his_id_under_his_name(tess, club, engine):
    from ledger.clubs.service import Clubs

    dan = Clubs(engine).add_member(club.club_id, "Dan")["member_id"]
    sid = open_night(tess)
    joined = join(tess, sid, player=dan)
    assert joined.status_code == 201, joined.get_json()
    assert joined.get_json()["appended"][0]["payload"] == {
        "player": "Dan", "after": "Cal", "member": dan}
    play_out(tess, sid)
    the_books_square(tess, dan)
    names = [m["name"] for m in tess.get("/members").get_json()["members"]]
    assert names.count("Dan") == 1  # no guest made beside him


def test_a_member_seated_already_does_not_join_again_under_his_name_in_another_case(
        tess, club):
    sid = open_night(tess)
    problem = assert_problem(join(tess, sid, player="bob"), 422, rule="players",
                             mentions=("already seated",))
    assert problem["field"] == "player"


def test_a_latecomer_who_is_no_member_is_refused_unless_he_comes_as_a_guest(tess, club):
    sid = open_night(tess)
    before = tess.get(f"/sessions/{sid}").get_json()["version"]
    problem = assert_problem(join(tess, sid, player="Zed"), 422, rule="club-member",
                             mentions=('"guest": true',))
    assert problem["field"] == "player"
    problem = assert_problem(join(tess, sid, player="pool", guest=True), 422,
                             rule="player-name")
    assert problem["field"] == "player"
    assert tess.get(f"/sessions/{sid}").get_json()["version"] == before
    names = {m["name"] for m in tess.get("/members").get_json()["members"]}
    assert not {"Zed", "pool"} & names


def test_a_guest_refused_by_the_table_is_not_made_a_member(tess, club):
    sid = open_night(tess)
    assert post(tess, f"/sessions/{sid}/events", {"type": "DealStarted", "trump_card": "8S"},
                key=f"{sid}-2").status_code == 201
    refused = join(tess, sid, player="Dan", guest=True)  # during a deal
    assert_problem(refused, 409, rule="between-deals")
    assert "Dan" not in {m["name"] for m in tess.get("/members").get_json()["members"]}



def test_a_join_put_in_place_by_a_correction_seats_a_member_like_any_join(tess, club,
                                                                            engine):
    from ledger.clubs.service import Clubs

    eve = Clubs(engine).add_member(club.club_id, "Eve")["member_id"]
    sid = open_night(tess)
    joined = join(tess, sid, player="Dan", guest=True)  # the wrong player was entered
    version = joined.get_json()["appended"][0]["version"]
    refused = post(tess, f"/sessions/{sid}/corrections", {
        "voids": [version], "reason": "it was Eve",
        "replacements": [{"type": "PlayerJoined", "player": "Zed", "after": "Cal",
                          "guest": False}]}, key=f"{sid}-refused")
    assert_problem(refused, 422, rule="club-member")
    corrected = post(tess, f"/sessions/{sid}/corrections", {
        "voids": [version], "reason": "it was Eve",
        "replacements": [{"type": "PlayerJoined", "player": "eve", "after": "Cal",
                          "guest": False}]}, key=f"{sid}-corrected")
    assert corrected.status_code == 201, corrected.get_json()
    session = corrected.get_json()["session"]
    assert session["seats"] == ["Ann", "Bob", "Cal", "Eve"]
    assert session["members"]["Eve"] == eve and "Dan" not in session["members"]
    undone = post(tess, f"/sessions/{sid}/undo", {"reason": "Eve went home"},
                  key=f"{sid}-undo")
    assert undone.status_code == 201, undone.get_json()
    assert "Eve" not in undone.get_json()["session"]["members"]
