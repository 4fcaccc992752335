"""Every rule test runs in memory and through the REST API on each database."""

from __future__ import annotations

import os

import pytest

from .driver import DomainTable, RestTable

DRIVERS = ["domain", "rest"]


@pytest.fixture(params=DRIVERS)
def table(request):
    if request.param == "domain":
        return DomainTable()
    app = request.getfixturevalue("rules_app")
    return RestTable(app.test_client())


@pytest.fixture
def rules_app(database_url):
    from api import create_app

    app = create_app({"DATABASE_URL": database_url, "AUTO_MIGRATE": True, "TESTING": True})
    yield app
    engine = app.extensions.get("lanterloo_engine")
    if engine is not None and hasattr(engine, "dispose"):
        engine.dispose()


def pytest_collection_modifyitems(config, items):
    if os.environ.get("LOO_RULES_DOMAIN_ONLY"):
        items[:] = [i for i in items if "[domain" in i.nodeid or "table" not in i.fixturenames]
