"""Ready JSON responses for the busiest routes, written by orjson.

A route documented with `@blp.response(status, Schema)` may return a `flask.Response`: flask-
smorest then passes it through as it is, and the OpenAPI document stays what the decorator
says. The answers returned this way are the service's own plain JSON (dicts, lists, strings,
integers, booleans and null) and their schemas are `Open` (api/schemas.py), which keep every
member: dumping them through the schema gives the same JSON, so they are written directly.
tests/e2e/test_fast_responses.py holds the two in agreement on generated sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import orjson
from flask import Response

JSON_MIMETYPE = "application/json"
F = TypeVar("F", bound=Callable[..., Any])


def json_response(data: Any, status: int, headers: dict[str, str]) -> Response | None:
    """`data` as an application/json response; None when orjson cannot write it (an integer
    beyond 64 bits, a key that is not a string, a lone surrogate...): the caller then answers
    the usual way, through the schema and Flask's encoder."""
    try:
        body = orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return None
    return Response(body, status=status, headers=headers, mimetype=JSON_MIMETYPE)


def doc_only(decorator: Callable[[F], F]) -> Callable[[F], F]:
    """Apply a flask-smorest decorator that only documents (`Blueprint.doc`,
    `Blueprint.alt_response`) for its documentation alone.

    Each of those wraps the view in a function that only calls it (through
    `current_app.ensure_sync`), once per decorator and request; the view here keeps the
    OpenAPI documentation they write (`_apidoc`) and is not wrapped. Never for a decorator
    that does something at request time (`arguments`, `response`, `paginate`, `etag`).
    """

    def apply(view: F) -> F:
        documented = decorator(view)
        view._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return view

    return apply
