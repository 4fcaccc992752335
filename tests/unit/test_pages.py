"""The printable pages (api/pages/printable.py, api/pages/charts.py) drawn from hand-made JSON
shapes: the figures they show, the chart's series, the postings behind each line, and every name
escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from typing import Any

from hypothesis import HealthCheck, given, settings

from api.pages.charts import balance_chart, nice_ticks
from api.pages.printable import money, render_club_page, render_statement, signed
from ledger.domain.events import NEXT_POOL, POOL
from ledger.domain.series import balance_series
from tests.support.projected import fold_with_views
from tests.support.sessions import sessions

SVG = "{http://www.w3.org/2000/svg}"
EVIL = '<script>alert("x")</script>'


def view(deal_no: int, postings: list[tuple[str, str, int, str]],
         tricks: list[str] = ()) -> dict[str, Any]:
    return {"deal_no": deal_no,
            "postings": [{"from": f, "to": t, "amount_units": a, "reason": r, "deal_no": deal_no,
                          **({"loo": True} if r in ("loo", "single_loo") else {})}
                         for f, t, a, r in postings],
            "tricks": [{"trick": i, "winner": w} for i, w in enumerate(tricks, start=1)]}


# Three players at baxter-wray: deal 1 the turn-up single (Ann deals, Bob's card wins the
# pool, Ann and Cy are looed 3); deal 2 Bob deals, Ann takes two tricks, Cy one, Bob revokes
# (a penalty of 6 to the next pool, docs/rules.md §7).
VIEWS = {
    1: view(1, [("Ann", "pool", 3, "deal"), ("pool", "Bob", 3, "pool_taken"),
                ("Ann", "next_pool", 3, "single_loo"), ("Cy", "next_pool", 3, "single_loo")]),
    2: view(2, [("Bob", "pool", 3, "deal"), ("next_pool", "pool", 6, "brought_forward"),
                ("pool", "Ann", 3, "trick"), ("pool", "Cy", 3, "trick"),
                ("pool", "Ann", 3, "trick")], tricks=["Ann", "Cy", "Ann"]),
}
NETS = {"Ann": 0, "Bob": -3, "Cy": 0}


def test_the_series_runs_each_balance_deal_by_deal_and_counts_tricks_pools_and_loos():
    series = balance_series(["Ann", "Bob", "Cy"], VIEWS, {"Ann": 0, "Bob": 0, "Cy": 0})
    assert [p["label"] for p in series["points"]] == ["start", "1", "2"]
    assert [p["balances"] for p in series["points"]] == [
        {"Ann": 0, "Bob": 0, "Cy": 0}, {"Ann": -6, "Bob": 3, "Cy": -3},
        {"Ann": 0, "Bob": 0, "Cy": 0}]
    assert series["counts"] == {"Ann": {"tricks": 2, "pools_taken": 0, "loos": 1},
                                "Bob": {"tricks": 0, "pools_taken": 1, "loos": 0},
                                "Cy": {"tricks": 1, "pools_taken": 0, "loos": 1}}


def test_a_posting_outside_any_deal_ends_the_series_at_the_nets():
    # the nets say Bob is at -3: a posting outside any deal (the division at the end) moved
    # him, so an "end" point brings every line to the nets
    series = balance_series(["Ann", "Bob", "Cy"], VIEWS, NETS)
    assert series["points"][-1] == {"label": "end", "deal_no": None,
                                    "balances": {"Ann": 0, "Bob": -3, "Cy": 0}}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(max_deals=8))
def test_every_sessions_series_starts_at_zero_and_ends_at_the_nets(played):
    """Whatever happened (penalties, aftercomers, withdrawals, the end's division), the chart
    runs from 0 to each player's net, one point per deal; the deal views' postings balance."""
    state, views = fold_with_views(played.events, "s")
    assert state is not None
    series = balance_series(state.seats, views, state.balances)
    nets = {p: state.balances[p] for p in state.seats}
    assert series["points"][0]["balances"] == {p: 0 for p in state.seats}
    assert series["points"][-1]["balances"] == nets
    assert [p["deal_no"] for p in series["points"] if p["deal_no"]] == \
        list(range(1, state.deal_no + 1))
    for number, view in views.items():
        pools = sum(a["amount_units"] * ((a["to"] in (POOL, NEXT_POOL))
                                         - (a["from"] in (POOL, NEXT_POOL)))
                    for a in view["postings"])
        players = series["points"][number]["balances"]
        before = series["points"][number - 1]["balances"]
        assert sum(players.values()) - sum(before.values()) == -pools
    # every trick won is counted once
    assert sum(c["tricks"] for c in series["counts"].values()) == \
        sum(len(v["tricks"]) for v in views.values())
    assert "<script" not in balance_chart(series)


def test_ticks_are_round_and_cover_the_range():
    assert nice_ticks(-15, 13) == [-20, -10, 0, 10, 20]
    assert nice_ticks(0, 4) == [0, 1, 2, 3, 4]
    assert nice_ticks(0, 0) == [0, 1]
    ticks = nice_ticks(-1234, 987)
    assert ticks[0] <= -1234 and ticks[-1] >= 987 and len(ticks) <= 8


def parse_svg(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_the_chart_has_one_series_per_player_an_axis_a_zero_line_and_a_legend():
    series = balance_series(["Ann", "Bob", "Cy"], VIEWS, NETS)
    root = parse_svg(balance_chart(series, unit="counters"))
    groups = [g for g in root.iter(f"{SVG}g") if "series" in (g.get("class") or "").split()
              and g.get("data-player")]
    assert [g.get("data-player") for g in groups] == ["Ann", "Bob", "Cy"]
    lines = [g.find(f"{SVG}polyline") for g in groups]
    assert all(len(line.get("points").split()) == 4 for line in lines)  # start, 1, 2, end
    # no two lines look alike without colour: each its own dash pattern and marker shape
    assert len({line.get("stroke-dasharray") for line in lines}) == 3
    markers = [next(c.tag for c in g if c.tag != f"{SVG}polyline" and c.tag != f"{SVG}title")
               for g in groups]
    assert len(set(markers)) == 3
    assert root.find(f".//{SVG}line[@class='zero']") is not None
    legend = root.find(f".//{SVG}g[@class='legend']")
    assert [t.text for t in legend.iter(f"{SVG}text")] == ["Ann", "Bob", "Cy"]
    ends = [t.text for t in root.find(f".//{SVG}g[@class='end-labels']").iter(f"{SVG}text")]
    assert ends == ["Ann 0", "Bob \u22123", "Cy 0"]
    assert root.get("role") == "img" and root.find(f"{SVG}title").text.endswith("counters")
    assert "script" not in balance_chart(series).lower()


def test_the_chart_escapes_a_players_name():
    series = {"players": [EVIL], "points": [{"label": "start", "deal_no": 0,
                                             "balances": {EVIL: 0}}]}
    svg = balance_chart(series)
    assert "<script>" not in svg
    root = parse_svg(svg)  # still well-formed XML
    assert root.find(f".//{SVG}g[@class='legend']/{SVG}text").text == EVIL


def statement(**over: Any) -> dict[str, Any]:
    def player(name: str, dealt: int, paid: dict[str, int], got: dict[str, int]) -> dict:
        net = sum(got.values()) - sum(paid.values())
        return {"player": name, "member_id": None, "active": True, "deals_dealt": dealt,
                "paid_units": paid, "received_units": got,
                "paid_total_units": sum(paid.values()),
                "received_total_units": sum(got.values()), "net_units": net,
                "net_money_minor": net * 25}
    players = [player("Ann", 1, {"deal": 3, "single_loo": 3}, {"trick": 6}),
               player("Bob", 1, {"deal": 3, "penalty:revoke": 6}, {"pool_taken": 3}),
               player("Cy", 0, {"single_loo": 3}, {"trick": 3})]
    base = {
        "session_id": "s1", "name": "Thursday at the Bell", "version": 23, "status": "open",
        "ended_method": None, "preset": "baxter-wray", "unit": "counter",
        "money_per_unit_minor": 25, "currency": "GBP", "deals": 2, "players": players,
        "pool": {"current_pool_units": 0, "next_pool_units": 6, "loos_owed": [],
                 "flows_units": {}, "what_became_of_it": "6 units are on the table for the "
                                                          "next deal"},
        "corrections": [], "outcomes": [],
        "check": {"nets_plus_pools_units": 0, "zero_sum": True},
        "log": {"version": 23, "chain_head": "ab" * 32, "chain_format": "lanterloo/1"},
        "settlement": {"final": False, "provisional": True, "transfers": [
            {"from": "Bob", "to": "pool", "amount_units": 6, "amount_money_minor": 150}]},
    }
    return {**base, **over}


class Text(HTMLParser):
    """The page's text, and whether it holds a script element."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)
        if tag in ("td", "th", "li", "p", "tr", "br", "summary"):
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    @classmethod
    def of(cls, html: str) -> Text:
        parser = cls()
        parser.feed(html)
        return parser

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.parts))


def row_of(html: str, player: str) -> str:
    match = re.search(rf'<tr data-player="{re.escape(player)}">(.*?)</tr>', html, re.S)
    assert match, player
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


def test_the_statement_page_shows_each_players_figures_in_units_and_money():
    page = render_statement(statement(), balance_series(["Ann", "Bob", "Cy"], VIEWS, NETS),
                            club={"club": "The Bell"})
    text = Text.of(page)
    assert "script" not in text.tags and "link" not in text.tags and "img" not in text.tags
    # columns: dealt, paid to deal, loos (times), penalties (each offence named), tricks
    # (times), pools taken (times), net units, net money
    heads = re.findall(r'<th scope="col" class="num">([^<]+)', page)
    assert heads[:4] == ["Deals dealt", "Paid to deal", "Loos ", "Penalties"]
    assert row_of(page, "Ann") == "Ann 1 \u22123 \u22123 (1) — +6 (2) — 0 0.00 GBP"
    assert row_of(page, "Bob") == \
        "Bob 1 \u22123 — \u22126 revoke \u22126 — +3 (1) \u22126 \u22121.50 GBP"
    assert row_of(page, "Cy") == "Cy 0 — \u22123 (1) — +3 (1) — 0 0.00 GBP"
    assert "The Bell" in text.text and "1 counter = 0.25 GBP" in text.text
    assert "Provisional" in text.text and "version 23" in text.text
    assert "Bob pays pool 6 counters (1.50 GBP)" in text.text
    assert "Bob owes 6 (1.50 GBP): paid 9 (paid to deal 3, penalty: revoke 6); " \
           "received 3 (pools taken 3)." in text.text
    assert "Left in the pool: 0; owed to the next deal: 6." in text.text
    assert "The players' nets plus the pools make 0" in text.text
    assert "ab" * 32 in text.text
    assert page.count('class="series s') == 6  # three lines and three legend samples
    assert "Where each figure comes from" not in page  # no trail given


def test_the_charts_figures_list_every_balance_signed_point_by_point():
    # deal 1: Ann paid to deal (3) and a single loo (3), Bob took the pool (3), Cy a single
    # loo (3); deal 2: Bob paid to deal (3), Ann took two tricks (+6), Cy one (+3); then the
    # nets put Bob at -3: an end point
    page = render_statement(statement(), balance_series(["Ann", "Bob", "Cy"], VIEWS, NETS))
    table = page.split("The chart's figures")[1].split("</table>")[0]
    rows = [Text.of(r).text.strip() for r in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
    assert rows == ["Deal Ann Bob Cy", "start 0 0 0", "1 \u22126 +3 \u22123", "2 0 0 0",
                    "end 0 \u22123 0"]


def test_a_final_statement_says_so_and_money_follows_the_currency():
    page = render_statement(statement(status="ended", settlement={
        "final": True, "provisional": False, "transfers": []}, currency="JPY",
        money_per_unit_minor=100))
    text = Text.of(page).text
    assert "Final" in text and "Provisional" not in text
    assert "Nobody owes anybody anything." in text
    assert money(-150, "GBP") == "\u22121.50 GBP" and money(1234567, "JPY") == "1,234,567 JPY"
    assert money(5, "KWD") == "0.005 KWD" and money(1250, "units", sign=True) == "+1,250 units"
    assert signed(-3) == "\u22123" and signed(0) == "0"


def test_every_name_on_the_statement_is_escaped():
    s = statement(name=EVIL)
    s["players"][0]["player"] = EVIL
    s["settlement"]["transfers"][0]["to"] = EVIL
    page = render_statement(s, {"players": [EVIL], "points": [
        {"label": "start", "deal_no": 0, "balances": {EVIL: 0}}], "counts": {}},
        club={"club": EVIL})
    assert "<script>" not in page and "script" not in Text.of(page).tags
    assert page.count("&lt;script&gt;") >= 5


EXPLAIN = {
    "session_id": "s1", "version": 23, "as_of": None,
    "figures": [
        {"account": "Bob", "kind": "player", "net_units": -6,
         "categories": {"deal": -3, "penalty:revoke": -6, "pool_taken": 3},
         "postings": [
             {"version": 2, "position": 40, "event_type": "DealStarted",
              "recorded_at": "2026-11-22T18:01:02.123456Z", "actor": "Dan", "deal_no": 1,
              "from": "Bob", "to": "pool", "amount_units": 3, "signed_units": -3,
              "category": "deal", "reason": "deal", "offence": None,
              "rule": {"preset": "baxter-wray", "parameter": "deal_price = 3",
                       "law": "the dealer pays the stake", "source": "Baxter-Wray p. 16",
                       "docs": "docs/rules.md §5.1"}},
             {"version": 9, "position": 77, "event_type": "PenaltyImposed",
              "recorded_at": "2026-11-22T18:05:00Z", "actor": "Dan", "deal_no": 2,
              "from": "Bob", "to": "next_pool", "amount_units": 6, "signed_units": -6,
              "category": "penalty:revoke", "reason": "penalty", "offence": "revoke",
              "rule": {"preset": "baxter-wray", "parameter": "revoke = loo",
                       "law": f"a revoke pays a loo {EVIL}", "source": "Baxter-Wray p. 24",
                       "docs": "docs/rules.md §7"}},
             {"version": 5, "position": 60, "event_type": "DealSettled",
              "recorded_at": "2026-11-22T18:02:00Z", "actor": "Dan", "deal_no": 1,
              "from": "pool", "to": "Bob", "amount_units": 3, "signed_units": 3,
              "category": "pool_taken", "reason": "pool_taken", "offence": None,
              "rule": None}]},
        {"account": "next_pool", "kind": "next_pool", "net_units": 6,
         "categories": {"penalty:revoke": 6}, "postings": []},
    ]}


def test_each_players_line_expands_to_the_postings_that_make_up_his_figure_per_rule():
    page = render_statement(statement(), explain=EXPLAIN)
    found = re.search(r'<details id="(explain-\d+)" data-account="Bob"[^>]*>(.*?)</details>',
                      page, re.S)
    assert found, "Bob's line has no trail"
    anchor, trail = found.groups()
    assert f'<a href="#{anchor}">Bob</a>' in page  # his row in the table links to it
    text = Text.of(trail).text
    assert "Bob: \u22126 counters" in text and "3 postings" in text
    assert "penalty: revoke \u22126" in text
    assert "Bob → next_pool" in text and "v9 PenaltyImposed" not in text
    assert "a revoke pays a loo" in text and "Baxter-Wray p. 24; docs/rules.md §7" in text
    assert "[baxter-wray: revoke = loo]" in text
    # the trail's postings sum to the figure, and the total row says so
    rows = re.findall(r'<td>[^<]*→[^<]*</td>\s*<td class="num">([^<]+)</td>', trail)
    assert len(rows) == 3
    assert sum(int(v.replace("\u2212", "-")) for v in rows) == -6
    assert "Total \u22126" in text
    assert "<script>" not in page
    assert 'data-account="next_pool" data-kind="next_pool"' in page
    assert "GET /sessions/s1/explain" in page  # where every posting is, one by one


def test_a_long_sessions_postings_are_summed_per_rule_on_the_page():
    """Bob dealt deals 1, 3 and 7 (3 units each) and took the pool of deal 3 (15 units): two
    rows, not four, each with its deals, its count and its sum; the total is still his net."""
    [deal, _penalty, taken] = EXPLAIN["figures"][0]["postings"]
    dealt = [{**deal, "deal_no": n, "version": 10 * n} for n in (1, 3, 7)]
    postings = [*dealt, {**taken, "deal_no": 3, "amount_units": 15, "signed_units": 15}]
    trail = {**EXPLAIN, "figures": [{"account": "Bob", "kind": "player", "net_units": 6,
                                     "categories": {"deal": -9, "pool_taken": 15},
                                     "postings": postings}]}
    page = render_statement(statement(), explain=trail)
    body = re.search(r'data-account="Bob"[^>]*>(.*?)</details>', page, re.S).group(1)
    rows = [Text.of(r).text.strip() for r in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>")[1]
                                                 .split("</tbody>")[0], re.S)]
    assert len(rows) == 2, rows
    assert rows[0].startswith("1\u20137 (3 deals) 3 Bob → pool \u22129")
    assert rows[1].startswith("3 1 pool → Bob +15")
    assert "(4 postings)" in Text.of(body).text and "Total +6" in Text.of(body).text


STANDINGS = {"members": [
    {"member_id": "m1", "name": "Ann", "guest": False, "sessions": 12, "deals_dealt": 40,
     "net_units": 57, "net_minor": {"GBP": 1425}, "loos": 9, "loo_units": 41, "penalties": 1,
     "penalty_units": 6},
    {"member_id": "m2", "name": EVIL, "guest": True, "sessions": 1, "deals_dealt": 3,
     "net_units": -57, "net_minor": {"GBP": -1425}, "loos": 4, "loo_units": 18,
     "penalties": 0, "penalty_units": 0},
]}
DEBTS = {"debts": [
    {"member_id": "m2", "name": EVIL, "currency": "GBP", "amount_minor": 1425,
     "session_id": "s1", "session_name": "Thursday at the Bell",
     "since": "2026-10-01T22:10:00Z"},
    {"member_id": "m3", "name": "Cy", "currency": "units", "amount_minor": 12,
     "session_id": "s2", "session_name": "Counters only", "since": "2026-11-02T21:00:00Z"},
], "totals": {"GBP": 1425, "units": 12}}


def test_the_club_page_shows_the_standings_and_the_open_debts_oldest_first():
    page = render_club_page({"club_id": "c1", "club": "The Bell"}, STANDINGS, DEBTS)
    text = Text.of(page)
    assert "script" not in text.tags and "<script>" not in page
    assert "&lt;script&gt;" in page
    ann = re.search(r'<tr data-member-id="m1">(.*?)</tr>', page, re.S).group(1)
    assert re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", ann)).strip() == \
        "Ann 12 40 +14.25 GBP 9 (41) 1 (6)"  # money per currency: no sum of units
    assert "(guest)" in text.text and "Total 0.00 GBP" in text.text
    assert text.text.index("14.25 GBP Thursday at the Bell 2026-10-01") < \
        text.text.index("12 units Counters only 2026-11-02")
    assert "Total, GBP 14.25 GBP" in text.text and "Total, units 12 units" in text.text


def test_an_empty_club_page_says_so():
    text = Text.of(render_club_page({"club": "The Bell"}, {"members": []},
                                    {"debts": [], "totals": {}})).text
    assert "No session has ended yet." in text and "Nobody owes the club anything." in text
    assert "The club owes nobody anything." in text


def test_the_club_page_shows_what_the_club_owes_beside_the_debts():
    payables = {"payables": [
        {"member_id": "m1", "name": "Ann", "currency": "GBP", "amount_minor": 250,
         "session_id": None, "session_name": None, "kind": "payment", "seq": 7,
         "since": "2026-11-03T20:00:00Z"}], "totals": {"GBP": 250}}
    page = render_club_page({"club": "The Bell"}, STANDINGS, DEBTS, payables)
    text = Text.of(page).text
    assert "What the club owes, oldest first" in text
    assert "Ann 2.50 GBP entry 7 2026-11-03" in re.sub(r"\s+", " ", text)
    assert 'data-payable-total="GBP">2.50 GBP' in page and "Net, units" not in page
