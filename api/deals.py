"""Deals: one deal as the ledger sees it."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from .auth import STATE_READERS, requires
from .backend import check_session_id, ledger
from .schemas import DealViewSchema

blp = Blueprint("deals", __name__, url_prefix="/sessions/<session_id>/deals",
                description="One deal: dealer, trump, declarations, tricks, penalties, "
                            "breaches detected, the pool and how it was divided.")
blp.url_value_preprocessor(check_session_id)


@blp.route("/<int(signed=True):deal_no>")
class Deal(MethodView):
    @requires(*STATE_READERS)
    @blp.doc(operationId="getDeal")
    @blp.response(200, DealViewSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, session_id: str, deal_no: int):
        """Read one deal of a session"""
        return ledger().deal(session_id, deal_no)
