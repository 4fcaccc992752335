"""Events: what the table logs (appended under the rules), and the session's log, paged."""

from __future__ import annotations

from flask import current_app, url_for
from flask.views import MethodView

from api.http.auth import APPENDERS, RECORD_READERS, check_commands, requires
from api.http.context import check_session_id, ledger
from api.http.inputs import REPLAYED_HEADER, Blueprint, header_params, session_links
from api.http.writing import REPLAYED_DOC, write_request, written
from api.schemas import (
    AppendResultSchema,
    EventsPageSchema,
    EventsQuery,
)
from api.schemas.events import AppendIn
from ledger.domain import Command

blp = Blueprint("events", __name__, url_prefix="/sessions/<session_id>/events",
                description="Log what happens at the table; read the session's events.")
blp.url_value_preprocessor(check_session_id)

@blp.route("")
class Events(MethodView):
    @requires(*APPENDERS)
    @blp.arguments(AppendIn, description=(
        "One event, or a batch `{\"events\": [...], \"expected_version\": 12}` appended all "
        "or nothing. The expected version may also be sent as the header `If-Match: \"12\"`; "
        "an append that names no version and sends no Idempotency-Key is refused with 428. "
        "No event carries an amount: the rules decide every amount."))
    @blp.doc(
        operationId="appendEvents",
        responses={201: {"links": session_links(
            "$response.body#/session_id", deal_no="$response.body#/session/deal_no")}},
        parameters=header_params("Idempotency-Key", "If-Match", "Prefer"),
    )
    @blp.response(201, AppendResultSchema, headers={
        "ETag": {"description": "The session version after the append",
                 "schema": {"type": "string"}},
        "Preference-Applied": {"description": "return=minimal when the lean form was sent",
                               "schema": {"type": "string", "enum": ["return=minimal"]}},
        REPLAYED_HEADER: REPLAYED_DOC})
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    @blp.alt_response(428, response="PRECONDITION_REQUIRED",
                      description="Neither If-Match (nor expected_version) nor an "
                                  "Idempotency-Key: a blind write is refused")
    def post(self, body: tuple[list[Command], int | None], session_id: str):
        """Append events

        Log what happened at the table, e.g. `{"type": "CardPlayed", "player": "C",
        "card": "QH"}`. The ledger checks it against the rules and appends it together with
        what the rules draw from it (a trick won, a deal settled, a breach detected);
        a refused event appends nothing, and a refused event in a batch appends none of it.

        Every append says what it builds on: `If-Match` with the session's version (its ETag)
        or `expected_version` in a batch (409 if the session moved on), or an
        `Idempotency-Key` (a retry returns the first answer). With neither it is a 428.
        `Prefer: return=minimal` answers with the version and the appended events' positions,
        versions and types only (`Preference-Applied: return=minimal`).
        """
        commands, body_version = body
        check_commands(commands)
        write = write_request(body_version=body_version, precondition=session_id)
        return written(ledger().append(session_id, commands, write), minimal=True)

    @requires(*RECORD_READERS)
    @blp.doc(operationId="readEvents")
    @blp.arguments(EventsQuery, location="query", as_kwargs=True)
    @blp.response(200, EventsPageSchema, headers={
        "Link": {"description": "rel=\"next\": the next page", "schema": {"type": "string"}}})
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, after: int, limit: int):
        """Read the session's events, paged by global position

        Every event, the client's and those the rules drew from them, with its position,
        version, actor and time. Follow `next` (or the Link header) until it is null.
        """
        limit = min(limit, int(current_app.config["MAX_PAGE_EVENTS"]))
        page = dict(ledger().events(session_id, after_position=after, limit=limit))
        next_after = page.get("next_after")
        headers = {}
        page["next"] = None
        if next_after is not None:
            page["next"] = url_for("events.Events", session_id=session_id, after=next_after,
                                   limit=limit)
            headers["Link"] = f'<{page["next"]}>; rel="next"'
        return page, 200, headers
