"""Signing a person in with a link (api/routes/signin.py, ledger/clubs/signin.py): an admin
makes a link for a member and any role, a treasurer for member access only; the link's code
is in its fragment and is exchanged once, within 30 minutes, for a token of that member and
role; links are listed and withdrawn; signing out revokes the caller's own token."""

from __future__ import annotations

import re
import secrets
import urllib.parse
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from ledger.clubs.codes import MAX_FAILED
from ledger.store.tables import pairing_codes, tokens
from tests.clubs import Club, make_club

from .conftest import PROBLEM


@pytest.fixture
def club(engine) -> Club:
    return make_club(engine, "Links")


@pytest.fixture
def http(app):
    return app.test_client()


def make_link(http, club: Club, role: str, *, by: str = "admin", member: str = "dealer"):
    return http.post("/signin-links", headers=club.headers(by),
                     json={"member": member, "role": role})


def code_of(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    assert parts.path == "/desk" and parts.query == "", url
    match = re.fullmatch(r"signin=([2-9A-HJ-NP-Z]{26})", parts.fragment)
    assert match, url
    return match.group(1)


def sign_in(http, code: str):
    return http.post("/signin", json={"code": code}, environ_base={
        "REMOTE_ADDR": f"203.0.113.{secrets.randbelow(250) + 1}"})


def test_a_link_signs_its_member_in_once_with_its_role(http, club):
    made = make_link(http, club, "treasurer")
    assert made.status_code == 201, made.get_json()
    assert made.headers["Cache-Control"] == "no-store"
    body = made.get_json()
    assert body["member"] == "dealer" and body["role"] == "treasurer"
    assert body["expires_in_seconds"] == 1800
    expires = datetime.fromisoformat(body["expires_at"])
    assert timedelta(minutes=29) < expires - datetime.now(UTC) <= timedelta(minutes=30)
    code = code_of(body["url"])

    signed = sign_in(http, code.lower())
    assert signed.status_code == 201, signed.get_json()
    assert signed.headers["Cache-Control"] == "no-store"
    token = signed.get_json()
    assert token["member"] == "dealer" and token["role"] == "treasurer"
    assert token["club"] == club.name and token["status"] == "active"
    me = http.get("/club", headers={"Authorization": f"Bearer {token['token']}"})
    assert me.status_code == 200 and me.get_json()["role"] == "treasurer"
    assert me.get_json()["member"] == "dealer"

    again = sign_in(http, code)
    assert again.status_code == 422 and again.mimetype == PROBLEM
    assert again.get_json()["field"] == "code"
    assert "ask your club's admin or treasurer for a new one" in again.get_json()["detail"]

    listed = http.get("/signin-links", headers=club.headers("admin")).get_json()["links"]
    assert [(link["member"], link["role"], link["status"], link["token_id"], link["created_by"])
            for link in listed] == [("dealer", "treasurer", "used", token["token_id"], "admin")]
    # the token was issued on the word of the admin who made the link
    register = http.get("/audit/tokens", headers=club.headers("auditor")).get_json()["tokens"]
    issued = [t for t in register if t["token_id"] == token["token_id"]]
    assert [(t["issued_by_name"], t["reasons"]) for t in issued] == [
        ("admin", ["beyond-issuer-role"])]


def test_an_expired_link_signs_nobody_in(http, engine, club):
    code = code_of(make_link(http, club, "auditor").get_json()["url"])
    with engine.begin() as conn:
        conn.execute(update(pairing_codes).where(pairing_codes.c.club_id == club.club_id)
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    refused = sign_in(http, code)
    assert refused.status_code == 422 and refused.get_json()["rule"] == "signin-code"
    listed = http.get("/signin-links", headers=club.headers("admin")).get_json()["links"]
    assert [link["status"] for link in listed] == ["expired"]


def test_a_treasurer_gives_member_links_only_and_nothing_is_recorded(http, engine, club):
    with engine.connect() as conn:
        before = conn.scalar(select(func.count()).select_from(pairing_codes))
    assert before is not None
    refused = make_link(http, club, "admin", by="treasurer")
    assert refused.status_code == 403 and refused.mimetype == PROBLEM
    assert refused.get_json()["field"] == "role"
    assert "ask the club's admin" in refused.get_json()["detail"]
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(pairing_codes)) == before

    made = make_link(http, club, "member", by="treasurer", member="auditor")
    assert made.status_code == 201, made.get_json()
    make_link(http, club, "dealer")  # the admin's, which the treasurer does not see
    seen = http.get("/signin-links", headers=club.headers("treasurer")).get_json()["links"]
    assert [(link["member"], link["role"]) for link in seen] == [("auditor", "member")]


def test_a_withdrawn_link_signs_nobody_in_and_a_used_one_cannot_be_withdrawn(http, club):
    made = make_link(http, club, "dealer").get_json()
    gone = http.delete(f"/signin-links/{made['link_id']}", headers=club.headers("admin"))
    assert gone.status_code == 200 and gone.get_json()["status"] == "expired"
    assert sign_in(http, code_of(made["url"])).status_code == 422

    used = make_link(http, club, "dealer").get_json()
    assert sign_in(http, code_of(used["url"])).status_code == 201
    late = http.delete(f"/signin-links/{used['link_id']}", headers=club.headers("admin"))
    assert late.status_code == 422 and late.get_json()["field"] == "link_id"
    assert "revoke the access it gave" in late.get_json()["detail"]


def test_wrong_guesses_kill_a_link(http, engine, club):
    code = code_of(make_link(http, club, "auditor").get_json()["url"])
    wrong = code[:-1] + ("2" if code[-1] != "2" else "3")
    for _ in range(MAX_FAILED):
        assert sign_in(http, wrong).status_code == 422
    assert sign_in(http, code).status_code == 422
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(tokens).where(
            tokens.c.club_id == club.club_id, tokens.c.label == "sign-in link")) == 0


def test_a_pairing_code_is_no_sign_in_link_nor_a_link_a_pairing_code(http, club):
    code = code_of(make_link(http, club, "dealer").get_json()["url"])
    assert http.post("/pairing", json={"code": code}).status_code == 422
    short = sign_in(http, "K7QM-3XPD")
    assert short.status_code == 422 and "open the whole link" in short.get_json()["detail"]
    assert sign_in(http, code).status_code == 201  # the failed tries did not spend it


def test_signing_out_revokes_the_callers_own_token(http, club):
    code = code_of(make_link(http, club, "auditor").get_json()["url"])
    token = sign_in(http, code).get_json()
    headers = {"Authorization": f"Bearer {token['token']}"}
    out = http.post("/signout", headers=headers)
    assert out.status_code == 200 and out.get_json()["token_id"] == token["token_id"]
    assert http.get("/club", headers=headers).status_code == 401
    listed = {t["token_id"]: t for t in
              http.get("/tokens", headers=club.headers("admin")).get_json()["tokens"]}
    assert listed[token["token_id"]]["status"] == "revoked"
    assert listed[club.token_ids["admin"]]["status"] == "active"


def test_no_log_line_holds_a_links_code_or_the_token_it_gives(http, club, caplog):
    caplog.set_level("DEBUG")
    made = make_link(http, club, "auditor").get_json()
    code = code_of(made["url"])
    signed = sign_in(http, code).get_json()
    assert sign_in(http, code).status_code == 422
    assert caplog.records, "the requests were logged"
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert "POST /signin" in logged
    assert code not in logged and code.lower() not in logged
    assert signed["token"] not in logged


def test_the_desk_is_a_page_that_loads_its_own_files_only(http):
    page = http.get("/desk")
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self';" in policy
    assert "connect-src 'self'" in policy and "unsafe-inline" not in policy
    html = page.get_data(as_text=True)
    assert '<script type="module" src="/desk/static/desk.js">' in html
    assert "<script>" not in html and "style=" not in html
    script = http.get("/desk/static/desk.js")
    try:
        assert script.status_code == 200 and "javascript" in script.mimetype
    finally:
        script.close()  # a static file is sent from an open file
