"""Irish and five-card loo on the tablet (docs/rules.md §9.2, §9.3; docs/tablet.md): an
exchange, Pam on the card picker, five tricks card by card and quick, "Pam be civil", a flush
the ledger refuses and one it settles. Each checks the ledger through its own API afterwards,
and counts the taps."""

from __future__ import annotations

from playwright.sync_api import expect

from .tablet import (
    TIMEOUT,
    choose_mode,
    deal,
    declare,
    ledger_of,
    open_session,
    pick,
    play,
    prompt,
    sign_in,
    tricks,
    wait_saved,
)

FOUR, THREE = ["A", "B", "C", "D"], ["A", "B", "C"]


def start(new_device, server, variant, players):
    club = server.club()
    sid = open_session(server, club, players=players, rules={"variant": variant})
    device = new_device()
    sign_in(device, club.tokens["dealer"], sid)
    return club, sid, device


def test_an_irish_deal_with_an_exchange_logged_card_by_card(new_device, server):
    club, sid, device = start(new_device, server, "irish", FOUR)
    page = device.page
    # Irish loo has no turn-up single: the first deal is a hand (docs/rules.md §11.34)
    deal(device, "A", "2S")
    declare(device, ("B", "play"), ("C", "play"))
    # a player who declared may exchange at once; no miss is offered
    expect(page.locator('button[data-declaration="take_miss"]')).to_have_count(0)
    expect(page.locator('button[data-exchange="C"]')).to_be_visible(timeout=TIMEOUT)
    declare(device, ("D", "play"), ("A", "throw_up"))
    choose_mode(device, "cards")
    # the exchange step: who may exchange, then how many (the count alone is enough)
    for player in ("B", "C", "D"):
        expect(page.locator(f'button[data-exchange="{player}"]')).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("cards left in the pack")).to_contain_text("(39 cards left")
    device.tap(page.locator('button[data-exchange="C"]'))
    expect(prompt(device)).to_have_text("C exchanges: how many cards?", timeout=TIMEOUT)
    expect(page.locator("button[data-count]")).to_have_count(3)
    device.tap(page.locator('button[data-count="2"]'))
    wait_saved(device)
    expect(page.locator('button[data-exchange="C"]')).to_have_count(0)
    expect(page.get_by_text("(37 cards left")).to_be_visible()
    play(device, ("B", "6D"), ("C", "8D"), ("D", "QD"),
         ("D", "KH"), ("B", "5S"), ("C", "7H"))
    # after the first card nobody may exchange
    expect(page.locator("button[data-exchange]")).to_have_count(0)
    play(device, ("B", "KS"), ("C", "9C"), ("D", "3C"))
    wait_saved(device)
    summary = page.get_by_test_id("summary")
    expect(summary).to_contain_text("Deal 1 settled", timeout=TIMEOUT)
    expect(summary).to_contain_text("Looed: C")
    expect(page.locator(".deal")).to_contain_text("C exchanged 2")
    # trump, four declarations, card by card, the exchange (who, how many), nine cards
    assert device.taps == 17, device.taps
    view = ledger_of(server, club).deal(sid, 1)
    assert view["exchanges"] == {"C": {"count": 2, "cards_out": [], "cards_in": []}}
    assert [t["winner"] for t in view["tricks"]] == ["D", "B", "B"]
    assert view["settlement"]["looed"] == ["C"] and view["breaches"] == []
    assert device.console == [], device.console


def test_a_five_card_deal_by_quick_entry(new_device, server):
    club, sid, device = start(new_device, server, "five-card", THREE)
    deal(device, "A", "7H")
    declare(device, ("B", "play"), ("C", "play"), ("A", "play"))
    choose_mode(device, "quick")
    expect(device.page.get_by_test_id("pam")).to_contain_text("J♣", timeout=TIMEOUT)
    tricks(device, "B", "C", "B", "B", "C")
    wait_saved(device)
    summary = device.page.get_by_test_id("summary")
    expect(summary).to_contain_text("Deal 1 settled", timeout=TIMEOUT)
    expect(summary.locator(".shares li")).to_have_count(5)
    expect(summary).to_contain_text("Looed: A (10 each)")
    # trump, three declarations, five winners
    assert device.taps == 9, device.taps
    ledger = ledger_of(server, club)
    view = ledger.deal(sid, 1)
    assert [t["winner"] for t in view["tricks"]] == ["B", "C", "B", "B", "C"]
    assert [s["amount_units"] for s in view["settlement"]["shares"]] == [1, 1, 1, 1, 1]
    # A paid the deal (5) and is looed (10, to the next pool)
    assert ledger.session(sid)["balances"] == {"A": -15, "B": 3, "C": 2}
    assert ledger.session(sid)["next_pool_units"] == 10
    assert device.console == [], device.console


def test_pam_be_civil_on_a_five_card_deal_logged_card_by_card(new_device, server):
    club, sid, device = start(new_device, server, "five-card", THREE)
    page = device.page
    deal(device, "A", "2H")
    declare(device, ("B", "play"), ("C", "play"), ("A", "play"))
    choose_mode(device, "cards")
    # Pam (the knave of clubs) is marked on the picker as the highest trump
    pam = page.locator('.picker button[data-card="JC"]')
    expect(pam).to_have_class("card pam", timeout=TIMEOUT)
    expect(pam).to_have_attribute("aria-label", "J of clubs, Pam, the highest trump")
    civil = page.get_by_test_id("pam-be-civil")
    expect(civil).to_contain_text("Pam, be civil")
    device.tap(civil)
    # C holds Pam and the seven: he passes the ace (Baxter-Wray p. 28)
    play(device, ("C", "7H"), ("A", "2C"))
    expect(page.get_by_test_id("pam-be-civil")).to_have_count(0)  # the ace is gone
    play(device, ("B", "3H"), ("C", "JC"), ("A", "3C"),
         ("C", "7D"), ("A", "4C"), ("B", "3S"),
         ("C", "8D"), ("A", "5C"), ("B", "4S"),
         ("C", "9D"), ("A", "6C"), ("B", "5S"))
    wait_saved(device)
    expect(page.get_by_test_id("summary")).to_contain_text("Looed: A", timeout=TIMEOUT)
    # trump, three declarations, card by card, fifteen cards (the ace with the call)
    assert device.taps == 20, device.taps
    ledger = ledger_of(server, club)
    view = ledger.deal(sid, 1)
    assert [t["winner"] for t in view["tricks"]] == ["B", "C", "C", "C", "C"]
    assert view["breaches"] == []
    events = ledger.events(sid, limit=1000)["events"]
    led = next(e for e in events if e["type"] == "CardPlayed")
    assert led["payload"]["card"] == "AH" and led["payload"]["call"] == "pam-be-civil"
    assert device.console == [], device.console


def test_a_five_card_deal_settled_by_a_flush(new_device, server):
    club, sid, device = start(new_device, server, "five-card", FOUR)
    page = device.page
    deal(device, "A", "2S")
    declare(device, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    # an exchange with the cards known: those put out, then those drawn
    device.tap(page.locator('button[data-exchange="C"]'))
    pick(device, "3D")
    pick(device, "4D")
    device.tap(page.get_by_test_id("exchange-next"))
    expect(page.locator('.picker button[data-card="3D"]')).to_be_disabled()
    pick(device, "KD")
    pick(device, "QD")
    wait_saved(device)
    expect(page.locator(".deal")).to_contain_text("C exchanged 2 (out 3♦ 4♦, in K♦ Q♦)")
    taps_before_claims = device.taps
    # a claim the cards do not make: the ledger refuses it and the screen says why
    device.tap(page.get_by_test_id("flush"))
    device.tap(page.locator('button[data-flusher="B"]'))
    expect(page.locator('.picker button[data-card="JC"]')).to_have_class("card pam")
    expect(page.locator('.picker button[data-card="KD"]')).to_be_disabled()  # C drew it
    for card in ("2H", "5H", "9H", "QH", "KS"):
        pick(device, card)
    expect(page.get_by_test_id("flush-cards")).to_have_text("5 of 5: 2♥ 5♥ 9♥ Q♥ K♠")
    device.tap(page.get_by_test_id("flush-log"))
    refused = page.get_by_test_id("refused")
    expect(refused).to_contain_text("is no flush: five cards of a suit, or four with Pam (JC)",
                                    timeout=TIMEOUT)
    expect(refused).to_contain_text("flush-cards")
    device.tap(page.get_by_test_id("drop"))
    wait_saved(device)
    refused_taps = device.taps - taps_before_claims
    # the flush the cards make
    device.tap(page.get_by_test_id("flush"))
    device.tap(page.locator('button[data-flusher="B"]'))
    for card in ("2H", "5H", "9H", "QH", "KH"):
        pick(device, card)
    device.tap(page.get_by_test_id("flush-log"))
    wait_saved(device)
    summary = page.get_by_test_id("summary")
    expect(summary).to_contain_text("A flush was shown", timeout=TIMEOUT)
    expect(summary.get_by_test_id("flush-winner")).to_have_text("B's flush: 2♥ 5♥ 9♥ Q♥ K♥")
    expect(summary).to_contain_text("B takes the pool: +5")
    expect(summary.get_by_test_id("flush-payments").locator("li")).to_have_text(
        ["C pays B 10", "D pays B 10", "A pays B 10"])
    expect(summary).to_contain_text("The next deal is a fresh pool.")
    # trump, four declarations, the exchange with its cards (6), the refused claim (9: flush,
    # whose, five cards, log, drop), the flush (8)
    assert refused_taps == 9, refused_taps
    assert device.taps == 5 + 6 + 9 + 8, device.taps
    ledger = ledger_of(server, club)
    view = ledger.deal(sid, 1)
    assert view["settlement"]["outcome"] == "flush"
    assert view["flush"]["winner"] == "B" and view["flush"]["payers"] == ["C", "D", "A"]
    assert view["exchanges"]["C"] == {"count": 2, "cards_out": ["3D", "4D"],
                                      "cards_in": ["KD", "QD"]}
    assert ledger.session(sid)["balances"] == {"A": -15, "B": 35, "C": -10, "D": -10}
    # the browser reports the refused claim's 422; nothing else
    assert [c for c in device.console if "422" not in c] == [], device.console
