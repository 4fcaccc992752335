"""Request inputs: a JSON object body, If-Match, Idempotency-Key and its fingerprint, ETags."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from flask import request

from .errors import ApiProblem

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_IDEMPOTENCY_KEY_LENGTH = 128  # the store's column

_ETAG = re.compile(r'^(?:W/)?"?(\d{1,18})"?$')


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_object() -> dict[str, Any]:
    """The request body as a JSON object: 415 if it is not sent as JSON, 400 if unreadable."""
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiProblem(415, "unsupported-media-type",
                         f"send the body as application/json, not {mimetype or 'nothing'}",
                         rule="content-type", headers={"Accept-Post": "application/json"})
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ApiProblem(400, "malformed-request", f"the body is not valid JSON: {error}",
                         rule="json") from None
    if not isinstance(body, dict):
        raise ApiProblem(400, "malformed-request",
                         f"the body must be a JSON object, not {_json_kind(body)}",
                         rule="json-object")
    return body


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null"


def if_match_version() -> int | None:
    """The version named by If-Match (`12`, `"12"` or `W/"12"`); None when absent or `*`."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    match = _ETAG.match(raw.strip())
    if not match:
        raise ApiProblem(400, "malformed-request",
                         f"If-Match must be one session version such as \"12\", got {raw!r}",
                         rule="if-match", field="If-Match")
    return int(match.group(1))


def idempotency_key() -> str | None:
    raw = request.headers.get(IDEMPOTENCY_HEADER)
    if raw is None:
        return None
    key = raw.strip()
    if not key or len(key) > MAX_IDEMPOTENCY_KEY_LENGTH or not key.isprintable():
        raise ApiProblem(400, "malformed-request",
                         f"{IDEMPOTENCY_HEADER} must be 1 to {MAX_IDEMPOTENCY_KEY_LENGTH} "
                         "printable characters", rule="idempotency-key",
                         field=IDEMPOTENCY_HEADER)
    return key


def fingerprint(body: Any, *extra: object) -> str:
    """What makes two requests "the same" for an idempotency key: method, path, body, extra."""
    canonical = json.dumps([request.method, request.path, body, *extra], sort_keys=True,
                           separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


HEADER_DOCS = {
    "Idempotency-Key": "Send the same key to retry safely: the first response is returned",
    "If-Match": "The session version the events build on (e.g. \"12\"); 409 if it moved",
}


def header_params(*names: str) -> list[dict[str, Any]]:
    """OpenAPI parameters documenting the request headers `names`."""
    return [{"in": "header", "name": n, "required": False, "schema": {"type": "string"},
             "description": HEADER_DOCS[n]} for n in names]


def etag(version: int) -> str:
    """The ETag of a session at `version`: what If-Match sends back."""
    return f'"{version}"'
