"""How the OpenAPI document is written where apispec's defaults do not serve a generated
client: nullable references, and the families of schemas told apart by `type`.

- A nullable nested schema is `{"allOf": [{"$ref": ...}], "nullable": true}` (OpenAPI 3.0),
  which generators (openapi-python-client) turn into `Ref | None`; apispec's own form,
  an `anyOf` with a bare nullable object, gives them a class of no use.
- Text that `printable` checks has a `pattern` refusing control characters.
- A `Variants` member (api/schema_base.py) is a reference to its family: a component that is
  a `oneOf` with a `discriminator` on `type`, so a client gets one typed class per event
  wherever events appear: a client's events (`EventIn`), the log's (`RecordedEvent`), an
  auditor's (`AuditEvent`), a tablet's entries' (`EntryEvent`), the club's book log's
  (`BookEntry`) and what the table may log next (`ExpectedAction`).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

from .audit_schemas import AUDITED
from .books_schemas import BOOK_ENTRIES
from .event_schemas import EVENT_SCHEMAS, EXPECTED_ACTIONS
from .record_schemas import RECORDED
from .schema_base import Variants, printable, ref
from .tablets import ENTRY_EVENTS

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


# What `printable` (api/schema_base.py) refuses that a pattern can say: the control
# characters. (It refuses the other unprintable characters too, which no simple pattern
# lists; those refusals are 422s like any other.)
PRINTABLE_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"


def text_pattern(self: Any, field: fields.Field, ret: dict[str, Any],
                 **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: text checked by `printable` refuses control characters."""
    if printable in getattr(field, "validators", ()) and "pattern" not in ret:
        return {"pattern": PRINTABLE_PATTERN}
    return {}


def install(api: Any) -> None:
    """Teach `api`'s converter the forms above and register the families' components
    (before any blueprint, whose schemas refer to them)."""
    converter = api.ma_plugin.converter
    converter.add_attribute_function(nullable_reference)
    converter.add_attribute_function(variant_reference)
    converter.add_attribute_function(text_pattern)
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
