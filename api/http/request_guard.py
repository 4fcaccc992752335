"""What every request is held to before a route sees it: input is what it looks like.

- A number is ASCII digits, in a path, a query or a body: Python's int() and Flask's `<int:>`
  read Unicode digits (١, ５) as numbers; here they are not numbers at all (422).
- A number fits the column it is compared with (422, never an overflow's 500): a 32-bit
  integer (a version, a deal number, an entry's seq: PostgreSQL's integer) unless the OpenAPI
  document gives the parameter its range (a log position: 64 bits); a body's numbers fit 64
  bits (no column holds more).
- A NUL byte is in no path, query or body string (422: PostgreSQL cannot store nor compare
  one, and no name, id or code holds one).
- An API operation takes only the query parameters its OpenAPI document declares: any other
  is a 422 naming it (a filter mistyped must not quietly widen a question). The pages and
  files outside the document (the tablet reads its own query in the browser) are not held to
  the last rule.

One mechanism for every route: the document is the list of what each operation takes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask, request
from werkzeug.routing import IntegerConverter, Map

from api.http.contract import openapi_path
from api.http.errors import ApiProblem

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1  # a version, a deal number, an entry's seq
_ASCII_INT = re.compile(r"-?[0-9]+")


class NotANumber(str):
    """A path segment an `<int:...>` rule matched that is no number the service takes
    (Unicode digits, or beyond a 32-bit integer): the guard refuses it naming the field."""


class AsciiIntegerConverter(IntegerConverter):
    """`<int:...>` (and `<int(signed=True):...>`): only ASCII digits make a number, within a
    32-bit integer (the path's numbers are deal numbers and entries' seq). Unicode digits
    and overflows still match the rule, so that the request is refused with a 422 naming the
    parameter rather than a 404 (see `refuse_odd_input`)."""

    def to_python(self, value: str) -> Any:
        if not _ASCII_INT.fullmatch(value) or not INT32_MIN <= int(value) <= INT32_MAX:
            return NotANumber(value)
        return super().to_python(value)


def install_converters(url_map: Map) -> None:
    """Before any rule is added: `<int:...>` takes ASCII digits only."""
    url_map.converters["int"] = AsciiIntegerConverter


def number_problem(field: str, value: str, *, low: int = INT64_MIN,
                   high: int = INT64_MAX) -> ApiProblem | None:
    """A 422 for `value` (a parameter's text) if it is no whole number in [low, high]."""
    if not _ASCII_INT.fullmatch(value):
        return _refusal(field, f"{_shown(value)} is not a whole number (ASCII digits 0-9)")
    number = int(value)
    if not low <= number <= high:
        return _refusal(field, f"{_shown(value)} is out of range: at least {low} and at "
                               f"most {high}")
    return None


def _shown(value: str) -> str:
    return repr(value if len(value) <= 40 else value[:40] + "...")


def _refusal(field: str, message: str) -> ApiProblem:
    return ApiProblem(422, "validation-failed", f"{field}: {message}", rule="schema",
                      field=field, errors={field: [message]})


def nul_problem(field: str) -> ApiProblem:
    return _refusal(field, "must not contain a NUL character")


class QueryParameters:
    """The query parameters of each API operation, read from the OpenAPI document on first
    use: `of(rule, method)` is {name: schema}, or None for a route outside the document."""

    def __init__(self, spec: Callable[[], dict[str, Any]]):
        self._spec = spec
        self._paths: dict[str, Any] | None = None

    def of(self, rule: str, method: str) -> dict[str, dict[str, Any]] | None:
        if self._paths is None:
            self._paths = self._spec()["paths"]
        operation = self._paths.get(openapi_path(rule), {}).get(method.lower())
        if operation is None:
            return None
        return {p["name"]: p.get("schema", {}) for p in operation.get("parameters", [])
                if p.get("in") == "query"}


def refuse_odd_input(parameters: QueryParameters) -> None:
    """The check of a matched request (see the module's docstring)."""
    for name, value in (request.view_args or {}).items():
        if isinstance(value, NotANumber):
            raise number_problem(name, value, low=INT32_MIN, high=INT32_MAX) \
                or _refusal(name, "is not a whole number")
        if isinstance(value, str) and "\x00" in value:
            raise nul_problem(name)
    if "\x00" in request.path:
        raise nul_problem("path")
    for name, value in request.args.items(multi=True):
        if "\x00" in name or "\x00" in value:
            raise nul_problem(name.replace("\x00", "\\x00"))
    rule = request.url_rule
    if rule is None or request.method == "OPTIONS":
        return
    declared = parameters.of(rule.rule, "GET" if request.method == "HEAD" else request.method)
    if declared is None:
        return  # a page or a file, not an API operation
    unknown = [name for name in request.args if name not in declared]
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise ApiProblem(422, "validation-failed",
                         f"unknown query parameter{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(repr(n) for n in unknown)} (this operation takes: "
                         f"{known})", rule="schema", field=unknown[0],
                         errors={name: ["unknown parameter"] for name in unknown})
    for name, schema in declared.items():
        if schema.get("type") != "integer":
            continue
        # A parameter whose schema states its range (a position: 64 bits; a limit: 1000)
        # has it checked by its validator, within 64 bits here; any other is compared with a
        # 32-bit column (a version, a deal number, an entry's seq).
        bounded = "maximum" in schema and "minimum" in schema
        low, high = (INT64_MIN, INT64_MAX) if bounded else (INT32_MIN, INT32_MAX)
        for value in request.args.getlist(name):
            problem = number_problem(name, value, low=low, high=high)
            if problem is not None:
                raise problem


def install(app: Flask, spec: Callable[[], dict[str, Any]]) -> None:
    """The check runs as the app's URL value preprocessor: before the blueprints' own (which
    look a session id up) and before any route."""
    parameters = QueryParameters(spec)
    app.url_value_preprocessor(lambda _endpoint, _values: refuse_odd_input(parameters))
