"""Shared database fixtures: each integration test runs once on SQLite, once on PostgreSQL.

    blank_database_url  an empty database, nothing migrated (for the migration tests)
    database_url        the same, migrated to head through Alembic (ledger.store.migrate)
    engine              make_engine(database_url), disposed after the test
    ledger              Ledger(engine)

SQLite: a fresh file in tmp_path per test. PostgreSQL: the server named by
LOO_TEST_POSTGRES_URL (default postgresql+psycopg://postgres@127.0.0.1:5432/test). One
database `lanterloo_test_<random>` is created per test run through the `postgres`
maintenance database and dropped at the end; each test gets a fresh schema in it, reached
through search_path, so no test sees another's rows whatever the order.

When the server cannot be reached the PostgreSQL half is skipped with the reason, unless the
environment variable CI is set: then every PostgreSQL test errors, so the run fails.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from ledger.service import Ledger
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade

POSTGRES_ENV = "LOO_TEST_POSTGRES_URL"
POSTGRES_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _admin_engine(url: URL) -> Engine:
    return create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool,
                         connect_args={"connect_timeout": 5})


def _render(url: URL) -> str:
    return url.render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[URL]:
    """A fresh PostgreSQL database for this test run, dropped at the end."""
    server = make_url(os.environ.get(POSTGRES_ENV, POSTGRES_DEFAULT))
    if server.drivername in ("postgresql", "postgres"):
        server = server.set(drivername="postgresql+psycopg")
    maintenance = _admin_engine(server.set(database="postgres"))
    name = f"lanterloo_test_{secrets.token_hex(6)}"
    try:
        with maintenance.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as error:
        maintenance.dispose()
        reason = (f"PostgreSQL at {server.render_as_string()} is unreachable "
                  f"({type(error.orig).__name__}); set {POSTGRES_ENV}")
        if _in_ci():
            pytest.fail(f"CI is set and {reason}", pytrace=False)
        pytest.skip(reason)
    try:
        yield server.set(database=name)
    finally:
        with maintenance.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        maintenance.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def blank_database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """An empty database of each kind, as a URL any engine or `alembic -x url=` accepts."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'lanterloo.db'}"
        return
    database: URL = request.getfixturevalue("postgres_database")
    schema = f"test_{secrets.token_hex(6)}"
    admin = _admin_engine(database)
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield _render(database.update_query_dict({"options": f"-csearch_path={schema}"}))
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        admin.dispose()


@pytest.fixture
def database_url(blank_database_url: str) -> str:
    """A fresh database of each kind, migrated to head through Alembic."""
    upgrade(blank_database_url)
    return blank_database_url


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def ledger(engine: Engine) -> Ledger:
    return Ledger(engine)


# Tiers. A plain `pytest` (no paths) runs the fast tier: the domain alone, in memory (the unit
# tests and the rule tests' in-memory half), in seconds. LOO_TEST_TIER=all (make test and CI
# set it), or naming paths or node ids, runs everything asked for: REST on SQLite and
# PostgreSQL, the store, the end-to-end tests and the property runs.
TIER_ENV = "LOO_TEST_TIER"
FAST_DIRS = ("tests/unit/", "tests/rules/")


def _every_tier(config: pytest.Config) -> bool:
    return os.environ.get(TIER_ENV, "").strip().lower() == "all" or _in_ci() \
        or bool(config.option.file_or_dir)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _every_tier(config):
        return
    fast = [i for i in items if i.nodeid.startswith(FAST_DIRS) and "rest-" not in i.nodeid]
    left_out = [i for i in items if i not in set(fast)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = fast
        config._lanterloo_left_out = len(left_out)  # type: ignore[attr-defined]


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    left_out = getattr(config, "_lanterloo_left_out", 0)
    if left_out:
        terminalreporter.write_line(
            f"fast tier: {left_out} tests of the REST, database and end-to-end tiers were left "
            f"out; `make test` (or {TIER_ENV}=all) runs every tier")


# CI runs the property tests derandomized, so that a run is repeatable and a green main stays
# green; locally every run explores new examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if _in_ci():
    settings.load_profile("ci")
