"""Rule presets (docs/rules.md §3) and the effective rules of a session.

A session is opened with a preset and any overrides; the effective rules are stored whole in
its first event, so a later change to a preset never changes an existing session.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, cast

from .errors import InvalidInput
from .limits import CARDS_PER_HAND, FIVE_CARDS, MAX_UNITS, PACK_32, PACK_52, PACKS
from .vocabulary import (
    DealOutOfTurn,
    ExchangeAt,
    FlushPayers,
    FlushPrecedence,
    FreshPool,
    LeadRule,
    LooKind,
    Pam,
    Preset,
    TrumpAfterTrick,
    Variant,
    read_fields,
)

LOO_KINDS = tuple(LooKind)
FRESH_POOLS = tuple(FreshPool)
LEAD_RULES = tuple(LeadRule)
TRUMP_AFTER_TRICK = tuple(TrumpAfterTrick)
PENALTY_TABLES = tuple(Preset)
VARIANTS = tuple(Variant)
PAMS = tuple(Pam)
FLUSH_PAYERS = tuple(FlushPayers)
FLUSH_PRECEDENCES = tuple(FlushPrecedence)
EXCHANGE_TIMES = tuple(ExchangeAt)
# The parameters of five-card loo only, and of the variants with exchanges (Irish and five-card
# loo) only; null, and left out of the stored JSON, otherwise (so a three-card session's rules,
# and the rules of a session opened before a parameter existed, read exactly as before).
FIVE_CARD_ONLY = ("pam", "flush_payers", "flush_precedence")
EXCHANGE_ONLY = ("exchange_at",)
LEFT_OUT_WHEN_NULL = FIVE_CARD_ONLY + EXCHANGE_ONLY
DEAL_OUT_OF_TURN = tuple(DealOutOfTurn)


@dataclass(frozen=True)
class Rules:
    """Every parameter a session is opened with; amounts are integer units."""

    preset: Preset
    stake: int
    deal_price: int
    fresh_deal_price: int
    ante: int
    loo: LooKind
    loo_amount: int | None
    loo_limit: int | None
    single_loo: int
    loo_capped_at_pool: bool
    fresh_pool: FreshPool
    lead_rule: LeadRule
    trump_after_trick: TrumpAfterTrick
    ace_turned_up_king_leads: bool
    miss_holder_leads: bool
    club_law: bool
    force_after_single: bool
    dealer_stands_out_above: int | None
    last_before_dealer_bound: bool
    deal_out_of_turn: DealOutOfTurn
    penalties: Preset
    variant: Variant
    pack: int
    pam: Pam | None = None  # five-card loo: the knave that is Pam (docs/rules.md §9.3)
    flush_payers: FlushPayers | None = None  # five-card loo: who pays a flush a loo
    # five-card loo: which of two flushes wins (docs/rules.md §9.3)
    flush_precedence: FlushPrecedence | None = None
    # Irish and five-card loo: when a standing player exchanges (docs/rules.md §11.40)
    exchange_at: ExchangeAt | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields in their order, the variants' ones left out when null (each a number,
        a bool, None or a vocabulary member: nothing to copy)."""
        data = {name: getattr(self, name) for name in _FIELD_NAMES}
        for name in LEFT_OUT_WHEN_NULL:
            if data[name] is None:
                del data[name]
        return data

    def json_fields(self) -> dict[str, Any]:
        """to_dict(), for a fast JSON writer."""
        return self.to_dict()

    @property
    def cards_each(self) -> int:
        """Cards dealt to each hand, and tricks in a hand (docs/rules.md §9.3)."""
        return FIVE_CARDS if self.variant == Variant.FIVE_CARD else CARDS_PER_HAND

    @property
    def has_miss(self) -> bool:
        """Irish and five-card loo deal no miss (Baxter-Wray pp. 27-28; Britannica)."""
        return self.variant == Variant.THREE_CARD

    @property
    def exchanges(self) -> bool:
        """Irish and five-card loo: a standing player may exchange cards from the pack once."""
        return self.variant != Variant.THREE_CARD

    @property
    def flush_order(self) -> FlushPrecedence:
        """The flush precedence in force. A five-card session opened before
        `flush_precedence` existed stored none: it keeps the order it was played under,
        Baxter-Wray's (docs/rules.md §9.3)."""
        return self.flush_precedence or FlushPrecedence.TRUMPS_PAM_ELDER

    @property
    def exchange_turn(self) -> ExchangeAt:
        """When exchanges are made. A session opened before `exchange_at` existed stored none:
        it keeps the exchange it was played under, open until the first card (docs/rules.md
        §11.40)."""
        return self.exchange_at or ExchangeAt.BEFORE_PLAY

    @property
    def turn_up_single(self) -> bool:
        """Whether a fresh pool under `fresh_pool: turn-up` is the turn-up single: at the
        three-card game only (docs/rules.md §11.34)."""
        return self.fresh_pool == FreshPool.TURN_UP and self.variant == Variant.THREE_CARD

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """The rules `data` (as to_dict() writes them) reads back to."""
        return cls(**read_fields(cls, data))


_BASE: dict[str, Any] = dict(
    stake=3, deal_price=3, fresh_deal_price=3, ante=0, loo=LooKind.LIMITED, loo_amount=6,
    loo_limit=None, single_loo=None, loo_capped_at_pool=False, fresh_pool=FreshPool.ANTES,
    lead_rule=LeadRule.HIGHEST_OF_TWO, trump_after_trick=TrumpAfterTrick.HIGHER_OF_TWO,
    ace_turned_up_king_leads=True, miss_holder_leads=False, club_law=False,
    force_after_single=False, dealer_stands_out_above=None, last_before_dealer_bound=False,
    deal_out_of_turn=DealOutOfTurn.REFUSE, variant=Variant.THREE_CARD, pack=PACK_52,
)

# docs/rules.md §3, one column per source.
PRESETS: dict[str, dict[str, Any]] = {
    # Baxter-Wray, Round Games with Cards, LOO pp. 16-30: "three counters ... for the deal,
    # and six for a loo"; a fresh pool is the turn-up single (p. 18).
    Preset.BAXTER_WRAY: dict(_BASE, fresh_pool=FreshPool.TURN_UP,
                             penalties=Preset.BAXTER_WRAY),
    # Britannica 9th ed., laws of the Blenheim Club: "the dealer contributing double",
    # "eighteen-penny loo ... limited to half a guinea" (7 x stake), "If the leader has two
    # trumps he must lead one of them".
    Preset.BLENHEIM: dict(_BASE, fresh_deal_price=6, ante=3, loo=LooKind.MIXED,
                          loo_amount=None, loo_limit=21, lead_rule=LeadRule.ONE_OF_TWO,
                          trump_after_trick=TrumpAfterTrick.BY_LEAD_RULES,
                          deal_out_of_turn=DealOutOfTurn.STANDS, penalties=Preset.BLENHEIM),
    # Enquire Within §97-98: "a penny for the deal and three pence for the loo".
    Preset.ENQUIRE_WITHIN: dict(_BASE, deal_price=1, fresh_deal_price=1, loo_amount=3,
                                trump_after_trick=TrumpAfterTrick.NONE,
                                ace_turned_up_king_leads=False,
                                penalties=Preset.ENQUIRE_WITHIN),
    # Cassell, "Loo": "he is never looed for more than the pool"; "plays his highest trump,
    # or, if he have no trumps, his highest card"; "When only two players stand, the last
    # before the dealer is bound to play either his own hand or dumby".
    Preset.CASSELL: dict(_BASE, ante=3, loo_amount=3, loo_capped_at_pool=True,
                         lead_rule=LeadRule.HIGHEST_CARD,
                         trump_after_trick=TrumpAfterTrick.HIGHEST,
                         ace_turned_up_king_leads=False, last_before_dealer_bound=True,
                         penalties=Preset.CASSELL),
}
DEFAULT_PRESET = Preset.BAXTER_WRAY

# docs/rules.md §11.40: when a standing player exchanges, at Irish and five-card loo alike.
_EXCHANGE_AT: dict[str, ExchangeAt] = {
    # Baxter-Wray p. 27: "the player, whose turn it is to declare, places the cards ..."
    Preset.BAXTER_WRAY: ExchangeAt.TURN_TO_DECLARE,
    # Britannica: "allowing declared players to exchange": the later exchange is kept
    Preset.BLENHEIM: ExchangeAt.BEFORE_PLAY,
    # Decision: Enquire Within §100 ii, "Each player can change all or any of the five cards
    # dealt, or throw up his hand": the change is the choice he makes at his declaration.
    Preset.ENQUIRE_WITHIN: ExchangeAt.TURN_TO_DECLARE,
    # Decision: Cassell has neither variant; Baxter-Wray's, as for the flush (§11.35).
    Preset.CASSELL: ExchangeAt.TURN_TO_DECLARE,
}

# docs/rules.md §9.3: five-card loo's amounts, preset by preset. Britannica: "a single stake
# should be divisible by five"; so each preset's stake of 3 becomes 5, and the amounts that are
# one stake (a deal, an ante, a loo of one stake) become 5, two stakes 10, seven stakes 35.
# Enquire Within §100 i-ii: "the dealer (having paid his own stake into the pool)" and "if every
# one at dealing stakes half-a-crown, the tricks are entitled to sixpence a-piece, and whoever
# is looed must put down half-a-crown": the pool is the dealer's stake alone (no ante; five
# sixpences are one half-crown), and the loo one stake (§11.35).
_FIVE_CARD: dict[str, dict[str, Any]] = {
    Preset.BAXTER_WRAY: dict(stake=5, deal_price=5, fresh_deal_price=5, loo_amount=10,
                             pam=Pam.JACK_OF_CLUBS,
                             flush_payers=FlushPayers.ALL_BUT_BEATEN_FLUSHES,
                             flush_precedence=FlushPrecedence.TRUMPS_PAM_ELDER),
    # Britannica: "A trump flush takes precedence of flushes in other suits ... As between two
    # flushes which do not take precedence, the elder hand wins".
    Preset.BLENHEIM: dict(stake=5, deal_price=5, fresh_deal_price=10, ante=5, loo_limit=35,
                          pam=Pam.JACK_OF_CLUBS,
                          flush_payers=FlushPayers.ALL_BUT_PAM_AND_FLUSHES,
                          flush_precedence=FlushPrecedence.TRUMPS_ELDER),
    # Enquire Within §100 ii: a flush "yields only to a superior flush, or the elder hand";
    # decision: "superior" as Baxter-Wray, whose five-card loo follows the old books, spells it
    # out (trumps, then Pam).
    Preset.ENQUIRE_WITHIN: dict(stake=5, deal_price=5, fresh_deal_price=5, loo_amount=5,
                                pam=Pam.JACK_OF_CLUBS,
                                flush_payers=FlushPayers.STOOD_BUT_PAM_AND_FLUSHES,
                                flush_precedence=FlushPrecedence.TRUMPS_PAM_ELDER),
    # Cassell has no five-card loo: his amounts scaled, Baxter-Wray's flush (§11.35).
    Preset.CASSELL: dict(stake=5, deal_price=5, fresh_deal_price=5, ante=5, loo_amount=5,
                         pam=Pam.JACK_OF_CLUBS,
                         flush_payers=FlushPayers.ALL_BUT_BEATEN_FLUSHES,
                         flush_precedence=FlushPrecedence.TRUMPS_PAM_ELDER),
}
VARIANT_DEFAULTS: dict[str, dict[str, dict[str, Any]]] = {
    Variant.THREE_CARD: {},
    # the preset's amounts; Baxter-Wray p. 28: "Pam is unknown"
    Variant.IRISH: {name: dict(exchange_at=at) for name, at in _EXCHANGE_AT.items()},
    Variant.FIVE_CARD: {name: dict(values, exchange_at=_EXCHANGE_AT[name])
                        for name, values in _FIVE_CARD.items()},
}
OVERRIDABLE = tuple(f.name for f in fields(Rules) if f.name != "preset")
_FIELD_NAMES = tuple(f.name for f in fields(Rules))  # in their order


def _default_single_loo(params: dict[str, Any]) -> int:
    """Baxter-Wray p. 18: "half the amount of the ordinary loo, or the same amount as for a deal".

    Half the loo when the loo is fixed and even; otherwise the deal price, so that nothing is
    ever rounded.
    """
    if params["loo"] == LooKind.LIMITED and _is_int(params["loo_amount"]) \
            and params["loo_amount"] % 2 == 0:
        return cast(int, params["loo_amount"] // 2)
    # validated with the rest: a deal price that is not a whole number is refused there
    return cast(int, params["deal_price"])


def build_rules(preset: str | None = None, overrides: dict[str, Any] | None = None) -> Rules:
    """The effective rules for a preset with a club's overrides, or a clear refusal."""
    name = DEFAULT_PRESET if preset is None else preset
    if not isinstance(name, str) or name not in PRESETS:
        raise InvalidInput(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}",
                           rule="preset", field="preset")
    params = dict(PRESETS[name])
    if overrides is not None and not isinstance(overrides, dict):
        raise InvalidInput("rules must be an object of parameter overrides", rule="rule-parameter",
                           field="rules")
    variant = (overrides or {}).get("variant", params["variant"])
    if isinstance(variant, str) and variant in VARIANT_DEFAULTS:
        # the variant's own amounts and parameters for this preset, then the club's overrides
        params.update(VARIANT_DEFAULTS[variant].get(name, {}))
    for key, value in (overrides or {}).items():
        if key not in OVERRIDABLE:
            raise InvalidInput(f"unknown rule parameter {key!r}", rule="rule-parameter",
                               field=f"rules.{key}")
        params[key] = value
    if params.get("single_loo") is None:
        params["single_loo"] = _default_single_loo(params)
    rules = Rules(preset=Preset(name), **params)
    validate_rules(rules)
    return Rules.from_dict(rules.to_dict())  # the strings given, as the words of the rules


def _require(cond: bool, message: str, field: str) -> None:
    if not cond:
        raise InvalidInput(message, rule="rule-parameter", field=f"rules.{field}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_rules(r: Rules) -> None:
    """Every parameter is of its type and range; amounts are non-negative integers."""
    for name in ("stake", "deal_price", "fresh_deal_price", "ante", "single_loo"):
        value = getattr(r, name)
        _require(_is_int(value) and 0 <= value <= MAX_UNITS,
                 f"{name} must be a whole number of units from 0 to 10^9", name)
    for name in ("loo_capped_at_pool", "ace_turned_up_king_leads", "miss_holder_leads",
                 "club_law", "force_after_single", "last_before_dealer_bound"):
        _require(isinstance(getattr(r, name), bool), f"{name} must be true or false", name)
    _require(r.variant in VARIANTS, f"variant must be one of {', '.join(VARIANTS)}", "variant")
    tricks = r.cards_each
    _require(r.stake > 0 and r.stake % tricks == 0,
             f"stake must be a positive number of units divisible by {tricks} (a "
             f"{'fifth' if tricks == 5 else 'third'} per trick"
             f"{' at five-card loo' if tricks == 5 else ''})", "stake")
    if r.variant == Variant.FIVE_CARD:
        _require(r.pam in PAMS, f"pam must be one of {', '.join(PAMS)} at five-card loo", "pam")
        _require(r.flush_payers in FLUSH_PAYERS,
                 f"flush_payers must be one of {', '.join(FLUSH_PAYERS)} at five-card loo",
                 "flush_payers")
        _require(r.flush_precedence in FLUSH_PRECEDENCES,
                 f"flush_precedence must be one of {', '.join(FLUSH_PRECEDENCES)} at five-card "
                 "loo", "flush_precedence")
    else:
        # Baxter-Wray p. 28: at Irish loo "Pam is unknown"; flushes are five-card loo's
        for name in FIVE_CARD_ONLY:
            _require(getattr(r, name) is None,
                     f"{name} belongs to five-card loo; leave it out at {r.variant}", name)
    if r.variant == Variant.THREE_CARD:
        # the miss takes the place of exchanges at three-card loo
        _require(r.exchange_at is None,
                 "exchange_at belongs to Irish and five-card loo; leave it out at three-card",
                 "exchange_at")
    else:
        _require(r.exchange_at in EXCHANGE_TIMES,
                 f"exchange_at must be one of {', '.join(EXCHANGE_TIMES)} at {r.variant} loo",
                 "exchange_at")
    _require(r.deal_price > 0, "deal_price must be positive", "deal_price")
    _require(r.fresh_deal_price > 0, "fresh_deal_price must be positive", "fresh_deal_price")
    _require(r.loo in LOO_KINDS, f"loo must be one of {', '.join(LOO_KINDS)}", "loo")
    if r.loo == LooKind.LIMITED:
        _require(_is_int(r.loo_amount) and 0 < r.loo_amount <= MAX_UNITS,  # type: ignore[operator]
                 "loo_amount (a positive whole number of units) is needed with a limited loo",
                 "loo_amount")
    if r.loo == LooKind.MIXED:
        _require(_is_int(r.loo_limit) and 0 < r.loo_limit <= MAX_UNITS,  # type: ignore[operator]
                 "loo_limit (a positive whole number of units) is needed with a mixed loo",
                 "loo_limit")
    _require(r.fresh_pool in FRESH_POOLS, f"fresh_pool must be one of {', '.join(FRESH_POOLS)}",
             "fresh_pool")
    _require(r.lead_rule in LEAD_RULES, f"lead_rule must be one of {', '.join(LEAD_RULES)}",
             "lead_rule")
    _require(r.trump_after_trick in TRUMP_AFTER_TRICK,
             f"trump_after_trick must be one of {', '.join(TRUMP_AFTER_TRICK)}",
             "trump_after_trick")
    _require(r.dealer_stands_out_above is None
             or (_is_int(r.dealer_stands_out_above) and r.dealer_stands_out_above >= 2),
             "dealer_stands_out_above must be empty or a whole number of at least 2",
             "dealer_stands_out_above")
    _require(r.deal_out_of_turn in DEAL_OUT_OF_TURN,
             f"deal_out_of_turn must be one of {', '.join(DEAL_OUT_OF_TURN)}", "deal_out_of_turn")
    _require(r.penalties in PENALTY_TABLES,
             f"penalties must be one of {', '.join(PENALTY_TABLES)}", "penalties")
    _require(_is_int(r.pack) and r.pack in PACKS, f"pack must be {PACK_52} or {PACK_32}", "pack")
    _require(not (r.force_after_single and r.fresh_pool == FreshPool.TURN_UP),
             "force_after_single needs fresh_pool antes: with the turn-up single a fresh pool "
             "is not played as a hand, so nobody can be forced to stand in it",
             "force_after_single")
