"""The demo session and the `lanterloo` command."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from api.cli.demo import DEALS, demo_tokens, load_demo, statement_table
from api.cli.main import main
from ledger.clubs.service import Clubs
from ledger.sessions.service import Ledger

from .conftest import assert_problem


def test_the_demo_replays_the_worked_examples_and_its_statement_balances(engine):
    ledger = Ledger(engine)  # the demo opens its session in the demo club
    session_id = load_demo(ledger)
    statement = ledger.statement(session_id)
    nets = {p["player"]: p["net_units"] for p in statement["players"]}
    assert nets == {"A": 4, "B": -12, "C": 13, "D": 10, "E": -15}
    assert statement["check"]["zero_sum"] is True
    assert statement["status"] == "ended"
    assert statement["deals"] == 6
    assert ledger.verify(session_id) == []

    # docs/rules.md §10.2 is deal 2: C 5 + 5, D 5, E looed 6, no breach in the cards.
    deal = ledger.deal(session_id, 2)
    assert [s["amount_units"] for s in deal["settlement"]["shares"]] == [5, 5, 5]
    assert deal["settlement"]["looed"] == ["E"]
    assert deal["breaches"] == []


def test_loading_the_demo_twice_finds_the_same_session(engine):
    ledger = Ledger(engine)  # the demo opens its session in the demo club
    first = load_demo(ledger)
    version = ledger.session(first)["version"]
    assert load_demo(ledger) == first
    assert ledger.session(first)["version"] == version


def test_the_demo_session_reads_over_http_like_any_other(engine, client):
    session_id = load_demo(Ledger(engine))
    client.environ_base["HTTP_AUTHORIZATION"] = \
        f"Bearer {demo_tokens(Clubs(engine))['treasurer']}"
    assert client.get(f"/sessions/{session_id}").get_json()["status"] == "ended"
    csv_text = client.get(f"/sessions/{session_id}/statement?format=csv").get_data(True)
    assert csv_text.startswith("player,")
    version = client.get(f"/sessions/{session_id}").get_json()["version"]
    refused = client.post(f"/sessions/{session_id}/events",
                          json={"type": "DealStarted", "trump_card": "7H"},
                          headers={"If-Match": f'"{version}"'})
    assert_problem(refused, 409, rule="session-open")


def test_the_demo_command_prints_the_statement_as_a_table(database_url, capsys):
    assert main(["demo", "--database-url", database_url]) == 0
    out = capsys.readouterr().out
    for what, _ in DEALS:
        assert what in out
    assert re.search(r"^\s+C\s+9\s+22\s+\+13", out, re.M), out
    assert "zero-sum check: ok" in out
    session_id = re.search(r"^session (\w+)$", out, re.M).group(1)

    assert main(["verify", "--database-url", database_url, session_id]) == 0
    assert "agree" in capsys.readouterr().out
    assert main(["verify", "--database-url", database_url, "no-such-session"]) == 2


def test_the_migrate_command_names_the_revision(blank_database_url, capsys):
    assert main(["migrate", "--database-url", blank_database_url]) == 0
    assert "is at revision" in capsys.readouterr().out


def test_the_statement_table_lists_every_player(engine):
    ledger = Ledger(engine)  # the demo opens its session in the demo club
    text = statement_table(ledger.statement(load_demo(ledger)))
    assert [line.split()[0] for line in text.splitlines()[3:8]] == list("ABCDE")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_with_the_demo_prints_its_urls_serves_them_and_stops_on_ctrl_c(tmp_path: Path):
    port = _free_port()
    instance = os.environ["LOO_INSTANCE_DIR"]
    env = {**os.environ, "LOO_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
           "PYTHONUNBUFFERED": "1", "LOO_INSTANCE_DIR": str(tmp_path / "instance")}
    for name in ("LOO_CHECKPOINT_KEY", "LOO_CHECKPOINT_KEY_FILE", "LOO_CHECKPOINT_LOG"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from api.cli.main import main; sys.exit(main())",
         "serve", "--demo", "--port", str(port), "--workers", "1"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        health = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                            timeout=2) as response:
                    health = response.status
                    break
            except OSError:
                time.sleep(0.2)
        assert health == 200
        # Ctrl-C in a terminal: SIGINT to the whole process group, arbiter and workers.
        os.killpg(process.pid, signal.SIGINT)
        out, _ = process.communicate(timeout=30)
        lines = out.splitlines()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, out
    text = "\n".join(lines)
    session_url = re.search(r"session\s+(http://\S+/sessions/\w+)$", text, re.M)
    assert session_url, text
    for label in ("statement (JSON)", "statement (CSV)", "API docs"):
        assert label in text
    assert f"http://localhost:{port}/docs" in text
    for role in ("ADMIN", "TREASURER", "DEALER", "AUDITOR"):
        assert re.search(rf"^\s+{role}=loo_[0-9a-f]{{16}}_\S+", text, re.M), text
    for role in ("admin", "treasurer", "auditor"):  # the desk's way in
        assert re.search(rf"^sign-in link for .+ \({role}\), good once within 30 minutes:\n"
                         rf"  http://localhost:{port}/desk#signin=\w{{26}}$", text, re.M), text
    assert "Traceback" not in text
    assert "Shutting down: Master" in text

    # Signing is on by default: a key made in the instance folder (mode 600), its public key
    # printed, and the demo's session signed when it ended; its export (as GET .../export
    # draws it) verifies offline with that key.
    key_file = tmp_path / "instance" / "checkpoint.key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    public = re.search(r"^checkpoint public key: ([0-9a-f]{64}) ", text, re.M)
    assert public, text
    from ledger.audit import checkpoint_log, checkpoints
    from ledger.audit.export import check_export, export_session
    from ledger.store.db import make_engine

    os.environ["LOO_INSTANCE_DIR"] = str(tmp_path / "instance")
    checkpoints.forget_configuration()
    checkpoint_log.forget_state()
    engine = make_engine(f"sqlite:///{tmp_path / 'serve.db'}")
    try:
        exported = export_session(Ledger(engine), session_url.group(1).rsplit("/", 1)[1])
    finally:
        os.environ["LOO_INSTANCE_DIR"] = instance
        checkpoints.forget_configuration()
        checkpoint_log.forget_state()
        engine.dispose()
    checked = check_export(exported, {public.group(1)})
    assert checked.problems == [] and checked.key == public.group(1)


def _as_a_dba(engine, statement: str, **params) -> None:
    """Change the log behind the store's back, as a DBA would: the append-only triggers
    (migrations/versions/0001_initial_schema.py) dropped on SQLite, disabled on PostgreSQL."""
    from sqlalchemy import text

    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_delete"))
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_update"))
        else:
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER USER"))
        conn.execute(text(statement), params)
        if engine.dialect.name != "sqlite":
            conn.execute(text("ALTER TABLE events ENABLE TRIGGER USER"))


def test_verify_reports_an_event_deleted_from_the_middle_of_a_stream(engine, database_url,
                                                                      capsys):
    ledger = Ledger(engine)  # the demo opens its session in the demo club
    session_id = load_demo(ledger)
    assert ledger.verify(session_id) == []
    _as_a_dba(engine, "DELETE FROM events WHERE stream_id = :s AND version = 10", s=session_id)

    differences = ledger.verify(session_id)
    assert differences and "version 10 is missing" in differences[0], differences
    assert main(["verify", "--database-url", database_url, session_id]) == 1
    out = capsys.readouterr().out
    assert "version 10 is missing" in out and "differ" in out


def test_verify_reports_the_first_of_several_missing_versions(engine, database_url, capsys):
    ledger = Ledger(engine)  # the demo opens its session in the demo club
    session_id = load_demo(ledger)
    _as_a_dba(engine, "DELETE FROM events WHERE stream_id = :s AND version IN (3, 4, 20)",
              s=session_id)
    differences = ledger.verify(session_id)
    assert "versions 3 to 4 are missing" in differences[0], differences
    assert main(["verify", "--database-url", database_url, session_id]) == 1


def test_verify_reports_an_event_moved_out_of_position_order(engine, database_url, capsys):
    ledger = Ledger(engine)  # the demo opens its session in the demo club
    session_id = load_demo(ledger)
    _as_a_dba(engine, "UPDATE events SET position = (SELECT max(position) + 100 FROM events) "
                      "WHERE stream_id = :s AND version = 5", s=session_id)
    differences = ledger.verify(session_id)
    assert differences and "version 6 is at position" in differences[0], differences
    assert main(["verify", "--database-url", database_url, session_id]) == 1
    assert "version 6" in capsys.readouterr().out


def test_verify_reports_the_last_event_deleted_as_a_projection_ahead_of_the_log(
        engine, database_url):
    ledger = Ledger(engine)  # the demo opens its session in the demo club
    session_id = load_demo(ledger)
    version = ledger.session(session_id)["version"]
    _as_a_dba(engine, "DELETE FROM events WHERE stream_id = :s AND version = :v",
              s=session_id, v=version)
    differences = ledger.verify(session_id)
    assert f"sessions.version: stored {version}, log {version - 1}" in differences
    assert main(["verify", "--database-url", database_url, session_id]) == 1
