"""Tokens (shown once, stored as a hash, expiring, revocable), members, seating a session
with the club's members and guests, idempotency keys scoped to their sender, and logs that
never hold a token."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import MetaData, select, update

import ledger.clubs.service
from ledger.clubs.service import Clubs, hash_secret
from ledger.store.tables import tokens
from tests.clubs import make_club
from tests.support import load_configuration

from .conftest import PLAYERS, assert_problem


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def club(engine):
    return make_club(engine, "Thursday Loo")


@pytest.fixture
def http(app):
    return app.test_client()


def every_value_in_the_database(engine) -> str:
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        return "\n".join(repr(tuple(row)) for table in meta.sorted_tables
                         for row in conn.execute(select(table)))


# ---------------------------------------------------------------- tokens


def test_a_new_token_is_shown_once_and_only_its_hash_is_stored(engine, http, club):
    created = http.post("/tokens", headers=bearer(club.tokens["admin"]), json={
        "member": "dealer", "role": "dealer", "label": "tablet 2", "expires_in_days": 30})
    assert created.status_code == 201, created.get_json()
    token = created.get_json()["token"]
    match = re.fullmatch(r"loo_([0-9a-f]{16})_([A-Za-z0-9_-]{43,})", token)
    assert match, token
    token_id, secret = match.groups()
    assert created.get_json()["token_id"] == token_id
    assert created.headers["Cache-Control"] == "no-store"

    listed = http.get("/tokens", headers=bearer(club.tokens["admin"])).get_json()["tokens"]
    mine = next(t for t in listed if t["token_id"] == token_id)
    assert mine["label"] == "tablet 2" and mine["role"] == "dealer"
    assert mine["status"] == "active" and mine["expires_at"]
    assert "token" not in mine and "secret_hash" not in mine
    assert secret not in str(listed)

    stored = every_value_in_the_database(engine)
    assert secret not in stored and token not in stored
    for other in club.tokens.values():
        # the secret is everything after loo_<id>_: it may itself hold an underscore
        assert other.split("_", 2)[2] not in stored
    assert hash_secret(secret) in stored

    me = http.get("/club", headers=bearer(token)).get_json()
    assert me == {"club_id": club.club_id, "club": club.name,
                  "member_id": club.members["dealer"], "member": "dealer", "role": "dealer",
                  "token_id": token_id, "token_label": "tablet 2",
                  # the dealer's tablet asks what his role may not send, in the refusal's words
                  "refused_events": {"SessionEnded": "only a treasurer may end the session"}}


def test_the_secret_is_compared_in_constant_time(engine, club, monkeypatch):
    calls = []
    real = ledger.clubs.service.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(ledger.clubs.service.hmac, "compare_digest", spy)
    clubs = Clubs(engine)
    assert clubs.authenticate(club.tokens["dealer"]).role == "dealer"
    assert len(calls) == 1
    # An unknown id costs a comparison too (against a dummy hash).
    assert clubs.authenticate(f"loo_{'f' * 16}_{'x' * 43}") is None
    assert len(calls) == 2


def test_a_revoked_or_expired_token_is_refused(engine, http, club):
    clubs = Clubs(engine)
    issued = clubs.create_token(club.club_id, "dealer", "dealer", "phone", expires_in_days=1)
    assert http.get("/club", headers=bearer(issued["token"])).status_code == 200

    gone = http.delete(f"/tokens/{issued['token_id']}", headers=bearer(club.tokens["admin"]))
    assert gone.status_code == 200 and gone.get_json()["status"] == "revoked"
    refused = http.get("/club", headers=bearer(issued["token"]))
    assert_problem(refused, 401, rule="bearer-token")
    assert refused.headers["WWW-Authenticate"].startswith("Bearer ")
    again = http.delete(f"/tokens/{issued['token_id']}", headers=bearer(club.tokens["admin"]))
    assert again.get_json()["revoked_at"] == gone.get_json()["revoked_at"]

    soon = clubs.create_token(club.club_id, "dealer", "dealer", "phone", expires_in_days=1)
    with engine.begin() as conn:
        conn.execute(update(tokens).where(tokens.c.id == soon["token_id"])
                     .values(expires_at=datetime.now(UTC) - timedelta(minutes=1)))
    assert http.get("/club", headers=bearer(soon["token"])).status_code == 401
    listed = {t["token_id"]: t["status"] for t in clubs.tokens(club.club_id)}
    assert listed[soon["token_id"]] == "expired" and listed[issued["token_id"]] == "revoked"


def test_a_token_is_for_a_member_of_the_callers_club(engine, http, club):
    theirs = make_club(engine, "Other club")
    for member in ("nobody", theirs.members["dealer"]):
        refused = http.post("/tokens", headers=bearer(club.tokens["admin"]), json={
            "member": member, "role": "dealer", "label": "x"})
        # the same answer for nobody and for another club's member: nothing is revealed
        problem = assert_problem(refused, 422, rule="member-exists")
        assert problem["field"] == "member"
    bad_role = http.post("/tokens", headers=bearer(club.tokens["admin"]), json={
        "member": "dealer", "role": "owner", "label": "x"})
    assert_problem(bad_role, 422)


# ---------------------------------------------------------------- members and seating


def test_member_names_are_unique_in_a_club_whatever_their_case(http, club):
    admin = bearer(club.tokens["admin"])
    added = http.post("/members", headers=admin, json={"name": "Mrs Bell"})
    assert added.status_code == 201 and added.get_json()["guest"] is False
    assert_problem(http.post("/members", headers=admin, json={"name": "MRS BELL"}), 422,
                   rule="member-name-unique")
    names = [m["name"] for m in http.get("/members", headers=admin).get_json()["members"]]
    assert "Mrs Bell" in names


def test_players_are_members_by_name_or_id_and_guests_join_the_club(http, club):
    admin, treasurer = bearer(club.tokens["admin"]), bearer(club.tokens["treasurer"])
    ids = {name: http.post("/members", headers=admin, json={"name": name}).get_json()
           ["member_id"] for name in ("Ann", "Bob", "Cal")}
    opened = http.post("/sessions", headers=treasurer, json={
        "players": ["ann", ids["Bob"], "Cal", "Dee"], "guests": ["Dee"],
        "first_dealer": ids["Cal"]})
    assert opened.status_code == 201, opened.get_json()
    session = opened.get_json()["session"]
    assert session["seats"] == ["Ann", "Bob", "Cal", "Dee"]
    assert session["next_dealer"] == "Cal"
    members = {m["name"]: m for m in http.get("/members", headers=admin).get_json()["members"]}
    assert members["Dee"]["guest"] is True
    assert session["members"] == {**ids, "Dee": members["Dee"]["member_id"]}
    assert opened.get_json()["appended"][0]["payload"]["members"] == session["members"]

    # The next session finds the same people, the guest included: results join up.
    again = http.post("/sessions", headers=treasurer, json={"players": ["Dee", "Ann", "Bob"]})
    assert again.status_code == 201, again.get_json()
    sid = again.get_json()["session_id"]
    statement = http.get(f"/sessions/{sid}/statement", headers=treasurer).get_json()
    assert {p["player"]: p["member_id"] for p in statement["players"]} == {
        "Dee": members["Dee"]["member_id"], "Ann": ids["Ann"], "Bob": ids["Bob"]}


def test_a_player_who_is_neither_member_nor_guest_is_named_in_a_422(http, club):
    refused = http.post("/sessions", headers=bearer(club.tokens["treasurer"]),
                        json={"players": ["dealer", "auditor", "Zed"]})
    problem = assert_problem(refused, 422, rule="club-member", mentions=("Zed",))
    assert problem["field"] == "players.2"
    # nothing was created on the way
    names = [m["name"] for m in http.get("/members", headers=bearer(club.tokens["admin"]))
             .get_json()["members"]]
    assert "Zed" not in names


def test_another_clubs_member_cannot_be_seated_by_id(engine, http, club):
    theirs = make_club(engine, "Other club")
    refused = http.post("/sessions", headers=bearer(club.tokens["treasurer"]), json={
        "players": ["dealer", "auditor", theirs.members["dealer"]]})
    assert_problem(refused, 422, rule="club-member")


# ---------------------------------------------------------------- idempotency scoping


def test_an_open_key_is_the_senders_own(engine, http, club):
    clubs = Clubs(engine)
    second = clubs.add_member(club.club_id, "second treasurer")
    other_treasurer = clubs.create_token(club.club_id, second["member_id"], "treasurer",
                                         "laptop")["token"]
    theirs = make_club(engine, "Other club")
    body = {"players": ["dealer", "auditor", "treasurer"]}
    key = {"Idempotency-Key": "open-thursday"}

    first = http.post("/sessions", json=body, headers={**key, **bearer(
        club.tokens["treasurer"])})
    replay = http.post("/sessions", json=body, headers={**key, **bearer(
        club.tokens["treasurer"])})
    colleague = http.post("/sessions", json=body, headers={**key, **bearer(other_treasurer)})
    stranger = http.post("/sessions", json=body, headers={**key, **bearer(
        theirs.tokens["treasurer"])})

    assert first.status_code == replay.status_code == 201
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.get_json()["session_id"] == first.get_json()["session_id"]
    sids = {r.get_json()["session_id"] for r in (first, colleague, stranger)}
    assert len(sids) == 3
    for response in (colleague, stranger):
        assert response.status_code == 201 and "Idempotent-Replayed" not in response.headers
    # the stranger's session is theirs, not ours
    assert http.get(f"/sessions/{stranger.get_json()['session_id']}",
                    headers=bearer(club.tokens["treasurer"])).status_code == 404


def test_an_append_key_is_the_senders_own(http, club):
    treasurer, dealer = bearer(club.tokens["treasurer"]), bearer(club.tokens["dealer"])
    sid = http.post("/sessions", headers=treasurer, json={"players": PLAYERS,
                                                          "guests": PLAYERS}).get_json()[
        "session_id"]
    deal = {"type": "DealStarted", "trump_card": "7H",
            "face_up": {"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"}}
    key = {"Idempotency-Key": "deal-1"}
    first = http.post(f"/sessions/{sid}/events", json=deal, headers={**key, **dealer})
    assert first.status_code == 201
    # The treasurer's identical request is not the dealer's retry: it is decided afresh
    # (and the table has moved on), not answered with the dealer's response.
    other = http.post(f"/sessions/{sid}/events", json=deal, headers={**key, **treasurer})
    assert "Idempotent-Replayed" not in other.headers
    assert other.status_code != 201 or other.get_json()["version"] != first.get_json()[
        "version"]
    retry = http.post(f"/sessions/{sid}/events", json=deal, headers={**key, **dealer})
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json() == first.get_json()


# ---------------------------------------------------------------- logs


@pytest.mark.isolated  # changes its app
def test_no_token_reaches_the_logs(app, http, club, caplog):
    caplog.set_level(logging.DEBUG)
    token = club.tokens["treasurer"]

    @app.route("/boom")
    def boom():
        raise RuntimeError("something failed")

    http.get("/club", headers=bearer(token))
    http.get("/club", headers=bearer(token + "x"))
    assert http.get("/boom", headers=bearer(token)).status_code == 500
    assert "something failed" in caplog.text
    assert token.split("_", 2)[2] not in caplog.text


def test_the_access_log_records_no_credentials(capsys):
    namespace: dict = {}
    load_configuration(namespace)
    assert namespace["logger_class"] == "api.http.serving.JsonAccessLogger"
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from api.http.serving import JsonAccessLogger

    config = Config()
    config.set("accesslog", "-")
    logger = JsonAccessLogger(config)
    secret = "loo_abc_s3cr3t"
    req = SimpleNamespace(method="GET", path="/club", query="", uri="/club",
                          version=(1, 1), headers=[("AUTHORIZATION", f"Bearer {secret}"),
                                                   ("COOKIE", "session=s3cr3t")])
    resp = SimpleNamespace(status="200 OK", sent=12, headers=[("X-Request-Id", "r-1")])
    environ = {"REMOTE_ADDR": "127.0.0.1", "HTTP_AUTHORIZATION": f"Bearer {secret}"}
    logger.access(resp, req, environ, timedelta(milliseconds=3))
    line = capsys.readouterr().out.strip().splitlines()[-1]
    record = json.loads(line)
    assert record["request_id"] == "r-1" and record["status"] == 200
    assert "s3cr3t" not in line
