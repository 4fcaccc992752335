"""Liveness and readiness, for the load balancer and the orchestrator.

- `GET /healthz`: the process is alive and serving. It touches no database, so a database
  outage does not get healthy app processes restarted (that would not help, and a restart
  storm would hurt).
- `GET /readyz`: this process can do its job now: the database answers, takes a write (in a
  transaction that is rolled back: an UPDATE of the schema's version row to itself, which
  needs the write lock on SQLite and a writable primary on PostgreSQL), and its schema is at
  the revision this code was built for. 503 problem+json otherwise, with the reason
  (`database-unavailable`, `database-read-only`, `database-busy`, `database-full`,
  `schema-not-at-head`). Take an instance out of the load balancer on it. It answers within
  READY_WITHIN_S whatever the database does: the probe runs on a thread of its own, and a
  probe that has not answered by then is a 503 `database-unavailable` (a probe still running
  is not started again: the next request waits on the same one). `read_replica` says whether
  the read replica answers reads or the primary does in its place (ready either way).
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as ProbeTimeout
from typing import cast

from flask.views import MethodView
from marshmallow import fields
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from api.http.errors import ApiProblem, database_reason
from api.http.extension import services
from api.http.inputs import Blueprint
from api.schemas import Open
from ledger.audit.checkpoint_log import signing_status
from ledger.operations.database import head_revision

log = logging.getLogger("lanterloo.api")

# How long /readyz takes at worst: an orchestrator's probe (Kubernetes' timeoutSeconds is 1 s
# by default, a load balancer's a few) must get an answer, not a timeout.
READY_WITHIN_S = 1.5

blp = Blueprint("health", __name__, url_prefix="",
                description="Liveness and readiness checks for load balancers.")


class LivenessSchema(Open):
    status = fields.String(required=True, metadata={"example": "ok"})


class ReadinessSchema(Open):
    status = fields.String(required=True, metadata={"example": "ok"})
    database = fields.String(required=True, metadata={"example": "ok"})
    schema = fields.String(required=True, metadata={
        "example": "0019", "description": "the schema's Alembic revision"})
    signing = fields.String(required=True, metadata={
        "example": "ok", "description": "the signing of chain heads "
        "(ledger/audit/checkpoint_log.py): "
        "`ok`, `off` (no checkpoint key), or what fails: `failing: ...` (the checkpoint log "
        "cannot be written: the signed heads wait and are written later) and `refused: ...` "
        "(a chain contradicts a head signed before: it was rewritten). Reads and writes are "
        "served either way"})
    read_replica = fields.String(required=True, metadata={
        "example": "ok", "description": "the read replica (LOO_READ_DATABASE_URL, "
        "api/http/reading.py): `off` (none configured), `ok` (the standby answers the reads "
        "of the books, the audit and the statement) or `fallback: <why>` (the primary answers "
        "them: the standby lags past its bound, is down or is no standby). Ready either way"})


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="health")
    @blp.response(200, LivenessSchema)
    def get(self):
        """Is the process alive (no database call)"""
        return {"status": "ok"}


class _Prober:
    """The readiness probe of this process, on a thread of its own; at most one at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: Future[str | None] | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._pid = -1

    def revision(self, engine: Engine, within_s: float) -> str | None:
        """The probe's answer, or ProbeTimeout when it takes longer than `within_s`."""
        with self._lock:
            if self._pool is None or self._pid != os.getpid():  # a forked worker: its own
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="lanterloo-readyz")
                self._pid, self._running = os.getpid(), None
            if self._running is None or self._running.done():
                self._running = self._pool.submit(_probe_again_on_a_new_connection, engine)
            running = self._running
        return running.result(timeout=within_s)


PROBER = _Prober()


def _probe_again_on_a_new_connection(engine: Engine) -> str | None:
    try:
        return _probe(engine)
    except DBAPIError as error:
        if not error.connection_invalidated:
            raise
        # A pooled connection that died with the server (pings happen only after a
        # connection sat idle): the pool has let go of it; ask on a new one.
        return _probe(engine)


def _probe(engine: Engine) -> str | None:
    """The schema revision, read in a transaction that also takes a write, rolled back."""
    with engine.connect() as connection:
        with connection.begin() as transaction:
            revision = connection.execute(
                text("SELECT version_num FROM alembic_version")).scalar()
            # A write that changes nothing, never committed.
            connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
            transaction.rollback()
    return cast(str | None, revision)


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="ready")
    @blp.response(200, ReadinessSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def get(self):
        """Can this process serve: the database answers, is writable, and is at the head
        revision"""
        try:
            revision = PROBER.revision(services().engine, READY_WITHIN_S)
        except ProbeTimeout:
            log.warning("not ready: the database did not answer within %s s", READY_WITHIN_S)
            raise ApiProblem(503, "database-unavailable",
                             f"not ready: the database did not answer within {READY_WITHIN_S} s",
                             rule="database-unavailable", headers={"Retry-After": "5"}) from None
        except Exception as error:
            reason = database_reason(error)
            if reason is None:
                # No alembic_version table: a database that was never migrated.
                text_of = str(getattr(error, "orig", error)).lower()
                if "alembic_version" in text_of:
                    raise ApiProblem(503, "schema-not-at-head", "the database has no schema: "
                                     "run `lanterloo migrate`", rule="schema-not-at-head",
                                     headers={"Retry-After": "30"}) from None
                log.exception("readiness check failed")
                reason = "database-unavailable"
            log.warning("not ready: %s (%s)", reason, type(error).__name__)
            raise ApiProblem(503, reason, f"not ready: {reason}", rule=reason,
                             headers={"Retry-After": "5"}) from None
        head = head_revision()
        if revision != head:
            raise ApiProblem(503, "schema-not-at-head",
                             f"the schema is at {revision}, this code needs {head}: run "
                             "`lanterloo migrate`", rule="schema-not-at-head",
                             headers={"Retry-After": "30"})
        signing = signing_status()
        if signing not in ("ok", "off"):
            log.error("signing: %s", signing)
        return {"status": "ok", "database": "ok", "schema": revision, "signing": signing,
                "read_replica": _replica_status()}


# The read replica's check, on a thread of its own: a standby that does not answer costs
# /readyz REPLICA_WITHIN_S at most, never its connect timeout.
REPLICA_WITHIN_S = 0.3
_REPLICA_CHECK = ThreadPoolExecutor(1, thread_name_prefix="lanterloo-replica-check")


def _replica_status() -> str:
    replica = services().replica
    if replica is None:
        return "off"
    try:
        return _REPLICA_CHECK.submit(replica.status).result(timeout=REPLICA_WITHIN_S)
    except ProbeTimeout:
        return "fallback: standby-not-answering"
