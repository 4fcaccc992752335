"""Money rules: trick shares, loo amounts and equal divisions, all in integer units."""

from __future__ import annotations

from .errors import InvariantBroken
from .limits import TRICKS_PER_HAND
from .rules import Rules
from .vocabulary import LooKind


def trick_shares(pool_units: int, tricks: int = TRICKS_PER_HAND) -> list[int]:
    """Each trick earns an equal part; the remainder goes to the first tricks.

    Baxter-Wray p. 22 and docs/rules.md §5.7: when the pool is not divisible by three "the winners
    of the first and second tricks have the preference": 10 pays 4/3/3, 11 pays 4/4/3.
    """
    base, rest = divmod(pool_units, tricks)
    shares = [base + (1 if i < rest else 0) for i in range(tricks)]
    if sum(shares) != pool_units:
        raise InvariantBroken("trick shares do not add up to the pool")
    return shares


def loo_units(rules: Rules, pool_units: int) -> int:
    """The loo for a deal whose pool (when play began) held `pool_units` (docs/rules.md §3)."""
    if rules.loo == LooKind.LIMITED:
        assert rules.loo_amount is not None
        # Cassell, "Loo": "he is never looed for more than the pool".
        return min(rules.loo_amount, pool_units) if rules.loo_capped_at_pool else rules.loo_amount
    if rules.loo == LooKind.UNLIMITED:
        # Britannica: "each player looed has to put in the amount there was in the pool".
        return pool_units
    if rules.loo == LooKind.MIXED:
        # Britannica: "If there is less than the limit in the pool the payment is regulated as
        # before; but if there is more than the limit, the loo is the fixed sum agreed on."
        assert rules.loo_limit is not None
        return min(pool_units, rules.loo_limit)
    # Cassell, "Unlimited Loo": "The players also who are looed have to pay double the price of
    # the deal into the pool."
    return 2 * rules.deal_price


def loo_depends_on_pool(rules: Rules) -> bool:
    """Whether the loo of a deal depends on what its pool held (docs/rules.md §4)."""
    return rules.loo in (LooKind.UNLIMITED, LooKind.MIXED) or (
        rules.loo == LooKind.LIMITED and rules.loo_capped_at_pool)


def equal_division(amount_units: int, players: list[str]) -> list[tuple[str, int]]:
    """Divide equally; the remainder one unit each to players in the given (seat) order.

    Baxter-Wray allows ending "by dividing the pool equally among the players" (docs/rules.md §8).
    """
    if not players:
        raise InvariantBroken("nobody to divide among")
    base, rest = divmod(amount_units, len(players))
    return [(p, base + (1 if i < rest else 0)) for i, p in enumerate(players)]
