"""PostgreSQL compresses the wide projection columns with LZ4 instead of pglz.

A session's state (about 4 KB of JSON), a deal view (about 2.4 KB) and an as-of snapshot pass
PostgreSQL's 2 KB threshold, so the server compresses them when they are written: the state
and the deal view at every append, all of them at a rebuild. pglz costs several times the CPU
of LZ4 for the same bytes; on a million events a rebuild took 0.85-0.90 x the time with LZ4
(docs/performance.md). Only values written after the upgrade are compressed anew; the ones
already stored stay as they are and read the same. The log's own payloads are small and keep
the server's default.

PostgreSQL 14+ built with LZ4 only (the Debian and upstream packages are); elsewhere, and on
SQLite, this revision changes nothing. Alembic compares no compression method, so
ledger/store/tables.py names it in a comment.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (("sessions", "state"), ("deal_views", "view"), ("snapshots", "state"))


def _lz4_available() -> bool:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql" or bind.dialect.server_version_info < (14,):
        return False
    found = bind.execute(sa.text(
        "SELECT 'lz4' = ANY(enumvals) FROM pg_settings "
        "WHERE name = 'default_toast_compression'")).scalar()
    return bool(found)


def upgrade() -> None:
    if _lz4_available():
        for table, column in COLUMNS:
            op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION lz4")


def downgrade() -> None:
    if _lz4_available():
        for table, column in COLUMNS:
            op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION DEFAULT")
