"""When heads are signed (ledger/audit/checkpoint_log.py), over HTTP on SQLite and PostgreSQL: when
a session ends, in the write that ends it, never on a read; never over a head signed before
that the chain now contradicts; and a checkpoint log that cannot be written (a full disk)
fails no request, is reported by /readyz and `lanterloo checkpoint`, and is written later."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, select, update

from api.cli.main import main
from ledger.audit import checkpoint_log
from ledger.store.chain import link, session_genesis
from ledger.store.tables import events, sessions
from tests.integration.test_chains import as_dba, with_key

FULL_DISK = "/dev/full"  # every write to it fails with ENOSPC, as on a full disk


def opened(client: Any) -> str:
    response = client.post("/sessions", json={"players": ["Ann", "Bob", "Cal"],
                                               "first_dealer": "Ann"})
    assert response.status_code == 201, response.get_json()
    sid = response.get_json()["session_id"]
    dealt = client.post(f"/sessions/{sid}/events", json={"expected_version": 1, "events": [
        {"type": "DealStarted", "trump_card": "7H",
         "face_up": {"Ann": "5C", "Bob": "9H", "Cal": "KS"}}]})
    assert dealt.status_code == 201, dealt.get_json()
    return str(sid)


def ended(client: Any, sid: str) -> Any:
    return client.post(f"/sessions/{sid}/events", json={
        "expected_version": 3, "events": [{"type": "SessionEnded", "method": "divide-pool"}]})


def lines(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()] \
        if path.exists() else []


def test_a_session_is_signed_when_it_ends_and_a_read_writes_nothing(client, tmp_path,
                                                                    monkeypatch):
    signer = with_key(monkeypatch, tmp_path)
    log = tmp_path / "checkpoints.jsonl"
    sid = opened(client)
    for path in (f"/sessions/{sid}/statement", f"/sessions/{sid}/statement.csv",
                 f"/sessions/{sid}/export"):
        assert client.get(path).status_code == 200
    assert not log.exists()  # a read of an open session signed nothing
    assert "checkpoint" not in client.get(f"/sessions/{sid}/statement").get_json()["log"]

    assert ended(client, sid).status_code == 201
    kept = lines(log)
    assert [(c["stream"], c["version"], c["key"]) for c in kept[:1]] == \
        [(sid, 4, signer.public_hex)]
    # and the end added to the club's log of ends (ledger/audit/receipts.py)
    assert kept[1]["stream"].startswith("tree:") and kept[1]["version"] == 1
    assert kept[1]["appended"] == {"stream": sid, "version": 4, "head": kept[0]["head"]}
    statement = client.get(f"/sessions/{sid}/statement").get_json()
    assert statement["log"]["checkpoint"] == kept[0]
    assert kept[0]["head"] == statement["log"]["chain_head"]
    export = client.get(f"/sessions/{sid}/export").get_json()
    assert export["checkpoint"] == kept[0]
    assert len(lines(log)) == 2  # reads again: nothing appended


def rewrite(engine: Any, sid: str, club_id: str) -> None:
    """An owner's rewrite of the whole chain and its stored head."""
    def work(conn: Connection) -> None:
        prev = session_genesis(sid, club_id)
        for stored in conn.execute(select(events).where(events.c.stream_id == sid)
                                   .order_by(events.c.version)).all():
            data = dict(stored._mapping)
            if data["type"] == "SessionOpened":
                data["actor"] = "someone else"
            data["hash"] = prev = link(data, prev)
            conn.execute(update(events).where(events.c.position == stored.position)
                         .values(actor=data["actor"], hash=data["hash"]))
        conn.execute(update(sessions).where(sessions.c.id == sid).values(head_hash=prev))

    as_dba(engine, work)


def test_a_rewritten_chain_is_never_signed_again_and_verify_fails(client, engine, tmp_path,
                                                                   monkeypatch, capsys):
    with_key(monkeypatch, tmp_path)
    log = tmp_path / "checkpoints.jsonl"
    sid = opened(client)
    assert ended(client, sid).status_code == 201
    club_id = client.get(f"/sessions/{sid}/export").get_json()["club_id"]
    rewrite(engine, sid, club_id)
    url = engine.url.render_as_string(hide_password=False)

    assert main(["checkpoint", "--database-url", url]) == 1
    err = capsys.readouterr().err
    assert f"REFUSED {sid}: it contradicts a head signed before: {sid}: version 4's hash " \
        "is " in err and "the chain was rewritten" in err
    assert [c["stream"] for c in lines(log)].count(sid) == 1  # only the head of its end

    assert main(["verify", sid, "--database-url", url]) == 1
    out = capsys.readouterr().out
    assert f"REWRITTEN {sid}: version 4's hash is " in out
    assert "1 contradicted" in out

    # A correction of the rewritten session is written, but its head is not signed.
    undone = client.post(f"/sessions/{sid}/undo", json={"reason": "wrong method"},
                         headers={"If-Match": '"4"'})
    assert undone.status_code == 201, undone.get_json()
    assert [c["stream"] for c in lines(log)].count(sid) == 1
    ready = client.get("/readyz").get_json()
    assert ready["signing"].startswith("refused: 1 chains contradict a head signed before")
    assert sid in ready["signing"]
    export = client.get(f"/sessions/{sid}/export").get_json()
    assert export["checkpoint"]["version"] == 4  # the head kept, older than the export's end


def test_a_full_checkpoint_log_fails_no_request_and_is_reported(client, tmp_path,
                                                               monkeypatch):
    with_key(monkeypatch, tmp_path)
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", FULL_DISK)
    sid = opened(client)
    assert ended(client, sid).status_code == 201  # the end is written; its head waits
    assert checkpoint_log.pending() == 2  # its head, and its leaf in the club's log
    assert client.get(f"/sessions/{sid}/statement").status_code == 200
    export = client.get(f"/sessions/{sid}/export")
    assert export.status_code == 200
    assert export.get_json()["checkpoint"] is None  # never a head that was not kept
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json()["signing"] == (
        f"failing: cannot append to the checkpoint log {FULL_DISK}: No space left on device "
        "(2 heads wait)")


def test_a_head_that_waited_for_the_log_is_written_at_a_later_write(client, tmp_path,
                                                                     monkeypatch):
    with_key(monkeypatch, tmp_path)
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the log's folder should be")
    log = blocked / "checkpoints.jsonl"
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", str(log))
    first = opened(client)
    assert ended(client, first).status_code == 201
    assert checkpoint_log.pending() == 2
    assert client.get("/readyz").get_json()["signing"].startswith(
        f"failing: cannot append to the checkpoint log {log}: File exists (2 heads wait)")

    blocked.unlink()  # the folder can be made again
    opened(client)  # any later write to a session of the process writes what waited
    assert [(c["stream"][:5], c["version"]) for c in lines(log)] == [(first[:5], 4),
                                                                       ("tree:", 1)]
    assert checkpoint_log.pending() == 0
    assert client.get("/readyz").get_json()["signing"] == "ok"
    assert client.get(f"/sessions/{first}/export").get_json()["checkpoint"]["version"] == 4


def test_checkpoint_on_a_full_disk_says_so_in_one_line_with_no_traceback(
        engine, client, tmp_path, monkeypatch, capsys):
    with_key(monkeypatch, tmp_path)
    opened(client)
    code = main(["checkpoint", "--log", FULL_DISK, "--database-url",
                 engine.url.render_as_string(hide_password=False)])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.splitlines()[-1] == (
        f"error: cannot append to the checkpoint log {FULL_DISK}: No space left on device: "
        "no head was kept")
    assert "Traceback" not in out + err


def test_a_checkpoint_log_that_cannot_be_read_fails_no_read_and_is_reported(
        client, tmp_path, monkeypatch):
    with_key(monkeypatch, tmp_path)
    sid = opened(client)
    assert ended(client, sid).status_code == 201
    unreadable = tmp_path / "a folder, not a file"
    unreadable.mkdir()
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", str(unreadable))
    statement = client.get(f"/sessions/{sid}/statement")
    assert statement.status_code == 200 and "checkpoint" not in statement.get_json()["log"]
    export = client.get(f"/sessions/{sid}/export")
    assert export.status_code == 200 and export.get_json()["checkpoint"] is None
    assert client.get("/readyz").get_json()["signing"] == \
        "failing: cannot read the checkpoint log: Is a directory"


def test_a_chain_cut_short_behind_a_signed_head_is_refused(client, engine, tmp_path,
                                                           monkeypatch, capsys):
    with_key(monkeypatch, tmp_path)
    sid = opened(client)
    assert ended(client, sid).status_code == 201

    def cut(conn: Connection) -> None:  # the end removed, the stored head moved back
        head = conn.execute(select(events.c.hash).where(
            events.c.stream_id == sid, events.c.version == 3)).scalar_one()
        conn.execute(events.delete().where(events.c.stream_id == sid, events.c.version == 4))
        conn.execute(update(sessions).where(sessions.c.id == sid)
                     .values(version=3, head_hash=head))

    as_dba(engine, cut)
    with engine.connect() as conn:
        done = checkpoint_log.sign_heads(conn, [(sid, 3)])
    assert done.signed == []
    assert done.refused[sid][0].startswith(
        f"{sid}: the log no longer has version 4, which a checkpoint signed at ")
    assert main(["verify", sid, "--database-url",
                 engine.url.render_as_string(hide_password=False)]) == 1
    assert f"REWRITTEN {sid}: the log no longer has version 4" in capsys.readouterr().out
