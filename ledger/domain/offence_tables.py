"""The offence tables of docs/rules.md §7, one per preset, each row citing its law.

`amount`: "single_loo", "stake", "loo" (the deal's loo, docs/rules.md §11.3) or "4x-stake".
`to`: "pool" (paid at once into this deal's pool) or "next_pool" (owed to the next deal's).
`kind`: "loo" counts as a loo (the next deal is then not a fresh pool); "fine" does not.
`stage`: "pre-play" offences cost one penalty each; "in-play" offences cost the offender one
penalty for the deal, settled with it, and may forfeit his winnings or call for a replay;
"when-committed" offences are in play if play has begun when they are committed, else before
play (docs/rules.md §11.20).
`anyone`: any one at the table may commit it, standing or not (Baxter-Wray p. 25).
`leaves_play`: the offender takes no further part in the tricks (throwing up after the lead).
`needs`: what the game must have for the offence to be possible: a miss (three-card loo; none
at Irish and five-card loo) or Pam (five-card loo); `offences_for` leaves the others out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .vocabulary import (
    Account,
    Forfeits,
    PenaltyAmount,
    PenaltyKind,
    Preset,
    RedealRule,
    ReplayRule,
    Stage,
)

if TYPE_CHECKING:
    from .rules import Rules

MISS = "miss"  # Offence.needs: the game deals a miss
PAM = "pam"  # Offence.needs: the game has Pam


@dataclass(frozen=True)
class Offence:
    law: str
    amount: PenaltyAmount
    to: Account
    kind: PenaltyKind
    stage: Stage
    throw_up: bool = False  # must throw up if not yet declared
    forfeits: Forfeits = Forfeits.NEVER
    redeal: RedealRule = RedealRule.NEVER
    replay: ReplayRule = ReplayRule.NONE  # none, required or on-request
    dealer_only: bool = False
    looed_instead_if_no_trick: bool = False  # Blenheim law 9
    anyone: bool = False  # standing or not (Baxter-Wray p. 25: "as also is any one ...")
    leaves_play: bool = False  # he plays no further card of the hand
    needs: str | None = None  # MISS or PAM: an offence only in a game that has it

    def stage_now(self, play_begun: bool) -> Stage:
        """The stage the offence is charged at, given whether play had begun."""
        if self.stage == Stage.WHEN_COMMITTED:
            return Stage.IN_PLAY if play_begun else Stage.PRE_PLAY
        return self.stage

    def redeals(self, asked: bool) -> bool:
        """Whether it calls for a redeal (`asked`: the table says the cards were mixed)."""
        return self.redeal == RedealRule.ALWAYS or (self.redeal == RedealRule.OPTIONAL and asked)


def _bw_single(law: str, *, redeal: RedealRule = RedealRule.NEVER,
               dealer_only: bool = False, needs: str | None = None) -> Offence:
    return Offence(law=law, amount=PenaltyAmount.SINGLE_LOO, to=Account.POOL,
                   kind=PenaltyKind.FINE, stage=Stage.PRE_PLAY, redeal=redeal,
                   dealer_only=dealer_only, needs=needs)


def _bw_play(law: str, *, anyone: bool = False, needs: str | None = None) -> Offence:
    # Baxter-Wray p. 21: "A player infringing any of the rules ... is looed, and the amount of
    # his winnings, if any, is left in the pool. The hands must, however, be replayed".
    return Offence(law=law, amount=PenaltyAmount.LOO, to=Account.NEXT_POOL, kind=PenaltyKind.LOO,
                   stage=Stage.IN_PLAY, forfeits=Forfeits.ALWAYS, replay=ReplayRule.REQUIRED,
                   anyone=anyone, needs=needs)


BAXTER_WRAY: dict[str, Offence] = {
    "misdeal": _bw_single("Baxter-Wray p. 23: misdeal, single loo; the same dealer deals again",
                          redeal=RedealRule.ALWAYS, dealer_only=True),
    "interfering-with-deal": _bw_single(
        "Baxter-Wray p. 24: interfering with the cards during the deal, single loo; "
        "redeal only if cards were mixed or exposed", redeal=RedealRule.OPTIONAL),
    "looked-at-own-cards": _bw_single("Baxter-Wray p. 24: looking at own cards before his turn"),
    "declared-out-of-turn": _bw_single("Baxter-Wray p. 24: declaring out of turn"),
    "looked-at-miss": _bw_single("Baxter-Wray p. 24: looking at the miss without taking it",
                                 needs=MISS),
    "looked-at-thrown-up-cards": _bw_single("Baxter-Wray p. 24: looking at thrown-up cards"),
    "looked-at-pack": _bw_single("Baxter-Wray p. 24: looking at the undealt pack"),
    # docs/rules.md §11.17: the loo goes to the current pool, winnings forfeited if he stands.
    "looked-at-another-hand": Offence(
        law="Baxter-Wray p. 24: looking at another player's hand, a loo; he must throw up if "
            "he has not declared; if standing he plays and his winnings are forfeited",
        amount=PenaltyAmount.LOO, to=Account.POOL, kind=PenaltyKind.FINE, stage=Stage.PRE_PLAY,
        throw_up=True, forfeits=Forfeits.IF_STANDING),
    "lead-rule": _bw_play("Baxter-Wray p. 25: the lead rules (ace of trumps; highest of two)"),
    "revoke": _bw_play("Baxter-Wray p. 20: each player has to follow suit if he can"),
    "not-heading": _bw_play("Baxter-Wray p. 21: compulsory to head the trick if able"),
    "not-trumping-to-head": _bw_play(
        "Baxter-Wray p. 21: must play a trump if it would head the trick"),
    "trump-after-trick": _bw_play(
        "Baxter-Wray p. 21: the winner of the first trick must lead a trump, the higher of two"),
    "played-out-of-turn": _bw_play("Baxter-Wray p. 25: playing out of turn"),
    # Baxter-Wray p. 25: "as also is any one ... exposing or mentioning the value of his own,
    # or opponent's unplayed cards, or of either of those in the miss, or among the undealt
    # portion of the pack": standing or not.
    "exposed-card-in-play": _bw_play(
        "Baxter-Wray p. 25: any one exposing an unplayed card (his own, another's, the "
        "miss's or the pack's)", anyone=True),
    "named-card": _bw_play(
        "Baxter-Wray p. 25: any one mentioning the value of an unplayed card (his own, "
        "another's, the miss's or the pack's)", anyone=True),
    # Five-card loo, docs/rules.md §9.3, §11.37: p. 28, with the ace of trumps led and "Pam, be
    # civil" said, "the holder of Pam must pass the trick, if he can do so without revoking";
    # p. 21, "A player infringing any of the rules ... is looed", as for the breaches above.
    "pam-be-civil": _bw_play(
        "Baxter-Wray p. 28: the holder of Pam must pass the ace of trumps led with 'Pam, be "
        "civil'; p. 21: a player infringing any of the rules is looed", needs=PAM),
}


def _bl_single(law: str, *, redeal: RedealRule = RedealRule.NEVER, dealer_only: bool = False,
               throw_up: bool = False) -> Offence:
    return Offence(law=law, amount=PenaltyAmount.STAKE, to=Account.POOL, kind=PenaltyKind.FINE,
                   stage=Stage.PRE_PLAY, redeal=redeal, dealer_only=dealer_only,
                   throw_up=throw_up)


def _bl_play(law: str) -> Offence:
    # Britannica, Blenheim law 9: "he must leave in the pool any tricks he may make, and forfeit
    # four times the amount of a single. If he makes no trick he is looed, and there is no
    # further penalty"; note 3: fines "go to the next pool"; law 11: replay if asked.
    return Offence(law=law, amount=PenaltyAmount.FOUR_STAKES, to=Account.NEXT_POOL,
                   kind=PenaltyKind.FINE, stage=Stage.IN_PLAY, forfeits=Forfeits.ALWAYS,
                   replay=ReplayRule.ON_REQUEST, looed_instead_if_no_trick=True)


BLENHEIM: dict[str, Offence] = {
    "misdeal": _bl_single("Blenheim law 5: the dealer forfeits a single and deals again",
                          redeal=RedealRule.ALWAYS, dealer_only=True),
    "looked-at-own-cards": _bl_single("Blenheim law 7: looking at his cards before his turn"),
    "declared-out-of-turn": _bl_single(
        "Blenheim law 8: declaring before his turn, a single, and he must throw up",
        throw_up=True),
    "exposed-card": _bl_single(
        "Blenheim law 8: exposing a card, a single, and he must throw up", throw_up=True),
    "exposed-card-in-play": _bl_play("Blenheim law 9: exposing a card before his turn to play"),
    "played-out-of-turn": _bl_play("Blenheim law 9: playing out of turn"),
    "played-before-all-declared": _bl_play("Blenheim law 9: playing before all have declared"),
    "detached-card": _bl_play("Blenheim law 9: detaching a card so that it can be named"),
    "revoke": _bl_play("Blenheim law 9: revoking"),
    "lead-rule": _bl_play("Blenheim law 10: the lead rules (ace of trumps; one of two trumps)"),
    "not-heading": _bl_play("Blenheim law 10: not heading the trick when able"),
    "not-trumping-to-head": _bl_play(
        "Blenheim law 10 with the rules of play: holding none of the suit led, head the trick "
        "with a trump if able"),
    "trump-after-trick": _bl_play("Blenheim law 10: not leading trump after trick"),
}


def _looed(law: str, stage: Stage, *, leaves_play: bool = False,
           needs: str | None = None) -> Offence:
    # Enquire Within §97 / Cassell "Looed": the offender is looed. docs/rules.md §11.12: one
    # loo per offence before play; offences in play cost one loo for the deal, which also
    # covers taking no trick; he keeps what his tricks win. docs/rules.md §11.20: what decides the
    # stage of an offence that can be committed at any time is when it was committed
    # (Enquire Within §97 vi: looking at a neighbour's hand "either during the play" or not).
    return Offence(law=law, amount=PenaltyAmount.LOO, to=Account.NEXT_POOL,
                   kind=PenaltyKind.LOO, stage=stage,
                   redeal=RedealRule.ALWAYS if law.endswith("(misdeal)") else RedealRule.NEVER,
                   dealer_only=law.endswith("(misdeal)"), leaves_play=leaves_play,
                   needs=needs)


ENQUIRE_WITHIN: dict[str, Offence] = {
    "misdeal": _looed("Enquire Within §97 i: for a misdeal the dealer is looed (misdeal)",
                      Stage.PRE_PLAY),
    "looked-at-miss": _looed("Enquire Within §97 ii, v: looking at the miss",
                             Stage.WHEN_COMMITTED, needs=MISS),
    "looked-at-own-cards": _looed("Enquire Within §97 v: looking at his own cards out of turn",
                                  Stage.PRE_PLAY),
    "looked-at-another-hand": _looed("Enquire Within §97 vi: looking at a neighbour's hand",
                                     Stage.WHEN_COMMITTED),
    "told-cards": _looed("Enquire Within §97 vii: telling another what cards he holds",
                         Stage.WHEN_COMMITTED),
    "played-out-of-turn": _looed("Enquire Within §97 ii: playing out of turn", Stage.IN_PLAY),
    "threw-up-after-lead": _looed("Enquire Within §97 viii: throwing up after the lead",
                                  Stage.IN_PLAY, leaves_play=True),
    "lead-rule": _looed("Enquire Within §97 iii, iv: the lead rules", Stage.IN_PLAY),
    "not-heading": _looed("Enquire Within §97 ix: must head the trick if he can", Stage.IN_PLAY),
    # Cassell's glossary, "Heading the Trick": "not having any of the suit, trumping it".
    "not-trumping-to-head": _looed(
        "Enquire Within §97 ix: must head the trick (by trumping, holding none of the suit)",
        Stage.IN_PLAY),
    "revoke": _looed("Enquire Within §97 x: must follow suit if he can", Stage.IN_PLAY),
}

CASSELL: dict[str, Offence] = {
    "misdeal": _looed("Cassell, Mis-deal; Looed: breaking any law of the game (misdeal)",
                      Stage.PRE_PLAY),
    "looked-at-miss": _looed("Cassell, Looed: looking at the miss", Stage.WHEN_COMMITTED,
                             needs=MISS),
    "looked-at-own-cards": _looed("Cassell, Looed: looking at his own cards out of turn",
                                  Stage.PRE_PLAY),
    "looked-at-another-hand": _looed("Cassell, Looed: looking at a neighbour's hand",
                                     Stage.WHEN_COMMITTED),
    "told-cards": _looed("Cassell, Looed: telling others about cards", Stage.WHEN_COMMITTED),
    "played-out-of-turn": _looed("Cassell, Looed: playing out of turn", Stage.IN_PLAY),
    "threw-up-after-lead": _looed("Cassell, Looed: throwing up after the lead", Stage.IN_PLAY,
                                  leaves_play=True),
    "lead-rule": _looed("Cassell: the elder hand plays his highest trump, or his highest card",
                        Stage.IN_PLAY),
    "trump-after-trick": _looed("Cassell: the winner of the trick leads his highest trump",
                                Stage.IN_PLAY),
    "not-heading": _looed("Cassell: each succeeding player heading the trick", Stage.IN_PLAY),
    "not-trumping-to-head": _looed(
        "Cassell, Heading the Trick: not having any of the suit, trumping it", Stage.IN_PLAY),
    "revoke": _looed("Cassell, Revoke: when a person who can follow suit does not", Stage.IN_PLAY),
}

TABLES: dict[Preset, dict[str, Offence]] = {
    Preset.BAXTER_WRAY: BAXTER_WRAY,
    Preset.BLENHEIM: BLENHEIM,
    Preset.ENQUIRE_WITHIN: ENQUIRE_WITHIN,
    Preset.CASSELL: CASSELL,
}


def offences_for(rules: Rules) -> dict[str, Offence]:
    """The offences of the session's table that its game can have, in the table's order: no
    offence with the miss at Irish and five-card loo ("There is no miss", Baxter-Wray p. 27;
    Britannica), none with Pam but at five-card loo (docs/rules.md §7, §9.2, §9.3)."""
    table = TABLES[rules.penalties]
    return {name: spec for name, spec in table.items() if _possible(spec, rules)}


def _possible(spec: Offence, rules: Rules) -> bool:
    if spec.needs == MISS:
        return rules.has_miss
    if spec.needs == PAM:
        return rules.pam is not None
    return True
