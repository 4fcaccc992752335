"""Every chain anchored and bound: the club log, and stored heads for the clubs' logs.

Adds `club_log` (each club's chained log of members, tokens and attached sessions;
append-only in the database as `events` and `book_entries` are) and `log_heads` (the last
seq and hash of each club's book log and club log). For each existing club it stores the
head of its book log as it is, and starts its club log with one `ClubLogStarted` entry that
takes in the club's name, members, tokens and sessions as they are at the upgrade (recorded
by "upgrade"): from then on verify replays the club log against the members and tokens, and
a session of the first releases' chain format (which does not bind its club) is bound to the
club that took it in. Nothing already stored changes.

Revision ID: 0011
Revises: 0009
Create Date: 2026-11-26
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from ledger.store.chain import GENESIS, link, utc_iso

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON()  # json, not jsonb: keys keep the order they were written in
POSITION = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

SQLITE_TRIGGERS = [
    """
    CREATE TRIGGER club_log_no_update BEFORE UPDATE ON club_log
    BEGIN SELECT RAISE(ABORT, 'the club log is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER club_log_no_delete BEFORE DELETE ON club_log
    BEGIN SELECT RAISE(ABORT, 'the club log is append-only: DELETE refused'); END
    """,
]
POSTGRESQL_TRIGGERS = [
    """
    CREATE FUNCTION club_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the club log is append-only: % refused', TG_OP;
    END
    $$
    """,
    """
    CREATE TRIGGER club_log_no_update_or_delete BEFORE UPDATE OR DELETE ON club_log
    FOR EACH ROW EXECUTE FUNCTION club_log_append_only()
    """,
    """
    CREATE TRIGGER club_log_no_truncate BEFORE TRUNCATE ON club_log
    FOR EACH STATEMENT EXECUTE FUNCTION club_log_append_only()
    """,
]


def upgrade() -> None:
    op.create_table(
        "club_log",
        sa.Column("position", POSITION, autoincrement=True, nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=64), nullable=False),
        sa.Column("schema_version", sa.SmallInteger(), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
        sa.Column("member_id", sa.String(length=64), nullable=True),
        sa.Column("token_id", sa.String(length=32), nullable=True),
        sa.Column("idempotency_key", sa.String(length=128), nullable=True),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_club_log_seq_positive")),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_club_log_club_id_clubs")),
        sa.PrimaryKeyConstraint("position", name=op.f("pk_club_log")),
        sa.UniqueConstraint("club_id", "seq", name=op.f("uq_club_log_club_id_seq")),
    )
    op.create_table(
        "log_heads",
        sa.Column("stream_id", sa.String(length=80), nullable=False),
        sa.Column("club_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"],
                                name=op.f("fk_log_heads_club_id_clubs")),
        sa.PrimaryKeyConstraint("stream_id", name=op.f("pk_log_heads")),
    )
    bind = op.get_bind()
    for statement in {"sqlite": SQLITE_TRIGGERS, "postgresql": POSTGRESQL_TRIGGERS}.get(
            bind.dialect.name, []):
        op.execute(statement)
    _start_logs(bind)


def _start_logs(bind: sa.Connection) -> None:
    """The heads of every club's book log, and its club log's first entry (frozen here:
    ledger/store/clublog.py reads what this writes)."""
    clubs = sa.table("clubs", sa.column("id"), sa.column("name"))
    members = sa.table("members", sa.column("id"), sa.column("club_id"), sa.column("name"),
                       sa.column("guest", sa.Boolean()))
    moment = sa.DateTime(timezone=True)
    tokens = sa.table("tokens", *(sa.column(c) for c in (
        "id", "club_id", "member_id", "role", "label", "secret_hash")),
        *(sa.column(c, moment) for c in ("created_at", "expires_at", "revoked_at")))
    sessions = sa.table("sessions", sa.column("id"), sa.column("club_id"))
    books = sa.table("book_entries", sa.column("club_id"), sa.column("seq"),
                     sa.column("hash"))
    club_log = sa.table("club_log", *(sa.column(c) for c in (
        "club_id", "seq", "type", "schema_version", "actor", "member_id", "token_id",
        "idempotency_key", "hash")), sa.column("payload", JSON),
        sa.column("recorded_at", moment))
    heads = sa.table("log_heads", sa.column("stream_id"), sa.column("club_id"),
                     sa.column("seq"), sa.column("hash"))

    def iso(moment: datetime | None) -> str | None:
        return utc_iso(moment) if moment is not None else None

    now = datetime.now(UTC)
    for club_id, name in bind.execute(sa.select(clubs.c.id, clubs.c.name)
                                      .order_by(clubs.c.id)).all():
        last = bind.execute(sa.select(books.c.seq, books.c.hash)
                            .where(books.c.club_id == club_id)
                            .order_by(books.c.seq.desc()).limit(1)).first()
        payload = {
            "name": name,
            "members": [{"member_id": m.id, "name": m.name, "guest": bool(m.guest)}
                        for m in bind.execute(sa.select(members)
                                              .where(members.c.club_id == club_id)
                                              .order_by(members.c.id))],
            "tokens": [{"token_id": t.id, "member_id": t.member_id, "role": t.role,
                        "label": t.label, "secret_hash": t.secret_hash,
                        "created_at": iso(t.created_at), "expires_at": iso(t.expires_at),
                        "revoked_at": iso(t.revoked_at)}
                       for t in bind.execute(sa.select(tokens)
                                             .where(tokens.c.club_id == club_id)
                                             .order_by(tokens.c.id))],
            "sessions": list(bind.scalars(sa.select(sessions.c.id)
                                          .where(sessions.c.club_id == club_id)
                                          .order_by(sessions.c.id))),
        }
        row = {"club_id": club_id, "seq": 1, "type": "ClubLogStarted", "schema_version": 1,
               "payload": payload, "recorded_at": now, "actor": "upgrade",
               "member_id": None, "token_id": None, "idempotency_key": None}
        row["hash"] = link({**row, "stream_id": f"club:{club_id}", "version": 1}, GENESIS)
        bind.execute(sa.insert(club_log), row)
        bind.execute(sa.insert(heads), [
            {"stream_id": f"books:{club_id}", "club_id": club_id,
             "seq": int(last.seq) if last else 0, "hash": last.hash if last else GENESIS},
            {"stream_id": f"club:{club_id}", "club_id": club_id, "seq": 1,
             "hash": row["hash"]}])


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS club_log_no_truncate ON club_log")
        op.execute("DROP TRIGGER IF EXISTS club_log_no_update_or_delete ON club_log")
        op.execute("DROP FUNCTION IF EXISTS club_log_append_only()")
    elif bind.dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS club_log_no_delete")
        op.execute("DROP TRIGGER IF EXISTS club_log_no_update")
    op.drop_table("log_heads")
    op.drop_table("club_log")
