"""The chain's float check (ledger/store/chain.py) passes the strings, integers, booleans and
nulls of a payload by their exact type; it answers what its definition by isinstance answers,
on any nesting of dicts, lists and tuples, subclasses (vocabulary members, a float's or a
dict's subclass) included."""

from __future__ import annotations

import enum
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.store.chain import _has_float, _has_float_by_isinstance


class Word(enum.StrEnum):
    ONE = "one"


class Number(enum.IntEnum):
    TWO = 2


class Measure(float):
    pass


class Mapping(dict):  # type: ignore[type-arg]
    pass


scalars = (st.none() | st.booleans() | st.integers() | st.text()
           | st.floats(allow_nan=True, allow_infinity=True) | st.just(Word.ONE)
           | st.just(Number.TWO) | st.builds(Measure, st.floats(allow_nan=False)))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.lists(inner, max_size=4).map(tuple)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=4)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=4).map(Mapping),
                      max_leaves=16)


@settings(max_examples=500, deadline=None)
@given(values)
def test_has_float_is_its_definition(value: Any) -> None:
    assert _has_float(value) is _has_float_by_isinstance(value)


def test_has_float_finds_a_float_at_any_depth() -> None:
    assert _has_float({"a": [1, {"b": (2, "x", None, True, [0.5])}]})
    assert _has_float({"a": Mapping(b=[Measure(1)])})
    assert _has_float(float("nan"))
    assert not _has_float({"a": [1, {"b": (2, "x", None, True, [Word.ONE, Number.TWO])}]})


@settings(max_examples=100, deadline=None)
@given(st.datetimes(timezones=st.none() | st.timezones()), values.filter(
    lambda v: not _has_float(v)) | st.floats(allow_nan=False, allow_infinity=False))
def test_a_batch_moment_written_once_hashes_as_each_row_would(moment: Any, payload: Any) -> None:
    from ledger.store.chain import GENESIS, canonical, link
    from ledger.store.eventstore import chained_rows, utc_iso

    rows = chained_rows("s1", 1, [("CardPlayed", 1, {"p": payload}), ("DealEnded", 1, {})],
                        actor="Ann", recorded_at=moment, idempotency_key=None, member_id=None,
                        token_id=None, prev_hash=GENESIS)
    prev = GENESIS
    for row in rows:
        assert canonical(row, prev, recorded_at=utc_iso(moment)) == canonical(row, prev)
        assert row["hash"] == link(row, prev)
        prev = row["hash"]
