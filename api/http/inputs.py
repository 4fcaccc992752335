"""Request inputs: a JSON body (read once, nested at most MAX_JSON_DEPTH deep), If-Match,
Idempotency-Key and its fingerprint, Prefer, ETags."""

from __future__ import annotations

import json
import re
from functools import wraps
from typing import Any

import flask_smorest
import orjson
from flask import Response, g, request
from flask_smorest.utils import unpack_tuple_response
from webargs.flaskparser import FlaskParser, is_json_request

from api.http.errors import ApiProblem
from api.http.request_guard import INT64_MAX, INT64_MIN, nul_problem, number_problem
from ledger import writes

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_IDEMPOTENCY_KEY_LENGTH = 128  # the store's column

_ETAG = re.compile(r'^(?:W/)?"?([0-9]{1,18})"?$')  # ASCII: \d takes any Unicode digit
# What If-Match may hold, as the OpenAPI document states it: one session version (12, "12" or
# W/"12") or *. Anything else, an empty value included, is a 400.
IF_MATCH_PATTERN = r'^\s*(?:\*|(?:W/)?"?[0-9]{1,18}"?)\s*$'
_SURROGATE = re.compile("[\ud800-\udfff]")
# How deep a request body may nest arrays and objects. The deepest body the API takes (a batch
# of events: {"events": [{"face_up": {...}}]}) is 4 deep; a deeper one is refused before it
# reaches a schema, a fingerprint or a log, where recursion would crash the request.
MAX_JSON_DEPTH = 32
_UNREAD = object()


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_body() -> Any:
    """The request body parsed as JSON, once per request (every route reads it here, the
    schemas of api/schemas/__init__.py through `BodyParser`): 400 if it is not UTF-8 JSON, nests
    deeper than MAX_JSON_DEPTH or holds a lone surrogate."""
    cached = g.get("json_body", _UNREAD)
    if cached is not _UNREAD:
        return cached
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except RecursionError:
        raise _too_deep() from None
    except (UnicodeDecodeError, ValueError) as error:
        raise ApiProblem(400, "malformed-request", f"the body is not valid JSON: {error}",
                         rule="json") from None
    refusal = _unreadable(body)
    if refusal is not None:
        raise refusal
    g.json_body = body
    return body


def json_object() -> dict[str, Any]:
    """The request body as a JSON object: 415 if it is not sent as JSON, 400 if unreadable."""
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiProblem(415, "unsupported-media-type",
                         f"send the body as application/json, not {mimetype or 'nothing'}",
                         rule="content-type", headers={"Accept-Post": "application/json"})
    body = json_body()
    if not isinstance(body, dict):
        raise ApiProblem(400, "malformed-request",
                         f"the body must be a JSON object, not {_json_kind(body)}",
                         rule="json-object")
    return body


def sent_json() -> Any:
    """The body if it is JSON (for a fingerprint), else None; never raises."""
    if not is_json_request(request) or not request.get_data(cache=True):
        return None
    try:
        return json_body()
    except ApiProblem:
        return None


class BodyParser(FlaskParser):
    """webargs' parser for the schemas of `Blueprint.arguments`: a body is read by
    `json_object` on every route (415 if it is not sent as JSON, 400 if it is not one readable
    JSON object), then loaded by the route's schema (422 naming the field)."""

    def load_json(self, req: Any, schema: Any) -> Any:
        return json_object()


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint whose `arguments` read the body through `json_body`, and
    whose `response` documents the answer's schema while the answer itself is written by
    `json_response`, as every answer of the API is (reads and writes: one serializer)."""

    ARGUMENTS_PARSER = BodyParser()

    def response(self, status_code: Any, schema: Any = None, **kwargs: Any) -> Any:
        document = super().response(status_code, schema, **kwargs)

        def decorator(view: Any) -> Any:
            @wraps(view)
            def answered(*args: Any, **kw: Any) -> Any:
                result = view(*args, **kw)
                if isinstance(result, Response):
                    return result
                body, status, headers = unpack_tuple_response(result)
                return json_response(body, int(status or status_code), headers)
            return document(answered)
        return decorator


def json_response(data: Any, status: int = 200, headers: Any = None) -> Response:
    """`data` (the service's plain JSON: dicts, lists, strings, integers within the ledger's
    limits, booleans, null) as an application/json response, written by orjson. The route's
    schema documents it and is not dumped (api/schemas/__init__.py; with STRICT_RESPONSES,
    api/http/contract.py holds every answer to it, as the test suite runs)."""
    return Response(orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE), status=status,
                    headers=headers, mimetype="application/json")


def _too_deep() -> ApiProblem:
    return ApiProblem(400, "malformed-request",
                      f"the body nests arrays and objects more than {MAX_JSON_DEPTH} deep",
                      rule="json-depth")


def _unreadable(body: Any) -> ApiProblem | None:
    """What makes a parsed body unreadable, found in one walk without recursion: arrays and
    objects nested deeper than MAX_JSON_DEPTH, or a lone UTF-16 surrogate (JSON's "\\ud800"
    without its pair) in a string or a member name, which cannot be stored, compared or
    echoed as UTF-8 (400); a NUL character in a string or a member name, or an integer
    beyond 64 bits, which no column holds (422 naming where it is)."""
    # (a value, how many containers hold it, where it is: "events.0.player")
    stack: list[tuple[Any, int, str]] = [(body, 0, "")]
    while stack:
        item, level, at = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return ApiProblem(400, "malformed-request",
                                  "the body is not valid Unicode: a string or a member name "
                                  "holds a lone surrogate escape such as \\ud800", rule="json")
            if "\x00" in item:
                return nul_problem(at or "body")
        elif isinstance(item, int) and not isinstance(item, bool):
            if not INT64_MIN <= item <= INT64_MAX:
                return number_problem(at or "body", str(item))
        elif isinstance(item, dict | list):
            if level >= MAX_JSON_DEPTH:
                return _too_deep()
            # pushed last first, so that the first member at fault is the one named
            if isinstance(item, dict):
                for key, value in reversed(item.items()):
                    where = (f"{at}.{key}" if at else str(key)).replace("\x00", "\\x00")
                    stack.append((value, level + 1, where))
                    stack.append((key, level, where))
            else:
                stack.extend((value, level + 1, f"{at}.{n}" if at else str(n))
                             for n, value in reversed(list(enumerate(item))))
    return None


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


def precondition_required() -> ApiProblem:
    """428 (RFC 6585) for an append that names no version and carries no Idempotency-Key:
    a blind write, which could silently build on a state its sender never saw."""
    return ApiProblem(
        428, "precondition-required",
        "an append must say what it builds on: send If-Match with the session version it "
        "builds on (the ETag of GET /sessions/<id>, e.g. If-Match: \"12\"; or "
        "\"expected_version\" in a batch body), so that a write made in the meantime is a 409 "
        "instead of a lost update; or send an Idempotency-Key (a fresh one per request), so "
        "that a retry is answered once and never appended twice",
        rule="precondition-required", field="If-Match")


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
    """What makes two requests "the same" for an idempotency key: method, path, body, extra
    (ledger/writes.py's recipe)."""
    return writes.fingerprint([request.method, request.path, body, *extra])


def prefers_minimal() -> bool:
    """Whether the request says `Prefer: return=minimal` (RFC 7240)."""
    for header in request.headers.getlist("Prefer"):
        for preference in header.split(","):
            token = preference.split(";", 1)[0].strip()
            name, _, value = token.partition("=")
            if name.strip().lower() == "return" and \
                    value.strip().strip('"').lower() == "minimal":
                return True
    return False


HEADER_DOCS = {
    "Idempotency-Key": "Send the same key to retry safely: the first response is returned "
                       "and nothing is appended again",
    "If-Match": "The session version the events build on (its ETag, e.g. \"12\"); 409 if "
                "it moved. An append needs If-Match (or expected_version in a batch body) "
                "or an Idempotency-Key, else 428. `*` names no version",
    "Prefer": "return=minimal (RFC 7240): answer with the session id, the version and the "
              "position, version and type of each event appended, instead of every event and "
              "the whole session",
}

HEADER_SCHEMAS: dict[str, dict[str, Any]] = {
    "Idempotency-Key": {"type": "string", "minLength": 1, "maxLength": 128},
    "If-Match": {"type": "string", "pattern": IF_MATCH_PATTERN, "example": '"12"'},
    "Prefer": {"type": "string", "example": "return=minimal"},
}


def header_params(*names: str) -> list[dict[str, Any]]:
    """OpenAPI parameters documenting the request headers `names`."""
    return [{"in": "header", "name": n, "required": False, "schema": HEADER_SCHEMAS[n],
             "description": HEADER_DOCS[n]} for n in names]


def _link(operation: str, **parameters: str) -> dict[str, Any]:
    return {"operationId": operation, "parameters": parameters}


def session_links(session_id: str, *, deal_no: str | None = None,
                  etag_header: bool = True) -> dict[str, Any]:
    """OpenAPI links from a response naming a session to the session's own routes (what a
    client, or a stateful test, can do next with it)."""
    links = {
        "GetSession": _link("getSession", session_id=session_id),
        "ReadEvents": _link("readEvents", session_id=session_id),
        "GetStatement": _link("getStatement", session_id=session_id),
        "AppendEvents": _link("appendEvents", session_id=session_id,
                              **({"header.If-Match": "$response.header.ETag"}
                                 if etag_header else {})),
    }
    if deal_no is not None:
        links["GetDeal"] = _link("getDeal", session_id=session_id, deal_no=deal_no)
    return links


def etag(version: int) -> str:
    """The ETag of a session at `version`: what If-Match sends back."""
    return f'"{version}"'
