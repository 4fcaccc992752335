"""The tables: the append-only event log, the projections folded from it, and the clubs.

The log (`events`) is the truth. `sessions` holds each session's folded state, `deal_views`
the view of each deal as it last stood, and `idempotency_keys` the first response to each
keyed request. Any projection can be rebuilt from the log (`Ledger.rebuild`).

`clubs` own sessions, `members` and `tokens`: a token belongs to a member, carries a role and
is stored only as the SHA-256 of its secret. Every event names the member and the token
(device) that appended it; both are NULL for events written by the command line or before
clubs existed.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Table,
    UniqueConstraint,
    text,
)

from ledger.domain.limits import ID_LENGTH, STREAM_ID_LENGTH, TOKEN_ID_LENGTH

# sqlalchemy/alembic docs/build/naming.rst: every constraint gets a predictable name, so a
# migration can refer to it and a unique violation can be told apart from another.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

# JSON, not JSONB, on PostgreSQL too: JSONB re-orders object keys, and a fact must read back
# as it was written. The order of keys in a payload or a snapshot (who played first in a
# trick, seat order) then comes back the same from SQLite and PostgreSQL, a rebuild equals
# the live projection, and a replayed response is the first one byte for byte.
Json = JSON()
# SQLite only autoincrements a column declared exactly INTEGER PRIMARY KEY.
Position = BigInteger().with_variant(Integer(), "sqlite")
Timestamp = DateTime(timezone=True)

NAME_LENGTH = 64

clubs = Table(
    "clubs",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("name_key", String(NAME_LENGTH), nullable=False, unique=True),  # casefolded name
    Column("created_at", Timestamp, nullable=False),
)

members = Table(
    "members",
    metadata,
    Column("id", String(ID_LENGTH), primary_key=True),
    Column("club_id", String(ID_LENGTH), ForeignKey("clubs.id"), nullable=False),
    Column("name", String(NAME_LENGTH), nullable=False),  # the display name, as seated
    # The casefolded name: display names are unique within a club whatever their case.
    Column("name_key", String(NAME_LENGTH), nullable=False),
    Column("guest", Boolean, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    # When the admin retired him (migration 0016); null: a member now. His history stays.
    Column("retired_at", Timestamp, nullable=True),
    UniqueConstraint("club_id", "name_key"),
)

tokens = Table(
    "tokens",
    metadata,
    Column("id", String(TOKEN_ID_LENGTH), primary_key=True),  # the public part of the token
    Column("club_id", String(ID_LENGTH), ForeignKey("clubs.id"), nullable=False, index=True),
    Column("member_id", String(ID_LENGTH), ForeignKey("members.id"), nullable=False,
           index=True),
    Column("role", String(16), nullable=False),
    Column("label", String(100), nullable=False),  # the device: "tablet 2"
    Column("secret_hash", String(64), nullable=False),  # sha256 hex; the secret is never kept
    Column("created_at", Timestamp, nullable=False),
    Column("expires_at", Timestamp, nullable=True),
    Column("revoked_at", Timestamp, nullable=True),
    # Who issued it (migration 0010): the member and the token that asked; None for a token
    # made at the command line, with a club, or before 0010 (GET /audit/tokens).
    Column("issued_by", String(ID_LENGTH), nullable=True),
    Column("issued_with", String(TOKEN_ID_LENGTH), nullable=True),
    CheckConstraint("role IN ('admin', 'treasurer', 'dealer', 'auditor', 'member')",
                    name="role"),
)

events = Table(
    "events",
    metadata,
    # The global order of the log; within one stream it follows commit order, because
    # appends to a stream are serialised by the lock on its `sessions` row.
    Column("position", Position, nullable=False, autoincrement=True),
    # The session's club, written with every event (migrations 0017 and 0018; CLUB below).
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("stream_id", String(STREAM_ID_LENGTH), nullable=False),
    Column("version", Integer, nullable=False),
    Column("type", String(64), nullable=False),
    Column("schema_version", SmallInteger, nullable=False),
    Column("payload", Json, nullable=False),
    Column("recorded_at", Timestamp, nullable=False),
    Column("actor", String(128), nullable=False),  # the member's display name (or the CLI's)
    Column("idempotency_key", String(128), nullable=True),
    Column("member_id", String(ID_LENGTH), ForeignKey("members.id"), nullable=True,
           index=True),
    Column("token_id", String(TOKEN_ID_LENGTH), ForeignKey("tokens.id"), nullable=True),
    # SHA-256 of the event chained to the one before it in its session (ledger/store/chain.py)
    Column("hash", String(64), nullable=True),
    # The optimistic lock: two writers cannot both append version n to one stream.
    UniqueConstraint("club_id", "stream_id", "version"),
    CheckConstraint("version >= 1", name="version_positive"),
    # CLUB_KEYS below: on SQLite the key is `position` alone (its rowid).
    PrimaryKeyConstraint("club_id", "position"),
    Index(None, "stream_id", "position"),
)

sessions = Table(
    "sessions",
    metadata,
    # Unique by construction (a random id, ledger/domain/limits.py); found by it alone by
    # the operator's commands (its index), by it and its club by the club's.
    Column("id", String(STREAM_ID_LENGTH), nullable=False, index=True),
    # No foreign key (a reference table when distributed: docs/operations.md). A session
    # from before clubs is attached to one before migration 0018 (`lanterloo club attach`).
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("version", Integer, nullable=False),
    # SessionState.to_dict() at `version`; on PostgreSQL 14+ compressed with LZ4 (migration
    # 0007, as deal_views.view and snapshots.state: Alembic compares no compression method)
    Column("state", Json, nullable=False),
    Column("head_hash", String(64), nullable=True),  # the hash of the event at `version`
    Column("created_at", Timestamp, nullable=False),
    Column("updated_at", Timestamp, nullable=False),
    # The form the projections of this session were written in (ledger/projections.py
    # SHAPE); an older one is rebuilt by `lanterloo migrate`, or before the session is next
    # written; a read folds the log instead, writing nothing (migration 0009).
    Column("shape", SmallInteger, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("club_id", "id"),
)


def _of_session(*columns: str) -> ForeignKeyConstraint:
    """The foreign key of a session's row: its club and its session (CLUB_KEYS)."""
    return ForeignKeyConstraint(["club_id", *columns], ["sessions.club_id", "sessions.id"])

deal_views = Table(
    "deal_views",
    metadata,
    Column("session_id", String(STREAM_ID_LENGTH), nullable=False),
    Column("club_id", String(ID_LENGTH), nullable=False),  # the session's (CLUB_KEYS below)
    Column("deal_no", Integer, nullable=False),
    Column("version", Integer, nullable=False),  # the session's version when last written
    Column("view", Json, nullable=False),
    PrimaryKeyConstraint("club_id", "session_id", "deal_no"),
    _of_session("session_id"),
)

KEPT_STATUS_CODE = 201

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", String(80), nullable=False),  # "open[:club]" or the session id
    Column("key", String(128), nullable=False),
    # The club whose request it answered: the session's, or the club of a club's scope
    # (CLUB_KEYS below).
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("fingerprint", String(64), nullable=False),  # sha256 hex of the request
    # No longer read: the write protocol keeps only the first answer's body (a replay is told
    # by the edge, api/http/writing.py). Written with the one value it ever held
    # (KEPT_STATUS_CODE) until a migration drops it.
    Column("status_code", SmallInteger, nullable=False),
    Column("response", Json, nullable=False),
    Column("created_at", Timestamp, nullable=False),
    PrimaryKeyConstraint("club_id", "scope", "key"),
)

# -- the audit queries' indexes (migration 0006; ledger/audit/queries.py, docs/audit.md) -----------
#
# Each serves a query read in the log's order (by position) under one filter, so that the
# first page is an index range scan that stops at the page's end. The register's own index
# holds only its two types. The payload's fields are read as `payload ->> 'name'` (the same
# text on both databases); their indexes are built on PostgreSQL only: SQLite cannot reflect
# an expression index, so Alembic could not compare it, and SQLite serves clubs small enough
# to scan the register. Migration 0006 also creates, on PostgreSQL 14+, the statistics
# st_events_offence, st_events_breach and st_events_player (each field with the type), which
# keep the planner's row estimates for these partial indexes right (docs/audit.md).
REGISTER_WHERE = "type IN ('PenaltyImposed', 'BreachDetected')"


def _payload_index(name: str, field: str, where: str) -> Index:
    return Index(name, text(f"(payload ->> '{field}')"), events.c.position,
                 postgresql_where=text(where)).ddl_if(dialect="postgresql")


AUDIT_INDEXES = (
    Index("ix_events_register", events.c.position, postgresql_where=text(REGISTER_WHERE),
          sqlite_where=text(REGISTER_WHERE)),
    Index("ix_events_type_position", events.c.type, events.c.position),
    Index("ix_events_type_stream_id", events.c.type, events.c.stream_id),
    Index("ix_events_member_id_position", events.c.member_id, events.c.position),
    Index("ix_events_actor_position", events.c.actor, events.c.position),
    Index("ix_events_token_id_position", events.c.token_id, events.c.position),
    Index("ix_events_recorded_at_position", events.c.recorded_at, events.c.position),
    Index("ix_events_register_time", events.c.recorded_at, events.c.position,
          postgresql_where=text(REGISTER_WHERE), sqlite_where=text(REGISTER_WHERE)),
    _payload_index("ix_events_offence", "offence", "type = 'PenaltyImposed'"),
    _payload_index("ix_events_breach", "rule", "type = 'BreachDetected'"),
    _payload_index("ix_events_player", "player", REGISTER_WHERE),
)

# -- the club's books (docs/books.md) --------------------------------------------------------
#
# `book_entries` is each club's book log: payments, write-offs and cash counts, append-only
# and hash-chained like `events` (ledger/store/chain.py; the chain's stream is "books:<club
# id>", its versions the entries' `seq`). `session_results` is a projection: each ended
# session's result per seat, posted in the transaction that ends it, and what each later
# correction changed in it, posted at the correction's time (ledger/domain/adjustments.py);
# `Ledger.verify` compares it with a rebuild from the log.

book_entries = Table(
    "book_entries",
    metadata,
    Column("position", Position, nullable=False, autoincrement=True),
    Column("club_id", String(ID_LENGTH), ForeignKey("clubs.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # 1, 2, ... per club: the optimistic lock
    Column("type", String(64), nullable=False),
    Column("schema_version", SmallInteger, nullable=False),
    Column("payload", Json, nullable=False),
    Column("recorded_at", Timestamp, nullable=False),
    Column("actor", String(128), nullable=False),
    Column("member_id", String(ID_LENGTH), ForeignKey("members.id"), nullable=True),
    Column("token_id", String(TOKEN_ID_LENGTH), ForeignKey("tokens.id"), nullable=True),
    Column("idempotency_key", String(128), nullable=True),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("club_id", "seq"),
    CheckConstraint("seq >= 1", name="seq_positive"),
    PrimaryKeyConstraint("club_id", "position"),  # `position` alone on SQLite (CLUB_KEYS)
)

# `book_postings` is a projection of the book log (migration 0015): each entry's postings, one
# row each, written in the transaction that appends the entry (Tx.append_book_entry), so that
# the database sums the balances up to a book position and walks a member's lines without the
# log being read and decoded (ledger/books/reads.py). The log stays the truth: `Books.verify`
# compares the table with the fold of the log, `lanterloo rebuild --all` and `migrate` write
# it again from the log (ledger/books/postings.py).

book_postings = Table(
    "book_postings",
    metadata,
    Column("club_id", String(ID_LENGTH), ForeignKey("clubs.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # the book entry's
    Column("n", SmallInteger, nullable=False),  # the posting's place in the entry's, from 0
    Column("account", String(STREAM_ID_LENGTH + 16), nullable=False),  # "member:<id>", ...
    Column("currency", String(8), nullable=False),
    Column("amount_minor", BigInteger, nullable=False),  # signed: + credits the account
    Column("type", String(64), nullable=False),  # the entry's, and when it was recorded
    Column("recorded_at", Timestamp, nullable=False),
    Column("session_id", String(STREAM_ID_LENGTH), nullable=True),  # the entry's session
    PrimaryKeyConstraint("club_id", "seq", "n"),
    Index(None, "club_id", "account", "seq"),  # a member's lines
    Index(None, "club_id", "recorded_at", "seq"),  # the members' lines from the newest back
)

# `account_balances` holds each account's balance now per currency (and how many lines and
# postings make it: a row lives while one does), for the books' reads of now to read the
# members' and the club's balances without summing the results or the postings (migration
# 0015). It is kept by the database itself, in the transaction of each write: triggers on
# `book_postings` and `session_results` (whatever writes them: the session's write, its
# rebuild, a copy) add each row's postings and take back a removed row's. Its rule is a
# result's postings' (SessionResult.postings: the member's account credited with the net,
# the session's account debited; a line of no member posts only to the session's), and
# `Books.verify` compares it with the sums of the two tables.

account_balances = Table(
    "account_balances",
    metadata,
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("account", String(STREAM_ID_LENGTH + 16), nullable=False),
    Column("currency", String(8), nullable=False),
    Column("amount_minor", BigInteger, nullable=False),
    Column("lines", Integer, nullable=False),  # the results' lines and postings summed
    PrimaryKeyConstraint("club_id", "account", "currency"),
)

# `member_standings` holds each member's standings per currency over every result's line of
# his club (what /standings sums for no dates, now), kept by the same triggers on
# `session_results`: the sums of STANDING_SUMS (ledger/store/booklog.py; `net_minor` with
# how many lines had one, so that a member's counters' sum stays None) and the lines summed.

member_standings = Table(
    "member_standings",
    metadata,
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("member_id", String(ID_LENGTH), nullable=False),
    Column("currency", String(8), nullable=False),
    *(Column(name, BigInteger, nullable=False) for name in (
        "sessions", "deals_dealt", "net_units", "loos", "loo_units", "penalties",
        "penalty_units")),
    Column("net_minor", BigInteger, nullable=False),
    Column("net_minor_lines", Integer, nullable=False),
    Column("lines", Integer, nullable=False),
    PrimaryKeyConstraint("club_id", "member_id", "currency"),
)

# `open_items` holds each member's open lines now (FIFO's: the lines of his account not yet
# settled by later lines of the other sign, and what of each is still open), kept by every
# write that posts a line to a member (ledger/store/openitems.py and its migration), so that
# /debts and /payables read a page of them and no walk of the books. A line is `line`: a
# book entry's ("entry:<seq>") or a result's ("result:<session>:<version>:<seat>"); its
# time, number and session as the walk orders them (accounts.Line.sort_key), and what the
# answers show of it. The walk of the books stays the definition: `Books.verify` compares
# the table with it, `lanterloo rebuild --all` writes it again.

OPEN_DEBT, OPEN_CREDIT = "open_minor < 0", "open_minor > 0"
open_items = Table(
    "open_items",
    metadata,
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("member_id", String(ID_LENGTH), nullable=False),
    Column("currency", String(8), nullable=False),
    Column("line", String(STREAM_ID_LENGTH + NAME_LENGTH + 24), nullable=False),
    Column("at", Timestamp, nullable=False),  # the line's time (posted or recorded)
    Column("seq", Integer, nullable=True),  # a book entry's number; None for a result
    Column("session_id", String(STREAM_ID_LENGTH), nullable=True),
    Column("seat", String(NAME_LENGTH), nullable=True),  # a result's
    Column("version", Integer, nullable=True),  # a result's: the session's version
    Column("session_name", String(200), nullable=True),  # a result's
    Column("kind", String(32), nullable=False),  # accounts.EntryKind
    Column("corrected_by", Integer, nullable=True),  # an adjustment's EntryCorrected
    Column("amount_minor", BigInteger, nullable=False),  # the line's posting to him
    Column("open_minor", BigInteger, nullable=False),  # what is open: signed like it
    PrimaryKeyConstraint("club_id", "member_id", "currency", "line"),
    # each side in the answers' order (a club may be owed nothing and owe thousands)
    Index("ix_open_items_debts", "club_id", "at", postgresql_where=text(OPEN_DEBT),
          sqlite_where=text(OPEN_DEBT)),
    Index("ix_open_items_credits", "club_id", "at", postgresql_where=text(OPEN_CREDIT),
          sqlite_where=text(OPEN_CREDIT)),
    Index(None, "club_id", "member_id", "currency", "at"),  # a member's, oldest or newest
)

# `session_totals` holds, per currency, the sum of the club's sessions' own accounts now
# (what is left in sessions: minus the results' lines), kept by triggers on `session_results`
# like `account_balances` (the same migration), so that /accounts reads one row a currency.

session_totals = Table(
    "session_totals",
    metadata,
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("currency", String(8), nullable=False),
    Column("amount_minor", BigInteger, nullable=False),
    Column("lines", Integer, nullable=False),
    PrimaryKeyConstraint("club_id", "currency"),
)

# -- the club log and the heads of the clubs' logs (migration 0011; ledger/store/clublog.py) --
#
# `club_log` is each club's chained log of who may act: the club's creation, members added,
# tokens issued (with their secret's hash) and revoked, sessions attached; chained like the
# book log (its stream "club:<club id>"), and replayed by verify against `members` and
# `tokens`. `log_heads` holds the last seq and hash of each club's book log and club log,
# moved in the transaction of every append, so that an entry deleted from the end of a log,
# or one added behind the ledger's back, no longer matches its stored head (a session's head
# is `sessions.head_hash`).

club_log = Table(
    "club_log",
    metadata,
    Column("position", Position, nullable=False, autoincrement=True),
    Column("club_id", String(ID_LENGTH), ForeignKey("clubs.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # 1, 2, ... per club: the optimistic lock
    Column("type", String(64), nullable=False),
    Column("schema_version", SmallInteger, nullable=False),
    Column("payload", Json, nullable=False),
    Column("recorded_at", Timestamp, nullable=False),
    Column("actor", String(128), nullable=False),
    Column("member_id", String(ID_LENGTH), nullable=True),  # who acted (no foreign key:
    Column("token_id", String(TOKEN_ID_LENGTH), nullable=True),  # the first is made here)
    Column("idempotency_key", String(128), nullable=True),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("club_id", "seq"),
    CheckConstraint("seq >= 1", name="seq_positive"),
    PrimaryKeyConstraint("club_id", "position"),  # `position` alone on SQLite (CLUB_KEYS)
)

log_heads = Table(
    "log_heads",
    metadata,
    Column("stream_id", String(80), nullable=False),  # "books:<club>" or "club:<club>"
    Column("club_id", String(ID_LENGTH), ForeignKey("clubs.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # the log's last seq (0: empty)
    Column("hash", String(64), nullable=False),  # the chain hash at `seq`
    PrimaryKeyConstraint("club_id", "stream_id"),
)

session_results = Table(
    "session_results",
    metadata,
    Column("session_id", String(STREAM_ID_LENGTH), nullable=False),
    Column("seat", String(NAME_LENGTH), nullable=False),  # the player's name as seated
    Column("session_name", String(200), nullable=False),
    Column("club_id", String(ID_LENGTH), nullable=False),
    Column("member_id", String(ID_LENGTH), nullable=True),
    Column("currency", String(8), nullable=False),  # ISO 4217, or "units" (counters)
    Column("net_units", BigInteger, nullable=False),
    Column("net_minor", BigInteger, nullable=True),  # None when played for counters
    Column("deals_dealt", Integer, nullable=False),
    Column("loos", Integer, nullable=False),
    Column("loo_units", BigInteger, nullable=False),
    Column("penalties", Integer, nullable=False),
    Column("penalty_units", BigInteger, nullable=False),
    # when the line was posted: the session's end, or the correction that changed it
    Column("posted_at", Timestamp, nullable=False),
    Column("version", Integer, nullable=False),  # the session's version after that write
    # 1: the result posted; -1: a correction reopened the session; 0: a change to it
    Column("sessions", SmallInteger, nullable=False, server_default=text("1")),
    Column("corrected_by", Integer, nullable=True),  # the EntryCorrected's version
    Column("reason", String(500), nullable=True),  # the correction's reason
    PrimaryKeyConstraint("club_id", "session_id", "seat", "version"),
    _of_session("session_id"),
    Index(None, "club_id", "member_id"),
    Index(None, "club_id", "posted_at"),
    Index(None, "club_id", "member_id", "posted_at"),  # a member's lines from the newest
)

# -- as-of snapshots (docs/explain.md) -----------------------------------------------------
# The state of a session at a version of its log, kept each time an append crosses a
# multiple of the service's `snapshot_every`: a read as of version v folds only the events
# after the nearest snapshot at or below v. A projection like `sessions`: rebuilt from the log
# (`lanterloo rebuild`) and checked by `lanterloo verify`. A snapshot of a prefix of the log
# never goes stale, the log being append-only.
snapshots = Table(
    "snapshots",
    metadata,
    Column("session_id", String(STREAM_ID_LENGTH), nullable=False),
    Column("club_id", String(ID_LENGTH), nullable=False),  # the session's (CLUB_KEYS below)
    Column("version", Integer, nullable=False),
    Column("state", Json, nullable=False),  # SessionState.to_dict() at `version`
    PrimaryKeyConstraint("club_id", "session_id", "version"),
    _of_session("session_id"),
)

# -- codes exchanged once for a token (ledger/clubs/codes.py) -------------------------------
# A tablet's pairing code (docs/tablet.md, "Signing a tablet in"): a short code the
# treasurer's screen shows for one session, exchanged once (POST /pairing) for a dealer token
# that lasts the evening. A person's sign-in link (docs/desk.md): a longer code for no
# session, exchanged once (POST /signin) for a token of its `role`. Only a code's SHA-256 is
# kept; its first symbols (`lookup`) find the row, so a wrong guess at the rest is counted
# against that code, which dies after a few. It expires in minutes and is used once
# (`used_at`, and the token it gave). Not copied by `lanterloo copy`: nothing depends on it.
pairing_codes = Table(
    "pairing_codes",
    metadata,
    Column("id", String(ID_LENGTH), nullable=False),
    Column("lookup", String(8), nullable=False, index=True),
    Column("code_hash", String(64), nullable=False),  # sha256 hex of the whole code
    Column("club_id", String(ID_LENGTH), ForeignKey("clubs.id"), nullable=False),
    # the session a tablet's pairing code is for; none for a person's sign-in link
    Column("session_id", String(STREAM_ID_LENGTH), nullable=True),
    # the member whose token the code gives, and its role; `created_by` made the code
    Column("role", String(16), nullable=False, server_default="dealer"),
    Column("member_id", String(ID_LENGTH), ForeignKey("members.id"), nullable=False),
    Column("created_by", String(ID_LENGTH), ForeignKey("members.id"), nullable=False),
    # the token `created_by` made a sign-in link with (none at the command line), kept as
    # tokens.issued_with is, for the token register
    Column("created_with", String(TOKEN_ID_LENGTH), nullable=True),
    Column("label", String(100), nullable=False),  # the token's label: "Tablet 2"
    Column("created_at", Timestamp, nullable=False),
    Column("expires_at", Timestamp, nullable=False),
    Column("failed_attempts", SmallInteger, nullable=False),
    Column("used_at", Timestamp, nullable=True),
    Column("token_id", String(TOKEN_ID_LENGTH), ForeignKey("tokens.id"), nullable=True),
    PrimaryKeyConstraint("club_id", "id"),
    _of_session("session_id"),
)

# -- every row knows its club (migrations 0017 and 0018; docs/operations.md) ---------------
#
# CLUB_KEYS: every table a club owns carries `club_id`, NOT NULL, and it leads every primary
# and unique key a distribution by club would need (a key must hold the distribution column:
# PostgreSQL's partitions by club, `lanterloo migrate --partition-by-club N`, and a Citus
# cluster's shards). A session's rows refer to it by (club, session). The three logs keep
# `position` as their whole key on SQLite: SQLite numbers only a column that is the whole
# INTEGER PRIMARY KEY, and SQLite is never split by club (Alembic compares no primary key).
CLUB_TABLES = ("sessions", "events", "deal_views", "snapshots", "idempotency_keys",
               "session_results", "log_heads", "book_entries", "club_log", "book_postings",
               "account_balances", "member_standings", "pairing_codes")
