"""Closing a period, the club's opening balances and its books as Beancount (docs/books.md,
"Closing a period", "Opening balances", "The books as Beancount").

Reads: admin, treasurer, auditor. A period is closed by the treasurer and reopened by an
admin (with a reason); opening balances are imported by the treasurer. Every write is a book
entry, through the write protocol of every book write (`Idempotency-Key`; an import sent
without one is keyed by its file, so the same file twice is recorded once).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Response, request
from flask.views import MethodView

from api.http.auth import ADMIN, BOOK_READERS, TREASURER, principal, requires
from api.http.context import books
from api.http.errors import ApiProblem
from api.http.extension import services
from api.http.inputs import Blueprint, header_params
from api.http.writing import (
    ENTRY_HEADERS,
    errors,
    write_doc,
    write_request,
    written,
)
from api.schemas.books import AsOfQuery, BookEntrySchema
from api.schemas.periods import (
    CloseIn,
    ExportQuery,
    OpeningImportSchema,
    PeriodsSchema,
    ReopenIn,
)
from ledger.books.beancount import beancount
from ledger.books.closing import Periods, file_digest, import_key

blp = Blueprint("periods", __name__, url_prefix="",
                description="Closing a month, the club's opening balances, and its books as "
                            "Beancount for its accountant.")

WRITE_ERRORS = ("BAD_REQUEST", "UNSUPPORTED_MEDIA_TYPE", "UNPROCESSABLE_ENTITY", "CONFLICT")
CSV_TYPES = ("text/csv", "text/plain")
BEANCOUNT_MIMETYPE = "text/plain"


def periods() -> Periods:
    return Periods(books())


@blp.route("/periods")
class PeriodList(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="listPeriods")
    @blp.arguments(AsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, PeriodsSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, as_of: str | None = None):
        """List the closed periods

        Every month ever closed, oldest first: whether it is closed now, who closed it and
        when, its end and every account's balance there, and its reopenings.
        """
        return periods().periods(as_of=as_of)


@blp.route("/periods/<period>/closing")
class Closing(MethodView):
    @requires(TREASURER)
    @write_doc(blp, CloseIn, "closePeriod")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS)
    def post(self, _data: dict[str, Any], period: str):
        """Close a month

        `period` is a month, YYYY-MM (UTC), that has ended (409 `period-not-ended`). A
        `PeriodClosed` entry records every account's balance at its end; from then on
        nothing is dated inside it: a late correction of one of its sessions, or the
        reversal of one of its entries, posts in the open period and says so, and an
        opening balance dated in it is refused (409 `period-closed`). Closed once (409
        `period-already-closed`) until an admin reopens it.
        """
        return written(periods().close(period, request=write_request()))


@blp.route("/periods/<period>/reopening")
class Reopening(MethodView):
    @requires(ADMIN)
    @write_doc(blp, ReopenIn, "reopenPeriod")
    @blp.response(201, BookEntrySchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS)
    def post(self, data: dict[str, Any], period: str):
        """Reopen a closed month (an admin's)

        With a reason: a `PeriodReopened` entry. The closing stays in the log, its balances
        as they were (409 `period-not-closed` for a month that is not closed).
        """
        return written(periods().reopen(period, **data, request=write_request()))


# Documented as a form with its file (what a generated client sends); the same file as a
# text/csv body is taken too (curl --data-binary), as the description says.
IMPORT_BODY = {"required": True, "content": {
    "multipart/form-data": {"schema": {"type": "object", "required": ["file"], "properties": {
        "file": {"type": "string", "format": "binary", "description": "The CSV file: "
                 "member,amount,currency,as_of,note"}}}}}}


@blp.route("/opening-balances")
class OpeningBalances(MethodView):
    @requires(TREASURER)
    @blp.doc(operationId="importOpeningBalances", requestBody=IMPORT_BODY,
             parameters=header_params("Idempotency-Key"))
    @blp.response(201, OpeningImportSchema, headers=ENTRY_HEADERS)
    @errors(blp, *WRITE_ERRORS)
    def post(self):
        """Import the club's opening balances from a CSV file

        The columns `member,amount,currency,as_of,note`: a member by name or id, his
        balance in money (12.50; positive when the club owed him, negative when he owed
        it), an ISO 4217 currency the club keeps, the date of the balance (YYYY-MM-DD, not
        in the future, in no closed period) and a note. All or nothing: a file with a bad
        line is refused (422 `opening-balances`) listing every bad line (`lines`: its
        number, field, rule and reason), and nothing is recorded. Sent as the `file` of a
        multipart form, or as the body itself with Content-Type text/csv. Without an
        Idempotency-Key the file's digest is its key: the same file sent twice is recorded
        once.
        """
        content = _file()
        return written(periods().import_opening(content, request=write_request(
            default_key=import_key(content), body=file_digest(content))))


def _file() -> bytes:
    """The CSV file of the request: its body, or a multipart form's `file`."""
    mimetype = request.mimetype or ""
    if mimetype == "multipart/form-data":
        sent = request.files.get("file")
        if sent is None:
            raise ApiProblem(400, "malformed-request", "send the CSV as the form's `file`",
                             rule="file", field="file")
        return sent.read()
    if mimetype not in CSV_TYPES:
        raise ApiProblem(415, "unsupported-media-type",
                         f"send the file as text/csv or multipart/form-data, not "
                         f"{mimetype or 'nothing'}", rule="content-type",
                         headers={"Accept-Post": "text/csv, multipart/form-data"})
    return request.get_data(cache=True)


@blp.route("/books/export.beancount", tags=["periods"])
class BeancountExport(MethodView):
    @requires(*BOOK_READERS)
    @blp.doc(operationId="exportBeancount")
    @blp.arguments(ExportQuery, location="query")
    @blp.alt_response(200, success=True, content_type=BEANCOUNT_MIMETYPE,
                      schema={"type": "string"},
                      description="The books of the period as a Beancount file, with a "
                                  "Content-Disposition filename")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, query: dict[str, Any]) -> Response:
        """Export the books of a period as Beancount

        From `from` to `to` (days, UTC, both included): an account per member and for the
        club's tin, bank, pools, write-offs, cash differences and opening balances; the
        balances brought forward; one transaction per book entry and per session result;
        a `balance` assertion per account at the period's end (what /accounts says as of
        it). Amounts in money, in the currency's decimals.
        """
        first, last = query["from"], query["to"]
        text = beancount(services().engine, principal().club_id, first, last)
        return Response(text, mimetype=BEANCOUNT_MIMETYPE, headers={
            "Content-Disposition": f'attachment; filename="{_filename(first, last)}"'})


def _filename(first: date, last: date) -> str:
    return f"lanterloo-books-{first}-{last}.beancount"
