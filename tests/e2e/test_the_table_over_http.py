"""The API's happy paths: open, log docs/rules.md §10.1 and §10.2, read everything back."""

from __future__ import annotations

import csv
import io

from .conftest import EXAMPLE_1, PLAYERS, Table

EXAMPLE_2 = [
    {"type": "DealStarted", "trump_card": "3C"},
    *({"type": "DeclarationMade", "player": p, "declaration": d}
      for p, d in (("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
                   ("B", "throw_up"))),
    *({"type": "CardPlayed", "player": p, "card": c}
      for p, c in (("C", "AH"), ("D", "5H"), ("E", "6H"), ("C", "KS"), ("D", "2C"),
                   ("E", "7S"), ("D", "8D"), ("E", "9D"), ("C", "QD"))),
]


def test_opening_a_session_answers_201_with_its_location_and_first_event(client):
    response = client.post("/sessions", json={
        "name": "Thursday", "players": PLAYERS, "preset": "blenheim",
        "rules": {"loo_limit": 30}, "first_dealer": "C", "money_per_unit_minor": 5,
        "currency": "GBP"})
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"/sessions/{body['session_id']}"
    assert response.headers["ETag"] == f'"{body["version"]}"'
    assert [e["type"] for e in body["appended"]] == ["SessionOpened"]
    opened = body["appended"][0]
    assert opened["actor"] == "treasurer" and opened["version"] == 1
    assert opened["payload"]["rules"]["preset"] == "blenheim"
    assert opened["payload"]["rules"]["loo_limit"] == 30
    session = client.get(response.headers["Location"]).get_json()
    assert session["next_dealer"] == "C"
    assert session["seats"] == PLAYERS
    assert session["currency"] == "GBP"


def test_the_turn_up_single_of_example_one_pays_d_and_looes_the_others_three(table: Table):
    result = table.append(EXAMPLE_1)
    assert [e["type"] for e in result["appended"]] == ["DealStarted", "DealSettled"]
    session = table.view()
    assert session["balances"] == {"A": -6, "B": -3, "C": -3, "D": 3, "E": -3}
    assert session["next_pool_units"] == 12
    assert session["next_dealer"] == "B"
    assert session["version"] == result["version"] == 3


def test_example_two_entered_card_by_card_divides_fifteen_and_looes_e(table: Table):
    table.append(EXAMPLE_1)
    result = table.append({"events": EXAMPLE_2})
    types = [e["type"] for e in result["appended"]]
    assert types.count("TrickWon") == 3 and types[-1] == "DealSettled"
    assert "BreachDetected" not in types
    settled = result["appended"][-1]["payload"]
    assert [s["winner"] for s in settled["shares"]] == ["C", "D", "C"]
    assert [s["amount_units"] for s in settled["shares"]] == [5, 5, 5]
    assert settled["looed"] == ["E"]
    session = table.view()
    assert session["next_pool_units"] == 6
    assert session["next_dealer"] == "C"

    deal = table.client.get(f"{table.url}/deals/2").get_json()
    assert deal["dealer"] == "B" and deal["trump_card"] == "3C"
    assert [t["winner"] for t in deal["tricks"]] == ["C", "D", "C"]
    assert deal["phase"] == "settled"


def test_the_session_says_whose_turn_it_is_and_the_legal_choices(declaring: Table):
    expected = declaring.view()["expected"]
    assert expected["phase"] == "declaring"
    declare = expected["actions"][0]
    assert declare["type"] == "DeclarationMade" and declare["player"] == "C"
    assert set(declare["choices"]) == {"play", "throw_up", "take_miss"}


def test_the_statement_nets_sum_to_zero_with_the_pools(table: Table):
    table.append(EXAMPLE_1)
    table.append({"events": EXAMPLE_2})
    statement = table.client.get(f"{table.url}/statement").get_json()
    nets = {p["player"]: p["net_units"] for p in statement["players"]}
    assert nets == {"A": -6, "B": -6, "C": 7, "D": 8, "E": -9}
    assert statement["check"]["zero_sum"] is True
    assert sum(nets.values()) + statement["pool"]["current_pool_units"] \
        + statement["pool"]["next_pool_units"] == 0


def test_the_statement_comes_as_csv_by_query_or_by_accept_header(table: Table):
    table.append(EXAMPLE_1)
    by_query = table.client.get(f"{table.url}/statement?format=csv")
    by_accept = table.client.get(f"{table.url}/statement", headers={"Accept": "text/csv"})
    for response in (by_query, by_accept):
        assert response.status_code == 200
        assert response.mimetype == "text/csv"
        assert response.headers["Content-Disposition"] == \
            f'attachment; filename="lanterloo-{table.sid}-statement.csv"'
    rows = list(csv.reader(io.StringIO(by_query.get_data(as_text=True))))
    assert rows[0][0] == "player"
    assert [r[0] for r in rows[1:6]] == PLAYERS
    as_json = table.client.get(f"{table.url}/statement", headers={"Accept": "application/json"})
    assert as_json.mimetype == "application/json"


def test_a_statement_format_that_does_not_exist_is_refused(table: Table):
    response = table.client.get(f"{table.url}/statement?format=pdf")
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["field"] == "format"


def test_the_events_are_paged_by_position_with_a_next_link(table: Table):
    table.append(EXAMPLE_1)
    table.append({"events": EXAMPLE_2})
    total = table.version()
    seen, url, pages = [], f"{table.url}/events?limit=4", 0
    while url:
        response = table.client.get(url)
        assert response.status_code == 200
        page = response.get_json()
        seen += page["events"]
        url = page["next"]
        if url:
            assert response.headers["Link"] == f'<{url}>; rel="next"'
        pages += 1
    assert len(seen) == total
    assert pages == -(-total // 4)
    assert [e["version"] for e in seen] == list(range(1, total + 1))
    positions = [e["position"] for e in seen]
    assert positions == sorted(positions)
    assert seen[0]["type"] == "SessionOpened"


def test_the_events_after_a_position_start_after_it(table: Table):
    table.append(EXAMPLE_1)
    events = table.client.get(f"{table.url}/events").get_json()["events"]
    later = table.client.get(f"{table.url}/events?after={events[0]['position']}").get_json()
    assert later["events"] == events[1:]
    assert later["next"] is None


def test_a_page_limit_out_of_range_is_refused(table: Table):
    for query in ("limit=0", "limit=5000", "limit=ten", "after=-1"):
        response = table.client.get(f"{table.url}/events?{query}")
        assert response.status_code == 422, query
        assert response.mimetype == "application/problem+json"


def test_liveness_touches_no_database_and_readiness_reaches_it(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok", "schema": "0019",
                                   "signing": "off",  # no checkpoint key in the tests
                                   "read_replica": "off"}


def test_a_player_named_like_a_formula_is_neutralised_in_the_statement_csv(client):
    # OWASP, CSV injection: a cell that begins with = + - @ is escaped with a quote.
    response = client.post("/sessions", json={"players": ["=1+1", "+SUM(A1)", "B"]})
    assert response.status_code == 201, response.get_json()
    sid = response.get_json()["session_id"]
    text = client.get(f"/sessions/{sid}/statement?format=csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert [r[0] for r in rows[1:4]] == ["'=1+1", "'+SUM(A1)", "B"]
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in rows for cell in r[:1])
