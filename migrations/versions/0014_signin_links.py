"""Sign-in links: a code exchanged for a token, for a person as well as a tablet.

`pairing_codes` holds every code that is exchanged once for a token (ledger/clubs/codes.py):
a tablet's pairing code, made for one session, and a person's sign-in link, made for no
session. Adds `role`, the role of the token the code gives ('dealer' for every code stored
so far, which were all pairing codes), and lets `session_id` be empty (a sign-in link). No
stored value changes; nothing refers to `pairing_codes`, so SQLite's batch copy is plain.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("pairing_codes") as batch:
        batch.add_column(sa.Column("role", sa.String(length=16), nullable=False,
                                   server_default="dealer"))
        batch.add_column(sa.Column("created_with", sa.String(length=32), nullable=True))
        batch.alter_column("session_id", existing_type=sa.String(length=64), nullable=True)


def downgrade() -> None:
    op.execute("DELETE FROM pairing_codes WHERE session_id IS NULL")
    with op.batch_alter_table("pairing_codes") as batch:
        batch.alter_column("session_id", existing_type=sa.String(length=64), nullable=False)
        batch.drop_column("created_with")
        batch.drop_column("role")
