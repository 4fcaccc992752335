"""Copy a whole ledger from one database to another (SQLite -> PostgreSQL, or any pair).

    lanterloo copy --from sqlite:///instance/lanterloo.db \\
                   --to postgresql+psycopg://lanterloo@db/lanterloo

`copy_database` brings the target to the schema's head, refuses a target that holds anything,
copies the log (every event with its position, hash and who appended it) and the clubs,
members, tokens (their hashes: every token keeps working) and idempotency keys (a client's
retry after the move is still answered with its first response), then rebuilds every
session's projections on the target from the copied log, never copying them
(ledger/projections.py), and verifies the copy: each session's hash chain and projections
on the target, and the rebuilt states and deal views equal to the source's. A difference
fails the copy (CopyFailed) and names it.

The copy reads the source in one transaction (a consistent snapshot on PostgreSQL; on SQLite
stop the writers, or copy from a backup file) and writes the target in one transaction, so
a failed copy leaves the target as empty as it found it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, text

from ledger.books import postings
from ledger.operations.bulk import Progress, rebuild_all, verify_all
from ledger.store.db import writer
from ledger.store.migrate import alembic_head, current, upgrade
from ledger.store.tables import (
    book_entries,
    club_log,
    clubs,
    deal_views,
    events,
    idempotency_keys,
    log_heads,
    members,
    session_results,
    sessions,
    tokens,
)

BATCH = 1000
# In the order foreign keys need them; deal_views, session_results and book_postings are
# rebuilt, never copied. The club's book log and club log are logs: copied as they are,
# hashes and all, with their stored heads.
COPIED = (clubs, members, tokens, events, sessions, idempotency_keys, book_entries, club_log,
          log_heads)


class CopyFailed(Exception):
    """The copy was refused or did not verify."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    verified: int = 0
    problems: list[str] = field(default_factory=list)


def _head() -> str | None:
    return alembic_head()


def _rows(conn: Connection, table: Any) -> Iterator[list[dict[str, Any]]]:
    order = [table.c.position] if table in (events, book_entries, club_log) \
        else list(table.primary_key.columns)
    result = conn.execution_options(yield_per=BATCH).execute(select(table).order_by(*order))
    for partition in result.mappings().partitions(BATCH):
        yield [dict(row) for row in partition]


def copy_database(source: Engine, target: Engine, *,
                  echo: Callable[[str], None] = lambda _: None,
                  watch: Callable[[str], Progress | None] = lambda _: None) -> CopyReport:
    """Copy everything from `source` to the empty `target`; verify; return what was done.
    `watch(what)`: who follows each long part (the log's copy, the rebuild, the verify)."""
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
            progress = watch("copying the log") if table is events else None
            if progress is not None:  # by events: a session's are spread over the log
                progress.begin(0, src.scalar(select(func.count()).select_from(events)) or 0)
            for batch in _rows(src, table):
                dst.execute(insert(table), batch)
                count += len(batch)
                if progress is not None:
                    progress.advance(0, len(batch))
            report.rows[table.name] = count
            echo(f"copied {count} rows of {table.name}")
        if dst.dialect.name == "postgresql":
            # Positions were copied as they were: the next append continues after them.
            for log in ("events", "book_entries", "club_log"):
                dst.execute(text(f"SELECT setval(pg_get_serial_sequence('{log}', 'position'), "
                                 f"GREATEST((SELECT max(position) FROM {log}), 1), "
                                 f"(SELECT count(*) > 0 FROM {log}))"))
        source_states = {row.id: row.state for row in src.execute(
            select(sessions.c.id, sessions.c.state))}
        source_views = {}
        for row in src.execute(select(deal_views.c.session_id, deal_views.c.deal_no,
                                      deal_views.c.view)):
            source_views[(row.session_id, row.deal_no)] = row.view
    report.sessions = len(source_states)
    rebuild_all(target, workers=1, progress=watch("rebuilding on the target"))
    postings.rebuild_clubs(target)  # a projection of the book logs, like session_results
    with target.connect() as conn:
        states = {row.id: row.state for row in conn.execute(
            select(sessions.c.id, sessions.c.state))}
        views = {(row.session_id, row.deal_no): row.view for row in conn.execute(
            select(deal_views.c.session_id, deal_views.c.deal_no, deal_views.c.view))}
    for session_id in sorted(source_states):
        if states.get(session_id) != source_states[session_id]:
            report.problems.append(f"session {session_id}: the state rebuilt on the target "
                                   "differs from the source's")
        if {n: v for (s, n), v in views.items() if s == session_id} != \
                {n: v for (s, n), v in source_views.items() if s == session_id}:
            report.problems.append(f"session {session_id}: the deal views rebuilt on the "
                                   "target differ from the source's")
    for session_id, found in verify_all(target, workers=1,
                                        progress=watch("verifying the target")).items():
        report.problems += [f"session {session_id}: {line}" for line in found]
        if not found:
            report.verified += 1
    echo(f"rebuilt and verified {report.verified} of {report.sessions} sessions")
    if report.problems:
        raise CopyFailed("the copy does not verify:\n  " + "\n  ".join(report.problems))
    return report


def all_sessions(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return [r[0] for r in conn.execute(select(sessions.c.id).order_by(sessions.c.id))]
