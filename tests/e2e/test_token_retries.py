"""POST /tokens honours Idempotency-Key like every write: a retry makes no second live token
and is answered with the first answer less the secret, which is stored nowhere; the same key
with another body is a 422; a key is its sender's own."""

from __future__ import annotations

import pytest
from sqlalchemy import MetaData, select

from ledger.clubs.service import Clubs
from tests.clubs import make_club

from .conftest import assert_problem

BODY = {"member": "dealer", "role": "dealer", "label": "tablet 3"}


def _headers(token: str, key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Idempotency-Key": key}


def _everything_stored(engine) -> str:
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        return "\n".join(repr(tuple(row)) for table in meta.sorted_tables
                         for row in conn.execute(select(table)))


@pytest.fixture
def club(engine):
    return make_club(engine, "Retries")


def test_a_retried_token_request_makes_one_token_and_never_shows_the_secret_again(app,
                                                                                    engine,
                                                                                    club):
    http = app.test_client()
    admin = club.tokens["admin"]
    before = len(http.get("/tokens", headers=_headers(admin, "x")).get_json()["tokens"])
    first = http.post("/tokens", json=BODY, headers=_headers(admin, "issue-1"))
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    issued = first.get_json()
    secret = issued["token"].split("_", 2)[2]
    again = http.post("/tokens", json=BODY, headers=_headers(admin, "issue-1"))
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == {k: v for k, v in issued.items() if k != "token"}
    listed = http.get("/tokens", headers=_headers(admin, "x")).get_json()["tokens"]
    assert len(listed) == before + 1  # one token, not two
    assert http.get("/club", headers={"Authorization": f"Bearer {issued['token']}"}) \
        .get_json()["token_id"] == issued["token_id"]
    assert secret not in _everything_stored(engine)  # nor in the answer kept for the key

    other = http.post("/tokens", json={**BODY, "label": "tablet 4"},
                      headers=_headers(admin, "issue-1"))
    assert_problem(other, 422, rule="idempotency-key-reuse")


def test_a_token_key_is_its_senders_own(app, engine, club):
    http = app.test_client()
    second = Clubs(engine).add_member(club.club_id, "second admin")
    token = Clubs(engine).create_token(club.club_id, second["member_id"], "admin", "laptop")
    mine = http.post("/tokens", json=BODY, headers=_headers(club.tokens["admin"], "same"))
    theirs = http.post("/tokens", json=BODY, headers=_headers(token["token"], "same"))
    assert mine.status_code == theirs.status_code == 201
    assert "Idempotent-Replayed" not in theirs.headers
    assert mine.get_json()["token_id"] != theirs.get_json()["token_id"]
    assert "token" in theirs.get_json()
