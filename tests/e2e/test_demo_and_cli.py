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

from api.cli import main
from api.demo import DEALS, load_demo, statement_table
from ledger.service import Ledger

from .conftest import assert_problem


def test_the_demo_replays_the_worked_examples_and_its_statement_balances(engine):
    ledger = Ledger(engine)
    session_id = load_demo(ledger)
    statement = ledger.statement(session_id)
    nets = {p["player"]: p["net_units"] for p in statement["players"]}
    assert nets == {"A": 4, "B": -12, "C": 13, "D": 10, "E": -15}
    assert statement["check"]["zero_sum"] is True
    assert statement["status"] == "ended"
    assert statement["deals"] == 6
    assert ledger.verify(session_id) == []

    # RULES.md §8 example 2 is deal 2: C 5 + 5, D 5, E looed 6, no breach in the cards.
    deal = ledger.deal(session_id, 2)
    assert [s["amount_units"] for s in deal["settlement"]["shares"]] == [5, 5, 5]
    assert deal["settlement"]["looed"] == ["E"]
    assert deal["breaches"] == []


def test_loading_the_demo_twice_finds_the_same_session(engine):
    ledger = Ledger(engine)
    first = load_demo(ledger)
    version = ledger.session(first)["version"]
    assert load_demo(ledger) == first
    assert ledger.session(first)["version"] == version


def test_the_demo_session_reads_over_http_like_any_other(engine, client):
    session_id = load_demo(Ledger(engine))
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
    ledger = Ledger(engine)
    text = statement_table(ledger.statement(load_demo(ledger)))
    assert [line.split()[0] for line in text.splitlines()[3:8]] == list("ABCDE")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_with_the_demo_prints_its_urls_serves_them_and_stops_on_ctrl_c(tmp_path: Path):
    port = _free_port()
    env = {**os.environ, "LOO_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
           "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())",
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
    assert "Traceback" not in text
    assert "Shutting down: Master" in text
