"""Month-end at the desk in real Chromium, the way a treasurer works (docs/desk.md): the
month's register, filtered to its payments; who pays whom; the evening's tin; the standings;
the month that is not over refused closing in the ledger's words with nothing recorded, last
month closed (and then not offered again); every export saved as a file under the name the
ledger gives it. Every figure the page shows is the API's."""

from __future__ import annotations

import datetime
import urllib.parse
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.store.tables import book_entries

from .desk import (
    DOC_SIZES,
    api,
    drawn,
    ended_table,
    fits,
    gbp,
    refused,
    rows,
    treasurer_at_the_desk,
)

CLUBS = {"laptop": "The Crown and Anchor Loo Club", "phone": "The Red Lion Loo Club"}


def month_bounds(today: datetime.date) -> tuple[str, str, str]:
    """This month (UTC) as YYYY-MM, its first instant and the next month's."""
    first = today.replace(day=1)
    after = (first + datetime.timedelta(days=32)).replace(day=1)
    return first.strftime("%Y-%m"), f"{first}T00:00:00Z", f"{after}T00:00:00Z"


def file_name(server: Any, person: Any, path: str) -> str:
    """The file name the API's Content-Disposition gives `path`."""
    token = person.page.evaluate("() => localStorage.getItem('lanterloo.desk.token')")
    request = urllib.request.Request(f"{server.url}{path}",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as answer:
        disposition = answer.headers.get("Content-Disposition") or ""
    return disposition.split('filename="')[1].split('"')[0] if "filename=" in disposition \
        else path.split("?")[0].rsplit("/", 1)[-1]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_treasurer_reads_the_month_closes_last_month_and_downloads_the_books(
        new_device, server, axe_source, size, shots):
    tess = treasurer_at_the_desk(new_device, server, CLUBS[size], size)
    thursday = ended_table(tess.club)
    today = datetime.datetime.now(datetime.UTC).date()
    period, since, until = month_bounds(today)
    tonight = datetime.date.today().isoformat()
    books, by_tess = tess.club.books(), tess.club.by("Tess")
    books.record_payment(payer="Ann", payee="club", amount_minor=10, currency="GBP",
                         method="cash", request=by_tess)
    books.record_payment(payer="Tess", payee="club", amount_minor=20, currency="GBP",
                         method="transfer", request=by_tess)
    books.open_float(evening=tonight, amount_minor=500, currency="GBP", request=by_tess)
    books.count_cash(thursday, counted_minor=10, currency="GBP", request=by_tess)
    page = tess.page
    page.get_by_role("link", name="Month-end").click()
    drawn(page, "month")

    # the register of the month, then only its cash payments
    q = urllib.parse.urlencode({"since": since, "until": until})
    register = api(server, tess, "GET", f"/book-entries?{q}")["entries"]
    shown = page.get_by_test_id("register").locator("li")
    expect(shown).to_have_count(len(register))
    assert len(register) == 4
    expect(page.get_by_test_id("register").locator("[data-seq='1']")).to_contain_text(
        "Payment: Ann paid the club, 0.10 GBP (cash)")
    for e in register:  # each entry's amount (a count's: what was counted) is the API's
        minor = e["amount_minor"] if e["amount_minor"] is not None else e["counted_minor"]
        expect(page.get_by_test_id("register").locator(f"[data-seq='{e['seq']}']")) \
            .to_contain_text(gbp(minor))
    filters = page.get_by_test_id("register-filters")
    filters.get_by_label("Kind").select_option(label="Payments")
    filters.get_by_label("Paid by").select_option(label="Cash")
    filters.get_by_role("button", name="Filter the register").click()
    paid = api(server, tess, "GET", f"/book-entries?{q}&kind=payment&method=cash")["entries"]
    expect(shown).to_have_count(len(paid))
    assert [e["seq"] for e in paid] == [1]

    # who pays whom, the tin, the standings: the API's figures
    settle = api(server, tess, "GET", "/settle-up")["currencies"][0]
    for key in ("cash_minor", "bank_minor", "receivable_minor", "payable_minor",
                "position_minor"):
        expect(page.get_by_test_id("settle-up").locator(f"[data-figure='{key}']")) \
            .to_have_text(gbp(settle[key]))
    tin = api(server, tess, "GET", f"/evenings/{tonight}")
    expect(page.get_by_test_id("tins").locator(f"[data-evening='{tonight}']")).to_contain_text(
        f"float {gbp(tin['float_minor'])}; 0 tables; not counted yet")
    cash = api(server, tess, "GET", f"/sessions/{thursday}/statement")["cash"]
    expect(page.get_by_test_id("tins").locator("[data-table='Thursday']")).to_contain_text(
        f"float {gbp(cash['float_minor'])}; expected {gbp(cash['expected_minor'])}, counted "
        f"{gbp(cash['counted_minor'])}, difference {gbp(cash['difference_minor'])}")
    standings = api(server, tess, "GET", f"/standings?{q}")["members"]
    played = [m for m in standings if m["sessions"]]
    expect(page.get_by_test_id("standings").locator("li")).to_have_count(len(played))
    for m in played:
        expect(page.get_by_test_id("standings").locator(
            f"[data-member='{m['name']}'] [data-figure='net']")).to_have_text(
            ", ".join(gbp(v) for v in m["net_minor"].values()))
    fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-month-end-{size}.png"), full_page=True)

    # this month is not over: the ledger's sentence beside the month, nothing recorded
    closing = page.get_by_test_id("close-month")
    before = rows(server, book_entries)
    closing.get_by_role("button", name="Close").click()
    status, problem = refused(server, tess, "POST", f"/periods/{period}/closing", {})
    assert (status, problem["rule"]) == (409, "period-not-ended")
    expect(closing.locator("[data-field='period'] .refusal")).to_have_text(problem["detail"])
    assert rows(server, book_entries) == before

    # last month is
    last = (today.replace(day=1) - datetime.timedelta(days=1)).strftime("%Y-%m")
    page.get_by_test_id("month").get_by_label("The month").fill(last)
    page.get_by_test_id("month").get_by_role("button", name="Show the month").click()
    closing = page.get_by_test_id("close-month")
    expect(closing).to_contain_text("is open.")
    closing.get_by_role("button", name="Close").click()
    expect(page.get_by_test_id("month-state")).to_contain_text("is closed: by Tess")
    periods = api(server, tess, "GET", "/periods")["periods"]
    assert [(p["period"], p["closed"]) for p in periods] == [(last, True)]
    expect(closing.get_by_role("button")).to_have_count(0)  # not offered twice
    expect(page.get_by_test_id("periods").locator(f"[data-period='{last}']")).to_be_visible()
    fits(tess, axe_source)

    # every export, saved under the ledger's file name
    page.get_by_test_id("month").get_by_label("The month").fill(period)
    page.get_by_test_id("month").get_by_role("button", name="Show the month").click()
    drawn(page, "month")
    first = today.replace(day=1)
    end = (first + datetime.timedelta(days=32)).replace(day=1) - datetime.timedelta(days=1)
    named = today.strftime("%B %Y")
    expected = {
        f"The register of {named} (CSV)": f"/book-entries.csv?{q}&bom=1",
        "The open debts (CSV)": "/debts.csv?bom=1",
        "What the club owes (CSV)": "/payables.csv?bom=1",
        "Who pays whom (CSV)": "/settle-up.csv?bom=1",
        f"The books of {named} for the accountant (Beancount)":
            f"/books/export.beancount?from={first}&to={end}",
        f"The club's page of {named} (HTML)": f"/standings.html?{q}",
    }
    # the month's files say the month (docs/books.md, "Exports")
    says_the_month = {f"The register of {named} (CSV)": f"lanterloo-register-{period}.csv",
                      f"The club's page of {named} (HTML)": f"lanterloo-club-page-{period}.html"}
    exports = page.get_by_test_id("exports")
    for words, path in expected.items():
        button = exports.get_by_role("button", name=words, exact=True)
        with page.expect_download() as saved:
            button.click()
        name = saved.value.suggested_filename
        assert name == file_name(server, tess, path), (words, name)
        assert name.startswith("lanterloo")
        assert name == says_the_month.get(words, name)
        expect(button.locator("xpath=..").get_by_test_id("saved")).to_have_text(f"Saved {name}")
