"""Penalties (docs/rules.md §7): charging an offence by the preset's table, and the replays.

An offence is charged when the table logs it (`ImposePenalty`) or, for a breach the cards
prove, by the ledger itself (playing.breaches_proven). Offences in play cost the offender one
penalty for the deal; a Blenheim fine is left to be settled with the deal (law 9).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import commands as cmd
from . import events as ev
from .errors import InvalidInput, LedgerError, OutOfTurn
from .events import NEXT_POOL, posting
from .guards import known_player, open_deal
from .legality import before_play, in_play, play_begun
from .money import loo_depends_on_pool, loo_units
from .offence_tables import MISS, TABLES, Offence, offences_for
from .records import PenaltyRecord, Posting
from .rules import Rules
from .state import DealState, SessionState
from .vocabulary import (
    Declaration,
    Destination,
    Forfeits,
    PenaltyAmount,
    PenaltyKind,
    Phase,
    Reason,
    RedealRule,
    ReplayRule,
    ReplayStatus,
    Stage,
)

# A penalty loo owed to the next pool whose amount is fixed when the deal is settled.
DEFERRED_LOO = Destination.NEXT_POOL_AT_SETTLEMENT


# ---------------------------------------------------------------- the penalties of a hand


def hand_penalties(deal: DealState) -> list[PenaltyRecord]:
    """The penalties of the hand now dealt (a redeal starts a new hand)."""
    return [p for p in deal.penalties if p.get("hand", 0) == deal.redeals]


def in_play_penalties(deal: DealState) -> list[PenaltyRecord]:
    """The penalties for offences in play of the hand now dealt."""
    return [p for p in hand_penalties(deal) if p["stage"] == Stage.IN_PLAY]


def offenders_in_play(deal: DealState) -> set[str]:
    """Who offended in play in this hand: never looed again for it, and under Blenheim law 11
    the one player who may not ask for the replay."""
    return {p["player"] for p in in_play_penalties(deal)}


def forfeited(deal: DealState) -> set[str]:
    """Whose winnings in this hand are forfeited: they stay in the pool."""
    return {p["player"] for p in hand_penalties(deal) if p["forfeits_winnings"]}


def penalty_base(s: SessionState, deal: DealState) -> int:
    """docs/rules.md §11.3: the pool as it stood when play began (or as it stands, before play)."""
    return deal.pool_at_play_units if deal.pool_at_play_units is not None else s.pool_units()


def blenheim_fine(s: SessionState, deal: DealState, pen: PenaltyRecord) -> Posting:
    """Blenheim law 9: "forfeit four times the amount of a single"; note 3: to the next pool."""
    return posting(pen["player"], NEXT_POOL, 4 * s.rules.stake, Reason.PENALTY,
                   offence=pen["offence"], deal_no=deal.deal_no, loo=False)


def fines_left_to_deal(s: SessionState, deal: DealState) -> list[Posting]:
    """The Blenheim fines of this hand left to be settled with the deal, charged as fines: when
    no trick can be made (a redeal voids the hand, or the pool is taken without play) an
    offender cannot be "looed instead"."""
    return [blenheim_fine(s, deal, pen) for pen in hand_penalties(deal)
            if pen["destination"] == Destination.SETTLED_WITH_DEAL]


# ---------------------------------------------------------------- charging an offence


def offence_named(s: SessionState, name: object) -> Offence:
    table = TABLES[s.rules.penalties]
    possible = offences_for(s.rules)
    if not isinstance(name, str) or name not in table:
        raise InvalidInput(f"{name!r} is not an offence in the {s.rules.penalties} laws; they "
                           f"list {', '.join(possible)}", rule="offence", field="offence")
    spec = table[name]
    if name not in possible:
        # docs/rules.md §9.2, §9.3: the game has no miss, or no Pam, to offend with
        if spec.needs == MISS:
            raise InvalidInput(
                f"there is no miss at {s.rules.variant} loo (Baxter-Wray p. 27: \"There is no "
                f"miss\"; p. 28), so {name} is no offence here; the {s.rules.penalties} laws "
                f"list {', '.join(possible)}", rule="no-miss", field="offence")
        raise InvalidInput(f"{name} is an offence at five-card loo only: {s.rules.variant} loo "
                           f"has no Pam; the {s.rules.penalties} laws list "
                           f"{', '.join(possible)}", rule="no-pam", field="offence")
    return spec


def impose_penalty(s: SessionState, c: cmd.ImposePenalty) -> list[ev.Event]:
    player, deal, spec = check_penalty(s, c.player, c.offence, c.redeal)
    return [penalty_event(s, deal, player, c.offence, spec, redeal_asked=c.redeal)]


def check_penalty(s: SessionState, offender: object, offence: object,
                  redeal: object = False) -> tuple[str, DealState, Offence]:
    """Refuse `offender`'s `offence` unless the laws let the table charge it now; else the
    offender, the deal and the offence's row."""
    player = known_player(s, offender)
    deal = open_deal(s, "penalties")
    spec = offence_named(s, offence)
    check_offender(deal, player)
    check_offence(deal, player, str(offence), spec, redeal)
    return player, deal, spec


def check_offender(deal: DealState, player: str) -> None:
    """Whether anyone in `player`'s seat can be charged now, whatever the offence."""
    if deal.phase in (Phase.SINGLE, Phase.REDEAL):
        raise OutOfTurn(f"no penalty can be recorded while the deal is {deal.phase}",
                        rule="penalty-timing")
    if player not in deal.dealt and player != deal.dealer:
        raise OutOfTurn(f"{player} takes no part in this deal", rule="dealt-in")


@dataclass(frozen=True)
class Offender:
    """What the checks of an offence need to know of its offender in the deal, read once
    (penalty_offers asks them of every offence for every player)."""

    player: str
    standing: bool
    play_begun: bool
    before_play: bool
    charged_in_play: dict[str, bool]  # offence -> detected by the ledger


def offender(deal: DealState, player: str) -> Offender:
    return Offender(player,
                    deal.hand_of(player) is not None
                    or deal.declarations.get(player) == Declaration.PLAY,
                    play_begun(deal), before_play(deal),
                    {p["offence"]: bool(p["detected"]) for p in in_play_penalties(deal)
                     if p["player"] == player})


def check_offence(deal: DealState, player: str | Offender, offence: str, spec: Offence,
                  redeal: object) -> None:
    """Refuse this offence of this offender unless it can be charged now (after
    check_offender)."""
    refused = offence_refusal(deal, player, offence, spec, redeal)
    if refused is not None:
        raise refused


def offence_refusal(deal: DealState, player: str | Offender, offence: str, spec: Offence,
                    redeal: object) -> LedgerError | None:
    """Why this offence of this offender cannot be charged now, or None when it can: the
    refusal is returned, not raised, because penalty_offers asks it of every player and
    offence on every answer, and most of them are refused."""
    who = player if isinstance(player, Offender) else offender(deal, player)
    if not isinstance(redeal, bool):
        return InvalidInput("redeal must be true or false", rule="redeal", field="redeal")
    if spec.dealer_only and who.player != deal.dealer:
        return OutOfTurn(f"a misdeal is the dealer's ({deal.dealer})", rule="misdeal-dealer")
    if spec.redeals(redeal) and not who.before_play:
        return OutOfTurn("a redeal is possible only before play begins",
                         rule="penalty-timing",
                         field="redeal" if spec.redeal == RedealRule.OPTIONAL else "offence")
    if spec.stage == Stage.IN_PLAY and not spec.anyone and not who.standing:
        return OutOfTurn(f"{who.player} is not standing: this offence in play is a standing "
                         "player's", rule="standing-player")
    if spec.stage_now(who.play_begun) == Stage.IN_PLAY and offence in who.charged_in_play:
        how = "detected from the cards and charged by the ledger" \
            if who.charged_in_play[offence] else "recorded already"
        return LedgerError(f"{who.player}'s {offence} in this deal is {how}; an offence in "
                           "play is charged once", rule="one-penalty-in-play", field="offence")
    if spec.leaves_play:
        return _leaves_play_refusal(deal, who.player)
    return None


def _leaves_play_refusal(deal: DealState, player: str) -> LedgerError | None:
    """Enquire Within §97 viii: throwing up after the lead: only a player still in play, once
    the first card is led, and never the last one left to play the tricks."""
    if deal.phase not in (Phase.PLAYING, Phase.REPLAYING) or not play_begun(deal):
        return OutOfTurn("a player throws up after the lead only while the tricks are played",
                         rule="penalty-timing", field="offence")
    trick = len(deal.tricks) + 1
    players = in_play(deal, trick)
    if player not in players:
        return OutOfTurn(f"{player} is not in play", rule="standing-player")
    if len(players) < 2:
        return OutOfTurn(f"{player} is the last player in play and cannot throw up",
                         rule="standing-player")
    return None


def penalty_event(s: SessionState, deal: DealState, player: str, offence: str, spec: Offence, *,
                  redeal_asked: bool = False, evidence: dict[str, Any] | None = None,
                  extra_penalties: list[PenaltyRecord] | None = None) -> ev.PenaltyImposed:
    """The penalty for `offence` by `player` now; `extra_penalties` are those charged in the
    same batch of events, not yet in the deal."""
    r = s.rules
    earlier = hand_penalties(deal) + (extra_penalties or [])
    standing = deal.hand_of(player) is not None
    redeal = spec.redeals(redeal_asked)
    throw_up = spec.throw_up and player not in deal.declarations \
        and deal.phase == Phase.DECLARING
    forfeits = spec.forfeits == Forfeits.ALWAYS or (
        spec.forfeits == Forfeits.IF_STANDING and standing)
    amount: int | None
    postings: list[Posting] = []
    destination: Destination
    stage = spec.stage_now(play_begun(deal))
    covered = stage == Stage.IN_PLAY and any(
        p["player"] == player and p["stage"] == Stage.IN_PLAY for p in earlier)
    if covered:
        # Baxter-Wray: "this is his one loo for the deal"; one penalty per offender per deal.
        amount, destination = 0, Destination.COVERED
    else:
        amount, destination = penalty_cost(r, spec, play_begun=play_begun(deal),
                                           base_units=penalty_base(s, deal))
        if amount:
            postings.append(posting(player, spec.to, amount, Reason.PENALTY, offence=offence,
                                    deal_no=deal.deal_no, loo=spec.kind == PenaltyKind.LOO))
    return ev.PenaltyImposed(
        deal_no=deal.deal_no, player=player, offence=offence, law=spec.law,
        amount_units=amount, destination=destination, kind=spec.kind,
        forfeits_winnings=forfeits, throw_up=throw_up, redeal=redeal,
        replay=spec.replay if not covered else ReplayRule.NONE, detected=evidence is not None,
        evidence=evidence or {}, postings=postings, stage=stage,
        leaves_play=spec.leaves_play)


def penalty_cost(r: Rules, spec: Offence, *, play_begun: bool,
                 base_units: int) -> tuple[int | None, Destination]:
    """What an offender's first penalty of the hand for `spec` costs and where it goes, play
    having begun or not, on a pool of `base_units` (penalty_base); the amount None when the
    rules fix it later (the destination says when). The penalty dialog's prices
    (GET /sessions/<id>/offences) are these."""
    if spec.looed_instead_if_no_trick:
        # Blenheim law 9: four stakes, or a loo if he takes no trick: known with the deal
        return None, Destination.SETTLED_WITH_DEAL
    if spec.amount == PenaltyAmount.LOO and spec.to == NEXT_POOL and not play_begun \
            and loo_depends_on_pool(r):
        # docs/rules.md §11.3: a penalty loo is computed on the pool as it stood when play began;
        # before play that pool is not yet known (a later fine may add to it), so a loo owed
        # to the next pool is fixed when the deal is settled.
        return None, DEFERRED_LOO
    amount = {PenaltyAmount.SINGLE_LOO: r.single_loo, PenaltyAmount.STAKE: r.stake,
              PenaltyAmount.LOO: loo_units(r, base_units),
              PenaltyAmount.FOUR_STAKES: 4 * r.stake}[spec.amount]
    return amount, Destination(spec.to)


# ---------------------------------------------------------------- replays


def replay_required(deal: DealState) -> bool:
    """Baxter-Wray p. 21: after an offence in play "the hands must, however, be replayed";
    once."""
    return deal.replay == ReplayStatus.REQUIRED and deal.first_play is None


def ask_replay(s: SessionState, c: cmd.AskReplay) -> list[ev.Event]:
    by = known_player(s, c.by, "by")
    deal = open_deal(s, "a replay")
    if deal.phase != Phase.REVIEW:
        raise OutOfTurn("a replay can be asked for only when the play is over and the laws "
                        "leave it to the players", rule="replay-on-request")
    if by in offenders_in_play(deal):
        # Blenheim law 11: "if so desired by any one except the offender".
        raise OutOfTurn(f"{by} is the offender and may not ask for the replay",
                        rule="replay-on-request", field="by")
    if by not in s.active:
        raise OutOfTurn(f"{by} has withdrawn", rule="replay-on-request", field="by")
    return [ev.ReplayStarted(deal_no=deal.deal_no, asked_by=by)]


def waive_replay(s: SessionState, c: cmd.WaiveReplay) -> list[ev.Event]:
    deal = open_deal(s, "a replay")
    if deal.phase != Phase.REVIEW:
        raise OutOfTurn("there is no replay to waive", rule="replay-on-request")
    return [ev.ReplayWaived(deal_no=deal.deal_no)]
