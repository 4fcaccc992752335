"""The strict check of answers against the OpenAPI document (api/http/contract.py) finds what it is
there to find: a member not declared, a required one missing, a value of another type, outside
its enum or null where it may not be, a status or media type not documented, an event whose
`type` names no variant of its family."""

from __future__ import annotations

from typing import Any

from api.http.contract import Contract, openapi_path

SPEC: dict[str, Any] = {
    "paths": {"/sessions/{session_id}": {"get": {"responses": {
        "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/V"}},
                            "text/csv": {"schema": {"type": "string"}}}},
        "404": {"$ref": "#/components/responses/NOT_FOUND"}}}}},
    "components": {
        "responses": {"NOT_FOUND": {"content": {"application/problem+json": {
            "schema": {"$ref": "#/components/schemas/P"}}}}},
        "schemas": {
            "P": {"type": "object", "properties": {"status": {"type": "integer"}},
                  "required": ["status"]},
            "D": {"type": "object", "properties": {"n": {"type": "integer"}},
                  "required": ["n"]},
            "A": {"type": "object", "properties": {"type": {"type": "string",
                                                            "enum": ["A"]},
                                                   "a": {"type": "integer"}}},
            "B": {"type": "object", "properties": {"type": {"type": "string",
                                                            "enum": ["B"]}}},
            "E": {"oneOf": [{"$ref": "#/components/schemas/A"},
                            {"$ref": "#/components/schemas/B"}],
                  "discriminator": {"propertyName": "type", "mapping": {
                      "A": "#/components/schemas/A", "B": "#/components/schemas/B"}}},
            "V": {"type": "object", "required": ["status", "deal"], "properties": {
                "status": {"type": "string", "enum": ["open", "ended"]},
                "deal": {"allOf": [{"$ref": "#/components/schemas/D"}], "nullable": True},
                "events": {"type": "array", "items": {"$ref": "#/components/schemas/E"}},
                "balances": {"type": "object",
                             "additionalProperties": {"type": "integer"}}}},
        }},
}
OPERATION = SPEC["paths"]["/sessions/{session_id}"]["get"]


def check(body: Any, status: int = 200, mimetype: str = "application/json") -> list[str]:
    return Contract(SPEC).check(OPERATION, status, mimetype, body, has_body=True)


def test_an_answer_as_documented_fits():
    assert check({"status": "open", "deal": None, "events": [{"type": "A", "a": 1},
                                                              {"type": "B"}],
                  "balances": {"Ann": -3, "Ben": 3}}) == []
    assert check({"status": "ended", "deal": {"n": 2}}) == []
    assert check({"status": 404}, 404, "application/problem+json") == []
    assert check(None, 200, "text/csv") == []


def test_a_member_not_declared_is_named_wherever_it_is():
    assert check({"status": "open", "deal": {"n": 1, "dealer": "Ann"}, "extra": 1}) == [
        "$.deal.dealer: not declared in the document", "$.extra: not declared in the document"]
    assert check({"status": "open", "deal": None, "events": [{"type": "B", "b": 2}]}) == [
        "$.events[0].b: not declared in the document"]


def test_a_missing_member_a_wrong_type_an_enum_and_a_null_are_misfits():
    assert check({"deal": None}) == ["$.status: required by the document, missing"]
    assert check({"status": "paused", "deal": {"n": "1"}, "balances": {"Ann": True}}) == [
        "$.status: 'paused' is not one of ['open', 'ended']",
        "$.deal.n: str where the document says integer",
        "$.balances.Ann: bool where the document says integer"]
    assert check({"status": None, "deal": None}) == [
        "$.status: null where the document does not allow it"]


def test_an_event_of_no_variant_and_an_undocumented_status_or_media_type_are_misfits():
    assert check({"status": "open", "deal": None, "events": [{"type": "C"}]}) == [
        "$.events[0]: 'C' names no variant of the document"]
    assert check({"status": 500}, 500, "application/problem+json") == [
        "status 500 is not documented"]
    assert check("<html>", 200, "text/html") == [
        "text/html is not a documented media type of 200 (application/json, text/csv)"]


def test_a_flask_rule_is_written_as_the_documents_path():
    assert openapi_path("/sessions/<session_id>/deals/<int(signed=True):deal_no>") == \
        "/sessions/{session_id}/deals/{deal_no}"
