"""After play at the desk in real Chromium, the treasurer's books (docs/desk.md): a debt
written off beyond what he owes is refused beside the amount in the ledger's words and
nothing is booked, then written off with a reason; who pays whom; a member's account with
its running balance; his own link as a full URL; an ended table corrected, the entry found
by its deal and trick (a winner the laws refuse is refused, nothing appended). Every figure
the page shows is the API's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.domain import OpenSession
from ledger.domain.commands import EndSession, StartDeal
from ledger.store.tables import book_entries, events
from tests.integration.helpers import quick_deal

from .desk import (
    DOC_SIZES,
    DeskClub,
    api,
    drawn,
    fits,
    gbp,
    refused,
    rows,
    treasurer_at_the_desk,
)

CLUBS = {"laptop": "The Anchor Loo Club", "phone": "The Plough Loo Club"}


def played_table(club: DeskClub) -> str:
    """"Thursday" at 10p: Dan takes the turn-up single; deal 2 entered trick by trick (Ann
    and Tess stand, Dan throws up, Ann takes all three tricks: Tess is looed); the pool
    divided at the end."""
    ledger, tess = club.ledger(), club.by("Tess")
    sid = str(ledger.open_session(OpenSession(
        players=["Tess", "Dan", "Ann"], first_dealer="Tess", name="Thursday",
        money_per_unit_minor=10, currency="GBP"), tess).body["session_id"])
    ledger.append(sid, [StartDeal(trump_card="7H", face_up={
        "Tess": "5C", "Dan": "9H", "Ann": "KS"})], tess)
    for command in quick_deal(ledger.session(sid)):
        ledger.append(sid, [command], tess)
    ledger.append(sid, [EndSession(method="divide-pool")], tess)
    return sid


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_treasurer_writes_off_settles_reads_an_account_and_sends_a_link(
        new_device, server, axe_source, size, shots):
    tess = treasurer_at_the_desk(new_device, server, CLUBS[size], size)
    played_table(tess.club)
    page = tess.page
    page.get_by_role("link", name="After play").click()
    drawn(page, "after")
    debts = api(server, tess, "GET", "/debts")
    tess_debt = next(d for d in debts["debts"] if d["name"] == "Tess")
    row = page.get_by_test_id("debts").locator("[data-member='Tess']")
    expect(row).to_contain_text(f"Tess owes {gbp(tess_debt['amount_minor'])}")

    # a write-off beyond the debt: the ledger's sentence beside the amount, nothing booked
    row.get_by_role("button", name="Write off Tess's debt").click()
    form = row.get_by_test_id("write-off")
    expect(form.get_by_label("Write off (GBP)")).to_have_value(
        gbp(tess_debt["amount_minor"]).split()[0])
    form.get_by_label("Write off (GBP)").fill("99.00")
    form.get_by_label("Why it will not be paid").fill("moved to York")
    before = rows(server, book_entries)
    form.get_by_role("button", name="Write off Tess's debt").click()
    refusal = form.locator("[data-field='amount_minor'] .refusal")
    expect(refusal).to_have_attribute("data-rule", "write-off-exceeds-debt")
    status, problem = refused(server, tess, "POST", "/write-offs", {
        "member": "Tess", "amount_minor": 9900, "currency": "GBP", "reason": "moved to York"})
    assert status == 422
    expect(refusal).to_have_text(problem["detail"])
    assert rows(server, book_entries) == before
    fits(tess, axe_source)
    form.get_by_label("Write off (GBP)").fill("0.10")
    form.get_by_role("button", name="Write off Tess's debt").click()
    expect(page.get_by_test_id("book").locator("[data-seq='1']")).to_contain_text(
        "Write-off: Tess, 0.10 GBP")
    expect(page.get_by_role("status")).to_have_text("0.10 GBP of Tess's debt is written off.")
    assert api(server, tess, "GET", "/debts")["totals"]["GBP"] == debts["totals"]["GBP"] - 10

    # who pays whom: the settle-up's figures
    settle = api(server, tess, "GET", "/settle-up")["currencies"][0]
    shown = page.get_by_test_id("settle-up")
    for p in settle["pays_club"]:
        expect(shown.locator(f"[data-side='pays_club'] [data-member='{p['name']}']"))\
            .to_contain_text(gbp(p["amount_minor"]))
    for p in settle["club_pays"]:
        expect(shown.locator(f"[data-side='club_pays'] [data-member='{p['name']}']"))\
            .to_contain_text(gbp(p["amount_minor"]))
    for key in ("cash_minor", "receivable_minor", "payable_minor", "written_off_minor",
                "position_minor"):
        expect(shown.locator(f"[data-figure='{key}']")).to_have_text(gbp(settle[key]))
    assert settle["written_off_minor"] == 10

    # a member's account, line by line with its running balance
    ann = next(m for m in api(server, tess, "GET", "/members")["members"] if m["name"] == "Ann")
    account = api(server, tess, "GET", f"/members/{ann['member_id']}/account")
    panel = page.get_by_test_id("account-form")
    panel.get_by_label("Member").select_option(label="Ann")
    panel.get_by_role("button", name="Show his account").click()
    expect(page.get_by_test_id("balance")).to_contain_text(
        f"Ann's balance: {gbp(account['balances']['GBP'])}")
    lines = page.get_by_test_id("account-lines").locator("li")
    expect(lines).to_have_count(len(account["entries"]))
    for line, e in zip(lines.all(), account["entries"], strict=True):
        expect(line.locator("[data-figure='amount']")).to_have_text(gbp(e["amount_minor"]))
        expect(line.locator("[data-figure='balance']")).to_have_text(
            f"balance {gbp(e['balance_minor'])}")
        expect(line).to_contain_text(e["description"])

    # his own link, a full URL to copy
    page.get_by_test_id("member-link").get_by_role("button", name="Make Ann's link").click()
    url = page.get_by_test_id("member-url")
    expect(url).to_contain_text(f"{server.url}/")
    links = api(server, tess, "GET", "/signin-links")["links"]
    assert [(k["member"], k["role"], k["status"]) for k in links] == [("Ann", "member",
                                                                      "waiting")]
    assert url.inner_text().startswith("http")
    fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-books-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_an_ended_table_is_corrected_by_deal_and_trick(new_device, server, axe_source, size,
                                                      shots):
    tess = treasurer_at_the_desk(new_device, server, f"Corrections {size}", size)
    sid = played_table(tess.club)
    page = tess.page
    page.get_by_role("link", name="After play").click()
    drawn(page, "after")
    finder = page.get_by_test_id("find-entry")
    expect(finder.get_by_label("Table")).to_contain_text("Thursday, ended ")
    finder.get_by_label("Deal").select_option(label="Deal 2")
    finder.get_by_label("Where").select_option(label="Trick 2")
    entries = page.get_by_test_id("entries").locator("li")
    expect(entries).to_have_count(1)
    expect(entries).to_have_text("Ann took trick 2Correct…")

    # Dan threw up: the laws give him no trick; the ledger refuses, nothing is appended
    entries.get_by_role("button", name="Correct: Ann took trick 2").click()
    form = page.get_by_test_id("correction")
    form.get_by_label("Who took trick 2").select_option("Dan")
    form.get_by_label("Why").fill("the scorer's slip")
    before = rows(server, events)
    form.get_by_role("button", name="Correct the entry").click()
    refusal = form.locator(".refusal")
    expect(refusal).to_be_visible()
    version = int(entries.get_attribute("data-version") or 0)
    status, problem = refused(server, tess, "POST", f"/sessions/{sid}/corrections", {
        "voids": [version], "replacements": [{"type": "TrickWon", "winner": "Dan"}],
        "reason": "the scorer's slip"})
    assert status == 422
    expect(refusal).to_have_text(problem["detail"])  # the ledger's own words
    assert rows(server, events) == before
    fits(tess, axe_source)

    form.get_by_label("Who took trick 2").select_option("Tess")
    form.get_by_role("button", name="Correct the entry").click()
    done = page.get_by_role("status")
    expect(done).to_contain_text('Thursday is corrected (version ')
    statement = api(server, tess, "GET", f"/sessions/{sid}/statement")
    for line in statement["players"]:
        expect(done).to_contain_text(f"{line['player']} {gbp(line['net_money_minor'])}")
    corrections = api(server, tess, "GET", "/audit/corrections")["corrections"]
    assert len(corrections) == 1 and corrections[0]["session_id"] == sid
    # Tess took a trick: she is no longer looed, and her account says so on the day
    tess_id = tess.club.ids["Tess"]
    account = api(server, tess, "GET", f"/members/{tess_id}/account")
    assert account["entries"][-1]["kind"] == "adjustment"
    assert "the scorer's slip" in account["entries"][-1]["description"]
    expect(page.get_by_test_id("entries").locator("li")).to_have_text(
        "Tess took trick 2Correct…")
    # the debts and who pays whom are read again: the API's, after the correction
    debts = api(server, tess, "GET", "/debts")
    expect(page.get_by_test_id("debts").locator("xpath=preceding-sibling::p[1]")).to_have_text(
        f"Owed to the club: {gbp(debts['totals']['GBP'])}.")
    settle = api(server, tess, "GET", "/settle-up")["currencies"][0]
    expect(page.get_by_test_id("settle-up").locator("[data-figure='receivable_minor']"))\
        .to_have_text(gbp(settle["receivable_minor"]))
    fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-correction-{size}.png"), full_page=True)
