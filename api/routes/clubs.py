"""The caller's club: who am I, its members, its tokens.

Every route works inside the caller's club only: another club's member or token answers 404
exactly as a missing one does. A token's secret is shown once, in the 201 that creates it.
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
    may_issue,
    principal,
    requires,
)
from api.http.extension import services
from api.http.inputs import Blueprint, header_params
from api.http.writing import write_request, written
from api.schemas import PLAYER, Open, Strict, printable
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


class MemberSchema(Open):
    member_id = fields.String(required=True)
    name = fields.String(required=True)
    guest = fields.Boolean(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})


class MembersSchema(Open):
    members = fields.List(fields.Nested(MemberSchema), required=True)


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
                "token_label": me.token_label}


@blp.route("/members")
class Members(MethodView):
    @requires(*MEMBER_READERS)
    @blp.doc(operationId="listMembers")
    @blp.response(200, MembersSchema)
    def get(self):
        """List the club's members (guests included)"""
        return {"members": services().clubs.members(principal().club_id)}

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

