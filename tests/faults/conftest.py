"""Fixtures of the fault tests: a private PostgreSQL cluster, databases on it and on SQLite,
clubs, and gunicorn servers (tests/faults/harness.py).

The fast subset runs in the long tier (`make long`, which .ci/run runs); the long runs are marked
`full` and run with LOO_FAULTS=full (`make faults`).
"""

from __future__ import annotations

import os
import secrets
import shutil
import threading
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine

from ledger.operations.bulk import migrate
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from tests.clubs import Club, make_club
from tests.conftest import end_lines
from tests.support.databases import PARTITIONS, Databases

from .harness import EXERCISED, PrivateCluster, Server, why_no_cluster

# Short timeouts, so that a fault is answered within a second or two.
FAST_TIMEOUTS = {
    "LOO_DB_CONNECT_TIMEOUT": "2",
    "LOO_DB_STATEMENT_TIMEOUT_MS": "2000",
    "LOO_DB_CLIENT_GRACE_MS": "500",
    "LOO_DB_LOCK_TIMEOUT_MS": "1000",
    "LOO_SQLITE_BUSY_TIMEOUT_MS": "1000",
    "LOO_DB_POOL_TIMEOUT": "2",
}


def full_runs() -> bool:
    return os.environ.get("LOO_FAULTS", "").strip().lower() == "full"


def pytest_sessionfinish(session: pytest.Session) -> None:
    """What the crash runs went through (appends, batches, kills, restarts), as they report
    it: printed at the end of the run (tests/conftest.py)."""
    if EXERCISED:
        end_lines(session.config, EXERCISED)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if full_runs():
        return
    skip = pytest.mark.skip(reason="a long fault run: LOO_FAULTS=full (make faults)")
    for item in items:
        if "full" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def cluster() -> Iterator[PrivateCluster]:
    reason = why_no_cluster()
    if reason:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI is set and {reason}", pytrace=False)
        pytest.skip(reason)
    made = PrivateCluster()
    try:
        yield made
    finally:
        made.destroy()


@pytest.fixture
def pg_url(cluster: PrivateCluster) -> str:
    url = cluster.create_database(f"faults_{secrets.token_hex(4)}")
    upgrade(url)
    return url


@pytest.fixture
def partitioned_url(cluster: PrivateCluster) -> str:
    """A database of the private cluster installed partitioned by club (`lanterloo migrate
    --partition-by-club 4`)."""
    url = cluster.create_database(f"faults_{secrets.token_hex(4)}")
    engine = make_engine(url, operator=True)
    try:
        migrate(engine, partition_by_club=PARTITIONS)
    finally:
        engine.dispose()
    return url


@pytest.fixture
def sqlite_url(tmp_path, databases: Databases) -> str:
    """A migrated SQLite file of the test's own (a copy of the run's migrated template)."""
    path = tmp_path / "lanterloo.db"
    shutil.copyfile(databases.sqlite_template(), path)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgresql"])
def any_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue("sqlite_url" if request.param == "sqlite"
                                       else "pg_url"))


@pytest.fixture
def engine_for() -> Iterator[Callable[[str], Engine]]:
    made: list[Engine] = []

    def make(url: str) -> Engine:
        engine = make_engine(url, operator=True)
        made.append(engine)
        return engine

    yield make
    for engine in made:
        engine.dispose()


@pytest.fixture
def club_for(engine_for: Callable[[str], Engine]) -> Callable[[str], Club]:
    return lambda url: make_club(engine_for(url))


@pytest.fixture
def serve() -> Iterator[Callable[..., Server]]:
    """serve(url, workers=2, threads=8, **env) -> a started gunicorn, stopped after the
    test."""
    started: list[Server] = []

    def start(url: str, *, workers: int = 2, threads: int = 8, **env: str) -> Server:
        server = Server(url, env={**FAST_TIMEOUTS, **env}, workers=workers,
                        threads=threads).start()
        started.append(server)
        return server

    yield start
    # Stopped side by side: each waits for its workers to finish (a second or two).
    stopping = [threading.Thread(target=server.stop) for server in started]
    for thread in stopping:
        thread.start()
    for thread in stopping:
        thread.join()
