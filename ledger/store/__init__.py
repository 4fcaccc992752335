"""SQLAlchemy 2 persistence: the tables, engines, the store (one interface, SQLite and
PostgreSQL) and the migrations runner."""

from sqlalchemy import Engine

from .base import Store
from .db import default_url, derived, make_engine
from .postgres import PostgresStore
from .sqlite import SqliteStore

__all__ = ["default_url", "make_engine", "open_store", "Store"]


def open_store(engine: Engine) -> Store:
    """The store for `engine`'s database, made once per engine."""
    kinds: dict[str, type[Store]] = {"postgresql": PostgresStore, "sqlite": SqliteStore}
    kind = kinds.get(engine.dialect.name)
    if kind is None:
        raise ValueError(f"no store for the {engine.dialect.name} database: use SQLite or "
                         "PostgreSQL")
    found: Store = derived(engine, "lanterloo_store", lambda: kind(engine))
    return found
