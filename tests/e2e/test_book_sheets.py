"""The books' CSV sheets as an accountant takes them, on SQLite and PostgreSQL (docs/books.md,
"Exports"): money in its currency with the minor units beside, a reversal signed so that a
column sums to the balance, sessions and members by name with the ids in their own columns,
and a file name on every download.

The month: Thursday (tests/e2e/test_books_api.py's night, 10p a unit) leaves Ann owing 40p.
She pays 85p in cash; a payment of 58p typed against her by mistake is reversed.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from typing import Any

from .test_book_register import pay
from .test_books_api import a_night, post
from .test_evening_tin import a_table, join

MISTAKE = "typed against the wrong member"


def sheet(client: Any, url: str) -> list[dict[str, str]]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.get_data(as_text=True)[:300])
    assert response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def a_month(client: Any) -> str:
    sid = a_night(client, "Thursday")
    pay(client, "Ann", "club", 85)  # entry 1
    mistake = pay(client, "Ann", "club", 58)  # entry 2
    undone = client.post(f"/book-entries/{mistake['seq']}/reversal", json={"reason": MISTAKE},
                         headers={"Idempotency-Key": "undo-58"})
    assert undone.status_code == 201, undone.get_json()
    return sid


def test_a_members_sheet_sums_to_his_balance_with_a_reversal_in_it(tess, club):
    sid = a_month(tess)
    ann = club.members["Ann"]
    balance = tess.get(f"/members/{ann}/account").get_json()["balances"]["GBP"]
    assert balance == 45  # -40 + 85, the 58 and its reversal cancelling
    rows = sheet(tess, f"/members/{ann}/account.csv")
    assert [r["kind"] for r in rows] == ["session", "payment", "payment", "reversal"]
    assert sum(int(r["amount_minor"]) for r in rows) == balance
    assert sum(Decimal(r["amount"]) for r in rows) == Decimal("0.45")
    assert [(r["amount"], r["amount_minor"], r["currency"]) for r in rows] == [
        ("-0.40", "-40", "GBP"), ("0.85", "85", "GBP"), ("0.58", "58", "GBP"),
        ("-0.58", "-58", "GBP")]
    assert rows[-1]["balance"] == "0.45" and rows[-1]["balance_minor"] == "45"
    # the session by name, its id beside; the reversal names what it cancelled, and when
    assert (rows[0]["session_name"], rows[0]["session_id"]) == ("Thursday", sid)
    assert rows[3]["description"].startswith("reversal of the payment of 20")
    assert rows[3]["description"].endswith(f"(entry 2): {MISTAKE}")
    assert rows[1]["description"] == "payment paid by him to the club (cash)"


def test_the_register_signs_a_reversal_so_a_payers_column_sums_to_what_he_paid(tess, club):
    a_month(tess)
    rows = sheet(tess, "/book-entries.csv")
    assert [(r["kind"], r["payer_name"], r["amount"], r["amount_minor"]) for r in rows] == [
        ("payment", "Ann", "0.85", "85"), ("payment", "Ann", "0.58", "58"),
        ("reversal", "Ann", "-0.58", "-58")]
    paid = sum(int(r["amount_minor"]) for r in rows if r["payer"] == club.members["Ann"])
    # what the books say she paid: her balance less her result
    account = tess.get(f"/members/{club.members['Ann']}/account").get_json()
    assert paid == account["balances"]["GBP"] - (-40) == 85
    # names first, ids in their own columns, in the documented order
    header = list(rows[0])
    assert header[:7] == ["seq", "recorded_at", "kind", "payer_name", "payee_name",
                          "member_name", "session_name"]
    assert header[-4:] == ["payer", "payee", "member_id", "session_id"]
    # the JSON register still shows what the reversal cancelled, as it always has
    entries = tess.get("/book-entries").get_json()["entries"]
    assert entries[2]["amount_minor"] == 58 and entries[2]["reverses"] == 2


def test_the_open_debts_and_the_settle_up_sheets_give_money_and_names_first(tess, club):
    sid = a_night(tess, "Thursday")
    debts = sheet(tess, "/debts.csv")
    assert [list(r.values()) for r in debts] == [
        ["Ann", "Thursday", debts[0]["since"], "session", "GBP", "0.40", "40",
         club.members["Ann"], sid, "", ""],
        ["Cal", "Thursday", debts[1]["since"], "session", "GBP", "0.10", "10",
         club.members["Cal"], sid, "", ""]]
    assert sum(Decimal(r["amount"]) for r in debts) == Decimal("0.50")
    payables = sheet(tess, "/payables.csv")
    assert [(r["name"], r["amount"], r["session_name"]) for r in payables] == [
        ("Bob", "0.50", "Thursday")]
    settle = sheet(tess, "/settle-up.csv")
    assert list(settle[0]) == ["currency", "side", "name", "amount", "amount_minor",
                               "member_id"]
    assert {(r["name"], r["side"], r["amount"]) for r in settle} == {
        ("Ann", "pays_club", "0.40"), ("Cal", "pays_club", "0.10"),
        ("Bob", "club_pays", "0.50")}


def test_the_statement_sheet_gives_money_beside_units_and_names_an_evenings_tin(tess, club):
    sid = a_table(tess, "Table A", ["Ann", "Bob", "Cal"], 10)
    assert join(tess, sid).status_code == 201
    text = tess.get(f"/sessions/{sid}/statement.csv").get_data(as_text=True)
    # its cash is in the evening's tin: the sheet says so, not that nothing was counted
    assert text.endswith("\ncash,evening,2026-11-26\n") and "cash,counted,none" not in text
    tables = text.split("\n\n")
    players = list(csv.DictReader(io.StringIO(tables[0])))
    assert [(p["player"], p["net_units"], p["currency"], p["net_money"], p["net_money_minor"])
            for p in players] == [("Ann", "-4", "GBP", "-0.40", "-40"),
                                  ("Bob", "5", "GBP", "0.50", "50"),
                                  ("Cal", "-1", "GBP", "-0.10", "-10")]
    cash = list(csv.DictReader(io.StringIO(tess.get(
        f"/sessions/{sid}/statement.csv?table=cash").get_data(as_text=True))))
    assert cash[0]["evening"] == "2026-11-26" and cash[0]["counted_minor"] == ""
    # a tin counted: the count, what was expected and the difference in pounds beside
    alone = a_night(tess, "Friday")
    assert post(tess, f"/sessions/{alone}/cash", {"counted_minor": 45, "currency": "GBP"}
                ).status_code == 201
    counted = list(csv.DictReader(io.StringIO(tess.get(
        f"/sessions/{alone}/statement.csv?table=cash").get_data(as_text=True))))
    assert [(c["counted"], c["expected"], c["difference"], c["difference_minor"])
            for c in counted] == [("0.45", "0.00", "0.45", "45")]
    assert tess.get(f"/sessions/{alone}/statement.csv").get_data(as_text=True).endswith(
        ",0.45,0.00,0.45\n")
    alone = a_night(tess, "Saturday")
    assert tess.get(f"/sessions/{alone}/statement.csv").get_data(as_text=True).endswith(
        "\ncash,counted,none\n")


def test_the_evenings_tin_sheet_gives_money_in_its_currency(tess, club):
    sid = a_table(tess, "Table A", ["Ann", "Bob", "Cal"], 10)
    assert join(tess, sid).status_code == 201
    assert post(tess, "/evenings/2026-11-26/float", {"amount_minor": 500, "currency": "GBP",
                                                     "note": "box"}).status_code == 201
    rows = sheet(tess, "/evenings/2026-11-26?format=csv")
    assert list(rows[0]) == ["line", "session_name", "currency", "amount", "amount_minor",
                             "session_id"]
    assert (rows[0]["line"], rows[0]["amount"], rows[0]["amount_minor"]) == (
        "float", "5.00", "500")
    assert (rows[1]["session_name"], rows[1]["session_id"]) == ("Table A", sid)


FILENAME = re.compile(r'^attachment; filename="[A-Za-z0-9._-]+\.csv"$')


def test_every_csv_download_is_an_attachment_with_a_file_name(app, tess, club):
    """Walk the OpenAPI document: every GET that answers text/csv, asked for CSV."""
    sid = a_month(tess)
    assert join(tess, sid).status_code == 201
    values = {"session_id": sid, "member_id": club.members["Ann"], "evening": "2026-11-26"}
    spec = tess.get("/openapi.json").get_json()
    asked = []
    for path, operations in spec["paths"].items():
        answers = operations.get("get", {}).get("responses", {}).get("200", {})
        if "text/csv" not in answers.get("content", {}):
            continue
        url = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)
        if not path.endswith(".csv"):
            url += "?format=csv"
        response = tess.get(url)
        assert response.status_code == 200, (url, response.get_data(as_text=True)[:300])
        assert response.mimetype == "text/csv", url
        assert FILENAME.match(response.headers.get("Content-Disposition", "")), (
            url, response.headers.get("Content-Disposition"))
        asked.append(path)
    # the walk found the sheets: the books', the statement's, the trail's, the audit's
    assert {"/debts.csv", "/debts", "/members/{member_id}/account.csv",
            "/sessions/{session_id}/statement.csv", "/book-entries.csv",
            "/evenings/{evening}"} <= set(asked) and len(asked) >= 20, asked


def test_the_registers_and_the_club_pages_files_are_named_by_their_month(tess, club):
    """docs/books.md, "Exports": a month's register and club page say the month; a span that
    is not a calendar month says its days; a later page of the register says where it starts."""
    a_month(tess)
    november = "since=2026-11-01T00:00:00Z&until=2026-12-01T00:00:00Z"
    named = {
        f"/book-entries.csv?{november}&bom=1":
            'attachment; filename="lanterloo-register-2026-11.csv"',
        "/book-entries.csv?since=2026-11-03T00:00:00%2B01:00&until=2026-11-10T00:00:00Z":
            'attachment; filename="lanterloo-register-from-2026-11-02-until-2026-11-10.csv"',
        "/book-entries.csv?since=2026-11-01T00:00:00Z":
            'attachment; filename="lanterloo-register-from-2026-11-01.csv"',
        "/book-entries.csv?after=1": 'attachment; filename="lanterloo-register-after-1.csv"',
        "/book-entries.csv": 'attachment; filename="lanterloo-register.csv"',
        f"/standings.html?{november}": 'inline; filename="lanterloo-club-page-2026-11.html"',
        "/standings.html": 'inline; filename="lanterloo-club-page.html"',
    }
    for url, disposition in named.items():
        response = tess.get(url)
        assert response.status_code == 200, (url, response.get_data(as_text=True)[:300])
        assert response.headers["Content-Disposition"] == disposition, url
