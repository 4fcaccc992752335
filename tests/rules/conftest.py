"""Every rule test runs in memory; a covering sample of them also runs through the REST API on
SQLite and on PostgreSQL.

The in-memory driver (`domain`) runs the whole rule table, in the fast tier. Over REST
(`rest-sqlite`, `rest-postgresql`) the sample is chosen at collection, the same every run:
for each test function, in the order its cases are collected, a case is kept when it brings
a value of one of its parameters (a preset, a variant's rules, an offence, an amount...) that
the cases kept before it did not have. So every test function runs over REST at least once,
and every value of every parameter (every preset, every variant, every offence kind of the
penalty table) at least once per database; what is left out repeats, over HTTP, a case whose
every value is already sent over HTTP by another. LOO_RULES_REST=all runs every case over
REST too.

The REST driver talks to the module's app (one per module and database, tests/conftest.py)
as a treasurer of a fresh club, so no test sees another's sessions.
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import Any

import pytest

from tests.clubs import club_client
from tests.conftest import every_tier, note, shared_engine
from tests.support.databases import SharedDatabases

from .driver import DomainTable, RestTable

REST_ENV = "LOO_RULES_REST"
DRIVERS = ["domain", "rest-sqlite", pytest.param("rest-postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=DRIVERS)
def table(request: pytest.FixtureRequest) -> Any:
    if request.param == "domain":
        return DomainTable()
    backend = request.param.removeprefix("rest-")
    shared: SharedDatabases = request.getfixturevalue("shared")
    engine = shared_engine(shared, backend)
    return RestTable(club_client(shared.app(backend), engine))


def _driver(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("table") if callspec is not None else None


def _values(item: pytest.Item) -> set[tuple[str, str]]:
    """(parameter, value) of every parameter of the case but the driver."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return set()
    return {(name, repr(value)) for name, value in callspec.params.items() if name != "table"}


def rest_sample(items: list[pytest.Item]) -> list[pytest.Item]:
    """The REST cases left out of the sample (see the module's docstring)."""
    seen: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    kept: set[tuple[str, str]] = set()  # (function, driver) with at least one case
    left_out = []
    for item in items:
        driver = _driver(item)
        if driver is None or not driver.startswith("rest-"):
            continue
        function = (item.nodeid.split("[")[0], driver)
        new = _values(item) - seen[function]
        if function in kept and not new:
            left_out.append(item)
            continue
        kept.add(function)
        seen[function] |= new
    return left_out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(REST_ENV, "").strip().lower() == "all" or not every_tier(config):
        return  # every case, or (the fast tier) none over REST
    rules = [i for i in items if i.nodeid.startswith("tests/rules/")]
    left_out = set(rest_sample(rules))
    if left_out:
        config.hook.pytest_deselected(items=list(left_out))
        items[:] = [i for i in items if i not in left_out]
        note(config, "rules", f"{len(left_out)} cases whose every parameter is sent over REST "
             f"by another ran in memory only; {REST_ENV}=all runs every case over REST too")
