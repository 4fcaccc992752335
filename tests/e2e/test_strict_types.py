"""Integers and booleans are strict in every request schema: 1 is not true, 52.0 and "52" are
not 52. Each is refused with a 422 naming the field, and nothing is appended or opened."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
import pytest

from api.schemas import (
    EVENT_SCHEMAS,
    EventBatchIn,
    RuleOverridesIn,
    SessionOpenSchema,
    StrictBoolean,
)
from ledger.domain.rules import OVERRIDABLE

from .conftest import PLAYERS, Table, assert_problem

# request schemas, whatever the database
pytestmark = pytest.mark.backends("sqlite")

NOT_INTEGERS = [52.0, 3.5, "52", True, False, [52], {"n": 52}]
NOT_BOOLEANS = [1, 0, 1.0, "true", "false", "yes", None, [True]]


def _typed_fields(schema: type[ma.Schema], prefix: str = "") -> dict[str, str]:
    """{dotted field: "int" | "bool"} for every integer and boolean field of `schema`."""
    out = {}
    for name, field in schema._declared_fields.items():
        key = prefix + (field.data_key or name)
        if isinstance(field, ma.fields.Nested):
            out.update(_typed_fields(field.nested, f"{key}."))  # type: ignore[arg-type]
        elif isinstance(field, ma.fields.Integer):
            assert field.strict, f"{key} is an integer field that takes 52.0 or \"52\""
            out[key] = "int"
        elif isinstance(field, ma.fields.Boolean):
            assert isinstance(field, StrictBoolean), f"{key} is a boolean field that takes 1"
            out[key] = "bool"
    return out


SESSION_FIELDS = _typed_fields(SessionOpenSchema)
BATCH_FIELDS = _typed_fields(EventBatchIn)
EVENT_FIELDS = {name: _typed_fields(schema) for name, schema in EVENT_SCHEMAS.items()}


def test_the_typed_fields_are_every_integer_and_boolean_a_client_sends():
    # A new integer or boolean field appears here, and so in the tests below.
    assert SESSION_FIELDS == {"money_per_unit_minor": "int",
                              **{f"rules.{k}": v for k, v in
                                 _typed_fields(RuleOverridesIn).items()}}
    assert {k for k in SESSION_FIELDS if k.startswith("rules.")} == {
        f"rules.{name}" for name in ("stake", "deal_price", "fresh_deal_price", "ante",
                                     "loo_amount", "loo_limit", "single_loo",
                                     "loo_capped_at_pool", "ace_turned_up_king_leads",
                                     "miss_holder_leads", "club_law", "force_after_single",
                                     "dealer_stands_out_above", "last_before_dealer_bound",
                                     "pack")}
    assert set(OVERRIDABLE) >= {k.removeprefix("rules.") for k in SESSION_FIELDS} - {
        "money_per_unit_minor"}
    assert BATCH_FIELDS == {"expected_version": "int"}
    assert {t: f for t, f in EVENT_FIELDS.items() if f} == {"PenaltyImposed": {"redeal": "bool"},
                                                            "CardsExchanged": {"count": "int"},
                                                            "PlayerJoined": {"guest": "bool"}}


def _bad_values(kind: str) -> list[Any]:
    return NOT_INTEGERS if kind == "int" else NOT_BOOLEANS


def _nested(dotted: str, value: Any) -> dict[str, Any]:
    head, _, rest = dotted.partition(".")
    return {head: _nested(rest, value) if rest else value}


@pytest.mark.parametrize("field", sorted(SESSION_FIELDS))
def test_opening_a_session_refuses_a_value_of_another_type_naming_the_field(client, field):
    for value in _bad_values(SESSION_FIELDS[field]):
        body = {"players": PLAYERS, "currency": "GBP", "money_per_unit_minor": 5,
                **_nested(field, value)}
        response = client.post("/sessions", json=body)
        problem = assert_problem(response, 422)
        assert problem["field"] == field, (value, problem)
        assert problem["rule"] == ("rule-parameter" if field.startswith("rules.") else "schema")


def test_a_float_pack_is_refused_naming_rules_pack(client):
    for pack in (52.0, 32.0, "52"):
        problem = assert_problem(client.post("/sessions", json={
            "players": PLAYERS, "rules": {"pack": pack}}), 422, rule="rule-parameter",
            mentions=("rules.pack",))
        assert problem["field"] == "rules.pack"
    opened = client.post("/sessions", json={"players": PLAYERS, "rules": {"pack": 32}})
    assert opened.status_code == 201
    assert opened.get_json()["session"]["rules"]["pack"] == 32


def test_a_boolean_rule_parameter_must_be_a_json_boolean(client):
    for value in NOT_BOOLEANS:
        problem = assert_problem(client.post("/sessions", json={
            "players": PLAYERS, "rules": {"club_law": value}}), 422, rule="rule-parameter")
        assert problem["field"] == "rules.club_law", value
    opened = client.post("/sessions", json={"players": PLAYERS, "rules": {"club_law": True}})
    assert opened.get_json()["session"]["rules"]["club_law"] is True


def test_the_expected_version_of_a_batch_must_be_a_json_integer(declaring: Table):
    version = declaring.version()
    for value in [float(version), str(version), True, [version]]:
        problem = declaring.refused(
            {"events": [{"type": "DeclarationMade", "player": "C", "declaration": "play"}],
             "expected_version": value}, 422, rule="schema")
        assert problem["field"] == "expected_version", value


def test_redeal_must_be_a_json_boolean(declaring: Table):
    for value in NOT_BOOLEANS:
        problem = declaring.refused({"type": "PenaltyImposed", "player": "C",
                                     "offence": "misdeal", "redeal": value}, 422,
                                    rule="schema", mentions=("redeal",))
        assert problem["field"] == "redeal", value
    problem = declaring.refused({"events": [{"type": "PenaltyImposed", "player": "C",
                                             "offence": "misdeal", "redeal": 1}]}, 422,
                                rule="schema")
    assert problem["field"] == "events.0.redeal"


def test_a_latecomers_guest_must_be_a_json_boolean(table: Table):
    version = table.version()
    for value in NOT_BOOLEANS:
        problem = table.refused({"type": "PlayerJoined", "player": "F", "after": "A",
                                 "guest": value}, 422, rule="schema", mentions=("guest",))
        assert problem["field"] == "guest", value
    assert table.version() == version


def test_the_count_of_an_exchange_must_be_a_json_integer(declaring: Table):
    for value in NOT_INTEGERS:
        problem = declaring.refused({"type": "CardsExchanged", "player": "C", "count": value},
                                    422, rule="schema", mentions=("count",))
        assert problem["field"] == "count", value


def test_query_integers_refuse_fractions(table: Table):
    for query in ("limit=5.0", "after=0.0", "limit=1e2", "limit=true"):
        response = table.client.get(f"{table.url}/events?{query}")
        problem = assert_problem(response, 422)
        assert problem["field"] == query.split("=")[0], query
    assert_problem(table.client.get(f"{table.url}/deals/1.0"), 404)
