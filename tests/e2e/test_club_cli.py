"""`lanterloo club create`, `member add`, `token create | list | revoke`, and the demo's
tokens printed by `serve --demo`."""

from __future__ import annotations

import re

import pytest

from api import create_app
from api.cli.demo import DEMO_STAFF, demo_tokens, load_demo
from api.cli.main import main
from ledger.clubs.service import Clubs
from ledger.sessions.service import Ledger
from ledger.store.db import make_engine

TOKEN = re.compile(r"^\s+(loo_[0-9a-f]{16}_\S+)$", re.M)


@pytest.fixture(autouse=True)
def own_instance_folder(tmp_path, monkeypatch):
    """`club create` makes a checkpoint key in the instance folder: each test its own."""
    from ledger.audit import checkpoint_log, checkpoints

    monkeypatch.setenv("LOO_INSTANCE_DIR", str(tmp_path / "instance"))
    monkeypatch.delenv("LOO_CHECKPOINT_LOG", raising=False)
    checkpoints.forget_configuration()
    checkpoint_log.forget_state()
    yield tmp_path / "instance"
    checkpoints.forget_configuration()
    checkpoint_log.forget_state()


@pytest.fixture
def http(database_url):
    engine = make_engine(database_url)
    yield create_app({"ENGINE": engine, "TESTING": True}).test_client()
    engine.dispose()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def me(http, token: str):
    return http.get("/club", headers={"Authorization": f"Bearer {token}"})


def test_club_create_prints_the_first_admin_and_a_working_token(database_url, http, capsys):
    status, out, _ = run(capsys, "club", "create", "Thursday Loo", "--admin", "Mrs Bell",
                         "--database-url", database_url)
    assert status == 0, out
    token = TOKEN.search(out).group(1)
    assert "member" in out and "Mrs Bell (admin)" in out and "shown this once" in out
    answer = me(http, token).get_json()
    assert (answer["club"], answer["member"], answer["role"]) == (
        "Thursday Loo", "Mrs Bell", "admin")

    status, _, err = run(capsys, "club", "create", "THURSDAY LOO", "--database-url",
                         database_url)
    assert status == 2 and "exists already" in err


def test_club_create_makes_a_checkpoint_key_in_the_instance_folder_once_mode_600(
        database_url, http, capsys, own_instance_folder, tmp_path, monkeypatch):
    from ledger.audit.checkpoints import Signer

    status, out, _ = run(capsys, "club", "create", "Thursday Loo", "--database-url",
                         database_url)
    key_file = own_instance_folder / "checkpoint.key"
    assert status == 0 and f"checkpoint key: made {key_file} (mode 600)" in out
    assert key_file.stat().st_mode & 0o777 == 0o600
    public = Signer.from_text(key_file.read_text()).public_hex
    assert f"checkpoint public key: {public} " in out
    assert f"signed heads kept in {own_instance_folder / 'checkpoints.jsonl'}" in out

    status, out, _ = run(capsys, "club", "create", "Friday Loo", "--database-url",
                         database_url)
    assert status == 0 and "made" not in out and f"checkpoint public key: {public} " in out

    # A key configured elsewhere is used, and none is made.
    configured, seed = Signer.generate()
    (tmp_path / "elsewhere.key").write_text(seed)
    monkeypatch.setenv("LOO_CHECKPOINT_KEY_FILE", str(tmp_path / "elsewhere.key"))
    key_file.unlink()
    from ledger.audit import checkpoints

    checkpoints.forget_configuration()
    status, out, _ = run(capsys, "club", "create", "Saturday Loo", "--database-url",
                         database_url)
    assert status == 0 and f"checkpoint public key: {configured.public_hex} " in out
    assert not key_file.exists()


def test_club_create_prints_the_admins_sign_in_link_and_club_link_makes_another(
        database_url, http, capsys):
    status, out, _ = run(capsys, "club", "create", "Friday Loo", "--admin", "Mrs Bell",
                         "--url", "https://loo.example.org/", "--database-url", database_url)
    assert status == 0, out
    assert "sign-in link for Mrs Bell (admin), good once within 30 minutes" in out
    code = re.search(r"^  https://loo\.example\.org/desk#signin=([2-9A-HJ-NP-Z]{26})$", out,
                     re.M).group(1)
    signed = http.post("/signin", json={"code": code})
    assert signed.status_code == 201, signed.get_json()
    assert (signed.get_json()["member"], signed.get_json()["role"]) == ("Mrs Bell", "admin")
    assert signed.get_json()["label"] == "sign-in link (command line)"
    assert http.post("/signin", json={"code": code}).status_code == 422
    # the operator's link, as the command line's tokens: issued by no member, so the token
    # register has nothing to say of it (not "self-issued")
    register = http.get("/audit/tokens", headers={
        "Authorization": f"Bearer {signed.get_json()['token']}"}).get_json()
    assert [t for t in register["tokens"] if t["token_id"] == signed.get_json()["token_id"]] \
        == []

    run(capsys, "member", "add", "--club", "Friday Loo", "Tess", "--database-url",
        database_url)
    status, out, _ = run(capsys, "club", "link", "Friday Loo", "--member", "tess", "--role",
                         "treasurer", "--database-url", database_url)
    assert status == 0, out
    code = re.search(r"^  http://localhost:8000/desk#signin=(\w{26})$", out, re.M).group(1)
    signed = http.post("/signin", json={"code": code}).get_json()
    assert (signed["member"], signed["role"]) == ("Tess", "treasurer")


def test_token_create_list_and_revoke(database_url, http, capsys):
    run(capsys, "club", "create", "Thursday Loo", "--database-url", database_url)
    status, out, _ = run(capsys, "member", "add", "--club", "thursday loo", "Dan",
                         "--database-url", database_url)
    assert status == 0 and "Dan" in out
    status, out, _ = run(capsys, "token", "create", "--club", "Thursday Loo", "--member", "dan",
                         "--role", "dealer", "--label", "tablet 2", "--expires-in-days", "7",
                         "--database-url", database_url)
    assert status == 0, out
    token = TOKEN.search(out).group(1)
    token_id = token.split("_")[1]
    assert me(http, token).get_json()["token_label"] == "tablet 2"

    status, out, _ = run(capsys, "token", "list", "--club", "Thursday Loo", "--database-url",
                         database_url)
    assert status == 0 and token_id in out and "active" in out
    assert token.split("_", 2)[2] not in out

    status, out, _ = run(capsys, "token", "revoke", token_id, "--database-url", database_url)
    assert status == 0 and "revoked" in out
    assert me(http, token).status_code == 401
    _, out, _ = run(capsys, "token", "list", "--club", "Thursday Loo", "--database-url",
                    database_url)
    assert re.search(rf"{token_id}\s+revoked", out)


def test_the_cli_refuses_what_the_api_refuses(database_url, capsys):
    run(capsys, "club", "create", "Thursday Loo", "--database-url", database_url)
    for argv in (["token", "create", "--club", "Nope", "--member", "admin", "--role", "dealer",
                  "--label", "x"],
                 ["token", "create", "--club", "Thursday Loo", "--member", "nobody", "--role",
                  "dealer", "--label", "x"],
                 ["token", "revoke", "0" * 16]):
        status, _, err = run(capsys, *argv, "--database-url", database_url)
        assert status == 2 and err.startswith("error: "), (argv, err)


def test_the_demo_tokens_each_act_in_their_role(engine, app, capsys):
    session_id = load_demo(Ledger(engine))
    tokens = demo_tokens(Clubs(engine))
    client = app.test_client()
    for role, token in tokens.items():
        answer = me(client, token).get_json()
        assert (answer["role"], answer["member"]) == (role, DEMO_STAFF[role])
    auditor = {"Authorization": f"Bearer {tokens['auditor']}"}
    assert client.get(f"/sessions/{session_id}/statement", headers=auditor).status_code == 200
    log = client.get(f"/sessions/{session_id}/events?limit=1000", headers=auditor).get_json()
    assert {e["actor"] for e in log["events"]} == {DEMO_STAFF["treasurer"],
                                                     DEMO_STAFF["dealer"]}
    # Starting again revokes the previous demo tokens.
    fresh = demo_tokens(Clubs(engine))
    assert me(client, tokens["dealer"]).status_code == 401
    assert me(client, fresh["dealer"]).status_code == 200
