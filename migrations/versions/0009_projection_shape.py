"""The form a session's projections were written in.

Adds `sessions.shape` (0 for every row written before it: their form is not known). The
projections of a session whose shape is older than the code's (ledger/projections.py SHAPE)
are rebuilt from its log by `lanterloo migrate` after this revision, or by the service before
the session is next read or written: an upgrade needs no manual rebuild. The log itself is
not touched.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # ADD COLUMN with a constant default: in place on both databases (no table rebuilt).
    op.add_column("sessions", sa.Column("shape", sa.SmallInteger(), nullable=False,
                                        server_default=sa.text("0")))


def downgrade() -> None:
    op.drop_column("sessions", "shape")
