"""Every row a club owns carries its club (migrations 0017, 0018; docs/operations.md, "Which rows
carry their club"), and every read of a club's session data names the club.

Two clubs play side by side: each row of their sessions' log, deal views, snapshots, result
lines and stored answers names its own session's club, never the other's and never none. A
session recorded outside clubs and attached later takes the club on every row, once: the log
refuses a second change of it. The reads of `ledger/store/queries.py` are walked: each one of
a session's rows, asked for a club, says `club_id` in its SQL; and every statement a club's
evening sends (its writes and its reads, through its ledger and its books) names `club_id`
where it chooses its rows, as do the statements the PostgreSQL store sends itself.
"""

from __future__ import annotations

import inspect
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, func, select, text, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import DatabaseError

from ledger.domain import InvalidInput, SessionNotFound
from ledger.domain import commands as cmd
from ledger.domain.commands import OpenSession
from ledger.sessions.service import Ledger
from ledger.store import queries
from ledger.store.tables import (
    CLUB_TABLES,
    deal_views,
    events,
    idempotency_keys,
    session_results,
    sessions,
    snapshots,
)
from ledger.writes import WriteRequest
from tests.integration.test_chains import new_club
from tests.support.before_clubs import a_session_before_clubs, first_release

pytestmark = pytest.mark.partitioned  # and on PostgreSQL partitioned by club

BY_SESSION = ((events, events.c.stream_id), (deal_views, deal_views.c.session_id),
              (snapshots, snapshots.c.session_id),
              (session_results, session_results.c.session_id))


def _play(ledger: Ledger, actor: Any, key: str) -> str:
    """A session of three, opened and dealt with keys, one deal, then ended."""
    sid = ledger.open_session(
        OpenSession(players=["Ann", "Bob", "Cal"], first_dealer="Ann", name=key,
                    money_per_unit_minor=10, currency="GBP"),
        WriteRequest(actor, idempotency_key=f"{key}-open")
    ).body["session_id"]
    ledger.append(sid, [cmd.StartDeal(trump_card="7H", face_up={"Ann": "5C", "Bob": "9H",
                                                                "Cal": "KS"})],
                  WriteRequest(actor, idempotency_key=f"{key}-deal"))
    ledger.append(sid, [cmd.EndSession(method="divide-pool")], WriteRequest(actor))
    return sid


def test_two_clubs_rows_each_carry_their_own_club(engine):
    bell, bell_actor, _ = new_club(engine)
    crown, crown_actor, _ = new_club(engine)
    ours = _play(Ledger(engine, snapshot_every=2).for_club(bell), bell_actor, "bell")
    theirs = _play(Ledger(engine, snapshot_every=2).for_club(crown), crown_actor, "crown")
    with engine.connect() as conn:
        answers = {key: club for key, club in conn.execute(
            select(idempotency_keys.c.key, idempotency_keys.c.club_id))}
        for sid, club in ((ours, bell), (theirs, crown)):
            for table, column in BY_SESSION:
                held = set(conn.scalars(select(table.c.club_id).where(column == sid)))
                assert held == {club}, (table.name, sid, held)
    assert answers == {"bell-open": bell, "bell-deal": bell,
                       "crown-open": crown, "crown-deal": crown}
    # each club's reads of the other's session find nothing
    with pytest.raises(SessionNotFound):
        Ledger(engine).for_club(bell).events(theirs)


def test_no_session_is_opened_outside_a_club(engine):
    """The operator's ledger (no club) opens nothing, and writes nothing in refusing."""
    with engine.connect() as conn:
        before = [conn.scalar(select(func.count()).select_from(t))
                  for t in (sessions, events, idempotency_keys)]
    with pytest.raises(InvalidInput, match="a session is opened in a club") as refused:
        Ledger(engine).open_session(OpenSession(players=["Ann", "Bob", "Cal"]),
                                    WriteRequest("operator", idempotency_key="k"))
    assert refused.value.rule == "session-in-a-club"
    with engine.connect() as conn:
        assert [conn.scalar(select(func.count()).select_from(t))
                for t in (sessions, events, idempotency_keys)] == before


@pytest.mark.backends("sqlite")
def test_a_session_attached_takes_its_club_on_every_row_once(tmp_path):
    engine = first_release(tmp_path)  # every session is a club's since; not the first's
    club, actor, _ = new_club(engine)
    sid = a_session_before_clubs(engine)
    Ledger(engine, snapshot_every=2).rebuild(sid)  # its snapshots, as the release kept none
    with engine.connect() as conn:
        for table, column in BY_SESSION:
            assert set(conn.scalars(select(table.c.club_id).where(column == sid))) == {None}
    Ledger(engine).for_club(club).attach(sid, WriteRequest(actor))
    with engine.connect() as conn:
        for table, column in BY_SESSION:
            assert set(conn.scalars(select(table.c.club_id).where(column == sid))) == {club}
        assert set(conn.scalars(select(idempotency_keys.c.club_id).where(
            idempotency_keys.c.scope.like(f"{sid}%")))) <= {club}
    other, _, _ = new_club(engine)
    with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
        conn.execute(update(events).where(events.c.stream_id == sid).values(club_id=other))
    with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
        conn.execute(text("UPDATE events SET actor = 'someone else' WHERE stream_id = :sid"),
                     {"sid": sid})
    with engine.connect() as conn:
        assert conn.scalar(select(sessions.c.club_id).where(sessions.c.id == sid)) == club


# -- the reads of a club's data name the club -----------------------------------------------

# The reads of a session's rows that are the operator's alone: verify's and the upgrade's,
# over every club (they never answer a club's request).
OPERATORS = {"version_positions", "stream_by_version", "sessions_of_no_club",
             "club_sessions_with_old_joins"}
ARGUMENTS = {"stream_id": "s1", "session_id": "s1", "version": 3, "deal_no": 2,
             "after_version": 0, "up_to_version": 3, "moment": datetime(2026, 1, 1, tzinfo=UTC),
             "types": ("DealStarted",)}


class Recording:
    """A connection that keeps each statement it is given and answers nothing."""

    def __init__(self) -> None:
        self.statements: list[Any] = []

    def execute(self, statement: Any, *args: Any) -> Recording:
        self.statements.append(statement)
        return self

    def scalar(self, statement: Any, *args: Any) -> None:
        self.statements.append(statement)

    def first(self) -> None:
        return None

    def __iter__(self) -> Any:
        return iter(())


def _reads() -> list[tuple[str, Any]]:
    tables = ("events", "deal_views", "snapshots", "session_results", "idempotency_keys")
    return [(name, f) for name, f in inspect.getmembers(queries, inspect.isfunction)
            if f.__module__ == queries.__name__ and name not in OPERATORS
            and any(f"{t}." in inspect.getsource(f) or f"({t})" in inspect.getsource(f)
                    for t in tables)]


def test_every_read_of_a_clubs_session_rows_names_the_club():
    reads = _reads()
    assert len(reads) >= 14, [name for name, _ in reads]
    for name, read in reads:
        parameters = inspect.signature(read).parameters
        assert "club_id" in parameters, f"queries.{name} cannot be confined to a club"
        conn = Recording()
        given = {p: ARGUMENTS[p] for p in parameters if p in ARGUMENTS}
        found = read(conn, **given, club_id="the-club")
        if inspect.isgenerator(found):
            list(found)
        assert conn.statements, name
        for statement in conn.statements:
            sql = str(statement.compile(dialect=postgresql.dialect()))
            assert "club_id = " in sql, (name, sql)


# -- every statement a club's work sends names the club -------------------------------------

# The tables a club owns (ledger/store/tables.py CLUB_TABLES), as a statement names them.
CLUB_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE)\s+\"?(" + "|".join(CLUB_TABLES)
                        + r")\b\"?", re.IGNORECASE)


def _club_statements(engine: Any) -> list[str]:
    """Every statement SQLAlchemy sends from here on (the cursor's own text)."""
    sent: list[str] = []
    event.listen(engine, "before_cursor_execute",
                 lambda _conn, _cursor, statement, *_: sent.append(statement))
    return sent


def _confined(statement: str) -> bool:
    """Whether a statement names the club where it chooses its rows: in the columns it
    inserts, or in its WHERE (a column it merely reads does not count)."""
    flat = " ".join(statement.split())
    if flat.upper().startswith("INSERT"):
        return "club_id" in re.split(r"\b(?:VALUES|SELECT)\b", flat, maxsplit=1)[0]
    return re.search(r"\bWHERE\b.*\bclub_id\b", flat) is not None


def _unconfined(sent: list[str]) -> list[str]:
    """The statements that read or write a club's table without naming `club_id`."""
    return sorted({" ".join(s.split())[:300] for s in sent
                   if CLUB_TABLE.search(s) and not _confined(s)})


@pytest.mark.backends("sqlite")  # every statement through SQLAlchemy (PostgreSQL's own below)
def test_every_statement_of_a_clubs_play_and_reads_names_the_club(engine):
    """A club's whole evening through its ledger and its books, writes and reads: opened
    and dealt with keys (and a key replayed), snapshots, an undo (its views dropped), the
    end (its results), the reads of its sessions as of now and of a version, its books;
    each statement that touches a table a club owns names `club_id`."""
    from ledger.books.service import Books

    club, actor, _ = new_club(engine)
    ledger = Ledger(engine, snapshot_every=2).for_club(club)
    sent = _club_statements(engine)
    sid = _play(ledger, actor, "bell")
    ledger.append(sid, [cmd.StartDeal(trump_card="7H", face_up={"Ann": "5C", "Bob": "9H",
                                                                "Cal": "KS"})],
                  WriteRequest(actor, idempotency_key="bell-deal"))  # replayed
    other = ledger.open_session(OpenSession(players=["Ann", "Bob", "Cal"],
                                            first_dealer="Ann"), WriteRequest(actor)
                                ).body["session_id"]
    deal = [cmd.StartDeal(trump_card="7H", face_up={"Ann": "5C", "Bob": "9H", "Cal": "KS"})]
    ledger.append(other, deal, WriteRequest(actor))
    ledger.undo(other, reason="a slip", request=WriteRequest(actor))
    for read in (ledger.session, ledger.statement, ledger.explain, ledger.balance_series):
        read(sid)
    ledger.session(sid, as_of=2)
    ledger.statement(sid, as_of=3)
    ledger.events(sid)
    ledger.deal(sid, 1)
    books = Books(engine, club)
    books.accounts()
    books.standings()
    assert sent and _unconfined(sent) == []


def test_postgresql_statements_of_a_session_name_its_club():
    """The statements the PostgreSQL store sends past SQLAlchemy (ledger/store/postgres.py):
    a club's head, stored answer and write name the club; the operator's head and answer
    (no club: the command line's, every club's) alone do not."""
    from ledger.store import postgres

    operators = {"_HEAD_ANY_SQL", "_REPLY_ANY_SQL", "_EVENT_ROWS", "_CLOCK_SQL"}
    found = {name: value for name, value in vars(postgres).items()
             if name.isupper() and isinstance(value, str) and CLUB_TABLE.search(value)}
    assert {"_HEAD_SQL", "_REPLY_SQL", "WRITE_SESSION", "OPEN_SESSION"} <= set(found)
    assert [name for name, sql in found.items()
            if name not in operators and "club_id" not in sql] == []
    # and each part of the one statement of a write: the session's row, its views, events
    for part in postgres.WRITE_SESSION.split("), "):
        if CLUB_TABLE.search(part):
            assert "club_id" in part, part
