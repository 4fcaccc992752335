"""The treasurer's live view of a table (/table/live, docs/tablet.md "The live view") shows the
table's changes as the tablets do: who withdraws at his deal, who has withdrawn, and the last
round from its call to its end, each as the session view of the API says it; at laptop and
phone size, axe-core finding nothing serious."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.clubs.service import Actor
from ledger.domain.commands import StartDeal, StartLastRound, Withdraw
from ledger.writes import WriteRequest

from .desk import LAPTOP, PHONE
from .tablet import TIMEOUT, ledger_of, open_session
from .test_statement_page import serious_violations


def shown(page: Any) -> dict[str, str]:
    notices = page.get_by_test_id("notices").locator("p")
    return {n.get_attribute("data-testid"): n.inner_text() for n in notices.all()}


def fits(page: Any, axe_source: str, width: int) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width, wide
    assert serious_violations(page, axe_source) == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_live_view_shows_a_withdrawal_and_the_last_round(new_device, server, axe_source,
                                                             viewport, shots):
    club = server.club()
    sid = open_session(server, club, players=["A", "B", "C", "D"], name="Thursday")
    ledger = ledger_of(server, club)
    treasurer = WriteRequest(Actor("treasurer", club.members["treasurer"]))
    ledger.append(sid, [Withdraw(player="A")], treasurer)  # at his deal, the first

    device = new_device(viewport)
    page = device.page
    page.goto(f"{server.url}/table/live#s={sid}")
    page.locator("#token").fill(club.tokens["treasurer"])
    page.get_by_role("button", name="Show the table").click()
    expect(page.get_by_test_id("pool")).to_be_visible(timeout=TIMEOUT)
    view = ledger.session(sid)
    assert view["withdrawing"] == "A" and view["withdrawn"] == []
    expect(page.get_by_test_id("withdrawing")).to_have_text(
        "A withdraws at his deal: he deals, is not dealt in, and leaves the table after it.")
    expect(page.locator("[data-testid=balances] tr[data-player='A'] th")).to_have_text(
        "A (withdraws at his deal)")
    fits(page, axe_source, viewport["width"])

    # he deals the turn-up single without being dealt in, and leaves; the last round is called
    ledger.append(sid, [StartDeal(trump_card="7H", face_up={"B": "9H", "C": "KS", "D": "QH"}),
                        StartLastRound()], treasurer)
    view = ledger.session(sid)
    assert view["withdrawing"] is None and view["withdrawn"] == ["A"]
    assert view["last_round"] == {"deals_left": 3, "over": False}
    expect(page.get_by_test_id("withdrawn")).to_have_text("Withdrawn: A.", timeout=TIMEOUT)
    expect(page.get_by_test_id("last-round")).to_have_text(
        "The last round is called: 3 deals to go, everyone stands, no miss.")
    assert set(shown(page)) == {"withdrawn", "last-round"}
    expect(page.locator("[data-testid=balances] tr[data-player='A'] th")).to_have_text(
        "A (withdrawn)")
    # the balances are the API's, the withdrawn player's too
    nets = {row.get_attribute("data-player"): int(row.locator("td").first.inner_text())
            for row in page.locator("[data-testid=balances] tbody tr").all()}
    assert nets == {p: view["balances"].get(p, 0) for p in view["seats"]}
    fits(page, axe_source, viewport["width"])
    page.screenshot(path=str(shots / f"live-changes-{viewport['width']}.png"), full_page=True)
