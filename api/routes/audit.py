"""The auditor's questions across the club's sessions: the event search, the penalty and
breach register and the corrections, filtered and paged, as JSON or CSV (ledger/audit/queries.py);
and the register of tokens to review (ledger/clubs/service.py `token_register`)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
import orjson
from flask import Response, url_for
from flask.views import MethodView

from api.http.auth import RECORD_READERS, principal, requires
from api.http.context import ledger
from api.http.extension import services
from api.http.formats import CSV_MIMETYPE, wants_csv
from api.http.inputs import Blueprint
from api.schemas.audit import (
    AuditEventsPage,
    AuditQuery,
    CorrectionsPage,
    CorrectionsQuery,
    RegisterPage,
    RegisterQuery,
    TokenRegisterSchema,
)
from ledger.audit.queries import (
    CORRECTION_COLUMNS,
    EVENT_COLUMNS,
    REGISTER_COLUMNS,
    Audit,
    Filters,
    to_csv,
)

blp = Blueprint("audit", __name__, url_prefix="/audit",
                description="Search the club's events; the penalty and breach register; the "
                            "corrections. JSON, or CSV with ?format=csv or Accept: text/csv.")

CSV_DOC = {"description": "The same rows as CSV (?format=csv or Accept: text/csv)",
           "schema": {"type": "string"}}
FILTER_NAMES = ("session_id", "member_id", "type", "offence", "breach", "actor", "token_id",
                "since", "until")


def answer(endpoint: str, key: str, columns: list[str], query: dict[str, Any],
           run: Any) -> Any:
    filters = Filters(**{k: v for k, v in query.items() if k in FILTER_NAMES})
    after, limit, fmt = query["after"], query["limit"], query.get("format")
    page = dict(run(Audit.of(ledger()), filters, after=after, limit=limit))
    headers = {"Vary": "Accept"}
    page["next"] = None
    if page["next_after"] is not None:
        args = {k: (v.isoformat() if hasattr(v, "isoformat") else v)
                for k, v in query.items() if k in FILTER_NAMES or k == "format"
                or (k == "bom" and v)}
        page["next"] = url_for(endpoint, **args, after=page["next_after"], limit=limit)
        headers["Link"] = f'<{page["next"]}>; rel="next"'
    if wants_csv(fmt):
        bom = "\ufeff" if query.get("bom") else ""
        return Response(bom + to_csv(page[key], columns), mimetype=CSV_MIMETYPE, headers={
            **headers, "Content-Disposition": f'attachment; filename="lanterloo-audit-{key}'
                                              f'-after-{after}.csv"'})
    # Written straight as JSON (the schema documents it): marshmallow's dump of a page of
    # five hundred events costs more than the query behind it.
    return Response(orjson.dumps(page), status=200, mimetype="application/json",
                    headers=headers)


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


# The query schema of each.
QUERY_SCHEMAS: dict[str, type[ma.Schema]] = {
    "events": AuditQuery, "penalties": RegisterQuery, "corrections": CorrectionsQuery}
# Each query: its endpoint, the page's list, the CSV's columns and how to run it.
QUERIES: dict[str, tuple[str, str, list[str], Any]] = {
    "events": ("audit.Events", "events", EVENT_COLUMNS,
               lambda audit, f, **page: audit.events(f, **page)),
    "penalties": ("audit.Penalties", "entries", REGISTER_COLUMNS,
                  lambda audit, f, **page: audit.penalties(f, **page)),
    "corrections": ("audit.Corrections", "corrections", CORRECTION_COLUMNS,
                    lambda audit, f, **page: audit.corrections(f, **page)),
}


def run_query(name: str, query: dict[str, Any]) -> Any:
    endpoint, key, columns, run = QUERIES[name]
    return answer(endpoint, key, columns, query, run)


def audit_csv(name: str, query: dict[str, Any]) -> Any:
    """One of the audit queries as CSV (also GET /audit/<name>.csv, api/routes/exports.py)."""
    return run_query(name, {**query, "format": "csv"})
