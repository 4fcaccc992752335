"""Sessions: open one, read its state."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, request, url_for
from flask.views import MethodView
from marshmallow import fields, validate

from api.http.auth import OPENERS, STATE_READERS, requires
from api.http.context import check_session_id, ledger
from api.http.errors import ApiProblem, first_message
from api.http.inputs import REPLAYED_HEADER, Blueprint, etag, header_params, session_links
from api.http.writing import REPLAYED_DOC, write_request, written
from api.schemas import (
    MAX_PLAYERS,
    PLAYER,
    AppendResultSchema,
    SessionOpenSchema,
    SessionViewSchema,
    distinct,
    money_field_in,
)
from api.schemas.explain import AsOfQuery
from ledger.domain import OpenSession

blp = Blueprint("sessions", __name__, url_prefix="/sessions",
                description="Open a session and read its state: whose turn, the legal "
                            "choices, the pools and every balance.")
blp.url_value_preprocessor(check_session_id)


class ClubSessionOpenSchema(SessionOpenSchema):
    """Open a session of the caller's club: the players are the club's members (display
    names in any case, or member ids); `guests` names players who are not members yet."""

    players = fields.List(fields.String(**PLAYER), required=True,
                          validate=[validate.Length(min=2, max=MAX_PLAYERS), distinct],
                          metadata={"description": "Members' names (or ids) in seat order "
                                                   "(to the left), each once; a guest by name",
                                    "uniqueItems": True,
                                    "example": ["A", "B", "C", "D", "E"]})
    guests = fields.List(fields.String(**PLAYER), load_default=list,
                         validate=validate.Length(max=52),
                         metadata={"description": "Players who are not members: each becomes "
                                                  "a guest member of the club",
                                   "example": []})

    @ma.pre_load
    def _no_money(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        money = money_field_in(data, allowed=frozenset({"money_per_unit_minor"}))
        if money is not None:
            raise ApiProblem(422, "money-from-client",
                             f"money amounts are decided by the rules: remove {money!r}; "
                             "to change a rule parameter such as stake or loo_amount, send it "
                             "under \"rules\"", rule="no-client-amounts", field=money)
        return data

    @ma.post_load
    def _command(self, data: dict[str, Any], **kwargs: Any) -> tuple[OpenSession, list[str]]:
        guests = data.pop("guests")
        return OpenSession(**data), guests

    def handle_error(self, error: ma.ValidationError, data: Any, *, many: bool,
                     **kwargs: Any) -> None:
        # A rule parameter of the wrong type is refused here, named as the rules name it.
        field, message = first_message(error.messages)
        if field.startswith("rules."):
            raise ApiProblem(422, "validation-failed", f"{field}: {message}",
                             rule="rule-parameter", field=field,
                             errors=error.messages) from None


@blp.route("")
class Sessions(MethodView):
    @requires(*OPENERS)
    @blp.arguments(ClubSessionOpenSchema)
    @blp.doc(
        operationId="openSession",
        parameters=header_params("Idempotency-Key"),
        responses={201: {"links": session_links("$response.body#/session_id")}},
    )
    @blp.response(201, AppendResultSchema, headers={
        "Location": {"description": "The new session", "schema": {"type": "string"}},
        "ETag": {"description": "The session version, for the If-Match of the first append",
                 "schema": {"type": "string"}},
        REPLAYED_HEADER: REPLAYED_DOC})
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: tuple[OpenSession, list[str]]):
        """Open a session

        The players in seat order, a rule preset (baxter-wray by default) and any single
        parameters the club overrides under `rules`. The first event of the session stores
        the effective rules whole.
        """
        command, guests = body
        result = ledger().open_session(command, write_request(), guests=guests)
        return written(result, headers={
            "Location": url_for("sessions.Session", session_id=result.body["session_id"])})


@blp.route("/<session_id>")
class Session(MethodView):
    @requires(*STATE_READERS)
    @blp.doc(operationId="getSession",
             parameters=[{"in": "header", "name": "If-None-Match", "required": False,
                          "schema": {"type": "string", "example": '"12"'},
                          "description": "The ETag last read: 304 with no body while the "
                                         "session is still at that version"}],
             responses={200: {"links": session_links("$response.body#/session_id",
                                                       deal_no="$response.body#/deal_no")}})
    @blp.arguments(AsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, SessionViewSchema, headers={
        "ETag": {"description": "The session version, for If-Match (not sent as of an "
                                "earlier point)",
                 "schema": {"type": "string"}}})
    @blp.alt_response(
        304, description="Not modified: the session is still at the version If-None-Match "
                         "names",
        headers={"ETag": {"description": "The session version", "schema": {"type": "string"}}})
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, as_of: str | None = None):
        """Read a session: whose turn, the legal choices, pools and balances

        Send `If-None-Match` with the ETag last read to poll cheaply: 304 with no body while
        nothing was appended since. With `as_of` (a version or an ISO-8601 time), the session
        as it stood then, marked `as_of`: no ETag, and If-None-Match is not consulted (the
        ETag names the present version only).
        """
        if as_of is not None:
            return ledger().session(session_id, as_of=as_of)
        if request.if_none_match:  # a poll: the version alone says whether it changed
            tag = etag(ledger().session_version(session_id))
            if request.if_none_match.contains_weak(tag.strip('"')):
                return Response(status=304, headers={"ETag": tag})
        view = ledger().session(session_id)
        return view, 200, {"ETag": etag(int(view["version"]))}
