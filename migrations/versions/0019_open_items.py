"""The members' open items and what is left in sessions, kept: /debts, /payables and
/accounts read them and walk or sum nothing.

`open_items` holds each member's open lines now (FIFO's, as the walk of the books finds them
from the newest end: accounts.open_lines), one row a line and member, kept by every write
that posts a line to a member (ledger/store/openitems.py): a session's end, its correction,
its attachment to the club, a rebuild of its results, a book entry. The upgrade fills it for
every club from the walk (the walk stays the definition: `lanterloo verify` compares the
two, `lanterloo rebuild --all` writes the table again).

`session_totals` holds, per club and currency, the sum of the sessions' own accounts (what is
left in sessions), kept like `account_balances` by a trigger on `session_results`, and filled
from it.

An index of the results by member and time lets a write walk one member's lines from the
newest back.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AMOUNT = "COALESCE({row}.net_minor, {row}.net_units)"
# each side's open items in the answers' order (partial indexes)
SIDES = {"ix_open_items_debts": "open_minor < 0", "ix_open_items_credits": "open_minor > 0"}
TRIGGER = "session_results_totals"


def upgrade() -> None:
    op.create_table(
        "open_items",
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("member_id", sa.String(length=64), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("line", sa.String(length=152), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("session_id", sa.String(length=64), nullable=True),
        sa.Column("seat", sa.String(length=64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("session_name", sa.String(length=200), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("corrected_by", sa.Integer(), nullable=True),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("open_minor", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("club_id", "member_id", "currency", "line",
                                name="pk_open_items"),
    )
    for name, where in SIDES.items():
        op.create_index(name, "open_items", ["club_id", "at"],
                        postgresql_where=sa.text(where), sqlite_where=sa.text(where))
    op.create_index("ix_open_items_club_id_member_id_currency_at", "open_items",
                    ["club_id", "member_id", "currency", "at"])
    op.create_index("ix_session_results_club_id_member_id_posted_at", "session_results",
                    ["club_id", "member_id", "posted_at"])
    op.create_table(
        "session_totals",
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("club_id", "currency", name="pk_session_totals"),
    )
    op.execute("INSERT INTO session_totals (club_id, currency, amount_minor, lines) "
               f"SELECT club_id, currency, -sum({AMOUNT.format(row='session_results')}), "
               "count(*) FROM session_results WHERE club_id IS NOT NULL "
               "GROUP BY club_id, currency")
    for statement in triggers(op.get_bind().dialect.name):
        op.execute(statement)
    _fill()


def triggers(dialect: str) -> list[str]:
    """The trigger keeping `session_totals` (a result's line takes its amount from the
    sessions' total in its currency; a line of no club is on no club's books)."""
    where = "club_id = {row}.club_id AND currency = {row}.currency"
    removed = [f"UPDATE session_totals SET amount_minor = amount_minor + "
               f"{AMOUNT.format(row='OLD')}, lines = lines - 1 WHERE {where.format(row='OLD')}",
               f"DELETE FROM session_totals WHERE {where.format(row='OLD')} AND lines = 0"]
    added = ["INSERT INTO session_totals (club_id, currency, amount_minor, lines) "
             f"SELECT NEW.club_id, NEW.currency, -{AMOUNT.format(row='NEW')}, 1 "
             "WHERE NEW.club_id IS NOT NULL ON CONFLICT (club_id, currency) DO UPDATE SET "
             "amount_minor = session_totals.amount_minor + excluded.amount_minor, "
             "lines = session_totals.lines + excluded.lines"]
    if dialect == "postgresql":
        return [f"CREATE FUNCTION {TRIGGER}() RETURNS trigger LANGUAGE plpgsql AS $$ "
                f"BEGIN IF TG_OP <> 'INSERT' THEN {'; '.join(removed)}; END IF; "
                f"IF TG_OP <> 'DELETE' THEN {'; '.join(added)}; END IF; "
                "RETURN NULL; END $$",
                f"CREATE TRIGGER {TRIGGER} AFTER INSERT OR UPDATE OR DELETE ON session_results "
                f"FOR EACH ROW EXECUTE FUNCTION {TRIGGER}()"]
    return [f"CREATE TRIGGER {TRIGGER}_{event.lower()} AFTER {event} ON session_results "
            "FOR EACH ROW BEGIN " + "; ".join(statements) + "; END"
            for event, statements in (("INSERT", added), ("DELETE", removed),
                                      ("UPDATE", removed + added))]


def _fill() -> None:
    """Every club's open items, as the walk of its books finds them."""
    from ledger.store import openitems

    conn = op.get_bind()
    for (club_id,) in conn.execute(sa.text("SELECT id FROM clubs ORDER BY id")):
        openitems.rebuild(conn, club_id)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER} ON session_results")
        op.execute(f"DROP FUNCTION IF EXISTS {TRIGGER}()")
    else:
        for event in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_{event}")
    op.drop_table("session_totals")
    op.drop_index("ix_session_results_club_id_member_id_posted_at",
                  table_name="session_results")
    op.drop_index("ix_open_items_club_id_member_id_currency_at", table_name="open_items")
    for name in SIDES:
        op.drop_index(name, table_name="open_items")
    op.drop_table("open_items")
