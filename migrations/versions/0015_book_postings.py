"""The book log's postings as a table: the books' reads sum and walk them in the database.

`book_postings` holds each book entry's postings, one row each (account, currency, signed
amount; the entry's number, type, time and session): a projection of the book log, written
from now on in the transaction that appends each entry (ledger/books/postings.py), so that
the balances are summed by the database up to a book position and the open items walk the
members' lines without the whole log being read and decoded for every request. The upgrade
fills it from every club's book log, each entry's postings as the domain makes them
(ledger/domain/bookentries.py: the log stays the truth; `lanterloo verify --all` compares
the two, `lanterloo rebuild --all` writes the table again). The downgrade drops it; nothing
else refers to it.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 5000  # rows inserted at a time while the table is filled


def upgrade() -> None:
    postings = op.create_table(
        "book_postings",
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("n", sa.SmallInteger(), nullable=False),
        sa.Column("account", sa.String(length=80), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name="fk_book_postings_club_id_clubs"),
        sa.PrimaryKeyConstraint("club_id", "seq", "n", name="pk_book_postings"),
    )
    op.create_index("ix_book_postings_club_id_account_seq", "book_postings",
                    ["club_id", "account", "seq"])
    op.create_index("ix_book_postings_club_id_recorded_at_seq", "book_postings",
                    ["club_id", "recorded_at", "seq"])
    _fill(postings)


def _fill(postings: sa.Table) -> None:
    """Every club's book log's postings, entry by entry in each log's order."""
    from ledger.books.postings import rows_of
    from ledger.domain.bookentries import entry_from_record

    entries = sa.table("book_entries", sa.column("club_id"), sa.column("seq"),
                       sa.column("type"), sa.column("schema_version"),
                       sa.column("payload", sa.JSON()),
                       sa.column("recorded_at", sa.DateTime(timezone=True)))
    conn = op.get_bind()
    rows: list[dict[str, object]] = []
    query = sa.select(entries).order_by(entries.c.club_id, entries.c.seq)
    for r in conn.execute(query):
        entry = entry_from_record(r.type, r.schema_version, r.payload)
        rows += rows_of(r.club_id, r.seq, entry, r.recorded_at)
        if len(rows) >= BATCH:
            conn.execute(sa.insert(postings), rows)
            rows = []
    if rows:
        conn.execute(sa.insert(postings), rows)


def downgrade() -> None:
    op.drop_index("ix_book_postings_club_id_recorded_at_seq", table_name="book_postings")
    op.drop_index("ix_book_postings_club_id_account_seq", table_name="book_postings")
    op.drop_table("book_postings")
