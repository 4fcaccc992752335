"""A GET writes nothing and holds one connection (issue 33, "Reads that only read"), on both
databases: every statement the database is sent during each GET of a walked session (its
state, deals, statement, explain, log, the books' and the audit's reads) is watched, and so
is every connection taken from the pool. A session whose projections an older release wrote
is answered from its log as it folds, and stays as it was stored (ledger/sessions/reads.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event, update
from sqlalchemy.pool import Pool

from ledger.store.tables import sessions
from tests.e2e.conftest import EXAMPLE_1, Table, open_table

WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|UPSERT|MERGE|CREATE|ALTER|DROP"
                    r"|TRUNCATE|COPY)\b", re.IGNORECASE)

SESSION_GETS = ["", "/deals/1", "/deals/2", "/entries", "/events", "/explain", "/explain.csv",
                "/export", "/offences", "/statement", "/statement.csv", "/statement.html",
                "?as_of=3", "/statement?as_of=3", "/deals/1?as_of=3"]
CLUB_GETS = ["/accounts", "/audit/corrections", "/audit/corrections.csv", "/audit/events",
             "/audit/events.csv", "/audit/penalties", "/audit/penalties.csv", "/audit/sessions",
             "/audit/tokens", "/book-entries", "/book-entries.csv", "/books/export.beancount",
             "/club", "/club/currencies", "/club/sessions", "/club/sessions-before-clubs",
             "/debts", "/debts.csv", "/members", "/payables", "/payables.csv", "/periods",
             "/settle-up", "/settle-up.csv", "/signin-links", "/standings", "/standings.html",
             "/tokens"]
# Not here: GET /readyz, whose probe takes the write lock with an UPDATE of the schema's
# version row to itself that it rolls back (api/routes/health.py): it stores nothing.


class Watch:
    """What the database was sent and how many pooled connections were out at once."""

    def __init__(self) -> None:
        self.writes: list[str] = []
        self.out = 0
        self.most_out = 0

    def statement(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if WRITES.match(statement):
            self.writes.append(statement.split("\n")[0][:80])

    def checkout(self, *args: Any) -> None:
        self.out += 1
        self.most_out = max(self.most_out, self.out)

    def checkin(self, *args: Any) -> None:
        self.out -= 1


@contextmanager
def watching() -> Iterator[Watch]:
    watch = Watch()
    hooks = [(Engine, "before_cursor_execute", watch.statement),
             (Pool, "checkout", watch.checkout), (Pool, "checkin", watch.checkin)]
    for target, name, hook in hooks:
        event.listen(target, name, hook)
    try:
        yield watch
    finally:
        for target, name, hook in hooks:
            event.remove(target, name, hook)


def walked(client: Any) -> Table:
    """A session of two deals and some declarations: a log with deal views to read."""
    table = open_table(client, preset="baxter-wray", first_dealer="A")
    table.append(EXAMPLE_1)
    table.send("DealStarted", trump_card="2S")
    table.declare(("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
                  ("B", "throw_up"))
    return table


def each_get_reads_only(client: Any, paths: list[str]) -> dict[str, Any]:
    """Every GET of `paths` answered below 500, writing nothing, one connection at a time;
    the answers by path."""
    answers, found = {}, []
    for path in paths:
        with watching() as watch:
            response = client.get(path)
        assert response.status_code < 500, (path, response.get_data(as_text=True)[:300])
        if watch.writes:
            found.append(f"GET {path} wrote: {watch.writes}")
        if watch.most_out > 1:
            found.append(f"GET {path} held {watch.most_out} connections at once")
        answers[path] = response.get_json(silent=True) or response.get_data(as_text=True)
    assert not found, "\n".join(found)
    return answers


def test_no_get_of_a_walked_session_or_its_club_writes_or_holds_two_connections(client):
    table = walked(client)
    answers = each_get_reads_only(client, [table.url + p for p in SESSION_GETS] + CLUB_GETS)
    assert answers[table.url + "/statement"]["log"]["version"] == table.version()


def test_a_session_of_an_older_form_is_answered_from_its_log_and_left_as_stored(
        client, engine):
    table = walked(client)
    paths = [table.url + p for p in ("", "/deals/1", "/deals/2", "/statement",
                                     "/statement.csv")]
    fresh = {path: client.get(path) for path in paths}
    with engine.begin() as conn:  # as an older release left it: rebuilt only by migrate
        conn.execute(update(sessions).where(sessions.c.id == table.sid)
                     .values(shape=1))
    answers = each_get_reads_only(client, paths)
    for path in paths:
        assert fresh[path].status_code == 200, path
        assert answers[path] == (fresh[path].get_json(silent=True)
                                 or fresh[path].get_data(as_text=True)), path
    with engine.connect() as conn:
        assert conn.scalar(sessions.select().with_only_columns(sessions.c.shape)
                           .where(sessions.c.id == table.sid)) == 1

