"""Whole deals logged on the tablet, checked through the ledger afterwards, with the taps
counted: a five-player deal in at most 9 taps in quick mode, 22 card by card, and 6 in quick
mode when everyone plays ("Everyone else plays"), the turn-up single not counted."""

from __future__ import annotations

from playwright.sync_api import expect

from .tablet import (
    CARDS_LIMIT,
    QUICK_LIMIT,
    SHORTCUT_LIMIT,
    TIMEOUT,
    choose_mode,
    deal,
    declare,
    everyone_plays,
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
    expect(prompt(device)).to_have_text("C deals: tap the card turned up")
    print(f"quick mode: {device.taps} taps")


def test_a_quick_deal_where_everyone_plays_takes_the_shortcut(new_device, server):
    club, sid, device = start(new_device, server)
    deal(device, "B", "3C")
    expect(prompt(device)).to_have_text("C declares", timeout=TIMEOUT)
    expect(device.page.get_by_test_id("everyone-plays")).to_have_text(
        "Everyone else plays (C, D, E, A, B)")
    everyone_plays(device)
    choose_mode(device, "quick")
    tricks(device, "C", "D", "C")
    wait_saved(device)
    expect(device.page.get_by_test_id("summary")).to_contain_text("Deal 2 settled",
                                                                   timeout=TIMEOUT)
    assert device.taps <= SHORTCUT_LIMIT, device.taps
    view = ledger_of(server, club).deal(sid, 2)
    # five declarations, each its own entry, in turn
    assert view["declarations"] == {p: "play" for p in ("C", "D", "E", "A", "B")}
    assert sorted(view["settlement"]["looed"]) == ["A", "B", "E"]
    # the confirmation line names what was logged, and Undo the last of it
    expect(device.page.get_by_test_id("undo")).to_have_text("Undo: trick 3 to C")
    print(f"quick, everyone plays, with the shortcut: {device.taps} taps")
