"""The settlement statement: what each player paid and received, the net, who pays whom."""

from __future__ import annotations

import re

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from .auth import RECORD_READERS, requires
from .backend import check_session_id, ledger
from .explain_schemas import StatementAsOfQuery
from .schemas import StatementSchema

blp = Blueprint("statement", __name__, url_prefix="/sessions/<session_id>/statement",
                description="The settlement statement, as JSON or CSV.")
blp.url_value_preprocessor(check_session_id)

CSV_MIMETYPE = "text/csv"
DESCRIPTION = ("The statement: JSON by default; CSV (with a Content-Disposition filename) "
               "for ?format=csv or Accept: text/csv")


def wants_csv(fmt: str | None) -> bool:
    if fmt is not None:
        return fmt == "csv"
    best = request.accept_mimetypes.best_match(["application/json", CSV_MIMETYPE])
    return best == CSV_MIMETYPE


def csv_filename(session_id: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", session_id)[:80] or "session"
    return f"lanterloo-{safe}-statement.csv"


@blp.route("")
class Statement(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="getStatement")
    @blp.arguments(StatementAsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, StatementSchema, description=DESCRIPTION)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE,
                      schema={"type": "string"}, description=DESCRIPTION)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, format: str | None = None,  # noqa: A002 (the query name)
            as_of: str | None = None):
        """Read the settlement statement

        Per player: units paid for deals, antes, loos and each kind of penalty; units received
        from tricks and pools; the net and its money value; the pool left; the zero-sum check;
        and who pays whom. With `as_of`, the statement as it stood then (marked `as_of`, and
        pinned to the log's version and chain head at that point).
        """
        if wants_csv(format):
            text = ledger().statement_csv(session_id, as_of=as_of)
            return Response(text, mimetype=CSV_MIMETYPE, headers={
                "Content-Disposition": f'attachment; filename="{csv_filename(session_id)}"',
                "Vary": "Accept"})
        return ledger().statement(session_id, as_of=as_of), 200, {"Vary": "Accept"}
