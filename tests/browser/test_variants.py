"""Irish and five-card loo on the tablet (docs/rules.md §9.2, §9.3, §11.40; docs/tablet.md):
the exchange at the player's turn to declare (baxter-wray) and after every declaration
(blenheim), Pam on the card picker, five tricks card by card and quick, the ace of trumps led
with and without "Pam, be civil" (asked each time), a flush the ledger refuses and one it
settles, the holder of Pam asked where the ledger must be told, and the warning of ten players
at five-card loo. Each checks the ledger through its own API afterwards, counts the taps, and
where the dealer taps through `Steady`, that nothing he taps moved between two taps."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .tablet import (
    SIZES,
    TIMEOUT,
    Steady,
    check,
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


def start(new_device, server, variant, players, *, preset="baxter-wray", viewport=None):
    club = server.club()
    sid = open_session(server, club, players=players, preset=preset, rules={"variant": variant})
    device = new_device(viewport)
    sign_in(device, club.tokens["dealer"], sid)
    return club, sid, device


def complaints(device):
    """What the browser reported but the requests refused while the device had no connection."""
    return [c for c in device.console if "ERR_INTERNET_DISCONNECTED" not in c]


def offered_exchange(server, club, sid):
    """The ledger's own `expected` CardsExchanged action, or None."""
    actions = ledger_of(server, club).session(sid)["expected"]["actions"]
    return next((a for a in actions if a["type"] == "CardsExchanged"), None)


def test_an_irish_deal_with_an_exchange_at_the_players_turn_to_declare(new_device, server):
    club, sid, device = start(new_device, server, "irish", FOUR)
    page = device.page
    # Irish loo has no turn-up single: the first deal is a hand (docs/rules.md §11.34)
    deal(device, "A", "2S")
    wait_saved(device)
    # the declarations with no connection: the device foresees whose exchange it is (predict.js)
    device.context.set_offline(True)
    steady = Steady(device)
    expect(prompt(device)).to_have_text("B declares", timeout=TIMEOUT)
    expect(page.locator('button[data-declaration="take_miss"]')).to_have_count(0)  # no miss
    steady.tap("declaration:play")
    # Baxter-Wray p. 27: "the player, whose turn it is to declare" exchanges: B, now, before C
    expect(prompt(device)).to_have_text("C declares", timeout=TIMEOUT)
    expect(page.get_by_test_id("exchange")).to_have_text("B exchanges…")
    expect(page.locator(".extra .note")).to_have_text(
        "B's exchange is now, before C declares · 39 cards left in the pack")
    steady.tap("declaration:play")
    # C declared: B's turn has passed, and the tablet no longer offers it; C's has come
    expect(prompt(device)).to_have_text("D declares", timeout=TIMEOUT)
    expect(page.locator('button[data-exchange="B"]')).to_have_count(0)
    steady.tap("exchange:C")
    expect(prompt(device)).to_have_text("C exchanges: how many cards?", timeout=TIMEOUT)
    expect(page.locator("button[data-count]")).to_have_count(3)
    steady.tap("count:2")
    expect(prompt(device)).to_have_text("D declares", timeout=TIMEOUT)
    expect(page.get_by_test_id("exchange")).to_have_count(0)  # no second exchange
    steady.tap("declaration:play")
    expect(page.get_by_test_id("exchange")).to_have_text("D exchanges…", timeout=TIMEOUT)
    steady.tap("declaration:throw_up")
    # A threw up: D's turn has passed, and nobody is left to exchange
    expect(prompt(device)).to_contain_text("Trick 1", timeout=TIMEOUT)
    expect(page.get_by_test_id("exchange")).to_have_count(0)
    device.context.set_offline(False)
    steady.settle()
    expect(page.get_by_test_id("exchange")).to_have_count(0)  # the ledger says so too
    assert offered_exchange(server, club, sid) is None
    # the penalty dialog offers no offence with the miss (Baxter-Wray p. 27: "There is no miss")
    page.get_by_test_id("penalty").click()
    page.locator('[data-offender="D"]').click()
    expect(page.locator("button[data-offence]").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator('button[data-offence="looked-at-miss"]')).to_have_count(0)
    page.get_by_test_id("penalty-cancel").click()
    steady.tap("testid:mode-cards")
    for player, card in (("B", "6D"), ("C", "8D"), ("D", "QD"),
                         ("D", "KH"), ("B", "5S"), ("C", "7H"),
                         ("B", "KS"), ("C", "9C"), ("D", "3C")):
        expect(prompt(device)).to_contain_text(f"{player} plays", timeout=TIMEOUT)
        steady.tap(f"card:{card}")
    steady.settle()
    summary = page.get_by_test_id("summary")
    expect(summary).to_contain_text("Deal 1 settled", timeout=TIMEOUT)
    expect(summary).to_contain_text("Looed: C")
    expect(page.locator(".deal")).to_contain_text("C exchanged 2")
    # trump, four declarations, the exchange at C's turn (who, how many), card by card, nine
    assert device.taps == 17, device.taps
    assert not steady.moves, "\n".join(steady.moves)
    view = ledger_of(server, club).deal(sid, 1)
    assert view["exchanges"] == {"C": {"count": 2, "cards_out": [], "cards_in": []}}
    assert [t["winner"] for t in view["tricks"]] == ["D", "B", "B"]
    assert view["settlement"]["looed"] == ["C"] and view["breaches"] == []
    assert complaints(device) == [], device.console


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


def test_the_ace_of_trumps_led_asks_whether_pam_was_called_on(new_device, server, axe_source,
                                                              shots):
    club, sid, device = start(new_device, server, "five-card", THREE,
                              viewport=SIZES["landscape"])
    page = device.page
    deal(device, "A", "2H")
    declare(device, ("B", "play"), ("C", "play"), ("A", "play"))
    choose_mode(device, "cards")
    # Pam (the knave of clubs) is marked on the picker as the highest trump
    pam = page.locator('.picker button[data-card="JC"]')
    expect(pam).to_have_class(re.compile(r"\bpam\b"), timeout=TIMEOUT)
    expect(pam).to_have_attribute("aria-label", "J of clubs, Pam, the highest trump")
    # B leads the ace of trumps while Pam is out: whether he called on Pam is asked, never
    # assumed (docs/rules.md §11.30: `pam_call`)
    steady = Steady(device)
    steady.tap("card:AH")
    expect(prompt(device)).to_have_text("B leads A♥: did he say “Pam, be civil”?")
    expect(page.locator("button[data-call]")).to_have_text(
        ["He said “Pam, be civil”", "He said nothing"])
    found: list[str] = []
    check(device, axe_source, "pam-be-civil-landscape", shots, found)
    assert not found, "\n".join(found)
    steady.tap("testid:cancel")  # a mis-tap: nothing was logged
    expect(prompt(device)).to_have_text("Trick 1: B plays")
    steady.tap("card:AH")
    steady.tap("call:pam-be-civil")
    # C holds Pam and the seven: he passes the ace (Baxter-Wray p. 28)
    for player, card in (("C", "7H"), ("A", "2C"),
                         ("B", "3H"), ("C", "JC"), ("A", "3C"),
                         ("C", "7D"), ("A", "4C"), ("B", "3S"),
                         ("C", "8D"), ("A", "5C"), ("B", "4S"),
                         ("C", "9D"), ("A", "6C"), ("B", "5S")):
        expect(prompt(device)).to_contain_text(f"{player} plays", timeout=TIMEOUT)
        steady.tap(f"card:{card}")
    steady.settle()
    expect(page.get_by_test_id("summary")).to_contain_text("Looed: A", timeout=TIMEOUT)
    # trump, three declarations, card by card, fifteen cards, the call asked (one more tap),
    # and the mis-tap cancelled (two)
    assert device.taps == 23, device.taps
    assert not steady.moves, "\n".join(steady.moves)

    # deal 2, with no connection (the device foresees the question): C leads the ace and says
    # nothing; A heads it with Pam, which he may
    device.context.set_offline(True)
    deal(device, "B", "2D")
    declare(device, ("C", "play"), ("A", "play"), ("B", "play"))
    choose_mode(device, "cards")
    pick(device, "AD")
    expect(page.locator("button[data-call]")).to_have_count(2, timeout=TIMEOUT)
    device.tap(page.locator('button[data-call="none"]'))
    play(device, ("A", "JC"), ("B", "3D"))
    # the ace is gone: the next lead asks nothing
    expect(prompt(device)).to_have_text("Trick 2: A plays", timeout=TIMEOUT)
    pick(device, "4C")
    expect(prompt(device)).to_have_text("Trick 2: B plays", timeout=TIMEOUT)
    device.context.set_offline(False)
    wait_saved(device)
    ledger = ledger_of(server, club)
    events = [e["payload"] for e in ledger.events(sid, limit=1000)["events"]
              if e["type"] == "CardPlayed"]
    assert (events[0]["card"], events[0]["call"]) == ("AH", "pam-be-civil")
    assert (events[15]["card"], events[15]["call"]) == ("AD", "none")
    assert "call" not in events[18] or events[18]["call"] is None
    assert ledger.deal(sid, 1)["breaches"] == []
    second = ledger.deal(sid, 2)
    assert second["tricks"][0]["winner"] == "A" and second["breaches"] == []
    assert complaints(device) == [], device.console


def test_a_five_card_deal_settled_by_a_flush(new_device, server):
    club, sid, device = start(new_device, server, "five-card", FOUR)
    page = device.page
    deal(device, "A", "2S")
    declare(device, ("B", "play"), ("C", "play"))
    # C exchanges at his turn to declare, with the cards known: those put out, then drawn
    device.tap(page.locator('button[data-exchange="C"]'))
    pick(device, "3D")
    pick(device, "4D")
    device.tap(page.get_by_test_id("exchange-next"))
    expect(page.locator('.picker button[data-card="3D"]')).to_be_disabled()
    pick(device, "KD")
    pick(device, "QD")
    wait_saved(device)
    expect(page.locator(".deal")).to_contain_text("C exchanged 2 (out 3♦ 4♦, in K♦ Q♦)")
    declare(device, ("D", "throw_up"), ("A", "play"))
    wait_saved(device)
    taps_before_claims = device.taps
    # a claim the cards do not make: the ledger refuses it and the screen says why
    device.tap(page.get_by_test_id("flush"))
    device.tap(page.locator('button[data-flusher="B"]'))
    expect(page.locator('.picker button[data-card="JC"]')).to_have_class(re.compile(r"\bpam\b"))
    expect(page.locator('.picker button[data-card="KD"]')).to_be_disabled()  # C drew it
    for card in ("2H", "5H", "9H", "QH", "KS"):
        pick(device, card)
    expect(page.get_by_test_id("flush-cards")).to_have_text("5 of 5: 2♥ 5♥ 9♥ Q♥ K♠")
    # at baxter-wray the holder of Pam pays like everyone: the ledger asks nothing of him
    expect(page.get_by_test_id("flush-log")).to_have_text("Log the flush")
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


def test_a_five_card_flush_at_blenheim_asks_who_holds_pam(new_device, server, axe_source,
                                                          shots):
    """Blenheim: a player exchanges after every declaration (Britannica: "declared players"),
    and the holder of Pam pays no flush, so the tablet asks who holds it when no logged card
    shows it (the ledger's candidates, less the flush shown, and "none of them")."""
    club, sid, device = start(new_device, server, "five-card", FOUR, preset="blenheim",
                              viewport=SIZES["portrait"])
    page = device.page
    deal(device, "A", "2S")
    wait_saved(device)
    # with no connection until the question: the device foresees the exchanges and that the
    # ledger must be told who holds Pam (predict.js)
    device.context.set_offline(True)
    steady = Steady(device)
    for player, choice in (("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play")):
        expect(prompt(device)).to_have_text(f"{player} declares", timeout=TIMEOUT)
        steady.tap(f"declaration:{choice}")
    # every declaration made, B, C and A may still exchange: who, on the board
    expect(page.locator(".extra .note")).to_contain_text("Exchanges until the first card")
    steady.tap("testid:exchange")
    expect(prompt(device)).to_have_text("Who exchanges?")
    expect(page.locator("[data-testid=board] button[data-exchange]")).to_have_text(
        ["B", "C", "A"])
    steady.tap("exchange:B")
    steady.tap("count:1")  # the count alone: where Pam went stays unknown
    expect(page.get_by_test_id("exchange")).to_have_text("An exchange…", timeout=TIMEOUT)
    steady.tap("testid:flush")
    steady.tap("flusher:C")
    for card in ("2H", "5H", "9H", "QH", "KH"):
        steady.tap(f"card:{card}")
    expect(page.get_by_test_id("flush-log")).to_have_text("Next: who holds Pam?")
    steady.tap("testid:flush-log")
    expect(prompt(device)).to_have_text("Who holds Pam (J♣)?")
    # C's five cards are shown without Pam: he is not offered
    expect(page.locator("button[data-pam-holder]")).to_have_text(
        ["B holds J♣", "D holds J♣", "A holds J♣", "None of them"])
    # the entries reach the ledger meanwhile; its `expected` asks the same
    device.context.set_offline(False)
    wait_saved(device)
    asked = next(a for a in ledger_of(server, club).session(sid)["expected"]["actions"]
                 if a["type"] == "FlushShown")
    assert asked["needs"] == ["flushes", "pam_held_by"]
    assert asked["pam_candidates"] == ["B", "C", "D", "A"]
    expect(page.locator("button[data-pam-holder]")).to_have_count(4)
    found: list[str] = []
    check(device, axe_source, "pam-holder-portrait", shots, found)
    assert not found, "\n".join(found)
    steady.tap("pamHolder:B")
    steady.settle()
    summary = page.get_by_test_id("summary")
    expect(summary).to_contain_text("A flush was shown", timeout=TIMEOUT)
    expect(summary).to_contain_text("B holds Pam.")
    # trump, four declarations, the exchange (3: an exchange, whose, how many), the flush
    # (9: flush, whose, five cards, next, who holds Pam)
    assert device.taps == 1 + 4 + 3 + 9, device.taps
    assert not steady.moves, "\n".join(steady.moves)
    view = ledger_of(server, club).deal(sid, 1)
    assert view["exchanges"] == {"B": {"count": 1, "cards_out": [], "cards_in": []}}
    # Britannica: "if Pam is held, the holder is exempted from payment"
    assert view["flush"]["winner"] == "C" and view["flush"]["pam_held_by"] == "B"
    assert view["flush"]["payers"] == ["D", "A"]
    paid = [f"{p['from']} pays {p['to']} {p['amount_units']}" for p in view["postings"]
            if p["reason"] == "flush"]
    assert [p.split(" pays")[0] for p in paid] == ["D", "A"]
    expect(summary.get_by_test_id("flush-payments").locator("li")).to_have_text(paid)
    assert complaints(device) == [], device.console


def test_ten_players_at_five_card_loo_are_warned_when_the_session_is_chosen(new_device, server):
    """docs/rules.md §11.42: the session view's warnings, on the tablet as soon as the session
    is picked, and on the treasurer's live view."""
    club = server.club()
    players = [chr(ord("A") + i) for i in range(10)]
    sid = open_session(server, club, players=players, name="Ten at the Bell",
                       rules={"variant": "five-card"})
    warnings = ledger_of(server, club).session(sid)["warnings"]
    assert [w["rule"] for w in warnings] == ["five-card-players", "short-stock"]
    device = new_device()
    page = device.page
    page.goto(f"{server.url}/table")
    page.get_by_text("Or use a dealer token").click()
    page.locator("#token").fill(club.tokens["dealer"])
    page.get_by_test_id("sign-in").click()
    page.locator(f'[data-session="{sid}"]').click()
    expect(prompt(device)).to_have_text("A deals: tap the card turned up", timeout=TIMEOUT)
    # Baxter-Wray p. 27: "not suitable for more than six players"; a stock of one card
    expect(page.get_by_test_id("warning")).to_have_text([w["detail"] for w in warnings])
    expect(page.get_by_test_id("warning").first).to_contain_text(
        "not suitable for more than six players")
    expect(page.get_by_test_id("warning").last).to_contain_text("leave 1 card in the pack")
    # and on the treasurer's live view
    live = new_device()
    live.page.goto(f"{server.url}/table/live#s={sid}")
    live.page.locator("#token").fill(club.tokens["treasurer"])
    live.page.get_by_role("button", name="Show the table").click()
    expect(live.page.get_by_test_id("warning")).to_have_text([w["detail"] for w in warnings],
                                                              timeout=TIMEOUT)
    assert device.console == [] and live.console == [], device.console + live.console
