"""Every row of a club's session knows its club: `club_id` on the log and the projections.

Adds `club_id` to `events`, `deal_views`, `snapshots` and `idempotency_keys` (the tables a
club owns that did not carry it; `sessions`, `session_results`, `book_entries`, `club_log`,
`log_heads`, `members`, `tokens` and `pairing_codes` already did), and fills it for every
row already stored: a session's events, deal views and snapshots take their session's club,
and so do its result lines where one was left empty; a stored answer takes the club its
scope names ("open:<club>:…", "books:<club>:…", "tokens:<club>:…") or the club of the session
it answered ("<session>[:<member>]", "attach:<session>"). It is the column a later
partitioning or distribution by club needs (docs/operations.md, "Which rows carry their
club"). The log's content and its hashes are not touched: the chain hashes the fields it
names (ledger/store/chain.py HASHED), never `club_id`.

A session recorded before clubs (the first release's) has no club until it is attached
(`lanterloo club attach CLUB --all`): its rows keep an empty `club_id`, and the attach fills
them. The columns stay nullable until no session outside a club can be opened.

Revision ID: 0017
Revises: 0014 (re-chained by the lead after 0015 and 0016)
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID_LENGTH = 64
# the tables of a session's rows, and the column naming the session
BY_SESSION = (("events", "stream_id"), ("deal_views", "session_id"),
              ("snapshots", "session_id"), ("session_results", "session_id"))
CLUB_SCOPES = ("open", "books", "tokens")


# The log stays append-only but for one write: the club of an event recorded outside clubs
# is set once, when its session is attached (ledger/store/base.py `Tx.move_to_club`). Every
# other column refuses an UPDATE as before, and a club once set is never changed.
LOGGED = ("position", "stream_id", "version", "type", "schema_version", "payload",
          "recorded_at", "actor", "idempotency_key", "member_id", "token_id", "hash")
SQLITE_REFUSE = "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END"
SQLITE_TRIGGERS = [
    f"CREATE TRIGGER events_no_update BEFORE UPDATE OF {', '.join(LOGGED)} ON events "
    f"{SQLITE_REFUSE}",
    "CREATE TRIGGER events_club_once BEFORE UPDATE OF club_id ON events "
    f"WHEN OLD.club_id IS NOT NULL {SQLITE_REFUSE}",
]
POSTGRESQL_TRIGGERS = [
    "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
    "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
    f"CREATE TRIGGER events_no_update BEFORE UPDATE OF {', '.join(LOGGED)} ON events "
    "FOR EACH ROW EXECUTE FUNCTION events_append_only()",
    "CREATE TRIGGER events_club_once BEFORE UPDATE OF club_id ON events FOR EACH ROW "
    "WHEN (OLD.club_id IS NOT NULL) EXECUTE FUNCTION events_append_only()",
]


def upgrade() -> None:
    for table in ("events", "deal_views", "snapshots", "idempotency_keys"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("club_id", sa.String(length=ID_LENGTH), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER events_no_update")
        triggers = SQLITE_TRIGGERS
    else:
        op.execute("DROP TRIGGER events_no_update_or_delete ON events")
        triggers = POSTGRESQL_TRIGGERS
    for trigger in triggers:
        op.execute(trigger)
    for table, session in BY_SESSION:
        fill(table, session)
    fill_answers(op.get_bind())


def fill(table: str, session: str) -> None:
    """The club of each row of `table` whose session has one (a join on PostgreSQL: one
    pass; the rows of a session outside clubs are not written at all)."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"UPDATE {table} t SET club_id = s.club_id FROM sessions s "
                   f"WHERE s.id = t.{session} AND s.club_id IS NOT NULL "
                   "AND t.club_id IS NULL")
    else:
        op.execute(f"UPDATE {table} SET club_id = (SELECT s.club_id FROM sessions s "
                   f"WHERE s.id = {table}.{session}) WHERE club_id IS NULL AND {session} IN "
                   "(SELECT id FROM sessions WHERE club_id IS NOT NULL)")


def club_of_scope(scope: str, clubs: set[str], session_clubs: dict[str, str | None]
                  ) -> str | None:
    """The club a stored answer's scope belongs to (ledger/writes.py `perform`'s callers)."""
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
        "SELECT id, club_id FROM sessions WHERE club_id IS NOT NULL"))}
    found = [(scope, club_of_scope(scope, clubs, session_clubs)) for scope in conn.scalars(
        sa.text("SELECT DISTINCT scope FROM idempotency_keys WHERE club_id IS NULL"))]
    owned = [{"scope": scope, "club": club} for scope, club in found if club is not None]
    if owned:
        conn.execute(sa.text("UPDATE idempotency_keys SET club_id = :club "
                             "WHERE scope = :scope"), owned)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER events_club_once")
        op.execute("DROP TRIGGER events_no_update")
        op.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                   f"{SQLITE_REFUSE}")
    else:
        for trigger in ("events_club_once", "events_no_update", "events_no_delete"):
            op.execute(f"DROP TRIGGER {trigger} ON events")
        op.execute("CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events "
                   "FOR EACH ROW EXECUTE FUNCTION events_append_only()")
    for table in ("idempotency_keys", "snapshots", "deal_views", "events"):
        # a plain ALTER TABLE on SQLite too (3.35+): a batch copy of events would lose its
        # triggers
        op.execute(f"ALTER TABLE {table} DROP COLUMN club_id")
