"""What the tablet asks of the API besides the table's own routes: a 304 for a session that has
not moved (polling with If-None-Match), the offences a penalty may name with what each costs
now, and the tablet's pages and files (public, 'self'-only, outside the OpenAPI document)."""

from __future__ import annotations

import re

import pytest

from .conftest import EXAMPLE_1, PLAYERS, Table

# the tablet's pages and polling, whatever the database
pytestmark = pytest.mark.backends("sqlite")


@pytest.fixture
def table(client) -> Table:
    sid = client.post("/sessions", json={"players": PLAYERS, "first_dealer": "A"}).get_json()[
        "session_id"]
    return Table(client, sid)


def test_polling_a_session_that_has_not_moved_is_a_304_without_a_body(table):
    first = table.client.get(table.url)
    assert first.status_code == 200 and first.headers["ETag"] == '"1"'
    for sent in ('"1"', "1", 'W/"1"', '"7", "1"', "*"):
        again = table.client.get(table.url, headers={"If-None-Match": sent})
        assert again.status_code == 304, sent
        assert again.get_data() == b"" and again.headers["ETag"] == '"1"'
    table.append(EXAMPLE_1)  # the session moves on: the old tag no longer matches
    moved = table.client.get(table.url, headers={"If-None-Match": '"1"'})
    assert moved.status_code == 200 and moved.headers["ETag"] == '"3"'
    assert moved.get_json()["version"] == 3
    assert table.client.get(table.url, headers={"If-None-Match": '"3"'}).status_code == 304


def test_a_304_is_decided_after_the_token_and_the_club(table, app, engine):
    from tests.clubs import club_client

    stranger = club_client(app, engine)
    response = stranger.get(table.url, headers={"If-None-Match": "*"})
    assert response.status_code == 404
    anonymous = app.test_client().get(table.url, headers={"If-None-Match": "*"})
    assert anonymous.status_code == 401


def test_the_offences_list_the_preset_table_with_what_each_costs_now(table):
    before = table.client.get(f"{table.url}/offences")
    assert before.status_code == 200
    body = before.get_json()
    assert body["penalties"] == "baxter-wray" and body["open"] is False
    assert all(o["law"] and o["to"] in ("pool", "next_pool") for o in body["offences"])
    table.append(EXAMPLE_1)
    table.send("DealStarted", trump_card="3C")
    rows = {o["offence"]: o for o in table.client.get(f"{table.url}/offences").get_json()[
        "offences"]}
    assert table.client.get(f"{table.url}/offences").get_json()["open"] is True
    expected = table.view()["expected"]["actions"][1]
    assert expected["type"] == "PenaltyImposed" and list(rows) == expected["offences"]
    # docs/rules.md §7.3: a single loo (3) into this deal's pool; a loo (6) to the next pool.
    assert rows["looked-at-miss"] | {"law": None} == rows["looked-at-miss"] | {
        "law": None, "offence": "looked-at-miss", "amount": "single_loo", "amount_units": 3,
        "when_fixed": None, "to": "pool", "kind": "fine", "stage": "pre-play"}
    assert rows["revoke"]["amount_units"] == 6 and rows["revoke"]["to"] == "next_pool"
    assert rows["revoke"]["replay"] == "required" and rows["revoke"]["forfeits"] == "always"
    assert rows["misdeal"]["redeal"] == "always" and rows["misdeal"]["dealer_only"]
    assert "Baxter-Wray p. 24" in rows["looked-at-miss"]["law"]
    # What the rows say is what the ledger charges.
    charged = table.send("PenaltyImposed", player="D", offence="looked-at-miss")
    penalty = next(e for e in charged["appended"] if e["type"] == "PenaltyImposed")["payload"]
    assert penalty["amount_units"] == rows["looked-at-miss"]["amount_units"]
    assert penalty["destination"] == rows["looked-at-miss"]["to"]


def test_the_session_says_which_offences_it_accepts_for_whom_and_means_it(table):
    """`expected`'s PenaltyImposed action over HTTP: `by_player` and `redeal`; one offered is
    appended, one not offered is refused and nothing is appended."""
    table.append(EXAMPLE_1)
    table.send("DealStarted", trump_card="3C")
    table.declare(("C", "play"))
    action = next(a for a in table.view()["expected"]["actions"]
                  if a["type"] == "PenaltyImposed")
    assert "misdeal" in action["by_player"]["B"]  # B deals
    assert all("misdeal" not in names for p, names in action["by_player"].items() if p != "B")
    assert "revoke" in action["by_player"]["C"] and "revoke" not in action["by_player"]["D"]
    assert action["redeal"]["D"] == ["interfering-with-deal"]
    version = table.version()
    refused = table.post({"type": "PenaltyImposed", "player": "D", "offence": "revoke"})
    assert refused.status_code in (409, 422)
    assert refused.get_json()["rule"] == "standing-player"
    assert table.version() == version
    table.send("PenaltyImposed", player="D", offence="interfering-with-deal", redeal=True)
    assert table.view()["deal"]["phase"] == "redeal"


def test_the_offences_at_five_card_loo_have_no_miss_and_are_open_when_expected_offers_one(
        client):
    """GET /offences takes its rows, its prices and `open` from the domain: the offences the
    game can have (offences_for), the price penalty_event charges (penalty_cost), and `open`
    exactly when `expected` offers a penalty for someone (penalty_offers)."""
    sid = client.post("/sessions", json={"players": ["A", "B", "C", "D"],
                                         "first_dealer": "A",
                                         "rules": {"variant": "five-card"}}).get_json()[
        "session_id"]
    table = Table(client, sid)
    body = client.get(f"{table.url}/offences").get_json()
    names = [o["offence"] for o in body["offences"]]
    # Baxter-Wray p. 27: "There is no miss"; Pam is in play at five-card loo
    assert body["open"] is False and "looked-at-miss" not in names and "pam-be-civil" in names
    table.send("DealStarted", trump_card="2S")
    body = client.get(f"{table.url}/offences").get_json()
    offer = next(a for a in table.view()["expected"]["actions"]
                 if a["type"] == "PenaltyImposed")
    assert body["open"] is True and [o["offence"] for o in body["offences"]] == offer["offences"]
    rows = {o["offence"]: o for o in body["offences"]}
    priced = next(name for name in offer["by_player"]["C"]
                  if rows[name]["amount_units"] and rows[name]["stage"] == "pre-play")
    charged = table.send("PenaltyImposed", player="C", offence=priced)
    penalty = next(e for e in charged["appended"] if e["type"] == "PenaltyImposed")["payload"]
    assert (penalty["amount_units"], penalty["destination"]) == (
        rows[priced]["amount_units"], rows[priced]["to"])
    # a misdeal: the same dealer deals again, and nothing can be charged until he has
    table.send("PenaltyImposed", player="A", offence="misdeal")
    assert table.view()["expected"]["phase"] == "redeal"
    assert client.get(f"{table.url}/offences").get_json()["open"] is False


def test_blenheim_offences_in_play_are_fixed_with_the_deal(client):
    sid = client.post("/sessions", json={"players": PLAYERS, "preset": "blenheim"}).get_json()[
        "session_id"]
    rows = {o["offence"]: o for o in client.get(f"/sessions/{sid}/offences").get_json()[
        "offences"]}
    assert rows["revoke"]["amount_units"] is None and rows["revoke"]["when_fixed"] == \
        "with-the-deal"
    assert rows["misdeal"]["amount_units"] == 3 and rows["misdeal"]["amount"] == "stake"


def test_the_tablet_pages_are_public_and_load_only_their_own_files(app):
    anonymous = app.test_client()
    for path in ("/table", "/table/live", "/table/statement"):
        page = anonymous.get(path)
        assert page.status_code == 200 and page.mimetype == "text/html"
        policy = page.headers["Content-Security-Policy"]
        assert policy.startswith("default-src 'none'; script-src 'self'; style-src 'self';")
        assert "unsafe" not in policy and "http" not in policy
        assert "http" not in page.get_data(as_text=True).replace("http-equiv", "")
    manifest = anonymous.get("/table/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = manifest.get_json()
    assert data["start_url"] == "/table" and data["display"] == "standalone"
    for icon in data["icons"]:
        got = anonymous.get(icon["src"])
        assert got.status_code == 200 and got.mimetype == icon["type"]
        if icon["type"] == "image/png":
            assert got.get_data()[:8] == b"\x89PNG\r\n\x1a\n"
    worker = anonymous.get("/table/sw.js")
    assert worker.headers["Service-Worker-Allowed"] == "/table"
    source = worker.get_data(as_text=True)
    assert '"/table/static/table.js"' in source and '"/table"' in source
    with anonymous.get("/table/static/table.js") as script:
        assert script.mimetype == "text/javascript"
    spec = anonymous.get("/openapi.json").get_json()
    assert not [p for p in spec["paths"] if p.startswith(("/table", "/docs"))]


def test_every_module_the_tablet_loads_is_in_the_offline_shell(app):
    """The tablet's script is ES modules importing each other: each one it reaches is served
    as a script and cached by the service worker, so the tablet still opens with no connection."""
    anonymous = app.test_client()
    shell = anonymous.get("/table/sw.js").get_data(as_text=True).split("\n", 2)[1]
    seen, todo = set(), ["table.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        with anonymous.get(f"/table/static/{name}") as script:
            assert script.status_code == 200 and script.mimetype == "text/javascript", name
            source = script.get_data(as_text=True)
        assert f'"/table/static/{name}"' in shell, name
        todo += re.findall(r'^import [^;]*? from "\./([\w-]+\.js)";', source, re.M | re.S)
    # the split by job (sign-in, the ledger and the outbox, screens, variants), each short
    assert {"signin.js", "transport.js", "step.js", "variants.js"} <= seen

