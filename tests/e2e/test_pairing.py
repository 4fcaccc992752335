"""Signing a tablet in mid-game (api/routes/tablets.py, ledger/clubs/tablets.py): the treasurer's
screen shows a code and its QR code; the tablet exchanges the code once, within minutes, for a
dealer token that lasts the evening; a dealer lists the club's open sessions; the entries since a
version name the device that logged them."""

from __future__ import annotations

import base64
import re
import secrets
import urllib.parse
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import MetaData, select, update

from ledger.clubs.codes import MAX_FAILED
from ledger.clubs.service import Actor
from ledger.domain import OpenSession
from ledger.domain.commands import EndSession, StartDeal
from ledger.sessions.service import Ledger
from ledger.store.tables import pairing_codes, tokens
from ledger.writes import WriteRequest
from tests.clubs import Club, make_club

from .conftest import PROBLEM

PLAYERS = ["treasurer", "dealer", "auditor", "admin"]


@pytest.fixture
def club(engine) -> Club:
    return make_club(engine, "Thursday Loo")


@pytest.fixture
def http(app):
    return app.test_client()


def auth(club: Club, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {club.tokens[role]}"}


def open_session(engine, club: Club, name: str = "Thursday") -> str:
    ledger = Ledger(engine).for_club(club.club_id)
    opened = ledger.open_session(OpenSession(players=PLAYERS, name=name),
                                 WriteRequest(Actor("treasurer", club.members["treasurer"])))
    return str(opened.body["session_id"])


def make_code(http, club: Club, sid: str, role: str = "treasurer", **body) -> dict:
    """A pairing code for the club's dealer (unless `body` names another member)."""
    body.setdefault("member", "dealer")
    response = http.post(f"/sessions/{sid}/pairing-codes", headers=auth(club, role),
                         json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def pair(http, code: str, **environ):
    """POST /pairing, from an address of its own unless `environ` names one: the app, and
    so its count of wrong codes per address, is shared by the module's tests."""
    environ.setdefault("REMOTE_ADDR", f"198.51.100.{secrets.randbelow(250) + 1}")
    return http.post("/pairing", json={"code": code}, environ_base=environ)


def test_a_code_signs_a_tablet_in_once_as_a_dealer_for_the_evening(engine, http, club):
    sid = open_session(engine, club)
    made = make_code(http, club, sid)
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", made["code"]), made["code"]
    assert made["session_id"] == sid and made["role"] == "dealer"
    assert made["member"] == "dealer" and made["expires_in_seconds"] == 600
    expires = datetime.fromisoformat(made["expires_at"])
    assert timedelta(minutes=9) < expires - datetime.now(UTC) <= timedelta(minutes=10)

    # typed as a dealer would: lower case, a space for the dash
    paired = pair(http, made["code"].lower().replace("-", " "))
    assert paired.status_code == 201, paired.get_json()
    assert paired.headers["Cache-Control"] == "no-store"
    body = paired.get_json()
    assert body["session_id"] == sid and body["role"] == "dealer"
    assert body["label"] == "Tablet 1" and body["club"] == club.name
    lasts = datetime.fromisoformat(body["expires_at"]) - datetime.now(UTC)
    assert timedelta(hours=11, minutes=59) < lasts <= timedelta(hours=12)
    token = {"Authorization": f"Bearer {body['token']}"}
    who = http.get("/club", headers=token).get_json()
    assert (who["role"], who["token_label"], who["member"]) == ("dealer", "Tablet 1",
                                                                 "dealer")
    assert http.get(f"/sessions/{sid}", headers=token).status_code == 200
    # a dealer's token: it logs play but may not read the log or make codes
    assert http.get(f"/sessions/{sid}/events", headers=token).status_code == 403
    assert http.post(f"/sessions/{sid}/pairing-codes", headers=token).status_code == 403

    # used once: the same code again is refused exactly like one never made
    again = pair(http, made["code"])
    never = pair(http, "2222-2222")
    assert again.status_code == never.status_code == 422
    assert again.mimetype == PROBLEM
    assert {**again.get_json(), "instance": None} == {**never.get_json(), "instance": None}
    assert again.get_json()["rule"] == "pairing-code"

    # the next tablet paired to the session is Tablet 2, unless the treasurer names it
    second = pair(http, make_code(http, club, sid)["code"]).get_json()
    named = pair(http, make_code(http, club, sid, label="Bar tablet",
                                 member="auditor")["code"]).get_json()
    assert second["label"] == "Tablet 2"
    assert (named["label"], named["member"]) == ("Bar tablet", "auditor")


def test_a_paired_tablet_logs_as_the_dealer_it_was_paired_for_never_the_treasurer(
        engine, http, club):
    sid = open_session(engine, club)
    # the code names nobody: refused, the ledger will not guess who logs at the tablet
    nameless = http.post(f"/sessions/{sid}/pairing-codes", headers=auth(club, "treasurer"),
                         json={})
    assert nameless.status_code == 422 and nameless.get_json()["field"] == "member"
    paired = pair(http, make_code(http, club, sid, member="dealer")["code"]).get_json()
    tablet = {"Authorization": f"Bearer {paired['token']}", "If-Match": '"1"'}
    logged = http.post(f"/sessions/{sid}/events", headers=tablet, json={
        "type": "DealStarted", "trump_card": "7H",
        "face_up": dict(zip(PLAYERS, ["5C", "9H", "KS", "QH", "2H"], strict=False))})
    assert logged.status_code == 201, logged.get_json()
    entries = http.get(f"/sessions/{sid}/entries?after=1",
                       headers=auth(club, "treasurer")).get_json()["entries"]
    assert entries and {e["actor"] for e in entries} == {"dealer"}
    assert {e["device"] for e in entries} == {"Tablet 1"}
    stored = http.get(f"/sessions/{sid}/events", headers=auth(club, "auditor")).get_json()
    logged_by = {e["member_id"] for e in stored["events"] if e["version"] > 1}
    assert logged_by == {club.members["dealer"]}


def test_the_code_is_stored_hashed_and_its_qr_code_carries_it_in_the_fragment(
        engine, http, club):
    sid = open_session(engine, club)
    made = make_code(http, club, sid)
    plain = made["code"].replace("-", "")
    assert made["url"].endswith(f"/table#pair={plain}")
    assert "?" not in made["url"]  # never in a query string a server logs
    head, _, data = made["qr_svg"].partition(",")
    assert head.startswith("data:image/svg+xml")
    svg = urllib.parse.unquote(data) if "base64" not in head else base64.b64decode(data).decode()
    assert svg.lstrip().startswith(("<svg", "<?xml")) and "<script" not in svg
    token = pair(http, made["code"]).get_json()["token"]
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        everything = "\n".join(repr(tuple(row)) for table in meta.sorted_tables
                               for row in conn.execute(select(table)))
    for secret in (plain, made["code"], token, token.split("_", 2)[2]):  # loo_<id>_<secret>
        assert secret not in everything


def test_an_expired_code_is_refused(engine, http, club):
    sid = open_session(engine, club)
    made = make_code(http, club, sid)
    with engine.begin() as conn:
        conn.execute(update(pairing_codes).where(pairing_codes.c.session_id == sid).values(
            expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    refused = pair(http, made["code"])
    assert refused.status_code == 422 and refused.get_json()["rule"] == "pairing-code"


def test_wrong_guesses_at_a_code_kill_it(engine, http, club):
    sid = open_session(engine, club)
    made = make_code(http, club, sid)
    plain = made["code"].replace("-", "")
    wrong = [plain[:3] + s for s in ("22222", "33333", "44444", "55555", "66666", "77777")
             if plain[:3] + s != plain][:MAX_FAILED]
    for guess in wrong:
        assert pair(http, guess).status_code == 422
    with engine.connect() as conn:
        assert conn.scalar(select(pairing_codes.c.failed_attempts).where(
            pairing_codes.c.session_id == sid)) == MAX_FAILED
    refused = pair(http, made["code"])  # the right code, too late
    assert refused.status_code == 422
    with engine.connect() as conn:
        assert conn.scalar(select(tokens.c.id).where(
            tokens.c.club_id == club.club_id, tokens.c.label == "Tablet 1")) is None


def test_too_many_failures_from_one_address_are_answered_429(app, engine, http, club,
                                                            monkeypatch):
    monkeypatch.setitem(app.config, "PAIRING_FAILURES_PER_MINUTE", 3)
    sid = open_session(engine, club)
    made = make_code(http, club, sid)
    here = {"REMOTE_ADDR": "192.0.2.7"}
    assert pair(http, "not a code", **here).status_code == 422
    assert pair(http, "2222-2222", **here).status_code == 422
    assert pair(http, "3333-3333", **here).status_code == 422
    blocked = pair(http, made["code"], **here)
    assert blocked.status_code == 429 and blocked.mimetype == PROBLEM
    assert 1 <= int(blocked.headers["Retry-After"]) <= 60
    assert blocked.get_json()["rule"] == "pairing-attempts"
    # another address is not held back, and the code was not spent by the blocked try
    assert pair(http, made["code"], REMOTE_ADDR="192.0.2.8").status_code == 201


def test_a_code_is_for_an_open_session_of_the_callers_club(engine, http, club):
    sid = open_session(engine, club)
    other = make_club(engine, "Another club")
    missing = http.post(f"/sessions/{sid}/pairing-codes", headers=auth(other, "treasurer"),
                        json={"member": "dealer"})
    assert missing.status_code == 404
    nobody = http.post(f"/sessions/{sid}/pairing-codes", headers=auth(club, "treasurer"),
                       json={"member": "nobody"})
    assert nobody.status_code == 404 and nobody.get_json()["field"] == "member"
    Ledger(engine).for_club(club.club_id).append(
        sid, [EndSession(method="divide-pool")],
        WriteRequest(Actor("treasurer", club.members["treasurer"])))
    ended = http.post(f"/sessions/{sid}/pairing-codes", headers=auth(club, "treasurer"),
                      json={"member": "dealer"})
    assert ended.status_code == 422 and ended.get_json()["rule"] == "session-open"
    unknown = http.post(f"/sessions/{sid}/pairing-codes", headers=auth(club, "treasurer"),
                        json={"member": "dealer", "colour": "red"})
    assert unknown.status_code == 422


def test_a_dealer_lists_the_clubs_open_sessions_newest_first(engine, http, club):
    first = open_session(engine, club, "Monday")
    second = open_session(engine, club, "Thursday")
    ended = open_session(engine, club, "Last week")
    actor = Actor("treasurer", club.members["treasurer"])
    ledger = Ledger(engine).for_club(club.club_id)
    ledger.append(ended, [EndSession(method="divide-pool")], WriteRequest(actor))
    ledger.append(first, [StartDeal(trump_card="7H", face_up={
        "dealer": "2C", "auditor": "3C", "admin": "4C", "treasurer": "5C"})], WriteRequest(actor))
    open_session(engine, make_club(engine, "Elsewhere"), "Not ours")
    listed = http.get("/club/sessions", headers=auth(club, "dealer"))
    assert listed.status_code == 200
    sessions = listed.get_json()["sessions"]
    assert [s["name"] for s in sessions] == ["Monday", "Thursday"]
    assert sessions[0]["session_id"] == first and sessions[1]["session_id"] == second
    assert sessions[0]["deal_no"] == 1 and sessions[0]["active"] == PLAYERS
    assert sessions[1]["next_dealer"] == "treasurer"


def test_the_entries_since_a_version_name_the_device_that_logged_them(engine, http, club):
    sid = open_session(engine, club)
    token = pair(http, make_code(http, club, sid)["code"]).get_json()
    tablet = {"Authorization": f"Bearer {token['token']}"}
    ledger = Ledger(engine).for_club(club.club_id)
    actor = Actor("treasurer", club.members["treasurer"])
    single = ledger.append(sid, [StartDeal(trump_card="7H", face_up={
        "dealer": "2C", "auditor": "3C", "admin": "4C", "treasurer": "5C"})], WriteRequest(actor))
    mark = single.body["version"]
    ledger.append(sid, [StartDeal(trump_card="3D")], WriteRequest(actor))
    logged = http.post(f"/sessions/{sid}/events",
                       headers={**tablet, "If-Match": f'"{mark + 1}"'},
                       json={"type": "DeclarationMade", "player": "auditor",
                             "declaration": "play"})
    assert logged.status_code == 201, logged.get_json()
    got = http.get(f"/sessions/{sid}/entries?after={mark}", headers=auth(club, "dealer"))
    assert got.status_code == 200, got.get_json()
    body = got.get_json()
    assert body["complete"] is True and body["version"] == mark + 2
    entries = body["entries"]
    # the treasurer's append came through the ledger itself (no token: no device); the
    # tablet's, in the name of the dealer it was paired for
    assert [(e["device"], e["actor"]) for e in entries] == [(None, "treasurer"),
                                                             ("Tablet 1", "dealer")]
    assert entries[1]["events"][0]["type"] == "DeclarationMade"
    assert entries[1]["events"][0]["payload"]["player"] == "auditor"
    assert entries[1]["superseded_by"] is None
    # the tablet undoes its entry: the entry says which correction voided it
    undone = http.post(f"/sessions/{sid}/undo",
                       headers={**tablet, "If-Match": f'"{mark + 2}"'}, json={"reason": "mis-tap"})
    assert undone.status_code == 201, undone.get_json()
    again = http.get(f"/sessions/{sid}/entries?after={mark}", headers=tablet).get_json()
    assert again["entries"][1]["superseded_by"] == mark + 3
    assert again["entries"][2]["events"][0]["type"] == "EntryCorrected"
    assert again["entries"][2]["device"] == "Tablet 1"
    assert http.get(f"/sessions/{sid}/entries?after=-1", headers=tablet).status_code == 422
    other = make_club(engine, "Another club")
    foreign = http.get(f"/sessions/{sid}/entries", headers=auth(other, "dealer"))
    assert foreign.status_code == 404
