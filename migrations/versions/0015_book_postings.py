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
    op.create_table(
        "account_balances",
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("account", sa.String(length=80), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("club_id", "account", "currency",
                                name="pk_account_balances"),
    )
    op.execute(f"INSERT INTO account_balances (club_id, account, currency, amount_minor, "
               f"lines) SELECT club_id, account, currency, sum(amount), count(*) FROM "
               f"({SUMMED}) AS posted GROUP BY club_id, account, currency")
    op.create_table(
        "member_standings",
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("member_id", sa.String(length=64), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        *(sa.Column(name, sa.BigInteger(), nullable=False) for name in STANDING),
        sa.Column("net_minor", sa.BigInteger(), nullable=False),
        sa.Column("net_minor_lines", sa.Integer(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("club_id", "member_id", "currency",
                                name="pk_member_standings"),
    )
    op.execute("INSERT INTO member_standings (club_id, member_id, currency, "
               f"{', '.join(STANDING)}, net_minor, net_minor_lines, lines) "
               "SELECT club_id, member_id, currency, "
               f"{', '.join(f'sum({name})' for name in STANDING)}, "
               "COALESCE(sum(net_minor), 0), count(net_minor), count(*) FROM session_results "
               "WHERE club_id IS NOT NULL AND member_id IS NOT NULL "
               "GROUP BY club_id, member_id, currency")
    for statement in triggers(op.get_bind().dialect.name):
        op.execute(statement)


# Every posting of the books, as account_balances sums them: the book entries' and the
# results' (a line posts its net to its member's account, if it names one, and the opposite
# to its session's; a session's lines of no club are on no club's books).
AMOUNT = "COALESCE(net_minor, net_units)"
SUMMED = (
    "SELECT club_id, account, currency, amount_minor AS amount FROM book_postings "
    f"UNION ALL SELECT club_id, 'member:' || member_id, currency, {AMOUNT} "
    "FROM session_results WHERE club_id IS NOT NULL AND member_id IS NOT NULL "
    f"UNION ALL SELECT club_id, 'session:' || session_id, currency, -{AMOUNT} "
    "FROM session_results WHERE club_id IS NOT NULL")


STANDING = ("sessions", "deals_dealt", "net_units", "loos", "loo_units", "penalties",
            "penalty_units")


def _moves(table: str, row: str) -> list[tuple[str, dict[str, str], dict[str, str], str]]:
    """(kept table, its key's values, the values added to its sums, when) of each row of
    a kept table that a row of `table` (`row`: NEW or OLD) moves."""
    if table == "book_postings":
        return [("account_balances", {"club_id": f"{row}.club_id", "account": f"{row}.account",
                                      "currency": f"{row}.currency"},
                 {"amount_minor": f"{row}.amount_minor"}, "TRUE")]
    amount = f"COALESCE({row}.net_minor, {row}.net_units)"
    named = f"{row}.club_id IS NOT NULL AND {row}.member_id IS NOT NULL"
    return [
        ("account_balances", {"club_id": f"{row}.club_id",
                              "account": f"'member:' || {row}.member_id",
                              "currency": f"{row}.currency"}, {"amount_minor": amount}, named),
        ("account_balances", {"club_id": f"{row}.club_id",
                              "account": f"'session:' || {row}.session_id",
                              "currency": f"{row}.currency"}, {"amount_minor": f"-{amount}"},
         f"{row}.club_id IS NOT NULL"),
        ("member_standings", {"club_id": f"{row}.club_id", "member_id": f"{row}.member_id",
                              "currency": f"{row}.currency"},
         {**{name: f"{row}.{name}" for name in STANDING},
          "net_minor": f"COALESCE({row}.net_minor, 0)",
          "net_minor_lines": f"CASE WHEN {row}.net_minor IS NULL THEN 0 ELSE 1 END"}, named)]


def _add(kept: str, key: dict[str, str], sums: dict[str, str], when: str) -> list[str]:
    names = [*key, *sums, "lines"]
    moved = ", ".join(f"{name} = {kept}.{name} + excluded.{name}" for name in [*sums, "lines"])
    return [f"INSERT INTO {kept} ({', '.join(names)}) "
            f"SELECT {', '.join([*key.values(), *sums.values(), '1'])} WHERE {when} "
            f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {moved}"]


def _take_back(kept: str, key: dict[str, str], sums: dict[str, str], when: str) -> list[str]:
    where = " AND ".join(f"{name} = {value}" for name, value in key.items())
    moved = ", ".join(f"{name} = {name} - ({value})" for name, value in sums.items())
    return [f"UPDATE {kept} SET {moved}, lines = lines - 1 WHERE {where} AND {when}",
            f"DELETE FROM {kept} WHERE {where} AND lines = 0"]


TRIGGERED = ("book_postings", "session_results")


def triggers(dialect: str) -> list[str]:
    """The statements that make the triggers keeping account_balances and
    member_standings, on `dialect`."""
    out = []
    for table in TRIGGERED:
        name = f"{table}_kept"
        removed = [s for m in _moves(table, "OLD") for s in _take_back(*m)]
        added = [s for m in _moves(table, "NEW") for s in _add(*m)]
        if dialect == "postgresql":
            out += [f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
                    f"BEGIN IF TG_OP <> 'INSERT' THEN {'; '.join(removed)}; END IF; "
                    f"IF TG_OP <> 'DELETE' THEN {'; '.join(added)}; END IF; "
                    "RETURN NULL; END $$",
                    f"CREATE TRIGGER {name} AFTER INSERT OR UPDATE OR DELETE ON {table} "
                    f"FOR EACH ROW EXECUTE FUNCTION {name}()"]
            continue
        for event, statements in (("INSERT", added), ("DELETE", removed),
                                  ("UPDATE", removed + added)):
            out.append(f"CREATE TRIGGER {name}_{event.lower()} AFTER {event} ON {table} "
                       "FOR EACH ROW BEGIN " + "; ".join(statements) + "; END")
    return out


def _drop_triggers(dialect: str) -> None:
    for table in TRIGGERED:
        name = f"{table}_kept"
        if dialect == "postgresql":
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
            op.execute(f"DROP FUNCTION IF EXISTS {name}()")
        else:
            for event in ("insert", "delete", "update"):
                op.execute(f"DROP TRIGGER IF EXISTS {name}_{event}")


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
    _drop_triggers(op.get_bind().dialect.name)
    op.drop_table("member_standings")
    op.drop_table("account_balances")
    op.drop_index("ix_book_postings_club_id_recorded_at_seq", table_name="book_postings")
    op.drop_index("ix_book_postings_club_id_account_seq", table_name="book_postings")
    op.drop_table("book_postings")
