"""The one place errors are rendered: every refusal is `application/problem+json` (RFC 9457).

A problem names what was wrong: `detail` in words, `rule` (the rule or check refused), and
where it applies `field`, `errors` (per-field messages), `current_version`. A stack trace
never leaves the service; an unexpected exception is logged and answered with a bare 500.

A database that cannot do its part is not the service's bug: it is a 503 with `Retry-After`
and a reason an operator can act on (`database_problem`): `database-unavailable` (down,
unreachable, restarting, too many connections), `database-read-only` (a read-only file,
a standby, a read-only transaction), `database-full` (disk, quota or file-size limit full) and
`database-busy` (a lock or statement timeout, SQLite's busy timeout, an empty pool, a
serialization failure). PostgreSQL's errors are told apart by SQLSTATE, SQLite's by text.
"""

from __future__ import annotations

import json
import logging
import re
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, g, request
from sqlalchemy import exc as sa_exc
from werkzeug.exceptions import HTTPException

from api.http.redaction import redact
from ledger.domain import LedgerError

log = logging.getLogger("lanterloo.api")

PROBLEM_MIMETYPE = "application/problem+json"
PROBLEM_TYPE_PREFIX = "urn:lanterloo:problem:"

# One title per problem type, so that `type` and `title` always go together.
TITLES: dict[str, str] = {
    "invalid-input": "The request names something that is not valid",
    "rule-violation": "The rules do not allow this",
    "out-of-turn": "Not what the table expects now",
    "not-found": "Not found",
    "version-conflict": "The session has moved on",
    "malformed-request": "The request cannot be read",
    "unsupported-media-type": "Send JSON",
    "too-large": "The request is too large",
    "validation-failed": "The request does not match the schema",
    "money-from-client": "Money amounts are decided by the rules",
    "unknown-event-type": "Unknown event type",
    "idempotency-key-reuse": "Idempotency key used for another request",
    "precondition-required": "Say which version the events build on",
    "pairing-refused": "The pairing code signs nothing in",
    "signin-refused": "The sign-in link signs nobody in",
    "too-many-attempts": "Too many attempts",
    "internal-error": "Internal error",
    "database-unavailable": "The database cannot be reached",
    "database-read-only": "The database is read-only",
    "database-full": "The database is full",
    "database-busy": "The database is busy",
}


# The HTTP status of each kind of refusal the ledger names (LedgerError.code). The domain and
# the service know nothing of HTTP; tests/unit/test_architecture.py checks that every code
# raised anywhere has a line here.
STATUS_OF_CODE: dict[str, int] = {
    "rule-violation": 422,
    "invalid-input": 422,
    "correction-refused": 422,
    "idempotency-key-reuse": 422,
    "out-of-turn": 409,
    "version-conflict": 409,
    "not-found": 404,
    "forbidden": 403,
    "pairing-refused": 422,
    "signin-refused": 422,
}


def status_of(error: LedgerError) -> int:
    """The HTTP status for a refusal of the ledger."""
    return STATUS_OF_CODE[error.code]


class ApiProblem(Exception):
    """An HTTP-level refusal raised by the API layer (the domain raises LedgerError)."""

    def __init__(self, status: int, code: str, detail: str, *, rule: str | None = None,
                 field: str | None = None, headers: dict[str, str] | None = None,
                 **extra: Any):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.rule = rule or code
        self.field = field
        self.headers = headers or {}
        self.extra = extra


def problem(status: int, code: str, detail: str, *, title: str | None = None,
            headers: dict[str, str] | None = None, **extra: Any) -> Response:
    """A problem+json response; `extra` members (rule, field, errors...) are added as given."""
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_PREFIX + code,
        "title": title or TITLES.get(code) or _phrase(status),
        "status": status,
        "detail": detail,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    try:
        body["instance"] = request.path
        g.problem_rule = body.get("rule") or code  # for the request's log line and metrics
    except RuntimeError:  # outside a request (never in practice)
        pass
    text = _SURROGATE.sub("\ufffd", json.dumps(body, ensure_ascii=False, default=str))
    response = Response(text, status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


# A lone surrogate (a request's \ud800, echoed in a detail or a field name) cannot be
# encoded as UTF-8: a problem shows U+FFFD in its place rather than failing to render.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def first_message(errors: Any, path: str = "") -> tuple[str, str]:
    """(dotted field, message) of the first validation message in a marshmallow error tree."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            sub = f"{path}.{key}" if path else str(key)
            return first_message(value, sub)
    if isinstance(errors, list) and errors:
        if all(isinstance(e, str) for e in errors):
            return path, str(errors[0])
        return first_message(errors[0], path)
    return path, str(errors)


def validation_problem(errors: Any, *, status: int = 422) -> Response:
    field, message = first_message(errors)
    detail = f"{field}: {message}" if field and field != "_schema" else message
    return problem(status, "validation-failed", detail, rule="schema",
                   field=None if field in ("", "_schema") else field, errors=errors)


def _ledger_error(error: LedgerError) -> Response:
    data: dict[str, Any] = error.to_dict()
    detail = str(data.pop("detail", error.message))
    return problem(status_of(error), str(error.code), detail, **data)


def _api_problem(error: ApiProblem) -> Response:
    return problem(error.status, error.code, error.detail, headers=error.headers,
                   rule=error.rule, field=error.field, **error.extra)


def _http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    headers: dict[str, str] = {}
    if status == 405:
        valid = getattr(error, "valid_methods", None) or []
        if valid:
            headers["Allow"] = ", ".join(sorted(valid))
    # webargs (flask-smorest's argument parser) aborts with the validation messages.
    messages = data.get("errors") or data.get("messages")
    if messages:
        # webargs nests by location: {"query": {"limit": [...]}}; name the field itself.
        if isinstance(messages, dict) and len(messages) == 1:
            (location, inner), = messages.items()
            if location in ("query", "json", "headers", "form", "path") and \
                    isinstance(inner, dict):
                messages = inner
        response = validation_problem(messages, status=status if status >= 400 else 422)
        for name, value in headers.items():
            response.headers[name] = value
        return response
    codes = {400: "malformed-request", 404: "not-found", 413: "too-large",
             415: "unsupported-media-type"}
    code = codes.get(status, _phrase(status).lower().replace(" ", "-"))
    detail = {
        404: f"no resource at {request.path}",
        405: f"{request.method} is not allowed on {request.path}",
        413: "the request body is too large",
    }.get(status) or (error.description or _phrase(status))
    return problem(status, code, detail, title=TITLES.get(code, _phrase(status)),
                   headers=headers, rule=code)


def _validation_error(error: ma.ValidationError) -> Response:
    return validation_problem(error.messages)


# -- the database's failures --------------------------------------------------------------

# What the client is told, and how long it should wait before trying again (seconds).
DATABASE_REASONS: dict[str, tuple[str, int]] = {
    "database-unavailable": ("the database cannot be reached; nothing was recorded", 5),
    "database-read-only": ("the database is read-only; reads still work, nothing was "
                           "recorded", 30),
    "database-full": ("the database has no room left; nothing was recorded", 60),
    "database-busy": ("the database is busy (another writer holds a lock, or a statement "
                      "ran too long); nothing was recorded", 1),
}

# PostgreSQL SQLSTATEs (Appendix A of its manual), by class or by code.
_SQLSTATE_CODES = {
    "25006": "database-read-only",  # read_only_sql_transaction (standby, read-only txn)
    "53100": "database-full",  # disk_full
    "53200": "database-busy",  # out_of_memory
    "53300": "database-unavailable",  # too_many_connections
    "55P03": "database-busy",  # lock_not_available (lock_timeout)
    "57014": "database-busy",  # query_canceled (statement_timeout)
    "40001": "database-busy",  # serialization_failure
    "40P01": "database-busy",  # deadlock_detected
    "57P01": "database-unavailable",  # admin_shutdown
    "57P02": "database-unavailable",  # crash_shutdown
    "57P03": "database-unavailable",  # cannot_connect_now (starting up, recovering)
    "58030": "database-full",  # io_error (writing a full disk)
}
_SQLSTATE_CLASSES = {"08": "database-unavailable", "53": "database-full",
                     "57": "database-unavailable"}
# SQLite's extended result codes (sqlite3's `sqlite_errorname`, Python 3.11 on) where the text
# says too little: a write the file system refused is "disk I/O error" whether the disk, a
# quota or a file-size limit (RLIMIT_FSIZE: write(2) fails with EFBIG, where only ENOSPC
# becomes SQLITE_FULL) has no room; SQLite's own reads report their failures apart.
_SQLITE_CODES = {
    "SQLITE_IOERR_WRITE": "database-full",
    "SQLITE_FULL": "database-full",
}
# SQLite's messages (sqlite3 gives no SQLSTATE; its extended codes exist from Python 3.11 on,
# but the text is what every driver version shows).
_SQLITE_TEXTS = [
    ("readonly", "database-read-only"),  # attempt to write a readonly database
    ("read-only", "database-read-only"),
    ("database or disk is full", "database-full"),
    ("database is locked", "database-busy"),
    ("database table is locked", "database-busy"),
    ("database is busy", "database-busy"),
    ("unable to open database", "database-unavailable"),
    ("disk i/o error", "database-unavailable"),
]


def database_reason(error: BaseException) -> str | None:
    """`database-...` for a failure of the database itself, None for anything else (a bug, a
    constraint the code should have handled: those stay 500s)."""
    if isinstance(error, sa_exc.TimeoutError):  # the connection pool is empty
        return "database-busy"
    if not isinstance(error, sa_exc.DBAPIError):
        return None
    orig = error.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if sqlstate:
        return _SQLSTATE_CODES.get(sqlstate) or _SQLSTATE_CLASSES.get(sqlstate[:2])
    named = _SQLITE_CODES.get(getattr(orig, "sqlite_errorname", None) or "")
    if named is not None:
        return named
    text = str(orig).lower()
    for fragment, reason in _SQLITE_TEXTS:
        if fragment in text:
            return reason
    if error.connection_invalidated or isinstance(error, sa_exc.OperationalError):
        # No SQLSTATE: the driver could not talk to the server at all (refused, reset, cut
        # by the client's deadline, the server closed the connection).
        return "database-unavailable"
    return None


def database_problem(reason: str) -> Response:
    detail, retry_after = DATABASE_REASONS[reason]
    return problem(503, reason, detail, rule=reason,
                   headers={"Retry-After": str(retry_after)})


def _database_error(error: Exception) -> Response:
    reason = database_reason(error)
    if reason is None:
        return _unexpected(error)
    orig = getattr(error, "orig", None) or error
    # One line, no traceback: the cause is outside the service, and a burst of them during an
    # outage must not bury the log.
    log.warning("database failure on %s %s: %s (%s: %s)", request.method, redact(request.path),
                reason, type(orig).__name__, str(orig).strip().splitlines()[0][:200]
                if str(orig).strip() else "")
    _note_database_error(reason)
    return database_problem(reason)


def _note_database_error(reason: str) -> None:
    g.database_error = reason


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):  # defensive: Flask routes these to _http_exception
        return _http_exception(error)
    log.exception("unhandled error on %s %s", request.method, redact(request.path))
    return problem(500, "internal-error", "the service failed to handle this request; "
                   "it has been logged", title=TITLES["internal-error"], rule="internal-error")


def register_error_handlers(app: Flask) -> None:
    """Route every error, wherever it arises, to a problem+json response."""
    app.register_error_handler(LedgerError, _ledger_error)
    app.register_error_handler(ApiProblem, _api_problem)
    app.register_error_handler(ma.ValidationError, _validation_error)
    app.register_error_handler(HTTPException, _http_exception)
    app.register_error_handler(sa_exc.DBAPIError, _database_error)
    app.register_error_handler(sa_exc.TimeoutError, _database_error)
    app.register_error_handler(Exception, _unexpected)
