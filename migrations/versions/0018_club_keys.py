"""Every row a club owns names its club, and the club leads its keys.

`club_id` becomes NOT NULL on `sessions`, `events`, `deal_views`, `snapshots`,
`idempotency_keys` and `session_results`, and it leads the primary and unique keys a
distribution by club needs (ledger/store/tables.py CLUB_KEYS): a session is (club, id), its
rows refer to it so, the optimistic lock of the log is (club, stream, version), a stored
answer is (club, scope, key), a log's head (club, stream), a pairing code (club, id); the
three logs' primary key is (club, position) on PostgreSQL (on SQLite `position` stays the
whole key: it is the rowid SQLite numbers).

It refuses to run while a session from before clubs has no club (SessionsOutsideClubs,
nothing done): the operator attaches them first (`lanterloo club attach CLUB --all`, which
works at revision 0017), and `lanterloo migrate` says so and stops at 0017. The rows 0017
left without a club are filled from their session's; a stored answer no club can own (the
operator's `open` of the first release, whose scope names no club and no session) can
never be replayed, a session being opened only in a club now, and is deleted.

PostgreSQL changes the keys in place (one ALTER TABLE a table); SQLite copies each table
into its new form, the sessions first and the tables that refer to them after, so that no
foreign key meets a table being dropped; the triggers and indexes are made again from
their own text. The log's content and its hashes are not touched.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ledger.store.migrate import SessionsOutsideClubs

revision: str = "0018"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BY_SESSION = (("events", "stream_id"), ("deal_views", "session_id"),
              ("snapshots", "session_id"), ("session_results", "session_id"))
# the scopes that name their club: 0017's, and a member's change ("members:<club>:…"), whose
# answers the service kept without their club until 0018
CLUB_SCOPES = ("open", "books", "tokens", "members")
NEW = "_0018"  # the suffix of a SQLite table while it is copied

# PostgreSQL: (table, the key's columns as they were, as they become). The FKs of a
# session's rows follow the sessions' key.
PRIMARY_KEYS = (
    ("sessions", "id", "club_id, id"),
    ("deal_views", "session_id, deal_no", "club_id, session_id, deal_no"),
    ("snapshots", "session_id, version", "club_id, session_id, version"),
    ("session_results", "session_id, seat, version", "club_id, session_id, seat, version"),
    ("pairing_codes", "id", "club_id, id"),
    ("idempotency_keys", "scope, key", "club_id, scope, key"),
    ("log_heads", "stream_id", "club_id, stream_id"),
    ("events", "position", "club_id, position"),
    ("book_entries", "position", "club_id, position"),
    ("club_log", "position", "club_id, position"),
)
NOT_NULL = ("sessions", "events", "deal_views", "snapshots", "idempotency_keys",
            "session_results")
OF_SESSION = ("deal_views", "snapshots", "session_results", "pairing_codes")


def upgrade() -> None:
    conn = op.get_bind()
    strays = conn.scalar(sa.text("SELECT count(*) FROM sessions WHERE club_id IS NULL"))
    if strays:
        raise SessionsOutsideClubs(int(strays), str(down_revision))
    for table, session in BY_SESSION:
        fill(conn, table, session)
    fill_answers(conn)
    conn.execute(sa.text("DELETE FROM idempotency_keys WHERE club_id IS NULL"))
    if conn.dialect.name == "postgresql":
        postgresql_keys(up=True)
    else:
        sqlite_copy(conn, SQLITE_UP, drop_indexes={"ix_sessions_club_id"},
                    new_indexes=["CREATE INDEX ix_sessions_id ON sessions (id)"])


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        postgresql_keys(up=False)
    else:
        sqlite_copy(conn, SQLITE_DOWN, drop_indexes={"ix_sessions_id"},
                    new_indexes=["CREATE INDEX ix_sessions_club_id ON sessions (club_id)"])


def fill(conn: sa.Connection, table: str, session: str) -> None:
    """The club of each row still without one, from its session's (what 0017 did, for the
    rows written outside clubs since and attached)."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text(f"UPDATE {table} t SET club_id = s.club_id FROM sessions s "
                             f"WHERE s.id = t.{session} AND t.club_id IS NULL"))
    else:
        conn.execute(sa.text(f"UPDATE {table} SET club_id = (SELECT s.club_id FROM sessions s "
                             f"WHERE s.id = {table}.{session}) WHERE club_id IS NULL"))


def club_of_scope(scope: str, clubs: set[str], session_clubs: dict[str, str]) -> str | None:
    """The club a stored answer's scope belongs to (0017's rule, and "members")."""
    head, _, rest = scope.partition(":")
    if head in CLUB_SCOPES:
        club = rest.partition(":")[0]
        return club if club in clubs else None
    if head == "attach":
        return session_clubs.get(rest)
    return session_clubs.get(head)


def fill_answers(conn: sa.Connection) -> None:
    clubs = set(conn.scalars(sa.text("SELECT id FROM clubs")))
    session_clubs = {sid: club for sid, club in conn.execute(sa.text(
        "SELECT id, club_id FROM sessions"))}
    found = [(scope, club_of_scope(scope, clubs, session_clubs)) for scope in conn.scalars(
        sa.text("SELECT DISTINCT scope FROM idempotency_keys WHERE club_id IS NULL"))]
    owned = [{"scope": scope, "club": club} for scope, club in found if club is not None]
    if owned:
        conn.execute(sa.text("UPDATE idempotency_keys SET club_id = :club "
                             "WHERE scope = :scope AND club_id IS NULL"), owned)


# -- PostgreSQL: the keys changed in place -------------------------------------------------

def postgresql_keys(*, up: bool) -> None:
    for table in OF_SESSION:
        name = "session_id" if up else "club_id"
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT fk_{table}_{name}_sessions")
    for table, before, after in PRIMARY_KEYS:
        changes = [f"DROP CONSTRAINT pk_{table}",
                   f"ADD CONSTRAINT pk_{table} PRIMARY KEY ({after if up else before})"]
        if table in NOT_NULL:
            changes.append(f"ALTER COLUMN club_id {'SET' if up else 'DROP'} NOT NULL")
        if table == "events":
            old, new = "stream_id, version", "club_id, stream_id, version"
            changes += [f"DROP CONSTRAINT uq_events_{(old if up else new).replace(', ', '_')}",
                        f"ADD CONSTRAINT uq_events_{(new if up else old).replace(', ', '_')} "
                        f"UNIQUE ({new if up else old})"]
        op.execute(f"ALTER TABLE {table} {', '.join(changes)}")
    if up:
        op.execute("DROP INDEX ix_sessions_club_id")
        op.execute("CREATE INDEX ix_sessions_id ON sessions (id)")
    else:
        op.execute("DROP INDEX ix_sessions_id")
        op.execute("CREATE INDEX ix_sessions_club_id ON sessions (club_id)")
    for table in OF_SESSION:
        if up:
            op.execute(f"ALTER TABLE {table} ADD CONSTRAINT fk_{table}_club_id_sessions "
                       "FOREIGN KEY (club_id, session_id) REFERENCES sessions (club_id, id)")
        else:
            op.execute(f"ALTER TABLE {table} ADD CONSTRAINT fk_{table}_session_id_sessions "
                       "FOREIGN KEY (session_id) REFERENCES sessions (id)")


# -- SQLite: each table copied into its new form -------------------------------------------
#
# Each table's CREATE TABLE is its own text in sqlite_master with the changes below made to
# it, each of which must match exactly once (else the migration stops: a schema it does not
# know). The sessions go first, as sessions_0018; the tables referring to them are made
# referring to sessions_0018, filled and their old forms dropped; the old sessions are then
# dropped (nothing refers to them any more, so their foreign keys refuse nothing) and
# sessions_0018 renamed, which renames the references to it.

COLUMN = r"\bclub_id VARCHAR\(64\)(?=\s*[,)])"
NOT_NULL_COLUMN = r"\bclub_id VARCHAR\(64\) NOT NULL(?=\s*[,)])"


def _pk(table: str, columns: str) -> str:
    quoted = columns.replace("key", '"?key"?').replace("(", r"\(").replace(")", r"\)")
    return rf"(?:CONSTRAINT pk_{table} )?PRIMARY KEY \({quoted}\)"


def _of_session(table: str, up: bool) -> tuple[str, str]:
    if up:
        return (r"(?:CONSTRAINT \w+ )?FOREIGN KEY\s*\(session_id\) REFERENCES \"?sessions\"? "
                r"\(id\)", f"CONSTRAINT fk_{table}_club_id_sessions FOREIGN KEY(club_id, "
                f"session_id) REFERENCES sessions{NEW} (club_id, id)")
    return (rf"CONSTRAINT fk_{table}_club_id_sessions FOREIGN KEY\s*\(club_id, session_id\) "
            r"REFERENCES \"?sessions\"? \(club_id, id\)",
            f"CONSTRAINT fk_{table}_session_id_sessions FOREIGN KEY(session_id) "
            f"REFERENCES sessions{NEW} (id)")


def _changes(up: bool) -> dict[str, list[tuple[str, str]]]:
    def pk(table: str, before: str, after: str) -> tuple[str, str]:
        old, new = (before, after) if up else (after, before)
        return _pk(table, old), f'CONSTRAINT pk_{table} PRIMARY KEY ({new})'.replace(
            "key)", '"key")')

    club = (COLUMN, "club_id VARCHAR(64) NOT NULL") if up else (NOT_NULL_COLUMN,
                                                                 "club_id VARCHAR(64)")
    keys = {table: pk(table, before, after) for table, before, after in PRIMARY_KEYS
            if table not in ("events", "book_entries", "club_log")}
    unique = ((r"(?:CONSTRAINT uq_events_stream_id_version )?UNIQUE \(stream_id, version\)",
               "CONSTRAINT uq_events_club_id_stream_id_version UNIQUE (club_id, stream_id, "
               "version)") if up else
              (r"CONSTRAINT uq_events_club_id_stream_id_version UNIQUE \(club_id, stream_id, "
               r"version\)", "CONSTRAINT uq_events_stream_id_version UNIQUE (stream_id, "
               "version)"))
    changes: dict[str, list[tuple[str, str]]] = {
        "sessions": [club, keys["sessions"]],
        "events": [club, unique],
        "idempotency_keys": [club, keys["idempotency_keys"]],
        "log_heads": [keys["log_heads"]],
        "pairing_codes": [keys["pairing_codes"], _of_session("pairing_codes", up)],
    }
    for table in ("deal_views", "snapshots", "session_results"):
        changes[table] = [club, keys[table], _of_session(table, up)]
    return changes


SQLITE_UP = _changes(up=True)
SQLITE_DOWN = _changes(up=False)


def _new_form(conn: sa.Connection, table: str, changes: list[tuple[str, str]]) -> str:
    sql = conn.scalar(sa.text("SELECT sql FROM sqlite_master WHERE type = 'table' AND "
                              "name = :t"), {"t": table})
    sql, named = re.subn(rf'^CREATE TABLE "?{table}"?', f"CREATE TABLE {table}{NEW}", sql)
    assert named == 1, (table, sql)
    for pattern, replacement in changes:
        sql, found = re.subn(pattern, replacement, sql)
        if found != 1:
            raise RuntimeError(f"migration {revision}: table {table} is not as expected "
                               f"({pattern!r} found {found} times in {sql})")
    return str(sql)


def sqlite_copy(conn: sa.Connection, changes: dict[str, list[tuple[str, str]]], *,
                drop_indexes: set[str], new_indexes: list[str]) -> None:
    tables = list(changes)  # the sessions first
    triggers = list(conn.execute(sa.text(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")))
    indexes = [sql for name, sql in conn.execute(sa.text(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND "
        f"tbl_name IN ({', '.join(repr(t) for t in tables)}) ORDER BY name"))
        if name not in drop_indexes]
    for name, _ in triggers:  # made again at the end: a rename re-reads every trigger
        conn.execute(sa.text(f'DROP TRIGGER "{name}"'))
    for table in tables:
        conn.execute(sa.text(_new_form(conn, table, changes[table])))
        columns = ", ".join(f'"{c}"' for c in conn.scalars(
            sa.text(f"SELECT name FROM pragma_table_info('{table}')")))
        conn.execute(sa.text(f"INSERT INTO {table}{NEW} ({columns}) "
                             f"SELECT {columns} FROM {table}"))
        if table != "sessions":
            conn.execute(sa.text(f'DROP TABLE "{table}"'))
    conn.execute(sa.text("DROP TABLE sessions"))
    for table in tables:
        conn.execute(sa.text(f"ALTER TABLE {table}{NEW} RENAME TO {table}"))
    for sql in [*indexes, *new_indexes]:
        conn.execute(sa.text(sql))
    for _, sql in triggers:
        conn.execute(sa.text(sql))
    broken = list(conn.execute(sa.text("PRAGMA foreign_key_check")))
    assert not broken, broken
