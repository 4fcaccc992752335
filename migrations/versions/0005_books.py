"""The club's books: payments, write-offs and cash counts as events, and session results.

`book_entries` is each club's book log, append-only in the database as `events` is (0001's
triggers, for this table) and hash-chained; `session_results` is the projection of each
ended session's result per seat (docs/books.md).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON()  # json, not jsonb: keys keep the order they were written in
POSITION = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

SQLITE_TRIGGERS = [
    """
    CREATE TRIGGER book_entries_no_update BEFORE UPDATE ON book_entries
    BEGIN SELECT RAISE(ABORT, 'book entries are append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER book_entries_no_delete BEFORE DELETE ON book_entries
    BEGIN SELECT RAISE(ABORT, 'book entries are append-only: DELETE refused'); END
    """,
]
POSTGRESQL_TRIGGERS = [
    """
    CREATE FUNCTION book_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'book entries are append-only: % refused', TG_OP;
    END
    $$
    """,
    """
    CREATE TRIGGER book_entries_no_update_or_delete BEFORE UPDATE OR DELETE ON book_entries
    FOR EACH ROW EXECUTE FUNCTION book_entries_append_only()
    """,
    """
    CREATE TRIGGER book_entries_no_truncate BEFORE TRUNCATE ON book_entries
    FOR EACH STATEMENT EXECUTE FUNCTION book_entries_append_only()
    """,
]


def upgrade() -> None:
    op.create_table(
        "book_entries",
        sa.Column("position", POSITION, autoincrement=True, nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("schema_version", sa.SmallInteger(), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("member_id", sa.String(length=64), nullable=True),
        sa.Column("token_id", sa.String(length=32), nullable=True),
        sa.Column("idempotency_key", sa.String(length=128), nullable=True),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_book_entries_seq_positive")),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_book_entries_club_id_clubs")),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"],
                                name=op.f("fk_book_entries_member_id_members")),
        sa.ForeignKeyConstraint(["token_id"], ["tokens.id"],
                                name=op.f("fk_book_entries_token_id_tokens")),
        sa.PrimaryKeyConstraint("position", name=op.f("pk_book_entries")),
        sa.UniqueConstraint("club_id", "seq", name=op.f("uq_book_entries_club_id_seq")),
    )
    op.create_table(
        "session_results",
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.String(length=64), nullable=False),
        sa.Column("session_name", sa.String(length=200), nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=True),
        sa.Column("member_id", sa.String(length=64), nullable=True),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("net_units", sa.BigInteger(), nullable=False),
        sa.Column("net_minor", sa.BigInteger(), nullable=True),
        sa.Column("deals_dealt", sa.Integer(), nullable=False),
        sa.Column("loos", sa.Integer(), nullable=False),
        sa.Column("loo_units", sa.BigInteger(), nullable=False),
        sa.Column("penalties", sa.Integer(), nullable=False),
        sa.Column("penalty_units", sa.BigInteger(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"],
                                name=op.f("fk_session_results_session_id_sessions")),
        sa.PrimaryKeyConstraint("session_id", "seat", name=op.f("pk_session_results")),
    )
    op.create_index(op.f("ix_session_results_club_id_member_id"), "session_results",
                    ["club_id", "member_id"], unique=False)
    op.create_index(op.f("ix_session_results_club_id_ended_at"), "session_results",
                    ["club_id", "ended_at"], unique=False)
    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": SQLITE_TRIGGERS, "postgresql": POSTGRESQL_TRIGGERS}.get(
            dialect, []):
        op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS book_entries_no_delete")
        op.execute("DROP TRIGGER IF EXISTS book_entries_no_update")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS book_entries_no_truncate ON book_entries")
        op.execute("DROP TRIGGER IF EXISTS book_entries_no_update_or_delete ON book_entries")
        op.execute("DROP FUNCTION IF EXISTS book_entries_append_only()")
    op.drop_index(op.f("ix_session_results_club_id_ended_at"), table_name="session_results")
    op.drop_index(op.f("ix_session_results_club_id_member_id"), table_name="session_results")
    op.drop_table("session_results")
    op.drop_table("book_entries")
