"""The auditor's questions across the club's sessions: the event search, the penalty and
breach register and the corrections, filtered and paged, as JSON or CSV (ledger/audit/queries.py);
the register of tokens to review (ledger/clubs/service.py `token_register`); the club's
sessions by date, the whole club verified page by page, and an exported session checked as
`lanterloo verify-export` checks it (ledger/audit/club.py)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.http.auth import RECORD_READERS, principal, requires
from api.http.context import books, ledger
from api.http.extension import services
from api.http.formats import CSV_MIMETYPE
from api.http.forms import run_query
from api.http.inputs import Blueprint
from api.schemas.audit import (
    AuditEventsPage,
    AuditQuery,
    ClubPageQuery,
    ClubSessionsPage,
    ClubSessionsQuery,
    ClubVerifySchema,
    CorrectionsPage,
    CorrectionsQuery,
    ExportCheckSchema,
    ExportFileSchema,
    RegisterPage,
    RegisterQuery,
    TokenRegisterSchema,
)
from ledger.audit.checkpoints import configured_signer
from ledger.audit.club import ClubAudit, check_export_file

blp = Blueprint("audit", __name__, url_prefix="/audit",
                description="Search the club's events; the penalty and breach register; the "
                            "corrections. JSON, or CSV with ?format=csv or Accept: text/csv.")

CSV_DOC = {"description": "The same rows as CSV (?format=csv or Accept: text/csv)",
           "schema": {"type": "string"}}



@blp.route("/events")
class Events(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="searchEvents")
    @blp.arguments(AuditQuery, location="query")
    @blp.response(200, AuditEventsPage)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema=CSV_DOC["schema"],
                      description=CSV_DOC["description"])
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, query: dict[str, Any]):
        """Search the club's events

        Every event of the club's sessions that the filters keep, in the order of the log,
        each with its session and whether it is live or superseded by a correction. Follow
        `next_after` (or `next`, or the Link header) until it is null.
        """
        return run_query("events", query)


@blp.route("/penalties")
class Penalties(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="penaltyRegister")
    @blp.arguments(RegisterQuery, location="query")
    @blp.response(200, RegisterPage)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema=CSV_DOC["schema"],
                      description=CSV_DOC["description"])
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, query: dict[str, Any]):
        """The penalty and breach register

        Every penalty imposed and every breach detected in the club's sessions: the session,
        deal, player, offence or breach, amount, law, whether the ledger detected it or it
        was entered, who logged it from which device and when, and whether a correction
        voided it.
        """
        return run_query("penalties", query)


@blp.route("/corrections")
class Corrections(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="correctionsRegister")
    @blp.arguments(CorrectionsQuery, location="query")
    @blp.response(200, CorrectionsPage)
    @blp.alt_response(200, success=True, content_type=CSV_MIMETYPE, schema=CSV_DOC["schema"],
                      description=CSV_DOC["description"])
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, query: dict[str, Any]):
        """The corrections

        Every correction in the club's sessions: the entries it voided and what it put in
        their place, the balances it changed, the reason and who authorised it.
        """
        return run_query("corrections", query)


@blp.route("/tokens")
class TokenRegister(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="tokenRegister")
    @blp.response(200, TokenRegisterSchema)
    def get(self):
        """The token register

        The club's tokens that a member issued and someone should review: one a member issued
        to himself (an admin giving himself a treasurer's token), and one an admin issued for
        a role that writes the ledger (treasurer, dealer); each with who issued it, with which
        token, when, the role, whether it is revoked, and why it is listed.
        """
        return {"tokens": services().clubs.token_register(principal().club_id)}


@blp.route("/sessions")
class Sessions(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="listClubSessions")
    @blp.arguments(ClubSessionsQuery, location="query", as_kwargs=True)
    @blp.response(200, ClubSessionsPage)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, after: int, limit: int, since: Any = None, until: Any = None,
            name: str | None = None):
        """The club's sessions, newest first

        Every session of the club opened in the window (`since`, `until`), open or ended,
        whose name contains `name` (any case): its name, players, when it was opened and
        last written, and its log's length. Follow `next_after` until it is null.
        """
        return ClubAudit(ledger(), books()).sessions(since=since, until=until, name=name,
                                                     after=after, limit=limit)


@blp.route("/verify")
class VerifyClub(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="verifyClub")
    @blp.arguments(ClubPageQuery, location="query", as_kwargs=True)
    @blp.response(200, ClubVerifySchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, after: int, limit: int):
        """Verify the whole club, a page of sessions at a time

        Each session of the page (oldest first) is verified as `GET /sessions/<id>/verify`
        does; the first page (`after=0`) also checks the club's book log and club log. Follow
        `next_after` until it is null: the club is whole when every page is `ok`.
        """
        return ClubAudit(ledger(), books()).verify(after=after, limit=limit)


@blp.route("/export-check")
class ExportCheck(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="checkExport")
    @blp.arguments(ExportFileSchema)
    @blp.response(200, ExportCheckSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    def post(self, exported: dict[str, Any]):
        """Check an exported session, as `lanterloo verify-export` does

        Writes nothing. Every hash recomputed from the session's genesis, the head's
        signature checked by the service's own public key (GET /club/checkpoint-key), and the
        money folded again to the statement the file holds. A file larger than the service's
        body limit is checked with `lanterloo verify-export FILE --public-key <key>`.
        """
        signer = configured_signer()
        return check_export_file(exported, {signer.public_hex} if signer else None)
