"""Verify: is the session's log whole and unaltered, and do its projections match it? And
the session exported as one file an auditor checks without the service (ledger/audit/export.py)."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import fields

from api.http.auth import AUDITOR, RECORD_READERS, TREASURER, requires
from api.http.context import check_session_id, ledger
from api.http.inputs import Blueprint
from api.schemas import Open, StatementSchema, VerifySchema
from api.schemas.views import CheckpointSchema, ReceiptSchema
from ledger.audit.export import export_session

blp = Blueprint("verify", __name__, url_prefix="/sessions/<session_id>/verify",
                description="Recompute the hash chain and the projections from the log.")
blp.url_value_preprocessor(check_session_id)


@blp.route("")
class Verify(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="verifySession")
    @blp.response(200, VerifySchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, session_id: str):
        """Verify a session's log

        Recomputes every event's hash from its content and the hash before it (the first
        broken link is named), checks that versions run 1..N without a gap, and re-folds the
        log to compare with the stored projections, its as-of snapshots (one missing is
        named) and the stored answers to its writes' Idempotency-Keys, all read in one
        snapshot of the database. `ok` is true when nothing is wrong; `version` and
        `chain_head` are those it verified, the head a printed statement carries.
        """
        return ledger().verify_report(session_id)


export_blp = Blueprint("export", __name__, url_prefix="/sessions/<session_id>/export",
                       description="The session as one file an auditor verifies offline.")
export_blp.url_value_preprocessor(check_session_id)


class ExportedEventSchema(Open):
    """A stored event with every field its hash covers, its position and its hash."""

    stream_id = fields.String(required=True)
    version = fields.Integer(required=True)
    position = fields.Integer(required=True)
    type = fields.String(required=True)
    schema_version = fields.Integer(required=True)
    payload = fields.Dict(required=True, metadata={
        "description": "The event's fields, as the log holds them (RecordedEvent types them)"})
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    actor = fields.String(required=True)
    member_id = fields.String(required=True, allow_none=True)
    token_id = fields.String(required=True, allow_none=True)
    idempotency_key = fields.String(required=True, allow_none=True)
    hash = fields.String(required=True, allow_none=True)


class ExportSchema(Open):
    format = fields.String(required=True, metadata={"example": "lanterloo-export/1"})
    session_id = fields.String(required=True)
    club_id = fields.String(required=True, allow_none=True)
    chain_format = fields.String(required=True)
    events = fields.List(fields.Nested(ExportedEventSchema), required=True)
    statement = fields.Nested(StatementSchema, required=True)
    checkpoint = fields.Nested(CheckpointSchema, required=True, allow_none=True, metadata={
        "description": "The head of the last event signed with the service's checkpoint key "
                       "and kept (an ended session's end), else the latest kept, or null"})
    receipt = fields.Nested(ReceiptSchema, required=True, allow_none=True, metadata={
        "description": "The export's end as a leaf of the club's signed log of session "
                       "ends, or null"})


@export_blp.route("")
class Export(MethodView):
    @requires(TREASURER, AUDITOR)
    @export_blp.doc(operationId="exportSession")
    @export_blp.response(200, ExportSchema)
    @export_blp.alt_response(404, response="NOT_FOUND")
    def get(self, session_id: str):
        """Export a session for an auditor

        One JSON document: the session's events with their hashes, its statement and its
        head signed with the service's checkpoint key. `lanterloo verify-export FILE` checks
        it on any machine, without a database: every hash recomputed from the session's
        genesis, the signature, and the money folded again to the statement.
        """
        return export_session(ledger(), session_id)
