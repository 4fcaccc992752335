"""Alembic migrations: the only way the schema is created (`ledger.store.migrate.upgrade`)."""
