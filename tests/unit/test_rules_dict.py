"""Rules.to_dict() takes the fields as they are; its definition is `dataclasses.asdict` less
the five-card parameters when null (ledger/domain/rules.py). The two agree value for value,
type for type and key order for key order, on the rules of every preset and variant and on
rules with any field set to any value of its kind."""

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
    FLUSH_PAYERS,
    FRESH_POOLS,
    LEAD_RULES,
    LOO_KINDS,
    PAMS,
    PENALTY_TABLES,
    PRESETS,
    TRUMP_AFTER_TRICK,
    VARIANTS,
    Rules,
    _read_rules,
    _to_dict_by_asdict,
    build_rules,
)

CHOICES: dict[str, tuple[Any, ...]] = {
    "preset": PENALTY_TABLES, "penalties": PENALTY_TABLES, "loo": LOO_KINDS,
    "fresh_pool": FRESH_POOLS, "lead_rule": LEAD_RULES, "trump_after_trick": TRUMP_AFTER_TRICK,
    "deal_out_of_turn": DEAL_OUT_OF_TURN, "variant": VARIANTS, "pam": PAMS,
    "flush_payers": FLUSH_PAYERS,
}
NULLABLE = ("loo_amount", "loo_limit", "dealer_stands_out_above", "pam", "flush_payers")


def value_for(name: str, current: Any) -> st.SearchStrategy[Any]:
    if name in CHOICES:
        strategy: st.SearchStrategy[Any] = st.sampled_from(CHOICES[name])
    elif isinstance(current, bool):
        strategy = st.booleans()
    else:
        strategy = st.integers(min_value=-2**40, max_value=2**40)
    return strategy | st.none() if name in NULLABLE else strategy


def same(fast: dict[str, Any], slow: dict[str, Any]) -> None:
    assert fast == slow
    assert list(fast) == list(slow)
    assert [type(v) for v in fast.values()] == [type(v) for v in slow.values()]


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), variant=st.none() | st.sampled_from(VARIANTS),
       data=st.data())
def test_to_dict_is_asdict_for_every_preset(preset: str, variant: Any, data: st.DataObject) -> None:
    try:
        base = build_rules(preset, None if variant is None else {"variant": str(variant.value)})
    except InvalidInput:
        assume(False)
        raise
    names = data.draw(st.lists(st.sampled_from(sorted(CHOICES) + [
        "stake", "deal_price", "fresh_deal_price", "ante", "loo_amount", "loo_limit",
        "single_loo", "loo_capped_at_pool", "ace_turned_up_king_leads", "miss_holder_leads",
        "club_law", "force_after_single", "dealer_stands_out_above",
        "last_before_dealer_bound", "pack"]), unique=True, max_size=8))
    rules = replace(base, **{n: data.draw(value_for(n, getattr(base, n))) for n in names})
    same(rules.to_dict(), _to_dict_by_asdict(rules))
    same(rules.json_fields(), _to_dict_by_asdict(rules))
    same(base.to_dict(), _to_dict_by_asdict(base))


def test_to_dict_is_a_new_dict_each_time() -> None:
    rules = build_rules("baxter-wray")
    first = rules.to_dict()
    first["stake"] = -1
    del first["pack"]
    assert rules.to_dict() == _to_dict_by_asdict(rules)
    assert Rules.from_dict(rules.to_dict()) == rules


def read_back_same(data: dict[str, Any]) -> None:
    fast, slow = Rules.from_dict(data), _read_rules(data)
    assert fast == slow
    assert [type(getattr(fast, n)) for n in _FIELD_NAMES] \
        == [type(getattr(slow, n)) for n in _FIELD_NAMES]
    assert fast.to_dict() == slow.to_dict()


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), data=st.data())
def test_from_dict_reads_what_its_definition_reads(preset: str, data: st.DataObject) -> None:
    base = build_rules(preset)
    names = data.draw(st.lists(st.sampled_from(_FIELD_NAMES), unique=True, max_size=6))
    rules = replace(base, **{n: data.draw(value_for(n, getattr(base, n))) for n in names})
    stored = orjson.loads(orjson.dumps(rules.to_dict()))  # as a session's row holds them
    read_back_same(stored)
    read_back_same(stored)  # read twice: the second from the rules read before
    # values of other types than JSON's own, read as they are each time
    odd = data.draw(st.sampled_from(_FIELD_NAMES))
    for value in (1.0, -0.0, [1], {"a": 1}, True, 1, rules.to_dict()[odd] if odd in
                  rules.to_dict() else None):
        read_back_same({**stored, odd: value})


def test_from_dict_tells_true_from_one() -> None:
    stored = orjson.loads(orjson.dumps(build_rules("cassell").to_dict()))
    as_one = Rules.from_dict({**stored, "club_law": 1})
    as_true = Rules.from_dict({**stored, "club_law": True})
    assert type(as_one.club_law) is int and type(as_true.club_law) is bool
    assert Rules.from_dict({**stored, "stake": 3.0}).stake.__class__ is float
