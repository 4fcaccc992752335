"""Pairing codes: a tablet signs in with a short code the treasurer's screen shows.

Adds `pairing_codes` (ledger/store/tables.py): the SHA-256 of each code, the session and
member it is for, when it expires, how many wrong guesses it met, and when it was used and for
which token. A new table only: nothing stored is changed.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pairing_codes",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("lookup", sa.String(length=8), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("member_id", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failed_attempts", sa.SmallInteger(), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("token_id", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_pairing_codes_club_id_clubs")),
        sa.ForeignKeyConstraint(["created_by"], ["members.id"],
                                name=op.f("fk_pairing_codes_created_by_members")),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"],
                                name=op.f("fk_pairing_codes_member_id_members")),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"],
                                name=op.f("fk_pairing_codes_session_id_sessions")),
        sa.ForeignKeyConstraint(["token_id"], ["tokens.id"],
                                name=op.f("fk_pairing_codes_token_id_tokens")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pairing_codes")),
    )
    op.create_index(op.f("ix_pairing_codes_lookup"), "pairing_codes", ["lookup"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_pairing_codes_lookup"), table_name="pairing_codes")
    op.drop_table("pairing_codes")
