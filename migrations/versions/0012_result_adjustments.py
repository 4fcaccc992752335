"""Corrections that keep the past: a session's results as lines posted over time.

`session_results` held one row per seat, rewritten by a correction. It now holds the lines a
session posted to the books: its result when it ended, and the difference each later
correction made, at the correction's time (ledger/domain/adjustments.py). The key gains the
session's `version` after the write that posted the line; `ended_at` becomes `posted_at`;
`sessions` (1 for a result, -1 when a correction reopened the session, 0 for a change),
`corrected_by` (the EntryCorrected's version) and `reason` are added. Every row already
stored is a result (sessions 1): right for a session never corrected after it ended; the
projection form (ledger/projections.py SHAPE) moves to 2, so `lanterloo migrate` rebuilds
every session's lines from its log. The log itself is not touched.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_session_results_club_id_ended_at", table_name="session_results")
    with op.batch_alter_table("session_results", recreate="auto") as batch:
        batch.alter_column("ended_at", new_column_name="posted_at")
        batch.add_column(sa.Column("sessions", sa.SmallInteger(), nullable=False,
                                   server_default=sa.text("1")))
        batch.add_column(sa.Column("corrected_by", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("reason", sa.String(500), nullable=True))
        batch.drop_constraint("pk_session_results", type_="primary")
        batch.create_primary_key("pk_session_results", ["session_id", "seat", "version"])
    op.create_index("ix_session_results_club_id_posted_at", "session_results",
                    ["club_id", "posted_at"])


def downgrade() -> None:
    # Only a session's last line per seat can stay under the old key: the lines of a
    # corrected session are rebuilt by `lanterloo migrate` of the older release.
    op.drop_index("ix_session_results_club_id_posted_at", table_name="session_results")
    op.execute("DELETE FROM session_results WHERE version < (SELECT max(r.version) FROM "
               "session_results r WHERE r.session_id = session_results.session_id "
               "AND r.seat = session_results.seat)")
    with op.batch_alter_table("session_results", recreate="auto") as batch:
        batch.drop_constraint("pk_session_results", type_="primary")
        batch.create_primary_key("pk_session_results", ["session_id", "seat"])
        batch.drop_column("reason")
        batch.drop_column("corrected_by")
        batch.drop_column("sessions")
        batch.alter_column("posted_at", new_column_name="ended_at")
    op.create_index("ix_session_results_club_id_ended_at", "session_results",
                    ["club_id", "ended_at"])
