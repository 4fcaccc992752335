"""Prometheus metrics, served at GET /metrics (kept out of the OpenAPI document).

What is counted (docs/operations.md, "Metrics"):

    lanterloo_requests_total{method,route,status}          every request
    lanterloo_request_duration_seconds{method,route}       its latency (histogram)
    lanterloo_appends_total{kind}                          requests that appended (201,
                                                           not a replay): open, append,
                                                           correct, undo
    lanterloo_refusals_total{rule,status}                  every 4xx and 5xx, by rule
    lanterloo_conflicts_total                              409s (version conflict, out of turn)
    lanterloo_idempotent_replays_total                     stored answers sent again
    lanterloo_projection_rebuilds_total                    rebuilds from the log (verify)
    lanterloo_database_errors_total{reason}                503s for a database failure
    lanterloo_replica_reads_total{served_by,reason}        reads of the books, audit and
                                                           statement with a read replica
                                                           configured: by the standby, or
                                                           by the primary and why

`route` is the URL rule (`/sessions/<session_id>/events`), never the concrete path, and
`rule` is one of the code's rule names, so every label set is bounded.

Under gunicorn, each worker process counts on its own: set PROMETHEUS_MULTIPROC_DIR to an
empty directory writable by the workers (deploy/gunicorn.conf.py clears it at start and
marks dead workers) and /metrics aggregates every worker's files (prometheus_client's
multiprocess mode). Without it, /metrics shows the one process that answers.

Who may read it: with LOO_METRICS_TOKEN (or LOO_METRICS_TOKEN_FILE) set, a request bearing
`Authorization: Bearer <that token>`; without it, only a client on the loopback interface
that did not come through a proxy (no X-Forwarded-For). Anyone else gets a 403 problem. The
reverse proxy refuses /metrics from outside as well (deploy/nginx.conf).
"""

from __future__ import annotations

import hmac
import ipaddress
import os

from flask import Flask, Response, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

from api.http.errors import problem
from ledger.operations.database import env_or_file

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
TOKEN_ENV = "LOO_METRICS_TOKEN"

REQUESTS = Counter("lanterloo_requests", "HTTP requests answered",
                   ["method", "route", "status"])
LATENCY = Histogram("lanterloo_request_duration_seconds", "Time to answer a request",
                    ["method", "route"],
                    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
APPENDS = Counter("lanterloo_appends", "Requests that appended events (not replays)", ["kind"])
REFUSALS = Counter("lanterloo_refusals", "Requests refused, by rule", ["rule", "status"])
CONFLICTS = Counter("lanterloo_conflicts", "409 answers: version conflicts and out of turn")
REPLAYS = Counter("lanterloo_idempotent_replays", "Stored answers sent again for a repeated "
                  "Idempotency-Key")
REBUILDS = Counter("lanterloo_projection_rebuilds", "Projections rebuilt from the log")
DATABASE_ERRORS = Counter("lanterloo_database_errors", "Requests answered 503 because of the "
                          "database", ["reason"])
REPLICA_READS = Counter("lanterloo_replica_reads", "Reads routed with a read replica "
                        "configured, by who answered and why", ["served_by", "reason"])

# The endpoint of each route that appends, and what it appends.
APPEND_KINDS = {"sessions.Sessions": "open", "events.Events": "append",
                "corrections.Corrections": "correct", "corrections.Undo": "undo"}
REBUILD_ENDPOINTS = {"verify.Verify"}


def observe(*, method: str, route: str, endpoint: str | None, status: int, seconds: float,
            rule: str | None, replayed: bool, database_error: str | None) -> None:
    """Count one answered request."""
    REQUESTS.labels(method, route, str(status)).inc()
    LATENCY.labels(method, route).observe(seconds)
    if status == 201 and method == "POST" and endpoint in APPEND_KINDS:
        if replayed:
            REPLAYS.inc()
        else:
            APPENDS.labels(APPEND_KINDS[endpoint]).inc()
    elif replayed:
        REPLAYS.inc()
    if status >= 400:
        REFUSALS.labels(rule or "none", str(status)).inc()
    if status == 409:
        CONFLICTS.inc()
    if database_error:
        DATABASE_ERRORS.labels(database_error).inc()
    if endpoint in REBUILD_ENDPOINTS and status == 200:
        REBUILDS.inc()


def _loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address((address or "").split("%")[0]).is_loopback
    except ValueError:
        return False


def may_read() -> bool:
    token = env_or_file(TOKEN_ENV) or ""
    if token:
        sent = request.headers.get("Authorization", "")
        return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())
    return _loopback(request.remote_addr) and "X-Forwarded-For" not in request.headers


def exposition() -> bytes:
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def install(app: Flask) -> None:
    @app.get("/metrics")
    def metrics() -> Response:
        if not may_read():
            return problem(403, "forbidden", "metrics are served to the loopback interface "
                           f"or to a bearer of {TOKEN_ENV}", rule="metrics-access")
        return Response(exposition(), mimetype=CONTENT_TYPE_LATEST.split(";")[0],
                        headers={"Content-Type": CONTENT_TYPE_LATEST})
