"""The baselines Lanterloo is measured against, served by gunicorn exactly as Lanterloo is.

    BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/db \
        gunicorn -w 4 -k sync 'bench.baseline_app:create_app()'

`POST /echo`    a bare Flask JSON POST: parse the body, answer 201 with a small JSON object.
`POST /insert`  the same, plus one row inserted into `raw_events` and committed (a psycopg
                connection per worker, no ORM, no pool, nothing else in the transaction).
`POST /batch`   `{"rows": [...]}`: every row inserted in one transaction with psycopg's
                `executemany` (pipelined), then committed.

`raw_events` is a copy of the `events` table (`LIKE events INCLUDING ALL`, without the
append-only triggers), so a row costs the database what an event row costs it.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

import psycopg
from flask import Flask, request
from psycopg.types.json import Json

# each row names a club, as every event does (migration 0018: `club_id` not null)
INSERT = ("INSERT INTO raw_events (club_id, stream_id, version, type, schema_version, "
          "payload, recorded_at, actor, hash) VALUES ('raw', %s, %s, %s, %s, %s, %s, %s, %s) "
          "RETURNING position")
INSERT_MANY = ("INSERT INTO raw_events (club_id, stream_id, version, type, schema_version, "
               "payload, recorded_at, actor, hash) "
               "VALUES ('raw', %s, %s, %s, %s, %s, %s, %s, %s)")


def create_app() -> Flask:
    app = Flask(__name__)
    url = os.environ.get("BENCH_DATABASE_URL", "")
    state: dict[str, Any] = {"conn": None, "n": 0}

    def conn() -> psycopg.Connection[Any]:
        if state["conn"] is None:
            state["conn"] = psycopg.connect(url)
        return state["conn"]

    def next_version() -> int:
        state["n"] += 1
        return state["n"]

    stream = f"raw-{os.getpid()}"

    @app.post("/echo")
    def echo() -> Any:
        body = request.get_json()
        return {"ok": True, "type": body.get("type")}, 201

    @app.post("/insert")
    def insert_one() -> Any:
        body = request.get_json()
        with conn().cursor() as cur:
            cur.execute(INSERT, (stream, next_version(), body.get("type", "x"), 1, Json(body),
                                 datetime.now(UTC), "bench", "0" * 64))
            position = cur.fetchone()[0]  # type: ignore[index]
        conn().commit()
        return {"ok": True, "position": position}, 201

    @app.post("/batch")
    def insert_batch() -> Any:
        rows = request.get_json()["rows"]
        now = datetime.now(UTC)
        with conn().cursor() as cur:
            cur.executemany(INSERT_MANY, [
                (stream, next_version(), r["type"], r["schema_version"],
                 Json(r["payload"]), now, "bench", r["hash"]) for r in rows])
        conn().commit()
        return {"ok": True, "rows": len(rows)}, 201

    return app
