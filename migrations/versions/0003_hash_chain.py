"""Chain every event to the one before it in its session with a SHA-256 hash.

Adds `events.hash` and `sessions.head_hash`, and computes both for the events already stored
(ledger/store/chain.py gives the canonical form). The append-only triggers are lifted for the
backfill only, inside this migration's transaction, and put back as 0001 made them.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ledger.store.chain import GENESIS, link

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SQLITE_TRIGGERS = {
    "events_no_update": """
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END
    """,
}


def upgrade() -> None:
    op.add_column("events", sa.Column("hash", sa.String(length=64), nullable=True))
    op.add_column("sessions", sa.Column("head_hash", sa.String(length=64), nullable=True))
    _backfill()


def _backfill() -> None:
    bind = op.get_bind()
    # Typed as the application reads them, so that a value hashes the same here and in verify
    # (SQLite hands back text for an untyped timestamp or JSON column).
    typed = {"payload": sa.JSON(), "recorded_at": sa.DateTime(timezone=True)}
    events = sa.table("events", *(sa.column(name, typed.get(name)) for name in (
        "position", "stream_id", "version", "type", "schema_version", "payload", "recorded_at",
        "actor", "member_id", "token_id", "idempotency_key", "hash")))
    sessions = sa.table("sessions", sa.column("id"), sa.column("head_hash"))
    rows = bind.execute(sa.select(events).order_by(events.c.stream_id, events.c.version)).all()
    if not rows:
        return
    dialect = bind.dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS events_no_update")
    else:
        op.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_or_delete")
    heads: dict[str, str] = {}
    for row in rows:
        data = row._asdict()
        head = link(data, heads.get(row.stream_id, GENESIS))
        heads[row.stream_id] = head
        bind.execute(sa.update(events).where(events.c.position == row.position)
                     .values(hash=head))
    for stream_id, head in heads.items():
        bind.execute(sa.update(sessions).where(sessions.c.id == stream_id)
                     .values(head_hash=head))
    if dialect == "sqlite":
        op.execute(SQLITE_TRIGGERS["events_no_update"])
    else:
        op.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_or_delete")


def downgrade() -> None:
    op.drop_column("sessions", "head_hash")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite drops a column in place; the triggers on events stay as they are.
        op.execute("ALTER TABLE events DROP COLUMN hash")
    else:
        op.drop_column("events", "hash")
