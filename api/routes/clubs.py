"""The caller's club: who am I, its members, its tokens, its checkpoint key.

Every route works inside the caller's club only: another club's member or token answers 404
exactly as a missing one does. A token's secret is shown once, in the 201 that creates it.
The admin renames a member, makes a guest a member and retires a member
(ledger/clubs/membership.py: each an entry of the club's log, through the write protocol).
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask.views import MethodView
from marshmallow import fields, validate

from api.http.auth import (
    EVERY_ROLE,
    LINK_ISSUERS,
    MANAGERS,
    MEMBER,
    MEMBER_READERS,
    RECORD_READERS,
    may_issue,
    principal,
    refused_events,
    requires,
)
from api.http.extension import services
from api.http.inputs import Blueprint, header_params
from api.http.writing import errors, write_request, written
from api.schemas import PLAYER, KnownQuery, Open, Strict, printable
from ledger.audit.checkpoint_log import key_status
from ledger.clubs.membership import change_member, retire_member
from ledger.clubs.tokens import issue_token
from ledger.domain.access import TokenStatus

blp = Blueprint("club", __name__, url_prefix="",
                description="The caller's club: who am I, its members and its tokens.")

ROLE_FIELD = fields.String(required=True, validate=validate.OneOf([r.value for r in EVERY_ROLE]),
                           metadata={"description": "admin, treasurer, dealer, auditor, or "
                                                    "member: his own account and statements "
                                                    "only"})


class WhoAmISchema(Open):
    club_id = fields.String(required=True)
    club = fields.String(required=True, metadata={"description": "The club's name"})
    member_id = fields.String(required=True)
    member = fields.String(required=True, metadata={"description": "The member's display name"})
    role = fields.String(required=True)
    token_id = fields.String(required=True)
    token_label = fields.String(required=True,
                                metadata={"description": "The device, e.g. tablet 2"})
    refused_events = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                                 metadata={"description": "The event types this role may not "
                                                          "append, each with the sentence its "
                                                          "refusal gives (a dealer does not "
                                                          "end the session); empty for roles "
                                                          "that append everything or nothing"})


class MemberSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    guest = fields.Boolean(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    retired_at = fields.String(required=True, allow_none=True, metadata={
        "format": "date-time", "description": "When the admin retired him; null: a member "
                                              "now"})


class MembersSchema(Open):
    members = fields.List(fields.Nested(MemberSchema), required=True)


class MembersQuery(KnownQuery):
    retired = fields.Boolean(load_default=False, truthy={"1", "true"}, falsy={"0", "false"},
                             metadata={"description": "true: the retired members too"})


class MemberChangeInSchema(Strict):
    name = fields.String(validate=PLAYER["validate"], metadata={
        "description": "His display name from now on", "example": "Tess"})
    guest = fields.Boolean(truthy={True}, falsy={False}, metadata={
        "description": "false: the guest becomes a member of the club (a member is not made "
                       "a guest again)"})


class CheckpointKeySchema(Open):
    signed = fields.Boolean(required=True, metadata={
        "description": "Whether the service signs heads (a session's end, an export)"})
    signing = fields.String(required=True, metadata={
        "description": "ok, off (no key), or what fails (as GET /readyz says it)"})
    public_key = fields.String(required=True, allow_none=True, metadata={
        "description": "The Ed25519 public key, hex: what an auditor pins, `lanterloo "
                       "verify-export FILE --public-key <it>`"})
    key_id = fields.String(required=True, allow_none=True,
                           metadata={"description": "Its short name"})
    source = fields.String(required=True, allow_none=True, metadata={
        "description": "Where the private key is kept, never in the database: environment "
                       "(LOO_CHECKPOINT_KEY or its _FILE) or instance folder; null: no key"})


class MemberInSchema(Strict):
    name = fields.String(required=True, **PLAYER)
    guest = fields.Boolean(truthy={True}, falsy={False}, load_default=False)


class TokenSchema(Open):
    token_id = fields.String(required=True,
                             metadata={"description": "The public id; DELETE /tokens/<id>"})
    member_id = fields.String(required=True)
    member = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    expires_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    revoked_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    status = fields.String(required=True, validate=validate.OneOf([s.value for s in TokenStatus]))


class NewTokenSchema(TokenSchema):
    token = fields.String(metadata={
        "description": "The bearer token, shown this once only: a retry with the same "
                       "Idempotency-Key answers the same token without it"})
    url = fields.String(metadata={
        "description": "A member token only, with its secret: the member's page to send him, "
                       "/table/member#token=<token> (in the fragment, which a browser never "
                       "sends to a server)"})


class TokensSchema(Open):
    tokens = fields.List(fields.Nested(TokenSchema), required=True)


class TokenInSchema(Strict):
    member = fields.String(required=True, validate=[validate.Length(min=1, max=64), printable],
                           metadata={"description": "The member's id or display name: the "
                                                    "holder, and for a member token the one "
                                                    "member whose account it shows"})
    role = ROLE_FIELD
    label = fields.String(required=True, validate=[validate.Length(min=1, max=100), printable],
                          metadata={"description": "The device", "example": "tablet 2"})
    expires_in_days = fields.Integer(strict=True, load_default=None, allow_none=True,
                                     validate=validate.Range(min=1, max=3650))


@blp.route("/club")
class Club(MethodView):
    @requires(*EVERY_ROLE)
    @blp.doc(operationId="whoAmI")
    @blp.response(200, WhoAmISchema)
    def get(self):
        """Who am I: the club, the member, the role and the device of this token"""
        me = principal()
        return {"club_id": me.club_id, "club": me.club_name, "member_id": me.member_id,
                "member": me.member_name, "role": me.role, "token_id": me.token_id,
                "token_label": me.token_label, "refused_events": refused_events(me.role)}


@blp.route("/members")
class Members(MethodView):
    @requires(*MEMBER_READERS)
    @blp.doc(operationId="listMembers")
    @blp.arguments(MembersQuery, location="query", as_kwargs=True)
    @blp.response(200, MembersSchema)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def get(self, retired: bool = False):
        """List the club's members (guests included; the retired with `retired=true`)"""
        return {"members": services().clubs.members(principal().club_id, retired=retired)}

    @requires(*MANAGERS)
    @blp.arguments(MemberInSchema)
    @blp.doc(operationId="addMember")
    @blp.response(201, MemberSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any]):
        """Add a member: a display name unique in the club whatever its case"""
        member = services().clubs.add_member(principal().club_id, body["name"],
                                             guest=body["guest"], by=principal().actor)
        return member, 201


@blp.route("/members/<member_id>")
class Member(MethodView):
    @requires(*MANAGERS)
    @blp.doc(operationId="changeMember", parameters=header_params("Idempotency-Key"))
    @blp.arguments(MemberChangeInSchema)
    @blp.response(200, MemberSchema)
    @errors(blp, "BAD_REQUEST", "NOT_FOUND", "CONFLICT", "UNSUPPORTED_MEDIA_TYPE",
            "UNPROCESSABLE_ENTITY")
    def patch(self, body: dict[str, Any], member_id: str):
        """Rename a member, or make a guest a member

        `name`: his display name from now on, unique in the club whatever its case; the
        sessions he played keep the name he was seated under. `"guest": false`: the guest
        becomes a member. Recorded in the club's log; a retired member is not changed (409).
        """
        return written(change_member(services().clubs, principal().club_id, member_id,
                                     name=body.get("name"), guest=body.get("guest"),
                                     request=write_request()), status=200)


@blp.route("/members/<member_id>/retirement")
class Retirement(MethodView):
    @requires(*MANAGERS)
    @blp.doc(operationId="retireMember", parameters=header_params("Idempotency-Key"))
    @blp.response(200, MemberSchema)
    @errors(blp, "NOT_FOUND", "CONFLICT", "UNPROCESSABLE_ENTITY")
    def post(self, member_id: str):
        """Retire a member

        Refused (409) while he holds a seat at an open table or his account is not settled
        (he owes the club, or the club owes him), and for the caller himself (422). Every
        access he holds is taken back with it (his tokens revoked, his waiting links and
        pairing codes withdrawn). His history stays; from then on he is not listed among the
        members (but with `retired=true`), nor seated, paired, or given access. Recorded in
        the club's log.
        """
        return written(retire_member(services().clubs, principal().club_id, member_id,
                                     request=write_request()), status=200)


@blp.route("/club/checkpoint-key")
class CheckpointKey(MethodView):
    @requires(*RECORD_READERS)
    @blp.doc(operationId="getCheckpointKey")
    @blp.response(200, CheckpointKeySchema)
    def get(self):
        """The service's checkpoint key: whether heads are signed, and the public key

        The private key lives outside the database (the environment, or checkpoint.key in
        the instance folder) and is never shown; the public key is what an auditor copies to
        check an export offline (`lanterloo verify-export FILE --public-key <it>`).
        """
        return key_status()


@blp.route("/tokens")
class Tokens(MethodView):
    @requires(*MANAGERS)
    @blp.doc(operationId="listTokens")
    @blp.response(200, TokensSchema)
    def get(self):
        """List the club's tokens: never a secret"""
        return {"tokens": services().clubs.tokens(principal().club_id)}

    @requires(*LINK_ISSUERS)
    @blp.arguments(TokenInSchema)
    @blp.doc(parameters=header_params("Idempotency-Key"))
    @blp.doc(operationId="createToken")
    @blp.response(201, NewTokenSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any]):
        """Create a token for a member, with a role and a label; its secret is shown once

        An admin issues any role; a treasurer only `member` tokens, each bound to the member
        it names, with `url`, his page, to send him. With an Idempotency-Key a retry makes no
        second token: it is answered with the first answer less the secret
        (`Idempotent-Replayed: true`), which is never stored.
        """
        may_issue(body["role"])
        result = issue_token(
            services().clubs, principal().club_id, body["member"], body["role"], body["label"],
            expires_in_days=body["expires_in_days"], request=write_request())
        if body["role"] == MEMBER and "token" in result.body:
            result.body["url"] = f"{url_for('web.member')}#token={result.body['token']}"
        return written(result)


@blp.route("/tokens/<token_id>")
class Token(MethodView):
    @requires(*LINK_ISSUERS)
    @blp.doc(operationId="revokeToken")
    @blp.response(200, TokenSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def delete(self, token_id: str):
        """Revoke a token (it stays listed, as revoked; the events it appended keep naming it)

        An admin revokes any token of the club; a treasurer only member tokens.
        """
        clubs = services().clubs
        may_issue(clubs.token(token_id, club_id=principal().club_id)["role"])
        return clubs.revoke_token(token_id, club_id=principal().club_id, by=principal().actor)

