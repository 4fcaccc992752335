"""Who may do what: every route of the OpenAPI document, walked with every kind of caller.

The table EXPECT holds, for every operation, the status each role of the club gets. A route
added to the app without a line here fails `test_every_route_has_an_expectation`, so no new
route can be forgotten. The walk also sends no token, a malformed one, a wrong secret, a
revoked and an expired token (401 everywhere but the public routes), and each role of
another club: on a route that names one of our club's objects (session, token) that is a
404 whose body is the body for an object that does not exist at all.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from uuid import uuid4

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ledger.books.closing import Periods
from ledger.books.service import Books
from ledger.clubs.service import Actor, Clubs
from ledger.clubs.signin import SignIn
from ledger.clubs.tablets import Tablets
from ledger.domain import InvalidInput, OpenSession
from ledger.domain.commands import EndSession, StartDeal
from ledger.sessions.service import Ledger
from ledger.store.tables import events, sessions, tokens
from ledger.writes import WriteRequest
from tests.clubs import Club, make_club

from .conftest import PROBLEM

# routes and roles: the answers are the API's, whatever the database
pytestmark = pytest.mark.backends("sqlite")

ROLES = ("admin", "treasurer", "dealer", "auditor", "member")
BAD_CREDENTIALS = ("none", "malformed", "wrong-secret", "basic", "revoked", "expired")
MISSING_SESSION = "0" * 32
MISSING_TOKEN = "0" * 16


def allowed(*roles: str, ok: int = 200) -> dict[str, int]:
    return {role: ok if role in roles else 403 for role in ROLES}


ALL = ("admin", "treasurer", "dealer", "auditor")  # the club's staff: not a member's token
BOOKS = ("admin", "treasurer", "auditor")
# A member's token reads these for its own member only: the walk names the dealer, another
# member, so it is refused there (403, before anything is looked up);
# test_a_member_token_reads_every_route_of_its_own_member walks them with its own.
OWN_ROUTES = ("/members/{member_id}/account", "/members/{member_id}/account.csv",
              "/members/{member_id}/account.html", "/members/{member_id}/statements",
              "/members/{member_id}/statements/{session_id}")
# (method, OpenAPI path) -> {role: status}; None marks a public route (200 for anyone).
EXPECT: dict[tuple[str, str], dict[str, int] | None] = {
    ("post", "/sessions"): allowed("treasurer", ok=201),
    ("get", "/sessions/{session_id}"): allowed(*ALL),
    ("post", "/sessions/{session_id}/events"): allowed("treasurer", "dealer", ok=201),
    ("get", "/sessions/{session_id}/events"): allowed("admin", "treasurer", "auditor"),
    ("get", "/sessions/{session_id}/deals/{deal_no}"): allowed(*ALL),
    ("get", "/sessions/{session_id}/offences"): allowed(*ALL),
    ("post", "/sessions/{session_id}/corrections"): allowed("treasurer", ok=201),
    # a dealer may undo only his own entry (tests/e2e/test_corrections.py): the walk's last
    # entry is the dealer's
    ("post", "/sessions/{session_id}/undo"): allowed("treasurer", "dealer", ok=201),
    ("get", "/sessions/{session_id}/statement"): allowed("admin", "treasurer", "auditor"),
    ("get", "/sessions/{session_id}/explain"): allowed("admin", "treasurer", "auditor"),
    ("get", "/sessions/{session_id}/verify"): allowed("admin", "treasurer", "auditor"),
    ("get", "/sessions/{session_id}/export"): allowed("treasurer", "auditor"),
    ("get", "/club"): allowed(*ALL, "member"),
    ("get", "/members"): allowed("admin", "treasurer", "auditor"),
    ("post", "/members"): allowed("admin", ok=201),
    # the walk's member is the dealer: made a member (he is one: nothing changes), and
    # retired while he holds a seat at the walk's open tables (409, nothing recorded)
    ("patch", "/members/{member_id}"): allowed("admin"),
    ("post", "/members/{member_id}/retirement"): allowed("admin", ok=409),
    ("get", "/club/checkpoint-key"): allowed("admin", "treasurer", "auditor"),
    ("get", "/tokens"): allowed("admin"),
    # a treasurer issues and revokes member tokens only: the walk's are member tokens
    ("post", "/tokens"): allowed("admin", "treasurer", ok=201),
    ("delete", "/tokens/{token_id}"): allowed("admin", "treasurer"),
    ("get", "/audit/events"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/penalties"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/corrections"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/tokens"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/sessions"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/verify"): allowed("admin", "treasurer", "auditor"),
    # checks the file it is sent, writes nothing: the walk's is no export (ok false, 200)
    ("post", "/audit/export-check"): allowed("admin", "treasurer", "auditor"),
    ("get", "/healthz"): None,
    ("get", "/readyz"): None,
    # the club's books (docs/books.md)
    ("get", "/members/{member_id}/account"): allowed(*BOOKS),
    ("get", "/members/{member_id}/statements"): allowed(*BOOKS),
    ("get", "/members/{member_id}/statements/{session_id}"): allowed(*BOOKS),
    ("get", "/accounts"): allowed("admin", "treasurer", "auditor"),
    ("get", "/accounts/sessions"): allowed("admin", "treasurer", "auditor"),
    ("get", "/debts"): allowed("admin", "treasurer", "auditor"),
    ("get", "/standings"): allowed("admin", "treasurer", "auditor"),
    ("post", "/payments"): allowed("treasurer", ok=201),
    ("post", "/write-offs"): allowed("treasurer", ok=201),
    ("post", "/sessions/{session_id}/cash"): allowed("treasurer", ok=201),
    ("post", "/sessions/{session_id}/float"): allowed("treasurer", ok=201),
    ("post", "/sessions/{session_id}/cash-differences"): allowed("treasurer", ok=201),
    ("get", "/book-entries"): allowed("admin", "treasurer", "auditor"),
    ("post", "/book-entries/{seq}/reversal"): allowed("treasurer", ok=201),
    ("get", "/payables"): allowed("admin", "treasurer", "auditor"),
    ("get", "/settle-up"): allowed("admin", "treasurer", "auditor"),
    # a month is closed by the treasurer and reopened by an admin (docs/books.md)
    ("get", "/periods"): allowed("admin", "treasurer", "auditor"),
    ("post", "/periods/{period}/closing"): allowed("treasurer", ok=201),
    ("post", "/periods/{period}/reopening"): allowed("admin", ok=201),
    ("post", "/opening-balances"): allowed("treasurer", ok=201),
    ("get", "/books/export.beancount"): allowed("admin", "treasurer", "auditor"),
    ("get", "/club/currencies"): allowed("admin", "treasurer", "auditor"),
    ("put", "/club/currencies"): allowed("admin", "treasurer", ok=201),
    # an evening's tin (api/routes/evenings.py): each club's own evenings
    ("post", "/evenings/{evening}/sessions"): allowed("treasurer", ok=201),
    ("post", "/evenings/{evening}/float"): allowed("treasurer", ok=201),
    ("post", "/evenings/{evening}/cash"): allowed("treasurer", ok=201),
    ("post", "/evenings/{evening}/cash-differences"): allowed("treasurer", ok=201),
    ("get", "/evenings/{evening}"): allowed("admin", "treasurer", "auditor"),
    # the tablet's (api/routes/tablets.py): a code is shown by a treasurer or an admin, and
    # exchanged with no token at all (the code is the credential)
    ("post", "/sessions/{session_id}/pairing-codes"): allowed("admin", "treasurer", ok=201),
    ("post", "/pairing"): None,
    ("get", "/club/sessions"): allowed(*ALL),
    # signing in with a link (api/routes/signin.py): a treasurer's are member links only, the
    # walk's are; the exchange carries no token; everyone signs himself out
    ("post", "/signin-links"): allowed("admin", "treasurer", ok=201),
    ("get", "/signin-links"): allowed("admin", "treasurer"),
    ("delete", "/signin-links/{link_id}"): allowed("admin", "treasurer"),
    ("post", "/signin"): None,
    ("post", "/signout"): allowed(*ALL, "member"),
    ("get", "/sessions/{session_id}/entries"): allowed(*ALL),
    # sessions from before clubs (api/routes/attach.py): the administrator's
    ("get", "/club/sessions-before-clubs"): allowed("admin"),
    ("post", "/sessions/{session_id}/attach"): allowed("admin", ok=409),
    # the text forms, each a route of its own (api/routes/exports.py)
    ("get", "/sessions/{session_id}/statement.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/sessions/{session_id}/statement.html"): allowed("admin", "treasurer", "auditor"),
    ("get", "/sessions/{session_id}/explain.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/events.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/penalties.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/audit/corrections.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/members/{member_id}/account.csv"): allowed(*BOOKS),
    ("get", "/members/{member_id}/account.html"): allowed(*BOOKS),
    ("get", "/debts.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/standings.html"): allowed("admin", "treasurer", "auditor"),
    ("get", "/payables.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/settle-up.csv"): allowed("admin", "treasurer", "auditor"),
    ("get", "/book-entries.csv"): allowed("admin", "treasurer", "auditor"),
}
ATTACH_ROUTES = ("/club/sessions-before-clubs", "/sessions/{session_id}/attach")
# An evening is the caller's club's own: another club's treasurer reaches his own evening of
# that date, which holds none of our sessions (our session is not found in his club; his
# tin has no session to count, nor a count to book a difference against).
THEIR_EVENING = {("post", "/evenings/{evening}/sessions"): 404,
                 ("post", "/evenings/{evening}/cash"): 409,
                 ("post", "/evenings/{evening}/cash-differences"): 409}
# A public route's status when it is not 200.
PUBLIC_OK = {("post", "/pairing"): 201, ("post", "/signin"): 201}
# Served beside the document, not in it.
PUBLIC_EXTRAS = [("get", "/openapi.json"), ("get", "/docs")]
# Routes naming one object of the club: another club gets 404 there, never 403-then-200.
OBJECT_PARAMS = ("session_id", "token_id", "member_id", "link_id")
MISSING_MEMBER = "0" * 32


@dataclass
class World:
    engine: Any
    client: FlaskClient
    ours: Club
    theirs: Club
    bad: dict[str, str]  # credential kind -> Authorization header value ("" for none)
    counter: int = 0
    setup_version: int = 0

    def fresh_session(self) -> str:
        """A session of our club with deal 1 (the turn-up single) played."""
        ledger = Ledger(self.engine).for_club(self.ours.club_id)
        actor = Actor("treasurer", self.ours.members["treasurer"])
        sid = ledger.open_session(OpenSession(players=["treasurer", "dealer", "auditor"]),
                                  WriteRequest(actor)).body["session_id"]
        result = ledger.append(sid, [StartDeal(trump_card="7H", face_up={
            "treasurer": "5C", "dealer": "9H", "auditor": "KS"})], WriteRequest(actor))
        self.setup_version = result.body["version"]
        return sid

    def fresh_token(self) -> str:
        return Clubs(self.engine).create_token(self.ours.club_id, "member", "member",
                                               "victim")["token_id"]

    def fresh_link(self) -> dict[str, Any]:
        """A waiting member link of our club, with its code."""
        return SignIn(self.engine).create_link(self.ours.club_id, member="dealer",
                                               role="member",
                                               created_by=self.ours.members["admin"])

    def unique(self) -> str:
        self.counter += 1
        return f"walker {self.counter}"


@pytest.fixture
def world(app, engine, monkeypatch) -> World:
    ours, theirs = make_club(engine, "Our club"), make_club(engine, "Their club")
    # the module's database holds many clubs: name ours as the one that attaches sessions
    # from before clubs (api/routes/attach.py); every session here is a club's already (409)
    monkeypatch.setitem(app.config, "ATTACH_CLUB", ours.name)
    clubs = Clubs(engine)
    revoked = clubs.create_token(ours.club_id, "treasurer", "treasurer", "old phone")
    clubs.revoke_token(revoked["token_id"])
    expired = clubs.create_token(ours.club_id, "treasurer", "treasurer", "lent tablet",
                                 expires_in_days=1)
    with engine.begin() as conn:
        conn.execute(update(tokens).where(tokens.c.id == expired["token_id"])
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    real_id = ours.token_ids["treasurer"]
    bad = {
        "none": "",
        "malformed": "Bearer not-a-lanterloo-token",
        "wrong-secret": f"Bearer loo_{real_id}_{'x' * 43}",
        "basic": "Basic dHJlYXN1cmVyOnNlY3JldA==",
        "revoked": f"Bearer {revoked['token']}",
        "expired": f"Bearer {expired['token']}",
    }
    return World(engine, app.test_client(), ours, theirs, bad)


def request_for(world: World, method: str, path: str, *, missing: bool = False
                ) -> tuple[str, Any, dict[str, str]]:
    """(url, json body, the ids put in the path) for one call of the operation."""
    ids: dict[str, str] = {}
    body_session = MISSING_SESSION
    if "{session_id}" in path:
        ids["session_id"] = MISSING_SESSION if missing else world.fresh_session()
    if "{token_id}" in path:
        ids["token_id"] = MISSING_TOKEN if missing else world.fresh_token()
    if "{member_id}" in path:
        ids["member_id"] = MISSING_MEMBER if missing else world.ours.members["dealer"]
    if "{link_id}" in path:
        ids["link_id"] = MISSING_MEMBER if missing else world.fresh_link()["link_id"]
    on_session = "{session_id}" in path
    if on_session and path.endswith(("/cash", "/cash-differences")) and not missing:
        # the cash is counted once the session ends
        treasurer = Actor("treasurer", world.ours.members["treasurer"])
        Ledger(world.engine).for_club(world.ours.club_id).append(
            ids["session_id"], [EndSession(method="divide-pool")], WriteRequest(treasurer))
    if on_session and path.endswith("/cash-differences") and not missing:  # a float of 1
        books = Books(world.engine, world.ours.club_id)
        treasurer = Actor("treasurer", world.ours.members["treasurer"])
        books.open_float(ids["session_id"], amount_minor=1, currency="units",
                         request=WriteRequest(treasurer))
        books.count_cash(ids["session_id"], counted_minor=0, currency="units",
                         request=WriteRequest(treasurer))
    if path == "/write-offs":  # the club lends each club's dealer 1000: he owes it
        for club in (world.ours, world.theirs):
            Books(world.engine, club.club_id).record_payment(
                payer="club", payee="dealer", amount_minor=1000, currency="GBP", method="cash",
                request=WriteRequest(Actor("treasurer", club.members["treasurer"])))
    if "{seq}" in path:  # a fresh payment to reverse, at the same number in both clubs
        books = [(c, Books(world.engine, c.club_id)) for c in (world.ours, world.theirs)]
        target = max(b.accounts()["log"]["entries"] for _, b in books) + 1
        for club, b in books:
            while b.accounts()["log"]["entries"] < target:
                b.record_payment(
                    payer="club", payee="dealer", amount_minor=1, currency="GBP",
                    method="cash",
                    request=WriteRequest(Actor("treasurer", club.members["treasurer"])))
        ids["seq"] = "999999" if missing else str(target)
    if "{evening}" in path:  # a fresh evening each time: a session is in one evening
        world.counter += 1
        ids["evening"] = (date(2026, 1, 1) + timedelta(days=world.counter)).isoformat()
        books = Books(world.engine, world.ours.club_id)
        treasurer = WriteRequest(Actor("treasurer", world.ours.members["treasurer"]))
        if path.endswith(("/cash", "/cash-differences", "/sessions")):
            sid = world.fresh_session()
            Ledger(world.engine).for_club(world.ours.club_id).append(
                sid, [EndSession(method="divide-pool")], treasurer)
            if path.endswith("/sessions"):
                body_session = sid
            else:
                books.join_evening(ids["evening"], session_id=sid, request=treasurer)
        if path.endswith("/cash-differences"):  # a float of 1, a tin of 0
            books.open_float(evening=ids["evening"], amount_minor=1, currency="units",
                             request=treasurer)
            books.count_cash(evening=ids["evening"], counted_minor=0, currency="units",
                             request=treasurer)
    pairing_code = None
    if path == "/pairing":  # a fresh code for each exchange: it is good once
        pairing_code = Tablets(world.engine).create_code(
            world.ours.club_id, world.fresh_session(),
            created_by=world.ours.members["treasurer"],
            member=world.ours.members["dealer"])["code"]
    if path.endswith("/undo") and not missing:  # the last entry, the dealer's own
        dealer = Actor("dealer", world.ours.members["dealer"])
        Ledger(world.engine).for_club(world.ours.club_id).append(
            ids["session_id"], [StartDeal(trump_card="3C")], WriteRequest(dealer))
    if "{period}" in path:  # a month of its own each time, closed first to be reopened
        world.counter += 1
        ids["period"] = f"{2000 + world.counter // 12:04d}-{world.counter % 12 + 1:02d}"
        if path.endswith("/reopening"):
            for club in (world.ours, world.theirs):
                Periods(Books(world.engine, club.club_id)).close(ids["period"], request=(
                    WriteRequest(Actor("treasurer", club.members["treasurer"]))))
    url = path.replace("{deal_no}", "1")
    if path == "/books/export.beancount":
        url += "?from=2026-01-01&to=2026-01-31"
    for name, value in ids.items():
        url = url.replace("{" + name + "}", value)
    body = None
    if method in ("post", "put", "patch"):
        body = {
            "/sessions": {"players": ["treasurer", "dealer", "Guest"], "guests": ["Guest"]},
            "/sessions/{session_id}/events": {"type": "DealStarted", "trump_card": "3C"},
            "/sessions/{session_id}/corrections": {"voids": [2], "reason": "walk"},
            "/sessions/{session_id}/undo": {"reason": "walk"},
            "/members": {"name": world.unique()},
            "/members/{member_id}": {"guest": False},
            "/members/{member_id}/retirement": None,
            "/audit/export-check": {"format": "not an export"},
            "/tokens": {"member": "dealer", "role": "member", "label": "walk"},
            "/payments": {"payer": "dealer", "payee": "club", "amount_minor": 100,
                          "currency": "GBP", "method": "cash"},
            "/write-offs": {"member": "dealer", "amount_minor": 1, "currency": "GBP",
                            "reason": "walk"},
            "/sessions/{session_id}/cash": {"counted_minor": 0, "currency": "units"},
            "/sessions/{session_id}/pairing-codes": {"member": "dealer"},
            "/pairing": {"code": pairing_code},
            "/signin-links": {"member": "dealer", "role": "member"},
            "/signin": {"code": world.fresh_link()["code"]} if path == "/signin" else None,
            "/signout": None,
            "/sessions/{session_id}/attach": None,
            "/book-entries/{seq}/reversal": {"reason": "walk"},
            "/sessions/{session_id}/float": {"amount_minor": 1, "currency": "units"},
            "/sessions/{session_id}/cash-differences": {
                "difference": "shortage", "amount_minor": 1, "currency": "units",
                "account": "club", "reason": "walk"},
            "/club/currencies": {"currency": "GBP", "accepted": ["EUR"]},
            "/evenings/{evening}/sessions": {"session_id": body_session},
            "/evenings/{evening}/float": {"amount_minor": 1, "currency": "units"},
            "/evenings/{evening}/cash": {"counted_minor": 0, "currency": "units"},
            "/evenings/{evening}/cash-differences": {
                "difference": "shortage", "amount_minor": 1, "currency": "units",
                "account": "club", "reason": "walk"},
            "/periods/{period}/closing": {},
            "/periods/{period}/reopening": {"reason": "walk"},
            # a file of its own each time: the same file is recorded once
            "/opening-balances": ("member,amount,currency,as_of,note\n"
                                  f"dealer,1.00,GBP,2026-01-01,{world.unique()}\n").encode(),
        }[path]
    return url, body, ids


def call(world: World, method: str, url: str, body: Any, authorization: str) -> Any:
    if url == "/signout":  # signing out revokes the token: sign out a fresh one of its kind
        authorization = stand_in(world, authorization)
    headers = {"Authorization": authorization} if authorization else {}
    if method in ("post", "put", "patch"):  # never blind (428): its own request
        world.counter += 1
        headers["Idempotency-Key"] = f"walk-{world.counter}"
    if isinstance(body, bytes):  # a file (the opening balances), sent as text/csv
        return world.client.open(url, method=method.upper(), data=body,
                                 content_type="text/csv", headers=headers)
    return world.client.open(url, method=method.upper(), json=body, headers=headers)


def stand_in(world: World, authorization: str) -> str:
    """A fresh token of the same club, member and role as the club's token in
    `authorization`; any other credential as it is."""
    for club in (world.ours, world.theirs):
        for role, token in club.tokens.items():
            if authorization == f"Bearer {token}":
                fresh = Clubs(world.engine).create_token(club.club_id, club.members[role],
                                                         role, "signing out")
                return f"Bearer {fresh['token']}"
    return authorization


def spec_operations(client: FlaskClient) -> set[tuple[str, str]]:
    spec = client.get("/openapi.json").get_json()
    return {(method, path) for path, item in spec["paths"].items() for method in item
            if method in ("get", "post", "put", "patch", "delete")}


def assert_common_headers(response: Any, authenticated: bool) -> None:
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    if authenticated:
        assert response.headers["Cache-Control"] == "no-store"


def masked(response: Any, *ids: str) -> dict[str, Any]:
    text = response.get_data(as_text=True)
    for value in ids:
        text = text.replace(value, "<id>")
    return json.loads(text)


def test_every_route_has_an_expectation(client):
    operations = spec_operations(client)
    assert operations, "the OpenAPI document lists no operation"
    missing = operations - set(EXPECT)
    assert not missing, f"routes with no line in EXPECT (decide who may call them): {missing}"
    assert set(EXPECT) - operations == set(), "EXPECT names routes the app does not have"


@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_what_the_table_says_on_every_route(world, role):
    for (method, path), expected in sorted(EXPECT.items()):
        url, body, _ = request_for(world, method, path)
        response = call(world, method, url, body, f"Bearer {world.ours.tokens[role]}")
        want = PUBLIC_OK.get((method, path), 200) if expected is None else expected[role]
        assert response.status_code == want, (role, method, url, response.get_data(True))
        assert_common_headers(response, authenticated=True)
        if want == 403:
            problem = response.get_json()
            assert response.mimetype == PROBLEM and problem["rule"] == "role"
            # A 403 is decided before anything is looked up: it says nothing of the object.
            missing_url, missing_body, _ = request_for(world, method, path, missing=True)
            again = call(world, method, missing_url, missing_body,
                         f"Bearer {world.ours.tokens[role]}")
            assert again.status_code == 403
            assert {**problem, "instance": None} == {**again.get_json(), "instance": None}


@pytest.mark.parametrize("kind", BAD_CREDENTIALS)
def test_no_valid_token_is_401_with_a_bearer_challenge_on_every_private_route(world, kind):
    bodies = set()
    for (method, path), expected in sorted(EXPECT.items()) + [(op, None) for op in
                                                              PUBLIC_EXTRAS]:
        url, body, _ = request_for(world, method, path)
        response = call(world, method, url, body, world.bad[kind])
        if expected is None:
            assert response.status_code == PUBLIC_OK.get((method, path), 200), (kind, url)
            continue
        assert response.status_code == 401, (kind, method, url, response.get_data(True))
        assert response.mimetype == PROBLEM
        assert response.headers["WWW-Authenticate"].startswith("Bearer ")
        assert response.headers["Cache-Control"] == "no-store"
        assert_common_headers(response, authenticated=False)
        problem = response.get_json()
        bodies.add((problem["type"], problem["title"], problem["detail"]))
    # Missing, malformed, unknown, revoked, expired: one answer, so none can be told apart.
    assert len(bodies) == 1, bodies


@pytest.mark.parametrize("role", ROLES)
def test_another_clubs_token_never_reaches_our_objects(world, role):
    for (method, path), expected in sorted(EXPECT.items()):
        if expected is None:
            continue
        url, body, ids = request_for(world, method, path)
        response = call(world, method, url, body, f"Bearer {world.theirs.tokens[role]}")
        if path in ATTACH_ROUTES and role == "admin":
            # their club is not the one named to attach: refused before any session is read
            assert response.status_code == 403, (method, url)
            assert response.get_json()["rule"] == "attach-club"
            continue
        if (method, path) in THEIR_EVENING and expected[role] != 403:
            assert response.status_code == THEIR_EVENING[(method, path)], (role, url)
            assert world.ours.club_id not in response.get_data(as_text=True)
            continue
        if not any(f"{{{p}}}" in path for p in OBJECT_PARAMS):
            # Collection routes answer for the caller's own club.
            assert response.status_code == expected[role], (role, method, url)
            assert world.ours.club_id not in response.get_data(as_text=True)
            continue
        if expected[role] == 403:
            assert response.status_code == 403, (role, method, url)
            continue
        assert response.status_code == 404, (role, method, url, response.get_data(True))
        # Exactly what a session (or token) that does not exist answers.
        missing_url, missing_body, missing_ids = request_for(world, method, path,
                                                             missing=True)
        nowhere = call(world, method, missing_url, missing_body,
                       f"Bearer {world.theirs.tokens[role]}")
        assert nowhere.status_code == 404
        assert masked(response, *ids.values()) == masked(nowhere, *missing_ids.values())
        assert nowhere.headers.get("Content-Type") == response.headers.get("Content-Type")
    # and no event of theirs landed in a session of ours
    with world.engine.connect() as conn:
        landed = conn.scalar(select(func.count()).select_from(events).join(
            sessions, sessions.c.id == events.c.stream_id).where(
            sessions.c.club_id == world.ours.club_id,
            events.c.member_id.in_(list(world.theirs.members.values()))))
    assert landed == 0


def test_a_member_token_reads_every_route_of_its_own_member(world):
    """The routes a member's token may call, with its own member: 200; every other route is
    403 by the table above (and any other member's id there)."""
    me = world.ours.members["member"]
    ledger = Ledger(world.engine).for_club(world.ours.club_id)
    treasurer = Actor("treasurer", world.ours.members["treasurer"])
    sid = ledger.open_session(OpenSession(players=["treasurer", "member"]),
                              WriteRequest(treasurer)).body["session_id"]
    token = f"Bearer {world.ours.tokens['member']}"
    own = {("get", path) for path in OWN_ROUTES}
    assert own <= set(EXPECT) and all(EXPECT[op]["member"] == 403 for op in own)
    for _, path in sorted(own):
        url = path.replace("{member_id}", me).replace("{session_id}", sid)
        response = call(world, "get", url, None, token)
        assert response.status_code == 200, (url, response.get_data(True))
        assert_common_headers(response, authenticated=True)
    assert call(world, "get", "/club", None, token).get_json()["member_id"] == me


def test_a_dealer_logs_play_but_may_not_end_the_session(world):
    sid = world.fresh_session()
    dealer = f"Bearer {world.ours.tokens['dealer']}"
    treasurer = f"Bearer {world.ours.tokens['treasurer']}"
    end = {"type": "SessionEnded", "method": "single"}
    refused = call(world, "post", f"/sessions/{sid}/events", end, dealer)
    assert refused.status_code == 403 and refused.get_json()["rule"] == "role"
    batch = {"events": [{"type": "DealStarted", "trump_card": "3C"}, end]}
    assert call(world, "post", f"/sessions/{sid}/events", batch, dealer).status_code == 403
    assert Ledger(world.engine).session(sid)["version"] == world.setup_version
    ended = call(world, "post", f"/sessions/{sid}/events", end, treasurer)
    assert ended.status_code in (201, 409), ended.get_json()  # the rules may still refuse
    assert ended.status_code != 403


def test_no_session_is_outside_a_club(world):
    """No session is opened outside a club, and the database holds none (migration 0018:
    the sessions from before clubs are attached before it runs), so no token can reach a
    session of no club: there is none."""
    with pytest.raises(InvalidInput, match="a session is opened in a club"):
        Ledger(world.engine).open_session(OpenSession(players=["A", "B", "C"]),
                                          WriteRequest("cli"))
    now = datetime.now(UTC)
    with pytest.raises(IntegrityError), world.engine.begin() as conn:
        conn.execute(insert(sessions).values(id=uuid4().hex, club_id=None, version=0,
                                             state={}, created_at=now, updated_at=now))


def test_the_docs_page_has_a_policy_that_lets_swagger_ui_load(client):
    """Swagger UI comes from the app itself (the flask-swagger-ui package's files): the page
    loads nothing from the internet, and its policy allows only 'self', nothing inline."""
    response = client.get("/docs")
    assert response.status_code == 200
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "unsafe-inline" not in policy and "http" not in policy
    assert "connect-src 'self'" in policy and "frame-ancestors 'none'" in policy
    page = response.get_data(as_text=True)
    assert not re.search(r"https?://", page) and "<script>" not in page
    for src in re.findall(r'(?:src|href)="([^"]+)"', page):
        with client.get(src) as asset:  # a file response: closed, or it warns
            assert asset.status_code == 200, src
            assert asset.headers["Content-Security-Policy"].startswith("default-src 'none'")
    with client.get("/docs/assets/swagger-ui-bundle.js") as bundle:
        assert bundle.mimetype == "text/javascript"
    assert client.get("/docs/assets/index.html").status_code == 404


def test_the_openapi_document_names_the_bearer_scheme_and_each_routes_roles(client):
    spec = client.get("/openapi.json").get_json()
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    for (method, path), expected in EXPECT.items():
        operation = spec["paths"][path][method]
        if expected is None:
            assert "security" not in operation
            continue
        assert operation["security"] == [{"bearerAuth": []}]
        own = ["member"] if path in OWN_ROUTES else []
        assert sorted(operation["x-roles"]) == sorted(
            [r for r, s in expected.items() if s != 403] + own)
        assert operation.get("x-own-member") == ("member_id" if own else None)
        assert {"401", "403"} <= set(operation["responses"])
