"""The tablet on every common size, both ways up (docs/tablet.md, "Every tablet"): at each step
of an evening every card and every control the dealer may tap is on the screen, at least
44 px, and the element at its own centre (nothing covers it); the page never scrolls during
play; and nothing the dealer taps moves between two taps of a deal.

One tablet for the module, resized for each viewport: each viewport plays the turn-up single,
a deal card by card (declared with "Everyone else plays", a penalty dialog opened on the way)
and a quick deal; and a five-card deal with the variants' strip and questions (the exchange at
the turn, a flush, who holds Pam). The matrix of results is printed at the end (`-s`)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .tablet import (
    SINGLE,
    TIMEOUT,
    VIEWPORTS,
    Steady,
    layout_problems,
    ledger_of,
    open_session,
    prompt,
    sign_in,
    wait_saved,
)
from .test_statement_page import serious_violations

RESULTS: dict[str, str] = {}


@pytest.fixture(scope="module")
def table(server, module_device):
    """A club and the module's tablet, signed in once (the token stays on the device)."""
    club = server.club()
    sid = open_session(server, club)
    sign_in(module_device, club.tokens["dealer"], sid)
    return club, module_device


@pytest.mark.parametrize("viewport", VIEWPORTS,
                         ids=[f"{v['width']}x{v['height']}" for v in VIEWPORTS])
def test_every_card_and_control_is_tappable_and_nothing_moves(server, table, viewport):
    club, device = table
    page = device.page
    page.set_viewport_size(viewport)
    sid = open_session(server, club, name=f"Layout {viewport['width']}x{viewport['height']}")
    # a query of its own: a new page load (a new fragment alone would not be one)
    page.goto(f"{server.url}/table?{sid}#s={sid}")
    problems: list[str] = []
    expect(prompt(device)).to_contain_text("A deals the turn-up single", timeout=TIMEOUT)
    problems += layout_problems(device, "the turn-up single", cards=52)
    steady = Steady(device)
    steady.tap(f"card:{SINGLE[0]}")
    for player, face_up in SINGLE[1].items():
        expect(prompt(device)).to_have_text(f"Face-up card dealt to {player}")
        steady.tap(f"card:{face_up}")
    steady.settle()

    # deal 2, card by card: C plays, then everyone else with the shortcut
    expect(prompt(device)).to_have_text("B deals: tap the card turned up", timeout=TIMEOUT)
    problems += layout_problems(device, "who deals", cards=52)
    steady.tap("card:3C")
    expect(prompt(device)).to_have_text("C declares", timeout=TIMEOUT)
    problems += layout_problems(device, "declarations")
    steady.tap("declaration:play")
    expect(prompt(device)).to_have_text("D declares", timeout=TIMEOUT)
    steady.settle()
    # the penalty dialog, over the screen: its choices are tappable too, and it moves nothing
    steady.tap("testid:penalty")
    expect(page.get_by_test_id("penalty-dialog")).to_contain_text("who offended?")
    problems += layout_problems(device, "the penalty dialog: who")
    steady.tap("offender:C")
    expect(page.get_by_test_id("penalty-dialog")).to_contain_text("which offence?")
    problems += layout_problems(device, "the penalty dialog: which offence")
    steady.tap("testid:penalty-cancel")
    expect(page.get_by_test_id("penalty-dialog")).to_have_count(0)
    steady.tap("testid:everyone-plays")
    expect(prompt(device)).to_contain_text("Trick 1", timeout=TIMEOUT)
    steady.tap("testid:mode-cards")
    problems += layout_problems(device, "card by card", cards=52)
    for player, played in (("C", "AH"), ("D", "5H"), ("E", "6H"), ("A", "7H"), ("B", "8H"),
                           ("C", "KS"), ("D", "2C"), ("E", "7S"), ("A", "4S"), ("B", "5S"),
                           ("D", "8D"), ("E", "9D"), ("A", "10D"), ("B", "JD"), ("C", "QD")):
        expect(prompt(device)).to_contain_text(f"{player} plays", timeout=TIMEOUT)
        steady.tap(f"card:{played}")
        if played == "5H":
            problems += layout_problems(device, "a trick under way", cards=52)
    steady.settle()

    # deal 3, quick: everyone plays, three winners
    expect(prompt(device)).to_have_text("C deals: tap the card turned up", timeout=TIMEOUT)
    problems += layout_problems(device, "the end of a deal", cards=52)
    steady.tap("card:KD")
    expect(prompt(device)).to_have_text("D declares", timeout=TIMEOUT)
    steady.tap("testid:everyone-plays")
    expect(prompt(device)).to_contain_text("Trick 1", timeout=TIMEOUT)
    steady.tap("testid:mode-quick")
    expect(prompt(device)).to_contain_text("who won it?", timeout=TIMEOUT)
    problems += layout_problems(device, "quick")
    for winner in ("D", "E", "D"):
        expect(prompt(device)).to_contain_text("who won it?", timeout=TIMEOUT)
        steady.tap(f"winner:{winner}")
    steady.settle()
    wait_saved(device)

    ledger = ledger_of(server, club)
    assert sorted(ledger.deal(sid, 2)["settlement"]["looed"]) == ["A", "B", "E"]
    assert ledger.deal(sid, 3)["settlement"]["outcome"] == "divided"
    name = f"{viewport['width']}x{viewport['height']}"
    RESULTS[name] = (f"{steady.taps} taps, {len(steady.moves)} moved, "
                     f"{len(problems)} layout problems")
    assert not problems and not steady.moves, "\n".join(problems + steady.moves)
    errors = [m for m in device.console if m.startswith("pageerror")]
    assert not errors, errors


VARIANT_RESULTS: dict[str, str] = {}


@pytest.mark.parametrize("viewport", VIEWPORTS,
                         ids=[f"{v['width']}x{v['height']}" for v in VIEWPORTS])
def test_the_variants_strip_and_questions_fit_and_hold_still(server, table, viewport):
    """Five-card loo at enquire-within, where each exchanges at his turn to declare and the
    holder of Pam pays no flush: the exchange offered at the turn, its counts and its cards
    (Cancel, then the count), a flush and the question who holds Pam; every card and control
    on the screen and steady between taps."""
    club, device = table
    page = device.page
    page.set_viewport_size(viewport)
    sid = open_session(server, club, players=["A", "B", "C", "D"], preset="enquire-within",
                       rules={"variant": "five-card"},
                       name=f"Five-card {viewport['width']}x{viewport['height']}")
    page.goto(f"{server.url}/table?{sid}#s={sid}")
    problems: list[str] = []
    expect(prompt(device)).to_have_text("A deals: tap the card turned up", timeout=TIMEOUT)
    steady = Steady(device)
    steady.tap("card:2S")
    expect(prompt(device)).to_have_text("B declares", timeout=TIMEOUT)
    steady.tap("declaration:play")
    expect(page.get_by_test_id("exchange")).to_have_text("B exchanges…", timeout=TIMEOUT)
    problems += layout_problems(device, "the exchange at B's turn")
    steady.tap("exchange:B")
    expect(prompt(device)).to_have_text("B exchanges: how many cards?")
    steady.tap("card:3D")
    expect(page.get_by_test_id("exchange-next")).to_be_visible()
    problems += layout_problems(device, "the exchange's cards", cards=52)
    steady.tap("testid:cancel")
    expect(prompt(device)).to_have_text("C declares")
    steady.tap("exchange:B")
    steady.tap("count:1")
    for player, choice in (("C", "play"), ("D", "throw_up"), ("A", "play")):
        expect(prompt(device)).to_have_text(f"{player} declares", timeout=TIMEOUT)
        steady.tap(f"declaration:{choice}")
    steady.settle()
    steady.tap("testid:flush")
    expect(prompt(device)).to_have_text("Who shows a flush?")
    problems += layout_problems(device, "whose flush")
    steady.tap("flusher:C")
    for card in ("2H", "5H", "9H", "QH", "KH"):
        steady.tap(f"card:{card}")
    problems += layout_problems(device, "a flush", cards=52)
    steady.tap("testid:flush-log")
    expect(prompt(device)).to_have_text("Who holds Pam (J♣)?")
    problems += layout_problems(device, "who holds Pam")
    steady.tap("pamHolder:none")
    steady.settle()
    flush = ledger_of(server, club).deal(sid, 1)["flush"]
    assert flush["winner"] == "C" and flush["pam_held_by"] is None
    assert flush["payers"] == ["B", "A"]  # Enquire Within: those who stood, but the flush
    name = f"{viewport['width']}x{viewport['height']}"
    VARIANT_RESULTS[name] = (f"{steady.taps} taps, {len(steady.moves)} moved, "
                             f"{len(problems)} layout problems")
    assert not problems and not steady.moves, "\n".join(problems + steady.moves)
    errors = [m for m in device.console if m.startswith("pageerror")]
    assert not errors, errors


def test_print_the_matrix():
    """The matrix of the run (printed with -s), for docs/tablet.md."""
    for name, result in RESULTS.items():
        print(f"{name}: {result}")
    for name, result in VARIANT_RESULTS.items():
        print(f"{name}, five-card: {result}")
    assert len(RESULTS) <= len(VIEWPORTS) and len(VARIANT_RESULTS) <= len(VIEWPORTS)


# Whether a one-line box shows its whole text: its text is not wider than the box (the prompt
# and the badge end in an ellipsis when it is).
_CUT = """(el) => el.scrollWidth > el.clientWidth + 0.5"""


def test_the_badge_and_the_prompt_are_whole_on_a_tablet_768_wide(new_device, server, shots):
    """At 768 x 1024 (the commonest tablet upright) the longest prompt of an ordinary evening
    and the badge's longest words are shown whole, not cut by an ellipsis."""
    club = server.club()
    sid = open_session(server, club, name="Thursday at the Bell")
    device = new_device({"width": 768, "height": 1024})
    sign_in(device, club.tokens["dealer"], sid)
    page = device.page
    badge = page.get_by_test_id("sync")
    cut: list[str] = []

    def whole(where: str) -> None:
        for name, box in (("prompt", prompt(device)), ("badge", badge)):
            if box.evaluate(_CUT):
                cut.append(f"{where}: the {name} is cut: {box.inner_text()!r}")

    expect(prompt(device)).to_have_text("A deals the turn-up single: tap the card turned up",
                                        timeout=TIMEOUT)
    whole("the turn-up single")
    page.screenshot(path=str(shots / "whole-prompt-768.png"))
    device.context.set_offline(True)
    page.locator(f'[data-testid=board] button[data-card="{SINGLE[0]}"]').click()
    for _player, card in SINGLE[1].items():
        page.locator(f'[data-testid=board] button[data-card="{card}"]').click()
    expect(badge).to_have_text("No connection — 1 not yet saved", timeout=TIMEOUT)
    whole("no connection")
    page.screenshot(path=str(shots / "whole-badge-768.png"))
    device.context.set_offline(False)
    wait_saved(device)
    assert not cut, "\n".join(cut)


_NAME_SHOWN = """(e) => { const r = e.getBoundingClientRect();
  return { width: r.width, whole: e.scrollWidth <= e.clientWidth + 1, right: r.right,
           top: r.top, bottom: r.bottom }; }"""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844},
                                      {"width": 1366, "height": 768}],
                         ids=["phone-390x844", "laptop-1366x768"])
def test_the_sessions_name_is_readable_in_the_header_on_a_phone(new_device, server, axe_source,
                                                                 viewport, shots):
    """docs/tablet.md, "Every tablet": on a phone upright the session's name has a line of
    the header to itself (it was squeezed to a few letters beside the deal and the badge);
    one longer than the line is cut with an ellipsis and is whole in the menu."""
    club = server.club()
    name = "Thursday, first table at the Bell"
    sid = open_session(server, club, name=name)
    device = new_device(viewport)
    sign_in(device, club.tokens["dealer"], sid)
    page = device.page
    expect(prompt(device)).to_have_text("A deals the turn-up single: tap the card turned up",
                                        timeout=TIMEOUT)
    shown = page.get_by_test_id("session-name")
    expect(shown).to_have_text(name)
    expect(shown).to_have_attribute("title", name)
    box = shown.evaluate(_NAME_SHOWN)
    bar = page.locator("header.bar").evaluate(_NAME_SHOWN)
    assert bar["top"] <= box["top"] and box["bottom"] <= bar["bottom"] + 1, (box, bar)
    assert box["right"] <= viewport["width"], box
    if viewport["width"] <= 480:
        # a line of its own: two thirds of the phone's width (it had 76 px of 390)
        assert box["width"] >= viewport["width"] * 2 / 3, box
    else:
        assert box["whole"], box  # a laptop shows it whole
    deal = page.get_by_test_id("deal-no").evaluate(_NAME_SHOWN)
    assert deal["whole"], deal  # the deal's number is never cut
    assert layout_problems(device, "the session's name") == []
    assert serious_violations(page, axe_source) == []
    page.screenshot(path=str(shots / f"tablet-header-{viewport['width']}.png"))
    page.get_by_test_id("menu").click()
    expect(page.get_by_test_id("menu-name")).to_have_text(name)
    assert page.get_by_test_id("menu-name").evaluate(_NAME_SHOWN)["whole"]
    assert serious_violations(page, axe_source) == []
    page.screenshot(path=str(shots / f"tablet-header-menu-{viewport['width']}.png"))
