"""Every rule test runs in memory, and through the REST API on SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets

import pytest
from sqlalchemy import text

from ledger.store.migrate import upgrade
from tests.clubs import club_client
from tests.conftest import _admin_engine, _render

from .driver import DomainTable, RestTable


@pytest.fixture(params=["domain", "rest-sqlite",
                        pytest.param("rest-postgresql", marks=pytest.mark.postgres)])
def table(request, tmp_path):
    if request.param == "domain":
        yield DomainTable()
        return
    from api import create_app
    from ledger.store.db import make_engine

    admin = schema = None
    if request.param == "rest-sqlite":
        url = f"sqlite:///{tmp_path / 'rules.db'}"
    else:
        database = request.getfixturevalue("postgres_database")
        schema = f"rules_{secrets.token_hex(6)}"
        admin = _admin_engine(database)
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        url = _render(database.update_query_dict({"options": f"-csearch_path={schema}"}))
    upgrade(url)
    engine = make_engine(url)
    try:
        app = create_app({"ENGINE": engine, "TESTING": True})
        yield RestTable(club_client(app, engine))
    finally:
        engine.dispose()
        if admin is not None:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()
