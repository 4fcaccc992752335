"""The text forms as routes of their own: CSV for a spreadsheet, HTML for a printable page.

Each is also served by its JSON route (`?format=` or the Accept header), where a browser and
the tablet ask for it; here each is an operation whose one answer is text (`text/csv` or
`text/html`), so that a client generated from the OpenAPI document asks for text and gets a
string, never JSON to parse. The work is done once, in api/http/forms.py, for both routes (one
path per thing), and each is tagged as its JSON route is, so a generated client has the two
side by side.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Response
from flask.views import MethodView

from api.http.auth import ACCOUNT_READERS, BOOK_READERS, RECORD_READERS, requires
from api.http.context import check_session_id
from api.http.formats import CSV_MIMETYPE
from api.http.forms import (
    account_csv,
    audit_csv,
    club_page,
    debts_csv,
    explain_csv,
    member_page,
    payables_csv,
    register_answer,
    settle_up_csv,
    statement_csv,
    statement_page,
)
from api.http.inputs import Blueprint
from api.pages.printable import HTML_MIMETYPE
from api.schemas.audit import QUERY_SCHEMAS
from api.schemas.books import AsOfQuery, CsvQuery, RegisterQuery, SeasonQuery
from api.schemas.explain import AsOfQuery as SessionAsOfQuery
from api.schemas.explain import ExplainQuery, StatementAsOfQuery

blp = Blueprint("exports", __name__, url_prefix="",
                description="The statement, the trail, the audit registers and the books as "
                            "CSV, and the printable pages as HTML: each a route of its own.")
blp.url_value_preprocessor(check_session_id)


def text(content_type: str, description: str) -> Any:
    """Document the one answer of a text route, and its refusals."""
    def decorate(view: Any) -> Any:
        view = blp.alt_response(200, success=True, content_type=content_type,
                                schema={"type": "string"}, description=description)(view)
        view = blp.alt_response(404, response="NOT_FOUND")(view)
        return blp.alt_response(422, response="UNPROCESSABLE_ENTITY")(view)
    return decorate


@blp.route("/sessions/<session_id>/statement.csv", tags=["statement"])
class StatementCsv(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="getStatementCsv")
    @blp.arguments(StatementAsOfQuery(exclude=("format",)), location="query", as_kwargs=True)
    @text(CSV_MIMETYPE, "The statement as CSV, with a Content-Disposition filename")
    def get(self, session_id: str, as_of: str | None = None, table: str | None = None,
            bom: bool = False) -> Response:
        """Read the settlement statement as CSV (as of a point with `as_of`)"""
        return statement_csv(session_id, as_of, table=table, bom=bom)


@blp.route("/sessions/<session_id>/statement.html", tags=["statement"])
class StatementPage(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="getStatementPage")
    @blp.arguments(SessionAsOfQuery, location="query", as_kwargs=True)
    @text(HTML_MIMETYPE, "The statement as a printable page, the balances charted in SVG")
    def get(self, session_id: str, as_of: str | None = None) -> Response:
        """Read the settlement statement as a printable page (as it stands, or stood at
        `as_of`)"""
        return statement_page(session_id, as_of)


@blp.route("/sessions/<session_id>/explain.csv", tags=["explain"])
class ExplainCsv(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="explainSessionCsv")
    @blp.arguments(ExplainQuery(exclude=("format",)), location="query", as_kwargs=True)
    @text(CSV_MIMETYPE, "The trail as CSV: one row per posting")
    def get(self, session_id: str, player: str | None = None, as_of: str | None = None,
            table: str | None = None, bom: bool = False) -> Response:
        """Explain every figure, as CSV"""
        return explain_csv(session_id, player, as_of, table=table, bom=bom)


def _audit(name: str, operation: str, summary: str) -> type[MethodView]:
    class AuditCsv(MethodView):
        @requires(*RECORD_READERS)
        @blp.doc(operationId=operation, summary=summary)
        @blp.arguments(QUERY_SCHEMAS[name](exclude=("format",)), location="query")
        @text(CSV_MIMETYPE, "The rows as CSV; the next page in the Link header")
        def get(self, query: dict[str, Any]) -> Any:
            return audit_csv(name, query)

    AuditCsv.__name__ = f"Audit{name.capitalize()}Csv"
    return blp.route(f"/audit/{name}.csv", tags=["audit"])(AuditCsv)


_audit("events", "searchEventsCsv", "Search the club's events, as CSV")
_audit("penalties", "penaltyRegisterCsv", "The penalty and breach register, as CSV")
_audit("corrections", "correctionsRegisterCsv", "The corrections, as CSV")


@blp.route("/members/<member_id>/account.csv", tags=["books"])
class AccountCsv(MethodView):
    @requires(*ACCOUNT_READERS, own="member_id")
    @blp.doc(operationId="getMemberAccountCsv")
    @blp.arguments(CsvQuery(exclude=("format",)), location="query", as_kwargs=True)
    @text(CSV_MIMETYPE, "Every entry of the account, as CSV")
    def get(self, member_id: str, as_of: str | None = None, bom: bool = False) -> Response:
        """Read a member's account as CSV: every entry"""
        return account_csv(member_id, as_of=as_of, bom=bom)


@blp.route("/members/<member_id>/account.html", tags=["books"])
class AccountPage(MethodView):
    @requires(*ACCOUNT_READERS, own="member_id")
    @blp.doc(operationId="getMemberPage")
    @blp.arguments(AsOfQuery, location="query", as_kwargs=True)
    @text(HTML_MIMETYPE, "The member's own page: his balance, what is open, his sessions and "
                         "his line of each")
    def get(self, member_id: str, as_of: str | None = None) -> Response:
        """Read a member's own page (his account as it stands, or stood at `as_of`,
        printable, for a phone)"""
        return member_page(member_id, as_of)


@blp.route("/debts.csv", tags=["books"])
class DebtsCsv(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getDebtsCsv")
    @blp.arguments(CsvQuery(exclude=("format",)), location="query", as_kwargs=True)
    @text(CSV_MIMETYPE, "The open debts as CSV")
    def get(self, as_of: str | None = None, bom: bool = False) -> Response:
        """Read the open debts as CSV"""
        return debts_csv(as_of=as_of, bom=bom)


@blp.route("/payables.csv", tags=["books"])
class PayablesCsv(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getPayablesCsv")
    @blp.arguments(CsvQuery(exclude=("format",)), location="query", as_kwargs=True)
    @text(CSV_MIMETYPE, "What the club owes, as CSV")
    def get(self, bom: bool = False, as_of: str | None = None) -> Response:
        """Read what the club owes as CSV"""
        return payables_csv(as_of=as_of, bom=bom)


@blp.route("/settle-up.csv", tags=["books"])
class SettleUpCsv(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getSettleUpCsv")
    @blp.arguments(CsvQuery(exclude=("format",)), location="query", as_kwargs=True)
    @text(CSV_MIMETYPE, "Who pays whom, one row each, as CSV")
    def get(self, bom: bool = False, as_of: str | None = None) -> Response:
        """Settle up with the club, as CSV"""
        return settle_up_csv(as_of=as_of, bom=bom)


@blp.route("/book-entries.csv", tags=["books"])
class RegisterCsv(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="bookRegisterCsv")
    @blp.arguments(RegisterQuery(exclude=("format",)), location="query")
    @text(CSV_MIMETYPE, "A page of the book register as CSV; the next page in the Link header")
    def get(self, query: dict[str, Any]) -> Any:
        """The book log as a register, as CSV"""
        return register_answer(query, csv=True, endpoint="exports.RegisterCsv")


@blp.route("/standings.html", tags=["books"])
class ClubPage(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getClubPage")
    @blp.arguments(SeasonQuery(exclude=("format", "after", "limit")), location="query",
                   as_kwargs=True)
    @text(HTML_MIMETYPE, "The club's page: the standings and the open debts, printable")
    def get(self, since: datetime | None = None, until: datetime | None = None,
            as_of: str | None = None) -> Response:
        """Read the season's standings as the club's printable page"""
        return club_page(since, until, as_of=as_of)
