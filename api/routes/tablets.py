"""The tablet's own routes (docs/tablet.md): pairing a tablet, the club's open sessions, and
who logged the last entries of a session.

    POST /sessions/<id>/pairing-codes   a treasurer (or admin): a code and its QR code that sign
                                        a tablet in to this session, good for 10 minutes, once
    POST /pairing                       anyone: a code for a dealer token that lasts the evening
    GET  /club/sessions                 the club's open sessions, to pick one
    GET  /sessions/<id>/entries?after=  the appends since a version: what, by whom, from which
                                        device (a conflict, or what an undo would take back)

The exchange carries no token (the tablet has none yet): a failed one is counted per address,
and past PAIRING_FAILURES_PER_MINUTE in a minute the address is answered 429 until the minute
is over; each code also dies after a few wrong guesses (ledger/clubs/tablets.py). The code travels
in the POST body, never in a URL a server would log; the QR code's link carries it in the
fragment (`/table#pair=...`), which a browser never sends.
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask.views import MethodView
from marshmallow import fields, validate

from api.http.attempts import exchange_limited
from api.http.auth import PAIRERS, STATE_READERS, principal, requires
from api.http.context import check_session_id
from api.http.extension import services
from api.http.inputs import Blueprint
from api.schemas import Open, Strict, Variants, printable
from api.schemas.records import EntryEventSchema
from ledger.clubs.tablets import CODE_LIFETIME, TOKEN_LIFETIME, Tablets, normalise_code
from ledger.domain.access import TokenStatus

blp = Blueprint("tablets", __name__, url_prefix="",
                description="The dealer's tablet: pairing a tablet with a code, the club's "
                            "open sessions, who logged the last entries.")
blp.url_value_preprocessor(check_session_id)


def tablets() -> Tablets:
    return Tablets(services().engine)


# ---------------------------------------------------------------- schemas


class PairingCodeInSchema(Strict):
    member = fields.String(required=True, validate=[validate.Length(min=1, max=64),
                                                    printable],
                           metadata={"description": "Who will log at the tablet (a member's "
                                                    "id or name): the tablet's dealer token "
                                                    "is his, so the log names him"})
    label = fields.String(load_default=None, validate=[validate.Length(min=1, max=100),
                                                       printable],
                          metadata={"description": "The tablet's name in messages, e.g. "
                                                   "\"Tablet 2\"; by default Tablet <n>, n "
                                                   "counting the tablets paired to the session",
                                    "example": "Tablet 2"})


class PairingCodeSchema(Open):
    pairing_id = fields.String(required=True)
    code = fields.String(required=True, metadata={
        "description": "Eight symbols, shown as XXXX-XXXX", "example": "K7QM-3XPD"})
    session_id = fields.String(required=True)
    session_name = fields.String(required=True)
    member = fields.String(required=True, metadata={"description": "Whose token it gives"})
    role = fields.String(required=True, metadata={"example": "dealer"})
    label = fields.String(required=True, allow_none=True)
    expires_at = fields.String(required=True, metadata={"format": "date-time"})
    expires_in_seconds = fields.Integer(required=True)
    url = fields.String(required=True, metadata={"description": "The tablet's page with the "
                                                                "code in its fragment "
                                                                "(#pair=), never sent to a "
                                                                "server"})
    qr_svg = fields.String(required=True, metadata={"description": "The QR code of `url`, an "
                                                                   "SVG image as a data: URI"})


class PairingInSchema(Strict):
    code = fields.String(required=True, validate=validate.Length(min=1, max=32),
                         metadata={"description": "The code as shown (dashes and spaces, "
                                                  "any case)", "example": "K7QM-3XPD"})


class PairedSchema(Open):
    token = fields.String(required=True, metadata={"description": "A dealer's bearer token, "
                                                                  "shown this once only"})
    token_id = fields.String(required=True)
    member = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(required=True)
    expires_at = fields.String(required=True, metadata={"format": "date-time"})
    session_id = fields.String(required=True, metadata={"description": "The session to open"})
    club = fields.String(required=True)
    club_id = fields.String(required=True)
    member_id = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    revoked_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    status = fields.String(required=True, validate=validate.OneOf([TokenStatus.ACTIVE.value]))


class OpenSessionSchema(Open):
    session_id = fields.String(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True)
    deal_no = fields.Integer(required=True)
    active = fields.List(fields.String(), required=True)
    next_dealer = fields.String(required=True, allow_none=True)
    updated_at = fields.String(required=True, metadata={"format": "date-time"})


class OpenSessionsSchema(Open):
    sessions = fields.List(fields.Nested(OpenSessionSchema), required=True)


class EntriesQuery(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0),
                           metadata={"description": "Only what came after this version"})


class EntrySchema(Open):
    """One append: the events written together, by whom and from which device."""

    from_version = fields.Integer(required=True)
    to_version = fields.Integer(required=True)
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    actor = fields.String(required=True, metadata={"description": "The member's name"})
    token_id = fields.String(required=True, allow_none=True)
    device = fields.String(required=True, allow_none=True,
                           metadata={"description": "The label of the token that appended it, "
                                                    "e.g. Tablet 2 (null: the command line)"})
    events = fields.List(Variants("EntryEvent", dump=EntryEventSchema), required=True)
    superseded_by = fields.Integer(required=True, allow_none=True,
                                   metadata={"description": "The correction that voided it"})


class EntriesSchema(Open):
    session_id = fields.String(required=True)
    version = fields.Integer(required=True)
    entries = fields.List(fields.Nested(EntrySchema), required=True)
    complete = fields.Boolean(required=True, metadata={"description": "False when more came "
                                                                      "after the last one "
                                                                      "listed"})


# ---------------------------------------------------------------- routes


@blp.route("/sessions/<session_id>/pairing-codes")
class PairingCodes(MethodView):
    @requires(*PAIRERS)
    @blp.arguments(PairingCodeInSchema)
    @blp.doc(operationId="createPairingCode")
    @blp.response(201, PairingCodeSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any], session_id: str):
        """Show a code that signs a tablet in to this session

        A dealer's tablet types the code (or scans its QR code) within ten minutes, once, and
        gets a dealer token of the club that lasts the evening (12 hours), as `member`, the
        person who will log at that tablet, named `label`. The session must be open.
        """
        me = principal()
        made = tablets().create_code(me.club_id, session_id, created_by=me.member_id,
                                     member=body["member"], label=body["label"])
        plain = made["code"].replace("-", "")
        link = f"{url_for('web.table', _external=True)}#pair={plain}"
        import segno  # here, not at import: about 1 MB of every worker for a rare POST

        qr = segno.make(link, error="m")
        return {**made, "url": link,
                "qr_svg": qr.svg_data_uri(scale=6, border=2, dark="#000", light="#fff")}, 201


@blp.route("/pairing")
class Pairing(MethodView):
    @blp.doc(operationId="pair")
    @blp.arguments(PairingInSchema)
    @blp.response(201, PairedSchema, headers={
        "Cache-Control": {"description": "no-store: the answer holds a token",
                          "schema": {"type": "string"}}})
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    def post(self, body: dict[str, Any]):
        """Sign a tablet in with a pairing code

        No token: the code is the credential. Answers a dealer token (shown this once) for the
        session the code was made for, and spends the code. A code that is unknown, used,
        expired or mistyped is refused alike (422); too many failures from one address in a
        minute are answered 429 with Retry-After.
        """
        def exchange() -> dict[str, Any]:
            normalise_code(body["code"])
            return tablets().exchange(body["code"])

        return exchange_limited("pairing", "pairing codes", exchange)


@blp.route("/club/sessions")
class ClubSessions(MethodView):
    @requires(*STATE_READERS)
    @blp.doc(operationId="listOpenSessions")
    @blp.response(200, OpenSessionsSchema)
    def get(self):
        """List the club's open sessions, to pick one at the table

        The open sessions among the twenty the club wrote to last, newest first.
        """
        return {"sessions": tablets().open_sessions(principal().club_id)}


@blp.route("/sessions/<session_id>/entries")
class Entries(MethodView):
    @requires(*STATE_READERS)
    @blp.doc(operationId="listEntries")
    @blp.arguments(EntriesQuery, location="query", as_kwargs=True)
    @blp.response(200, EntriesSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, session_id: str, after: int = 0):
        """List the appends after a version, and the device each came from

        Each append with its events, the member who made it and the label of the token
        (device) it came from, and the correction that voided it, if one did: what another
        tablet logged since this one last read the session. At most 200 events.
        """
        return tablets().entries(principal().club_id, session_id, after_version=after)


__all__ = ["blp", "CODE_LIFETIME", "TOKEN_LIFETIME"]
