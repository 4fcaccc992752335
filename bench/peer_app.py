"""The peer Lanterloo is measured beside: the same events appended with pyeventsourcing.

    BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/db \
        gunicorn -c deploy/gunicorn.conf.py 'bench.peer_app:create_app()'

What a Python team would pick instead of Lanterloo's store: eventsourcing 9.5 (the `bench`
extra of pyproject.toml) on PostgreSQL, in its fastest documented configuration for a
server of several processes:

- its PostgreSQL persistence (`PERSISTENCE_MODULE=eventsourcing.postgres`), a pool of
  LOO_THREADS connections per worker (one per thread, as Lanterloo's);
- optimistic concurrency: the expected version of `If-Match` checked against the aggregate,
  and the unique (originator_id, originator_version) of its table for a race (409 both);
- snapshots every 100 events (`snapshotting_intervals`);
- its aggregate cache (`AGGREGATE_CACHE_MAXSIZE`), fast-forwarded from the database on every
  read (`AGGREGATE_CACHE_FASTFORWARD=y`, its default: gunicorn's workers are several
  processes writing the same aggregates, so a cache that is not fast-forwarded would be
  stale), copied before a command mutates it (`DEEPCOPY_FROM_AGGREGATE_CACHE=y`, its default:
  a refused or conflicting command must not leave its change in the cache).

A table is one aggregate, `Table`, whose `record` command appends one `Recorded` event per
request: the body Lanterloo's tablet sends (`DealStarted`, `DeclarationMade`, `TrickWon`),
its type checked against those three. It asks nothing of who is asking, checks no rule of the
game, keeps no hash chain and writes no projection: the work Lanterloo does beside it.

`POST /sessions`              a new table: 201 {"session_id", "version"}.
`GET /sessions/<id>`          {"session_id", "version", "events"}.
`POST /sessions/<id>/events`  one event, `If-Match: "<version>"` required: 201 with the new
                              version (body and ETag) or 409 problem+json with
                              `current_version`, as Lanterloo answers (bench/run.py's wrk script
                              reads both the same way).
"""

from __future__ import annotations

import os
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from flask import Flask, request
from sqlalchemy.engine import make_url

KINDS = frozenset({"DealStarted", "DeclarationMade", "TrickWon"})
SNAPSHOT_EVERY = 100


class Table(Aggregate):
    """One table's log: its players and how many deals, declarations and tricks it saw."""

    @event("Opened")
    def __init__(self, players: list[str]) -> None:
        self.players = list(players)
        self.counts: dict[str, int] = {}

    @event("Recorded")
    def record(self, kind: str, body: dict[str, Any]) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1


class Tables(Application[UUID]):
    snapshotting_intervals = {Table: SNAPSHOT_EVERY}


def environment(url: str, threads: int = 8, create_table: bool = False) -> dict[str, str]:
    """eventsourcing's settings for the PostgreSQL database at `url`."""
    parsed = make_url(url)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parsed.database or "",
        "POSTGRES_HOST": parsed.host or "127.0.0.1",
        "POSTGRES_PORT": str(parsed.port or 5432),
        "POSTGRES_USER": parsed.username or "postgres",
        "POSTGRES_PASSWORD": parsed.password or "",
        "POSTGRES_POOL_SIZE": str(threads),
        "POSTGRES_MAX_OVERFLOW": "2",
        "CREATE_TABLE": "y" if create_table else "n",
        "AGGREGATE_CACHE_MAXSIZE": "10000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "y",
    }


def create_tables(url: str) -> None:
    """Create the peer's tables (events, snapshots) once, before its workers start."""
    Tables(env=environment(url, threads=1, create_table=True)).close()


def _problem(status: int, title: str, **extra: Any) -> Any:
    return ({"type": "about:blank", "title": title, "status": status, **extra}, status,
            {"Content-Type": "application/problem+json"})


def create_app() -> Flask:
    app = Flask(__name__)
    tables = Tables(env=environment(os.environ["BENCH_DATABASE_URL"],
                                    threads=int(os.environ.get("LOO_THREADS") or 8)))

    def table(session_id: str) -> Table | None:
        try:
            return tables.repository.get(UUID(session_id))
        except (ValueError, AggregateNotFoundError):
            return None

    @app.post("/sessions")
    def open_table() -> Any:
        players = (request.get_json(silent=True) or {}).get("players") or ["A", "B", "C",
                                                                            "D", "E"]
        new = Table(players)
        tables.save(new)
        return {"session_id": str(new.id), "version": new.version}, 201

    @app.get("/sessions/<session_id>")
    def show(session_id: str) -> Any:
        found = table(session_id)
        if found is None:
            return _problem(404, "no such table")
        return {"session_id": session_id, "version": found.version, "events": found.counts}

    @app.post("/sessions/<session_id>/events")
    def append(session_id: str) -> Any:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or body.get("type") not in KINDS:
            return _problem(400, "an event of one of the kinds " + ", ".join(sorted(KINDS)))
        match = (request.headers.get("If-Match") or "").strip('"')
        if not match.isdigit():
            return _problem(428, "If-Match with the expected version is required")
        found = table(session_id)
        if found is None:
            return _problem(404, "no such table")
        if found.version != int(match):
            return _problem(409, "version conflict", current_version=found.version)
        found.record(body["type"], body)
        try:
            tables.save(found)
        except IntegrityError:  # another request appended this version first
            current = table(session_id)
            return _problem(409, "version conflict",
                            current_version=current.version if current else None)
        return ({"session_id": session_id, "version": found.version}, 201,
                {"ETag": f'"{found.version}"'})

    return app
