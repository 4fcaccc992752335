"""Retired members: `members.retired_at`, when the admin retired the member (null: he is a
member now).

A retired member keeps his row, his name and his history (sessions, statements, account);
he can no longer be seated, paired, given a link or a token (ledger/clubs/membership.py).
Every member stored so far is current: the column is added empty. The change itself is
recorded in the club's log (`MemberRetired`), like every change of the members.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("members") as batch:
        batch.add_column(sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # SQLite drops the column in place (3.35 and later): a batch copy of `members` would drop
    # the table the tokens, links and codes refer to, which its foreign keys refuse.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE members DROP COLUMN retired_at")
    else:
        op.drop_column("members", "retired_at")
