"""gunicorn's side of production: the worker class, its refusals as problem+json, a JSON
access log, the hooks of prometheus_client's multiprocess mode, and the worker's heap set
aside from the garbage collector once the app is loaded (`freeze_loaded_app`).

    worker_class = "api.http.serving.ProblemThreadWorker"   (deploy/gunicorn.conf.py)
    logger_class = "api.http.serving.JsonAccessLogger"

gunicorn answers some requests itself, before the app sees them: a request line over
`limit_request_line` (414), too many or too large header fields (431), an unparseable
request (400), an unsupported transfer coding (501). Its own pages are HTML; the worker here
writes them as application/problem+json like every answer of the app.
"""

from __future__ import annotations

import fcntl
import gc
import json
import logging
import os
import time
import uuid
from typing import Any

from gunicorn import util
from gunicorn.glogging import Logger
from gunicorn.workers.gthread import ThreadWorker

from api.http.redaction import redact

PROBLEM_TYPE_PREFIX = "urn:lanterloo:problem:"
_CODES = {400: "malformed-request", 403: "forbidden", 414: "uri-too-long",
          417: "expectation-failed", 431: "header-fields-too-large",
          500: "internal-error", 501: "not-implemented"}


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    """A complete HTTP/1.1 answer with a problem+json body (gunicorn's refusals)."""
    code = _CODES.get(status, reason.lower().replace(" ", "-"))
    body = json.dumps({"type": PROBLEM_TYPE_PREFIX + code, "title": reason, "status": status,
                       "detail": detail or reason, "rule": code}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\n"
            "Connection: close\r\n"
            "Content-Type: application/problem+json\r\n"
            "X-Content-Type-Options: nosniff\r\n"
            "Cache-Control: no-store\r\n"
            f"X-Request-Id: {uuid.uuid4().hex}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    util.write_nonblock(sock, problem_bytes(int(status_int), str(reason), str(mesg)))


class ProblemThreadWorker(ThreadWorker):
    """gthread (a thread pool per process, idle keep-alive connections parked on a poller)
    whose own error pages are problem+json."""

    def init_process(self) -> None:
        # gunicorn's workers call util.write_error for every refusal they make themselves.
        util.write_error = write_problem
        super().init_process()


class JsonErrorFormatter(logging.Formatter):
    """gunicorn's own lines (workers booted, a worker killed) as JSON lines too, redacted,
    so the error log reads as one format with the app's."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(record.created)),
            "logger": "gunicorn.error", "level": record.levelname.lower(),
            "pid": record.process, "message": redact(record.getMessage())}
        if record.exc_info:
            line["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(line)


class JsonAccessLogger(Logger):
    """The access log as JSON lines: time, request id, client, method, path, status, bytes,
    duration. No request header is logged, so never a credential (no Authorization).
    gunicorn's own error lines are JSON too (JsonErrorFormatter)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for handler in self.error_log.handlers:
            handler.setFormatter(JsonErrorFormatter())

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        headers = dict((k.lower(), v) for k, v in (getattr(resp, "headers", None) or []))
        seconds = request_time.total_seconds() if hasattr(request_time, "total_seconds") \
            else float(request_time)
        status = str(getattr(resp, "status", "") or "").split(" ")[0]
        line = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "logger": "gunicorn.access",
            "request_id": headers.get("x-request-id") or environ.get("lanterloo.request_id"),
            "remote": environ.get("REMOTE_ADDR"),
            "method": getattr(req, "method", None),
            "path": redact(str(getattr(req, "path", None) or "")),
            "status": int(status) if status.isdigit() else status,
            "bytes": getattr(resp, "sent", None),
            "duration_ms": round(seconds * 1000, 2),
            "pid": os.getpid(),
        }
        try:
            self.access_log.info(json.dumps(line))
        except Exception:  # pragma: no cover - as gunicorn's own access()
            self.exception("access log")


# -- prometheus_client's multiprocess mode (PROMETHEUS_MULTIPROC_DIR) -----------------------

_held: dict[str, int] = {}


class MetricsFolderInUse(SystemExit):
    """Another live master counts into this instance's multiprocess folder."""


def clear_multiproc_dir(*, release: bool = False) -> None:
    """At the master's start: lock the instance's folder (a second master given the same
    folder refuses to start instead of wiping the first one's counters), then empty it, so
    the counters of a previous run are not summed in. At its exit (`release`): empty it and
    let it go."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return
    if release and folder not in _held:
        return
    if folder not in _held:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(os.path.join(folder, ".master.lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise MetricsFolderInUse(
                f"error: another gunicorn master counts its metrics in {folder}: give each "
                "instance its own LOO_BIND (or PROMETHEUS_MULTIPROC_DIR)") from None
        _held[folder] = fd
    for name in os.listdir(folder):
        if name.endswith(".db"):
            os.remove(os.path.join(folder, name))
    if release:
        os.remove(os.path.join(folder, ".master.lock"))
        os.close(_held.pop(folder))
        try:
            os.rmdir(folder)
        except OSError:
            pass  # something else is in it: left as it is


def mark_worker_dead(pid: int) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)


def freeze_loaded_app() -> int:
    """Leave everything alive once a worker has loaded the app (modules, schemas, the app and
    its engine: some 117,000 objects, alive as long as the worker) out of the collector's full
    passes, and return how many that is. Without it, every third or fourth page of a 200-deal
    session's statement paid a full pass over them: 50-65 ms (docs/performance.md). The
    collection first frees what start-up left for it."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
