"""Every route that takes a body reads it one way (api/http/inputs.py BodyParser, through each
view's `@blp.arguments`): a body that is not sent as JSON is a 415, one that is not a JSON
object a 400, whichever route it is sent to, and nothing is written."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.clubs import make_club

from .conftest import PLAYERS, assert_problem

pytestmark = pytest.mark.backends("sqlite")

WRITES = {"POST", "PUT", "PATCH"}
# Routes that read no JSON body: signing out, and an import sent as a file.
NO_JSON_BODY = {"/signout", "/opening-balances"}


def _body_routes(app: Flask, session_id: str) -> list[tuple[str, str]]:
    """(method, path) of every route that reads a JSON body (its OpenAPI requestBody)."""
    spec = app.test_client().get("/openapi.json").get_json()
    routes = []
    for rule in app.url_map.iter_rules():
        if rule.rule in NO_JSON_BODY:
            continue
        document_path = rule.rule.replace("<int:", "<").replace("<", "{").replace(">", "}")
        for method in sorted((rule.methods or set()) & WRITES):
            operation = spec["paths"].get(document_path, {}).get(method.lower(), {})
            if "application/json" not in operation.get("requestBody", {}).get("content", {}):
                continue
            path = (rule.rule.replace("<session_id>", session_id).replace("<int:seq>", "1")
                    .replace("<evening>", "2026-11-28").replace("<period>", "2026-10"))
            routes.append((method, path))
    return routes


@pytest.mark.parametrize("role", ["treasurer", "admin", "dealer"])
def test_every_body_is_read_as_one_json_object(app, engine, role):
    club = make_club(engine)
    client = app.test_client()
    opened = client.post("/sessions", json={"players": PLAYERS, "guests": PLAYERS},
                         headers=club.headers("treasurer"))
    session_id = opened.get_json()["session_id"]
    routes = _body_routes(app, session_id)
    assert len(routes) >= 20  # every write of the sessions, the books and the club
    read = set()
    for method, path in routes:
        headers = {**club.headers(role), "If-Match": '"1"'}
        form = client.open(path, method=method, data="reason=walk", headers=headers,
                           content_type="application/x-www-form-urlencoded")
        if form.status_code == 403:  # the role may not: refused before the body is read
            continue
        assert_problem(form, 415, rule="content-type")
        array = client.open(path, method=method, data="[]", headers=headers,
                            content_type="application/json")
        assert_problem(array, 400, rule="json-object")
        nothing = client.open(path, method=method, headers=headers)
        assert_problem(nothing, 415, rule="content-type")
        read.add(path)
    assert read  # each role reaches some
    session = client.get(f"/sessions/{session_id}", headers=club.headers("treasurer"))
    assert session.get_json()["version"] == opened.get_json()["version"]  # nothing appended
