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


def test_if_match_star_appends_whatever_the_version(declaring: Table):
    declaring.append(DECLARE_C, headers={"If-Match": "*"})


def test_a_blank_idempotency_key_is_a_bad_request(declaring: Table):
    declaring.refused(DECLARE_C, 400, rule="idempotency-key",
                      headers={"Idempotency-Key": "   "})


def test_the_member_and_device_are_recorded_with_each_event(table: Table):
    club = table.client.club
    result = table.append(EXAMPLE_1, headers={"X-Actor": "Mrs Bell"})  # ignored
    assert {(e["actor"], e["member_id"], e["token_id"]) for e in result["appended"]} == {
        ("treasurer", club.members["treasurer"], club.token_ids["treasurer"])}
