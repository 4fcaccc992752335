"""Deals: one deal as the ledger sees it."""

from __future__ import annotations

from flask.views import MethodView

from api.http.auth import STATE_READERS, requires
from api.http.context import check_session_id, ledger
from api.http.inputs import Blueprint
from api.schemas import DealViewSchema
from api.schemas.explain import AsOfQuery

blp = Blueprint("deals", __name__, url_prefix="/sessions/<session_id>/deals",
                description="One deal: dealer, trump, declarations, tricks, penalties, "
                            "breaches detected, the pool and how it was divided.")
blp.url_value_preprocessor(check_session_id)


@blp.route("/<int(signed=True):deal_no>")
class Deal(MethodView):
    @requires(*STATE_READERS)
    @blp.doc(operationId="getDeal")
    @blp.arguments(AsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, DealViewSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, deal_no: int, as_of: str | None = None):
        """Read one deal of a session

        With `as_of`, the deal as it stood then (marked `as_of`).
        """
        return ledger().deal(session_id, deal_no, as_of=as_of)
