"""Initial schema: the append-only event log and its projections.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON()  # json, not jsonb, on PostgreSQL: keys keep the order they were written in
POSITION = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# The log is append-only in the database too, not only by the code's good manners.
SQLITE_TRIGGERS = [
    """
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END
    """,
]
POSTGRESQL_TRIGGERS = [
    """
    CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'events are append-only: % refused', TG_OP;
    END
    $$
    """,
    """
    CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only()
    """,
    """
    CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()
    """,
]


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("position", POSITION, autoincrement=True, nullable=False),
        sa.Column("stream_id", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("schema_version", sa.SmallInteger(), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("idempotency_key", sa.String(length=128), nullable=True),
        sa.CheckConstraint("version >= 1", name=op.f("ck_events_version_positive")),
        sa.PrimaryKeyConstraint("position", name=op.f("pk_events")),
        sa.UniqueConstraint("stream_id", "version", name=op.f("uq_events_stream_id_version")),
    )
    op.create_index(
        op.f("ix_events_stream_id_position"), "events", ["stream_id", "position"], unique=False
    )

    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
    )
    op.create_index(op.f("ix_sessions_club_id"), "sessions", ["club_id"], unique=False)

    op.create_table(
        "deal_views",
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("view", JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=op.f("fk_deal_views_session_id_sessions")
        ),
        sa.PrimaryKeyConstraint("session_id", "deal_no", name=op.f("pk_deal_views")),
    )

    op.create_table(
        "idempotency_keys",
        sa.Column("scope", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.SmallInteger(), nullable=False),
        sa.Column("response", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key", name=op.f("pk_idempotency_keys")),
    )

    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": SQLITE_TRIGGERS, "postgresql": POSTGRESQL_TRIGGERS}.get(
        dialect, []
    ):
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS events_no_delete")
        op.execute("DROP TRIGGER IF EXISTS events_no_update")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS events_no_truncate ON events")
        op.execute("DROP TRIGGER IF EXISTS events_no_update_or_delete ON events")
        op.execute("DROP FUNCTION IF EXISTS events_append_only()")
    op.drop_table("idempotency_keys")
    op.drop_table("deal_views")
    op.drop_index(op.f("ix_sessions_club_id"), table_name="sessions")
    op.drop_table("sessions")
    op.drop_index(op.f("ix_events_stream_id_position"), table_name="events")
    op.drop_table("events")
