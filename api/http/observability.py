"""Request ids, structured logs and the request's log line, and the body limit on a stream.

Every request gets an id: the client's `X-Request-Id` when it has the server's own shape (32
lowercase hex digits, as this service and nginx's `$request_id` make them), else a new one;
the response sends it back in `X-Request-Id`, and every log line of the request names it. An
id of any other shape is never echoed nor logged: a client that puts a token, or its bare
secret, there must not find it beside its token id in the logs.

Logs are JSON lines (LOO_LOG_FORMAT=json, the default; `text` for a terminal): one line per
request on the `lanterloo.request` logger with the request id, method, route and path,
status, latency, the club and session when there are any, and the rule of every refusal.
No header is logged, so never a token; a secret never reaches a log line: anything shaped
like a credential that a client puts in the path, the query or a header the line names (a
token `loo_...`, a `Bearer ...` value) is written redacted (`redact`), by the formatters as
well as by the request's line, whatever logged it.
"""

from __future__ import annotations

import io
import json
import logging
import re
import sys
import time
import traceback
import uuid
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, g, request
from werkzeug.exceptions import RequestEntityTooLarge

from api.http import metrics
from api.http.inputs import REPLAYED_HEADER
from api.http.redaction import redact

REQUEST_ID_HEADER = "X-Request-Id"
ENVIRON_REQUEST_ID = "lanterloo.request_id"
_TOO_LARGE = "lanterloo.body_too_large"
# The shape of the ids this service makes (uuid4().hex) and nginx's $request_id: nothing a
# token, its secret or any other credential can be written as.
_SERVER_ID = re.compile(r"^[0-9a-f]{32}$")

request_log = logging.getLogger("lanterloo.request")

# Members of a LogRecord that are not the caller's own fields.
_RECORD_MEMBERS = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message",
                                                                                "asctime"}


class RedactingFormatter(logging.Formatter):
    """logging's plain formatter (LOO_LOG_FORMAT=text), credentials redacted."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


# json.dumps(line, default=str, ensure_ascii=False), without making an encoder per line.
_ENCODER = json.JSONEncoder(default=str, ensure_ascii=False)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg, the fields passed as `extra`, and
    `exc` (the traceback as one string) for an exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _RECORD_MEMBERS and not key.startswith("_"):
                line[key] = value
        if "request_id" not in line:
            request_id = current_request_id()
            if request_id:
                line["request_id"] = request_id
        if record.exc_info:
            line["exc"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return redact(_ENCODER.encode(line))


def current_request_id() -> str | None:
    try:
        return g.get("request_id")
    except RuntimeError:  # outside a request
        return None


def configure_logging(level: str, fmt: str) -> None:
    """The `lanterloo` loggers write to stderr, as JSON lines unless `fmt` is "text"."""
    logger = logging.getLogger("lanterloo")
    logger.setLevel(level.upper())
    if any(getattr(h, "_lanterloo", False) for h in logger.handlers):
        return
    if logging.getLogger().handlers:
        return  # the host (pytest, an embedding app) configured logging: use its handlers
    handler = logging.StreamHandler(sys.stderr)
    handler._lanterloo = True  # type: ignore[attr-defined]
    if fmt.lower() == "text":
        handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s "
                                                "%(message)s"))
    else:
        handler.setFormatter(JsonFormatter())
    logger.addHandler(handler)
    logger.propagate = False


def request_id_from(environ: dict[str, Any]) -> str:
    """The client's X-Request-Id when it has the server's own shape, else a new id."""
    sent = environ.get("HTTP_X_REQUEST_ID", "")
    return sent if _SERVER_ID.fullmatch(sent) else uuid.uuid4().hex


# -- WSGI: the request id, and the size of a body sent without a Content-Length --------------

class RequestMiddleware:
    """Outermost WSGI layer: gives the request its id, and reads a chunked body (no
    Content-Length) up to the limit, so that one over it is a 413 like any other rather than
    being cut short at the limit and processed."""

    def __init__(self, app: Callable[..., Iterable[bytes]], max_body: Callable[[], int | None]):
        self.app = app
        self.max_body = max_body

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        environ[ENVIRON_REQUEST_ID] = request_id_from(environ)
        limit = self.max_body()
        if limit is not None and not environ.get("CONTENT_LENGTH") and \
                "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            stream = environ["wsgi.input"]
            chunks, size = [], 0
            while size <= limit:
                chunk = stream.read(min(65536, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            if size > limit:
                environ[_TOO_LARGE] = True
                chunks = []
            body = b"".join(chunks)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)


def install(app: Flask) -> None:
    app.wsgi_app = RequestMiddleware(  # type: ignore[method-assign]
        app.wsgi_app, lambda: app.config.get("MAX_CONTENT_LENGTH"))

    @app.before_request
    def _start() -> None:
        state = g._get_current_object()
        environ = request.environ
        state.started = time.perf_counter()
        state.request_id = environ.get(ENVIRON_REQUEST_ID) or uuid.uuid4().hex
        if environ.get(_TOO_LARGE):
            raise RequestEntityTooLarge()

    @app.after_request
    def _finish(response: Response) -> Response:
        # The request and its globals are taken once: each use of Flask's proxies costs a
        # context lookup, and the log line reads them a dozen times.
        req = request._get_current_object()  # type: ignore[attr-defined]
        state = g._get_current_object()
        request_id = state.get("request_id") or req.environ.get(ENVIRON_REQUEST_ID)
        headers = response.headers
        if request_id:
            headers[REQUEST_ID_HEADER] = request_id
        started = state.get("started")
        seconds = time.perf_counter() - started if started is not None else 0.0
        url_rule = req.url_rule
        route = url_rule.rule if url_rule is not None else "unmatched"
        method = req.method
        path = redact(req.path)
        status = response.status_code
        rule = state.get("problem_rule") if status >= 400 else None
        replayed = headers.get(REPLAYED_HEADER) == "true"
        database_error = state.get("database_error")
        metrics.observe(method=method, route=route, endpoint=req.endpoint,
                        status=status, seconds=seconds, rule=rule, replayed=replayed,
                        database_error=database_error)
        principal = state.get("principal")
        fields: dict[str, Any] = {
            "request_id": request_id, "method": method, "route": route,
            "path": path, "status": status, "latency_ms": round(seconds * 1000, 2),
        }
        if principal is not None:
            fields["club"] = principal.club_id
            fields["member"] = principal.member_id
            fields["token_id"] = principal.token_id  # the token's public id, never its secret
        session_id = (req.view_args or {}).get("session_id")
        if session_id:
            fields["session"] = session_id
        if req.query_string:
            fields["query"] = redact(req.query_string.decode("latin-1"))
        if rule:
            fields["rule"] = rule
        if replayed:
            fields["idempotent_replay"] = True
        level = logging.WARNING if status >= 500 else logging.INFO
        if request_log.isEnabledFor(level):
            # What request_log.log() does, but naming this line as the caller directly:
            # logging's findCaller walks the stack for it, a good part of the line's cost.
            frame = sys._getframe()
            code = frame.f_code
            request_log.handle(request_log.makeRecord(
                request_log.name, level, code.co_filename, frame.f_lineno, "%s %s %s",
                (method, path, status), None, code.co_name, fields))
        return response
