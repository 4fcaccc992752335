"""Crashes during a stream of appends and batches: gunicorn workers killed with SIGKILL (and,
in the full run, PostgreSQL restarted as after a crash) while clients append to their
sessions through two app hosts.

Each client sends every request with its own Idempotency-Key and, when the answer is not a
201 (a 503, a connection cut by the kill), sends the same request again until it is. Then:
every acknowledged append is in the log (its events at the versions the answer gave), no
batch is partial (each key's events in the log are exactly the events its answer lists),
every session's versions run 1..N, its hash chain verifies and a rebuild equals the live
projections (Ledger.verify).
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from http.client import HTTPException
from typing import Any

import pytest
from sqlalchemy import select

from ledger.store.tables import events

from .harness import EXERCISED, Server, http
from .table import assert_whole, bearer, events_by_key, legal_session


def drive(servers: list[Server], token: str, seed: int, deals: int,
          acked: dict[str, dict[str, Any]], retried: list[int], stop: threading.Event,
          sent: dict[str, int]) -> str:
    """Play one random legal session through the servers, in single appends and batches,
    retrying each request (same key, same body) until it is acknowledged. The session stops
    early, between two requests, once `stop` is set: the clients outlast the chaos however
    fast the appends are, and no longer."""
    rng = random.Random(seed)
    opening, bodies = legal_session(seed, deals)

    def until_acked(path: str, body: Any, key: str) -> dict[str, Any]:
        for attempt in range(200):
            port = servers[rng.randrange(len(servers))].port
            try:
                status, _, answer = http(port, "POST", path, body, timeout=30,
                                         headers={**bearer(token), "Idempotency-Key": key})
            except (OSError, HTTPException):  # the worker died mid-request
                status, answer = 0, None
            if status == 201:
                return answer
            assert status in (0, 502, 503), (status, answer)  # never a 500, never a 4xx
            retried[0] += 1
            time.sleep(0.05 * min(attempt + 1, 10))
        raise AssertionError(f"{key} was never acknowledged")

    opened = until_acked("/sessions", opening, f"open-{seed}")
    session_id = opened["session_id"]
    i = 0
    while i < len(bodies) and not stop.is_set():
        size = rng.choice([1, 1, 1, 2, 3, 5])
        chunk = bodies[i:i + size]
        key = f"s{seed}-{i}"
        body = chunk[0] if len(chunk) == 1 else {"events": chunk}
        acked[f"{session_id}|{key}"] = until_acked(f"/sessions/{session_id}/events", body, key)
        sent["batches" if len(chunk) > 1 else "singles"] += 1
        i += len(chunk)
    return session_id


def storm(servers: list[Server], token: str, *, clients: int, deals: int,
          chaos: Any, sent: dict[str, int] | None = None
          ) -> tuple[list[str], dict[str, dict[str, Any]], int]:
    acked: dict[str, dict[str, Any]] = {}
    retried = [0]
    sent = sent if sent is not None else {}
    sent.setdefault("singles", 0)
    sent.setdefault("batches", 0)
    sessions: list[str] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def client(seed: int) -> None:
        try:
            sessions.append(drive(servers, token, seed, deals, acked, retried, stop, sent))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(clients)]
    for thread in threads:
        thread.start()
    chaos(lambda: all(not t.is_alive() for t in threads), lambda: retried[0] > 0)
    stop.set()  # the faults are over: each client stops after the request in hand
    for thread in threads:
        thread.join(timeout=300)
    if errors:
        logged = [line for server in servers for line in server.output().splitlines()
                  if '"exc"' in line]
        raise AssertionError(f"{errors[0]}; the servers logged: {logged[-2:]}")
    return sessions, acked, retried[0]


def kill_workers(servers: list[Server], rounds: int, every: float,
                 faults: dict[str, int] | None = None, seed: int = 0) -> Any:
    """SIGKILL every worker of every server, `rounds` times or more: after the last round it
    goes on until a request has met a kill (`met()`), for as long as the clients run.

    Each round waits until the workers killed by the one before have been replaced, then
    `every` seconds (with jitter) more, so that it kills workers that are serving rather than
    workers still building their app: with a fixed 0.4 s beat the kills once fell on booting
    workers only, and 24 kills met no request."""
    rng = random.Random(seed)

    def replaced(killed: set[int]) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pids = [pid for server in servers for pid in server.worker_pids()]
            if len(pids) >= sum(server.workers for server in servers) \
                    and not killed.intersection(pids):
                return
            time.sleep(0.02)

    def chaos(done: Any, met: Any = lambda: True) -> None:
        killed: set[int] = set()
        round_ = 0
        while not done():
            replaced(killed)
            time.sleep(every * rng.uniform(0.5, 1.5))
            if done() or (round_ >= rounds and met()):
                return
            killed = set()
            for server in servers:
                for pid in server.worker_pids():
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
                    if faults is not None:
                        faults["kills"] = faults.get("kills", 0) + 1
            round_ += 1
    return chaos


def exercised(name: str, sessions: list[str], acked: dict[str, dict[str, Any]],
              sent: dict[str, int], retried: int, faults: dict[str, int]) -> None:
    """What a run went through, printed at the end of the run (tests/faults/conftest.py)."""
    events_ = sum(len(answer["appended"]) for answer in acked.values())
    EXERCISED.append(
        f"{name}: {len(sessions)} sessions, {sent['singles']} single appends and "
        f"{sent['batches']} batches acknowledged ({events_} events), {retried} requests "
        f"retried, {faults.get('kills', 0)} workers SIGKILLed, "
        f"{faults.get('restarts', 0)} PostgreSQL crash restarts")


def check(engine: Any, sessions: list[str], acked: dict[str, dict[str, Any]]) -> None:
    with engine.connect() as conn:
        logged = {(row.stream_id, row.version): row.type for row in conn.execute(
            select(events.c.stream_id, events.c.version, events.c.type))}
    for name, answer in acked.items():
        session_id, key = name.split("|")
        for appended in answer["appended"]:
            assert logged.get((session_id, appended["version"])) == appended["type"], name
    for session_id in sessions:
        counts = events_by_key(engine, session_id)
        for name, answer in acked.items():
            sid, key = name.split("|")
            if sid == session_id:
                # All of the batch or none of it: exactly the events its answer lists.
                assert counts.get(key, 0) == len(answer["appended"]), (name, counts.get(key))
        assert_whole(engine, session_id)


def test_workers_killed_mid_stream_lose_no_acknowledged_append_and_split_no_batch(
        any_url, serve, club_for, engine_for):
    club = club_for(any_url)
    servers = [serve(any_url, workers=2, threads=4), serve(any_url, workers=2, threads=4)]
    sent: dict[str, int] = {}
    faults: dict[str, int] = {}
    sessions, acked, retried = storm(servers, club.tokens["treasurer"], clients=4, deals=40,
                                     # a worker takes about a second to build its app
                                     # after the fork: killed sooner, it never serves
                                     chaos=kill_workers(servers, rounds=6, every=1.5,
                                                        faults=faults), sent=sent)
    exercised(f"workers killed ({any_url.split(':')[0]})", sessions, acked, sent, retried,
              faults)
    assert len(sessions) == 4 and acked
    assert retried > 0, "no request met a killed worker: the test proved nothing"
    check(engine_for(any_url), sessions, acked)
    for server in servers:
        assert "Traceback" not in server.output() or "SIGKILL" in server.output()


@pytest.mark.full
def test_postgresql_restarted_and_workers_killed_during_a_long_stream(
        cluster, pg_url, serve, club_for, engine_for):
    club = club_for(pg_url)
    servers = [serve(pg_url, workers=2, threads=4), serve(pg_url, workers=2, threads=4)]
    faults: dict[str, int] = {}
    killer = kill_workers(servers, rounds=1, every=0.0, faults=faults)

    def chaos(done: Any, met: Any) -> None:
        for round_ in range(6):
            time.sleep(1.5)
            if done():
                return
            if round_ % 2 == 0:
                cluster.restart("immediate")  # a crash: WAL replay on start
                faults["restarts"] = faults.get("restarts", 0) + 1
            else:
                killer(done)

    sent: dict[str, int] = {}
    # The clients stop when the chaos is over (storm sets `stop`); 30 deals is only a bound,
    # long enough for the chaos to reach both kinds of fault however fast the appends are.
    sessions, acked, retried = storm(servers, club.tokens["treasurer"], clients=6, deals=30,
                                     chaos=chaos, sent=sent)
    exercised("PostgreSQL restarted and workers killed", sessions, acked, sent, retried,
              faults)
    assert faults.get("restarts", 0) >= 2 and faults.get("kills", 0) > 0, faults
    assert retried > 0, "no request met a fault: the test proved nothing"
    check(engine_for(pg_url), sessions, acked)
