"""Explain: every figure of a session, posting by posting, with the rule behind each amount."""

from __future__ import annotations

from flask.views import MethodView

from api.http.auth import RECORD_READERS, requires
from api.http.context import check_session_id, ledger
from api.http.formats import CSV_MIMETYPE, wants_csv
from api.http.forms import explain_csv
from api.http.inputs import Blueprint
from api.schemas.explain import ExplainQuery, ExplainSchema

blp = Blueprint("explain", __name__, url_prefix="/sessions/<session_id>/explain",
                description="Every figure of the statement explained: the postings that make "
                            "it up, each with its event and the rule that decided it.")
blp.url_value_preprocessor(check_session_id)

DESCRIPTION = ("The trail: JSON by default; CSV (one row per posting) for ?format=csv or "
               "Accept: text/csv")


@blp.route("")
class Explain(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="explainSession")
    @blp.arguments(ExplainQuery, location="query", as_kwargs=True)
    @blp.response(200, ExplainSchema, description=DESCRIPTION)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE,
                      schema={"type": "string"}, description=DESCRIPTION)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, format: str | None = None,  # noqa: A002 (the query name)
            player: str | None = None, as_of: str | None = None, table: str | None = None,
            bom: bool = False):
        """Explain every figure

        For each player, the pool and the next pool: the net, each category (as on the
        statement) and the postings that make them up. Each posting names its event (version,
        position, time, actor) and the rule that decided its amount: the preset, the parameter
        and its value, the law, the period source and the section of docs/rules.md. The signed
        postings of a figure sum to its net, and per category to the category. `player` keeps
        one player's figure; `as_of` explains the figures as they stood then.
        """
        if wants_csv(format):
            return explain_csv(session_id, player, as_of, table=table, bom=bom)
        return ledger().explain(session_id, player=player, as_of=as_of), 200, {"Vary": "Accept"}
