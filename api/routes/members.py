"""A member's own view: the sessions he played and his part of each statement.

A member token (role `member`) reads these, and his account (`GET /members/<id>/account`,
api/routes/books.py), for its own member only: any other member's id is a 403 decided before
anything is looked up (api/http/auth.py `requires(..., own="member_id")`). The club's books
readers (admin, treasurer, auditor) read any member's. docs/books.md, "A member's own view".
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask.views import MethodView
from marshmallow import fields, validate

from api.http.auth import OWN_READERS, requires
from api.http.context import check_session_id
from api.http.forms import member_view
from api.http.inputs import Blueprint
from api.schemas import KnownQuery, Open
from api.schemas.books import AS_OF, AsOfQuery
from api.schemas.explain import AS_OF as SESSION_AS_OF
from api.schemas.views import (
    LogPinSchema,
    StatementCheckSchema,
    StatementPlayerSchema,
    as_of_member,
)
from ledger.domain.vocabulary import Status

blp = Blueprint("members", __name__, url_prefix="/members/<member_id>",
                description="A member's own view: the sessions he played and his line of "
                            "each statement (his account: GET /members/<id>/account).")
blp.url_value_preprocessor(check_session_id)


class PlayedSchema(Open):
    session_id = fields.String(required=True)
    session_name = fields.String(required=True, allow_none=True)
    seat = fields.String(required=True, allow_none=True,
                         metadata={"description": "The name he was seated under"})
    ended_at = fields.String(required=True, metadata={"format": "date-time"})
    currency = fields.String(required=True, metadata={"description": "units: played for "
                                                                     "counters"})
    net_units = fields.Integer(required=True, allow_none=True, metadata={
        "description": "His net in units: his result, plus each late correction's "
                       "adjustment posted by then"})
    net_minor = fields.Integer(required=True, allow_none=True,
                               metadata={"description": "His net in money (null for counters)"})
    statement = fields.String(required=True, metadata={
        "description": "His line of the session's statement: the URL"})


class StatementsSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    sessions = fields.List(fields.Nested(PlayedSchema), required=True,
                           metadata={"description": "The ended sessions he played, newest "
                                                    "first"})
    as_of = AS_OF


class SessionTotalsSchema(Open):
    players = fields.Integer(required=True, metadata={"description": "Seats at the table"})
    paid_units = fields.Integer(required=True, metadata={"description": "Paid in by all"})
    received_units = fields.Integer(required=True,
                                    metadata={"description": "Received by all"})
    won_units = fields.Integer(required=True, metadata={"description": "The winners' nets"})
    lost_units = fields.Integer(required=True, metadata={"description": "The losers' nets"})


class PoolLeftSchema(Open):
    current_pool_units = fields.Integer(required=True)
    next_pool_units = fields.Integer(required=True)
    what_became_of_it = fields.String(required=True)


class MemberStatementSchema(Open):
    member_id = fields.String(required=True)
    session_id = fields.String(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf([s.value for s in Status]))
    ended_method = fields.String(required=True, allow_none=True)
    preset = fields.String(required=True)
    unit = fields.String(required=True)
    money_per_unit_minor = fields.Integer(required=True, allow_none=True)
    currency = fields.String(required=True, allow_none=True)
    deals = fields.Integer(required=True)
    final = fields.Boolean(required=True, metadata={"description": "Ended, nothing left in "
                                                                   "the pools"})
    line = fields.Nested(StatementPlayerSchema, required=True,
                         metadata={"description": "His line, as the statement has it"})
    totals = fields.Nested(SessionTotalsSchema, required=True)
    pool = fields.Nested(PoolLeftSchema, required=True)
    check = fields.Nested(StatementCheckSchema, required=True)
    corrections = fields.Integer(required=True,
                                 metadata={"description": "How many corrections it had"})
    log = fields.Nested(LogPinSchema, required=True, allow_none=True, metadata={
        "description": "The log the statement was drawn from: its version and chain head"})
    as_of = as_of_member()


class SessionAsOfQuery(KnownQuery):
    as_of = SESSION_AS_OF


@blp.route("/statements", tags=["books"])
class Statements(MethodView):
    @requires(*OWN_READERS, own="member_id")
    @blp.doc(operationId="listMemberStatements")
    @blp.arguments(AsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, StatementsSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, member_id: str, as_of: str | None = None) -> dict[str, Any]:
        """List the sessions a member played, newest first

        Each ended session he held a seat in, with his net and the URL of his line of its
        statement. `as_of` (a book position or a time) reads it as it stood then.
        """
        data = member_view(member_id).statements(as_of=as_of)
        for played in data["sessions"]:
            played["statement"] = url_for("members.MemberStatement", member_id=member_id,
                                          session_id=played["session_id"])
        return data


@blp.route("/statements/<session_id>", tags=["books"])
class MemberStatement(MethodView):
    @requires(*OWN_READERS, own="member_id")
    @blp.doc(operationId="getMemberStatement")
    @blp.arguments(SessionAsOfQuery, location="query", as_kwargs=True)
    @blp.response(200, MemberStatementSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, member_id: str, session_id: str,
            as_of: str | None = None) -> dict[str, Any]:
        """Read a member's line of a session's statement

        His own line, whole (paid and received by kind, his net and its money value), and
        the session's totals, its pools and zero-sum check: no other player's line. A session
        he held no seat in is answered as one that does not exist.
        """
        return member_view(member_id).statement(session_id, as_of=as_of)
