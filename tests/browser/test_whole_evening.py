"""A whole club evening in real Chromium, every step taken in the pages (issue 32): the club
made by the install command (`lanterloo club create`), then the admin at the desk by the link
it prints, adding the members and giving access; the treasurer opening two tables under two
laws and pairing a tablet for each named dealer; play logged at the tablets in quick mode, a
latecomer, a withdrawal, the last round; the tables ended at the desk; payments both ways, the
tin counted with a shortage booked, a wrong entry reversed, an ended table corrected by deal
and trick, the month's exports downloaded; the auditor verifying and exporting; a member
opening his link on a phone.

No request is made outside the pages: the server records every request it answers, and each
one not from the browser must be one of the test's own reads (a GET, marked), made after a
step only to compare what the page shows with the API's answer. The pages' requests never
leave the app's origin. Two steps it first found missing have tests of their own below, set
up through the ledger's services: an ended table's statement opened from the desk, and After
play's account drawn again after a payment."""

from __future__ import annotations

import datetime
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server
from .desk import (
    DOC_SIZES,
    LAPTOP,
    PHONE,
    TABLET_PORTRAIT,
    create_club,
    drawn,
    ended_table,
    fits,
    gbp,
    treasurer_at_the_desk,
)
from .tablet import TIMEOUT, pick, prompt, wait_saved

pytestmark = pytest.mark.evening

READ = "X-Lanterloo-Test-Read"  # the header marking the test's own reads
FIRST, SECOND = "Thursday, first table", "Thursday, second table"


class Recorder:
    """Every request the server answers: (method, path, user agent, the test's read mark)."""

    def __init__(self, app: Any):
        self.app = app
        self.seen: list[tuple[str, str, str, bool]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.seen.append((environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""),
                          environ.get("HTTP_USER_AGENT", ""),
                          environ.get("HTTP_" + READ.upper().replace("-", "_")) == "1"))
        return self.app(environ, start_response)


@pytest.fixture
def recorded(server: Server) -> Iterator[Recorder]:
    recorder = Recorder(server.httpd.app)
    server.httpd.app = recorder
    try:
        yield recorder
    finally:
        server.httpd.app = recorder.app


class Evening:
    """The people of the evening, each a browser context of his own, and what their pages
    requested."""

    def __init__(self, browser: Any, server: Server):
        self.browser = browser
        self.server = server
        self.contexts: list[Any] = []
        self.requests: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.token = ""  # the treasurer's, read from her page's storage, for the reads

    def person(self, url: str, viewport: dict[str, int], *, touch: bool = False) -> Any:
        context = self.browser.new_context(viewport=viewport, has_touch=touch,
                                           device_scale_factor=1, service_workers="block")
        context.set_default_timeout(TIMEOUT)
        context.on("request", lambda r: self.requests.append((r.method, r.url)))
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(url)
        return page

    def read(self, path: str) -> Any:
        """The API's answer, read with the treasurer's token, only to compare."""
        request = urllib.request.Request(f"{self.server.url}{path}", headers={
            "Authorization": f"Bearer {self.token}", READ: "1"})
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def evening(browser: Any, server: Server, recorded: Recorder) -> Iterator[Evening]:
    made = Evening(browser, server)
    expect.set_options(timeout=TIMEOUT)  # a busy machine's pace, for this test only
    try:
        yield made
    finally:
        expect.set_options(timeout=None)  # Playwright's own default again
        made.close()


def said(page: Any, text: str) -> None:
    """The page says `text` (a room may say several things at once, each in a status)."""
    expect(page.get_by_role("status").filter(has_text=text)).not_to_have_count(0)


def option_named(form: Any, name: str) -> str:
    """The value of the option of `form`'s tables that names the table `name`."""
    value = form.locator("option", has_text=name).first.get_attribute("value")
    assert value, f"no table named {name} is offered"
    return str(value)


def signed_in(page: Any, who: str) -> None:
    expect(page.get_by_test_id("who")).to_have_text(who)
    assert "signin=" not in page.url


def give_link(page: Any, member: str, role_words: str) -> str:
    form = page.get_by_test_id("give-link")
    form.get_by_label("Who").select_option(member)
    form.get_by_label("Role").select_option(label=role_words)
    form.get_by_role("button", name="Make a sign-in link").click()
    url = page.get_by_test_id("link-url")
    expect(url).to_contain_text("/desk#signin=")
    return url.inner_text()


def open_table(page: Any, name: str, laws: str, players: list[str], first: str,
               guest: str | None = None) -> None:
    form = page.get_by_test_id("open-table")
    form.get_by_label("Name of the table").fill(name)
    form.get_by_label("Laws").select_option(label=laws)
    form.get_by_label("One counter is worth").fill("0.10")
    for player in players:
        form.get_by_label(player, exact=True).check()
    if guest:
        form.get_by_label("A guest's name").fill(guest)
        form.get_by_role("button", name="Seat the guest").click()
    form.get_by_label("First dealer").select_option(first)
    form.get_by_role("button", name="Open the table").click()
    said(page, f"{name} is open.")


def table_row(page: Any, name: str) -> Any:
    return page.get_by_test_id("tables").locator(f"[data-table='{name}']")


def pair_tablet(evening: Evening, desk: Any, name: str, dealer: str) -> Any:
    """A pairing code shown at the desk for `dealer`, typed on a new tablet."""
    row = table_row(desk, name)
    row.get_by_role("button", name="Tablets and end").click()
    pair = row.get_by_test_id("pair-form")
    pair.get_by_label("For the dealer").select_option(label=dealer)
    pair.get_by_role("button", name="Show a pairing code").click()
    code = row.get_by_test_id("pairing-code")
    expect(code).to_have_text(re.compile(r"^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$"))
    tablet = evening.person(f"{evening.server.url}/table", TABLET_PORTRAIT, touch=True)
    tablet.locator("#pair-code").fill(code.inner_text())
    tablet.get_by_test_id("pair").click()
    expect(tablet.get_by_test_id("prompt")).to_contain_text("deals")
    row.get_by_role("button", name="Tablets and end").click()  # folded again
    return tablet


class Tablet:
    """A paired tablet, tapped as the dealer taps (tests/browser/tablet.py's helpers want a
    Device: this is one in all they use)."""

    def __init__(self, page: Any):
        self.page = page
        self.taps = 0

    def tap(self, locator: Any) -> None:
        locator.click()
        self.taps += 1


def quick_deal(tablet: Tablet, trump: str) -> None:
    """One hand in quick mode: the trump turned up, everyone plays (or the first choice the
    ledger offers), and the first winner offered takes every trick."""
    shown = prompt(tablet)
    expect(shown).to_contain_text("deals: tap the card turned up")
    text = shown.inner_text()
    pick(tablet, trump)
    for _ in range(40):
        expect(shown).not_to_have_text(text)
        text = shown.inner_text()
        if text in ("Declarations done",) or text.startswith("Waiting"):
            continue
        if text.endswith(" declares"):
            everyone = tablet.page.get_by_test_id("everyone-plays")
            tablet.tap(everyone if everyone.count() else
                       tablet.page.locator("button[data-declaration]").first)
        elif text.endswith("who won it?"):
            tablet.tap(tablet.page.locator("button[data-winner]").first)
        else:
            break
    wait_saved(tablet)


def turn_up_single(tablet: Tablet, trump: str, cards: list[str]) -> None:
    expect(prompt(tablet)).to_contain_text("deals the turn-up single")
    pick(tablet, trump)
    for card in cards:
        pick(tablet, card)
    wait_saved(tablet)


def between(tablet: Tablet) -> Any:
    button = tablet.page.get_by_test_id("table-changes")
    expect(button).to_be_enabled()
    button.click()
    dialog = tablet.page.get_by_test_id("between-dialog")
    expect(dialog).to_contain_text("Between deals")
    return dialog


def notice(tablet: Tablet, testid: str) -> Any:
    return tablet.page.get_by_test_id("notices").get_by_test_id(testid)


def end_at_the_desk(evening: Evening, desk: Any, name: str, sid: str) -> None:
    """The table ended at the desk with the first ending the ledger offers; what is left in
    its pools shown first, as the API has it."""
    row = table_row(desk, name)
    row.get_by_role("button", name="Tablets and end").click()
    view = evening.read(f"/sessions/{sid}")
    expect(row.get_by_test_id("pools")).to_have_text(
        f"Left in the pools: {view['pool_units']} in the pool, {view['next_pool_units']} for "
        f"the next ({view['unit']}s).")
    ending = row.get_by_test_id("end-form")
    ending.get_by_role("radio").first.check()
    ending.get_by_role("button", name=f"End {name}").click()
    said(desk, f"{name} has ended: its statement is ready.")


@pytest.mark.usefixtures("signing_key")
def test_a_whole_club_evening_in_the_pages(evening, server, recorded, shots):
    # ------------------------------------------------------------ the admin, by the link
    admin = evening.person(create_club(server, "The Bell Loo Club"), LAPTOP)
    signed_in(admin, "Mrs Bell, admin")
    for name in ("Tess", "Ode", "Dan", "Ann", "Ben", "Cy", "Eve"):
        form = admin.get_by_test_id("add-member")
        form.get_by_label("Name").fill(name)
        form.get_by_role("button", name="Add the member").click()
        said(admin, f"{name} is a member of the club.")
    tess_link = give_link(admin, "Tess", "treasurer: tables, payments and the books")
    ode_link = give_link(admin, "Ode", "auditor: reads and verifies everything")
    dealer_links = {dealer: give_link(admin, dealer, "dealer: logs play at a table")
                    for dealer in ("Dan", "Cy")}
    links = admin.get_by_test_id("links").locator("[data-status='waiting']")
    expect(links).to_have_count(4)
    expect(links.filter(has_text="Dan as dealer")).to_have_count(1)

    # ------------------------------------------------------------ the treasurer's evening
    desk = evening.person(tess_link, LAPTOP)
    signed_in(desk, "Tess, treasurer")
    evening.token = desk.evaluate("() => localStorage.getItem('lanterloo.desk.token')")
    open_table(desk, FIRST, "Baxter-Wray, Round Games with Cards", ["Dan", "Ann", "Ben"],
               "Dan")
    open_table(desk, SECOND, "Cassell's Book of In-door Amusements", ["Cy", "Eve"], "Cy",
               guest="Mr Green")
    sessions = {s["name"]: s["session_id"] for s in evening.read("/club/sessions")["sessions"]}
    first, second = sessions[FIRST], sessions[SECOND]
    assert evening.read(f"/sessions/{first}")["rules"]["preset"] == "baxter-wray"
    assert evening.read(f"/sessions/{second}")["rules"]["preset"] == "cassell"

    # the evening's tin: a float, both tables joined to it while open
    floated = desk.get_by_test_id("float-form")
    floated.get_by_label("Float").fill("5.00")
    floated.get_by_role("button", name="Put the float in").click()
    said(desk, "A float of 5.00 GBP is in the tin.")
    for name in (FIRST, SECOND):
        # each table by its name, and the page's word for that one: a room redrawn after the
        # first join must not be taken for the second
        joining = desk.get_by_test_id("join-form")
        joining.get_by_label("Table").select_option(value=option_named(joining, name))
        joining.get_by_role("button", name="Join it to the tin").click()
        said(desk, f"{name} is in the tin")
    expect(desk.get_by_test_id("join-form")).to_have_count(0)

    # Cy's dealer link opens the tablet, signed in as Cy, with the club's open tables to pick
    link_tablet = evening.person(dealer_links["Cy"], TABLET_PORTRAIT, touch=True)
    expect(link_tablet.locator("[data-session]")).to_have_count(2)
    assert link_tablet.url.split("#")[0] == f"{server.url}/table"
    link_tablet.get_by_role("button", name=SECOND).click()
    expect(link_tablet.get_by_test_id("prompt")).to_have_text("Cy deals: tap the card turned up")
    link_tablet.context.close()
    evening.contexts.remove(link_tablet.context)

    dan = Tablet(pair_tablet(evening, desk, FIRST, "Dan"))
    cy = Tablet(pair_tablet(evening, desk, SECOND, "Cy"))

    # ------------------------------------------------------------ play at the first table
    turn_up_single(dan, "7H", ["9H", "KS", "5C"])
    # a latecomer, a guest, seated to the left of Ben
    dialog = between(dan)
    dialog.get_by_test_id("join").click()
    dan.page.locator("#join-name").fill("Fenella")
    dan.page.locator("#join-guest").check()
    dialog.locator('[data-after="Ben"]').click()
    dialog.get_by_test_id("join-confirm").click()
    wait_saved(dan)
    expect(dan.page.locator(".balances th", has_text="Fenella")).to_be_visible()
    quick_deal(dan, "2S")
    # Ben withdraws at his deal
    expect(prompt(dan)).to_contain_text("Ben deals")
    dialog = between(dan)
    dialog.get_by_test_id("withdraw").click()
    wait_saved(dan)
    expect(notice(dan, "withdrawing")).to_contain_text("Ben withdraws")
    quick_deal(dan, "3S")
    expect(notice(dan, "withdrawn")).to_have_text("Withdrawn: Ben.")
    # the last round, played out
    dialog = between(dan)
    dialog.get_by_test_id("last-round").click()
    wait_saved(dan)
    expect(notice(dan, "last-round")).to_contain_text("deals to go")
    for trump in ("4S", "5S", "6S", "7S", "8S"):
        if "over" in notice(dan, "last-round").inner_text():
            break
        quick_deal(dan, trump)
    expect(notice(dan, "last-round")).to_have_text(
        "The last round is over: the table ends the session.")
    assert evening.read(f"/sessions/{first}")["active"] == ["Dan", "Ann", "Fenella"]

    # ------------------------------------------------------------ play at the second table
    for trump in ("2H", "3H"):
        quick_deal(cy, trump)
    cy.page.screenshot(path=str(shots / "evening-tablet.png"))

    # ------------------------------------------------------------ the tables end at the desk
    end_at_the_desk(evening, desk, FIRST, first)
    end_at_the_desk(evening, desk, SECOND, second)
    for tablet in (dan, cy):
        expect(prompt(tablet)).to_have_text("The session has ended.")
    # each tablet logged as the dealer it was paired for, not as the treasurer who paired it
    ids = {m["name"]: m["member_id"] for m in evening.read("/members")["members"]}
    for sid, dealer in ((first, "Dan"), (second, "Cy")):
        logged = evening.read(f"/sessions/{sid}/events")["events"]
        assert {e["member_id"] for e in logged if e["type"] == "DealStarted"} == {ids[dealer]}
    desk.screenshot(path=str(shots / "evening-desk-ended.png"), full_page=True)

    # ------------------------------------------------------------ after play: who pays whom
    desk.get_by_role("link", name="After play").click()
    drawn(desk, "after")
    settle = settle_up_shown(desk, evening.read("/settle-up")["currencies"][0])
    debts_shown(desk, evening.read("/debts"))
    owing = settle["pays_club"][0]
    owed = settle["club_pays"][0]

    # payments both ways, in cash for the first table: counted in its tin
    pay(desk, "A member pays the club", owing["name"], owing["amount_minor"], "Cash", FIRST)
    said(desk, f"{owing['name']} paid the club {gbp(owing['amount_minor'])} (cash).")
    pay(desk, "The club pays a member", owed["name"], owed["amount_minor"], "Cash", FIRST)
    said(desk, f"The club paid {owed['name']} {gbp(owed['amount_minor'])} (cash).")
    settle_up_shown(desk, evening.read("/settle-up")["currencies"][0])

    # a wrong entry (Eve paid nothing), reversed with a reason
    pay(desk, "A member pays the club", "Eve", 100, "Transfer", None)
    said(desk, "Eve paid the club 1.00 GBP (transfer).")
    wrong = desk.get_by_test_id("book").locator("li").filter(has_text="Eve paid the club")
    seq = wrong.get_attribute("data-seq")
    wrong.get_by_role("button", name=f"Reverse entry {seq}").click()
    wrong.get_by_label(f"Why entry {seq} is wrong").fill("Eve paid nothing tonight")
    wrong.get_by_role("button", name=f"Reverse entry {seq}").click()
    said(desk, f"Entry {seq} is reversed.")
    expect(desk.get_by_test_id("book").locator(f"[data-seq='{seq}']")).to_contain_text(
        "reversed by entry")
    assert [e["reverses"] for e in evening.read("/book-entries")["entries"]
            if e.get("reverses")] == [int(seq)]
    settle_up_shown(desk, evening.read("/settle-up")["currencies"][0])

    # the tin, counted 0.50 short, the shortage booked to the club
    tonight = datetime.date.today().isoformat()
    expected = 500 + owing["amount_minor"] - owed["amount_minor"]
    count = desk.get_by_test_id("count-form")
    count.get_by_label("Counted (GBP)").fill(f"{(expected - 50) / 100:.2f}")
    count.get_by_role("button", name="Record the count").click()
    said(desk, f"The tin is counted: {gbp(expected - 50)}.")
    tin = evening.read(f"/evenings/{tonight}")
    assert (tin["cash"]["expected_minor"], tin["cash"]["difference_minor"]) == (expected, -50)
    tin_shown(desk, tin)
    book = desk.get_by_test_id("difference-form")
    expect(book.get_by_label("Amount")).to_have_value("0.50")
    book.get_by_label("Why").fill("a coin rolled away")
    book.get_by_role("button", name="Book the shortage").click()
    said(desk, "A shortage of 0.50 GBP is booked to the club.")
    tin = evening.read(f"/evenings/{tonight}")
    assert (tin["cash"]["booked_minor"], tin["cash"]["unbooked_minor"]) == (-50, 0)
    tin_shown(desk, tin)
    desk.screenshot(path=str(shots / "evening-after-play.png"), full_page=True)

    # the second table corrected: deal 1's second trick went to another player
    finder = desk.get_by_test_id("find-entry")
    finder.get_by_label("Table").select_option(label=next(
        o for o in finder.get_by_label("Table").locator("option").all_inner_texts()
        if o.startswith(SECOND)))
    finder.get_by_label("Deal").select_option(label="Deal 1")
    finder.get_by_label("Where").select_option(label="Trick 2")
    entry = desk.get_by_test_id("entries").locator("li")
    expect(entry).to_have_count(1)
    winner = entry.inner_text().split(" took trick 2")[0]
    entry.get_by_role("button", name=f"Correct: {winner} took trick 2").click()
    form = desk.get_by_test_id("correction")
    chosen = form.get_by_label("Who took trick 2")
    other = next(o for o in chosen.locator("option").all_inner_texts() if o != winner)
    chosen.select_option(other)
    form.get_by_label("Why").fill("the scorer's slip")
    form.get_by_role("button", name="Correct the entry").click()
    done = desk.get_by_role("status").filter(has_text="is corrected (version ")
    expect(done).to_contain_text(f"{SECOND} is corrected")
    statement = evening.read(f"/sessions/{second}/statement")
    for line in statement["players"]:  # the table's statement, as the page shows it
        expect(done).to_contain_text(f"{line['player']} {gbp(line['net_money_minor'])}")
    assert [c["session_id"] for c in evening.read("/audit/corrections")["corrections"]] == [
        second]
    expect(desk.get_by_test_id("entries").locator("li")).to_contain_text(
        f"{other} took trick 2")
    settle_up_shown(desk, evening.read("/settle-up")["currencies"][0])
    debts_shown(desk, evening.read("/debts"))

    # a member's account with something on it, and his own link
    members = {m["name"]: m for m in evening.read("/members")["members"]}
    settle = evening.read("/settle-up")["currencies"][0]
    who = next(p["name"] for p in settle["club_pays"] + settle["pays_club"]
               if not members[p["name"]]["guest"])
    account = evening.read(f"/members/{members[who]['member_id']}/account")
    balance = account["balances"]["GBP"]
    assert balance != 0
    panel = desk.get_by_test_id("account-form")
    panel.get_by_label("Member").select_option(label=who)
    panel.get_by_role("button", name="Show his account").click()
    expect(desk.get_by_test_id("balance")).to_contain_text(f"{who}'s balance: {gbp(balance)}")
    lines = desk.get_by_test_id("account-lines").locator("li")
    expect(lines).to_have_count(len(account["entries"]))
    for line, e in zip(lines.all(), account["entries"], strict=True):
        expect(line.locator("[data-figure='balance']")).to_have_text(
            f"balance {gbp(e['balance_minor'])}")
    desk.get_by_test_id("member-link").get_by_role("button", name=f"Make {who}'s link").click()
    expect(desk.get_by_test_id("member-url")).to_contain_text(f"{server.url}/")
    member_link = desk.get_by_test_id("member-url").inner_text()

    # ------------------------------------------------------------ month-end: the downloads
    desk.get_by_role("link", name="Month-end").click()
    drawn(desk, "month")
    today = datetime.datetime.now(datetime.UTC).date()
    first_day = today.replace(day=1)
    after = (first_day + datetime.timedelta(days=32)).replace(day=1)
    register = evening.read(f"/book-entries?since={first_day}T00:00:00Z"
                            f"&until={after}T00:00:00Z")["entries"]
    expect(desk.get_by_test_id("register").locator("li")).to_have_count(len(register))
    settle_up_shown(desk, evening.read("/settle-up")["currencies"][0])
    exports = desk.get_by_test_id("exports")
    # the register, the debts, what the club owes, who pays whom, the books, the club's page
    expect(exports.get_by_role("button")).to_have_count(6)
    buttons = exports.get_by_role("button").all()
    saved = []
    for button in buttons:
        with desk.expect_download() as download:
            button.click()
        saved.append(download.value.suggested_filename)
        assert Path(download.value.path()).stat().st_size > 0, saved[-1]
        expect(button.locator("xpath=..").get_by_test_id("saved")).to_have_text(
            f"Saved {saved[-1]}")
    assert len(set(saved)) == len(saved), saved  # each a file of its own name
    desk.screenshot(path=str(shots / "evening-month-end.png"), full_page=True)

    # ------------------------------------------------------------ the auditor
    ode = evening.person(ode_link, LAPTOP)
    signed_in(ode, "Ode, auditor")
    ode.get_by_role("button", name="Verify the whole club").click()
    expect(ode.get_by_test_id("club-verdict")).to_have_text(
        "The club verifies: 2 sessions, the book log and the club log each agree with their "
        "logs.")
    rows = ode.get_by_test_id("sessions")
    expect(rows.locator("li")).to_have_count(2)
    row = rows.locator(f"[data-session='{FIRST}']")
    version = evening.read(f"/sessions/{first}")["version"]
    row.get_by_role("button", name=f"Verify {FIRST}").click()
    expect(row.get_by_test_id("verdict")).to_have_text(
        f"Verified: the log of {version} entries and every figure agree.")
    row.get_by_role("button", name=f"Explain {FIRST}").click()
    figures = row.get_by_test_id("figures")
    trail = {f["account"]: f for f in evening.read(f"/sessions/{first}/explain")["figures"]}
    for line in evening.read(f"/sessions/{first}/statement")["players"]:
        player, minor = line["player"], line["net_money_minor"]
        expect(figures.locator(f"[data-figure='{player}']")).to_contain_text(
            f"{player}: {trail[player]['net_units']} units ({gbp(minor)})")
    with ode.expect_download() as download:
        row.get_by_role("button", name=f"Export {FIRST}").click()
    expect(row.get_by_test_id("export-verdict")).to_have_text(re.compile(
        rf"^{re.escape(download.value.suggested_filename)} is intact: its {version} entries, "
        "every hash, the signature by the club's key .* and every figure hold.$"))
    ode.screenshot(path=str(shots / "evening-auditor.png"), full_page=True)

    # ------------------------------------------------------------ a member, on his phone
    phone = evening.person(member_link, PHONE, touch=True)
    expect(phone.locator("main.sheet")).to_contain_text(who)
    assert phone.url == f"{server.url}/table/member"
    expect(phone.get_by_test_id("balances")).to_contain_text(gbp(abs(balance)))
    wide = phone.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], wide
    phone.screenshot(path=str(shots / "evening-member-phone.png"), full_page=True)

    assert_only_the_pages_asked(evening, recorded)


def pay(page: Any, way: str, member: str, minor: int, method: str, table: str | None) -> None:
    form = page.get_by_test_id("payment")
    form.get_by_label("Which way").select_option(label=way)
    form.get_by_label("Member").select_option(member)
    form.get_by_label("Amount").fill(f"{minor / 100:.2f}")
    form.get_by_label("Paid by").select_option(label=method)
    tables = form.get_by_label("For the table")
    tables.select_option(label=next(o for o in tables.locator("option").all_inner_texts()
                                    if o.startswith(table)) if table else "No table")
    form.get_by_role("button", name="Record the payment").click()


def settle_up_shown(page: Any, settle: dict[str, Any]) -> dict[str, Any]:
    """Who pays whom on the page is GET /settle-up's."""
    shown = page.get_by_test_id("settle-up")
    for side in ("pays_club", "club_pays"):
        expect(shown.locator(f"[data-side='{side}'] [data-member]")).to_have_count(
            len(settle[side]))
        for p in settle[side]:
            expect(shown.locator(f"[data-side='{side}'] [data-member='{p['name']}']")) \
                .to_contain_text(gbp(p["amount_minor"]))
    for key in ("cash_minor", "receivable_minor", "payable_minor", "position_minor"):
        expect(shown.locator(f"[data-figure='{key}']")).to_have_text(gbp(settle[key]))
    return settle


def debts_shown(page: Any, debts: dict[str, Any]) -> None:
    """The open debts on the page are GET /debts's."""
    shown = page.get_by_test_id("debts")
    expect(shown.locator("li")).to_have_count(len(debts["debts"]))
    for d in debts["debts"]:
        expect(shown.locator(f"[data-member='{d['name']}']").first).to_contain_text(
            f"{d['name']} owes {gbp(d['amount_minor'])}")


def tin_shown(page: Any, tin: dict[str, Any]) -> None:
    """Every figure of the tin on the page is GET /evenings/<date>'s."""
    lines = page.get_by_test_id("tin-lines")
    expect(lines.locator("[data-line='float']")).to_contain_text(gbp(tin["float_minor"]))
    for s in tin["sessions"]:
        row = lines.locator(f"[data-session='{s['session_name']}']")
        expect(row.locator("[data-figure='pools']")).to_have_text(
            f"left in the pools {gbp(s['pools_minor'])}")
        expect(row).to_contain_text(f"cash in {gbp(s['cash_paid_in_minor'])}")
    for key in ("expected_minor", "counted_minor", "difference_minor", "booked_minor",
                "unbooked_minor"):
        expect(page.get_by_test_id("tin-check").locator(f"[data-figure='{key}']")) \
            .to_have_text(gbp(tin["cash"][key]))


def assert_only_the_pages_asked(evening: Evening, recorded: Recorder) -> None:
    """Every request the server answered came from a browser, or was one of the test's own
    reads; the pages asked nothing of another origin and threw nothing."""
    by_test = [(m, p) for m, p, agent, read in recorded.seen if "HeadlessChrome" not in agent]
    marked = [(m, p) for m, p, agent, read in recorded.seen
              if "HeadlessChrome" not in agent and read]
    assert by_test == marked, [r for r in by_test if r not in marked]
    assert all(m == "GET" for m, _ in marked)
    assert [u for _, u in evening.requests if not u.startswith(evening.server.url)] == []
    assert len(evening.requests) > 0
    assert evening.errors == []


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_desk_opens_an_ended_tables_statement(new_device, server, axe_source, size, shots):
    """Each room that names the ended tables (the evening's, after play's, month-end's) links
    each to its statement, which opens with the desk's token and shows the API's nets."""
    name = f"The Statement Loo Club ({size})"
    tess = treasurer_at_the_desk(new_device, server, name, size)
    club = tess.club
    sid = ended_table(club)
    page = tess.page
    for room in ("The evening", "After play", "Month-end"):
        page.get_by_role("link", name=room).click()
        link = page.get_by_test_id("ended").get_by_role("link", name="Statement of Thursday")
        expect(link).to_have_count(1)
        expect(link).to_have_attribute("href", f"/table/statement#s={sid}")
        fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-statements-{size}.png"), full_page=True)
    link.click()
    sheet = page.locator("main.sheet")
    expect(sheet).to_be_visible()
    statement = club.ledger().statement(sid)
    shown = {row.get_attribute("data-player"): int(
        row.locator("[data-net-units]").get_attribute("data-net-units"))
        for row in sheet.locator("tr[data-player]").all()}
    assert shown == {p["player"]: p["net_units"] for p in statement["players"]}
    assert shown == {"Tess": -4, "Dan": 5, "Ann": -1}
    page.go_back()
    expect(page.get_by_test_id("who")).to_have_text("Tess, treasurer")


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_after_play_keeps_the_account_shown_up_to_date(new_device, server, axe_source, size):
    """A payment taken draws the member's account shown again: its balance the API's."""
    name = f"The Stale Loo Club ({size})"
    tess = treasurer_at_the_desk(new_device, server, name, size)
    club = tess.club
    ended_table(club)  # Ann owes 0.10
    page = tess.page
    page.get_by_role("link", name="After play").click()
    shown = page.get_by_test_id("balance")
    expect(shown).to_have_text("Ann's balance: -0.10 GBP (below zero: owed to the club)")
    fits(tess, axe_source)
    pay(page, "A member pays the club", "Ann", 4, "Cash", None)
    said(page, "Ann paid the club 0.04 GBP (cash).")
    ann = club.ids["Ann"]
    balance = club.books().account(ann)["balances"]["GBP"]
    assert balance == -6
    expect(shown).to_have_text(f"Ann's balance: {gbp(balance)} (below zero: owed to the club)")
    lines = page.get_by_test_id("account-lines").locator("li")
    expect(lines).to_have_count(club.books().account(ann)["total_entries"])
    pay(page, "A member pays the club", "Ann", 6, "Cash", None)
    said(page, "Ann paid the club 0.06 GBP (cash).")
    assert club.books().account(ann)["balances"]["GBP"] == 0
    expect(shown).to_have_text("Ann is square with the club.")
    fits(tess, axe_source)
