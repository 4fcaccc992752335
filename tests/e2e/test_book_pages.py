"""The books' lists paged as the other lists are (docs/api.md, "Paging"), on SQLite and
PostgreSQL: `/debts`, `/payables`, `/accounts` and `/standings` give a page (`after`, `limit`,
default 100) with `next_after`, `next` and a `Link` header; the totals and the checks are over
everything, whatever the page; without `after` the answer is the first page, as before.

Two nights (tests/e2e/test_books_api.py's, 10p a unit): Ann owes 40p and Cal 10p from each,
the club owes Bob 50p from each.
"""

from __future__ import annotations

from typing import Any

from .conftest import assert_problem
from .test_books_api import a_night


def walk(client: Any, url: str, key: str) -> tuple[list[Any], list[dict[str, Any]]]:
    """Every item of a paged list, following `next`; and each page's answer."""
    items, pages = [], []
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.get_json()
        page = response.get_json()
        assert (page["next"] is None) == ("Link" not in response.headers)
        if page["next"]:
            assert response.headers["Link"] == f'<{page["next"]}>; rel="next"'
        items += page[key]
        pages.append(page)
        url = page["next"]
    return items, pages


def test_the_open_debts_are_paged_and_their_totals_are_over_all_of_them(tess, club):
    thursday, friday = a_night(tess, "Thursday"), a_night(tess, "Friday")
    whole = tess.get("/debts").get_json()
    assert [(d["name"], d["session_id"]) for d in whole["debts"]] == [
        ("Ann", thursday), ("Cal", thursday), ("Ann", friday), ("Cal", friday)]
    assert (whole["next_after"], whole["next"]) == (None, None)
    items, pages = walk(tess, "/debts?limit=3", "debts")
    assert items == whole["debts"] and len(pages) == 2
    assert [len(p["debts"]) for p in pages] == [3, 1] and pages[0]["next_after"] == 3
    assert all(p["totals"] == {"GBP": 100} for p in pages)
    credits, pages = walk(tess, "/payables?limit=1", "payables")
    assert [(c["name"], c["session_id"]) for c in credits] == [("Bob", thursday),
                                                               ("Bob", friday)]
    assert [p["next_after"] for p in pages] == [1, None]
    # as of a point, the next page is as of it too
    tess.post("/payments", json={"payer": "Ann", "payee": "club", "amount_minor": 80,
                                 "currency": "GBP", "method": "cash"},
              headers={"Idempotency-Key": "ann-pays"})
    assert len(tess.get("/debts").get_json()["debts"]) == 2
    then, pages = walk(tess, "/debts?limit=1&as_of=1", "debts")
    assert [(d["name"], d["session_id"]) for d in then] == [("Cal", thursday), ("Cal", friday)]
    assert "as_of=1" in pages[0]["next"] and pages[1]["as_of"]["seq"] == 1
    # the CSV is every line, whatever a page holds
    assert tess.get("/debts.csv").get_data(as_text=True).count("\n") == 1 + 2


def test_the_accounts_and_standings_page_their_members_and_check_all_the_books(tess, club):
    a_night(tess, "Thursday")
    accounts, pages = walk(tess, "/accounts?limit=2", "members")
    names = [m["name"] for m in accounts]
    assert names == sorted(names, key=str.casefold) and {"Ann", "Bob", "Cal"} <= set(names)
    assert len(pages) > 1 and all(p["check"]["zero_sum"] for p in pages)
    assert all(p["accounts"] == pages[0]["accounts"] for p in pages)
    assert accounts == tess.get("/accounts").get_json()["members"]
    standings, pages = walk(tess, "/standings?limit=1", "members")
    assert [s["name"] for s in standings] == ["Ann", "Bob", "Cal"]
    assert [p["next_after"] for p in pages] == [1, 2, None]
    since = "2000-01-01T00:00:00+00:00"
    paged = tess.get("/standings", query_string={"limit": 1, "since": since}).get_json()
    assert "since=" in paged["next"] and tess.get(paged["next"]).get_json()["since"] == since


def test_a_page_out_of_bounds_is_refused_naming_the_field(tess, club):
    for url in ("/debts", "/payables", "/accounts", "/standings"):
        assert assert_problem(tess.get(f"{url}?limit=0"), 422)["errors"].keys() == {"limit"}
        assert assert_problem(tess.get(f"{url}?limit=1001"), 422)["errors"].keys() == {
            "limit"}
        assert assert_problem(tess.get(f"{url}?after=-1"), 422)["errors"].keys() == {"after"}


def test_the_register_reads_its_pages_a_chunk_at_a_time_and_gives_the_same_answer(
        tess, club, monkeypatch):
    """The register reads the log from the page's start a chunk at a time (a page costs
    the same however long the log): a reversal whose entry lies in an earlier chunk still
    shows what it cancelled, and the cancelled entry its reversal."""
    from ledger.books import reads as bookreads

    from .test_book_register import month

    month(tess)  # 1 Ann pays 40, 2 Cal pays 100, 3 reverses 2, 4 Cal pays 10
    whole = tess.get("/book-entries").get_json()["entries"]
    for chunk in (1, 2, 3):
        monkeypatch.setattr(bookreads, "REGISTER_CHUNK", chunk)
        for limit in (1, 2, 3, 100):
            items, _ = walk(tess, f"/book-entries?limit={limit}", "entries")
            assert items == whole, (chunk, limit)
        cal = tess.get("/book-entries", query_string={
            "member_id": club.members["Cal"], "limit": 1}).get_json()
        assert [e["seq"] for e in cal["entries"]] == [2] and cal["next_after"] == 2
    assert [(e["seq"], e["amount_minor"], e["reverses"], e["reversed_by"]) for e in whole] \
        == [(1, 40, None, None), (2, 100, None, 3), (3, 100, 2, None), (4, 10, None, None)]
