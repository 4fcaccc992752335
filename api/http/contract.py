"""The OpenAPI document held to every answer (`STRICT_RESPONSES`, LOO_STRICT_RESPONSES=1).

With it on, each answer of an API operation is checked against the document before it
leaves: its status must be documented (or fall to the `default` response), its media type
listed for that status, and a JSON body must fit the schema: every member declared, every
required member present, each value of its type, in its enum, null only where allowed,
an event or an expected action of the variant its `type` names. A misfit raises
`ResponseOffContract`, naming the operation and the members at fault. The test suite runs
with it on, so a member the service starts to send without declaring it fails a test; in
production it is off (it costs a walk of every answer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Response, request

JSON_TYPES = ("application/json", "application/problem+json")
_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
}


class ResponseOffContract(AssertionError):
    """An answer the OpenAPI document does not describe."""


def openapi_path(rule: str) -> str:
    """A Flask rule as the document writes its path: `<int:deal_no>` -> `{deal_no}`."""
    return _CONVERTER.sub(r"{\1}", rule)


class Contract:
    """The document, and the check of one answer against it."""

    def __init__(self, spec: dict[str, Any]):
        self.spec = spec

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            section, name = node["$ref"].split("/")[-2:]
            node = self.spec["components"][section][name]
        return node

    def operation(self, path: str, method: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.spec["paths"].get(path, {}).get(method.lower())
        return found

    def check(self, operation: dict[str, Any], status: int, mimetype: str, body: Any,
              *, has_body: bool) -> list[str]:
        """What is wrong with an answer of `operation` (empty when it fits); `body` is the
        JSON read, or None where there is none to read."""
        responses = operation.get("responses", {})
        declared = responses.get(str(status)) or responses.get("default")
        if declared is None:
            return [f"status {status} is not documented"]
        declared = self.resolve(declared)
        content = declared.get("content")
        if not content or not has_body:
            return []
        media = content.get(mimetype)
        if media is None:
            return [f"{mimetype} is not a documented media type of {status} "
                    f"({', '.join(content)})"]
        if mimetype not in JSON_TYPES or "schema" not in media or body is None:
            return []
        return list(self.misfits(body, media["schema"], "$"))

    def misfits(self, value: Any, schema: dict[str, Any], at: str) -> Iterator[str]:
        """Where `value` does not fit `schema`, recursively."""
        schema = self.resolve(schema)
        if value is None:
            if not schema.get("nullable"):
                yield f"{at}: null where the document does not allow it"
            return
        for part in schema.get("allOf", ()):
            yield from self.misfits(value, part, at)
        if "oneOf" in schema or "anyOf" in schema:
            yield from self._variant(value, schema, at)
            return
        kind = schema.get("type")
        if kind is not None and not _TYPES[kind](value):
            yield f"{at}: {type(value).__name__} where the document says {kind}"
            return
        if "enum" in schema and value not in schema["enum"]:
            yield f"{at}: {value!r} is not one of {schema['enum']}"
        if isinstance(value, list) and "items" in schema:
            for i, item in enumerate(value):
                yield from self.misfits(item, schema["items"], f"{at}[{i}]")
        if isinstance(value, dict):
            yield from self._members(value, schema, at)

    def _members(self, value: dict[str, Any], schema: dict[str, Any],
                 at: str) -> Iterator[str]:
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for name in schema.get("required", ()):
            if name not in value:
                yield f"{at}.{name}: required by the document, missing"
        for name, item in value.items():
            if name in properties:
                yield from self.misfits(item, properties[name], f"{at}.{name}")
            elif isinstance(extra, dict) and extra:
                yield from self.misfits(item, extra, f"{at}.{name}")
            elif properties or extra is False:
                yield f"{at}.{name}: not declared in the document"

    def _variant(self, value: Any, schema: dict[str, Any], at: str) -> Iterator[str]:
        variants = schema.get("oneOf") or schema.get("anyOf") or []
        discriminator = schema.get("discriminator")
        if discriminator is not None and isinstance(value, dict):
            name = value.get(discriminator["propertyName"])
            target = discriminator.get("mapping", {}).get(name) if isinstance(name, str) \
                else None
            if target is None:
                yield f"{at}: {name!r} names no variant of the document"
                return
            yield from self.misfits(value, {"$ref": target}, at)
            return
        tried = [list(self.misfits(value, variant, at)) for variant in variants]
        if all(tried):
            yield from min(tried, key=len)


def install(app: Flask, spec: Callable[[], dict[str, Any]]) -> None:
    """Check every answer of `app` against the document `spec()` gives (made on first use)."""
    held: list[Contract] = []

    @app.after_request
    def _check(response: Response) -> Response:
        rule = request.url_rule
        if rule is None or request.method in ("HEAD", "OPTIONS"):
            return response
        if not held:
            held.append(Contract(spec()))
        contract = held[0]
        operation = contract.operation(openapi_path(rule.rule), request.method)
        if operation is None:
            return response  # a page or a file, not an API operation
        has_body = response.is_streamed or bool(response.get_data())
        body = None
        if not response.is_streamed and has_body and response.mimetype in JSON_TYPES:
            body = response.get_json(silent=True)
        wrong = contract.check(operation, response.status_code, response.mimetype or "", body,
                               has_body=has_body)
        if wrong:
            raise ResponseOffContract(
                f"{request.method} {rule.rule} answered {response.status_code} off the "
                "OpenAPI document:\n  " + "\n  ".join(wrong[:20]))
        return response
