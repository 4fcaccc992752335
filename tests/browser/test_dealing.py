"""Whole deals logged on the tablet, checked through the ledger afterwards, with the taps
counted (item 8 of the issue: a five-player deal in at most 12 taps in quick mode, 25 card
by card, the turn-up not counted)."""

from __future__ import annotations

from playwright.sync_api import expect

from .tablet import (
    CARDS_LIMIT,
    QUICK_LIMIT,
    TIMEOUT,
    choose_mode,
    deal,
    declare,
    ledger_of,
    play,
    prompt,
    start,
    tricks,
    wait_saved,
)


def test_a_deal_card_by_card_with_five_standing(new_device, server):
    club, sid, device = start(new_device, server)
    deal(device, "B", "3C")
    declare(device, ("C", "play"), ("D", "play"), ("E", "play"), ("A", "play"), ("B", "play"))
    choose_mode(device, "cards")
    play(device, ("C", "AH"), ("D", "5H"), ("E", "6H"), ("A", "7H"), ("B", "8H"),
         ("C", "KS"), ("D", "2C"), ("E", "7S"), ("A", "4S"), ("B", "5S"),
         ("D", "8D"), ("E", "9D"), ("A", "10D"), ("B", "JD"), ("C", "QD"))
    wait_saved(device)
    expect(device.page.get_by_test_id("summary")).to_contain_text("Deal 2 settled",
                                                                   timeout=TIMEOUT)
    assert device.taps <= CARDS_LIMIT, device.taps
    view = ledger_of(server, club).deal(sid, 2)
    assert view["entry"] == "cards" and not view["breaches"]
    assert [t["winner"] for t in view["tricks"]] == ["C", "D", "C"]
    assert sorted(view["settlement"]["looed"]) == ["A", "B", "E"]
    print(f"card by card, five standing: {device.taps} taps")


def test_a_quick_mode_deal(new_device, server):
    club, sid, device = start(new_device, server)
    deal(device, "B", "9H")
    declare(device, ("C", "play"), ("D", "take_miss"), ("E", "throw_up"), ("A", "play"),
            ("B", "throw_up"))
    choose_mode(device, "quick")
    tricks(device, "C", "A", "C")
    wait_saved(device)
    expect(device.page.get_by_test_id("summary")).to_contain_text("Looed: D", timeout=TIMEOUT)
    assert device.taps <= QUICK_LIMIT, device.taps
    view = ledger_of(server, club).deal(sid, 2)
    assert view["entry"] == "quick"
    assert view["settlement"]["looed"] == ["D"]
    session = ledger_of(server, club).session(sid)
    assert session["expected"]["actions"][0]["dealer"] == "C"
    expect(prompt(device)).to_have_text("C deals")
    print(f"quick mode: {device.taps} taps")
