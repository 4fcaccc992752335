"""The tamper-evident log: each event's hash chains it to the one before it in its session.

    hash(event) = SHA-256 of the canonical form (below) of the event and the previous hash

The canonical form is JSON with the keys sorted, no spaces, UTF-8, no NaN: an object with
`chain` (this format's name, "lanterloo/1"), `prev` (the previous event's hash; 64 zeros for
a session's first event), and the event as stored: `stream_id`, `version`, `type`,
`schema_version`, `payload`, `recorded_at` (ISO 8601 in UTC, as `utc_iso` writes it),
`actor`, `member_id`, `token_id`, `idempotency_key`. The global position is left out: it is
the store's, and a copy of the log into another database may renumber it.

Any change to a stored event (its payload, who appended it, when), a deletion, a reordering
or an insertion breaks the chain at that event, and `verify` names the first broken link.
A rewrite of every later hash is caught against a chain head printed earlier: the statement
carries the head, so a printed statement pins the log as it was (docs/operations.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import orjson

CHAIN_FORMAT = "lanterloo/1"
GENESIS = "0" * 64
HASHED = ("stream_id", "version", "type", "schema_version", "payload", "recorded_at", "actor",
          "member_id", "token_id", "idempotency_key")


def _utc_iso(moment: Any) -> Any:
    from .eventstore import utc_iso

    return utc_iso(moment) if isinstance(moment, datetime) else moment


# orjson writes what json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
# writes for strings, integers, booleans, null, lists and objects with string keys (the same
# escapes, keys in code point order), ten times faster. Floats are where they part
# (exponents: "1e+16" against "1e16"; NaN: refused against null): events hold none, and a
# payload that does is written by json.dumps, the definition. So is a value orjson refuses
# (an integer past 64 bits). tests/unit/test_chain_canonical.py holds the two to each other.


def _reference(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def canonical(event: Mapping[Any, Any], prev: str, *, recorded_at: str | None = None) -> bytes:
    """The bytes that are hashed for `event` (a stored row as a mapping) after `prev`;
    `recorded_at`, if given, is `utc_iso` of the event's (written once for a batch)."""
    body = {name: event.get(name) for name in HASHED}
    body["recorded_at"] = _utc_iso(body["recorded_at"]) if recorded_at is None else recorded_at
    body["chain"], body["prev"] = CHAIN_FORMAT, prev
    if _has_float(body["payload"]):
        return _reference(body)
    try:
        return orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _reference(body)


def _has_float(value: Any) -> bool:
    """Whether a float is anywhere in `value` (in a dict's values, a list's or a tuple's
    items, at any depth): what `_has_float_by_isinstance` says (tests/unit/test_chain_float.py),
    the strings, integers, booleans and nulls a payload is made of passed by their exact type
    without a call each."""
    kind = type(value)
    if kind is dict:
        items: Iterable[Any] = value.values()
    elif kind is list or kind is tuple:
        items = value
    else:  # a float, or a dict, list or tuple of a subclass, or anything else
        return _has_float_by_isinstance(value)
    for item in items:
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            continue
        if kind is float or _has_float(item):
            return True
    return False


def _has_float_by_isinstance(value: Any) -> bool:
    """The definition of `_has_float`."""
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float_by_isinstance(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_float_by_isinstance(v) for v in value)
    return False


def link(event: Mapping[Any, Any], prev: str, *, recorded_at: str | None = None) -> str:
    """The hash of `event` chained after `prev` (`recorded_at`: see `canonical`)."""
    return hashlib.sha256(canonical(event, prev, recorded_at=recorded_at)).hexdigest()


def first_broken_link(rows: Iterable[Mapping[Any, Any]]) -> tuple[str, str | None]:
    """(the chain head recomputed, a description of the first broken link or None).

    `rows` are a session's stored events in version order, each with its stored `hash`.
    """
    prev = GENESIS
    expected_version = 1
    for row in rows:
        if row["version"] != expected_version:
            return prev, (f"version {expected_version} is missing: the event after version "
                          f"{expected_version - 1} is version {row['version']} "
                          f"(position {row['position']})")
        computed = link(row, prev)
        if row.get("hash") != computed:
            return prev, (f"version {row['version']} (position {row['position']}, "
                          f"{row['type']}): its stored hash does not match its content and "
                          f"the hash before it; the log was altered at or before this event")
        prev = computed
        expected_version += 1
    return prev, None
