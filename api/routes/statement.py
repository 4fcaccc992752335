"""The settlement statement: what each player paid and received, the net, who pays whom.

As JSON (the default), CSV (`?format=csv` or `Accept: text/csv`), or a printable HTML page
(`?format=html` or `Accept: text/html`: api/pages/printable.py, with the balance chart drawn as SVG
and no script; a browser opens it through the page shell /table/statement, which sends the token).
"""

from __future__ import annotations

from flask.views import MethodView

from api.http.auth import RECORD_READERS, requires
from api.http.context import check_session_id, ledger
from api.http.formats import CSV_MIMETYPE, wanted_format
from api.http.forms import statement_csv, statement_page
from api.http.inputs import Blueprint
from api.pages.printable import HTML_MIMETYPE
from api.schemas import StatementSchema
from api.schemas.explain import StatementAsOfQuery

blp = Blueprint("statement", __name__, url_prefix="/sessions/<session_id>/statement",
                description="The settlement statement, as JSON, CSV or a printable page.")
blp.url_value_preprocessor(check_session_id)

DESCRIPTION = ("The statement: JSON by default; CSV (with a Content-Disposition filename) "
               "for ?format=csv or Accept: text/csv; a printable HTML page for ?format=html "
               "or Accept: text/html")


@blp.route("")
class Statement(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="getStatement")
    @blp.arguments(StatementAsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, StatementSchema, description=DESCRIPTION)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE,
                      schema={"type": "string"}, description=DESCRIPTION)
    @blp.alt_response(200, success=True, content_type=HTML_MIMETYPE,
                      schema={"type": "string"}, description=DESCRIPTION)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, format: str | None = None,  # noqa: A002 (the query name)
            as_of: str | None = None, table: str | None = None, bom: bool = False):
        """Read the settlement statement

        Per player: units paid for deals, antes, loos and each kind of penalty; units received
        from tricks and pools; the net and its money value; the pool left; the zero-sum check;
        and who pays whom. As a page, also each player's balance deal by deal (an SVG chart).
        With `as_of`, the statement as it stood then (marked `as_of`, and pinned to the log's
        version and chain head at that point), in every format.
        """
        wanted = wanted_format(format)
        if wanted == "csv":
            return statement_csv(session_id, as_of, table=table, bom=bom)
        if wanted == "html":
            return statement_page(session_id, as_of)
        return ledger().statement(session_id, as_of=as_of), 200, {"Vary": "Accept"}
