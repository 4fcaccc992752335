"""The offences a table may charge in a session: the preset's penalty table (less the offences
its variant cannot have: none with the miss at Irish and five-card loo, none with Pam but at
five-card loo), each row with what the rules would charge for it now (amount, where it goes,
the law), for the tablet's penalty picker to show before the dealer confirms (docs/rules.md
§7).

Read-only: derived from the session's effective rules, its pool and its current deal. What is
charged in the end is decided by the ledger when the `PenaltyImposed` is appended (a second
offence in play by the same player is covered by his first, for one).
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from marshmallow import fields

from api.http.auth import STATE_READERS, requires
from api.http.context import check_session_id, ledger
from api.http.inputs import Blueprint
from api.schemas import Open
from ledger.domain import Rules
from ledger.domain.offence_tables import Offence, offences_for
from ledger.domain.penalising import DEFERRED_LOO, penalty_cost
from ledger.domain.vocabulary import Destination

blp = Blueprint("offences", __name__, url_prefix="/sessions/<session_id>/offences",
                description="The preset's offences, with what the rules would charge for each "
                            "now: for a client to show before a penalty is imposed.")
blp.url_value_preprocessor(check_session_id)

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
        "description": "Whether a penalty may be recorded now: the session's `expected` "
                       "offers PenaltyImposed for someone (its `by_player`)"})
    offences = fields.List(fields.Nested(OffenceSchema), required=True)


# Where a price is not known yet, and when it will be (penalising.penalty_cost's destination).
WHEN_FIXED = {Destination.SETTLED_WITH_DEAL: "with-the-deal", DEFERRED_LOO: "at-settlement"}


def offence_row(name: str, spec: Offence, rules: Rules, *, play_begun: bool,
                base_units: int) -> dict[str, Any]:
    """One row of the table with what it would cost now: the ledger's own price of an
    offender's first penalty of the hand (penalising.penalty_cost, as penalty_event charges)."""
    amount, destination = penalty_cost(rules, spec, play_begun=play_begun,
                                       base_units=base_units)
    return {"offence": name, "law": spec.law, "amount": str(spec.amount),
            "amount_units": amount, "when_fixed": WHEN_FIXED.get(destination),
            "to": str(spec.to), "kind": str(spec.kind), "stage": str(spec.stage_now(play_begun)),
            "throw_up": spec.throw_up, "forfeits": str(spec.forfeits),
            "redeal": str(spec.redeal), "replay": str(spec.replay),
            "dealer_only": spec.dealer_only, "anyone": spec.anyone,
            "leaves_play": spec.leaves_play}


def offences(session: dict[str, Any], deal: dict[str, Any] | None) -> dict[str, Any]:
    """The rows for a session view and its current deal's view (None before the first).

    Which offences: the domain's `offences_for` (the table less what the game has no part
    for); whether a penalty may be recorded now: `expected`'s PenaltyImposed action, which
    penalty_offers draws from the checks that decide an ImposePenalty (someone may be charged
    with something); the amounts: penalising.penalty_cost, on the pool as it stood when play
    began (penalty_base), or as it stands before play."""
    rules = Rules.from_dict(session["rules"])
    at_play = deal.get("pool_at_play_units") if deal else None
    play_begun = at_play is not None
    base = int(at_play) if at_play is not None else int(session["pool_units"])
    offer = next((a for a in session["expected"]["actions"]
                  if a["type"] == "PenaltyImposed"), None)
    return {"session_id": session["session_id"], "version": session["version"],
            "penalties": str(rules.penalties), "open": bool(offer and offer["by_player"]),
            "offences": [offence_row(name, spec, rules, play_begun=play_begun, base_units=base)
                         for name, spec in offences_for(rules).items()]}


@blp.route("")
class Offences(MethodView):
    @requires(*STATE_READERS)
    @blp.doc(operationId="getOffences")
    @blp.response(200, OffencesSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, session_id: str):
        """List the offences a penalty may name, with what each would cost now

        The session's penalty table (docs/rules.md §7; at Irish and five-card loo without the
        offences with the miss, and with Pam only at five-card loo), each offence with its
        law, amount, destination, kind and effects, and its amount in units as the rules would
        charge a player's first penalty of the hand now (null when the rules fix it later).
        Send the chosen one as `PenaltyImposed`; the ledger decides what is charged.
        """
        session = ledger().session(session_id)
        deal = None
        if session["deal"] is not None:
            deal = ledger().deal(session_id, int(session["deal_no"]))
        return offences(session, deal)
