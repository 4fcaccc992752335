"""The statement as a printable page (GET /sessions/<id>/statement?format=html), on SQLite:
the figures it shows are the JSON statement's, its chart has one line per player
ending at each net, it runs no script and loads nothing, and its shell under /table is public."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from api.cli.demo import demo_tokens, load_demo
from api.pages.printable import DOCUMENT_CSP, STYLE_HASH
from ledger.clubs.service import Actor, Clubs
from ledger.domain import OpenSession
from ledger.sessions.service import Ledger
from ledger.writes import WriteRequest
from tests.clubs import make_club
from tests.support.sessions import RandomChooser, SessionShape, play_session

from .conftest import assert_problem

# a page drawn from the statement, whatever the database
pytestmark = pytest.mark.backends("sqlite")

SVG = "{http://www.w3.org/2000/svg}"


def demo(engine, client):
    session_id = load_demo(Ledger(engine))
    client.environ_base["HTTP_AUTHORIZATION"] = \
        f"Bearer {demo_tokens(Clubs(engine))['treasurer']}"
    return session_id


def test_the_statement_page_shows_the_json_statements_figures(engine, client):
    sid = demo(engine, client)
    data = client.get(f"/sessions/{sid}/statement").get_json()
    page = client.get(f"/sessions/{sid}/statement?format=html")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert page.headers["Vary"] == "Accept"
    html = page.get_data(as_text=True)
    shown = {p: int(n) for p, n in re.findall(
        r'<tr data-player="([^"]+)">.*?data-net-units="(-?\d+)"', html, re.S)}
    assert shown == {p["player"]: p["net_units"] for p in data["players"]} == \
        {"A": 4, "B": -12, "C": 13, "D": 10, "E": -15}
    transfers = re.findall(r'data-from="([^"]+)" data-to="([^"]+)" data-amount-units="(\d+)"',
                           html)
    assert [(f, t, int(a)) for f, t, a in transfers] == \
        [(t["from"], t["to"], t["amount_units"]) for t in data["settlement"]["transfers"]]
    assert data["log"]["chain_head"] in html and "Final" in html
    # the chart: one line per player, from 0 at the start to his net after deal 6
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", html, re.S).group(0))
    lines = {g.get("data-player"): g.find(f"{SVG}polyline").get("points").split()
             for g in svg.iter(f"{SVG}g") if g.get("data-player")}
    assert sorted(lines) == ["A", "B", "C", "D", "E"]
    assert all(len(points) == 7 for points in lines.values())  # start and six deals
    series = Ledger(engine).balance_series(sid)
    assert series["points"][-1]["balances"] == {"A": 4, "B": -12, "C": 13, "D": 10, "E": -15}
    # deal 2 (docs/rules.md §10.2): C 5 + 5, D 5, E looed 6, B paid 3 to deal
    changes = {p: series["points"][2]["balances"][p] - series["points"][1]["balances"][p]
               for p in "ABCDE"}
    assert changes == {"A": 0, "B": -3, "C": 10, "D": 5, "E": -6}
    assert series["counts"]["C"] == {"tricks": 3, "pools_taken": 1, "loos": 2}


def test_the_page_as_of_a_version_is_the_statement_as_it_stood_then(engine, client):
    sid = demo(engine, client)
    events = client.get(f"/sessions/{sid}/events?limit=1000").get_json()["events"]
    # the version at which the third deal was settled
    version = [e["version"] for e in events if e["type"] == "DealSettled"][2]
    then = client.get(f"/sessions/{sid}/statement?as_of={version}").get_json()
    html = client.get(f"/sessions/{sid}/statement?format=html&as_of={version}").get_data(
        as_text=True)
    assert html == client.get(f"/sessions/{sid}/statement.html?as_of={version}").get_data(
        as_text=True)
    shown = {p: int(n) for p, n in re.findall(
        r'<tr data-player="([^"]+)">.*?data-net-units="(-?\d+)"', html, re.S)}
    assert shown == {p["player"]: p["net_units"] for p in then["players"]}
    assert shown != {"A": 4, "B": -12, "C": 13, "D": 10, "E": -15}  # not the final nets
    assert f"As it stood at version {version} of the log" in html
    assert then["log"]["chain_head"] in html and "Final" not in html
    # the chart: the start and the three deals, ending at the nets of then
    series = Ledger(engine).balance_series(sid, as_of=version)
    assert [p["deal_no"] for p in series["points"]] == [0, 1, 2, 3]
    assert series["points"][-1]["balances"] == shown
    assert series["points"] == Ledger(engine).balance_series(sid)["points"][:4]
    assert_problem(client.get(f"/sessions/{sid}/statement.html?as_of=0"), 422,
                   rule="as-of-in-range")


def test_the_pages_trail_sums_each_figures_postings_per_rule(engine, client):
    """Each figure's line shows its postings summed per rule: the rows count every posting
    of the explain trail once and add up to the figure."""
    sid = demo(engine, client)
    trail = client.get(f"/sessions/{sid}/explain").get_json()
    html = client.get(f"/sessions/{sid}/statement?format=html").get_data(as_text=True)
    assert len(trail["figures"]) == 7  # five players, the pool, the next pool
    for figure in trail["figures"]:
        body = re.search(rf'<details id="explain-\d+" data-account="{figure["account"]}" '
                         rf'data-kind="{figure["kind"]}">(.*?)</details>', html, re.S).group(1)
        rows = re.findall(r'<td class="num">([^<]*)</td>\s*<td class="num">(\d+)</td>\s*'
                          r'<td>[^<]*→[^<]*</td>\s*<td class="num">([^<]+)</td>', body)
        rules = {(p["category"], p["offence"], p["from"], p["to"], repr(p["rule"]))
                 for p in figure["postings"]}
        assert len(rows) == len(rules), figure["account"]
        assert sum(int(n) for _, n, _ in rows) == len(figure["postings"])
        assert sum(int(u.replace("\u2212", "-").replace("+", "")) for _, _, u in rows) \
            == figure["net_units"]
    assert not re.search(r"<td>v\d+ [A-Z]", html)  # no posting is listed one by one


def test_a_browser_asking_for_html_gets_the_page_and_a_client_asking_for_anything_json(
        engine, client):
    sid = demo(engine, client)
    browser = client.get(f"/sessions/{sid}/statement", headers={
        "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"})
    assert browser.mimetype == "text/html"
    assert client.get(f"/sessions/{sid}/statement",
                      headers={"Accept": "*/*"}).mimetype == "application/json"
    assert client.get(f"/sessions/{sid}/statement?format=json",
                      headers={"Accept": "text/html"}).mimetype == "application/json"
    assert_problem(client.get(f"/sessions/{sid}/statement?format=pdf"), 422, mentions=("format",))


def test_the_page_runs_no_script_and_may_load_nothing_but_its_own_inline_style(
        engine, client):
    sid = demo(engine, client)
    page = client.get(f"/sessions/{sid}/statement?format=html")
    html = page.get_data(as_text=True)
    assert page.headers["Content-Security-Policy"] == DOCUMENT_CSP
    assert f"style-src '{STYLE_HASH}'" in DOCUMENT_CSP and "script-src" not in DOCUMENT_CSP
    assert "<script" not in html and "<link" not in html and "<img" not in html
    assert " src=" not in html and "href=\"http" not in html and "url(" not in html
    assert page.headers["Cache-Control"] == "no-store"  # it carried a token


def test_the_page_is_for_those_who_read_the_statement_and_only_in_their_club(engine, app):
    ours, theirs = make_club(engine), make_club(engine)
    opening = OpenSession(players=["A", "B", "C"], preset="baxter-wray", first_dealer="A",
                          name="Three at the Bell", rules={})
    treasurer = WriteRequest(Actor("treasurer", ours.members["treasurer"]))
    sid = Ledger(engine).for_club(ours.club_id).open_session(
        opening, treasurer, guests=["A", "B", "C"]).body["session_id"]
    anonymous = app.test_client()
    url = f"/sessions/{sid}/statement?format=html"
    for role in ("admin", "treasurer", "auditor"):
        got = anonymous.get(url, headers=ours.headers(role))
        assert got.status_code == 200 and "Provisional" in got.get_data(as_text=True)
    assert_problem(anonymous.get(url, headers=ours.headers("dealer")), 403)
    assert_problem(anonymous.get(url, headers=theirs.headers("treasurer")), 404)
    assert_problem(anonymous.get(url), 401)


def test_a_generated_sessions_series_ends_at_every_net(engine):
    """Whatever the deals (penalties, joins, corrections of the tail, an end that divides the
    pool), the chart's last point is each player's net."""
    played = play_session(RandomChooser(17), shape=SessionShape(min_deals=12, max_deals=20))
    club = make_club(engine)
    ledger = Ledger(engine).for_club(club.club_id)
    actor = Actor("treasurer", club.members["treasurer"])
    sid = ledger.open_session(played.opening, WriteRequest(actor),
                              guests=list(played.opening.players)).body["session_id"]
    for step in played.steps[1:]:
        if step.accepted:
            ledger.append(sid, [step.command], WriteRequest(actor))
    nets = {p["player"]: p["net_units"] for p in ledger.statement(sid)["players"]}
    series = ledger.balance_series(sid)
    assert series["players"] == list(nets)
    assert series["points"][0]["balances"] == {p: 0 for p in nets}
    assert series["points"][-1]["balances"] == nets
    assert len([p for p in series["points"] if p["deal_no"]]) == played.state.deal_no
    # as of its last version, folded from the log: the chart drawn from the stored views
    last = ledger.session(sid)["version"]
    assert ledger.balance_series(sid, as_of=last) == series


def test_the_statement_shell_is_public_and_loads_only_its_own_files(app):
    anonymous = app.test_client()
    page = anonymous.get("/table/statement")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "/table/static/statement.js" in html and "/table/static/statement.css" in html
    assert page.headers["Content-Security-Policy"].startswith(
        "default-src 'none'; script-src 'self'; style-src 'self';")
    worker = anonymous.get("/table/sw.js").get_data(as_text=True)
    assert '"/table/statement"' in worker and '"/table/static/statement.css"' in worker
