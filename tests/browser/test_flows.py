"""The rest of a night at the table on the tablet: the dealer taking the pool, the miss played
for the pool, the penalty dialog offering exactly what the ledger accepts, breaches and
penalties that are still shown after a reload, undo naming what it removes, a conflict
between two tablets told in the table's words, a refused entry shown once, a revoked
sign-in, three deals logged with no connection and synced after a reload, and the
treasurer's live view. Each checks the ledger through its own API afterwards."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from ledger.clubs.service import Actor, Clubs
from ledger.sessions.service import Ledger
from ledger.writes import WriteRequest

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
    sign_in,
    start,
    tricks,
    wait_saved,
)


def types(server, club, sid):
    events = ledger_of(server, club).events(sid, limit=1000)["events"]
    return [e["type"] for e in events]


def offered(server, club, sid):
    """The PenaltyImposed action of the session's `expected`, as the ledger says it now."""
    actions = ledger_of(server, club).session(sid)["expected"]["actions"]
    return next(a for a in actions if a["type"] == "PenaltyImposed")


def assert_dialog_equals_expected(device, server, club, sid, players=None):
    """Open the penalty dialog: its players and each one's offences are `expected`'s."""
    page = device.page
    action = offered(server, club, sid)
    page.get_by_test_id("penalty").click()
    dialog = page.get_by_test_id("penalty-dialog")
    expect(dialog).to_contain_text("who offended?", timeout=TIMEOUT)
    shown = [b.get_attribute("data-offender") for b in dialog.locator("[data-offender]").all()]
    assert shown == list(action["by_player"]), (shown, action["by_player"])
    for player in players or shown:
        dialog.locator(f'[data-offender="{player}"]').click()
        expect(dialog).to_contain_text(f"Penalty for {player}")
        listed = [b.get_attribute("data-offence") for b in dialog.locator("[data-offence]").all()]
        assert listed == action["by_player"][player], (player, listed)
        page.get_by_test_id("penalty-back").click()
    page.get_by_test_id("penalty-cancel").click()
    expect(dialog).to_have_count(0)
    return action


def test_the_dealer_takes_the_pool(new_device, server):
    club, sid, device = start(new_device, server)
    deal(device, "B", "KD")
    declare(device, ("C", "throw_up"), ("D", "throw_up"), ("E", "throw_up"), ("A", "throw_up"))
    wait_saved(device)
    summary = device.page.get_by_test_id("summary")
    expect(summary).to_contain_text("Everyone threw up: the dealer takes the pool",
                                    timeout=TIMEOUT)
    expect(summary).to_contain_text("B takes the pool: +15")
    assert device.taps <= QUICK_LIMIT, device.taps
    assert ledger_of(server, club).deal(sid, 2)["settlement"]["outcome"] == "dealer-took-pool"


def test_an_entry_logged_while_the_last_one_is_confirmed_is_saved(new_device, server):
    """After its last POST the tablet reads the session once more before it says "All
    saved". An entry logged during that read found a sync still running, which ended without
    looking at the outbox again (and the poll waits for an empty outbox): it stayed "Saving
    1..." for good. The read is held for a second here so that the entry falls inside it."""
    club, sid, device = start(new_device, server)
    device.page.evaluate("""() => {
        const real = window.fetch;
        window.fetch = async (path, init) => {
            if ((init || {}).headers && init.headers["If-None-Match"]) {
                await new Promise((done) => setTimeout(done, 1000));
            }
            return real(path, init);
        };
    }""")
    deal(device, "B", "KD")
    device.page.wait_for_function(
        "() => window.lanterloo.state.syncing && !window.lanterloo.state.outbox.length",
        timeout=TIMEOUT)
    declare(device, ("C", "throw_up"))
    assert device.page.evaluate("() => window.lanterloo.state.syncing")  # inside the read
    wait_saved(device)
    assert types(server, club, sid).count("DeclarationMade") == 1


def test_the_miss_played_for_the_pool(new_device, server):
    club, sid, device = start(new_device, server)
    deal(device, "B", "9H")
    declare(device, ("C", "play"), ("D", "throw_up"), ("E", "throw_up"), ("A", "throw_up"))
    expect(prompt(device)).to_have_text("B declares", timeout=TIMEOUT)
    offers = device.page.locator("button[data-declaration]")
    expect(offers).to_have_count(3)  # B may not throw up (docs/rules.md §5.4)
    assert {b.get_attribute("data-declaration") for b in offers.all()} == {
        "play", "take_miss", "play_miss_for_pool"}
    declare(device, ("B", "play_miss_for_pool"))
    expect(device.page.locator('button[data-winner="B"]')).to_contain_text("for the pool",
                                                                         timeout=TIMEOUT)
    tricks(device, "C", "B", "C")
    wait_saved(device)
    expect(device.page.get_by_test_id("summary")).to_contain_text("stays in the pool",
                                                                  timeout=TIMEOUT)
    assert device.taps <= QUICK_LIMIT, device.taps
    settlement = ledger_of(server, club).deal(sid, 2)["settlement"]
    assert [s["stays_in_pool"] for s in settlement["shares"]] == [None, "miss-for-pool", None]
    assert settlement["looed"] == []


def test_the_penalty_dialog_offers_what_the_ledger_accepts_and_notices_last(new_device, server):
    club, sid, device = start(new_device, server)
    page = device.page
    deal(device, "B", "3C")
    wait_saved(device)
    # before anyone declared: a misdeal is B's alone, and nobody stands to revoke
    action = assert_dialog_equals_expected(device, server, club, sid)
    assert "misdeal" in action["by_player"]["B"] and "misdeal" not in action["by_player"]["C"]
    assert not any("revoke" in names for names in action["by_player"].values())
    declare(device, ("C", "play"))
    wait_saved(device)
    # C stands now: the offences of a standing player are his, not D's
    action = assert_dialog_equals_expected(device, server, club, sid, ["C", "D"])
    assert "revoke" in action["by_player"]["C"] and "revoke" not in action["by_player"]["D"]
    # a penalty, its cost shown before it is confirmed
    page.get_by_test_id("penalty").click()
    page.locator('[data-offender="D"]').click()
    page.locator('button[data-offence="looked-at-miss"]').click()
    dialog = page.get_by_test_id("penalty-dialog")
    expect(dialog).to_contain_text("Charge D for looked at miss?")
    expect(dialog).to_contain_text("3 into this pool")
    expect(dialog).to_contain_text("Baxter-Wray p. 24")
    page.get_by_test_id("penalty-confirm").click()
    wait_saved(device)
    declare(device, ("D", "play"), ("E", "play"), ("A", "throw_up"), ("B", "throw_up"))
    choose_mode(device, "cards")
    # D does not follow hearts, then plays a heart: the cards prove the revoke
    play(device, ("C", "AH"), ("D", "5S"), ("E", "6H"), ("C", "KH"), ("D", "2H"))
    wait_saved(device)
    action = assert_dialog_equals_expected(device, server, club, sid, ["D", "E"])
    assert "revoke" not in action["by_player"]["D"]  # the ledger charged it already
    notices = page.get_by_test_id("notices")
    expect(notices).to_contain_text("D played 5♠ in trick 1: did not follow suit (a revoke)",
                                    timeout=TIMEOUT)
    expect(notices).to_contain_text("replayed with the same cards when the tricks are done "
                                    "(D's revoke)")
    expect(notices).to_contain_text("The ledger charges D for revoke")
    expect(notices).to_contain_text("Charged: D for looked at miss: 3 into this pool.")
    expect(notices).not_to_contain_text("next_pool")
    # a reload reads them back from the deal view
    page.reload()
    expect(page.get_by_test_id("notices")).to_contain_text("(a revoke)", timeout=TIMEOUT)
    expect(page.get_by_test_id("notices")).to_contain_text("replayed")
    expect(page.get_by_test_id("notices")).to_contain_text("The ledger charges D for revoke")
    view = ledger_of(server, club).deal(sid, 2)
    charged = {(p["player"], p["offence"]): p for p in view["penalties"]}
    assert charged[("D", "looked-at-miss")]["amount_units"] == 3
    assert charged[("D", "revoke")]["detected"] is True
    assert [b["rule"] for b in view["breaches"]] == ["revoke"]


def test_undo_says_what_it_removes(new_device, server):
    club, sid, device = start(new_device, server)
    page = device.page
    undo = page.get_by_test_id("undo")
    confirm = page.get_by_test_id("confirm")
    deal(device, "B", "3C")
    declare(device, ("C", "play"), ("D", "throw_up"))
    wait_saved(device)
    expect(confirm).to_have_text("D throws up logged")
    expect(undo).to_have_text("Undo: D throws up")
    device.tap(undo)
    wait_saved(device)
    expect(confirm).to_have_text("Undone: D throws up")
    expect(prompt(device)).to_have_text("D declares", timeout=TIMEOUT)
    expect(undo).to_have_text("Undo: C plays", timeout=TIMEOUT)  # read back from the ledger
    declare(device, ("D", "play"))
    wait_saved(device)
    # an entry not yet sent is undone on the device alone
    device.context.set_offline(True)
    declare(device, ("E", "take_miss"))
    expect(page.get_by_test_id("sync")).to_contain_text("1 not yet saved", timeout=TIMEOUT)
    expect(undo).to_have_text("Undo: E takes the miss")
    device.tap(undo)
    expect(confirm).to_have_text("Undone: E takes the miss (it had not been sent)")
    device.context.set_offline(False)
    declare(device, ("E", "play"))
    wait_saved(device)
    view = ledger_of(server, club).deal(sid, 2)
    assert view["declarations"] == {"C": "play", "D": "play", "E": "play"}
    assert types(server, club, sid).count("EntryCorrected") == 1


def paired_tablet(new_device, server, club, sid, label):
    """A second tablet, signed in with its own token labelled as the treasurer names it."""
    token = Clubs(server.engine).create_token(club.club_id, club.members["dealer"], "dealer",
                                              label)["token"]
    other = new_device()
    sign_in(other, token, sid)
    return other


def test_a_conflict_between_two_tablets_keeping_theirs(new_device, server):
    club, sid, device = start(new_device, server)
    page = device.page
    deal(device, "B", "3C")
    declare(device, ("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
            ("B", "throw_up"))
    choose_mode(device, "cards")
    wait_saved(device)
    other = paired_tablet(new_device, server, club, sid, "Tablet 2")
    device.context.set_offline(True)
    play(device, ("C", "AH"), ("D", "5H"))  # this tablet, with no connection
    choose_mode(other, "cards")
    play(other, ("C", "AH"))  # Tablet 2 logs the same card first
    wait_saved(other)
    device.context.set_offline(False)
    conflict = page.get_by_test_id("conflict")
    expect(conflict).to_contain_text("Tablet 2 logged C A♥ first", timeout=TIMEOUT)
    expect(conflict.get_by_test_id("theirs")).to_contain_text("C A♥")
    expect(conflict.get_by_test_id("mine")).to_contain_text("C A♥")
    expect(conflict.get_by_test_id("mine")).to_contain_text("D 5♥")
    expect(conflict).to_contain_text("Both tablets logged the same entry.")
    # the stale screen is out of reach until the dealer chooses
    assert page.locator("main.screen").get_attribute("inert") is not None
    device.tap(page.get_by_test_id("keep-theirs"))
    wait_saved(device)
    expect(prompt(device)).to_contain_text("E plays", timeout=TIMEOUT)
    assert ledger_of(server, club).deal(sid, 2)["current_trick"] == [["C", "AH"], ["D", "5H"]]


def test_a_conflict_then_an_entry_the_ledger_refuses_is_shown_once(new_device, server):
    club, sid, device = start(new_device, server)
    page = device.page
    deal(device, "B", "3C")
    wait_saved(device)
    other = paired_tablet(new_device, server, club, sid, "Tablet 2")
    device.context.set_offline(True)
    declare(device, ("C", "play"), ("D", "play"), ("E", "play"))
    declare(other, ("C", "throw_up"))
    wait_saved(other)
    device.context.set_offline(False)
    conflict = page.get_by_test_id("conflict")
    expect(conflict).to_contain_text("Tablet 2 logged C throws up first", timeout=TIMEOUT)
    device.tap(page.get_by_test_id("mine-after"))
    refused = page.get_by_test_id("refused")
    expect(refused).to_contain_text("The ledger refused an entry", timeout=TIMEOUT)
    expect(refused).to_contain_text("C plays")
    expect(refused).to_contain_text("2 more entries were logged after it")
    expect(page.get_by_test_id("sync")).to_contain_text("Not saved: 3 (refused)")
    reason = refused.get_by_test_id("reason").inner_text()
    assert "expected" not in reason.lower() and len(reason) > 10, reason
    device.tap(page.get_by_test_id("drop"))  # one Drop for the three
    wait_saved(device)
    expect(prompt(device)).to_have_text("D declares", timeout=TIMEOUT)
    assert ledger_of(server, club).deal(sid, 2)["declarations"] == {"C": "throw_up"}


def test_a_revoked_sign_in_asks_again_and_keeps_the_entries(new_device, server):
    club, sid, device = start(new_device, server)
    # the deal is logged while the tablet cannot hear of the revocation (offline: no poll
    # finds it first and asks to sign in before the card can be tapped), then sent
    device.context.set_offline(True)
    Clubs(server.engine).revoke_token(club.token_ids["dealer"])
    deal(device, "B", "3C")
    device.context.set_offline(False)
    expect(device.page.locator("[role=alert]")).to_contain_text("revoked or expired",
                                                                 timeout=TIMEOUT)
    new = Clubs(server.engine).create_token(club.club_id, club.members["dealer"], "dealer",
                                            "tablet 2")
    device.page.get_by_text("Or use a dealer token").click()
    device.page.locator("#token").fill(new["token"])
    device.page.get_by_test_id("sign-in").click()
    wait_saved(device)
    expect(prompt(device)).to_have_text("C declares", timeout=TIMEOUT)
    assert ledger_of(server, club).deal(sid, 2)["trump_card"] == "3C"


def test_three_deals_logged_with_no_connection_are_synced_in_order(new_device, server):
    club, sid, device = start(new_device, server)
    page = device.page
    page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                           timeout=TIMEOUT)
    before = types(server, club, sid)
    device.context.set_offline(True)
    # deal 2, card by card (docs/rules.md §10.2): E is looed
    deal(device, "B", "3C")
    declare(device, ("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
            ("B", "throw_up"))
    choose_mode(device, "cards")
    play(device, ("C", "AH"), ("D", "5H"), ("E", "6H"), ("C", "KS"), ("D", "2C"), ("E", "7S"),
         ("D", "8D"), ("E", "9D"), ("C", "QD"))
    taps_cards = device.taps
    # deal 3, quick (the mode chosen between deals): E takes the miss and no trick
    choose_mode(device, "quick")
    device.taps = 0
    deal(device, "C", "9H")
    declare(device, ("D", "play"), ("E", "take_miss"), ("A", "throw_up"), ("B", "play"),
            ("C", "throw_up"))
    tricks(device, "D", "B", "D")
    taps_quick = device.taps
    # deal 4: everyone before D throws up
    deal(device, "D", "KD")
    declare(device, ("E", "throw_up"), ("A", "throw_up"), ("B", "throw_up"),
            ("C", "throw_up"))
    expect(prompt(device)).to_contain_text("E deals the turn-up single", timeout=TIMEOUT)
    sync = page.get_by_test_id("sync")
    expect(sync).to_contain_text("No connection")
    waiting = int(sync.get_attribute("data-waiting") or 0)
    assert waiting == 1 + 5 + 9 + 1 + 5 + 3 + 1 + 4
    assert types(server, club, sid) == before  # nothing reached the ledger
    # the shell loads with no connection, and the entries are still there
    page.reload()
    expect(page.get_by_test_id("sync")).to_contain_text(f"{waiting} not yet saved",
                                                        timeout=TIMEOUT)
    device.context.set_offline(False)
    wait_saved(device)
    ledger = ledger_of(server, club)
    outcomes = [ledger.deal(sid, n)["settlement"]["outcome"] for n in (2, 3, 4)]
    assert outcomes == ["divided", "divided", "dealer-took-pool"]
    assert ledger.deal(sid, 2)["settlement"]["looed"] == ["E"]
    assert ledger.deal(sid, 3)["settlement"]["looed"] == ["E"]
    logged = types(server, club, sid)[len(before):]
    assert logged.count("DealStarted") == 3 and logged.count("DeclarationMade") == 14
    assert logged.count("CardPlayed") == 9 and logged.count("DealSettled") == 3
    assert ledger.session(sid)["expected"]["actions"][0]["dealer"] == "E"
    assert taps_cards <= CARDS_LIMIT and taps_quick <= QUICK_LIMIT, (taps_cards, taps_quick)
    print(f"offline: card by card {taps_cards} taps, quick {taps_quick} taps")


def test_the_live_view_pairs_a_tablet_and_follows_the_table(new_device, server):
    club, sid, device = start(new_device, server)
    live = new_device()
    statuses: list[int] = []
    live.page.on("response", lambda r: statuses.append(r.status) if "/sessions/" in r.url
                 else None)
    live.page.goto(f"{server.url}/table/live#s={sid}")
    live.page.locator("#token").fill(club.tokens["treasurer"])
    live.page.get_by_role("button", name="Show the table").click()
    pool = live.page.get_by_test_id("pool")
    expect(pool).to_have_text("0", timeout=TIMEOUT)
    # the treasurer's screen shows a code and its QR code; a new tablet types the code
    # the code is for the member who will log at the tablet: nothing offered before he is named
    expect(live.page.get_by_test_id("pair-tablet")).to_be_disabled(timeout=TIMEOUT)
    live.page.get_by_test_id("pair-dealer").select_option(label="dealer")
    live.page.get_by_test_id("pair-tablet").click()
    code = live.page.get_by_test_id("pairing-code")
    expect(code).to_have_text(re.compile(r"^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$"),
                              timeout=TIMEOUT)
    assert live.page.get_by_test_id("pairing-qr").get_attribute("src").startswith(
        "data:image/svg+xml")
    tablet = new_device()
    tablet.page.goto(f"{server.url}/table")
    expect(tablet.page.get_by_test_id("undo")).to_have_count(0)  # nothing before sign-in
    expect(tablet.page.get_by_test_id("sync")).to_have_count(0)
    tablet.page.locator("#pair-code").fill(code.inner_text().lower())
    tablet.page.get_by_test_id("pair").click()
    expect(prompt(tablet)).to_have_text("B deals: tap the card turned up", timeout=TIMEOUT)
    expect(tablet.page.get_by_test_id("title")).to_contain_text("Tablet 1")
    assert "pair=" not in tablet.page.url
    expect(live.page.get_by_test_id("pairing-left")).to_contain_text("in dealer's name")
    # the live view follows what the tablets log
    live.page.wait_for_timeout(1500)
    deal(tablet, "B", "3C")
    wait_saved(tablet)
    logged = time.monotonic()
    expect(pool).to_have_text("15", timeout=2000)
    assert time.monotonic() - logged < 2.0
    assert 304 in statuses  # polled with If-None-Match
    expect(live.page.get_by_test_id("balances")).to_contain_text("D")
    with live.page.expect_download() as download:
        live.page.get_by_role("button", name="Statement (CSV)").click()
    assert download.value.suggested_filename.endswith(".csv")
    # the first tablet sees what Tablet 1 logged, and may not undo it as its own
    expect(device.page.get_by_test_id("undo")).to_have_text("Undo: Tablet 1's B deals, 3♣ "
                                                            "turned up", timeout=TIMEOUT)
    # the log names the dealer the tablet was paired for, not the treasurer who paired it
    ledger = Ledger(server.engine).for_club(club.club_id)
    logged_by = {e["member_id"] for e in ledger.events(sid)["events"]
                 if e["type"] == "DealStarted"}
    assert club.members["dealer"] in logged_by and club.members["treasurer"] not in logged_by


def test_a_qr_link_signs_in_and_a_dealer_picks_a_session_and_sign_out_asks_first(
        new_device, server):
    from ledger.clubs.tablets import Tablets

    club = server.club()
    from .tablet import open_session
    sid = open_session(server, club, name="Thursday at the Bell")
    open_session(server, club, name="Friday at the Crown")
    code = Tablets(server.engine).create_code(club.club_id, sid,
                                              created_by=club.members["treasurer"],
                                              member=club.members["dealer"])["code"]
    device = new_device()
    page = device.page
    # the QR code's link: the code in the fragment, never sent to the server
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{server.url}/table#pair={code.replace('-', '')}")
    expect(prompt(device)).to_contain_text("A deals the turn-up single", timeout=TIMEOUT)
    assert not any("pair=" in url for url in requests), requests
    assert page.url.endswith(f"/table#s={sid}")
    # another session of the club, picked from the list
    page.get_by_test_id("menu").click()
    page.get_by_role("menuitem", name="Another session").click()
    expect(page.locator("[data-session]")).to_have_count(2, timeout=TIMEOUT)
    page.get_by_role("button", name="Friday at the Crown").click()
    expect(page.get_by_test_id("title")).to_contain_text("Friday at the Crown", timeout=TIMEOUT)
    # signing out asks first
    page.get_by_test_id("menu").click()
    page.get_by_test_id("sign-out").click()
    dialog = page.get_by_test_id("sign-out-dialog")
    expect(dialog).to_contain_text("Sign this tablet out?")
    page.get_by_role("button", name="Stay signed in").click()
    expect(dialog).to_have_count(0)
    expect(prompt(device)).to_be_visible()
    page.get_by_test_id("menu").click()
    page.get_by_test_id("sign-out").click()
    page.get_by_test_id("sign-out-confirm").click()
    expect(page.locator("#pair-code")).to_be_visible()
    expect(page.get_by_test_id("undo")).to_have_count(0)


def test_money_in_the_sessions_currency_the_deal_number_and_the_four_colour_pack(
        new_device, server):
    club, sid, device = start(new_device, server, currency="GBP", money_per_unit_minor=10)
    page = device.page
    # the header names the deal being dealt, not the last one
    expect(page.get_by_test_id("deal-no")).to_have_text(" · Deal 2 (B deals)")
    expect(page.get_by_test_id("subline")).to_have_text(
        "Pays 3 (0.30 GBP) · the pool will be 15 (1.50 GBP)")
    # the face-up cards of the turn-up single stay beside the next deal
    expect(page.get_by_test_id("face-up")).to_contain_text("D Q♥ (beats it)")
    expect(page.locator(".balances")).to_contain_text("0.30 GBP")
    colour = "() => getComputedStyle(document.querySelector('[data-card=\"5D\"]')).color"
    assert page.evaluate(colour) == page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-card=\"5H\"]')).color")
    page.get_by_test_id("menu").click()
    page.get_by_test_id("four-colour").click()
    assert page.evaluate(colour) == "rgb(10, 63, 168)"  # diamonds blue
    assert page.evaluate("() => getComputedStyle(document.querySelector("
                         "'[data-card=\"5C\"]')).color") == "rgb(11, 107, 46)"  # clubs green
    page.reload()
    expect(prompt(device)).to_be_visible(timeout=TIMEOUT)
    assert page.evaluate(colour) == "rgb(10, 63, 168)"  # remembered on the device


def test_the_live_view_of_an_ended_session_offers_no_pairing_and_names_no_next_dealer(
        new_device, server):
    from ledger.domain.commands import EndSession

    from .tablet import ledger_of, open_session

    club = server.club()
    sid = open_session(server, club)
    ledger_of(server, club).append(sid, [EndSession(method="divide-pool")], WriteRequest(
        Actor("treasurer", club.members["treasurer"])))
    live = new_device()
    live.page.goto(f"{server.url}/table/live#s={sid}")
    live.page.locator("#token").fill(club.tokens["treasurer"])
    live.page.get_by_role("button", name="Show the table").click()
    expect(live.page.get_by_test_id("pairing-closed")).to_be_visible(timeout=TIMEOUT)
    expect(live.page.get_by_test_id("pair-tablet")).to_have_count(0)
    expect(live.page.get_by_text("next dealer")).to_have_count(0)
