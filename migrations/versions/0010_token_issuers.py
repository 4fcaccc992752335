"""Who issued each token: the member and the token that asked (GET /audit/tokens).

Adds `tokens.issued_by` (the issuing member's id) and `tokens.issued_with` (the token that
asked), both empty for the tokens already stored and for those made at the command line. No
stored value changes.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tokens", sa.Column("issued_by", sa.String(length=64), nullable=True))
    op.add_column("tokens", sa.Column("issued_with", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tokens") as batch:
        batch.drop_column("issued_with")
        batch.drop_column("issued_by")
