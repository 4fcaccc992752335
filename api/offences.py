"""The offences a table may charge in a session: the preset's penalty table, each row with what
the rules would charge for it now (amount, where it goes, the law), for the tablet's penalty
picker to show before the dealer confirms (docs/rules.md §7).

Read-only: derived from the session's effective rules, its pool and its current deal. What is
charged in the end is decided by the ledger when the `PenaltyImposed` is appended (a second
offence in play by the same player is covered by his first, for one).
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import fields

from ledger.domain import Rules
from ledger.domain.money import loo_depends_on_pool, loo_units
from ledger.domain.offence_tables import TABLES, Offence
from ledger.domain.vocabulary import Account, PenaltyAmount

from .auth import STATE_READERS, requires
from .backend import check_session_id, ledger
from .schemas import Open

blp = Blueprint("offences", __name__, url_prefix="/sessions/<session_id>/offences",
                description="The preset's offences, with what the rules would charge for each "
                            "now: for a client to show before a penalty is imposed.")
blp.url_value_preprocessor(check_session_id)

PLAY_PHASES = ("playing", "replaying", "review")


class OffenceSchema(Open):
    offence = fields.String(required=True, metadata={"description": "The name to send as "
                                                                    "PenaltyImposed.offence"})
    law = fields.String(required=True, metadata={"description": "The law it applies"})
    amount = fields.String(required=True, metadata={
        "description": "What it costs: single_loo, stake, loo (the deal's loo) or 4x-stake"})
    amount_units = fields.Integer(required=True, allow_none=True, metadata={
        "description": "What it would cost now, in units; null when the rules fix it later "
                       "(see `when_fixed`)"})
    when_fixed = fields.String(required=True, allow_none=True, metadata={
        "description": "null, or why the amount is not known yet: `at-settlement` (a loo on a "
                       "pool not yet known, docs/rules.md §11.3) or `with-the-deal` (Blenheim "
                       "law 9: four stakes, or a loo if he takes no trick)"})
    to = fields.String(required=True, metadata={
        "description": "pool (this deal's) or next_pool (owed to the next deal's)"})
    kind = fields.String(required=True, metadata={
        "description": "loo (the next deal is then not fresh) or fine"})
    stage = fields.String(required=True, metadata={
        "description": "pre-play or in-play, as it would be charged now"})
    throw_up = fields.Boolean(required=True, metadata={
        "description": "The offender must throw up if he has not declared"})
    forfeits = fields.String(required=True, metadata={
        "description": "never, always or if-standing: his winnings stay in the pool"})
    redeal = fields.String(required=True, metadata={
        "description": "never, always, or optional (send redeal: true if the cards were "
                       "mixed or exposed)"})
    replay = fields.String(required=True, metadata={
        "description": "none, required or on-request"})
    dealer_only = fields.Boolean(required=True)
    anyone = fields.Boolean(required=True, metadata={
        "description": "Anyone at the table may commit it, standing or not"})
    leaves_play = fields.Boolean(required=True)


class OffencesSchema(Open):
    session_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The session version "
                                                                     "the amounts are for"})
    penalties = fields.String(required=True, metadata={"description": "The penalty table "
                                                                      "(a preset's name)"})
    open = fields.Boolean(required=True, metadata={
        "description": "Whether a penalty may be recorded now (a three-card hand between "
                       "its deal and its settlement)"})
    offences = fields.List(fields.Nested(OffenceSchema), required=True)


def offence_row(name: str, spec: Offence, rules: Rules, *, play_begun: bool,
                base_units: int) -> dict[str, Any]:
    """One row of the table with what it would cost now (penalising.penalty_event's rules
    for an offender's first penalty of the hand)."""
    stage = spec.stage_now(play_begun)
    amount: int | None
    when_fixed: str | None = None
    if spec.looed_instead_if_no_trick:
        amount, when_fixed = None, "with-the-deal"
    elif spec.amount == PenaltyAmount.LOO and spec.to == Account.NEXT_POOL \
            and not play_begun and loo_depends_on_pool(rules):
        amount, when_fixed = None, "at-settlement"
    else:
        amount = {PenaltyAmount.SINGLE_LOO: rules.single_loo, PenaltyAmount.STAKE: rules.stake,
                  PenaltyAmount.LOO: loo_units(rules, base_units),
                  PenaltyAmount.FOUR_STAKES: 4 * rules.stake}[spec.amount]
    return {"offence": name, "law": spec.law, "amount": str(spec.amount),
            "amount_units": amount, "when_fixed": when_fixed, "to": str(spec.to),
            "kind": str(spec.kind), "stage": str(stage), "throw_up": spec.throw_up,
            "forfeits": str(spec.forfeits), "redeal": str(spec.redeal),
            "replay": str(spec.replay), "dealer_only": spec.dealer_only,
            "anyone": spec.anyone, "leaves_play": spec.leaves_play}


def offences(session: dict[str, Any], deal: dict[str, Any] | None) -> dict[str, Any]:
    """The rows for a session view and its current deal's view (None before the first)."""
    rules = Rules.from_dict(session["rules"])
    at_play = deal.get("pool_at_play_units") if deal else None
    play_begun = at_play is not None
    base = int(at_play) if at_play is not None else int(session["pool_units"])
    phase = deal["phase"] if deal else None
    is_open = deal is not None and deal.get("kind") == "hand" and phase in (
        "declaring", *PLAY_PHASES)
    return {"session_id": session["session_id"], "version": session["version"],
            "penalties": str(rules.penalties), "open": is_open,
            "offences": [offence_row(name, spec, rules, play_begun=play_begun, base_units=base)
                         for name, spec in TABLES[rules.penalties].items()]}


@blp.route("")
class Offences(MethodView):
    @requires(*STATE_READERS)
    @blp.doc(operationId="getOffences")
    @blp.response(200, OffencesSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, session_id: str):
        """List the offences a penalty may name, with what each would cost now

        The session's penalty table (docs/rules.md §7), each offence with its law, amount,
        destination, kind and effects, and its amount in units as the rules would charge a
        player's first penalty of the hand now (null when the rules fix it later). Send the
        chosen one as `PenaltyImposed`; the ledger decides what is charged.
        """
        session = ledger().session(session_id)
        deal = None
        if session["deal"] is not None:
            deal = ledger().deal(session_id, int(session["deal_no"]))
        return offences(session, deal)
