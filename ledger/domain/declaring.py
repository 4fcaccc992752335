"""Declaring (docs/rules.md §5.4-5.5): in turn from the dealer's left, each player dealt in plays,
throws up, takes the miss, or (the dealer only) plays the miss for the pool.

`legal_declarations` is the one place that says which choices are open, and `_refusal` the one
place that says why a choice is not.
"""

from __future__ import annotations

from . import commands as cmd
from . import events as ev
from .errors import InvalidInput, OutOfTurn
from .guards import known_player, open_deal
from .legality import before_play
from .state import DealState, SessionState
from .vocabulary import Declaration, Phase

DECLARATIONS = tuple(Declaration)


def next_declarer(deal: DealState) -> str | None:
    for p in deal.dealt:
        if p not in deal.declarations:
            return p
    return None


def legal_declarations(s: SessionState, deal: DealState, player: str) -> list[Declaration]:
    """The choices open to `player` at his turn to declare (docs/rules.md §5.4-5.5)."""
    order = deal.dealt
    earlier = order[:order.index(player)]
    miss_open = deal.miss and Declaration.TAKE_MISS not in deal.declarations.values()
    choices = [Declaration.PLAY, Declaration.THROW_UP] + (
        [Declaration.TAKE_MISS] if miss_open else [])
    if player == order[-1] and miss_open:
        own = [p for p in earlier if deal.declarations.get(p) == Declaration.PLAY]
        if len(own) == 1:
            # Baxter-Wray p. 19: "he must play the miss for the benefit of the pool";
            # Britannica: he declares before seeing miss that he does not play for himself.
            choices = [Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL]
    if player == order[-1] and not deal.miss and not deal.forced and not s.rules.has_miss:
        own = [p for p in earlier if deal.declarations.get(p) == Declaration.PLAY]
        if len(own) == 1:
            # docs/rules.md §11.36: Irish and five-card loo have no miss to play for the pool;
            # the dealer stands against the one player who stood (Baxter-Wray p. 20 without a
            # miss: the pool is not given up to a lone player without a fight).
            choices = [Declaration.PLAY]
    if s.rules.last_before_dealer_bound and len(order) >= 2 and player == order[-2]:
        # Cassell: "When only two players stand, the last before the dealer is bound to play
        # either his own hand or dumby".
        standing = [p for p in earlier
                    if deal.declarations.get(p) in (Declaration.PLAY, Declaration.TAKE_MISS)]
        if len(standing) <= 1:
            choices = [x for x in choices if x != Declaration.THROW_UP]
    return choices


def declare(s: SessionState, c: cmd.Declare) -> list[ev.Event]:
    player = known_player(s, c.player)
    deal = open_deal(s, "declarations")
    if deal.phase != Phase.DECLARING:
        if deal.forced and before_play(deal):
            raise OutOfTurn(f"everyone must stand this deal ({deal.forced}); nobody declares",
                            rule="forced-stand")
        raise OutOfTurn(f"the declarations are over (the deal is {deal.phase})",
                        rule="declarations-open")
    if player not in deal.dealt:
        raise OutOfTurn(f"{player} was not dealt in this deal", rule="dealt-in")
    if player in deal.declarations:
        raise OutOfTurn(f"{player} has already declared ({deal.declarations[player]}); no "
                        "declaration is ever changed", rule="one-declaration")
    turn = next_declarer(deal)
    if player != turn:
        raise OutOfTurn(f"it is {turn}'s turn to declare, not {player}'s", rule="declare-in-turn")
    if c.declaration not in DECLARATIONS:
        raise InvalidInput(f"declaration must be one of {', '.join(DECLARATIONS)}",
                           rule="declaration", field="declaration")
    declaration = Declaration(c.declaration)
    choices = legal_declarations(s, deal, player)
    if declaration not in choices:
        rule, message = _refusal(deal, declaration, choices)
        raise OutOfTurn(message, rule=rule, field="declaration", choices=choices)
    return [ev.DeclarationMade(deal_no=deal.deal_no, player=player, declaration=declaration)]


def _refusal(deal: DealState, declaration: Declaration,
             choices: list[Declaration]) -> tuple[str, str]:
    """The rule that refuses `declaration` here, and why, naming the choices open."""
    open_ = f"; the choices are {', '.join(choices)}"
    if declaration == Declaration.TAKE_MISS:
        if not deal.miss:
            return "no-miss", "there is no miss this deal" + open_
        return "miss-taken", "the miss is already taken" + open_
    if declaration == Declaration.PLAY_MISS_FOR_POOL:
        return "miss-for-pool", ("only the dealer, when exactly one player before him stood on "
                                 "his own cards and the miss is untaken, may play the miss for "
                                 "the pool") + open_
    return "must-stand", ("this player may not throw up here (the dealer when one player stood "
                          "alone; Cassell: the last before the dealer)") + open_
