"""Signing a person in with a link (docs/desk.md, "Signing in").

    POST   /signin-links        an admin (any role) or a treasurer (member only): a link that
                                signs a member in with a role, once, within 30 minutes
    GET    /signin-links        the club's links: for whom, made by whom, waiting, used, expired
    DELETE /signin-links/<id>   withdraw a waiting link
    POST   /signin              anyone: a link's code for a bearer token of its member and role
    POST   /signout             the caller's own token revoked

The link is `/desk#signin=<code>`: the code travels in the fragment, which a browser never
sends, and in the body of POST /signin, never in a URL a server would log. Failed exchanges are
counted per address as the tablet's pairing codes are (api/http/attempts.py).
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask.views import MethodView
from marshmallow import fields, validate

from api.http.attempts import exchange_limited
from api.http.auth import EVERY_ROLE, LINK_ISSUERS, MANAGERS, MEMBER, may_issue, principal, requires
from api.http.extension import services
from api.http.inputs import Blueprint
from api.schemas import Open, Strict, printable
from ledger.clubs.signin import SignIn, normalise_link_code
from ledger.domain.access import LinkStatus, Role, TokenStatus

blp = Blueprint("signin", __name__, url_prefix="",
                description="Signing in with a link: the desk's way in.")

STATUSES = [s.value for s in LinkStatus]


def links() -> SignIn:
    return SignIn(services().engine)


def _visible_roles() -> tuple[Role, ...] | None:
    """The roles of the links the caller may see and withdraw: all for an admin, member
    links for a treasurer."""
    return None if principal().role in MANAGERS else (MEMBER,)


class LinkInSchema(Strict):
    member = fields.String(required=True, validate=[validate.Length(min=1, max=64), printable],
                           metadata={"description": "Who signs in: a member's id or name"})
    role = fields.String(required=True, validate=validate.OneOf([r.value for r in EVERY_ROLE]),
                         metadata={"description": "The role of the token the link gives: an "
                                                  "admin gives any, a treasurer `member` only"})


class LinkSchema(Open):
    link_id = fields.String(required=True)
    member = fields.String(required=True)
    member_id = fields.String(required=True)
    role = fields.String(required=True)
    created_by = fields.String(required=True, metadata={"description": "Who made the link"})
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    expires_at = fields.String(required=True, metadata={"format": "date-time"})
    used_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    token_id = fields.String(required=True, allow_none=True,
                             metadata={"description": "The token it gave, once used"})
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))


class NewLinkSchema(Open):
    link_id = fields.String(required=True)
    member = fields.String(required=True)
    member_id = fields.String(required=True)
    role = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    expires_at = fields.String(required=True, metadata={"format": "date-time"})
    expires_in_seconds = fields.Integer(required=True)
    url = fields.String(required=True, metadata={
        "description": "The link to give the member, shown this once: the desk with the code "
                       "in its fragment (/desk#signin=<code>), which no browser sends to a "
                       "server"})


class LinksSchema(Open):
    links = fields.List(fields.Nested(LinkSchema), required=True)


class SignInSchema(Strict):
    code = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "The code of the link's fragment "
                                                  "(#signin=<code>)"})


class SignedInSchema(Open):
    token = fields.String(required=True, metadata={"description": "The bearer token, shown "
                                                                  "this once only"})
    token_id = fields.String(required=True)
    member = fields.String(required=True)
    member_id = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(required=True)
    club = fields.String(required=True)
    club_id = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    expires_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    revoked_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    status = fields.String(required=True, validate=validate.OneOf([TokenStatus.ACTIVE.value]))


class SignedOutSchema(Open):
    token_id = fields.String(required=True)
    revoked_at = fields.String(required=True, metadata={"format": "date-time"})


@blp.route("/signin-links")
class Links(MethodView):
    @requires(*LINK_ISSUERS)
    @blp.doc(operationId="listSigninLinks")
    @blp.response(200, LinksSchema)
    def get(self):
        """List the club's sign-in links, newest first (a treasurer: member links only)

        For whom, with which role, made by whom and when, and whether each waits, was used
        (and for which token) or expired. Never a code.
        """
        return {"links": links().links(principal().club_id, roles=_visible_roles())}

    @requires(*LINK_ISSUERS)
    @blp.doc(operationId="createSigninLink")
    @blp.arguments(LinkInSchema)
    @blp.response(201, NewLinkSchema, headers={
        "Cache-Control": {"description": "no-store: the answer holds a link's secret",
                          "schema": {"type": "string"}}})
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any]):
        """Make a sign-in link for a member and a role, good once for 30 minutes

        An admin gives any role; a treasurer only `member` (403 otherwise). The link (`url`)
        is shown this once; opened, it signs its member in at the desk with that role.
        """
        may_issue(body["role"])
        me = principal()
        made = links().create_link(me.club_id, member=body["member"], role=body["role"],
                                   created_by=me.member_id, created_with=me.token_id)
        code = made.pop("code")
        made["url"] = f"{url_for('desk.desk', _external=True)}#signin={code}"
        return made, 201, {"Cache-Control": "no-store"}


@blp.route("/signin-links/<link_id>")
class Link(MethodView):
    @requires(*LINK_ISSUERS)
    @blp.doc(operationId="withdrawSigninLink")
    @blp.response(200, LinkSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def delete(self, link_id: str):
        """Withdraw a waiting sign-in link: it signs nobody in any more

        A used link is not withdrawn: revoke the token it gave (DELETE /tokens/<id>).
        """
        return links().withdraw(principal().club_id, link_id, roles=_visible_roles())


@blp.route("/signin")
class Signin(MethodView):
    @blp.doc(operationId="signIn")
    @blp.arguments(SignInSchema)
    @blp.response(201, SignedInSchema, headers={
        "Cache-Control": {"description": "no-store: the answer holds a token",
                          "schema": {"type": "string"}}})
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    def post(self, body: dict[str, Any]):
        """Sign in with a link's code

        No token: the code is the credential. Answers a bearer token (shown this once) of the
        link's member and role, lasting 30 days, and spends the code. A code that is unknown,
        used, expired, withdrawn or mistyped is refused alike (422), saying what to do next;
        too many failures from one address in a minute are answered 429 with Retry-After.
        """
        def exchange() -> dict[str, Any]:
            normalise_link_code(body["code"])
            return links().exchange(body["code"])

        return exchange_limited("signin", "sign-in links", exchange)


@blp.route("/signout")
class Signout(MethodView):
    @requires(*EVERY_ROLE)
    @blp.doc(operationId="signOut")
    @blp.response(200, SignedOutSchema)
    def post(self):
        """Sign out: the caller's own token is revoked, on every device that holds it"""
        me = principal()
        revoked = services().clubs.revoke_token(me.token_id, club_id=me.club_id, by=me.actor)
        return {"token_id": revoked["token_id"], "revoked_at": revoked["revoked_at"]}
