"""GET /sessions/<id>/explain and ?as_of= over HTTP, on SQLite and PostgreSQL (docs/explain.md).

The session is docs/rules.md §10.1 and §10.2: the turn-up single A deals (D takes the pool, the
others are looed 3), then B's deal played by quick entry (C takes tricks 1 and 3, D trick 2, E
is looed 6).
"""

from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import func, select

from api import create_app
from ledger.store.tables import snapshots
from tests.clubs import club_client

from .conftest import EXAMPLE_1, Table, assert_problem, open_table

EXAMPLE_2 = [{"type": "DealStarted", "trump_card": "2S"},
             *({"type": "DeclarationMade", "player": p, "declaration": d} for p, d in
               (("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
                ("B", "throw_up"))),
             *({"type": "TrickWon", "winner": w} for w in ("C", "D", "C"))]


@pytest.fixture
def played(table: Table) -> Table:
    table.append(EXAMPLE_1)
    table.append({"events": EXAMPLE_2, "expected_version": table.version()})
    return table


def test_es_figure_is_explained_by_his_single_loo_and_his_loo_each_with_its_rule(played):
    response = played.client.get(f"{played.url}/explain?player=E")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["as_of"] is None and body["version"] == played.version()
    [e] = body["figures"]
    assert (e["account"], e["kind"], e["net_units"]) == ("E", "player", -9)
    assert e["categories"] == {"loo": -6, "single_loo": -3}
    assert sum(p["signed_units"] for p in e["postings"]) == -9
    single, loo = e["postings"]
    assert (single["deal_no"], single["to"], single["amount_units"]) == (1, "next_pool", 3)
    assert single["rule"]["source"] == "Baxter-Wray p. 18"
    assert single["actor"] and single["recorded_at"].endswith("+00:00")
    assert loo["rule"] == {"preset": "baxter-wray", "parameter": "loo = limited, loo_amount = 6",
                           "law": loo["rule"]["law"], "source": "Baxter-Wray p. 16",
                           "docs": "docs/rules.md §5.8, §4.1"}
    events = played.client.get(f"{played.url}/events?limit=100").get_json()["events"]
    settled = next(x for x in events if x["version"] == loo["version"])
    assert settled["type"] == "DealSettled" and settled["position"] == loo["position"]


def test_every_figure_is_explained_and_agrees_with_the_statement(played):
    body = played.client.get(f"{played.url}/explain").get_json()
    nets = {f["account"]: f["net_units"] for f in body["figures"]}
    # docs/rules.md §10.5
    assert nets == {"A": -6, "B": -6, "C": 7, "D": 8, "E": -9, "pool": 0, "next_pool": 6}
    stated = played.client.get(f"{played.url}/statement").get_json()
    assert {p["player"]: p["net_units"] for p in stated["players"]} == \
        {k: v for k, v in nets.items() if k not in ("pool", "next_pool")}


def test_explaining_a_player_not_in_the_session_is_a_problem_naming_player(played):
    problem = assert_problem(played.client.get(f"{played.url}/explain?player=Zed"), 422,
                             rule="player-in-session", mentions=("Zed",))
    assert problem["field"] == "player"


def test_the_trail_as_csv_has_a_row_per_posting(played):
    response = played.client.get(f"{played.url}/explain?format=csv&player=C")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "explain.csv" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][:3] == ["account", "kind", "version"]
    postings = [r for r in rows[1:] if r and r[0] == "C" and len(r) > 5]
    assert sorted(int(r[11]) for r in postings) == [-3, 5, 5]  # single loo, two tricks


def test_the_session_as_of_the_single_shows_the_pool_of_12_and_no_etag(played):
    # version 2: the turn-up single dealt; its settlement follows at version 3
    at = played.client.get(f"{played.url}?as_of=3")
    assert at.status_code == 200, at.get_json()
    body = at.get_json()
    assert body["as_of"]["version"] == 3 and body["version"] == 3
    assert body["next_pool_units"] == 12 and body["balances"]["D"] == 3
    assert "ETag" not in at.headers
    # an If-None-Match naming the present version does not turn an as-of read into a 304
    present = played.client.get(played.url)
    again = played.client.get(f"{played.url}?as_of=3",
                              headers={"If-None-Match": present.headers["ETag"]})
    assert again.status_code == 200 and again.get_json()["as_of"]["version"] == 3
    assert played.client.get(played.url, headers={"If-None-Match": present.headers["ETag"]}
                             ).status_code == 304
    assert "as_of" not in present.get_json()


def test_the_statement_and_a_deal_as_of_a_time(played):
    events = played.client.get(f"{played.url}/events?limit=100").get_json()["events"]
    single_at = events[2]["recorded_at"]  # the single's settlement
    body = played.client.get(f"{played.url}/statement", query_string={"as_of": single_at}
                             ).get_json()
    assert body["as_of"]["version"] >= 3 and body["deals"] == 1
    assert {p["player"]: p["net_units"] for p in body["players"]} == {
        "A": -6, "B": -3, "C": -3, "D": 3, "E": -3}
    assert body["log"]["version"] == body["as_of"]["version"]
    text = played.client.get(f"{played.url}/statement?format=csv&as_of=3").get_data(True)
    assert text.startswith("player,") and "log,version,3," in text
    deal = played.client.get(f"{played.url}/deals/1?as_of=3").get_json()
    assert deal["as_of"]["version"] == 3 and deal["settlement"]["outcome"] == "single-won"
    assert played.client.get(f"{played.url}/deals/2?as_of=3").status_code == 404
    now = played.client.get(f"{played.url}/deals/2?as_of={played.version()}").get_json()
    assert now["settlement"]["looed"] == ["E"]


@pytest.mark.parametrize("bad", ["0", "999", "-1", "soon", "2026-11-22T18:00:00",
                                 "1999-01-01T00:00:00Z"])
def test_as_of_out_of_range_or_unreadable_is_a_problem_naming_as_of(played, bad):
    for path in ("", "/statement", "/deals/1", "/explain"):
        response = played.client.get(f"{played.url}{path}", query_string={"as_of": bad})
        problem = assert_problem(response, 422)
        assert problem["field"] == "as_of", (path, bad, problem)


def test_appends_keep_a_snapshot_each_time_they_cross_the_interval(engine):
    client = club_client(create_app({"ENGINE": engine, "TESTING": True, "SNAPSHOT_EVERY": 4}),
                         engine)
    table = open_table(client, preset="baxter-wray", first_dealer="A")
    table.append(EXAMPLE_1)
    table.append({"events": EXAMPLE_2, "expected_version": table.version()})
    with engine.connect() as conn:
        kept = conn.scalar(select(func.count()).select_from(snapshots)
                           .where(snapshots.c.session_id == table.sid))
    # the opening ends at version 1 and the single at 3: neither crosses 4; the batch of deal
    # 2 goes from 3 to 13, crossing 4, 8 and 12, and keeps one snapshot, at 13
    assert kept == 1
    assert client.get(f"{table.url}?as_of=5").get_json()["as_of"]["version"] == 5
    assert client.get(f"{table.url}/verify").get_json()["ok"] is True
