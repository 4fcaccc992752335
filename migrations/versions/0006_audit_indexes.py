"""Indexes for the audit queries across a club's sessions (ledger/audit/queries.py, docs/audit.md).

The register's partial index, the log by type, member, actor, device and time, in the order
of the log; on PostgreSQL also the payload's offence, breach and player for the register.
The build holds a lock that keeps appends waiting while it runs: upgrade a large log in a
quiet hour (docs/audit.md).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REGISTER_WHERE = "type IN ('PenaltyImposed', 'BreachDetected')"
PLAIN = {
    "ix_events_type_position": ["type", "position"],
    "ix_events_type_stream_id": ["type", "stream_id"],
    "ix_events_member_id_position": ["member_id", "position"],
    "ix_events_actor_position": ["actor", "position"],
    "ix_events_token_id_position": ["token_id", "position"],
    "ix_events_recorded_at_position": ["recorded_at", "position"],
}
REGISTER = {  # partial: the register's two types only
    "ix_events_register": ["position"],
    "ix_events_register_time": ["recorded_at", "position"],
}
PAYLOAD = {  # PostgreSQL only: name -> (payload field, predicate)
    "ix_events_offence": ("offence", "type = 'PenaltyImposed'"),
    "ix_events_breach": ("rule", "type = 'BreachDetected'"),
    "ix_events_player": ("player", REGISTER_WHERE),
}


# PostgreSQL 14+: statistics of each payload field together with the type. ANALYZE counts an
# offence's share among the rows of its partial index, and the planner then applies the
# type's own selectivity again: without these it guesses 167 revokes where there are 5,771,
# and below a page's worth it sorts them all instead of reading the index in order.
# (Alembic compares no statistics objects; ledger/store/tables.py names them in a comment.)
STATISTICS = {"st_events_offence": "offence", "st_events_breach": "rule",
              "st_events_player": "player"}


def upgrade() -> None:
    for name, columns in REGISTER.items():
        op.create_index(name, "events", columns, postgresql_where=sa.text(REGISTER_WHERE),
                        sqlite_where=sa.text(REGISTER_WHERE))
    for name, columns in PLAIN.items():
        op.create_index(name, "events", columns)
    if op.get_bind().dialect.name == "postgresql":
        for name, (field, where) in PAYLOAD.items():
            op.create_index(name, "events", [sa.text(f"(payload ->> '{field}')"), "position"],
                            postgresql_where=sa.text(where))
        if op.get_bind().dialect.server_version_info >= (14,):
            for name, field in STATISTICS.items():
                op.execute(f"CREATE STATISTICS {name} (mcv) ON type, (payload ->> '{field}') "
                           "FROM events")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name in STATISTICS:
            op.execute(f"DROP STATISTICS IF EXISTS {name}")
        for name in PAYLOAD:
            op.drop_index(name, table_name="events")
    for name in reversed(PLAIN):
        op.drop_index(name, table_name="events")
    for name in reversed(REGISTER):
        op.drop_index(name, table_name="events")
