"""Every error everywhere is problem+json; the OpenAPI document is served and complete."""

from __future__ import annotations

import json
import logging

import pytest

from api import create_app
from api.http.contract import Contract
from api.schemas import EVENT_SCHEMAS, unmatched_client_types
from ledger.domain import CLIENT_TYPES

from .conftest import assert_problem

# problems and the OpenAPI document, whatever the database
pytestmark = pytest.mark.backends("sqlite")


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
        "/healthz", "/readyz", "/club", "/members", "/tokens", "/tokens/{token_id}",
        "/sessions/{session_id}/corrections", "/sessions/{session_id}/undo",
        "/sessions/{session_id}/verify", "/sessions/{session_id}/export",
        "/sessions/{session_id}/offences",
        "/audit/events", "/audit/penalties", "/audit/corrections", "/audit/tokens",
        "/audit/sessions", "/audit/verify", "/audit/export-check",
        "/members/{member_id}", "/members/{member_id}/retirement", "/club/checkpoint-key",
        "/members/{member_id}/account", "/accounts", "/accounts/sessions", "/debts",
        "/standings", "/payments",
        "/write-offs", "/sessions/{session_id}/cash", "/sessions/{session_id}/explain",
        "/sessions/{session_id}/pairing-codes", "/pairing", "/club/sessions", "/signin-links",
        "/signin-links/{link_id}", "/signin", "/signout",
        "/club/sessions-before-clubs", "/sessions/{session_id}/attach",
        "/sessions/{session_id}/entries", "/book-entries", "/book-entries/{seq}/reversal",
        "/payables", "/settle-up", "/club/currencies", "/sessions/{session_id}/float",
        "/sessions/{session_id}/cash-differences", "/evenings/{evening}",
        "/evenings/{evening}/sessions", "/evenings/{evening}/float", "/evenings/{evening}/cash",
        "/evenings/{evening}/cash-differences",
        # a member's own view (api/routes/members.py)
        "/members/{member_id}/statements", "/members/{member_id}/statements/{session_id}",
        # the text forms (api/routes/exports.py)
        "/sessions/{session_id}/statement.csv", "/sessions/{session_id}/statement.html",
        "/sessions/{session_id}/explain.csv", "/audit/events.csv", "/audit/penalties.csv",
        "/audit/corrections.csv", "/members/{member_id}/account.csv", "/debts.csv",
        "/members/{member_id}/account.html", "/standings.html", "/payables.csv",
        "/settle-up.csv", "/book-entries.csv",
        # closing a month, opening balances, Beancount (api/routes/periods.py)
        "/periods", "/periods/{period}/closing", "/periods/{period}/reopening",
        "/opening-balances", "/books/export.beancount"}
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
    schemas = spec["components"]["schemas"]
    # the body is one event or a batch: the component AppendIn, generated from its schema
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AppendIn"}
    one_of = schemas["AppendIn"]["oneOf"]
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in one_of] == ["EventIn", "EventBatchIn"]
    # one event, a batch's events and a correction's replacements: one family, told apart
    # by `type`
    family = schemas["EventIn"]
    assert family["discriminator"]["propertyName"] == "type"
    assert family["discriminator"]["mapping"] == {
        t: f"#/components/schemas/{t}In" for t in CLIENT_TYPES}
    assert {ref["$ref"] for ref in family["oneOf"]} == set(family["discriminator"]["mapping"]
                                                          .values())
    assert schemas["EventBatchIn"]["properties"]["events"]["items"] == {
        "$ref": "#/components/schemas/EventIn"}
    assert schemas["EventBatchIn"]["properties"]["events"]["minItems"] == 1
    assert schemas["CorrectionIn"]["properties"]["replacements"]["items"] == {
        "$ref": "#/components/schemas/EventIn"}
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


def test_readiness_is_a_503_problem_when_the_database_is_unreachable_liveness_is_not(
        tmp_path, caplog):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/missing/dir/x.db",
                      "TESTING": True})
    with caplog.at_level(logging.ERROR, logger="lanterloo.api"):
        response = app.test_client().get("/readyz")
        alive = app.test_client().get("/healthz")
    assert_problem(response, 503, rule="database-unavailable")
    assert response.headers["Retry-After"]
    assert alive.status_code == 200
    app.extensions["lanterloo"].engine.dispose()


# ---------------------------------------------------------------- unreadable text


SURROGATE_KEY = ('{"type": "DeclarationMade", "player": "C", "declaration": "play", '
                 '"\\ud800": 1}')


def test_a_lone_surrogate_in_a_member_name_is_a_bad_request_not_a_500(declaring):
    assert "\\ud800" in SURROGATE_KEY  # sent as JSON text with the escape, as a client would
    problem = declaring.refused(SURROGATE_KEY, 400, rule="json", raw=True,
                                content_type="application/json", mentions=("surrogate",))
    assert problem["type"].endswith(":malformed-request")


def test_a_lone_surrogate_in_a_value_or_a_session_body_is_a_bad_request(client, declaring):
    declaring.refused('{"type": "PenaltyImposed", "player": "C", "offence": "x\\udfff"}', 400,
                      rule="json", raw=True, content_type="application/json")
    for body in ('{"players": ["A", "B"], "\\ud800": 1}', '{"players": ["A", "\\ud83d"]}',
                 '{"players": ["A", "B"], "rules": {"\\udc00": 1}}'):
        response = client.post("/sessions", data=body, content_type="application/json")
        assert_problem(response, 400, rule="json")


def test_a_paired_surrogate_escape_is_an_ordinary_character(declaring):
    # "\ud83c\udca1" is one character (a playing card), not a lone surrogate: a schema refusal.
    problem = declaring.refused('{"type": "CardPlayed", "player": "C", '
                                '"card": "\\ud83c\\udca1"}', 422, rule="schema", raw=True,
                                content_type="application/json")
    assert problem["field"] == "card"


def test_a_problem_that_echoes_a_lone_surrogate_still_renders_as_utf8(app):
    from api.http.errors import problem

    with app.test_request_context("/x"):
        response = problem(422, "validation-failed", "bad \ud800 name", field="\udc00")
    text = response.get_data().decode("utf-8")
    body = json.loads(text)
    assert body["detail"] == "bad \ufffd name" and body["field"] == "\ufffd"
    assert response.mimetype == "application/problem+json"


# ---------------------------------------------------------------- the document as a contract


def _spec(client):
    return client.get("/openapi.json").get_json()


def test_the_document_says_players_are_distinct_and_refuses_them_at_the_schema(client):
    players = _spec(client)["components"]["schemas"]["ClubSessionOpen"]["properties"]["players"]
    assert players["uniqueItems"] is True
    problem = assert_problem(client.post("/sessions", json={"players": ["A", "B", "A"]}), 422,
                             rule="schema", mentions=("distinct",))
    assert problem["field"] == "players"


def test_the_card_pattern_of_the_document_and_the_parser_agree(client):
    import itertools
    import re

    from ledger.domain import InvalidInput
    from ledger.domain.cards import RANK_ALIASES, RANKS_52, SUIT_SYMBOLS, SUITS, parse_card

    schemas = _spec(client)["components"]["schemas"]
    pattern = schemas["CardPlayedIn"]["properties"]["card"]["pattern"]
    assert schemas["DealStartedIn"]["properties"]["trump_card"]["pattern"] == pattern
    assert schemas["DealStartedIn"]["properties"]["face_up"]["allOf"] == [
        {"$ref": "#/components/schemas/FaceUp"}]
    assert schemas["FaceUp"]["additionalProperties"]["pattern"] == pattern
    ranks = [*RANKS_52, *RANK_ALIASES]
    suits = [*SUITS, *SUIT_SYMBOLS]
    # Every rank and suit the parser knows, in either case, matches; and whatever matches
    # (over those characters and some that are not cards), the parser accepts.
    for rank, suit in itertools.product(ranks, suits):
        for text in {rank + suit, (rank + suit).lower()}:
            assert re.fullmatch(pattern, text), text
    alphabet = sorted({*"".join(ranks + suits), *"".join(ranks + suits).lower(), "0", "X",
                       "B", "1", "ſ", " "})
    for size in (2, 3):
        for chars in itertools.product(alphabet, repeat=size):
            text = "".join(chars)
            if re.fullmatch(pattern, text):
                assert parse_card(text) in {r + s for r in RANKS_52 for s in SUITS}, text
            elif text == text.strip():
                # The parser is allowed to be kinder (it strips spaces), never stricter.
                try:
                    parse_card(text)
                except InvalidInput:
                    pass


def test_the_if_match_pattern_of_the_document_is_what_the_api_accepts(client, declaring):
    import re

    params = _spec(client)["paths"]["/sessions/{session_id}/events"]["post"]["parameters"]
    pattern = next(p for p in params if p["name"] == "If-Match")["schema"]["pattern"]
    for good in ('"12"', "12", 'W/"12"', "*", ' "3" '):
        assert re.match(pattern, good), good
    for bad in ("", "   ", "yesterday", '"1.0"', '"-1"', '"12", "13"'):
        assert not re.match(pattern, bad), bad
        declaring.refused({"type": "DeclarationMade", "player": "C", "declaration": "play"},
                          400, rule="if-match", headers={"If-Match": bad})


def test_the_breach_rules_are_an_enum_in_the_document(client):
    from ledger.domain.legality import OFFENCE_OF_RULE

    schemas = _spec(client)["components"]["schemas"]
    # the word of the game's vocabulary, one component the document refers to
    assert schemas["BreachDetected"]["properties"]["rule"]["allOf"] == [
        {"$ref": "#/components/schemas/Breach"}]
    assert schemas["Breach"]["enum"] == list(OFFENCE_OF_RULE) == [
        "lead-ace-of-trumps", "lead-highest-trump", "lead-a-trump", "lead-highest-card",
        "trump-after-trick", "revoke", "not-heading", "not-trumping-to-head", "pam-be-civil"]
    deal = _spec(client)["components"]["schemas"]["DealView"]
    assert deal["properties"]["breaches"]["items"]["$ref"].endswith("/BreachDetected")


def test_the_document_lists_428_and_prefer_on_appends(client):
    post = _spec(client)["paths"]["/sessions/{session_id}/events"]["post"]
    assert "428" in post["responses"]
    assert {p["name"] for p in post["parameters"]} >= {"Prefer", "If-Match",
                                                       "Idempotency-Key"}
    assert "Preference-Applied" in post["responses"]["201"]["headers"]
    assert "428" not in _spec(client)["paths"]["/sessions"]["post"]["responses"]


def _undeclared(value, schema, spec):
    """What of `value` does not fit `schema` (resolved in `spec`): api/http/contract.py's check,
    which the test apps also run on every answer."""
    return list(Contract(spec).misfits(value, schema, "$"))


def test_every_member_the_responses_return_is_declared(engine, client):
    from api.cli.demo import DEMO_STAFF, demo_club, load_demo
    from ledger.clubs.service import Clubs
    from ledger.sessions.service import Ledger

    spec = _spec(client)
    sid = load_demo(Ledger(engine))
    # read the demo session as its club's treasurer
    club_id, _ = demo_club(Clubs(engine))
    token = Clubs(engine).create_token(club_id, DEMO_STAFF["treasurer"], "treasurer", "test")
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token['token']}"
    paths = spec["paths"]
    view = spec["components"]["schemas"]["SessionView"]
    # every member is always there, but `as_of`, only on a read as of an earlier point, and
    # `warnings`, only when the rules give one (docs/rules.md §11.42)
    assert {"ended_method", "deals_dealt"} <= set(view["properties"]) - {"as_of", "warnings"} \
        <= set(view["required"])

    def declared(path, method, status, response):
        content = paths[path][method]["responses"][status]["content"]["application/json"]
        return _undeclared(response.get_json(), content["schema"], spec)

    assert declared("/sessions/{session_id}", "get", "200",
                    client.get(f"/sessions/{sid}")) == []
    for n in range(1, 7):
        assert declared("/sessions/{session_id}/deals/{deal_no}", "get", "200",
                        client.get(f"/sessions/{sid}/deals/{n}")) == []
    assert declared("/sessions/{session_id}/statement", "get", "200",
                    client.get(f"/sessions/{sid}/statement")) == []
    # read as of an earlier version, and the explain trail
    assert declared("/sessions/{session_id}", "get", "200",
                    client.get(f"/sessions/{sid}?as_of=5")) == []
    assert declared("/sessions/{session_id}/deals/{deal_no}", "get", "200",
                    client.get(f"/sessions/{sid}/deals/1?as_of=5")) == []
    assert declared("/sessions/{session_id}/statement", "get", "200",
                    client.get(f"/sessions/{sid}/statement?as_of=5")) == []
    assert declared("/sessions/{session_id}/explain", "get", "200",
                    client.get(f"/sessions/{sid}/explain?as_of=9")) == []
    assert declared("/sessions/{session_id}/events", "get", "200",
                    client.get(f"/sessions/{sid}/events")) == []
    opened = client.post("/sessions", json={"players": ["A", "B", "C"]})
    assert declared("/sessions", "post", "201", opened) == []
    new = opened.get_json()["session_id"]
    appended = client.post(f"/sessions/{new}/events", json={
        "type": "DealStarted", "trump_card": "7H", "face_up": {"A": "2C", "B": "3C", "C": "4C"}},
        headers={"If-Match": '"1"'})
    assert declared("/sessions/{session_id}/events", "post", "201", appended) == []
    lean = client.post(f"/sessions/{new}/events", json={"type": "DealStarted",
                                                        "trump_card": "8S"},
                       headers={"If-Match": appended.headers["ETag"],
                                "Prefer": "return=minimal"})
    assert declared("/sessions/{session_id}/events", "post", "201", lean) == []
