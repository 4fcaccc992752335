"""Who is calling, and what their role allows: bearer tokens (Flask-HTTPAuth) and roles.

    @blp.route("/<session_id>")
    class Session(MethodView):
        @requires(*READERS)
        @blp.response(200, SessionViewSchema)
        def get(self, session_id): ...

Every route but /healthz, /openapi.json and /docs takes `Authorization: Bearer loo_...`.
No token, or a malformed, unknown, revoked or expired one: 401 problem+json with
`WWW-Authenticate: Bearer`; a role without the right: 403. Both are decided before the route
looks anything up, so neither says whether a session exists. The role table is docs/api.md's
"Roles" section; `tests/e2e/test_access.py` walks every route of the OpenAPI document with
every role.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import g, request
from flask_httpauth import HTTPTokenAuth
from flask_smorest import Blueprint

from api.http.errors import ApiProblem, problem
from api.http.extension import services
from ledger.clubs.service import Principal
from ledger.domain import Command
from ledger.domain.access import Role
from ledger.domain.commands import EndSession

F = TypeVar("F", bound=Callable[..., Any])

REALM = "lanterloo"
SECURITY_SCHEME = "bearerAuth"

ADMIN, TREASURER, DEALER, AUDITOR = Role.ADMIN, Role.TREASURER, Role.DEALER, Role.AUDITOR
MEMBER = Role.MEMBER  # one member's own account and statements, nothing else
STAFF = (ADMIN, TREASURER, DEALER, AUDITOR)
EVERY_ROLE = (*STAFF, MEMBER)
# Who may do what (docs/api.md, "Roles"):
OPENERS = (TREASURER,)  # open a session
APPENDERS = (TREASURER, DEALER)  # log play; a dealer may not end the session
ENDERS = (TREASURER,)  # append SessionEnded
STATE_READERS = STAFF  # a session's state and its deals
RECORD_READERS = (ADMIN, TREASURER, AUDITOR)  # the event log and the statement
MEMBER_READERS = (ADMIN, TREASURER, AUDITOR)  # the club's members (to seat them)
MANAGERS = (ADMIN,)  # add, rename, admit and retire members; list, create and revoke tokens
LINK_ISSUERS = (ADMIN, TREASURER)  # issue and revoke member tokens (a treasurer: only those)
CORRECTORS = (TREASURER,)  # void or replace any entry
UNDOERS = (TREASURER, DEALER)  # undo the last entry (a dealer: only his own)
OWN_ONLY = (MEMBER,)  # roles that reach a member's routes for their own member only
PAIRERS = (TREASURER, ADMIN)  # show a pairing code for a session of the club
BOOK_READERS = (ADMIN, TREASURER, AUDITOR)  # the club's books
ACCOUNT_READERS = (*BOOK_READERS, MEMBER)  # a member: his own account only (own="member_id")
OWN_READERS = (ADMIN, TREASURER, AUDITOR, MEMBER)  # a member's statements: his own only
BOOKKEEPERS = (TREASURER,)  # payments, write-offs, cash counts, an evening's tin
CURRENCY_SETTERS = (ADMIN, TREASURER)  # the currencies the club keeps: a club's setting

auth = HTTPTokenAuth(scheme="Bearer", realm=REALM)
# Only its decorators are used: they document a view without registering anything.
_DOCS = Blueprint("auth-docs", __name__)


@auth.verify_token
def _verify(token: str) -> Principal | None:
    principal = services().clubs.authenticate(token)
    if principal is not None:
        g.principal = principal
    return principal


@auth.get_user_roles
def _roles(found: Principal) -> Role:
    return found.role


@auth.error_handler
def _refused(status: int) -> Any:
    if status == 403:
        return problem(403, "forbidden", "this token's role may not do this",
                       title="Not allowed for this role", rule="role",
                       headers={"WWW-Authenticate": f'Bearer realm="{REALM}", '
                                                    'error="insufficient_scope"'})
    presented = auth.get_auth() is not None
    header = f'Bearer realm="{REALM}"' + (', error="invalid_token"' if presented else "")
    # One answer for a missing, malformed, unknown, revoked or expired token: the reply
    # must not help anyone tell a real token id from a guess.
    return problem(401, "unauthorized",
                   "send a valid bearer token: Authorization: Bearer loo_...",
                   title="Authentication required", rule="bearer-token",
                   headers={"WWW-Authenticate": header})


def requires(*roles: Role, own: str | None = None) -> Callable[[F], F]:
    """Only a valid token of one of `roles` gets through (401 / 403 otherwise); documents the
    security requirement and those answers in the OpenAPI document.

    `own` names the route's member parameter: a role of OWN_ONLY (a member's token) gets
    through only for its own member, else 403, decided before anything is looked up."""

    def decorate(view: F) -> F:
        @wraps(view)
        def own_only(*args: Any, **kwargs: Any) -> Any:
            if own is not None and request.method != "OPTIONS":
                found = principal()
                if found.role in OWN_ONLY and kwargs.get(own) != found.member_id:
                    return problem(403, "forbidden", "a member's token reads his own account "
                                   "and statements only", title="Not allowed for this role",
                                   rule="role")
            return view(*args, **kwargs)

        # Flask-HTTPAuth reads the bearer token, has _verify look it up (401 without a valid
        # one) and _roles name its role (403 for a role not in `roles`).
        guarded = cast(F, auth.login_required(role=list(roles))(own_only))
        guarded = _DOCS.alt_response(401, response="UNAUTHORIZED")(guarded)
        guarded = _DOCS.alt_response(403, response="FORBIDDEN")(guarded)
        extra = {"x-own-member": own} if own is not None else {}
        return cast(F, _DOCS.doc(security=[{SECURITY_SCHEME: []}],
                                 **{"x-roles": [role.value for role in roles]}, **extra)(guarded))

    return decorate


def principal() -> Principal:
    """The caller of this request; only a route behind `requires` may ask."""
    found = g.get("principal")
    if found is None:
        raise RuntimeError("no authenticated principal: the route lacks @requires")
    return found


def may_issue(role: str) -> None:
    """An admin issues and revokes tokens and sign-in links of every role; a treasurer only
    member ones (LINK_ISSUERS)."""
    if principal().role not in MANAGERS and role != MEMBER:
        raise ApiProblem(403, "forbidden", f"a {principal().role} gives and takes back member "
                         "access only: ask the club's admin for any other role",
                         title="Not allowed for this role", rule="role", field="role")


def refused_events(role: str) -> dict[str, str]:
    """The event types a role that may append may not send, each with the sentence the
    refusal gives: only a treasurer ends a session (the tablet asks, GET /club)."""
    if role in APPENDERS and role not in ENDERS:
        return {"SessionEnded": f"only a {' or '.join(ENDERS)} may end the session"}
    return {}


def check_commands(commands: Iterable[Command]) -> None:
    """Roles that may append may not append everything (refused_events)."""
    refused = refused_events(principal().role)
    if "SessionEnded" in refused and any(isinstance(c, EndSession) for c in commands):
        raise ApiProblem(403, "forbidden", refused["SessionEnded"],
                         title="Not allowed for this role", rule="role", field="type")


def document_security(api: Any) -> None:
    """The bearer scheme in the OpenAPI document."""
    api.spec.components.security_scheme(SECURITY_SCHEME, {
        "type": "http", "scheme": "bearer", "bearerFormat": "loo_<id>_<secret>",
        "description": "A club token: `lanterloo club create` prints the first admin's; an "
                       "admin makes more (POST /tokens)."})
