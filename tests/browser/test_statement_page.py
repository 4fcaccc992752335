"""The printable statement in real Chromium, opened as a treasurer opens it: the page shell
/table/statement#s=<id> fetches GET /sessions/<id>/statement?format=html with the token the
device keeps (a navigation cannot send it) and shows the page, which itself runs no script.

Checked: the figures shown are the JSON statement's (nets, transfers, the chain head); the SVG
chart has one line per player; printed (print emulation, A4) a normal session fits on one
page and the shell's buttons are not printed; axe-core finds no serious or critical
violation, on screen, in the dark and in print; nothing is requested from another origin and
the Content-Security-Policy refuses nothing. With LOO_SCREENSHOTS=1 the screenshots go to
docs/screenshots/ (shown in docs/statement.md):

    LOO_SCREENSHOTS=1 LOO_TEST_TIER=all .venv/bin/python -m pytest \
        tests/browser/test_statement_page.py
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from api.pages.printable import render_club_page
from ledger.clubs.service import Actor
from ledger.writes import WriteRequest
from tests.support.sessions import RandomChooser, SessionShape, play_session

from .conftest import LANDSCAPE, PORTRAIT, Server
from .tablet import TIMEOUT, ledger_of

# A normal evening: five players, about twenty deals, a penalty or two, ended by the treasurer.
SEED, DEALS = 23, 20
# A4 less the page's margins (statement.css @page), in CSS pixels: the print screenshot's size
A4_PRINTABLE = {"width": 718, "height": 1039}


def played_session(server: Server, club: Any = None, seed: int = SEED) -> tuple[Any, str]:
    """A club (a new one unless given) and a session of it, played to its end by the session
    generator."""
    played = play_session(RandomChooser(seed), deals=DEALS, shape=SessionShape(
        preset="baxter-wray", p_join=0.0, p_withdraw=0.0, p_odd_spelling=0.0,
        p_penalty=0.03, p_overrides=0.0))
    club = club or server.club()
    ledger = ledger_of(server, club)
    actor = Actor("treasurer", club.members["treasurer"])
    sid = ledger.open_session(played.opening, WriteRequest(actor),
                              guests=list(played.opening.players)).body["session_id"]
    for step in played.steps[1:]:
        if step.accepted:
            ledger.append(sid, [step.command], WriteRequest(actor))
    return club, str(sid)


def serious_violations(page: Any, axe_source: str) -> list[str]:
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source)  # through the DevTools protocol: the page's CSP stays on
    return page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
          .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '));
    }""")


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def open_statement(new_device: Any, server: Server, token: str, sid: str, *,
                   viewport: dict[str, int], dark: bool = False) -> tuple[Any, list[str]]:
    device = new_device(viewport, dark=dark)
    foreign: list[str] = []
    device.page.on("request", lambda r: None if r.url.startswith(server.url)
                   else foreign.append(r.url))
    page = device.page
    page.goto(f"{server.url}/table/statement#s={sid}")
    page.locator("#token").fill(token)
    page.get_by_test_id("show").click()
    expect(page.locator("main.sheet")).to_be_visible(timeout=TIMEOUT)
    return device, foreign


def test_the_statement_page_shows_the_ledgers_figures_and_prints_on_one_page(
        new_device, server, axe_source, shots):
    club, sid = played_session(server)
    data = ledger_of(server, club).statement(sid)
    assert data["status"] == "ended" and data["deals"] >= 15
    device, foreign = open_statement(new_device, server, club.tokens["treasurer"], sid,
                                     viewport=LANDSCAPE)
    page = device.page
    sheet = page.locator("main.sheet")
    # the nets, player by player, as the JSON statement has them
    shown = {row.get_attribute("data-player"): int(
        row.locator("[data-net-units]").get_attribute("data-net-units"))
        for row in sheet.locator("tr[data-player]").all()}
    assert shown == {p["player"]: p["net_units"] for p in data["players"]}
    texts = {row.get_attribute("data-player"): row.locator("[data-net-units]").inner_text()
             for row in sheet.locator("tr[data-player]").all()}
    assert texts == {p["player"]: (f"+{p['net_units']}" if p["net_units"] > 0 else
                                   str(p["net_units"]).replace("-", "\u2212"))
                     for p in data["players"]}
    # who pays whom, in the statement's order
    transfers = [li.inner_text().split(" (")[0] for li in sheet.get_by_test_id("transfers")
                 .locator("li").all()]
    assert transfers and transfers == [
        f"{t['from']} pays {t['to']} {t['amount_units']} counter"
        f"{'' if t['amount_units'] == 1 else 's'}" for t in data["settlement"]["transfers"]]
    # the log it was drawn from
    assert sheet.get_by_test_id("chain-head").inner_text() == data["log"]["chain_head"]
    assert sheet.get_by_test_id("log-version").inner_text() == str(data["log"]["version"])
    # the chart: server-drawn SVG, one line per player
    chart = sheet.locator("svg.chart")
    expect(chart).to_be_visible()
    players = [p["player"] for p in data["players"]]
    assert [g.get_attribute("data-player") for g in
            chart.locator("g.series[data-player]").all()] == players
    assert chart.locator("g.series[data-player] polyline").count() == len(players)
    assert chart.locator("g.legend text").all_text_contents() == players
    # every player's link and every trail's summary is a 44 px touch target on a screen
    small = page.evaluate("""() => Array.from(document.querySelectorAll(
        'main.sheet a, main.sheet summary')).filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([t, r]) => t + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")
    assert small == [], small
    assert sheet.locator("th a").count() == len(players)
    assert serious_violations(page, axe_source) == []
    page.screenshot(path=str(shots / "statement-screen.png"), full_page=True)

    # Print: the shell's button calls the browser's print; what prints is the sheet alone
    page.evaluate("() => { window.printed = 0; window.print = () => { window.printed++; }; }")
    page.get_by_test_id("print").click()
    assert page.evaluate("() => window.printed") == 1
    page.emulate_media(media="print")
    page.set_viewport_size(A4_PRINTABLE)
    expect(page.get_by_test_id("print")).to_be_hidden()
    expect(sheet.locator("details.screen-only").first).to_be_hidden()
    assert serious_violations(page, axe_source) == []
    page.screenshot(path=str(shots / "statement-print.png"), full_page=True)
    pdf = page.pdf(format="A4", print_background=False)
    assert pdf_pages(pdf) == 1, f"{pdf_pages(pdf)} pages"

    assert not foreign, foreign
    refused = [m for m in device.console if "Content Security Policy" in m
               or m.startswith("pageerror")]
    assert not refused, refused


def test_the_statement_in_the_dark_and_the_standalone_page_with_no_script(
        new_device, server, axe_source, shots):
    club, sid = played_session(server)
    device, foreign = open_statement(new_device, server, club.tokens["auditor"], sid,
                                     viewport=PORTRAIT, dark=True)
    page = device.page
    background = page.evaluate(
        "() => getComputedStyle(document.querySelector('main.sheet')).backgroundColor")
    assert background == "rgb(13, 20, 16)", background
    assert serious_violations(page, axe_source) == []
    page.screenshot(path=str(shots / "statement-dark.png"), full_page=False)
    # The page the API serves is whole without the shell: JavaScript off, the same figures,
    # its own inline style allowed by the policy's hash (nothing refused, nothing fetched).
    plain = new_device(LANDSCAPE)
    plain.page.context.set_extra_http_headers(
        {"Authorization": f"Bearer {club.tokens['treasurer']}"})
    requests: list[str] = []
    plain.page.on("request", lambda r: requests.append(r.url))
    plain.page.goto(f"{server.url}/sessions/{sid}/statement?format=html")
    expect(plain.page.locator("main.sheet svg.chart")).to_be_visible(timeout=TIMEOUT)
    assert plain.page.evaluate("() => document.scripts.length") == 0
    weight = plain.page.evaluate(
        "() => getComputedStyle(document.querySelector('th')).fontWeight")
    assert weight == "700"  # the inline stylesheet applied
    assert requests == [f"{server.url}/sessions/{sid}/statement?format=html"]
    assert not [m for m in plain.console if "Content Security Policy" in m]
    assert not foreign, foreign


def test_the_shell_asks_again_for_a_token_the_statement_refuses(new_device, server):
    club, sid = played_session(server)
    device = new_device(LANDSCAPE)
    page = device.page
    page.goto(f"{server.url}/table/statement#s={sid}")
    page.locator("#token").fill(club.tokens["dealer"])
    page.get_by_test_id("show").click()
    expect(page.get_by_role("alert")).to_have_text(
        "The statement needs an admin's, treasurer's or auditor's token.", timeout=TIMEOUT)
    page.locator("#token").fill(club.tokens["treasurer"])
    page.get_by_test_id("show").click()
    expect(page.locator("main.sheet")).to_be_visible(timeout=TIMEOUT)


def test_the_club_page_reads_and_prints_in_chromium(new_device, axe_source, shots):
    """The club's books (api/pages/printable.py render_club_page) from the shapes of GET /standings
    and GET /debts, here hand-made: readable, accessible and one printed page."""
    standings = {"members": [
        {"member_id": f"m{i}", "name": name, "guest": name == "Hal", "sessions": s,
         "deals_dealt": d, "net_units": n, "net_minor": {"GBP": n * 5}, "loos": lo,
         "loo_units": lo * 6, "penalties": pe, "penalty_units": pe * 6}
        for i, (name, s, d, n, lo, pe) in enumerate([
            ("Ada", 12, 41, 57, 9, 1), ("Ben", 11, 37, -23, 14, 0), ("Cat", 12, 40, 18, 8, 2),
            ("Dan", 9, 30, -40, 12, 1), ("Eve", 10, 35, -15, 11, 0), ("Hal", 2, 6, 3, 1, 0)])]}
    debts = {"debts": [
        {"member_id": "m3", "name": "Dan", "currency": "GBP", "amount_minor": 120,
         "session_id": "s7", "session_name": "Thursday at the Bell",
         "since": "2026-10-29T22:40:00Z"},
        {"member_id": "m1", "name": "Ben", "currency": "GBP", "amount_minor": 85,
         "session_id": "s9", "session_name": "Thursday at the Bell",
         "since": "2026-11-12T22:15:00Z"}], "totals": {"GBP": 205}}
    device = new_device(LANDSCAPE)
    page = device.page
    page.set_content(render_club_page({"club": "The Bell loo club"}, standings, debts))
    rows = page.locator("[data-testid=standings] tbody tr")
    assert rows.count() == 6
    assert rows.first.inner_text().split("\t")[:4] == ["Ada", "12", "41", "+2.85 GBP"]
    assert page.locator("[data-total=GBP]").inner_text() == "2.05 GBP"
    assert serious_violations(page, axe_source) == []
    page.emulate_media(media="print")
    assert pdf_pages(page.pdf(format="A4")) == 1


def test_each_players_line_opens_on_postings_that_add_up_to_his_net(new_device, server):
    club, sid = played_session(server)
    data = ledger_of(server, club).statement(sid)
    device, _ = open_statement(new_device, server, club.tokens["auditor"], sid,
                               viewport=LANDSCAPE)
    page = device.page
    for player in data["players"]:
        trail = page.locator(f"details[data-kind=player][data-account='{player['player']}']")
        trail.locator("summary").click()
        cells = trail.locator("tbody tr td:nth-child(4)").all_inner_texts()
        assert cells, player["player"]
        assert sum(int(c.replace("\u2212", "-").replace("+", "")) for c in cells) \
            == player["net_units"]


def test_the_club_page_shows_the_books_standings_and_open_debts(new_device, server,
                                                               axe_source, shots):
    """/table/club fetches GET /standings?format=html with the device's token: the standings
    and the open debts of two real sessions and a payment, as the JSON reads have them."""
    from ledger.books.service import Books

    club, _ = played_session(server)
    played_session(server, club, seed=SEED + 1)
    books = Books(server.engine, club.club_id)
    first_debt = books.debts()["debts"][0]
    books.record_payment(payer=first_debt["member_id"], payee="club", amount_minor=1,
                         currency=first_debt["currency"], method="cash",
                         request=WriteRequest(Actor("treasurer", club.members["treasurer"])))
    standings, debts = books.standings(), books.debts()
    device = new_device(LANDSCAPE)
    page = device.page
    page.goto(f"{server.url}/table/club")
    page.locator("#token").fill(club.tokens["treasurer"])
    page.get_by_test_id("show").click()
    sheet = page.locator("main.sheet")
    expect(sheet).to_be_visible(timeout=TIMEOUT)
    shown = {row.get_attribute("data-member-id"): {
        cell.get_attribute("data-currency"): int(cell.get_attribute("data-net-minor"))
        for cell in row.locator("[data-net-minor]").all()}
        for row in sheet.locator("[data-testid=standings] tbody tr[data-member-id]").all()}
    assert shown == {m["member_id"]: m["net_minor"] for m in standings["members"]}
    owed = [int(cell.get_attribute("data-amount-minor")) for cell in
            sheet.locator("[data-testid=debts] [data-amount-minor]").all()]
    assert owed == [d["amount_minor"] for d in debts["debts"]]
    assert serious_violations(page, axe_source) == []
    page.screenshot(path=str(shots / "club-page.png"), full_page=True)


def test_the_shell_follows_a_change_of_session_in_its_address(new_device, server):
    club, first = played_session(server)
    _, second = played_session(server, club, seed=SEED + 1)
    heads = {sid: ledger_of(server, club).statement(sid)["log"]["chain_head"]
             for sid in (first, second)}
    device, _ = open_statement(new_device, server, club.tokens["treasurer"], first,
                               viewport=LANDSCAPE)
    page = device.page
    head = page.locator("main.sheet").get_by_test_id("chain-head")
    expect(head).to_have_text(heads[first], timeout=TIMEOUT)
    page.evaluate(f"() => {{ window.location.hash = 's={second}'; }}")
    expect(head).to_have_text(heads[second], timeout=TIMEOUT)
    # Refresh reads the address too: back to the first session, then Refresh
    page.evaluate(f"() => {{ history.replaceState(null, '', '#s={first}'); }}")
    page.get_by_role("button", name="Refresh").click()
    expect(head).to_have_text(heads[first], timeout=TIMEOUT)
