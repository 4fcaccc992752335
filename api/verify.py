"""Verify: is the session's log whole and unaltered, and do its projections match it?"""

from __future__ import annotations

from flask.views import MethodView

from .auth import RECORD_READERS, requires
from .context import check_session_id, ledger
from .inputs import Blueprint
from .schemas import VerifySchema

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
        log to compare with the stored projections. `ok` is true when nothing is wrong; the
        `chain_head` is the one a printed statement carries.
        """
        return ledger().verify_report(session_id)
