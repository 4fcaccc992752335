"""Idempotency keys and expected versions: retries are safe and lost updates are refused."""

from __future__ import annotations

from .conftest import EXAMPLE_1, PLAYERS, Table, assert_problem

DECLARE_C = {"type": "DeclarationMade", "player": "C", "declaration": "play"}


def test_a_repeated_idempotency_key_returns_the_first_response_and_appends_nothing(
        declaring: Table):
    first = declaring.post(DECLARE_C, headers={"Idempotency-Key": "c-plays"})
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    version = declaring.version()

    again = declaring.post(DECLARE_C, headers={"Idempotency-Key": "c-plays"})
    assert again.status_code == first.status_code
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert declaring.version() == version


def test_a_reused_idempotency_key_with_another_body_is_refused(declaring: Table):
    declaring.append(DECLARE_C, headers={"Idempotency-Key": "k1"})
    declaring.refused({"type": "DeclarationMade", "player": "D", "declaration": "play"}, 422,
                      rule="idempotency-key-reuse", mentions=("k1",),
                      headers={"Idempotency-Key": "k1"})


def test_a_retried_batch_is_answered_even_though_the_session_moved_on_because_of_it(
        declaring: Table):
    version = declaring.version()
    body = {"events": [DECLARE_C], "expected_version": version}
    first = declaring.post(body, headers={"Idempotency-Key": "batch-1"})
    assert first.status_code == 201
    again = declaring.post(body, headers={"Idempotency-Key": "batch-1"})
    assert again.status_code == 201
    assert again.get_json() == first.get_json()


def test_opening_a_session_twice_with_one_idempotency_key_opens_one_session(client):
    body = {"players": PLAYERS, "name": "Thursday"}
    first = client.post("/sessions", json=body, headers={"Idempotency-Key": "open-1"})
    again = client.post("/sessions", json=body, headers={"Idempotency-Key": "open-1"})
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true"
    other = client.post("/sessions", json={**body, "name": "Friday"},
                        headers={"Idempotency-Key": "open-1"})
    assert_problem(other, 422, rule="idempotency-key-reuse")


def test_an_expected_version_that_is_behind_is_a_conflict_with_the_current_version(
        declaring: Table):
    version = declaring.version()
    problem = declaring.refused({"events": [DECLARE_C], "expected_version": version - 1}, 409,
                                rule="expected-version", mentions=(str(version),))
    assert problem["current_version"] == version


def test_if_match_carries_the_expected_version_of_a_single_event(declaring: Table):
    version = declaring.version()
    problem = declaring.refused(DECLARE_C, 409, rule="expected-version",
                                headers={"If-Match": f'"{version - 2}"'})
    assert problem["current_version"] == version
    result = declaring.append(DECLARE_C, headers={"If-Match": f'"{version}"'})
    assert result["version"] > version


def test_the_etag_of_a_session_is_the_if_match_of_the_next_append(declaring: Table):
    etag = declaring.client.get(declaring.url).headers["ETag"]
    response = declaring.post(DECLARE_C, headers={"If-Match": etag})
    assert response.status_code == 201
    stale = declaring.post({"type": "DeclarationMade", "player": "D", "declaration": "play"},
                           headers={"If-Match": etag})
    assert_problem(stale, 409, rule="expected-version")
    assert response.headers["ETag"] == declaring.client.get(declaring.url).headers["ETag"]


def test_two_clients_appending_from_the_same_version_one_wins_one_is_told(declaring: Table):
    version = declaring.version()
    first = declaring.post({"events": [DECLARE_C], "expected_version": version})
    second = declaring.post({"events": [DECLARE_C], "expected_version": version})
    assert first.status_code == 201
    problem = assert_problem(second, 409, rule="expected-version")
    assert problem["current_version"] == first.get_json()["version"]


def test_if_match_and_expected_version_that_disagree_are_a_bad_request(declaring: Table):
    version = declaring.version()
    declaring.refused({"events": [DECLARE_C], "expected_version": version}, 400,
                      rule="expected-version", headers={"If-Match": f'"{version + 1}"'})


def test_an_if_match_that_is_not_a_version_is_a_bad_request(declaring: Table):
    declaring.refused(DECLARE_C, 400, rule="if-match", headers={"If-Match": "yesterday"})


def test_if_match_star_names_no_version_so_alone_it_is_a_blind_write(declaring: Table):
    problem = declaring.refused(DECLARE_C, 428, rule="precondition-required",
                                headers={"If-Match": "*"})
    assert problem["field"] == "If-Match"
    declaring.append(DECLARE_C, headers={"If-Match": "*", "Idempotency-Key": "star-1"})


def test_an_empty_if_match_is_a_bad_request(declaring: Table):
    declaring.refused(DECLARE_C, 400, rule="if-match", headers={"If-Match": ""})


# ---------------------------------------------------------------- blind writes (428)


def test_an_append_naming_no_version_and_no_idempotency_key_is_precondition_required(
        declaring: Table):
    problem = declaring.refused(DECLARE_C, 428, rule="precondition-required", blind=True,
                                mentions=("If-Match", "Idempotency-Key", "expected_version"))
    assert problem["type"].endswith(":precondition-required")
    assert problem["field"] == "If-Match"


def test_a_blind_batch_is_precondition_required_and_appends_none_of_it(declaring: Table):
    declaring.refused({"events": [DECLARE_C, {"type": "DeclarationMade", "player": "D",
                                              "declaration": "play"}]}, 428,
                      rule="precondition-required", blind=True)


def test_each_way_of_naming_what_an_append_builds_on_is_accepted(declaring: Table):
    version = declaring.version()
    declaring.append(DECLARE_C, headers={"If-Match": f'"{version}"'}, blind=True)
    version = declaring.version()
    declaring.append({"events": [{"type": "DeclarationMade", "player": "D",
                                  "declaration": "play"}], "expected_version": version},
                     blind=True)
    declaring.append({"type": "DeclarationMade", "player": "E", "declaration": "play"},
                     headers={"Idempotency-Key": "e-plays"}, blind=True)


def test_a_blind_write_to_an_unknown_session_is_not_found(client):
    response = client.post("/sessions/no-such-session/events",
                           json={"type": "DealStarted", "trump_card": "7H"})
    assert_problem(response, 404, rule="session-exists")


def test_opening_a_session_needs_no_precondition(client):
    response = client.post("/sessions", json={"players": PLAYERS})
    assert response.status_code == 201


# ---------------------------------------------------------------- Prefer: return=minimal


def test_prefer_return_minimal_answers_with_the_version_and_the_positions_only(
        declaring: Table):
    version = declaring.version()
    response = declaring.post(DECLARE_C, headers={"Prefer": "return=minimal",
                                                  "If-Match": f'"{version}"'})
    assert response.status_code == 201
    assert response.headers["Preference-Applied"] == "return=minimal"
    assert "Prefer" in response.headers["Vary"]
    body = response.get_json()
    assert set(body) == {"session_id", "version", "appended"}
    assert body["session_id"] == declaring.sid and body["version"] == version + 1
    assert body["appended"] == [{"position": body["appended"][0]["position"],
                                 "version": version + 1, "type": "DeclarationMade"}]
    assert response.headers["ETag"] == f'"{version + 1}"'
    log = declaring.client.get(f"{declaring.url}/events?after=0&limit=1000").get_json()
    assert log["events"][-1]["position"] == body["appended"][0]["position"]


def test_without_prefer_the_answer_is_full_and_no_preference_is_applied(declaring: Table):
    response = declaring.post(DECLARE_C, headers={"Prefer": "return=representation"})
    assert response.status_code == 201
    assert "Preference-Applied" not in response.headers
    assert {"appended", "session"} <= set(response.get_json())
    assert "payload" in response.get_json()["appended"][0]


def test_an_idempotent_replay_with_prefer_minimal_is_the_minimal_form_of_the_first_answer(
        declaring: Table):
    headers = {"Idempotency-Key": "lean-1"}
    first = declaring.post(DECLARE_C, headers=headers)
    version = declaring.version()
    again = declaring.post(DECLARE_C, headers={**headers, "Prefer": "return=minimal"})
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Preference-Applied"] == "return=minimal"
    full = first.get_json()
    assert again.get_json() == {
        "session_id": full["session_id"], "version": full["version"],
        "appended": [{k: e[k] for k in ("position", "version", "type")}
                     for e in full["appended"]]}
    # ...and a full replay after a minimal first answer is still the full answer.
    third = declaring.post(DECLARE_C, headers=headers)
    assert third.get_json() == full
    assert declaring.version() == version


def test_prefer_minimal_on_a_refused_append_is_still_a_problem(declaring: Table):
    declaring.refused({"type": "DeclarationMade", "player": "D", "declaration": "play"}, 409,
                      rule="declare-in-turn", headers={"Prefer": "return=minimal"})


def test_a_blank_idempotency_key_is_a_bad_request(declaring: Table):
    declaring.refused(DECLARE_C, 400, rule="idempotency-key",
                      headers={"Idempotency-Key": "   "})


def test_the_member_and_device_are_recorded_with_each_event(table: Table):
    club = table.client.club
    result = table.append(EXAMPLE_1, headers={"X-Actor": "Mrs Bell"})  # ignored
    assert {(e["actor"], e["member_id"], e["token_id"]) for e in result["appended"]} == {
        ("treasurer", club.members["treasurer"], club.token_ids["treasurer"])}
