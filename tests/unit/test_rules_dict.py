"""Rules.to_dict() writes the fields as they are, in their order, less the variants'
parameters when null (ledger/domain/rules.py), and Rules.from_dict reads them back, value
for value and type for type, on the rules of every preset and variant and on rules with any
field set to any value of its kind."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ledger.domain.errors import InvalidInput
from ledger.domain.rules import (
    _FIELD_NAMES,
    DEAL_OUT_OF_TURN,
    EXCHANGE_TIMES,
    FLUSH_PAYERS,
    FLUSH_PRECEDENCES,
    FRESH_POOLS,
    LEAD_RULES,
    LEFT_OUT_WHEN_NULL,
    LOO_KINDS,
    PAMS,
    PENALTY_TABLES,
    PRESETS,
    TRUMP_AFTER_TRICK,
    VARIANTS,
    Rules,
    build_rules,
)

CHOICES: dict[str, tuple[Any, ...]] = {
    "preset": PENALTY_TABLES, "penalties": PENALTY_TABLES, "loo": LOO_KINDS,
    "fresh_pool": FRESH_POOLS, "lead_rule": LEAD_RULES, "trump_after_trick": TRUMP_AFTER_TRICK,
    "deal_out_of_turn": DEAL_OUT_OF_TURN, "variant": VARIANTS, "pam": PAMS,
    "flush_payers": FLUSH_PAYERS, "flush_precedence": FLUSH_PRECEDENCES,
    "exchange_at": EXCHANGE_TIMES,
}
NULLABLE = ("loo_amount", "loo_limit", "dealer_stands_out_above", "pam", "flush_payers",
            "flush_precedence", "exchange_at")


def value_for(name: str, current: Any) -> st.SearchStrategy[Any]:
    if name in CHOICES:
        strategy: st.SearchStrategy[Any] = st.sampled_from(CHOICES[name])
    elif isinstance(current, bool):
        strategy = st.booleans()
    else:
        strategy = st.integers(min_value=-2**40, max_value=2**40)
    return strategy | st.none() if name in NULLABLE else strategy


def drawn_rules(preset: str, variant: Any, data: st.DataObject) -> Rules:
    try:
        base = build_rules(preset, None if variant is None else {"variant": str(variant.value)})
    except InvalidInput:
        assume(False)
        raise
    names = data.draw(st.lists(st.sampled_from(_FIELD_NAMES), unique=True, max_size=8))
    return replace(base, **{n: data.draw(value_for(n, getattr(base, n))) for n in names})


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), variant=st.none() | st.sampled_from(VARIANTS),
       data=st.data())
def test_to_dict_is_every_field_in_order_less_the_null_five_card_ones(
        preset: str, variant: Any, data: st.DataObject) -> None:
    rules = drawn_rules(preset, variant, data)
    written = rules.to_dict()
    assert list(written) == [n for n in _FIELD_NAMES
                             if not (n in LEFT_OUT_WHEN_NULL and getattr(rules, n) is None)]
    for name, value in written.items():
        assert value is getattr(rules, name)  # nothing copied: each value is immutable
    assert rules.json_fields() == written


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), variant=st.none() | st.sampled_from(VARIANTS),
       data=st.data())
def test_rules_read_back_from_their_json_as_they_were(
        preset: str, variant: Any, data: st.DataObject) -> None:
    rules = drawn_rules(preset, variant, data)
    stored = orjson.loads(orjson.dumps(rules.to_dict()))  # as a session's row holds them
    again = Rules.from_dict(stored)
    assert again == rules
    assert [type(getattr(again, n)) for n in _FIELD_NAMES] == \
        [type(getattr(rules, n)) for n in _FIELD_NAMES]


def test_to_dict_is_a_new_dict_each_time() -> None:
    rules = build_rules("baxter-wray")
    first = rules.to_dict()
    first["stake"] = -1
    del first["pack"]
    assert rules.to_dict()["stake"] == 3 and "pack" in rules.to_dict()
    assert Rules.from_dict(rules.to_dict()) == rules


def test_from_dict_tells_true_from_one() -> None:
    stored = orjson.loads(orjson.dumps(build_rules("cassell").to_dict()))
    as_one = Rules.from_dict({**stored, "club_law": 1})
    as_true = Rules.from_dict({**stored, "club_law": True})
    assert type(as_one.club_law) is int and type(as_true.club_law) is bool
    assert Rules.from_dict({**stored, "stake": 3.0}).stake.__class__ is float
