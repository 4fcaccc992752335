"""Marshmallow schemas' common parts: request and response bases, strict fields, names and
cards, money keys, and the rule parameters (every request and response schema builds on them)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ledger.domain import PRESETS, Rules
from ledger.domain import rules as domain_rules
from ledger.domain.limits import PACKS, PLAYER_NAME_MAX
from ledger.domain.vocabulary import Phase


def printable(value: str) -> bool:
    """Names and codes are text a person reads: no control characters (NUL, newlines...)."""
    if not value.isprintable():
        raise ma.ValidationError("must not contain control characters")
    return True


PLAYER: dict[str, Any] = {"validate": [validate.Length(min=1, max=PLAYER_NAME_MAX), printable],
          "metadata": {"description": "A player's name as seated", "example": "C"}}

# A card as ledger.domain.cards.parse_card reads it: a rank (2-10, J, Q, K, A; T for 10 and
# 1 for the ace), then a suit (C, D, H, S or ♣ ♦ ♥ ♠), in either case. The parser also strips
# surrounding spaces; the API does not take them. A test keeps the two in agreement.
CARD_PATTERN = r"^(?:10|[2-9TtJjQqKkAa1])[CDHScdhs♣♦♥♠]$"
CARD: dict[str, Any] = {
    "validate": [validate.Regexp(CARD_PATTERN, error="{input!r} is not a card: a rank "
                                 "(2-10, J, Q, K, A; T for 10, 1 for the ace) then a suit "
                                 "(C, D, H, S or ♣ ♦ ♥ ♠), e.g. QH, 10S, 7♥")],
        "metadata": {"description": "A card: rank (2-10, J, Q, K, A; aliases T for 10 and 1 "
                                    "for the ace) then suit (C, D, H, S or ♣ ♦ ♥ ♠), in either "
                                    "case, e.g. QH, 10S, 7♥, ac", "example": "QH"}}

# Keys that carry an amount of money; a client that sends one is told the rules decide it.
MONEY_FIELDS = frozenset({
    "amount", "amounts", "amount_units", "units", "postings", "posting", "pool", "pool_units",
    "next_pool", "next_pool_units", "loo", "loo_units", "loo_amount", "loo_limit", "single_loo",
    "price", "deal_price", "fresh_deal_price", "stake", "ante", "share", "shares", "fine",
    "payment", "payments", "balance", "balances", "winnings", "money", "value", "carried_units",
})


def money_field_in(data: dict[str, Any], allowed: frozenset[str] = frozenset()) -> str | None:
    """The first key of `data` that is an amount of money (and not an allowed parameter)."""
    for key in data:
        if not isinstance(key, str) or key in allowed:
            continue
        name = key.strip().lower()
        if name in MONEY_FIELDS or name.endswith("_units") or name.endswith("_minor"):
            return key
    return None


class Schema(ma.Schema):
    """The base of the API's schemas: one object per schema, shared, never copied.

    flask-smorest deep-copies a view's documentation in each of its decorators, and with it
    the schema objects the documentation names (a view of a dozen decorators kept a dozen
    copies of its body's and answer's schemas: 2 MB of every worker's memory). Nothing
    changes a schema once made, so `copy.deepcopy` gives the schema itself."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Schema:
        return self


class Strict(Schema):
    class Meta:
        unknown = ma.RAISE


class KnownQuery(Schema):
    """A query string. Its unknown parameters are refused (422 naming the parameter) before
    it is read, as every operation's are (api/http/request_guard.py: the OpenAPI document lists
    what each operation takes): a filter mistyped must not quietly widen a question, nor
    `as_of` be ignored."""

    class Meta:
        unknown = ma.RAISE


class Open(Schema):
    """A response schema that keeps members it does not declare.

    `unknown = EXCLUDE` only shapes the OpenAPI document (apispec then writes no
    `additionalProperties`, so undeclared members are allowed): dumping never drops a member.
    """

    class Meta:
        unknown = ma.EXCLUDE

    @ma.post_dump(pass_original=True)
    def _keep_undeclared(self, data: dict[str, Any], original: Any, **kwargs: Any) -> Any:
        if isinstance(original, dict):
            for key, value in original.items():
                data.setdefault(key, value)
        return data


class Timestamp(fields.Field):
    """An ISO 8601 timestamp, whether the store hands over a datetime or a string."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        if isinstance(value, dt.datetime | dt.date):
            return value.isoformat()
        return value


class StrictBoolean(fields.Boolean):
    """A JSON boolean and nothing else: 1, 0, "true" and "yes" are refused.

    (marshmallow's own Boolean compares by equality, and 1 == True in Python.)
    """

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def strict_int(**kwargs: Any) -> fields.Integer:
    """A JSON integer and nothing else: 52.0, "52" and true are refused."""
    return fields.Integer(strict=True, **kwargs)


def strict_bool(**kwargs: Any) -> fields.Boolean:
    return StrictBoolean(**kwargs)


def distinct(values: list[Any]) -> bool:
    if len(set(values)) != len(values):
        raise ma.ValidationError("player names must be distinct")
    return True


# ---------------------------------------------------------------- rule parameters

# The choices of each rule parameter that is a name (ledger/domain/rules.py).
RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "loo": domain_rules.LOO_KINDS,
    "fresh_pool": domain_rules.FRESH_POOLS,
    "lead_rule": domain_rules.LEAD_RULES,
    "trump_after_trick": domain_rules.TRUMP_AFTER_TRICK,
    "deal_out_of_turn": domain_rules.DEAL_OUT_OF_TURN,
    "penalties": domain_rules.PENALTY_TABLES,
    "variant": domain_rules.VARIANTS,
    "pack": PACKS,
    "pam": domain_rules.PAMS,  # five-card loo only
    "flush_payers": domain_rules.FLUSH_PAYERS,  # five-card loo only
    "flush_precedence": domain_rules.FLUSH_PRECEDENCES,  # five-card loo only
    "exchange_at": domain_rules.EXCHANGE_TIMES,  # Irish and five-card loo only
}
MAX_UNITS = 10**9


def _annotation(name: str) -> str:
    return str(Rules.__dataclass_fields__[name].type).replace(" ", "")


def rule_field(name: str, *, request: bool) -> fields.Field:
    """The field of one rule parameter, typed from the Rules dataclass: a JSON integer for
    `int`, a JSON boolean for `bool`, one of the choices for a name; null where it may be."""
    annotation = _annotation(name)
    # Null where the type allows it, or where a preset leaves it for the rules to fill in
    # (single_loo: null is "the preset's default").
    nullable = annotation.endswith("|None") or any(
        params.get(name, 0) is None for params in PRESETS.values())
    base = annotation.removesuffix("|None")
    options: dict[str, Any] = {"allow_none": nullable}
    if name in RULE_CHOICES:
        options["validate"] = validate.OneOf(list(RULE_CHOICES[name]))
    if base == "int":
        if request and name not in RULE_CHOICES:
            options["validate"] = validate.Range(min=0, max=MAX_UNITS)
        return strict_int(**options) if request else fields.Integer(**options)
    if base == "bool":
        return strict_bool(**options) if request else fields.Boolean(**options)
    if base == "str" or name in RULE_CHOICES:  # a name (the domain types it as a StrEnum)
        if name in RULE_CHOICES:
            options["validate"] = validate.OneOf([str(c) for c in RULE_CHOICES[name]])
        return fields.String(**options)
    raise TypeError(f"rule parameter {name} has a type the API cannot describe: {annotation}")


RuleOverridesIn = Strict.from_dict(
    {name: rule_field(name, request=True) for name in domain_rules.OVERRIDABLE},
    name="RuleOverridesIn")
RuleOverridesIn.__doc__ = ("Single rule parameters a club overrides; each of its type (an "
                           "integer, a boolean or one of the names), null where the "
                           "parameter may be empty. Ranges beyond the type (a stake divisible "
                           "by 3, a loo the kind of loo needs) are checked by the rules.")



RulesSchema = Open.from_dict(
    {"preset": fields.String(required=True, validate=validate.OneOf(list(PRESETS))),
     **{name: rule_field(name, request=False) for name in domain_rules.OVERRIDABLE}},
    name="RulesSchema")
RulesSchema.__doc__ = "The effective rules of a session, whole (see the rule presets)."


class Variants(fields.Dict):
    """A member that is one of a family of schemas told apart by its `type` (the OpenAPI
    component `component`: a oneOf with a discriminator, api/http/openapi.py). Read as a JSON
    object (the route loads it by its type); dumped by `dump`, the family's common schema,
    when given, else as it is."""

    def __init__(self, component: str, dump: type[ma.Schema] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.component = component
        self._dump = dump() if dump is not None else None

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        if value is None or self._dump is None:
            return value
        return self._dump.dump(value)


PHASES = [str(phase) for phase in Phase]


def players_to(values: fields.Field, **kwargs: Any) -> fields.Dict:
    """{player: value}"""
    return fields.Dict(keys=fields.String(), values=values, **kwargs)


def ref(component: str) -> dict[str, str]:
    """A reference to a component of the OpenAPI document's schemas."""
    return {"$ref": f"#/components/schemas/{component}"}
