"""Closing a month, over HTTP on SQLite and PostgreSQL (docs/books.md, "Closing a
period").

The month (two months back, the ledger's clock set to it; 10p a unit): Thursday leaves Ann
-40, Bob +50, Cal -10; Cal pays the club 10 (entry 1), the club pays Bob 50 by transfer
(entry 2), 20 of Ann's debt is written off (entry 3). The treasurer closes the month; then,
in the open month, Thursday is corrected (Bob -60, Cal +60) and entry 1 is reversed. Every
read as of the month's end says what it said before, and what the closing recorded.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from ledger.domain.periods import end_of, period_of
from tests.clubs import club_client

from .clock import past_month, played_in
from .conftest import assert_problem, every_account
from .test_book_register import pay, reads
from .test_books_api import a_night, post
from .test_late_corrections import account, correct_thursday


def the_month(tess: Any, monkeypatch: Any, month: str) -> str:
    with played_in(monkeypatch, month):
        thursday = a_night(tess, "Thursday")
        pay(tess, "Cal", "club", 10)
        pay(tess, "club", "Bob", 50, method="transfer")
        written = post(tess, "/write-offs", {"member": "Ann", "amount_minor": 20,
                                             "currency": "GBP", "reason": "moved away"})
        assert written.status_code == 201, written.get_json()
    return thursday


def held(accounts: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The accounts of /accounts that hold something (what a closing records)."""
    return {a: {c: n for c, n in per.items() if n} for a, per in accounts.items()
            if any(per.values())}


def close(client: Any, month: str, key: str | None = None) -> Any:
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(f"/periods/{month}/closing", json={}, headers=headers)


def test_a_closed_month_reads_the_same_after_a_late_correction_and_a_reversal(
        tess, club, monkeypatch):
    month = past_month()
    thursday = the_month(tess, monkeypatch, month)
    end = end_of(month).isoformat()
    bob_id, cal_id = club.members["Bob"], club.members["Cal"]
    then = {m: reads(tess, m, as_of=end) for m in (bob_id, cal_id)}
    standings_then = tess.get("/standings", query_string={"as_of": end}).get_json()
    closed = close(tess, month, key="close-1")
    assert closed.status_code == 201, closed.get_json()
    entry = closed.get_json()
    assert (entry["type"], entry["payload"]["period"], entry["payload"]["end"]) == (
        "PeriodClosed", month, end)
    # the closing's balances are the books as of the end, and its entry is chained
    assert entry["payload"]["balances"] == held(every_account(tess, as_of=end))
    assert entry["payload"]["balances"][f"member:{club.members['Ann']}"] == {"GBP": -20}
    assert f"member:{bob_id}" not in entry["payload"]["balances"]  # Bob is square
    assert tess.get("/accounts").get_json()["log"]["chain_ok"]
    # a retry is the first answer; closing twice is refused
    again = close(tess, month, key="close-1")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert_problem(close(tess, month), 409, rule="period-already-closed")

    # in the open month: Thursday corrected, entry 1 (Cal's 10) reversed
    correct_thursday(tess, thursday)
    reversed_ = tess.post("/book-entries/1/reversal", json={"reason": "paid by cheque"})
    assert reversed_.status_code == 201, reversed_.get_json()
    payload = reversed_.get_json()["payload"]
    assert payload["closed_period"] == month
    assert period_of(datetime.fromisoformat(reversed_.get_json()["recorded_at"])) != month
    cal = account(tess, cal_id, limit=100)["entries"]
    assert cal[-1]["kind"] == "reversal" and \
        f"in the closed period {month}: posted in the open period" in cal[-1]["description"]
    bob = account(tess, bob_id, limit=100)["entries"]
    (adjustment,) = [e for e in bob if e["kind"] == "adjustment"]
    assert adjustment["detail"]["closed_period"] == month
    assert f"the session is in the closed period {month}" in adjustment["description"]
    assert account(tess, bob_id)["balances"] == {"GBP": -60}

    # as of the month's end, every read is what it was, and what the closing recorded
    assert {m: reads(tess, m, as_of=end) for m in (bob_id, cal_id)} == then
    assert tess.get("/standings", query_string={"as_of": end}).get_json() == standings_then
    (listed,) = tess.get("/periods").get_json()["periods"]
    assert (listed["period"], listed["closed"], listed["seq"], listed["reopenings"]) == (
        month, True, entry["seq"], [])
    assert listed["balances"] == held(every_account(tess, as_of=end))


def test_a_month_closes_once_it_has_ended_and_only_the_treasurer_closes_it(tess, club, app,
                                                                           engine):
    this_month = period_of(date.today())
    assert_problem(close(tess, this_month), 409, rule="period-not-ended")
    assert_problem(close(tess, "2026-13"), 422, rule="period")
    assert_problem(close(tess, "9999-12"), 409, rule="period-not-ended")
    for role in ("admin", "dealer", "auditor"):
        other = club_client(app, engine, role=role, club=club)
        assert close(other, past_month()).status_code == 403
    assert tess.get("/book-entries").get_json()["entries"] == []


def test_only_an_admin_reopens_a_month_with_a_reason_and_the_reopening_is_an_entry(
        tess, club, app, engine):
    month = past_month(3)
    admin = club_client(app, engine, role="admin", club=club)
    assert_problem(admin.post(f"/periods/{month}/reopening", json={"reason": "typo"}), 409,
                   rule="period-not-closed")
    assert close(tess, month).status_code == 201
    assert tess.post(f"/periods/{month}/reopening", json={"reason": "x"}).status_code == 403
    assert_problem(admin.post(f"/periods/{month}/reopening", json={}), 422)
    reopened = admin.post(f"/periods/{month}/reopening",
                          json={"reason": "the October tin was recounted"})
    assert reopened.status_code == 201, reopened.get_json()
    assert reopened.get_json()["type"] == "PeriodReopened"
    (listed,) = tess.get("/periods").get_json()["periods"]
    assert listed["closed"] is False
    assert [r["reason"] for r in listed["reopenings"]] == ["the October tin was recounted"]
    # a closing or a reopening is not reversed: it is reopened, or closed again
    for seq in (1, 2):
        assert_problem(tess.post(f"/book-entries/{seq}/reversal", json={"reason": "no"}),
                       422, rule="entry-not-reversible")
    assert close(tess, month).status_code == 201
    kinds = [e["kind"] for e in tess.get("/book-entries").get_json()["entries"]]
    assert kinds == ["period-closed", "period-reopened", "period-closed"]
