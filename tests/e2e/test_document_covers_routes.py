"""The OpenAPI document covers the app as a generated client needs it, for every route of the
app's url_map (so a route added later is held to it too): each operation named for what it
does, each query parameter it reads listed, each response member always sent required, each
nullable reference written as generators read it, each family of events discriminated.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask_smorest import Blueprint as ApiBlueprint

from api.http.contract import openapi_path

pytestmark = pytest.mark.backends("sqlite")  # the document: no database's

# Pages and files served beside the API, not operations of it.
NOT_OPERATIONS = re.compile(r"^/(openapi\.json|docs(/.*)?|metrics|table(/.*)?|desk(/.*)?)$")
# Schemas with no member always sent: the members of an account line's detail depend on
# its kind; a penalty entered by hand has no evidence ({}); flask-smorest's own pagination
# schema is unused.
NOTHING_ALWAYS = {"AccountDetail", "Evidence", "PaginationMetadata"}


def _document(app: Flask) -> dict[str, Any]:
    response = app.test_client().get("/openapi.json")
    assert response.status_code == 200
    return json.loads(response.get_data(as_text=True))


def _operations(app: Flask) -> list[tuple[str, str, Any]]:
    """(method, OpenAPI path, rule) of every API operation in the url_map."""
    out = []
    for rule in app.url_map.iter_rules():
        if NOT_OPERATIONS.match(rule.rule):
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method.lower(), openapi_path(rule.rule), rule))
    return out


def test_every_route_is_an_operation_with_a_readable_name(app):
    spec = _document(app)
    names = []
    for method, path, _ in _operations(app):
        operation = spec["paths"].get(path, {}).get(method)
        assert operation is not None, f"{method.upper()} {path} is not in the document"
        name = operation.get("operationId")
        # a verb and its object in camelCase (a generated client's undo_last_entry), never
        # a name made up from the method and the path
        assert name and re.fullmatch(r"[a-z]+(?:[A-Z][a-z]*)*", name), (method, path, name)
        names.append(name)
    assert len(names) == len(set(names)), "operationIds are unique"
    assert {"undoLastEntry", "correctEntries", "revokeToken", "createToken", "listTokens",
            "listMembers", "addMember", "whoAmI", "getStatementCsv"} <= set(names)


def test_every_query_parameter_a_route_reads_is_in_its_document(app):
    spec = _document(app)
    checked = 0
    for blueprint in app.blueprints.values():
        if not isinstance(blueprint, ApiBlueprint):
            continue
        for endpoint, methods in blueprint._docs.items():
            rule = next(app.url_map.iter_rules(f"{blueprint.name}.{endpoint}"))
            for method, doc in methods.items():
                if method == "parameters":
                    continue
                operation = spec["paths"][openapi_path(rule.rule)][method]
                listed = {(p["in"], p["name"]) for p in operation.get("parameters", [])}
                for argument in doc.get("arguments", {}).get("parameters", []):
                    if argument.get("in") != "query":
                        continue
                    schema = argument["schema"]
                    schema = schema() if isinstance(schema, type) else schema
                    read = {f.data_key or name for name, f in schema.fields.items()}
                    assert {("query", n) for n in read} <= listed, (method, rule.rule)
                    checked += 1
    assert checked >= 15
    session = spec["paths"]["/sessions/{session_id}"]["get"]
    # as_of and If-None-Match both: the header once replaced the query's parameters
    assert {p["name"] for p in session["parameters"]} == {"as_of", "If-None-Match"}


def test_every_member_a_response_always_sends_is_required(app):
    schemas = _document(app)["components"]["schemas"]
    none_required = sorted(
        name for name, schema in schemas.items()
        if schema.get("properties") and not schema.get("required")
        and not name.endswith(("In", "Query")) and name not in NOTHING_ALWAYS)
    assert none_required == []
    assert set(schemas["Problem"]["required"]) == {"type", "title", "status", "detail"}
    assert {"kind", "seq"} <= set(schemas["OpenDebt"]["required"])
    assert {"forced", "club_law"} <= set(schemas["DealStartedAction"]["properties"])


def test_nullable_references_are_all_of_one_reference_and_nullable(app):
    spec = _document(app)
    text = json.dumps(spec)
    # apispec's own form, which generators turn into classes of no use
    assert '{"type": "object", "nullable": true}' not in text
    deal = spec["components"]["schemas"]["SessionView"]["properties"]["deal"]
    assert (deal["allOf"], deal["nullable"]) == (
        [{"$ref": "#/components/schemas/DealSummary"}], True)


@pytest.mark.parametrize("family, variants", [
    ("EventIn", 13), ("RecordedEvent", 19), ("AuditEvent", 19), ("EntryEvent", 19),
    ("ExpectedAction", 13), ("BookEntry", 11)])
def test_each_family_of_events_is_discriminated_by_its_type(app, family, variants):
    schemas = _document(app)["components"]["schemas"]
    union = schemas[family]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type"
    assert len(mapping) == len(union["oneOf"]) == variants
    for kind, target in mapping.items():
        variant = schemas[target.rsplit("/", 1)[1]]
        assert variant["properties"]["type"]["enum"] == [kind]
        assert "type" in variant["required"]
        payload = variant["properties"].get("payload")
        if payload is not None:  # typed, not a free object
            assert "$ref" in json.dumps(payload), (family, kind)


def test_the_text_forms_are_operations_that_answer_text_only(app):
    paths = _document(app)["paths"]
    for path, media in [("/sessions/{session_id}/statement.csv", "text/csv"),
                        ("/sessions/{session_id}/statement.html", "text/html"),
                        ("/sessions/{session_id}/explain.csv", "text/csv"),
                        ("/audit/events.csv", "text/csv"), ("/debts.csv", "text/csv"),
                        ("/members/{member_id}/account.csv", "text/csv"),
                        ("/standings.html", "text/html"), ("/payables.csv", "text/csv"),
                        ("/settle-up.csv", "text/csv"), ("/book-entries.csv", "text/csv")]:
        content = paths[path]["get"]["responses"]["200"]["content"]
        assert content == {media: {"schema": {"type": "string"}}}, path
