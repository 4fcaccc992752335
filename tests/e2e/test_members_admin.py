"""The admin's changes to the members over HTTP, on both databases (api/routes/clubs.py,
ledger/clubs/membership.py): a member renamed, a guest made a member, a member retired, the
club's currencies set, the checkpoint key read. Each change is one entry of the club's log;
each refusal is problem+json naming its field, and appends nothing; a treasurer is refused
(403) before anything is looked up."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from api.cli.main import main
from ledger.audit import checkpoint_log, checkpoints
from ledger.books.service import Books
from ledger.clubs.service import Actor
from ledger.domain import LedgerError, OpenSession
from ledger.sessions.service import Ledger
from ledger.store import clubstore
from ledger.store.tables import book_entries, club_log
from ledger.writes import WriteRequest
from tests.clubs import Club, make_club

from .conftest import assert_problem


@pytest.fixture
def club(engine) -> Club:
    return make_club(engine, "Members")


@pytest.fixture
def http(app):
    return app.test_client()


def bearer(club: Club, role: str) -> dict[str, str]:
    return club.headers(role)


def logged(engine, club: Club) -> list[tuple[str, dict]]:
    """The club log's entries, (type, payload), in order."""
    with engine.connect() as conn:
        return [(t, p) for t, p in conn.execute(
            select(club_log.c.type, club_log.c.payload)
            .where(club_log.c.club_id == club.club_id).order_by(club_log.c.seq))]


def member_id(http, club: Club, name: str, *, retired: bool = False) -> str | None:
    listed = http.get(f"/members{'?retired=true' if retired else ''}",
                      headers=bearer(club, "admin")).get_json()["members"]
    return next((m["member_id"] for m in listed if m["name"] == name), None)


def add(http, club: Club, name: str, *, guest: bool = False) -> str:
    made = http.post("/members", headers=bearer(club, "admin"),
                     json={"name": name, "guest": guest})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["member_id"]


def books_verify(engine, club: Club) -> list[str]:
    return Books(engine, club.club_id).verify()


def test_the_admin_renames_a_member_and_the_log_says_so(http, engine, club):
    tess = add(http, club, "Tes")
    add(http, club, "Ode")
    before = len(logged(engine, club))
    renamed = http.patch(f"/members/{tess}", headers=bearer(club, "admin"),
                         json={"name": "Tess"})
    assert renamed.status_code == 200, renamed.get_json()
    assert renamed.get_json() == {**renamed.get_json(), "name": "Tess", "guest": False,
                                  "retired_at": None}
    assert logged(engine, club)[before:] == [("MemberRenamed",
                                              {"member_id": tess, "name": "Tess"})]
    assert member_id(http, club, "Tess") == tess and member_id(http, club, "Tes") is None

    # another member's name in another case: refused beside the name, nothing appended
    clash = http.patch(f"/members/{tess}", headers=bearer(club, "admin"), json={"name": "ODE"})
    problem = assert_problem(clash, 422, rule="member-name-unique", mentions=("Ode",))
    assert problem["field"] == "name"
    bad = http.patch(f"/members/{tess}", headers=bearer(club, "admin"), json={"name": " x"})
    assert_problem(bad, 422)
    nothing = http.patch(f"/members/{tess}", headers=bearer(club, "admin"), json={})
    assert_problem(nothing, 422, rule="member-change")
    assert len(logged(engine, club)) == before + 1
    # a renamed member's own token names him by his new name
    assert books_verify(engine, club) == []


def test_a_guest_becomes_a_member_and_a_member_is_not_made_a_guest(http, engine, club):
    dee = add(http, club, "Dee", guest=True)
    before = len(logged(engine, club))
    made = http.patch(f"/members/{dee}", headers=bearer(club, "admin"), json={"guest": False})
    assert made.status_code == 200 and made.get_json()["guest"] is False
    assert logged(engine, club)[before:] == [("GuestAdmitted", {"member_id": dee})]
    back = http.patch(f"/members/{dee}", headers=bearer(club, "admin"), json={"guest": True})
    problem = assert_problem(back, 422, rule="member-guest")
    assert problem["field"] == "guest"
    assert len(logged(engine, club)) == before + 1
    assert books_verify(engine, club) == []


def test_a_treasurer_may_not_change_or_retire_a_member(http, engine, club):
    dee = add(http, club, "Dee", guest=True)
    before = len(logged(engine, club))
    for response in (
            http.patch(f"/members/{dee}", headers=bearer(club, "treasurer"),
                       json={"name": "Deedee"}),
            http.post(f"/members/{dee}/retirement", headers=bearer(club, "treasurer")),
            http.post(f"/members/{dee}/retirement", headers=bearer(club, "dealer"))):
        assert_problem(response, 403, rule="role")
    assert len(logged(engine, club)) == before
    # another club's admin finds no such member
    theirs = make_club(engine, "Theirs")
    assert_problem(http.post(f"/members/{dee}/retirement", headers=bearer(theirs, "admin")),
                   404, rule="member-exists")


def test_a_member_seated_at_an_open_table_or_owing_the_club_is_not_retired(http, engine,
                                                                          club):
    ann, bob = add(http, club, "Ann"), add(http, club, "Bob")
    opened = http.post("/sessions", headers=bearer(club, "treasurer"),
                       json={"players": ["Ann", "treasurer", "dealer"], "name": "Friday"})
    assert opened.status_code == 201, opened.get_json()
    Books(engine, club.club_id).record_payment(
        payer="club", payee="Bob", amount_minor=250, currency="GBP", method="cash",
        request=WriteRequest(Actor("treasurer", club.members["treasurer"])))
    before = len(logged(engine, club))
    seated = http.post(f"/members/{ann}/retirement", headers=bearer(club, "admin"))
    problem = assert_problem(seated, 409, rule="member-seated", mentions=("Friday",))
    assert problem["field"] == "member_id"
    owing = http.post(f"/members/{bob}/retirement", headers=bearer(club, "admin"))
    assert_problem(owing, 409, rule="member-unsettled",
                   mentions=("he owes the club 2.50 GBP", "write it off"))
    itself = http.post(f"/members/{club.members['admin']}/retirement",
                       headers=bearer(club, "admin"))
    assert_problem(itself, 422, rule="member-retire-self")
    assert len(logged(engine, club)) == before
    assert member_id(http, club, "Ann") == ann and member_id(http, club, "Bob") == bob


def test_a_retired_member_keeps_his_history_and_loses_his_access(http, engine, club, capsys):
    # the dealer's own token, a waiting sign-in link for him; he sat at a table that ended
    opened = http.post("/sessions", headers=bearer(club, "treasurer"),
                       json={"players": ["dealer", "treasurer", "auditor"], "name": "Old"})
    sid = opened.get_json()["session_id"]
    ended = http.post(f"/sessions/{sid}/events", headers={
        **bearer(club, "treasurer"), "If-Match": '"1"'},
        json={"type": "SessionEnded", "method": "divide-pool"})
    assert ended.status_code == 201, ended.get_json()
    link = http.post("/signin-links", headers=bearer(club, "admin"),
                     json={"member": "dealer", "role": "dealer"}).get_json()
    dealer = club.members["dealer"]
    before = len(logged(engine, club))
    with engine.connect() as conn:
        book = conn.scalar(select(func.count()).select_from(book_entries))

    retired = http.post(f"/members/{dealer}/retirement",
                        headers={**bearer(club, "admin"), "Idempotency-Key": "retire-dealer"})
    assert retired.status_code == 200, retired.get_json()
    assert retired.get_json()["retired_at"]
    entries = logged(engine, club)[before:]
    assert [t for t, _ in entries] == ["TokenRevoked", "MemberRetired"]
    assert entries[0][1]["token_id"] == club.token_ids["dealer"]
    again = http.post(f"/members/{dealer}/retirement",
                      headers={**bearer(club, "admin"), "Idempotency-Key": "retire-dealer"})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == retired.get_json()
    assert_problem(http.post(f"/members/{dealer}/retirement", headers=bearer(club, "admin")),
                   409, rule="member-retired")
    assert_problem(http.patch(f"/members/{dealer}", headers=bearer(club, "admin"),
                              json={"name": "Dealer Two"}), 409, rule="member-retired")
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(book_entries)) == book

    # his access is gone: his token, his waiting link
    assert http.get("/club", headers=bearer(club, "dealer")).status_code == 401
    spent = http.post("/signin", json={"code": link["url"].split("signin=")[1]})
    assert_problem(spent, 422)
    # not listed, but with retired=true; his history reads as before
    assert member_id(http, club, "dealer") is None
    assert member_id(http, club, "dealer", retired=True) == dealer
    played = http.get(f"/members/{dealer}/statements", headers=bearer(club, "auditor"))
    assert [s["session_name"] for s in played.get_json()["sessions"]] == ["Old"]

    # he is not seated, paired, given a link or a token again
    before = len(logged(engine, club))
    seat = http.post("/sessions", headers=bearer(club, "treasurer"),
                     json={"players": ["dealer", "treasurer"]})
    problem = assert_problem(seat, 422, rule="member-retired", mentions=("retired",))
    assert problem["field"] == "players.0"
    other = http.post("/sessions", headers=bearer(club, "treasurer"),
                      json={"players": ["treasurer", "auditor"]}).get_json()["session_id"]
    pair = http.post(f"/sessions/{other}/pairing-codes", headers=bearer(club, "treasurer"),
                     json={"member": "dealer"})
    assert_problem(pair, 422, rule="member-retired")
    assert_problem(http.post("/signin-links", headers=bearer(club, "admin"),
                             json={"member": "dealer", "role": "member"}),
                   422, rule="member-retired")
    assert_problem(http.post("/tokens", headers=bearer(club, "admin"),
                             json={"member": "dealer", "role": "member", "label": "x"}),
                   422, rule="member-retired")
    assert [t for t, _ in logged(engine, club)[before:]] == []  # the other table's opening
    assert books_verify(engine, club) == []
    # the operator's list names him, retired
    capsys.readouterr()
    assert main(["member", "list", "--club", club.name, "--database-url",
                 engine.url.render_as_string(hide_password=False)]) == 0
    listed = capsys.readouterr().out
    assert f"{dealer}  dealer  (retired {retired.get_json()['retired_at'][:10]})" in listed


def test_the_admin_sets_the_currencies_and_a_refusal_records_nothing(http, engine, club):
    set_ = http.put("/club/currencies", headers={**bearer(club, "admin"),
                                                 "Idempotency-Key": "currencies-1"},
                    json={"currency": "EUR", "accepted": ["GBP"]})
    assert set_.status_code == 201, set_.get_json()
    read = http.get("/club/currencies", headers=bearer(club, "auditor")).get_json()
    assert (read["currency"], read["accepted"]) == ("EUR", ["GBP"])
    with engine.connect() as conn:
        before = conn.scalar(select(func.count()).select_from(book_entries))
    twice = http.put("/club/currencies", headers={**bearer(club, "admin"),
                                                  "Idempotency-Key": "currencies-2"},
                     json={"currency": "EUR", "accepted": ["EUR"]})
    problem = assert_problem(twice, 422, rule="currency-listed-twice")
    assert problem["field"] == "accepted"
    assert_problem(http.put("/club/currencies", headers={**bearer(club, "dealer"),
                                                         "Idempotency-Key": "c3"},
                            json={"currency": "GBP"}), 403, rule="role")
    with engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(book_entries)) == before


def test_the_checkpoint_key_shows_whether_heads_are_signed_and_its_public_key(
        http, club, monkeypatch, tmp_path):
    monkeypatch.setenv("LOO_INSTANCE_DIR", str(tmp_path))
    monkeypatch.delenv("LOO_CHECKPOINT_KEY", raising=False)
    monkeypatch.delenv("LOO_CHECKPOINT_KEY_FILE", raising=False)
    checkpoints.forget_configuration()
    checkpoint_log.forget_state()
    try:
        off = http.get("/club/checkpoint-key", headers=bearer(club, "admin")).get_json()
        assert off == {"signed": False, "signing": "off", "public_key": None, "key_id": None,
                       "source": None}
        signer, seed = checkpoints.Signer.generate()
        monkeypatch.setenv("LOO_CHECKPOINT_KEY", seed)
        checkpoints.forget_configuration()
        on = http.get("/club/checkpoint-key", headers=bearer(club, "auditor")).get_json()
        assert on == {"signed": True, "signing": "ok", "public_key": signer.public_hex,
                      "key_id": checkpoints.key_id(signer.public_hex),
                      "source": "environment"}
        assert "seed" not in str(on) and seed not in str(on)
        assert_problem(http.get("/club/checkpoint-key", headers=bearer(club, "dealer")), 403)
    finally:
        monkeypatch.undo()
        checkpoints.forget_configuration()
        checkpoint_log.forget_state()


@pytest.mark.backends("postgresql")
def test_a_table_opening_while_its_player_retires_waits_and_is_refused(http, engine, club):
    ann = add(http, club, "Ann")
    outcome: list[object] = []
    with engine.connect() as conn, conn.begin():  # a retirement in progress: his row held
        clubstore.find_member(conn, club.club_id, member_id=ann, lock="update")

        def open_table() -> None:
            try:
                Ledger(engine).for_club(club.club_id).open_session(
                    OpenSession(players=["Ann", "treasurer"], name="Late"),
                    WriteRequest(Actor("treasurer", club.members["treasurer"])))
                outcome.append("opened")
            except LedgerError as error:
                outcome.append(error.rule)

        opening = threading.Thread(target=open_table)
        opening.start()
        opening.join(timeout=1.5)
        assert opening.is_alive() and outcome == []  # it waits for the retirement
        clubstore.retire_member(conn, club.club_id, ann, now=datetime.now(UTC))
    opening.join(timeout=10)
    assert outcome == ["member-retired"]
