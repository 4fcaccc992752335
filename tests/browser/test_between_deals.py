"""Between deals on the tablet (docs/tablet.md, "Between deals"): a guest latecomer joins, a
player withdraws at his deal, the last round is called and played out, the session ends; each
offered only when the ledger's `expected` offers it, each seen on a second tablet of the table
(it polls the session), a refusal shown in the ledger's own words with nothing recorded, and
the end refused to a dealer's role in the ledger's words. At two tablet sizes and a phone,
with axe-core on the dialog's screens; the ledger checked through its own service after."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .tablet import (
    TIMEOUT,
    check,
    deal,
    ledger_of,
    open_session,
    prompt,
    sign_in,
    tricks,
    turn_up_single,
    wait_saved,
)

SIZES = {"tablet-portrait": {"width": 768, "height": 1024},
         "tablet-landscape": {"width": 1024, "height": 768},
         "phone": {"width": 390, "height": 844}}


def open_dialog(device):
    page = device.page
    button = page.get_by_test_id("table-changes")
    expect(button).to_be_enabled(timeout=TIMEOUT)
    button.click()
    dialog = page.get_by_test_id("between-dialog")
    expect(dialog).to_contain_text("Between deals", timeout=TIMEOUT)
    return dialog


def offered(server, club, sid):
    """The table's changes the ledger's `expected` offers now, by type."""
    actions = ledger_of(server, club).session(sid)["expected"]["actions"]
    return {a["type"]: a for a in actions if a["type"] in (
        "PlayerJoined", "PlayerWithdrew", "LastRoundStarted", "SessionEnded")}


def shown(dialog):
    """What the dialog's first step offers, by the ledger's event type."""
    names = {"join": "PlayerJoined", "withdraw": "PlayerWithdrew",
             "last-round": "LastRoundStarted", "end-session": "SessionEnded"}
    return {names[k] for k in names if dialog.get_by_test_id(k).count()}


def notice(device, testid):
    return device.page.get_by_test_id("notices").get_by_test_id(testid)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_latecomer_a_withdrawal_the_last_round_and_the_end(new_device, server, axe_source,
                                                             shots, size):
    club = server.club()
    sid = open_session(server, club, players=["A", "B", "C", "D"], name="Thursday at the Bell")
    ledger = ledger_of(server, club)
    found: list[str] = []
    dealer = new_device(SIZES[size])
    sign_in(dealer, club.tokens["dealer"], sid)
    second = new_device(SIZES[size])  # the treasurer's tablet at the same table
    sign_in(second, club.tokens["treasurer"], sid)
    page = dealer.page

    # before the first deal: the dialog offers exactly what `expected` offers
    dialog = open_dialog(dealer)
    assert shown(dialog) == set(offered(server, club, sid))
    check(dealer, axe_source, f"between-{size}", shots, found)

    # a guest latecomer, to the left of D
    dialog.get_by_test_id("join").click()
    page.locator("#join-name").fill("Fenella")
    page.locator("#join-guest").check()
    dialog.locator('[data-after="D"]').click()
    check(dealer, axe_source, f"between-join-{size}", shots, found)
    dialog.get_by_test_id("join-confirm").click()
    wait_saved(dealer)
    assert ledger.session(sid)["seats"] == ["A", "B", "C", "D", "Fenella"]
    for device in (dealer, second):
        expect(device.page.locator(".balances th", has_text="Fenella")).to_be_visible(
            timeout=TIMEOUT)

    # refused: C is seated already; the ledger's sentence, and nothing recorded
    version = ledger.session(sid)["version"]
    dialog = open_dialog(dealer)
    dialog.get_by_test_id("join").click()
    page.locator("#join-name").fill("C")
    page.locator("#join-guest").check()
    dialog.locator('[data-after="A"]').click()
    dialog.get_by_test_id("join-confirm").click()
    refused = page.get_by_test_id("refused")
    expect(refused).to_be_visible(timeout=TIMEOUT)
    reason = refused.get_by_test_id("reason").inner_text()
    assert reason.startswith("C is already seated"), reason
    check(dealer, axe_source, f"between-refused-{size}", shots, found)
    page.get_by_test_id("drop").click()
    wait_saved(dealer)
    assert ledger.session(sid)["version"] == version

    # A withdraws at his deal: he deals the turn-up single without being dealt in
    dialog = open_dialog(dealer)
    assert shown(dialog) == set(offered(server, club, sid))
    dialog.get_by_test_id("withdraw").click()
    wait_saved(dealer)
    for device in (dealer, second):
        expect(notice(device, "withdrawing")).to_contain_text("A withdraws at his deal",
                                                              timeout=TIMEOUT)
    turn_up_single(dealer, "A", "7H", {"B": "9H", "C": "KS", "D": "QH", "Fenella": "2H"})
    wait_saved(dealer)
    for device in (dealer, second):
        expect(notice(device, "withdrawn")).to_have_text("Withdrawn: A.", timeout=TIMEOUT)
    assert ledger.session(sid)["active"] == ["B", "C", "D", "Fenella"]

    # the last round: one deal each, everyone stands; both tablets follow it to its end
    dialog = open_dialog(dealer)
    assert shown(dialog) == set(offered(server, club, sid))
    dialog.get_by_test_id("last-round").click()
    wait_saved(dealer)
    for device in (dealer, second):
        expect(notice(device, "last-round")).to_contain_text("4 deals to go", timeout=TIMEOUT)
    for dealer_name, trump in (("B", "2S"), ("C", "3S"), ("D", "4S"), ("Fenella", "5S")):
        deal(dealer, dealer_name, trump)
        tricks(dealer, "B", "C", "B")
        wait_saved(dealer)
    for device in (dealer, second):
        expect(notice(device, "last-round")).to_have_text(
            "The last round is over: the table ends the session.", timeout=TIMEOUT)
    assert ledger.session(sid)["last_round"] == {"deals_left": 0, "over": True}
    check(second, axe_source, f"between-last-round-over-{size}", shots, found)

    # a dealer's role may not end the session: not offered, the ledger's sentence instead
    dialog = open_dialog(dealer)
    expect(dialog.get_by_test_id("end-session")).to_be_disabled()
    expect(dialog.get_by_test_id("end-refused")).to_have_text(
        "The ledger says: only a treasurer may end the session.")
    check(dealer, axe_source, f"between-end-refused-{size}", shots, found)
    dialog.get_by_test_id("between-cancel").click()

    # the treasurer's tablet ends it, with an ending the ledger offers now
    methods = offered(server, club, sid)["SessionEnded"]["methods"]
    dialog = open_dialog(second)
    dialog.get_by_test_id("end-session").click()
    assert [b.get_attribute("data-end") for b in dialog.locator("[data-end]").all()] == methods
    check(second, axe_source, f"between-end-{size}", shots, found)
    dialog.locator('[data-end="release-last-loos"]').click()
    wait_saved(second)
    assert ledger.session(sid)["status"] == "ended"
    for device in (dealer, second):
        expect(prompt(device)).to_have_text("The session has ended.", timeout=TIMEOUT)
        expect(device.page.get_by_test_id("table-changes")).to_have_count(0)
    assert not found, "\n".join(found)
    assert not [m for d in (dealer, second) for m in d.console if "pageerror" in m]
