"""Copy a whole ledger from one database to another (SQLite -> PostgreSQL, or any pair), and
rebuild projections in place.

    lanterloo copy --from sqlite:///instance/lanterloo.db \\
                   --to postgresql+psycopg://lanterloo@db/lanterloo

`copy_database` brings the target to the schema's head, refuses a target that holds anything,
copies the log (every event with its position, hash and who appended it) and the clubs,
members, tokens (their hashes: every token keeps working) and idempotency keys (a client's
retry after the move is still answered with its first response), then rebuilds every
session's projections on the target from the copied log, never copying them, and verifies
the copy: each session's hash chain and projections on the target (Ledger.verify), and the
rebuilt state equal to the source's. A difference fails the copy (CopyFailed) and names it.

The copy reads the source in one transaction (a consistent snapshot on PostgreSQL; on SQLite
stop the writers, or copy from a backup file) and writes the target in one transaction, so
a failed copy leaves the target as empty as it found it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, text, update

from ledger.domain import SessionState, event_from_record
from ledger.domain.corrections import live_events

from . import eventstore as store
from .books import replace_results, results_from_log
from .db import writer
from .migrate import current, upgrade
from .tables import (
    book_entries,
    clubs,
    deal_views,
    events,
    idempotency_keys,
    members,
    session_results,
    sessions,
    tokens,
)

BATCH = 1000
# In the order foreign keys need them; deal_views and session_results are rebuilt, never
# copied. The club's book log is a log: copied as it is, hashes and all.
COPIED = (clubs, members, tokens, events, sessions, idempotency_keys, book_entries)


class CopyFailed(Exception):
    """The copy was refused or did not verify."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    verified: int = 0
    problems: list[str] = field(default_factory=list)


def _head() -> str | None:
    from alembic.script import ScriptDirectory

    from .migrate import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _rows(conn: Connection, table: Any) -> Iterator[list[dict[str, Any]]]:
    order = [table.c.position] if table in (events, book_entries) \
        else list(table.primary_key.columns)
    result = conn.execution_options(yield_per=BATCH).execute(select(table).order_by(*order))
    for partition in result.mappings().partitions(BATCH):
        yield [dict(row) for row in partition]


def copy_database(source: Engine, target: Engine, *,
                  echo: Callable[[str], None] = lambda _: None) -> CopyReport:
    """Copy everything from `source` to the empty `target`; verify; return what was done."""
    head = _head()
    at = current(source)
    if at != head:
        raise CopyFailed(f"the source is at revision {at}, not {head}: run `lanterloo "
                         "migrate` on it first")
    upgrade(target)
    with target.connect() as conn:
        for table in COPIED + (deal_views, session_results):
            if conn.scalar(select(func.count()).select_from(table)):
                raise CopyFailed(f"the target is not empty: its table {table.name} has rows")
    report = CopyReport()
    snapshot = "REPEATABLE READ" if source.dialect.name == "postgresql" else "SERIALIZABLE"
    with source.connect().execution_options(isolation_level=snapshot) as src, \
            writer(target).begin() as dst:
        src.begin()
        for table in COPIED:
            count = 0
            for batch in _rows(src, table):
                dst.execute(insert(table), batch)
                count += len(batch)
            report.rows[table.name] = count
            echo(f"copied {count} rows of {table.name}")
        if dst.dialect.name == "postgresql":
            # Positions were copied as they were: the next append continues after them.
            for log in ("events", "book_entries"):
                dst.execute(text(f"SELECT setval(pg_get_serial_sequence('{log}', 'position'), "
                                 f"GREATEST((SELECT max(position) FROM {log}), 1), "
                                 f"(SELECT count(*) > 0 FROM {log}))"))
        source_states = {row.id: row.state for row in src.execute(
            select(sessions.c.id, sessions.c.state))}
        source_views = {}
        for row in src.execute(select(deal_views.c.session_id, deal_views.c.deal_no,
                                      deal_views.c.view)):
            source_views[(row.session_id, row.deal_no)] = row.view
    session_ids = sorted(source_states)
    report.sessions = len(session_ids)
    from ledger.service import Ledger

    ledger = Ledger(target)
    for session_id in session_ids:
        state, views = rebuild_projections(target, session_id)
        if state != source_states[session_id]:
            report.problems.append(f"session {session_id}: the state rebuilt on the target "
                                   "differs from the source's")
        theirs = {n: v for (s, n), v in source_views.items() if s == session_id}
        if {int(k): v for k, v in views.items()} != theirs:
            report.problems.append(f"session {session_id}: the deal views rebuilt on the "
                                   "target differ from the source's")
        found = ledger.verify(session_id)
        report.problems += [f"session {session_id}: {line}" for line in found]
        if not found:
            report.verified += 1
    echo(f"rebuilt and verified {report.verified} of {report.sessions} sessions")
    if report.problems:
        raise CopyFailed("the copy does not verify:\n  " + "\n  ".join(report.problems))
    return report


def rebuild_projections(engine: Engine, session_id: str
                        ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Fold the session's log again and replace its stored projections (the `sessions` row's
    state, every deal view and the as-of snapshots) with the result, under the session's
    write lock. Returns (state, views) as written."""
    from ledger.service import Ledger

    with writer(engine).begin() as conn:
        row = store.load_session(conn, session_id, for_update=True)
        if row is None:
            raise CopyFailed(f"no session {session_id}")
        state, views = Ledger(engine).rebuild(session_id)
        log = [(r.version, event_from_record(r.type, r.schema_version, r.payload))
               for r in store.stream(conn, session_id)]
        last_of_deal: dict[int, int] = {}
        for version, event in live_events(log):
            deal_no = getattr(event, "deal_no", None)
            if isinstance(deal_no, int):
                last_of_deal[deal_no] = version
        conn.execute(update(sessions).where(sessions.c.id == session_id)
                     .values(state=state, version=store.stream_version(conn, session_id)))
        conn.execute(delete(deal_views).where(deal_views.c.session_id == session_id))
        if views:
            conn.execute(insert(deal_views), [
                {"session_id": session_id, "deal_no": int(n),
                 "version": last_of_deal.get(int(n), row.version), "view": view}
                for n, view in sorted(views.items())])
        replace_results(conn, session_id, club_id=row.club_id,
                        version=store.stream_version(conn, session_id),
                        results=results_from_log(conn, session_id,
                                                 SessionState.from_dict(state)))
        # the as-of snapshots, at every multiple of the ledger's interval (docs/explain.md)
        store.replace_snapshots(conn, session_id, Ledger(engine).rebuild_snapshots(session_id))
    return state, views


def all_sessions(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return [r[0] for r in conn.execute(select(sessions.c.id).order_by(sessions.c.id))]
