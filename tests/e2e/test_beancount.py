"""The books of a month as Beancount, checked by Beancount's own loader, on SQLite and
PostgreSQL (docs/books.md, "The books as Beancount").

Before the month: Tuesday's session (Ann -40, Bob +50, Cal -10). In the month (10p a unit):
Thursday's session, Cal pays 10 in cash, the club pays Bob 50 by transfer, a payment typed
as 100 and reversed, 20 of Ann's debt written off, the cash counted, and Thursday corrected
(Bob -60, Cal +60). After it: Ann pays 30, which the month's file leaves out.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from beancount import loader
from beancount.core import data

from api.cli.main import main
from ledger.domain.periods import end_of

from .clock import past_month, played_in
from .conftest import assert_problem, every_account
from .test_book_register import pay
from .test_books_api import a_night, post
from .test_late_corrections import correct_thursday


def books_of_the_month(tess: Any, monkeypatch: Any, month: str) -> None:
    year, number = (int(part) for part in month.split("-"))
    before = f"{year - (number == 1):04d}-{(number - 2) % 12 + 1:02d}"
    with played_in(monkeypatch, before):
        a_night(tess, "Tuesday")
    with played_in(monkeypatch, month):
        thursday = a_night(tess, "Thursday")
        pay(tess, "Cal", "club", 10)
        pay(tess, "club", "Bob", 50, method="transfer")
        mistake = pay(tess, "Cal", "club", 100)
        assert tess.post(f"/book-entries/{mistake['seq']}/reversal",
                         json={"reason": "typed 100 for 10"}).status_code == 201
        assert post(tess, "/write-offs", {"member": "Ann", "amount_minor": 20,
                                          "currency": "GBP", "reason": "moved to York"}
                    ).status_code == 201
        assert post(tess, f"/sessions/{thursday}/cash", {"counted_minor": 0,
                                                          "currency": "GBP"}
                    ).status_code == 201
        correct_thursday(tess, thursday)
    pay(tess, "Ann", "club", 30)


def test_the_months_books_pass_beancounts_checks_and_assert_the_apis_balances(
        tess, club, monkeypatch, engine, tmp_path):
    month = past_month()
    books_of_the_month(tess, monkeypatch, month)
    last = end_of(month).date()
    response = tess.get("/books/export.beancount",
                        query_string={"from": f"{month}-01", "to": last.isoformat()})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="lanterloo-books-{month}-01-{last}.beancount"'
    text = response.get_data(as_text=True)
    entries, errors, options = loader.load_string(text)
    assert errors == [], (errors, text)
    assert options["operating_currency"] == ["GBP"]
    # one transaction per book entry of the month and per session result (Thursday's end
    # and its correction), after the balances brought forward from Tuesday
    narrations = [e.narration for e in entries if isinstance(e, data.Transaction)]
    assert narrations[0] == "Balances brought forward"
    assert len(narrations) == 1 + 6 + 2
    assert "result of session Thursday" in narrations
    assert any(n.startswith("correction of session Thursday") for n in narrations)
    assert any(n.startswith("reversal of the payment") and
               n.endswith("(entry 3): typed 100 for 10") for n in narrations), narrations
    # the balances asserted at the month's end are the API's as of it, in money
    asserted = {(e.account, e.amount.currency): e.amount.number
                for e in entries if isinstance(e, data.Balance)}
    every = every_account(tess, as_of=end_of(month).isoformat())
    expected = sorted(Decimal(-n) / 100 for per in every.values() for n in per.values() if n)
    assert sorted(n for n in asserted.values() if n) == expected
    # Tuesday's square pools are left out; Thursday's moved in the month, and are asserted
    pools = sorted(a for a, _ in asserted if a.startswith("Equity:Pools:"))
    assert [a.split(":")[-1].split("-")[0] for a in pools] == ["Thursday"]
    books = tess.get("/accounts", query_string={"as_of": end_of(month).isoformat()}
                     ).get_json()
    members = {m["name"]: m["balances"]["GBP"] for m in books["members"] if m["balances"]}
    assert members == {"Ann": -60, "Bob": -10, "Cal": 50}
    # what a member owes the club is a positive balance of his account, what it owes him
    # a negative one (a liability)
    assert asserted[("Liabilities:Members:Ann", "GBP")] == Decimal("0.60")
    assert asserted[("Liabilities:Members:Cal", "GBP")] == Decimal("-0.50")
    assert asserted[("Assets:Cash", "GBP")] == Decimal("0.10")
    assert asserted[("Assets:Bank", "GBP")] == Decimal("-0.50")
    assert asserted[("Expenses:Written-Off", "GBP")] == Decimal("0.20")
    # payments by name in money; the payment after the month is not in its file
    assert '"payment" "Cal paid the club 0.10 GBP (cash)"' in text
    assert "Ann paid the club 0.30 GBP" not in text and text.count('* "payment"') == 3
    # the command line writes the same file
    out = tmp_path / "books.beancount"
    assert main(["books", "export-beancount", "--club", club.club_id, "--from", f"{month}-01",
                 "--to", last.isoformat(), "-o", str(out), "--database-url",
                 engine.url.render_as_string(hide_password=False)]) == 0
    assert out.read_text(encoding="utf-8") == text


def test_an_export_needs_a_period_that_ends_after_it_starts(tess, club):
    assert_problem(tess.get("/books/export.beancount",
                            query_string={"from": "2026-10-31", "to": "2026-10-01"}), 422,
                   rule="date-range")
    assert_problem(tess.get("/books/export.beancount", query_string={"from": "2026-10-01"}),
                   422)
    for first, last in (("0001-01-01", "0001-01-31"), ("9999-12-01", "9999-12-31")):
        assert_problem(tess.get("/books/export.beancount",
                                query_string={"from": first, "to": last}), 422,
                       rule="date-range")
