"""The one place errors are rendered: every refusal is `application/problem+json` (RFC 9457).

A problem names what was wrong: `detail` in words, `rule` (the rule or check refused), and
where it applies `field`, `errors` (per-field messages), `current_version`. A stack trace
never leaves the service; an unexpected exception is logged and answered with a bare 500.
"""

from __future__ import annotations

import json
import logging
import re
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

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
    "internal-error": "Internal error",
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


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):  # defensive: Flask routes these to _http_exception
        return _http_exception(error)
    log.exception("unhandled error on %s %s", request.method, request.path)
    return problem(500, "internal-error", "the service failed to handle this request; "
                   "it has been logged", title=TITLES["internal-error"], rule="internal-error")


def register_error_handlers(app: Flask) -> None:
    """Route every error, wherever it arises, to a problem+json response."""
    app.register_error_handler(LedgerError, _ledger_error)
    app.register_error_handler(ApiProblem, _api_problem)
    app.register_error_handler(ma.ValidationError, _validation_error)
    app.register_error_handler(HTTPException, _http_exception)
    app.register_error_handler(Exception, _unexpected)
