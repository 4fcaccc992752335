"""Every error everywhere is problem+json; the OpenAPI document is served and complete."""

from __future__ import annotations

import json
import logging

import pytest

from api import create_app
from api.schemas import EVENT_SCHEMAS, unmatched_client_types
from ledger.domain import CLIENT_TYPES

from .conftest import assert_problem


def test_an_unknown_route_is_a_problem_not_an_html_page(client):
    problem = assert_problem(client.get("/no/such/page"), 404, mentions=("/no/such/page",))
    assert problem["instance"] == "/no/such/page"


def test_a_method_not_allowed_is_a_problem_with_the_allowed_methods(client):
    response = client.delete("/sessions")
    assert_problem(response, 405, mentions=("DELETE",))
    assert "POST" in response.headers["Allow"]


def test_opening_a_session_without_a_json_body_is_unsupported(client):
    assert_problem(client.post("/sessions", data="players=A,B"), 415,
                   rule="content-type")


def test_opening_a_session_with_broken_json_is_a_bad_request(client):
    response = client.post("/sessions", data="{players", content_type="application/json")
    assert_problem(response, 400, rule="json")


def test_opening_a_session_with_nan_in_it_is_a_bad_request(client):
    response = client.post("/sessions", data='{"players": ["A", "B"], "money_per_unit_minor": '
                                             'NaN}', content_type="application/json")
    assert_problem(response, 400, rule="json")


def test_opening_a_session_without_players_names_the_missing_field(client):
    problem = assert_problem(client.post("/sessions", json={"name": "x"}), 422, rule="schema")
    assert problem["field"] == "players"


def test_a_boolean_is_not_accepted_as_a_number(client):
    response = client.post("/sessions", json={"players": ["A", "B"], "currency": "GBP",
                                              "money_per_unit_minor": True})
    assert assert_problem(response, 422)["field"] == "money_per_unit_minor"


def test_an_unexpected_failure_is_a_logged_500_problem_without_a_trace(engine, caplog):
    app = create_app({"ENGINE": engine, "TESTING": True})

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    with caplog.at_level(logging.ERROR, logger="lanterloo.api"):
        response = app.test_client().get("/boom")
    problem = assert_problem(response, 500, rule="internal-error")
    assert "secret internals" not in response.get_data(as_text=True)
    assert "secret internals" in caplog.text
    assert problem["title"] == "Internal error"


def test_the_openapi_document_is_served_as_json_listing_every_path(client):
    response = client.get("/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    spec = json.loads(response.get_data(as_text=True))
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {
        "/sessions", "/sessions/{session_id}", "/sessions/{session_id}/events",
        "/sessions/{session_id}/deals/{deal_no}", "/sessions/{session_id}/statement",
        "/healthz", "/club", "/members", "/tokens", "/tokens/{token_id}"}
    assert set(spec["paths"]["/sessions/{session_id}/events"]) >= {"get", "post"}


def test_every_reference_in_the_openapi_document_resolves(client):
    spec = client.get("/openapi.json").get_json()

    def refs(node):
        if isinstance(node, dict):
            if "$ref" in node:
                yield node["$ref"]
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    found = set(refs(spec))
    assert found
    for ref in found:
        target = spec
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        assert isinstance(target, dict), ref


def test_the_openapi_document_describes_every_client_event_and_problems(client):
    spec = client.get("/openapi.json").get_json()
    body = spec["paths"]["/sessions/{session_id}/events"]["post"]["requestBody"]
    one_of = body["content"]["application/json"]["schema"]["oneOf"]
    names = {ref["$ref"].rsplit("/", 1)[1] for ref in one_of}
    assert names == {f"{t}In" for t in CLIENT_TYPES} | {"EventBatchIn"}
    schemas = spec["components"]["schemas"]
    assert schemas["CardPlayedIn"]["additionalProperties"] is False
    assert schemas["CardPlayedIn"]["properties"]["type"]["enum"] == ["CardPlayed"]
    conflict = spec["components"]["responses"]["CONFLICT"]
    assert "application/problem+json" in conflict["content"]
    params = {p["name"] for p in spec["paths"]["/sessions/{session_id}/events"]["post"]
              ["parameters"]}
    assert {"If-Match", "Idempotency-Key"} <= params


def test_the_browsable_docs_are_served(client):
    response = client.get("/docs")
    assert response.status_code == 200
    assert "openapi.json" in response.get_data(as_text=True)


def test_every_client_event_type_has_a_schema_that_builds_its_command():
    assert unmatched_client_types() == set()
    assert list(EVENT_SCHEMAS) == list(CLIENT_TYPES)


@pytest.mark.parametrize("name", list(EVENT_SCHEMAS))
def test_each_event_schema_refuses_unknown_fields(name):
    import marshmallow as ma

    with pytest.raises(ma.ValidationError) as caught:
        EVENT_SCHEMAS[name]().load({"type": name, "surprise": 1})
    assert "surprise" in caught.value.messages


def test_the_health_check_is_a_503_problem_when_the_database_is_unreachable(tmp_path, caplog):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/missing/dir/x.db",
                      "TESTING": True})
    with caplog.at_level(logging.ERROR, logger="lanterloo.api"):
        response = app.test_client().get("/healthz")
    assert_problem(response, 503, rule="database")
    app.extensions["lanterloo_engine"].dispose()
