"""A body nested deeper than the API reads (api/http/inputs.py MAX_JSON_DEPTH) is a 400 problem on
every route that takes one, whoever sends it, and nothing is written: never a 500."""

from __future__ import annotations

import pytest
from flask import Flask

from api.http.inputs import MAX_JSON_DEPTH
from tests.clubs import make_club

from .conftest import PLAYERS, assert_problem

pytestmark = pytest.mark.backends("sqlite")

WRITES = {"POST", "PUT", "PATCH", "DELETE"}
ROLES = ("admin", "treasurer", "dealer", "auditor")
ARRAYS_1000 = "[" * 1000 + "]" * 1000
OBJECTS_1000 = '{"a":' * 1000 + "1" + "}" * 1000


def _nested(depth: int) -> str:
    """{"reason": [[...]]}: an object holding arrays, `depth` levels in all."""
    return '{"reason": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def _write_routes(app: Flask, session_id: str) -> list[tuple[str, str]]:
    routes = []
    for rule in app.url_map.iter_rules():
        if rule.rule == "/signout":  # reads no body, and would revoke the test's tokens
            continue
        for method in sorted((rule.methods or set()) & WRITES):
            path = rule.rule.replace("<session_id>", session_id)
            routes.append((method, path.replace("<token_id>", "0" * 16)))
    return routes


def test_every_route_that_takes_a_body_refuses_one_nested_a_thousand_deep(app, engine):
    club = make_club(engine)
    client = app.test_client()
    opened = client.post("/sessions", json={"players": PLAYERS, "guests": PLAYERS},
                         headers=club.headers("treasurer"))
    assert opened.status_code == 201
    session_id = opened.get_json()["session_id"]
    routes = _write_routes(app, session_id)
    # the routes that read a JSON body: each must be among those refused
    assert {"/sessions", f"/sessions/{session_id}/events", f"/sessions/{session_id}/undo",
            f"/sessions/{session_id}/corrections", "/tokens", "/members", "/payments",
            "/pairing"} <= {path for _, path in routes}
    refused = set()
    for method, path in routes:
        for body in (ARRAYS_1000, OBJECTS_1000, _nested(1000)):
            for role in (*ROLES, None):
                headers = {"Idempotency-Key": f"deep-{role}-{len(refused)}",
                           **(club.headers(role) if role else {})}
                response = client.open(path, method=method, data=body, headers=headers,
                                       content_type="application/json")
                assert response.status_code < 500, (method, path, role, response.get_json())
                if response.status_code == 400:
                    assert_problem(response, 400, rule="json-depth",
                                   mentions=(f"more than {MAX_JSON_DEPTH} deep",))
                    refused.add(path)
    assert refused >= {"/sessions", f"/sessions/{session_id}/events", "/members", "/tokens",
                       f"/sessions/{session_id}/undo", f"/sessions/{session_id}/corrections",
                       "/payments", "/write-offs", f"/sessions/{session_id}/cash",
                       f"/sessions/{session_id}/pairing-codes", "/pairing", "/signin-links",
                       "/signin"}
    session = client.get(f"/sessions/{session_id}", headers=club.headers("treasurer"))
    assert session.get_json()["version"] == opened.get_json()["version"]  # nothing appended


def test_the_depth_limit_is_exact_and_the_body_reaches_the_schema_below_it(client, table):
    undo = f"/sessions/{table.sid}/undo"
    at_limit = client.post(undo, data=_nested(MAX_JSON_DEPTH), content_type="application/json",
                           headers={"If-Match": '"1"'})
    # within the limit the schema reads the body: "reason" must be a string
    problem = assert_problem(at_limit, 422)
    assert problem["field"] == "reason"
    over = client.post(undo, data=_nested(MAX_JSON_DEPTH + 1),
                       content_type="application/json", headers={"If-Match": '"1"'})
    assert_problem(over, 400, rule="json-depth")
    # the events route reads its body through the same reader
    events = client.post(f"/sessions/{table.sid}/events", data=_nested(MAX_JSON_DEPTH + 1),
                         content_type="application/json", headers={"If-Match": '"1"'})
    assert_problem(events, 400, rule="json-depth")
