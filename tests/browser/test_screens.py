"""The main screens at tablet size, portrait (800x1280) and landscape (1280x800), light and
dark: axe-core finds no serious or critical violation, every control is a 48 px touch target,
nothing is requested from another origin and the Content-Security-Policy refuses nothing.

Screenshots go to the test's temporary folder; with LOO_SCREENSHOTS=1 to docs/screenshots/
(shown in docs/tablet.md):

    LOO_SCREENSHOTS=1 LOO_TEST_TIER=all .venv/bin/python -m pytest tests/browser/test_screens.py
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import LANDSCAPE, PORTRAIT
from .tablet import (
    SINGLE,
    TIMEOUT,
    deal,
    declare,
    open_session,
    pick,
    play,
    sign_in,
    tricks,
    turn_up_single,
    wait_saved,
)

MIN_TARGET = 48


def check(device, axe_source: str, name: str, shots: Path, found: list[str]) -> None:
    page = device.page
    page.wait_for_timeout(150)  # let the last render settle
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source)  # through the DevTools protocol: the page's CSP stays on
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
          .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '));
    }""")
    found.extend(f"{name}: {v}" for v in result)
    small = page.evaluate(f"""() => Array.from(document.querySelectorAll(
        'button, a.btn, input, textarea, summary')).filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim().slice(0, 20) || e.id, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < {MIN_TARGET} || r.height < {MIN_TARGET})
        .map(([t, r]) => t + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")
    found.extend(f"{name}: small target {s}" for s in small)
    page.screenshot(path=str(shots / f"{name}.png"))


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_main_screens(new_device, server, axe_source, shots, orientation):
    viewport = PORTRAIT if orientation == "portrait" else LANDSCAPE
    club = server.club()
    sid = open_session(server, club, name="Thursday at the Bell")
    device = new_device(viewport)
    foreign: list[str] = []
    device.page.on("request", lambda r: None if r.url.startswith(server.url)
                   else foreign.append(r.url))
    found: list[str] = []
    page = device.page
    page.goto(f"{server.url}/table#s={sid}")
    expect(page.get_by_test_id("sign-in")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"sign-in-{orientation}", shots, found)
    sign_in(device, club.tokens["dealer"], sid)
    turn_up_single(device, "A", *SINGLE)
    wait_saved(device)
    expect(page.locator("h2.prompt")).to_have_text("B deals", timeout=TIMEOUT)
    check(device, axe_source, f"deal-{orientation}", shots, found)
    pick(device, "3C")
    declare(device, ("C", "play"), ("D", "play"))
    wait_saved(device)
    check(device, axe_source, f"declare-{orientation}", shots, found)
    page.get_by_test_id("penalty").click()
    page.get_by_role("button", name="D", exact=True).click()
    page.locator('button[data-offence="looked-at-miss"]').click()
    expect(page.locator("section.penalty h2")).to_contain_text("Charge D", timeout=TIMEOUT)
    check(device, axe_source, f"penalty-{orientation}", shots, found)
    page.get_by_role("button", name="Cancel").click()
    declare(device, ("E", "play"), ("A", "throw_up"), ("B", "throw_up"))
    page.get_by_role("button", name="Card by card").click()
    play(device, ("C", "AH"), ("D", "5H"))
    wait_saved(device)
    check(device, axe_source, f"cards-{orientation}", shots, found)
    play(device, ("E", "6H"), ("C", "KS"), ("D", "2C"), ("E", "7S"), ("D", "8D"), ("E", "9D"),
         ("C", "QD"))
    wait_saved(device)
    expect(page.get_by_test_id("summary")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"summary-{orientation}", shots, found)
    deal(device, "C", "KD")
    declare(device, ("D", "play"), ("E", "play"), ("A", "throw_up"), ("B", "throw_up"),
            ("C", "throw_up"))
    page.get_by_role("button", name="Quick: tap the winner").click()
    wait_saved(device)
    check(device, axe_source, f"quick-{orientation}", shots, found)
    tricks(device, "D", "E", "D")
    wait_saved(device)
    live = new_device(viewport)
    live.page.on("request", lambda r: None if r.url.startswith(server.url)
                 else foreign.append(r.url))
    live.page.goto(f"{server.url}/table/live#s={sid}")
    live.page.locator("#token").fill(club.tokens["treasurer"])
    live.page.get_by_role("button", name="Show the table").click()
    expect(live.page.get_by_test_id("pool")).to_be_visible(timeout=TIMEOUT)
    check(live, axe_source, f"live-{orientation}", shots, found)
    assert not found, "\n".join(found)
    assert not foreign, foreign
    csp = [m for m in device.console + live.console if "Content Security Policy" in m]
    assert not csp, csp
    errors = [m for m in device.console + live.console if m.startswith("pageerror")]
    assert not errors, errors


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_the_five_card_screens(new_device, server, axe_source, shots, orientation):
    """Five-card loo: the exchange (Pam marked on the picker), a flush being entered, and the
    end of a deal settled by the flush."""
    viewport = PORTRAIT if orientation == "portrait" else LANDSCAPE
    club = server.club()
    sid = open_session(server, club, name="Five-card at the Bell", players=["A", "B", "C", "D"],
                       rules={"variant": "five-card"})
    device = new_device(viewport)
    page = device.page
    found: list[str] = []
    sign_in(device, club.tokens["dealer"], sid)
    deal(device, "A", "2S")
    declare(device, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    wait_saved(device)
    page.locator('button[data-exchange="C"]').click()
    pick(device, "3D")
    pick(device, "4D")
    expect(page.get_by_test_id("exchange-next")).to_be_visible(timeout=TIMEOUT)
    check(device, axe_source, f"exchange-{orientation}", shots, found)
    page.get_by_test_id("exchange-next").click()
    pick(device, "KD")
    pick(device, "QD")
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


def test_dark_mode_at_the_card_picker(new_device, server, axe_source, shots):
    club = server.club()
    sid = open_session(server, club, name="Thursday at the Bell")
    device = new_device(PORTRAIT, dark=True)
    sign_in(device, club.tokens["dealer"], sid)
    assert device.page.evaluate(
        "() => matchMedia('(prefers-color-scheme: dark)').matches") is True
    background = device.page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 20, 16)", background
    turn_up_single(device, "A", *SINGLE)
    wait_saved(device)
    found: list[str] = []
    check(device, axe_source, "deal-portrait-dark", shots, found)
    assert not found, "\n".join(found)


def test_the_docs_load_swagger_ui_from_the_app_itself(new_device, server):
    device = new_device(LANDSCAPE)
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
