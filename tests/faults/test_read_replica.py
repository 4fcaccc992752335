"""The read replica (api/http/reading.py, ledger/store/replica.py) on a real hot standby: a
private primary and its standby made with pg_basebackup, streaming on loopback.

The standby answers the books, the audit and the statement as the primary would; a writer
reads its own write whatever the standby's lag; a standby whose replay is paused past the
bound, or that is stopped, leaves the reads to the primary with no error to the user; a
version it does not hold yet is asked of the primary; gunicorn reads the setting from its
environment.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, text

from api import create_app
from api.http import metrics
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from ledger.store.replica import parse_lsn
from tests.clubs import Club, club_client, make_club

from .harness import PrivateCluster, StandbyCluster, http

MAX_LAG_MS = 400
READS = ("/accounts", "/book-entries", "/debts", "/settle-up", "/audit/events",
         "/audit/corrections")


@dataclass
class Replicated:
    primary_url: str
    standby: StandbyCluster
    standby_engine: Engine
    app: Flask  # reads from the standby
    plain: Flask  # the primary alone
    club: Club


@pytest.fixture(scope="module")
def replicated(cluster: PrivateCluster) -> Iterator[Replicated]:
    url = cluster.create_database("replica")
    upgrade(url)
    standby = StandbyCluster(cluster)
    standby_url = standby.url("replica")
    primary_url = url
    engine = make_engine(url, operator=True)
    standby_engine = make_engine(standby_url, operator=True)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("LOO_READ_MAX_LAG_MS", str(MAX_LAG_MS))
            patch.setenv("LOO_READ_RETRY_S", "1")
            app = create_app({"DATABASE_URL": url, "READ_DATABASE_URL": standby_url,
                              "STRICT_RESPONSES": True})
        plain = create_app({"DATABASE_URL": url, "STRICT_RESPONSES": True})
        yield Replicated(primary_url, standby, standby_engine, app, plain, make_club(engine))
        for made in (app, plain):
            services = made.extensions["lanterloo"]
            services.engine.dispose()
            if services.replica is not None:
                services.replica.standby.dispose()
    finally:
        engine.dispose()
        standby_engine.dispose()
        standby.destroy()


def client_of(app: Flask, club: Club) -> FlaskClient:
    return club_client(app, None, club=club)  # type: ignore[arg-type]


def served_by(client: FlaskClient, path: str, **headers: str) -> tuple[str, Any]:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.headers["Loo-Read-From"], response.get_json()


def wait_for_the_standby(client: FlaskClient, path: str = "/accounts") -> None:
    deadline = time.monotonic() + 10
    while served_by(client, path)[0] != "standby":
        assert time.monotonic() < deadline, "the standby never caught up"
        time.sleep(0.05)


def pay(client: FlaskClient, amount: int) -> dict[str, Any]:
    response = client.post("/payments", json={"payer": "dealer", "payee": "club",
                                               "amount_minor": amount, "currency": "GBP",
                                               "method": "cash"})
    assert response.status_code == 201, response.get_json()
    if client.application.extensions["lanterloo"].replica is not None:
        assert parse_lsn(response.headers["Loo-Position"]) is not None
    return dict(response.get_json())


def reads_of(replicated: Replicated) -> int:
    return sum(int(metrics.REPLICA_READS.labels(by, reason)._value.get())
               for by, reason in [("standby", "standby")])


def test_the_standby_answers_the_books_audit_and_statement_as_the_primary(replicated):
    writer = client_of(replicated.app, replicated.club)
    opened = writer.post("/sessions", json={
        "name": "Thursday", "players": ["Ann", "Bob", "Cal"], "currency": "GBP",
        "money_per_unit_minor": 10, "first_dealer": "Ann"})
    assert opened.status_code == 201, opened.get_json()
    session_id = opened.get_json()["session_id"]
    pay(writer, 120)
    reader = client_of(replicated.app, replicated.club)  # no position: bounded staleness
    wait_for_the_standby(reader)
    primary = client_of(replicated.plain, replicated.club)
    before = reads_of(replicated)
    for path in (*READS, f"/sessions/{session_id}/statement"):
        by, answer = served_by(reader, path)
        assert by == "standby", path
        assert answer == primary.get(path).get_json(), path
    assert reads_of(replicated) == before + len(READS) + 1


def test_a_writer_reads_its_own_write_while_the_standby_lags(replicated):
    writer = client_of(replicated.app, replicated.club)
    other = client_of(replicated.app, replicated.club)
    wait_for_the_standby(other)
    with replicated.standby_engine.connect() as conn:
        conn.execute(text("SELECT pg_wal_replay_pause()"))
        conn.commit()
    try:
        entry = pay(writer, 77)
        # the writer's next read (its cookie), or anyone's that names the position
        by, register = served_by(writer, "/book-entries")
        assert by == "primary"
        assert entry["seq"] in [e["seq"] for e in register["entries"]]
        position = writer.post("/payments", json={
            "payer": "dealer", "payee": "club", "amount_minor": 1, "currency": "GBP",
            "method": "cash"}).headers["Loo-Position"]
        by, register = served_by(other, "/book-entries", **{"Loo-Position": position})
        assert by == "primary" and len(register["entries"]) >= 2
        # past the bound, a read that names nothing is not answered by the paused standby
        time.sleep(MAX_LAG_MS / 1000 + 0.1)
        by, accounts = served_by(other, "/accounts")
        assert by == "primary"
        assert accounts == client_of(replicated.plain, replicated.club).get(
            "/accounts").get_json()
        ready = other.get("/readyz").get_json()
        assert ready["read_replica"] == "fallback: standby-lagging"
    finally:
        with replicated.standby_engine.connect() as conn:
            conn.execute(text("SELECT pg_wal_replay_resume()"))
            conn.commit()
    wait_for_the_standby(other, "/book-entries")
    assert entry["seq"] in [e["seq"] for e in served_by(other, "/book-entries")[1]["entries"]]


def test_a_stopped_standby_leaves_the_reads_to_the_primary(replicated):
    reader = client_of(replicated.app, replicated.club)
    primary = client_of(replicated.plain, replicated.club)
    wait_for_the_standby(reader)
    replicated.standby.stop("immediate")
    try:
        for path in READS:
            by, answer = served_by(reader, path)
            assert by == "primary", path
            assert answer == primary.get(path).get_json(), path
        ready = reader.get("/readyz")
        assert ready.status_code == 200
        assert ready.get_json()["read_replica"].startswith("fallback: standby-")
    finally:
        replicated.standby.start()
    time.sleep(1.1)  # LOO_READ_RETRY_S: the standby is asked again
    wait_for_the_standby(reader)
    assert reader.get("/readyz").get_json()["read_replica"] == "ok"


def test_gunicorn_reads_from_the_standby_that_the_environment_names(replicated, serve):
    server = serve(replicated.primary_url, workers=1, threads=2,
                   LOO_READ_DATABASE_URL=replicated.standby.url("replica"),
                   LOO_READ_MAX_LAG_MS=str(MAX_LAG_MS))
    auth = replicated.club.headers("treasurer")
    status, headers, paid = http(server.port, "POST", "/payments", {
        "payer": "dealer", "payee": "club", "amount_minor": 5, "currency": "GBP",
        "method": "cash"}, headers=auth)
    assert status == 201 and "loo_position=" in headers["set-cookie"]
    position = {"Loo-Position": headers["loo-position"]}
    status, headers, register = http(server.port, "GET", "/book-entries",
                                     headers={**auth, **position})
    assert status == 200 and headers["loo-read-from"] in ("standby", "primary")
    assert paid["seq"] in [entry["seq"] for entry in register["entries"]]
    deadline = time.monotonic() + 10
    while http(server.port, "GET", "/accounts", headers=auth)[1]["loo-read-from"] != "standby":
        assert time.monotonic() < deadline, "the standby never answered"
        time.sleep(0.05)
    assert http(server.port, "GET", "/readyz")[2]["read_replica"] == "ok"


def test_a_version_the_standby_does_not_hold_yet_is_asked_of_the_primary(replicated,
                                                                         monkeypatch):
    monkeypatch.setenv("LOO_READ_MAX_LAG_MS", "60000")  # the standby stays within its bound
    app = create_app({"DATABASE_URL": replicated.primary_url,
                      "READ_DATABASE_URL": replicated.standby.url("replica"),
                      "STRICT_RESPONSES": True})
    try:
        reader = client_of(app, replicated.club)
        wait_for_the_standby(reader, "/book-entries")
        with replicated.standby_engine.connect() as conn:
            conn.execute(text("SELECT pg_wal_replay_pause()"))
            conn.commit()
        try:
            entry = pay(client_of(replicated.plain, replicated.club), 9)
            by, register = served_by(reader, "/book-entries")
            assert by == "standby"  # within the bound, without the write
            assert entry["seq"] not in [e["seq"] for e in register["entries"]]
            by, register = served_by(reader, f"/book-entries?as_of={entry['seq']}")
            assert by == "primary"
            assert register["entries"][-1]["seq"] == entry["seq"]
        finally:
            with replicated.standby_engine.connect() as conn:
                conn.execute(text("SELECT pg_wal_replay_resume()"))
                conn.commit()
    finally:
        services = app.extensions["lanterloo"]
        services.engine.dispose()
        services.replica.standby.dispose()
