"""Corrections: void a mistaken entry (and put the right one in its place), or undo the last.

Nothing in the log is edited: a correction is an event (`EntryCorrected`) followed by the
session's tail decided anew, so every projection reads as if the session had been logged
right from the start (docs/rules.md §12). A treasurer corrects any entry; a dealer
undoes the last entry, if he made it.
"""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from api.http.auth import CORRECTORS, DEALER, UNDOERS, principal, requires
from api.http.context import check_session_id, ledger
from api.http.inputs import Blueprint, header_params
from api.http.writing import write_request, written
from api.schemas import AppendResultSchema, Strict, Variants, load_events, printable
from ledger.domain import Command

MAX_VOIDS = 50

blp = Blueprint("corrections", __name__, url_prefix="/sessions/<session_id>",
                description="Correct mistaken entries with events: void, replace, undo.")
blp.url_value_preprocessor(check_session_id)


class CorrectionIn(Strict):
    voids = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=1, max=2**31 - 1)),
        required=True, validate=validate.Length(min=1, max=MAX_VOIDS),
        metadata={"description": "The versions of the entries to void (from the event log)"})
    replacements = fields.List(
        Variants("EventIn"), load_default=list, validate=validate.Length(max=MAX_VOIDS),
        metadata={"description": "Entries (events as a client sends them) put in place of "
                                 "the first voided entry"})
    reason = fields.String(required=True, validate=[validate.Length(min=1, max=500), printable],
                           metadata={"description": "Why, for the record"})


class UndoIn(Strict):
    reason = fields.String(load_default="undone at the table",
                           validate=[validate.Length(min=1, max=500), printable])


@blp.route("/corrections")
class Corrections(MethodView):
    @requires(*CORRECTORS)
    @blp.arguments(CorrectionIn)
    @blp.doc(operationId="correctEntries",
             parameters=header_params("Idempotency-Key", "If-Match"))
    @blp.response(201, AppendResultSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any], session_id: str):
        """Correct entries

        Void the entries at `voids` (versions from the event log) and put `replacements` in
        place of the first. The ledger appends `EntryCorrected` and the session's tail decided
        anew; a correction the rest of the session cannot follow is refused, naming the first
        entry that no longer fits.
        """
        replacements: list[Command] = []
        if body["replacements"]:
            replacements, _ = load_events(
                {"events": body["replacements"]},
                max_batch=int(current_app.config["MAX_BATCH_EVENTS"]))
        return written(ledger().correct(
            session_id, voids=body["voids"], replacements=replacements,
            reason=body["reason"], request=write_request(precondition=session_id)))


@blp.route("/undo")
class Undo(MethodView):
    @requires(*UNDOERS)
    @blp.arguments(UndoIn)
    @blp.doc(operationId="undoLastEntry",
             parameters=header_params("Idempotency-Key", "If-Match"))
    @blp.response(201, AppendResultSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any], session_id: str):
        """Undo the last entry

        Voids the last entry a client made, as a correction event (never a deletion). A dealer
        may undo only an entry he made himself.
        """
        return written(ledger().undo(
            session_id, reason=body["reason"], request=write_request(precondition=session_id),
            own_entry_only=principal().role == DEALER))
