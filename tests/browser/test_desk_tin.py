"""The evening's tin at the desk in real Chromium, the way a treasurer works (docs/desk.md):
the tables that ended tonight listed by name and date, a float of 5.00 put in the tin, an
ended and an open table joined to it with what is left in their pools; after play the count
refused while a table of the tin is open (the ledger's sentence, nothing recorded), then the
tin counted 0.50 short (a float of 5.00 and Ann's 0.10 in cash for
Thursday expected), a shortage beyond the check refused beside the amount, and the
shortage booked to the club. Every figure the page shows is the API's."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.domain import OpenSession
from ledger.domain.commands import EndSession, StartDeal
from ledger.store.tables import book_entries

from .desk import (
    DOC_SIZES,
    DeskClub,
    api,
    drawn,
    ended_table,
    fits,
    refused,
    rows,
    treasurer_at_the_desk,
)
from .test_desk_evening import open_table

CLUBS = {"laptop": "The Bell Loo Club", "phone": "The Swan Loo Club"}


def open_table_with_a_pool(club: DeskClub) -> str:
    """"Second table" at 10p, its turn-up single taken by nobody: the pool of 3 is carried."""
    ledger, tess = club.ledger(), club.by("Tess")
    sid = ledger.open_session(OpenSession(players=["Tess", "Dan", "Ann"], first_dealer="Tess",
                                          name="Second table", money_per_unit_minor=10,
                                          currency="GBP"), tess).body["session_id"]
    ledger.append(sid, [StartDeal(trump_card="7H", face_up={
        "Tess": "5C", "Dan": "6C", "Ann": "KS"})], tess)
    return str(sid)


def shown_equals_the_tin(page: Any, tin: dict[str, Any]) -> None:
    """Every figure of the tin on the page is GET /evenings/<date>'s."""
    lines = page.get_by_test_id("tin-lines")
    expect(lines.locator("[data-line='float']")).to_contain_text(
        f"{tin['float_minor'] / 100:.2f} GBP")
    for s in tin["sessions"]:
        row = lines.locator(f"[data-session='{s['session_name']}']")
        expect(row.locator("[data-figure='pools']")).to_have_text(
            f"left in the pools {s['pools_minor'] / 100:.2f} GBP")
        expect(row).to_contain_text(f"cash in {s['cash_paid_in_minor'] / 100:.2f} GBP")
    if tin["cash"]:
        for key in ("expected_minor", "counted_minor", "difference_minor", "booked_minor",
                    "unbooked_minor"):
            expect(page.get_by_test_id("tin-check").locator(f"[data-figure='{key}']")) \
                .to_have_text(f"{tin['cash'][key] / 100:.2f} GBP")


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_treasurer_fills_the_evenings_tin_counts_it_and_books_the_shortage(
        new_device, server, axe_source, size, shots):
    tess = treasurer_at_the_desk(new_device, server, CLUBS[size], size)
    ended_table(tess.club)
    second = open_table_with_a_pool(tess.club)
    tonight = datetime.date.today().isoformat()
    page = tess.page
    page.reload()
    drawn(page)
    ended = page.get_by_test_id("ended")
    expect(ended.locator("[data-table='Thursday']")).to_contain_text("ended ")
    expect(ended.locator("[data-table='Thursday']")).to_contain_text("Tess, Dan, Ann")
    expect(ended.locator("li")).to_have_count(1)  # the open table is not among them
    row = page.get_by_test_id("tables").locator("[data-table='Second table']")
    row.get_by_role("button", name="Tablets and end").click()
    view = api(server, tess, "GET", f"/sessions/{second}")
    assert view["pool_units"] + view["next_pool_units"] > 0
    expect(row.get_by_test_id("pools")).to_have_text(
        f"Left in the pools: {view['pool_units']} in the pool, {view['next_pool_units']} for "
        f"the next ({view['unit']}s).")
    row.get_by_role("button", name="Tablets and end").click()

    floated = page.get_by_test_id("float-form")
    floated.get_by_label("Float").fill("5.00")
    floated.get_by_role("button", name="Put the float in").click()
    expect(page.get_by_role("status")).to_have_text("A float of 5.00 GBP is in the tin.")
    join = page.get_by_test_id("join-form")
    expect(join.get_by_label("Table").locator("option")).to_have_count(2)  # ended, open
    join.get_by_label("Table").select_option(label=next(
        o for o in join.get_by_label("Table").locator("option").all_inner_texts()
        if o.startswith("Thursday")))
    join.get_by_role("button", name="Join it to the tin").click()
    expect(page.get_by_role("status")).to_contain_text("Thursday is in the tin of ")
    page.get_by_test_id("join-form").get_by_role("button", name="Join it to the tin").click()
    expect(page.get_by_role("status")).to_contain_text("Second table is in the tin")
    expect(page.get_by_test_id("join-form")).to_have_count(0)
    tin = api(server, tess, "GET", f"/evenings/{tonight}")
    assert [s["session_name"] for s in tin["sessions"]] == ["Thursday", "Second table"]
    assert tin["float_minor"] == 500 and tin["sessions"][1]["pools_minor"] > 0
    shown_equals_the_tin(page, tin)
    fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-tin-{size}.png"), full_page=True)

    # after play: Ann pays 0.10 in cash for Thursday, in the tin
    page.get_by_role("link", name="After play").click()
    drawn(page, "after")
    shown = page.get_by_test_id("account-form")
    shown.get_by_label("Member").select_option(label="Ann")
    shown.get_by_role("button", name="Show his account").click()
    expect(page.get_by_test_id("balance")).to_have_text(
        "Ann's balance: -0.10 GBP (below zero: owed to the club)")
    paying = page.get_by_test_id("payment")
    paying.get_by_label("Member").select_option("Ann")
    paying.get_by_label("Amount").fill("0.10")
    paying.get_by_label("For the table").select_option(label=next(
        o for o in paying.get_by_label("For the table").locator("option").all_inner_texts()
        if o.startswith("Thursday")))
    paying.get_by_role("button", name="Record the payment").click()
    book = page.get_by_role("region", name="The book's last entries")
    expect(book.get_by_role("status")).to_have_text("Ann paid the club 0.10 GBP (cash).")
    tin = api(server, tess, "GET", f"/evenings/{tonight}")
    assert tin["sessions"][0]["cash_paid_in_minor"] == 10
    ann = next(m for m in api(server, tess, "GET", "/members")["members"] if m["name"] == "Ann")
    account = api(server, tess, "GET", f"/members/{ann['member_id']}/account")
    assert not any(account["balances"].values())  # she paid what she owed
    expect(page.get_by_test_id("balance")).to_have_text("Ann is square with the club.")
    expect(page.get_by_test_id("account-lines").locator("li")).to_have_count(
        len(account["entries"]))
    shown_equals_the_tin(page, tin)

    # a tin with an open table is not counted
    count = page.get_by_test_id("count-form")
    before = rows(server, book_entries)
    count.get_by_label("Counted (GBP)").fill("4.50")
    count.get_by_role("button", name="Record the count").click()
    refusal = count.locator(".refusal")
    expect(refusal).to_be_visible()
    status, problem = refused(server, tess, "POST", f"/evenings/{tonight}/cash",
                              {"counted_minor": 450, "currency": "GBP"})
    assert status == 409
    expect(refusal).to_have_text(problem["detail"])  # the ledger's own words
    assert rows(server, book_entries) == before

    tess.club.ledger().append(second, [EndSession(method="divide-pool")], tess.club.by("Tess"))
    page.get_by_test_id("tin-date").get_by_role("button", name="Show the tin").click()
    count = page.get_by_test_id("count-form")
    expect(count.locator(".refusal")).to_have_count(0)  # the tin drawn again
    count.get_by_label("Counted (GBP)").fill("4.60")
    count.get_by_role("button", name="Record the count").click()
    expect(page.get_by_test_id("tin").get_by_role("status")).to_have_text(
        "The tin is counted: 4.60 GBP.")
    tin = api(server, tess, "GET", f"/evenings/{tonight}")
    assert tin["cash"]["difference_minor"] == -50 and tin["cash"]["unbooked_minor"] == -50
    shown_equals_the_tin(page, tin)

    book = page.get_by_test_id("difference-form")
    expect(book.get_by_label("Amount")).to_have_value("0.50")
    book.get_by_label("Amount").fill("0.60")
    book.get_by_label("Why").fill("a coin rolled away")
    before = rows(server, book_entries)
    book.get_by_role("button", name="Book the shortage").click()
    refusal = book.locator("[data-field='amount_minor'] .refusal")
    expect(refusal).to_have_attribute("data-rule", "cash-difference-exceeds-check")
    assert rows(server, book_entries) == before
    fits(tess, axe_source)
    book.get_by_label("Amount").fill("0.50")
    book.get_by_role("button", name="Book the shortage").click()
    expect(page.get_by_test_id("tin").get_by_role("status")).to_have_text(
        "A shortage of 0.50 GBP is booked to the club.")
    tin = api(server, tess, "GET", f"/evenings/{tonight}")
    assert tin["cash"]["unbooked_minor"] == 0 and tin["cash"]["booked_minor"] == -50
    shown_equals_the_tin(page, tin)
    expect(page.get_by_test_id("difference-form")).to_have_count(0)
    fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-tin-count-{size}.png"), full_page=True)


def test_the_ended_tables_are_listed_ten_at_a_time(new_device, server, axe_source):
    tess = treasurer_at_the_desk(new_device, server, "The Twelve Tables", "phone")
    ledger, request = tess.club.ledger(), tess.club.by("Tess")
    for n in range(1, 13):
        sid = ledger.open_session(OpenSession(players=["Tess", "Dan"], name=f"Table {n}"),
                                  request).body["session_id"]
        ledger.append(sid, [EndSession(method="divide-pool")], request)
    page = tess.page
    page.reload()
    ended = page.get_by_test_id("ended")
    expect(ended.locator("li")).to_have_count(10)
    expect(ended.locator("li").first).to_contain_text("Table 1")
    page.get_by_role("button", name="Show more ended tables").click()
    expect(ended.locator("li")).to_have_count(12)
    expect(ended.locator("li").last).to_contain_text("Table 12")
    expect(page.get_by_role("button", name="Show more ended tables")).to_be_hidden()
    fits(tess, axe_source)
    # a table opened at the desk is offered to the tin at once
    open_table(page, "Late table", players=["Tess", "Dan"])
    expect(page.get_by_role("status")).to_have_text("Late table is open.")
    expect(page.get_by_test_id("join-form").get_by_label("Table")).to_contain_text(
        "Late table (open)")


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_tables_own_tin_is_counted_and_its_surplus_booked(new_device, server, axe_source,
                                                            size):
    tess = treasurer_at_the_desk(new_device, server, f"Own tin {size}", size)
    sid = ended_table(tess.club)
    assert api(server, tess, "GET", "/audit/events?type=SessionEnded")["events"][0][
        "session_id"] == sid
    page = tess.page
    page.get_by_role("link", name="After play").click()
    drawn(page, "after")
    own = page.get_by_test_id("own-tin")
    expect(own).to_contain_text("Thursday's tin is not counted yet.")
    count = own.get_by_test_id("own-count-form")
    count.get_by_label("Counted (GBP)").fill("0.20")
    count.get_by_role("button", name="Record the count").click()
    expect(own.get_by_role("status")).to_have_text("Thursday's tin is counted: 0.20 GBP.")
    cash = api(server, tess, "GET", f"/sessions/{sid}/statement")["cash"]
    assert (cash["expected_minor"], cash["unbooked_minor"]) == (0, 20)
    for key in ("float_minor", "pools_minor", "expected_minor", "counted_minor",
                "difference_minor", "booked_minor", "unbooked_minor"):
        expect(own.get_by_test_id("own-tin-check").locator(f"[data-figure='{key}']")) \
            .to_have_text(f"{cash[key] / 100:.2f} GBP")
    book = own.get_by_test_id("own-difference-form")
    expect(book.get_by_label("Amount")).to_have_value("0.20")
    book.get_by_label("Why").fill("a guest's coin in the tin")
    book.get_by_role("button", name="Book the surplus").click()
    expect(own.get_by_role("status")).to_have_text("A surplus of 0.20 GBP is booked to the club.")
    cash = api(server, tess, "GET", f"/sessions/{sid}/statement")["cash"]
    assert (cash["booked_minor"], cash["unbooked_minor"]) == (20, 0)
    expect(own.get_by_test_id("own-tin-check").locator("[data-figure='unbooked_minor']")) \
        .to_have_text("0.00 GBP")
    expect(own.get_by_test_id("own-difference-form")).to_have_count(0)
    fits(tess, axe_source)
