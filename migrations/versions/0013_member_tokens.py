"""A `member` role for tokens: one member's own read-only view of his account.

Widens the check on `tokens.role` to take `member` beside admin, treasurer, dealer and
auditor. A member token belongs to the member it shows, as every token belongs to its holder
(`tokens.member_id`): no new column. No stored value changes. SQLite cannot alter a check in
place: batch mode copies `tokens`, whose rows events, book entries and pairing codes refer
to, so the foreign keys are checked at the commit (`defer_foreign_keys`), once the copy has
taken the table's name again.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_ROLES = "role IN ('admin', 'treasurer', 'dealer', 'auditor')"
NEW_ROLES = "role IN ('admin', 'treasurer', 'dealer', 'auditor', 'member')"


def _tokens(check: str) -> sa.Table:
    """The tokens table as 0010 left it (with `check`), for SQLite's batch copy: reflection
    alone would not carry the check over."""
    return sa.Table(
        "tokens", sa.MetaData(),
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("member_id", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=100), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("issued_by", sa.String(length=64), nullable=True),
        sa.Column("issued_with", sa.String(length=32), nullable=True),
        sa.CheckConstraint(check, name="ck_tokens_role"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name="fk_tokens_club_id_clubs"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"],
                                name="fk_tokens_member_id_members"),
        sa.PrimaryKeyConstraint("id", name="pk_tokens"),
        sa.Index("ix_tokens_club_id", "club_id"),
        sa.Index("ix_tokens_member_id", "member_id"),
    )


def _recheck(old: str, new: str) -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("PRAGMA defer_foreign_keys = ON")
    with op.batch_alter_table("tokens", copy_from=_tokens(old) if sqlite else None) as batch:
        batch.drop_constraint(op.f("ck_tokens_role"), type_="check")
        batch.create_check_constraint(op.f("ck_tokens_role"), sa.text(new))


def upgrade() -> None:
    _recheck(OLD_ROLES, NEW_ROLES)


def downgrade() -> None:
    members = op.get_bind().scalar(sa.text("SELECT count(*) FROM tokens WHERE role = 'member'"))
    if members:
        # a token is never deleted (events and the club log name it): nothing to fall back to
        raise RuntimeError(f"{members} member tokens are stored: 0011 has no such role")
    _recheck(NEW_ROLES, OLD_ROLES)
