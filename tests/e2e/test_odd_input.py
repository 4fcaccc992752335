"""Input is what it looks like (api/http/request_guard.py, api/http/inputs.py): only ASCII digits
are numbers, in a path, a query or a body; a number beyond the column's range is a 422, not an
overflow; a NUL byte is a 422; an operation refuses a query parameter it does not declare.
Each refusal is problem+json naming the field, and nothing is appended.

The overflow and the NUL reach the database's types: they run on both databases."""

from __future__ import annotations

import pytest

from .conftest import PLAYERS, assert_problem

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
JUST_BEYOND = str(2**63)  # one past the largest 64-bit integer


def _session(client) -> str:
    opened = client.post("/sessions", json={"players": PLAYERS, "preset": "blenheim"})
    assert opened.status_code == 201, opened.get_json()
    return opened.get_json()["session_id"]


def _paid(tess) -> int:
    """A payment recorded: its book entry's seq."""
    paid = tess.post("/payments", json={"payer": "Ann", "payee": "club", "amount_minor": 5,
                                        "currency": "GBP", "method": "cash"},
                     headers={"Idempotency-Key": "pay-1"})
    assert paid.status_code == 201, paid.get_json()
    return int(paid.get_json()["seq"])


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("digits", [ARABIC_INDIC, FULL_WIDTH])
def test_a_book_entry_named_in_unicode_digits_is_not_reversed(tess, digits):
    client = tess
    seq = _paid(client)
    odd = str(seq).translate(digits)
    response = client.post(f"/book-entries/{odd}/reversal", json={"reason": "mistake"},
                           headers={"Idempotency-Key": f"reverse-{odd}"})
    problem = assert_problem(response, 422, rule="schema")
    assert problem["field"] == "seq"
    entries = client.get("/book-entries").get_json()["entries"]
    assert not any(e.get("reversed_by") for e in entries), entries
    assert all(e["kind"] != "reversal" for e in entries), entries


@pytest.mark.backends("sqlite")
def test_a_deal_named_in_unicode_digits_is_a_422_naming_it(client):
    sid = _session(client)
    for odd in ("١", "-١", "１"):
        problem = assert_problem(client.get(f"/sessions/{sid}/deals/{odd}"), 422)
        assert problem["field"] == "deal_no"


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("value", ["١", "１٢", "1٠", "²", "1.0", "0x1", " 1", "1_0"])
def test_a_query_number_that_is_not_ascii_digits_is_a_422_naming_it(client, value):
    sid = _session(client)
    response = client.get(f"/sessions/{sid}/entries", query_string={"after": value})
    assert assert_problem(response, 422)["field"] == "after"


def test_a_query_number_beyond_the_columns_range_is_a_422_not_an_overflow(client):
    """A version (32 bits) and a log position (64 bits): each up to its column's largest."""
    sid = _session(client)
    for value in (JUST_BEYOND, str(2**31), "-" + JUST_BEYOND + "1", "9" * 40):
        response = client.get(f"/sessions/{sid}/entries?after={value}")
        assert assert_problem(response, 422)["field"] == "after"
        response = client.get(f"/book-entries?after={value}")
        assert assert_problem(response, 422)["field"] == "after"
    for value in (JUST_BEYOND, "9" * 40):
        response = client.get(f"/sessions/{sid}/events?after={value}")
        assert assert_problem(response, 422)["field"] == "after"
    assert client.get(f"/sessions/{sid}/entries?after={2**31 - 1}").status_code == 200
    assert client.get(f"/book-entries?after={2**31 - 1}").status_code == 200
    assert client.get(f"/sessions/{sid}/events?after={2**63 - 1}").status_code == 200


def test_a_path_number_beyond_the_columns_range_is_a_422_not_an_overflow(client):
    sid = _session(client)
    for value in (JUST_BEYOND, str(2**31)):
        problem = assert_problem(client.get(f"/sessions/{sid}/deals/{value}"), 422)
        assert problem["field"] == "deal_no"
        response = client.post(f"/book-entries/{value}/reversal", json={"reason": "x"},
                               headers={"Idempotency-Key": f"reverse-{value}"})
        assert assert_problem(response, 422)["field"] == "seq"
    assert client.get(f"/sessions/{sid}/deals/{2**31 - 1}").status_code == 404


def test_a_body_number_beyond_the_columns_range_is_a_422_naming_it(client):
    sid = _session(client)
    response = client.post(f"/sessions/{sid}/events",
                           json={"expected_version": 2**64,
                                 "events": [{"type": "DealStarted", "trump_card": "7H"}]})
    problem = assert_problem(response, 422)
    assert problem["field"] == "expected_version"
    assert client.get(f"/sessions/{sid}").get_json()["version"] == 1


def test_a_nul_byte_in_a_path_is_a_422_naming_it(client):
    problem = assert_problem(client.get("/members/abc%00def/account"), 422)
    assert problem["field"] == "member_id"
    problem = assert_problem(client.get("/sessions/abc%00def"), 422)
    assert problem["field"] == "session_id"


def test_a_nul_byte_in_a_query_is_a_422_naming_it(client):
    sid = _session(client)
    response = client.get(f"/sessions/{sid}/statement?as_of=2026%00")
    assert assert_problem(response, 422)["field"] == "as_of"
    response = client.get("/book-entries?member=Ann%00")
    assert assert_problem(response, 422)["field"] == "member"


def test_a_nul_byte_in_a_body_string_is_a_422_naming_it_and_nothing_is_appended(client):
    response = client.post("/sessions", json={"players": ["A", "B\x00", "C"],
                                              "guests": ["A", "C"], "preset": "blenheim"})
    assert assert_problem(response, 422)["field"] == "players.1"
    sid = _session(client)
    response = client.post(f"/sessions/{sid}/events",
                           json={"type": "DealStarted", "trump_card": "7\x00H"},
                           headers={"If-Match": '"1"'})
    assert assert_problem(response, 422)["field"] == "trump_card"
    response = client.post(f"/sessions/{sid}/events", json={"type\x00": "DealStarted"},
                           headers={"If-Match": '"1"'})
    assert assert_problem(response, 422)["field"] == "type\\x00"
    assert client.get(f"/sessions/{sid}").get_json()["version"] == 1


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("path", ["/audit/tokens", "/club", "/tokens", "/members",
                                  "/book-entries", "/club/sessions"])
def test_every_operation_refuses_a_query_parameter_it_does_not_declare(client, path):
    response = client.get(path, query_string={"limti": "5", "a": "b"})
    problem = assert_problem(response, 422, mentions=("limti", "'a'"))
    assert problem["field"] == "limti"
    assert set(problem["errors"]) == {"limti", "a"}
