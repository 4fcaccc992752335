"""An append's ready response (api/responses.py) is what the schema's dump would send.

The append route writes the service's answer with orjson instead of dumping it through
AppendResultSchema and Flask's encoder. For generated sessions (tests/support/sessions.py),
every answer, in full and with `Prefer: return=minimal`, first and replayed for an
Idempotency-Key, must read back as the JSON of `AppendResultSchema().dump(answer)`; and the
way back, when orjson cannot write an answer, is the schema's.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import api.events
import api.sessions
from api.responses import json_response
from api.schemas import AppendResultSchema, SessionViewSchema
from tests.support.sessions import RandomChooser, SessionShape, play_session, to_wire

from .conftest import PLAYERS


def slow_body(app: Flask, data: dict[str, Any], schema: Any = AppendResultSchema) -> Any:
    """The JSON the schema's dump and Flask's encoder give for `data`, read back."""
    with app.app_context():
        return json.loads(app.json.dumps(schema().dump(data)))


def recorder(monkeypatch, module: Any) -> list[tuple[dict[str, Any], Any]]:
    """Every (answer, response) the routes of `module` write with json_response."""
    seen: list[tuple[dict[str, Any], Any]] = []

    def recording(data: Any, status: int, headers: dict[str, str]) -> Any:
        response = json_response(data, status, headers)
        seen.append((data, response))
        return response

    monkeypatch.setattr(module, "json_response", recording)
    return seen


@pytest.fixture
def answers(monkeypatch) -> list[tuple[dict[str, Any], Any]]:
    """Every (answer, response) the append route writes with json_response."""
    return recorder(monkeypatch, api.events)


@pytest.fixture
def views(monkeypatch) -> list[tuple[dict[str, Any], Any]]:
    """Every (view, response) GET /sessions/<id> writes with json_response."""
    return recorder(monkeypatch, api.sessions)


@pytest.mark.parametrize("seed", [3, 11])
def test_generated_sessions_answer_what_the_schema_dumps(app, client, answers, views, seed):
    played = play_session(RandomChooser(seed), shape=SessionShape(min_deals=2, max_deals=4))
    opened = client.post("/sessions", json=to_wire(played.opening))
    assert opened.status_code == 201, opened.get_json()
    sid = opened.get_json()["session_id"]
    version = opened.get_json()["version"]
    sent = 0
    for i, step in enumerate(s for s in played.steps[1:] if s.accepted):
        headers = {"If-Match": f'"{version}"'}
        minimal = i % 3 == 1
        keyed = i % 4 == 2
        if minimal:
            headers["Prefer"] = "return=minimal"
        if keyed:
            headers["Idempotency-Key"] = uuid.uuid4().hex
        before = len(answers)
        response = client.post(f"/sessions/{sid}/events", json=step.wire(), headers=headers)
        assert response.status_code == 201, response.get_json()
        assert response.mimetype == "application/json"
        assert response.headers["ETag"] == f'"{response.get_json()["version"]}"'
        assert (response.headers.get("Preference-Applied") == "return=minimal") == minimal
        assert len(answers) == before + 1
        data, fast = answers[-1]
        assert fast is not None
        assert json.loads(response.get_data()) == slow_body(app, data)
        assert ("session" in response.get_json()) == (not minimal)
        version = response.get_json()["version"]
        sent += 1
        read = client.get(f"/sessions/{sid}")
        assert read.status_code == 200 and read.headers["ETag"] == f'"{version}"'
        view, fast = views[-1]
        assert fast is not None
        assert json.loads(read.get_data()) == slow_body(app, view, SessionViewSchema)
        if not minimal:
            assert read.get_json() == response.get_json()["session"]
        if keyed:  # the replay, full and minimal, is the schema's too
            for prefer in ({}, {"Prefer": "return=minimal"}):
                again = client.post(f"/sessions/{sid}/events", json=step.wire(),
                                    headers={**headers, **prefer})
                assert again.status_code == 201, again.get_json()
                assert again.headers["Idempotent-Replayed"] == "true"
                data, fast = answers[-1]
                assert fast is not None
                assert json.loads(again.get_data()) == slow_body(app, data)
                assert again.get_json()["version"] == version
    assert sent > 10


def test_the_table_over_http_answers_what_the_schema_dumps(app, client, answers):
    opened = client.post("/sessions", json={"players": PLAYERS, "preset": "baxter-wray",
                                            "first_dealer": "A"})
    sid = opened.get_json()["session_id"]
    batch = {"events": [
        {"type": "DealStarted", "trump_card": "7H",
         "face_up": {"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"}},
        {"type": "DealStarted", "trump_card": "2S"}], "expected_version": 1}
    response = client.post(f"/sessions/{sid}/events", json=batch)
    assert response.status_code == 201, response.get_json()
    data, fast = answers[-1]
    assert fast is not None and json.loads(response.get_data()) == slow_body(app, data)
    assert len(response.get_json()["appended"]) >= 2


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**64 - 1)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(extra=st.dictionaries(st.text(), JSON, max_size=4),
       appended=st.lists(st.fixed_dictionaries(
           {"position": st.integers(1, 2**62), "version": st.integers(1, 2**31),
            "type": st.text(min_size=1), "payload": st.dictionaries(st.text(), JSON)}),
           max_size=3))
def test_any_plain_json_answer_reads_back_as_the_dump(app, extra, appended):
    data = {**extra, "session_id": "s1", "version": 7, "appended": appended}
    with app.test_request_context():
        response = json_response(data, 201, {"ETag": '"7"'})
    expected = slow_body(app, data)
    if response is None:  # a lone surrogate or the like: the schema's way answers
        assert any(0xD800 <= ord(c) <= 0xDFFF for c in json.dumps(data, ensure_ascii=False))
        return
    assert response.status_code == 201 and response.headers["ETag"] == '"7"'
    assert json.loads(response.get_data()) == expected


def test_the_schemas_way_answers_the_same(app, client, monkeypatch):
    """With the ready response turned off, the route answers through the schema: the same
    JSON, status and headers."""
    answers: dict[bool, Any] = {}
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(api.events, "json_response", lambda *args: None)
        opened = client.post("/sessions", json={"players": PLAYERS, "preset": "baxter-wray",
                                                "first_dealer": "A"})
        sid = opened.get_json()["session_id"]
        response = client.post(f"/sessions/{sid}/events", headers={"If-Match": '"1"'}, json={
            "type": "DealStarted", "trump_card": "7H",
            "face_up": {"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"}})
        assert response.status_code == 201
        body = response.get_json()
        body = json.loads(json.dumps(body).replace(sid, "SID"))
        for event in body["appended"]:  # where and when it was stored
            for member in ("position", "recorded_at", "hash"):
                event.pop(member)
        answers[fast] = (body, response.mimetype,
                         {k: v for k, v in response.headers.items()
                          if k not in ("X-Request-Id", "Content-Length")})
    assert answers[True] == answers[False]


def test_what_orjson_cannot_write_goes_the_schemas_way(app):
    for data in ({"session_id": "s", "version": 2**70, "appended": []},
                 {"session_id": "s\ud800", "version": 1, "appended": []},
                 {"session_id": "s", "version": 1, "appended": [], 3: "a non-string key"}):
        with app.test_request_context():
            assert json_response(data, 201, {}) is None
