"""HTTP tests through Flask's test client, on the backends their module allows
(tests/conftest.py: `pytest.mark.backends`).

`engine` and `app` are the module's: one migrated database and one app per module and
backend, made on first use; `client` is a treasurer of a fresh club, so each test sees only
its own sessions. A test that asks for `database_url` (or `blank_database_url`), or is marked
`@pytest.mark.isolated`, gets a database and an app of its own.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine

from api import create_app
from tests.clubs import club_client
from tests.conftest import isolated, shared_engine
from tests.support.databases import SharedDatabases

PROBLEM = "application/problem+json"
PLAYERS = ["A", "B", "C", "D", "E"]
# docs/rules.md §10.1: the turn-up single dealt by A.
EXAMPLE_1 = {"type": "DealStarted", "trump_card": "7H",
             "face_up": {"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"}}


APP_CONFIG = {"MAX_BATCH_EVENTS": 50}


@pytest.fixture
def engine(request: pytest.FixtureRequest, backend: str, shared: SharedDatabases) -> Engine:
    """The module's database of the backend, or one of the test's own (see above)."""
    if isolated(request):
        return request.getfixturevalue("fresh_engine")
    return shared_engine(shared, backend)


@pytest.fixture
def app(request: pytest.FixtureRequest, engine: Engine, backend: str,
        shared: SharedDatabases) -> Flask:
    """The module's app on `engine`, or one of the test's own."""
    if isolated(request):
        return create_app({"ENGINE": engine, "TESTING": True, **APP_CONFIG})
    return shared.app(backend, **APP_CONFIG)


@pytest.fixture
def club(engine: Engine) -> Any:
    """A club of the books' tests (docs/books.md): members Ann, Bob and Cal."""
    from ledger.clubs.service import Clubs
    from tests.clubs import make_club

    club = make_club(engine, "Thursday Loo")
    for name in ("Ann", "Bob", "Cal"):
        club.members[name] = Clubs(engine).add_member(club.club_id, name)["member_id"]
    return club


@pytest.fixture
def tess(app: Flask, engine: Engine, club: Any) -> FlaskClient:
    """The club's treasurer."""
    return club_client(app, engine, club=club)


@pytest.fixture
def client(app: Flask, engine) -> FlaskClient:
    """A treasurer of a fresh club (tests/clubs.py): every request carries the token."""
    return club_client(app, engine)


class Table:
    """A session at the table, driven over HTTP."""

    def __init__(self, client: FlaskClient, session_id: str):
        self.client = client
        self.sid = session_id

    @property
    def url(self) -> str:
        return f"/sessions/{self.sid}"

    def post(self, body: Any, *, blind: bool = False, **kwargs: Any) -> Any:
        """POST `body` as JSON. Unless the request already says what it builds on (If-Match,
        an Idempotency-Key or expected_version in the body) it is sent with If-Match: the
        session's current version, as a client does; `blind=True` sends it as it is."""
        kwargs["headers"] = dict(kwargs.get("headers") or {})
        if not blind:
            add_precondition(self, body, kwargs["headers"])
        return self.client.post(f"{self.url}/events", json=body, **kwargs)

    def append(self, body: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        response = self.post(body, **kwargs)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def send(self, type_: str, **fields: Any) -> dict[str, Any]:
        return self.append({"type": type_, **fields})

    def declare(self, *pairs: tuple[str, str]) -> None:
        for player, declaration in pairs:
            self.send("DeclarationMade", player=player, declaration=declaration)

    def play(self, *pairs: tuple[str, str]) -> None:
        for player, card in pairs:
            self.send("CardPlayed", player=player, card=card)

    def view(self) -> dict[str, Any]:
        response = self.client.get(self.url)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def version(self) -> int:
        return int(self.view()["version"])

    def refused(self, body: Any, status: int, *, rule: str | None = None,
                mentions: tuple[str, ...] = (), raw: bool = False,
                **kwargs: Any) -> dict[str, Any]:
        """Send `body`; assert it is refused with a problem naming what was wrong and that
        nothing was appended."""
        before = self.version()
        if raw:
            kwargs["headers"] = dict(kwargs.get("headers") or {})
            add_precondition(self, None, kwargs["headers"])
            response = self.client.post(f"{self.url}/events", data=body, **kwargs)
        else:
            response = self.post(body, **kwargs)
        problem = assert_problem(response, status, rule=rule, mentions=mentions)
        assert self.version() == before, "a refused request appended events"
        return problem


def add_precondition(table: Table, body: Any, headers: dict[str, str]) -> None:
    """Send If-Match with the current version, unless the request already names a version
    or carries an Idempotency-Key."""
    named = {name.lower() for name in headers}
    if "if-match" in named or "idempotency-key" in named:
        return
    if isinstance(body, dict) and "expected_version" in body:
        return
    headers["If-Match"] = f'"{table.version()}"'


def session_accounts(client: Any, *, as_of: str | None = None, limit: int = 100
                     ) -> dict[str, dict[str, int]]:
    """Every session's own account, {account: {currency: balance}}, from every page of
    /accounts/sessions (each account once: a second sighting fails)."""
    out: dict[str, dict[str, int]] = {}
    args: dict[str, Any] = {"limit": limit, **({"as_of": as_of} if as_of else {})}
    while True:
        response = client.get("/accounts/sessions", query_string=args)
        assert response.status_code == 200, response.get_json()
        page = response.get_json()
        for row in page["sessions"]:
            assert row["account"] not in out, row
            out[row["account"]] = row["balances"]
        if page["next_after"] is None:
            assert "Link" not in response.headers
            return out
        assert response.headers["Link"] == f'<{page["next"]}>; rel="next"'
        args["after"] = page["next_after"]


def every_account(client: Any, *, as_of: str | None = None) -> dict[str, dict[str, int]]:
    """Every account of the club: /accounts' (the members' and the club's) and every
    session's own, from /accounts/sessions."""
    accounts = client.get("/accounts", query_string={"as_of": as_of} if as_of else {}
                          ).get_json()["accounts"]
    return dict(sorted({**accounts, **session_accounts(client, as_of=as_of)}.items()))


def assert_problem(response: Any, status: int, *, rule: str | None = None,
                   mentions: tuple[str, ...] = ()) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_data(True))
    assert response.mimetype == PROBLEM
    problem = json.loads(response.get_data(as_text=True))
    assert problem["status"] == status
    assert problem["type"] and problem["title"] and problem["detail"]
    if rule is not None:
        assert problem.get("rule") == rule, problem
    for word in mentions:
        assert word.lower() in problem["detail"].lower(), (word, problem)
    assert "Traceback" not in response.get_data(as_text=True)
    return problem


def open_table(client: FlaskClient, **body: Any) -> Table:
    response = client.post("/sessions", json={"players": PLAYERS, **body})
    assert response.status_code == 201, response.get_json()
    return Table(client, response.get_json()["session_id"])


@pytest.fixture
def table(client: FlaskClient) -> Table:
    """A baxter-wray session of five, A to deal the first (turn-up single) deal."""
    return open_table(client, preset="baxter-wray", first_dealer="A")


@pytest.fixture
def declaring(table: Table) -> Table:
    """Deal 2 (B deals, spades trumps) after example 1's single: C, the elder hand, declares."""
    table.append(EXAMPLE_1)
    table.send("DealStarted", trump_card="2S")
    return table


@pytest.fixture
def playing(declaring: Table) -> Table:
    """C, D and E stand, A and B throw up: C leads the first trick."""
    declaring.declare(("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
                      ("B", "throw_up"))
    return declaring
