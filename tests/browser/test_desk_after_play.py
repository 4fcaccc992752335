"""After play at the desk in real Chromium at the four sizes, the way a treasurer works: the
open debts of an ended table oldest first in money, a member's payment taken in cash, the
wrong one reversed with a reason (and offered for reversal no more); an amount of nothing is
refused with the ledger's sentence beside the amount and nothing is booked."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.store.tables import book_entries

from .desk import CLUBS, DOC_SIZES, SIZES, api, ended_table, fits, rows, treasurer_at_the_desk


def pay(page: Any, member: str, amount: str, method: str = "Cash") -> None:
    form = page.get_by_test_id("payment")
    form.get_by_label("Which way").select_option(label="A member pays the club")
    form.get_by_label("Member").select_option(member)
    form.get_by_label("Amount").fill(amount)
    form.get_by_label("Paid by").select_option(label=method)
    form.get_by_role("button", name="Record the payment").click()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_treasurer_takes_a_payment_and_reverses_a_wrong_one(new_device, server,
                                                                axe_source, size, shots):
    tess = treasurer_at_the_desk(new_device, server, CLUBS[size], size)
    ended_table(tess.club)
    page = tess.page
    page.get_by_role("link", name="After play").click()
    debts = page.get_by_test_id("debts")
    expect(debts.locator("li")).to_have_count(2)
    expect(debts.locator("[data-member='Tess']")).to_contain_text("Tess owes 0.40 GBP")
    expect(debts.locator("[data-member='Tess']")).to_contain_text("from Thursday")
    expect(debts.locator("[data-member='Ann']")).to_contain_text("Ann owes 0.10 GBP")
    fits(tess, axe_source)

    pay(page, "Ann", "1.00")  # she meant 0.10
    expect(page.get_by_role("status")).to_have_text("Ann paid the club 1.00 GBP (cash).")
    entry = page.get_by_test_id("book").locator("[data-seq='1']")
    expect(entry).to_contain_text("Payment: Ann paid the club, 1.00 GBP (cash)")
    expect(debts.locator("[data-member='Ann']")).to_have_count(0)
    entry.get_by_role("button", name="Reverse entry 1").click()
    entry.get_by_label("Why entry 1 is wrong").fill("she paid 0.10, not 1.00")
    fits(tess, axe_source)
    entry.get_by_role("button", name="Reverse entry 1").click()
    expect(page.get_by_role("status")).to_have_text("Entry 1 is reversed.")
    book = page.get_by_test_id("book")
    expect(book.locator("[data-seq='2']")).to_contain_text(
        "reverses entry 1: she paid 0.10, not 1.00")
    expect(book.locator("[data-seq='1']")).to_contain_text("reversed by entry 2")
    expect(book.get_by_role("button")).to_have_count(0)  # nothing left to reverse
    expect(debts.locator("[data-member='Ann']")).to_contain_text("Ann owes 0.10 GBP")

    pay(page, "Ann", "0.10")
    expect(page.get_by_role("status")).to_have_text("Ann paid the club 0.10 GBP (cash).")
    expect(debts.locator("[data-member='Ann']")).to_have_count(0)
    assert api(server, tess, "GET", "/debts")["totals"] == {"GBP": 40}
    fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-after-play-{size}.png"), full_page=True)


def test_an_amount_of_nothing_is_refused_beside_the_amount(new_device, server, axe_source):
    tess = treasurer_at_the_desk(new_device, server, "After refused", "tablet-portrait")
    tess.page.get_by_role("link", name="After play").click()
    before = rows(server, book_entries)
    pay(tess.page, "Dan", "0.00")
    refusal = tess.page.get_by_test_id("payment").locator("[data-field='amount_minor'] .refusal")
    expect(refusal).to_contain_text("amount_minor")
    assert rows(server, book_entries) == before
    fits(tess, axe_source)
