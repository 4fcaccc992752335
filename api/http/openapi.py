"""How the OpenAPI document is written where apispec's defaults do not serve a generated
client: nullable references, and the families of schemas told apart by `type`.

- A nullable nested schema is `{"allOf": [{"$ref": ...}], "nullable": true}` (OpenAPI 3.0),
  which generators (openapi-python-client) turn into `Ref | None`; apispec's own form,
  an `anyOf` with a bare nullable object, gives them a class of no use.
- An enum of the game's vocabulary is a reference to one named component per word.
- A member whose metadata names a `component` is written as that component.
- Text that `printable` checks has a `pattern` refusing control characters.
- A `Variants` member (api/schemas/base.py) is a reference to its family: a component that is
  a `oneOf` with a `discriminator` on `type`, so a client gets one typed class per event
  wherever events appear: a client's events (`EventIn`), the log's (`RecordedEvent`), an
  auditor's (`AuditEvent`), a tablet's entries' (`EntryEvent`), the club's book log's
  (`BookEntry`) and what the table may log next (`ExpectedAction`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import marshmallow as ma
from marshmallow import fields

from api.schemas.audit import AUDITED
from api.schemas.base import Variants, printable, ref
from api.schemas.books import BOOK_ENTRIES
from api.schemas.events import EVENT_SCHEMAS, EXPECTED_ACTIONS, AppendIn, EventBatchIn
from api.schemas.records import ENTRY_EVENTS, RECORDED
from ledger.domain import vocabulary

_NULL_OBJECT = {"type": "object", "nullable": True}

# The families: component name -> {type: schema}.
FAMILIES: dict[str, dict[str, type[ma.Schema]]] = {
    "EventIn": dict(EVENT_SCHEMAS),
    "RecordedEvent": RECORDED,
    "AuditEvent": AUDITED,
    "ExpectedAction": EXPECTED_ACTIONS,
    "EntryEvent": ENTRY_EVENTS,
    "BookEntry": BOOK_ENTRIES,
}


def nullable_reference(self: Any, field: fields.Field, ret: dict[str, Any],
                       **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a nullable reference as allOf + nullable."""
    variants = ret.get("anyOf")
    if variants and _NULL_OBJECT in variants:
        del ret["anyOf"]
        return {"allOf": [v for v in variants if v != _NULL_OBJECT], "nullable": True}
    return {}


def variant_reference(self: Any, field: fields.Field, ret: dict[str, Any],
                      **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a `Variants` member refers to its family."""
    if not isinstance(field, Variants):
        return {}
    description = ret.get("description")
    ret.clear()
    out: dict[str, Any] = ({"allOf": [ref(field.component)], "nullable": True}
                           if field.allow_none else ref(field.component))
    if description and "allOf" in out:
        out["description"] = description
    return out


# What `printable` (api/schemas/base.py) refuses that a pattern can say: the control
# characters. (It refuses the other unprintable characters too, which no simple pattern
# lists; those refusals are 422s like any other.)
PRINTABLE_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"


def text_pattern(self: Any, field: fields.Field, ret: dict[str, Any],
                 **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: text checked by `printable` refuses control characters."""
    if printable in getattr(field, "validators", ()) and "pattern" not in ret:
        return {"pattern": PRINTABLE_PATTERN}
    return {}


# The game's vocabulary (ledger/domain/vocabulary.py): an enum of the same values anywhere in
# the document is a reference to one named component, so a client has one enumeration per
# word (one `Declaration` for what `expected` offers and what a client sends) and a nullable
# one is `Forced | None`, not classes made up per member. Three names are taken by schemas.
_RENAMED = {"Entry": "EntryMode", "Outcome": "DealOutcome", "Account": "PoolAccount"}
VOCABULARY: dict[frozenset[str], str] = {}
for _kind in vars(vocabulary).values():
    if isinstance(_kind, type) and issubclass(_kind, StrEnum) and _kind is not StrEnum \
            and len(_kind) > 1:
        VOCABULARY.setdefault(frozenset(m.value for m in _kind),
                              _RENAMED.get(_kind.__name__, _kind.__name__))


def vocabulary_reference(self: Any, field: fields.Field, ret: dict[str, Any],
                         **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: an enum of the vocabulary refers to its component."""
    values = [v for v in ret.get("enum", ()) if v is not None]
    name = VOCABULARY.get(frozenset(values))
    if name is None or len(values) != len(ret["enum"]) - (None in ret["enum"]):
        return {}
    if name not in self.spec.components.schemas:
        self.spec.components.schema(name, {"type": "string", "enum": values})
    nullable = bool(ret.pop("nullable", False)) or None in ret["enum"]
    for key in ("enum", "type", "default"):
        ret.pop(key, None)
    return {"allOf": [ref(name)], "nullable": True} if nullable else {"allOf": [ref(name)]}


def named_component(self: Any, field: fields.Field, ret: dict[str, Any],
                    **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a member whose metadata names a `component` is written as
    that component (a nullable map, say, is then `FaceUp | None` for a client, not a class
    made up for the member)."""
    name = field.metadata.get("component")
    if name is None:
        return {}
    kept: dict[str, Any] = {k: ret.pop(k) for k in ("description", "default", "example")
                            if k in ret}
    nullable = ret.pop("nullable", False)
    if name not in self.spec.components.schemas:
        self.spec.components.schema(name, dict(ret))
    ret.clear()
    return {**kept, "allOf": [ref(name)], **({"nullable": True} if nullable else {})}


def install(api: Any) -> None:
    """Teach `api`'s converter the forms above and register the families' components
    (before any blueprint, whose schemas refer to them)."""
    converter = api.ma_plugin.converter
    converter.add_attribute_function(nullable_reference)
    converter.add_attribute_function(variant_reference)
    converter.add_attribute_function(text_pattern)
    converter.add_attribute_function(vocabulary_reference)
    converter.add_attribute_function(named_component)
    components = api.spec.components
    for family, members in FAMILIES.items():
        names = {}
        for kind, schema in members.items():
            name = schema.__name__.removesuffix("Schema")
            components.schema(name, schema=schema)
            names[kind] = name
        components.schema(family, {
            "oneOf": [ref(name) for name in names.values()],
            "discriminator": {"propertyName": "type",
                              "mapping": {kind: ref(name)["$ref"]
                                          for kind, name in names.items()}}})
    # An append's body (POST /sessions/{id}/events): one event or a batch. Its schema reads
    # either (AppendIn.load); the component says so, in place of the members apispec reads
    # from its (no) fields.
    components.schema("EventBatchIn", schema=EventBatchIn)
    components.schema("AppendIn", schema=AppendIn)
    components.schemas["AppendIn"] = {"oneOf": [ref("EventIn"), ref("EventBatchIn")]}


def merge_parameters(blp: Any) -> None:
    """Let an operation's `@blp.doc(parameters=[...])` (headers) add to the parameters its
    `@blp.arguments` query schema documents: flask-smorest lays the manual doc over the
    generated one, and a list laid over a list replaces it (GET /sessions/{id} once lost
    `as_of` to its If-None-Match). Idempotent: a blueprint is registered once per app."""
    for endpoint in blp._docs.values():
        for doc in endpoint.values():
            if not isinstance(doc, dict):
                continue  # the route's own path parameters
            manual = doc.get("manual_doc", {})
            arguments = doc.get("arguments")
            if arguments and "parameters" in manual:
                arguments["parameters"].extend(manual.pop("parameters"))
