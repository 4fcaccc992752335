"""The log's events as the API returns them: one schema per event type, its payload typed.

The payloads are read off the domain's own types (the event dataclasses of
ledger/domain/events.py, the records of ledger/domain/records.py), so a field the domain adds
is in the document the moment it is in the event. A recorded event is one of a family told
apart by `type` (the OpenAPI component `RecordedEvent`: a oneOf with a discriminator,
api/http/openapi.py), and so is an audit row (`AuditEvent`).
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from types import NoneType, UnionType
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas.base import Open, RulesSchema, Timestamp, Variants
from ledger.domain import events as domain_events
from ledger.domain import records
from ledger.domain.events import EVENT_TYPES

# Members whose type the domain leaves open (dict[str, Any]) but the API can say.
NAMED: dict[tuple[str, str], Any] = {}


def _field(hint: Any, *, required: bool, where: tuple[str, str]) -> fields.Field:
    """A marshmallow field for a domain type hint: str, int, bool, an enumeration of the
    vocabulary, a list, a dict, a record, or any of them or None."""
    if where in NAMED:
        return NAMED[where](required=required)
    options: dict[str, Any] = {"required": required}
    args = typing.get_args(hint)
    if isinstance(hint, UnionType) or typing.get_origin(hint) is typing.Union:
        inner = [a for a in args if a is not NoneType]
        if len(inner) != 1:
            raise TypeError(f"{where}: a union the API cannot describe: {hint}")
        found = _field(inner[0], required=required, where=where)
        found.allow_none = NoneType in args
        return found
    origin = typing.get_origin(hint)
    if origin is typing.Required or origin is typing.NotRequired:
        return _field(args[0], required=origin is typing.Required, where=where)
    if hint is Any:
        return fields.Raw(**options)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return fields.String(validate=validate.OneOf([str(m.value) for m in hint]), **options)
    if hint is str:
        return fields.String(**options)
    if hint is bool:
        return fields.Boolean(**options)
    if hint is int:
        return fields.Integer(**options)
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return fields.List(_field(args[0], required=True, where=where), **options)
    if origin is tuple:  # a fixed row of mixed types (an account, a currency, an amount)
        return fields.List(fields.Raw(), **options)
    if origin is dict:
        values = None if args[1] is Any else _field(args[1], required=True, where=where)
        return fields.Dict(keys=fields.String(), values=values, **options)
    if isinstance(hint, type) and typing.is_typeddict(hint):
        return fields.Nested(record_schema(hint), **options)
    raise TypeError(f"{where}: a type the API cannot describe: {hint}")


_RECORDS: dict[str, type[ma.Schema]] = {}


def record_schema(kind: Any, name: str | None = None, *, left_out: tuple[str, ...] = (),
                  optional: tuple[str, ...] = ()) -> type[ma.Schema]:
    """The response schema of a domain record (a TypedDict) or event (a dataclass): each of
    its fields, required unless it has a default, is optional, or `optional` names it."""
    name = name or kind.__name__
    if name in _RECORDS:
        return _RECORDS[name]
    hints = typing.get_type_hints(kind, include_extras=True)
    if dataclasses.is_dataclass(kind):
        wanted = {f.name: f.default is dataclasses.MISSING
                  and f.default_factory is dataclasses.MISSING
                  for f in dataclasses.fields(kind)}
    else:
        wanted = {n: n in kind.__required_keys__ for n in hints}
    declared = {n: _field(hints[n], required=needed and n not in optional,
                          where=(kind.__name__, n))
                for n, needed in wanted.items() if n not in left_out}
    schema = Open.from_dict(declared, name=name)
    schema.__doc__ = (kind.__doc__ or "").strip().split("\n\n")[0] or None
    _RECORDS[name] = schema
    return schema


PostingSchema = record_schema(records.Posting, "Posting")
PostingSchema.__doc__ = "A balanced movement of units: from one account to another, for a reason."


class VoidedEntrySchema(Open):
    """An entry a correction voided: its version, its type and the entry as the client sent
    it."""

    version = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(sorted(EVENT_TYPES)))
    entry = Variants("EventIn", required=True)


def _evidence(**kwargs: Any) -> fields.Field:
    """A penalty's evidence: the breach the cards prove, or nothing (entered by hand)."""
    found = records.BreachFound
    return fields.Nested(record_schema(found, "Evidence", optional=tuple(
        typing.get_type_hints(found))), metadata={
        "description": "The breach the logged cards prove ({} for a penalty entered by "
                       "hand)"}, **kwargs)


NAMED.update({
    ("SessionOpened", "rules"): lambda **kw: fields.Nested(RulesSchema, **kw),
    ("PenaltyImposed", "evidence"): _evidence,
    ("PenaltyRecord", "evidence"): _evidence,
    ("EntryCorrected", "voids"): lambda **kw: fields.List(fields.Nested(VoidedEntrySchema),
                                                          **kw),
    ("EntryCorrected", "replacements"): lambda **kw: fields.List(Variants("EventIn"), **kw),
})

# The payload schema of each event type. A BreachDetected payload is also an entry of a
# deal's breaches; a PenaltyImposed payload, with the hand it was charged in, one of its
# penalties; a DealSettled payload less its postings, its settlement.
PAYLOADS: dict[str, type[ma.Schema]] = {
    name: record_schema(kind, name if name == "BreachDetected" else f"{name}Payload",
                        # written only when there is one (events.py)
                        optional=("call", "pam_named"))
    for name, kind in EVENT_TYPES.items()}
BreachDetectedSchema = PAYLOADS["BreachDetected"]
BreachDetectedSchema.__doc__ = (
    "A breach of the laws of play that the cards prove (the BreachDetected event's payload, "
    "and an entry of a deal's breaches). The ledger imposes its penalty by itself.")
PenaltyRecordSchema = record_schema(records.PenaltyRecord, "PenaltyRecord")
SettlementSchema = record_schema(domain_events.DealSettled, "Settlement", left_out=("postings",))
SettlementSchema.__doc__ = "How a deal was settled: its DealSettled event less the postings."


class RecordedEventSchema(Open):
    """An event of the log: where it stands, who logged it, and its payload."""

    position = fields.Integer(required=True,
                              metadata={"description": "Global position in the store"})
    version = fields.Integer(required=True,
                             metadata={"description": "The session's version after it"})
    type = fields.String(required=True, validate=validate.OneOf(list(EVENT_TYPES)))
    schema_version = fields.Integer()
    payload = fields.Dict(metadata={"description": "The event's fields"})
    recorded_at = Timestamp(metadata={"type": "string", "format": "date-time"})
    actor = fields.String()
    member_id = fields.String(allow_none=True,
                              metadata={"description": "The member who appended it"})
    token_id = fields.String(allow_none=True,
                             metadata={"description": "The token (device) it came from"})
    superseded_by = fields.Integer(allow_none=True, metadata={
        "description": "The version of the correction that superseded this event (the log "
                       "keeps it; the projections no longer count it), or null"})
    hash = fields.String(allow_none=True, metadata={
        "description": "SHA-256 of the event chained to the one before it (docs/operations.md)"})


def family(base: type[ma.Schema], prefix: str, required: tuple[str, ...] = (),
           payloads: dict[str, type[ma.Schema]] | None = None) -> dict[str, type[ma.Schema]]:
    """One schema per event type (of `payloads`, the session's by default): `base` with
    `type` that type alone and `payload` its payload schema (required if `required` names
    it), named `prefix` + the type."""
    return {name: base.from_dict({
        "type": fields.String(required=True, validate=validate.OneOf([name])),
        "payload": fields.Nested(payload, required="payload" in required,
                                 metadata={"description": "The event's fields"}),
    }, name=f"{prefix}{name}") for name, payload in (payloads or PAYLOADS).items()}


RECORDED = family(RecordedEventSchema, "Recorded")


class EntryEventSchema(Open):
    """An event of a tablet's entry (GET /sessions/<id>/entries): its version, its type and
    its payload."""

    version = fields.Integer(required=True)
    type = fields.String(required=True)
    payload = fields.Dict(required=True)


# A tablet's entries: one schema per event type, told apart by `type` (the component
# EntryEvent, api/http/openapi.py).
ENTRY_EVENTS = family(EntryEventSchema, "Entry", required=("payload",))
