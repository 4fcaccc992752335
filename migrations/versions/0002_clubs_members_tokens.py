"""Clubs, members and tokens; every event names the member and the token that appended it.

Sessions opened before this revision keep `club_id` NULL: no club's token reaches them, only
the command line (`lanterloo verify`). Their events keep `member_id` and `token_id` NULL.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# SQLite cannot add a foreign key to a table in place: batch mode copies `events`, and the
# copy loses the append-only triggers of 0001, so they are created again (same text).
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


def _events(*, as_in_0002: bool) -> sa.Table:
    """The events table as 0001 (or 0002) built it, for SQLite's batch copy: reflection alone
    would not carry the CHECK constraint over."""
    position = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    meta = sa.MetaData()
    extra: list[sa.SchemaItem] = []
    if as_in_0002:
        sa.Table("members", meta, sa.Column("id", sa.String(length=64), primary_key=True))
        sa.Table("tokens", meta, sa.Column("id", sa.String(length=32), primary_key=True))
        extra = [
            sa.Column("member_id", sa.String(length=64), nullable=True),
            sa.Column("token_id", sa.String(length=32), nullable=True),
            sa.ForeignKeyConstraint(["member_id"], ["members.id"],
                                    name="fk_events_member_id_members"),
            sa.ForeignKeyConstraint(["token_id"], ["tokens.id"],
                                    name="fk_events_token_id_tokens"),
            sa.Index("ix_events_member_id", "member_id"),
        ]
    return sa.Table(
        "events",
        meta,
        sa.Column("position", position, autoincrement=True, nullable=False),
        sa.Column("stream_id", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("schema_version", sa.SmallInteger(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("idempotency_key", sa.String(length=128), nullable=True),
        sa.CheckConstraint("version >= 1", name="ck_events_version_positive"),
        sa.PrimaryKeyConstraint("position", name="pk_events"),
        sa.UniqueConstraint("stream_id", "version", name="uq_events_stream_id_version"),
        sa.Index("ix_events_stream_id_position", "stream_id", "position"),
        *extra,
    )


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clubs")),
        sa.UniqueConstraint("name_key", name=op.f("uq_clubs_name_key")),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_members_club_id_clubs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_members")),
        sa.UniqueConstraint("club_id", "name_key", name=op.f("uq_members_club_id_name_key")),
    )
    op.create_table(
        "tokens",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("member_id", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=100), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("role IN ('admin', 'treasurer', 'dealer', 'auditor')",
                           name=op.f("ck_tokens_role")),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_tokens_club_id_clubs")),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"],
                                name=op.f("fk_tokens_member_id_members")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tokens")),
    )
    op.create_index(op.f("ix_tokens_club_id"), "tokens", ["club_id"], unique=False)
    op.create_index(op.f("ix_tokens_member_id"), "tokens", ["member_id"], unique=False)

    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table(
            "events", copy_from=_events(as_in_0002=False) if sqlite else None) as batch:
        batch.add_column(sa.Column("member_id", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("token_id", sa.String(length=32), nullable=True))
        batch.create_foreign_key(op.f("fk_events_member_id_members"), "members",
                                 ["member_id"], ["id"])
        batch.create_foreign_key(op.f("fk_events_token_id_tokens"), "tokens",
                                 ["token_id"], ["id"])
        batch.create_index(op.f("ix_events_member_id"), ["member_id"], unique=False)
    if sqlite:
        for statement in SQLITE_TRIGGERS:
            op.execute(statement)


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table(
            "events", copy_from=_events(as_in_0002=True) if sqlite else None) as batch:
        batch.drop_index(op.f("ix_events_member_id"))
        batch.drop_constraint(op.f("fk_events_token_id_tokens"), type_="foreignkey")
        batch.drop_constraint(op.f("fk_events_member_id_members"), type_="foreignkey")
        batch.drop_column("token_id")
        batch.drop_column("member_id")
    if sqlite:
        for statement in SQLITE_TRIGGERS:
            op.execute(statement)
    op.drop_index(op.f("ix_tokens_member_id"), table_name="tokens")
    op.drop_index(op.f("ix_tokens_club_id"), table_name="tokens")
    op.drop_table("tokens")
    op.drop_table("members")
    op.drop_table("clubs")
