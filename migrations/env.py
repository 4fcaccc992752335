"""Alembic environment: the app's metadata and database.

The URL comes from `-x url=...`, else LOO_DATABASE_URL, else the default SQLite file
(`ledger.store.db.default_url`). Code that already holds a connection passes it in
`config.attributes["connection"]` (ledger.store.migrate).
"""

from __future__ import annotations

import logging
import warnings

from alembic import context
from sqlalchemy import Connection

from ledger.store.db import make_engine
from ledger.store.partitions import table_of
from ledger.store.tables import metadata

config = context.config
if "connection" not in config.attributes:
    # Run from the `alembic` command line: show what it does (there is no alembic.ini).
    logging.basicConfig(level=logging.INFO, format="%(levelname)-5.5s [%(name)s] %(message)s")
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


def _url() -> str | None:
    return context.get_x_argument(as_dictionary=True).get("url") or config.attributes.get("url")


def _include_name(name: str | None, type_: str, parent_names: dict[str, str | None]) -> bool:
    """Alembic compares the tables, not their partitions by club (`events_p0`...,
    ledger/store/partitions.py), which it would otherwise take for tables to drop."""
    table = name if type_ == "table" else parent_names.get("table_name")
    return table is None or table_of(table) == table


def _configure(**kwargs: object) -> None:
    context.configure(
        target_metadata=metadata,
        include_name=_include_name,
        compare_type=True,
        compare_server_default=True,
        # The pysqlite BEGIN hook in ledger.store.db makes DDL transactional on SQLite too.
        transactional_ddl=True,
        **kwargs,
    )


def _run(connection: Connection) -> None:
    # SQLite cannot ALTER most things in place; batch mode copies the table instead.
    _configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction(), warnings.catch_warnings():
        # ledger/store/tables.py builds the payload's expression indexes on PostgreSQL only
        # (Index.ddl_if); SQLite cannot reflect them, and Alembic says so as it skips them.
        warnings.filterwarnings("ignore", category=UserWarning,
                                message="autogenerate skipping metadata-specified "
                                        "expression-based index 'ix_events_")
        context.run_migrations()


def run_offline() -> None:
    engine = make_engine(_url(), operator=True)
    try:
        _configure(url=engine.url, literal_binds=True, dialect_opts={"paramstyle": "named"})
    finally:
        engine.dispose()
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url(), operator=True)
    try:
        with engine.connect() as connection:
            _run(connection)
            connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
