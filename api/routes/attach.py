"""Sessions recorded before clubs, brought into the caller's club (docs/operations.md,
"Upgrading").

A database made by the first release holds sessions that belong to no club. The club's
administrator lists them and attaches each one: one `SessionAttached` event seats every player
as the member of that name, or a new guest member, and from then on the session, its statements
and its results are the club's. The money is not changed, and a session is attached once.

Sessions outside every club carry no owner, so the route is offered only where their owner is
plain: a database that holds one club, or the club the operator names in `LOO_ATTACH_CLUB`
(its id or name). Elsewhere the operator attaches with `lanterloo club attach`.
"""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from marshmallow import fields

from api.http.auth import MANAGERS, principal, requires
from api.http.context import check_session_id, ledger
from api.http.errors import ApiProblem
from api.http.extension import services
from api.http.inputs import Blueprint, header_params
from api.http.writing import write_request, written
from api.schemas import AppendResultSchema, Open

blp = Blueprint("attach", __name__, url_prefix="",
                description="Sessions recorded before clubs, brought into the caller's club.")
blp.url_value_preprocessor(check_session_id)


class UnattachedSessionSchema(Open):
    session_id = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    version = fields.Integer(required=True, metadata={"description": "Entries in its log"})


class UnattachedSessionsSchema(Open):
    sessions = fields.List(fields.Nested(UnattachedSessionSchema), required=True)


def _may_attach() -> None:
    """Refuse unless the caller's club is plainly the owner of sessions from before clubs."""
    club_id = principal().club_id
    named = str(current_app.config.get("ATTACH_CLUB") or "").strip()
    if not services().clubs.owns_sessions_before_clubs(club_id, named):
        raise ApiProblem(403, "attach-not-offered",
                         "this database holds several clubs: the operator attaches sessions "
                         "from before clubs (lanterloo club attach), or names the club that "
                         "may in LOO_ATTACH_CLUB", rule="attach-club")


@blp.route("/club/sessions-before-clubs")
class SessionsBeforeClubs(MethodView):
    @requires(*MANAGERS)
    @blp.doc(operationId="listSessionsBeforeClubs")
    @blp.response(200, UnattachedSessionsSchema)
    @blp.alt_response(403, response="FORBIDDEN")
    def get(self) -> dict[str, Any]:
        """List the sessions from before clubs

        The sessions recorded before clubs that no club holds yet, oldest first: what
        `POST /sessions/{session_id}/attach` brings into the club.
        """
        _may_attach()
        rows = ledger().sessions_before_clubs()
        return {"sessions": [{"session_id": row.id, "created_at": row.created_at.isoformat(),
                              "version": row.version} for row in rows]}

@blp.route("/sessions/<session_id>/attach")
class Attach(MethodView):
    @requires(*MANAGERS)
    @blp.doc(operationId="attachSession", parameters=header_params("Idempotency-Key"))
    @blp.response(201, AppendResultSchema)
    @blp.alt_response(403, response="FORBIDDEN")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, session_id: str):
        """Attach a session from before clubs

        Appends `SessionAttached`: each seat becomes the club's member of that name, or a new
        guest member. A session is attached once (a second time is refused, `attached-once`);
        another club's session is not found.
        """
        _may_attach()
        return written(ledger().attach(session_id, write_request()))
