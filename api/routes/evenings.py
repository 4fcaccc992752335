"""An evening's tin: the sessions of one evening share a tin, its float and its count
(docs/books.md, "The cash check").

    POST /evenings/<date>/sessions          {session_id}: its cash is in the evening's tin
    POST /evenings/<date>/float             {amount_minor, currency, note?}
    POST /evenings/<date>/cash              {counted_minor, currency, note?}
    POST /evenings/<date>/cash-differences  {difference, amount_minor, currency, account, reason}
    GET  /evenings/<date>                   the tin: sessions, float, cash check (JSON, CSV)

An evening is named by its date, YYYY-MM-DD. Each write is a book entry (reversible like any
other); reads: admin, treasurer, auditor; writes: the treasurer.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.http.auth import BOOK_READERS, BOOKKEEPERS, requires
from api.http.context import books
from api.http.formats import CSV_MIMETYPE, csv_file, wants_csv
from api.http.inputs import Blueprint
from api.http.writing import (
    ENTRY_HEADERS,
    WRITE_ERRORS,
    errors,
    write_doc,
    write_request,
    written,
)
from api.schemas.books import (
    BookEntrySchema,
    CashDifferenceIn,
    CashIn,
    CsvQuery,
    EveningSchema,
    EveningSessionIn,
    FloatIn,
)
from ledger.domain.accounts import money_table

blp = Blueprint("evenings", __name__, url_prefix="",
                description="An evening's tin: the sessions of one evening share a float "
                            "and a cash count.")

@blp.route("/evenings/<evening>/sessions")
class EveningSessions(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, EveningSessionIn, "joinEvening")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS, "CONFLICT")
    def post(self, data: dict[str, Any], evening: str):
        """Put a session's cash in the evening's tin

        Its cash payments, its payouts and its pools count in the evening's cash check. A
        session is in one tin: not one that joined an evening already (409
        `session-in-evening`) nor one with a float, count or difference of its own (409
        `session-has-own-tin`); in the tin's currency (422 `evening-currency`).
        """
        return written(books().join_evening(evening, **data, request=write_request()))


@blp.route("/evenings/<evening>/float")
class EveningFloat(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, FloatIn, "openEveningFloat")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS, "CONFLICT")
    def post(self, data: dict[str, Any], evening: str):
        """Record the float put in the evening's tin

        The club's cash the tin starts with, before any session if need be; the first float
        or session sets the tin's currency, one the club keeps.
        """
        return written(books().open_float(evening=evening, **data, request=write_request()))


@blp.route("/evenings/<evening>/cash")
class EveningCash(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, CashIn, "countEveningCash")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS, "CONFLICT")
    def post(self, data: dict[str, Any], evening: str):
        """Record the cash counted in the evening's tin at the close

        Every session of the evening must have ended (409 `cash-after-end`), and there must
        be one (409 `evening-has-sessions`).
        """
        return written(books().count_cash(evening=evening, **data, request=write_request()))


@blp.route("/evenings/<evening>/cash-differences")
class EveningCashDifferences(MethodView):
    @requires(*BOOKKEEPERS)
    @write_doc(blp, CashDifferenceIn, "bookEveningCashDifference")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS, "CONFLICT")
    def post(self, data: dict[str, Any], evening: str):
        """Book the evening's tin's shortage or surplus

        Against the club or a member, with a reason; at most what the evening's cash check
        leaves unbooked, of that sign.
        """
        return written(books().book_cash_difference(evening=evening, **data,
                                                    request=write_request()))


TIN_COLUMNS = ["line", "session_name", "currency", "amount", "amount_minor", "session_id"]


@blp.route("/evenings/<evening>")
class Evening(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="getEvening")
    @blp.arguments(CsvQuery, location="query", as_kwargs=True)
    @blp.response(200, EveningSchema)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema={"type": "string"},
                      description="The tin's reckoning, one line each, as CSV")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, evening: str, bom: bool, format: str | None = None,  # noqa: A002
            as_of: str | None = None):
        """Read the evening's tin

        Its sessions (the cash each took and paid out, what is left in its pools), its float
        and its cash check: expected = the float + the pools + the cash paid in - the cash
        paid out, against the count; the difference and what of it is booked.
        """
        tin = books().evening(evening, as_of=as_of)
        if wants_csv(format):
            return csv_file(money_table(TIN_COLUMNS, reckoning(tin)),
                            f"lanterloo-evening-{evening}.csv", bom=bom)
        return tin


def reckoning(tin: dict[str, Any]) -> list[dict[str, Any]]:
    """The tin as a till's reckoning, one table: the float, each session's pools and cash
    paid in and out (each as a positive amount), then what was expected, counted, the
    difference (counted - expected), booked and left unbooked."""
    currency = tin["currency"]

    def line(name: str, minor: int, session: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"line": name, "session_name": session["session_name"] if session else None,
                "session_id": session["session_id"] if session else None,
                "currency": currency, "amount_minor": minor}

    rows = [line("float", tin["float_minor"])]
    for s in tin["sessions"]:
        for name, key in (("pools", "pools_minor"), ("cash paid in", "cash_paid_in_minor"),
                          ("cash paid out", "cash_paid_out_minor")):
            rows.append(line(name, s[key], s))
    cash = tin["cash"]
    if cash is not None:
        rows += [line(name, cash[key]) for name, key in (
            ("expected", "expected_minor"), ("counted", "counted_minor"),
            ("difference", "difference_minor"), ("booked", "booked_minor"),
            ("unbooked", "unbooked_minor"))]
    return rows

