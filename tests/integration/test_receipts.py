"""Receipts (ledger/audit/receipts.py) on SQLite and PostgreSQL: each session's end a leaf of its
club's Merkle log, signed as it grows; the receipt a member's statement carries holds
against the club's key, today's database and a later head of the club's log, and is refused
when it was altered, signed by another key, when the session was rewritten since, or when
the club's log was rewritten (forked) after it."""

from __future__ import annotations

from typing import Any

import orjson

from api.cli.main import main
from ledger.audit import merkle, receipts
from ledger.audit.checkpoints import Signer
from ledger.sessions.service import Ledger
from tests.integration.test_chains import new_club, rewrite_whole_chain, with_key
from tests.integration.test_export_forgeries import ended_session


def run(capsys: Any, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_a_receipt_holds_against_the_database_and_a_later_head_until_either_is_rewritten(
        engine, tmp_path, monkeypatch, capsys):
    signer = with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    ledger = Ledger(engine).for_club(club_id)
    url = engine.url.render_as_string(hide_password=False)
    key = ["--public-key", signer.public_hex, "--database-url", url]

    first, _ = ended_session(ledger, actor, name="one")
    statement = ledger.statement(first)
    held = statement["log"]["receipt"]  # what the member takes home, the night it ended
    assert (held["leaf"], held["leaf_index"], held["tree_head"]["version"]) == (
        {"stream": first, "version": 4, "head": statement["log"]["chain_head"]}, 0, 1)
    (tmp_path / "statement.json").write_bytes(orjson.dumps(statement))
    for name in ("two", "three"):
        ended_session(ledger, actor, name=name)
    later = ledger.statement(first)["log"]["receipt"]
    assert (later["leaf_index"], later["tree_head"]["version"]) == (0, 3)
    (tmp_path / "later.json").write_bytes(orjson.dumps(later))

    code, out = run(capsys, "verify-receipt", str(tmp_path / "statement.json"), *key)
    assert code == 0, out
    assert out.startswith(f"holds: session {first}'s end (version 4) is leaf 0 of club "
                          f"{club_id}'s log of 1, signed by key ")
    assert "that log is a prefix of the club's log of 3 signed at " in out
    code, out = run(capsys, "verify-receipt", str(tmp_path / "statement.json"),
                    "--tree-head", str(tmp_path / "later.json"), *key)
    assert code == 0, out

    code, out = run(capsys, "verify-receipt", str(tmp_path / "statement.json"),
                    "--database-url", url)
    assert code == 1 and "the signature is unchecked" in out
    stranger, _ = Signer.generate()
    code, out = run(capsys, "verify-receipt", str(tmp_path / "statement.json"),
                    "--public-key", stranger.public_hex, "--database-url", url)
    assert code == 1 and "which is not a trusted key" in out
    altered = {**held, "leaf": {**held["leaf"], "version": 3}}
    (tmp_path / "altered.json").write_bytes(orjson.dumps(altered))
    code, out = run(capsys, "verify-receipt", str(tmp_path / "altered.json"), *key)
    assert code == 1 and "receipt: its leaf is not leaf 0 of the tree of 1" in out

    rewrite_whole_chain(engine, first, club_id)  # the owner rewrites the session
    code, out = run(capsys, "verify-receipt", str(tmp_path / "statement.json"), *key)
    assert code == 1
    assert f"database: session {first}'s version 4 has hash " in out
    assert "the chain was rewritten" in out


def test_a_club_log_rewritten_after_a_receipt_is_caught_by_the_receipt(
        engine, tmp_path, monkeypatch, capsys):
    signer = with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    ledger = Ledger(engine).for_club(club_id)
    first, _ = ended_session(ledger, actor, name="one")
    held = ledger.statement(first)["log"]["receipt"]
    (tmp_path / "held.json").write_bytes(orjson.dumps(held))
    ended_session(ledger, actor, name="two")

    # The owner, who holds the key on the host, writes the club's log anew without the
    # first session's end: a tree of the same size, every head signed.
    log = tmp_path / "checkpoints.jsonl"
    lines = [orjson.loads(line) for line in log.read_bytes().splitlines()]
    ends = [line["appended"] for line in lines if line["stream"].startswith("tree:")]
    forged_leaves = [{**ends[0], "head": "f" * 64}, ends[1]]
    kept = [line for line in lines if not line["stream"].startswith("tree:")]
    for size in (1, 2):
        top = merkle.root([receipts.leaf_hash(x) for x in forged_leaves[:size]])
        kept.append({**signer.sign(receipts.tree_stream(club_id), size, top.hex()),
                     "appended": forged_leaves[size - 1]})
    log.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in kept))

    url = engine.url.render_as_string(hide_password=False)
    code, out = run(capsys, "verify-receipt", str(tmp_path / "held.json"), "--public-key",
                    signer.public_hex, "--database-url", url)
    assert code == 1
    assert "the club's log of 1 the receipt holds is not a prefix of its log of 2: the log " \
        "was rewritten" in out


def test_verify_all_names_a_forked_club_log(engine, tmp_path, monkeypatch, capsys):
    signer = with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    ended_session(Ledger(engine).for_club(club_id), actor, name="one")
    log = tmp_path / "checkpoints.jsonl"
    fork = {**signer.sign(receipts.tree_stream(club_id), 1, "e" * 64),
            "appended": {"stream": "x", "version": 1, "head": "e" * 64}}
    with log.open("ab") as out:
        out.write(orjson.dumps(fork) + b"\n")
    code, out = run(capsys, "verify", "--all", "--database-url",
                    engine.url.render_as_string(hide_password=False))
    assert code == 1
    assert f"REWRITTEN tree:{club_id}: 1 signed heads repeat a size: the club's log was " \
        "forked" in out


def test_checkpoint_adds_an_end_that_never_reached_the_clubs_log(engine, tmp_path,
                                                                 monkeypatch, capsys):
    from ledger.audit import checkpoint_log

    with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    ledger = Ledger(engine).for_club(club_id)
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", "/dev/full")  # a full disk when it ends
    sid, _ = ended_session(ledger, actor, name="lost")
    assert checkpoint_log.pending() == 2
    checkpoint_log.forget_state()  # and the process stopped: what waited is gone
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", str(tmp_path / "checkpoints.jsonl"))
    assert "receipt" not in ledger.statement(sid)["log"]

    code, _ = run(capsys, "checkpoint", "--database-url",
                  engine.url.render_as_string(hide_password=False))
    assert code == 0
    found = ledger.statement(sid)["log"]["receipt"]
    assert (found["leaf"]["stream"], found["leaf"]["version"], found["leaf_index"]) == \
        (sid, 4, 0)
