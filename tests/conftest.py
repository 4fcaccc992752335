"""Shared database fixtures, and which databases each test runs on.

    blank_database_url  an empty database, nothing migrated (for the migration tests)
    database_url        a fresh database, migrated to head through Alembic
    engine              make_engine(database_url), disposed after the test
    ledger              a fresh club's ledger seating unknown players as guests
    signing_key         the service signs with a key of the test's own (its Signer)
    backend             "sqlite" or "postgresql": the kind of database the test runs on
                        ("postgresql-partitioned" too in a module marked `partitioned`)

Which databases. Every test that asks for a database (any of the fixtures above, or an app
or client built on them) runs once per backend its module allows:

    pytestmark = pytest.mark.backends("sqlite")       # behaviour no database can change
    @pytest.mark.backends("postgresql")               # a PostgreSQL feature, on one test
    pytestmark = pytest.mark.partitioned              # PostgreSQL also partitioned by club

Without the marker a test runs on SQLite and on PostgreSQL: the store, every write path (open,
append, correct, undo, the books), idempotency, locking and concurrency, anything that
touches SQL. HTTP tests of routes, schemas, auth and problems, whose answers the database
cannot change, say `backends("sqlite")` in their module. Tests are grouped by backend
within a module, so a module's shared database is made once per backend.

How the databases are made (tests/support/databases.py): the schema is migrated once per
test process (per pytest-xdist worker) into a template, and each test gets a copy: SQLite
copies the migrated file, PostgreSQL says `CREATE DATABASE ... TEMPLATE` and drops it after
the test. The migration tests' blank database on PostgreSQL is a schema of its own reached
through search_path. Every database a process made is dropped when it ends.

The HTTP tests (tests/e2e, tests/rules) share one database and one app per module and
backend: each test still talks as a member of a fresh club of its own (tests/clubs.py), so no
test sees another's sessions. A test that needs a database or an app of its own (it reads
or changes the whole database, or changes its app) asks for `database_url`, or is marked
`@pytest.mark.isolated`.

PostgreSQL is the server named by LOO_TEST_POSTGRES_URL (default
postgresql+psycopg://postgres@127.0.0.1:5432/test). When it cannot be reached the PostgreSQL
half is skipped with the reason, unless the environment variable CI is set: then every
PostgreSQL test errors, so the run fails.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings
from sqlalchemy import Engine

from ledger.sessions.service import Ledger
from ledger.store.db import make_engine
from tests.clubs import club_ledger, own_signing_key
from tests.support.databases import (
    BACKENDS,
    PARTITIONED,
    Databases,
    PostgresUnreachable,
    SharedDatabases,
    quick_commits,
)

# Every app the tests make checks each answer against the OpenAPI document (api/http/contract.py):
# a member sent but not declared fails the test that met it.
os.environ.setdefault("LOO_STRICT_RESPONSES", "1")
# An instance folder of the tests' own, never the checkout's: a checkpoint key `make run`
# made there would otherwise sign the tests' sessions into the checkout's checkpoint log.
os.environ["LOO_INSTANCE_DIR"] = tempfile.mkdtemp(prefix="lanterloo-instance-")


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unreachable(error: PostgresUnreachable) -> None:
    """Skip the test for the reason, or fail it under CI."""
    if _in_ci():
        pytest.fail(f"CI is set and {error}", pytrace=False)
    pytest.skip(str(error))


# -- which databases ---------------------------------------------------------------------

def backends_of(definition: Any) -> tuple[str, ...]:
    """The backends the closest `backends` marker allows, else both."""
    marker = definition.get_closest_marker("backends")
    if marker is None:
        return BACKENDS
    unknown = set(marker.args) - set(BACKENDS)
    if unknown or not marker.args:
        raise pytest.UsageError(f"{definition.nodeid}: backends() takes some of {BACKENDS}, "
                                f"got {marker.args}")
    return tuple(marker.args)


def backend_param(name: str) -> Any:
    marks = [pytest.mark.postgres] if name.startswith("postgresql") else []
    return pytest.param(name, marks=marks, id=name)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each database test once per backend of its module (module scope: the module's
    tests are grouped by backend, so a shared database is made once per backend); on
    PostgreSQL partitioned by club too where the module is marked `partitioned` (the
    store's contract, its write path and its club rows: the layout is the store's alone)."""
    if "backend" in metafunc.fixturenames:
        names = backends_of(metafunc.definition)
        if "postgresql" in names and metafunc.definition.get_closest_marker("partitioned"):
            names = (*names, PARTITIONED)
        metafunc.parametrize("backend", [backend_param(b) for b in names], scope="module")


def isolated(request: pytest.FixtureRequest) -> bool:
    """Whether the test wants a database (and app) of its own rather than its module's."""
    return request.node.get_closest_marker("isolated") is not None \
        or "database_url" in request.fixturenames \
        or "blank_database_url" in request.fixturenames


# -- the databases ------------------------------------------------------------------------

@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    """This process's databases: the migrated templates, and every copy made of them."""
    made = Databases(tmp_path_factory.mktemp("databases"))
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def blank_database_url(backend: str, databases: Databases) -> Iterator[str]:
    """An empty database of the backend, as a URL any engine or `alembic -x url=` accepts."""
    try:
        url = databases.blank(backend)
    except PostgresUnreachable as error:
        unreachable(error)
    yield url
    databases.drop(url)


@pytest.fixture
def database_url(backend: str, databases: Databases) -> Iterator[str]:
    """A fresh database of the backend, migrated to head (a copy of the migrated template)."""
    try:
        url = databases.migrated(backend)
    except PostgresUnreachable as error:
        unreachable(error)
    yield url
    databases.drop(url)


@pytest.fixture
def fresh_engine(database_url: str) -> Iterator[Engine]:
    """An engine on a fresh database of its own."""
    engine = quick_commits(make_engine(database_url))
    yield engine
    engine.dispose()


@pytest.fixture
def engine(fresh_engine: Engine) -> Engine:
    """The test's database: a fresh one (tests/e2e and tests/rules share one per module)."""
    return fresh_engine


@pytest.fixture
def ledger(engine: Engine) -> Ledger:
    """A fresh club's ledger, seating unknown players as guests (tests/clubs.py)."""
    return club_ledger(engine)


@pytest.fixture
def signing_key(tmp_path: Any) -> Iterator[Any]:
    """The service signs each end with a key of the test's own, into a log of its own
    (tests/clubs.py own_signing_key): the key's Signer."""
    with own_signing_key(str(tmp_path)) as signer:
        yield signer


@pytest.fixture(scope="module")
def shared(databases: Databases) -> Iterator[SharedDatabases]:
    """The module's shared databases, engines and apps, one per backend, made on first use."""
    made = SharedDatabases(databases)
    try:
        yield made
    finally:
        made.close()


def shared_engine(shared: SharedDatabases, backend: str) -> Engine:
    try:
        return shared.engine(backend)
    except PostgresUnreachable as error:
        unreachable(error)
        raise  # unreachable() always raises


# Both cores. A run of the default paths (no paths or node ids named: the fast tier, `make
# test`) is spread over pytest-xdist workers, one per core, unless the command line says how
# (`-n 0` for one process, as --pdb needs) or LOO_TEST_WORKERS does (a number, or 0).
# Naming paths runs in one process, unless `-n` is given.
WORKERS_ENV = "LOO_TEST_WORKERS"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    option = config.option
    if not hasattr(option, "numprocesses") or option.numprocesses is not None \
            or os.environ.get("PYTEST_XDIST_WORKER") or option.file_or_dir \
            or option.collectonly or getattr(option, "usepdb", False):
        return
    wanted = os.environ.get(WORKERS_ENV, "auto").strip() or "auto"
    option.numprocesses = wanted if wanted in ("auto", "logical") else int(wanted)
    # Hand out two tests at a time, so that the long ones, started first (below), are shared
    # between the workers rather than sent to one in a block.
    if option.maxschedchunk is None:
        option.maxschedchunk = 2


# Started first, so that the workers finish together instead of one waiting on a long test
# started last: the slowest tests, each 10 s to 3 min (a full run's --durations).
LONG_FIRST = (
    "tests/install/",
    "tests/unit/test_properties.py::test_many_long_sessions_keep_every_property",
    "tests/unit/test_properties.py::test_many_more_random_sessions_keep_every_property",
    "tests/e2e/test_openapi_contract.py::",
    "tests/integration/test_explain_and_as_of.py::test_random_sessions_with_corrections",
    "tests/unit/test_properties.py::test_sessions_of_hundreds_of_deals",
    "tests/unit/test_explain.py::test_the_state_as_of_any_version",
    "tests/unit/test_properties.py::test_every_command_of_a_random_session",
    "tests/browser/test_screens.py::",
)


# The long tier: what would take `make test` past its five minutes on two cores, each the
# longer form of something `make test` also checks: the PostgreSQL half of the HTTP, rule and
# integration tests (their SQLite half, and the store contract, the write path and the
# migrations on PostgreSQL, stay), the store's tests on PostgreSQL partitioned by club, the
# fault drills
# against real servers, the install from a clone, the screens at the sizes beyond a laptop, a
# tablet and a phone, the random walks' longer runs. Marked `long` here, in one place, by
# regular expressions matched at the start of the node id; `make test` leaves them out
# (-m "not long") and `make long` runs them, as .ci/run does after `make test`.
LONG_RUNS = re.compile("|".join((
    r"tests/install/test_volunteer_install\.py::",
    r"tests/faults/",
    r"tests/e2e/.*\[postgresql",
    r"tests/rules/.*\[rest-postgresql",
    r"tests/integration/(?!test_store_contract|test_write_path|test_migrations).*\[postgresql",
    r"tests/.*\[(.*-)?postgresql-partitioned",  # the store's tests on the partitioned layout
    r"tests/browser/test_desk_\w+\.py::.*\[tablet-(portrait|landscape)\]",
    r"tests/browser/test_between_deals\.py::.*\[(tablet-portrait|phone)\]",
    r"tests/unit/test_properties\.py::test_the_generator_reaches_",
    r"tests/browser/test_layout\.py::.*\[(960x600|800x1280|600x960|1366x1024|1280x800|1024x600)\]",
    r"tests/e2e/test_openapi_contract\.py::test_stateful_runs",
    r"tests/integration/test_explain_and_as_of\.py::test_random_sessions",
    r"tests/browser/test_screens\.py::.*\[landscape\]",
    r"tests/browser/test_statement_page\.py::test_the_statement_in_the_dark",
    r"tests/integration/test_audit_indexes\.py::",
)))


def pytest_itemcollected(item: pytest.Item) -> None:
    if LONG_RUNS.match(item.nodeid):
        item.add_marker(pytest.mark.long)


def _long_first(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        for i, prefix in enumerate(LONG_FIRST):
            if item.nodeid.startswith(prefix):
                return i
        return len(LONG_FIRST)

    items.sort(key=rank)  # stable: the rest keeps its order, grouped by module and backend


# Tiers. A plain `pytest` (no paths) runs the fast tier: the domain alone, in memory (the unit
# tests but the long property runs marked `slow`, and the rule tests in memory), in seconds.
# LOO_TEST_TIER=all (make test and CI set it), or naming paths or node ids, runs everything
# asked for: REST on SQLite and PostgreSQL, the store, the end-to-end tests and the property
# runs.
TIER_ENV = "LOO_TEST_TIER"
FAST_DIRS = ("tests/unit/", "tests/rules/")


def every_tier(config: pytest.Config) -> bool:
    return os.environ.get(TIER_ENV, "").strip().lower() == "all" or _in_ci() \
        or bool(config.option.file_or_dir)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _long_first(items)
    if every_tier(config):
        return
    fast = [i for i in items if i.nodeid.startswith(FAST_DIRS) and "rest-" not in i.nodeid
            and i.get_closest_marker("slow") is None]
    left_out = [i for i in items if i not in set(fast)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = fast
        note(config, "fast tier", f"{len(left_out)} tests of the REST, database, end-to-end "
             f"and long property tiers were left out; `make test` (or {TIER_ENV}=all) runs "
             "every tier")


# Notes and lines for the end of the run. Under pytest-xdist the workers collect and run and
# the controller reports: what a worker has to say travels back in its `workeroutput`.
_NOTES = pytest.StashKey[dict[str, str]]()
_LINES = pytest.StashKey[list[str]]()


def note(config: pytest.Config, topic: str, text: str) -> None:
    """Say `topic: text` at the end of the run (once, however many workers say it)."""
    notes: dict[str, str] = config.stash.setdefault(_NOTES, {})
    notes[topic] = text
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["lanterloo_notes"] = dict(notes)


def end_lines(config: pytest.Config, lines: list[str]) -> None:
    """Print `lines` at the end of the run (every worker's)."""
    kept: list[str] = config.stash.setdefault(_LINES, [])
    kept += lines
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["lanterloo_lines"] = list(kept)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    output = getattr(node, "workeroutput", {})
    node.config.stash.setdefault(_NOTES, {}).update(output.get("lanterloo_notes", {}))
    node.config.stash.setdefault(_LINES, []).extend(output.get("lanterloo_lines", []))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    for line in config.stash.get(_LINES, []):
        terminalreporter.write_line(line)
    for topic, text in sorted(config.stash.get(_NOTES, {}).items()):
        terminalreporter.write_line(f"{topic}: {text}")
    browser = [r for r in terminalreporter.stats.get("skipped", [])
               if r.nodeid.startswith("tests/browser/")]
    if browser:
        reasons = sorted({str(r.longrepr[2]).removeprefix("Skipped: ") for r in browser
                          if isinstance(r.longrepr, tuple)})
        terminalreporter.write_sep("!", f"{len(browser)} BROWSER TESTS WERE SKIPPED", red=True)
        for reason in reasons:
            terminalreporter.write_line(f"  because {reason}")


# CI runs the property tests derandomized, so that a run is repeatable and a green main stays
# green; locally every run explores new examples.
settings.register_profile("ci", derandomize=True, print_blob=True)
if _in_ci():
    settings.load_profile("ci")
