"""The settlement statement: what each player paid and received, the net, who pays whom.

As JSON (the default), CSV (`?format=csv` or `Accept: text/csv`), or a printable HTML page
(`?format=html` or `Accept: text/html`: api/pages/printable.py, with the balance chart drawn as SVG
and no script; a browser opens it through the page shell /table/statement, which sends the token).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response
from flask.views import MethodView

from api.http.auth import RECORD_READERS, principal, requires
from api.http.context import check_session_id, ledger
from api.http.formats import CSV_MIMETYPE, wanted_format
from api.http.inputs import Blueprint
from api.pages.printable import HTML_MIMETYPE, render_statement
from api.schemas import StatementSchema
from api.schemas.explain import StatementAsOfQuery

blp = Blueprint("statement", __name__, url_prefix="/sessions/<session_id>/statement",
                description="The settlement statement, as JSON, CSV or a printable page.")
blp.url_value_preprocessor(check_session_id)

DESCRIPTION = ("The statement: JSON by default; CSV (with a Content-Disposition filename) "
               "for ?format=csv or Accept: text/csv; a printable HTML page for ?format=html "
               "or Accept: text/html")


def csv_filename(session_id: str, table: str | None = None) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", session_id)[:80] or "session"
    return f"lanterloo-{safe}-statement{'-' + table if table else ''}.csv"


def statement_explain(session_id: str, as_of: str | None = None) -> dict[str, Any] | None:
    """The postings behind each figure, for the page's expanding lines (the shape of
    `GET /sessions/<id>/explain`)."""
    return ledger().explain(session_id, as_of=as_of)


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


def statement_csv(session_id: str, as_of: str | None, *, table: str | None = None,
                  bom: bool = False) -> Response:
    """The statement as CSV, or one of its tables (also GET /sessions/<id>/statement.csv,
    api/routes/exports.py); `bom` starts it with a UTF-8 byte order mark."""
    text = ledger().statement_csv(session_id, as_of=as_of, table=table)
    return Response(("\ufeff" if bom else "") + text, mimetype=CSV_MIMETYPE, headers={
        "Content-Disposition": f'attachment; filename="{csv_filename(session_id, table)}"',
        "Vary": "Accept"})


def statement_page(session_id: str, as_of: str | None = None) -> Response:
    """The statement as a printable page (also GET /sessions/<id>/statement.html); as it
    stood at `as_of` (a version of the session's log or a time): its figures, its chart and
    the postings behind them, from the log up to there."""
    books = ledger()
    page = render_statement(books.statement(session_id, as_of=as_of),
                            books.balance_series(session_id, as_of=as_of),
                            explain=statement_explain(session_id, as_of),
                            club={"club_id": principal().club_id,
                                  "club": principal().club_name})
    # Its Content-Security-Policy (DOCUMENT_CSP) is set with every other's: api/http/security.py.
    return Response(page, mimetype=HTML_MIMETYPE, headers={"Vary": "Accept"})
