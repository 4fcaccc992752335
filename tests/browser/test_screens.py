"""Every screen of the tablet at two sizes, a small tablet upright (600x960) and a tablet held
sideways (1024x768), light and dark: axe-core finds no serious or critical violation, every
control is on the screen, at least 44 px and not covered, nothing is requested from another
origin and the Content-Security-Policy refuses nothing.

Screenshots go to the test's temporary folder; with LOO_SCREENSHOTS=1 to docs/screenshots/
(shown in docs/tablet.md):

    LOO_SCREENSHOTS=1 LOO_TEST_TIER=all .venv/bin/python -m pytest tests/browser/test_screens.py
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.clubs.service import Clubs
from ledger.clubs.tablets import Tablets

from .tablet import (
    SINGLE,
    SIZES,
    TIMEOUT,
    check,
    choose_mode,
    deal,
    declare,
    everyone_plays,
    open_session,
    pick,
    play,
    prompt,
    sign_in,
    tricks,
    turn_up_single,
    wait_saved,
)


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_main_screens(new_device, server, axe_source, shots, orientation):
    viewport = SIZES[orientation]
    club = server.club()
    sid = open_session(server, club, name="Thursday at the Bell", currency="GBP",
                       money_per_unit_minor=10)
    open_session(server, club, name="Friday at the Crown")
    device = new_device(viewport)
    foreign: list[str] = []
    device.page.on("request", lambda r: None if r.url.startswith(server.url)
                   else foreign.append(r.url))
    found: list[str] = []
    page = device.page
    page.goto(f"{server.url}/table")
    expect(page.get_by_test_id("pair")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"sign-in-{orientation}", shots, found, layout=False)
    # a dealer's token with no session: the club's open sessions to pick from
    page.get_by_text("Or use a dealer token").click()
    page.locator("#token").fill(club.tokens["dealer"])
    page.get_by_test_id("sign-in").click()
    expect(page.locator("[data-session]")).to_have_count(2, timeout=TIMEOUT)
    check(device, axe_source, f"sessions-{orientation}", shots, found, layout=False)
    page.locator(f'[data-session="{sid}"]').click()
    turn_up_single(device, "A", *SINGLE)
    wait_saved(device)
    expect(prompt(device)).to_have_text("B deals: tap the card turned up", timeout=TIMEOUT)
    check(device, axe_source, f"deal-{orientation}", shots, found)
    pick(device, "3C")
    declare(device, ("C", "play"), ("D", "play"))
    wait_saved(device)
    check(device, axe_source, f"declare-{orientation}", shots, found)
    page.get_by_test_id("penalty").click()
    page.locator('[data-offender="D"]').click()
    expect(page.locator('button[data-offence="looked-at-miss"]')).to_be_visible()
    check(device, axe_source, f"penalty-{orientation}", shots, found)
    page.locator('button[data-offence="looked-at-miss"]').click()
    expect(page.get_by_test_id("penalty-dialog")).to_contain_text("Charge D", timeout=TIMEOUT)
    page.get_by_test_id("penalty-cancel").click()
    declare(device, ("E", "play"), ("A", "throw_up"), ("B", "throw_up"))
    choose_mode(device, "cards")
    play(device, ("C", "AH"), ("D", "5H"))
    wait_saved(device)
    check(device, axe_source, f"cards-{orientation}", shots, found)
    play(device, ("E", "6H"), ("C", "KS"), ("D", "2C"), ("E", "7S"), ("D", "8D"), ("E", "9D"),
         ("C", "QD"))
    wait_saved(device)
    expect(page.get_by_test_id("summary")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"summary-{orientation}", shots, found)
    deal(device, "C", "KD")
    everyone_plays(device)
    choose_mode(device, "quick")
    wait_saved(device)
    check(device, axe_source, f"quick-{orientation}", shots, found)
    tricks(device, "D", "E", "D")
    wait_saved(device)

    # a second tablet logs first: the conflict, then an entry the ledger refuses
    token = Clubs(server.engine).create_token(club.club_id, club.members["dealer"], "dealer",
                                              "Tablet 2")["token"]
    other = new_device(viewport)
    sign_in(other, token, sid)
    device.context.set_offline(True)
    deal(device, "D", "2S")
    declare(device, ("E", "play"), ("A", "play"))
    deal(other, "D", "4S")
    wait_saved(other)
    device.context.set_offline(False)
    expect(page.get_by_test_id("conflict")).to_contain_text("Tablet 2 logged D deals, 4♠",
                                                            timeout=TIMEOUT)
    check(device, axe_source, f"conflict-{orientation}", shots, found)
    page.get_by_test_id("mine-after").click()
    expect(page.get_by_test_id("refused")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"refused-{orientation}", shots, found)
    page.get_by_test_id("drop").click()
    wait_saved(device)

    # the treasurer's live view, a pairing code on it
    live = new_device(viewport)
    live.page.on("request", lambda r: None if r.url.startswith(server.url)
                 else foreign.append(r.url))
    live.page.goto(f"{server.url}/table/live#s={sid}")
    live.page.locator("#token").fill(club.tokens["treasurer"])
    live.page.get_by_role("button", name="Show the table").click()
    expect(live.page.get_by_test_id("pool")).to_be_visible(timeout=TIMEOUT)
    # the code is for the member who will log at the tablet: nothing offered before he is named
    expect(live.page.get_by_test_id("pair-tablet")).to_be_disabled(timeout=TIMEOUT)
    live.page.get_by_test_id("pair-dealer").select_option(label="dealer")
    live.page.get_by_test_id("pair-tablet").click()
    expect(live.page.get_by_test_id("pairing-qr")).to_be_visible(timeout=TIMEOUT)
    check(live, axe_source, f"live-{orientation}", shots, found, layout=False)
    assert not found, "\n".join(found)
    assert not foreign, foreign
    csp = [m for m in device.console + live.console if "Content Security Policy" in m]
    assert not csp, csp
    errors = [m for m in device.console + live.console + other.console
              if m.startswith("pageerror")]
    assert not errors, errors


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_five_card_screens(new_device, server, axe_source, shots, orientation):
    """Five-card loo: the exchange offered at the player's turn to declare, the exchange (Pam
    marked on the picker), a flush being entered, and the end of a deal settled by the flush."""
    viewport = SIZES[orientation]
    club = server.club()
    sid = open_session(server, club, name="Five-card at the Bell", players=["A", "B", "C", "D"],
                       rules={"variant": "five-card"})
    device = new_device(viewport)
    page = device.page
    found: list[str] = []
    code = Tablets(server.engine).create_code(club.club_id, sid,
                                              created_by=club.members["treasurer"],
                                              member=club.members["dealer"])["code"]
    page.goto(f"{server.url}/table#pair={code}")
    deal(device, "A", "2S")
    declare(device, ("B", "play"), ("C", "play"))
    wait_saved(device)
    # Baxter-Wray p. 27: C exchanges at his turn to declare, before D declares
    expect(page.get_by_test_id("exchange")).to_have_text("C exchanges…")
    check(device, axe_source, f"exchange-turn-{orientation}", shots, found)
    page.locator('button[data-exchange="C"]').click()
    pick(device, "3D")
    pick(device, "4D")
    expect(page.get_by_test_id("exchange-next")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"exchange-{orientation}", shots, found)
    page.get_by_test_id("exchange-next").click()
    pick(device, "KD")
    pick(device, "QD")
    wait_saved(device)
    declare(device, ("D", "throw_up"), ("A", "play"))
    wait_saved(device)
    page.get_by_test_id("flush").click()
    page.locator('button[data-flusher="B"]').click()
    for card in ("2H", "5H", "9H", "QH"):
        pick(device, card)
    check(device, axe_source, f"flush-{orientation}", shots, found)
    pick(device, "KH")
    page.get_by_test_id("flush-log").click()
    wait_saved(device)
    expect(page.get_by_test_id("flush-payments")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"flush-summary-{orientation}", shots, found)
    assert not found, "\n".join(found)
    errors = [m for m in device.console if m.startswith("pageerror") or "Content Security" in m]
    assert not errors, errors


def test_dark_mode_and_the_four_colour_pack_at_the_card_picker(new_device, server, axe_source,
                                                               shots):
    club = server.club()
    sid = open_session(server, club, name="Thursday at the Bell")
    device = new_device(SIZES["portrait"], dark=True)
    sign_in(device, club.tokens["dealer"], sid)
    assert device.page.evaluate(
        "() => matchMedia('(prefers-color-scheme: dark)').matches") is True
    background = device.page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 20, 16)", background
    turn_up_single(device, "A", *SINGLE)
    wait_saved(device)
    found: list[str] = []
    check(device, axe_source, "deal-portrait-dark", shots, found)
    device.page.get_by_test_id("menu").click()
    device.page.get_by_test_id("four-colour").click()
    check(device, axe_source, "deal-portrait-dark-four-colour", shots, found)
    assert not found, "\n".join(found)


def test_the_docs_load_swagger_ui_from_the_app_itself(new_device, server):
    device = new_device(SIZES["landscape"])
    foreign: list[str] = []
    device.page.on("request", lambda r: None if r.url.startswith(server.url)
                   else foreign.append(r.url))
    device.page.goto(f"{server.url}/docs")
    expect(device.page.locator(".swagger-ui .info .title")).to_contain_text("Lanterloo",
                                                                             timeout=TIMEOUT)
    expect(device.page.get_by_text("/sessions/{session_id}/offences").first).to_be_visible()
    assert not foreign, foreign
    csp = [m for m in device.console if "Content Security Policy" in m]
    assert not csp, csp
