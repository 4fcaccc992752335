"""The treasurer's month-end over HTTP, on SQLite and PostgreSQL (docs/books.md): the book log
listed and exported, a mistaken payment reversed, what the club owes and holds, the club's
currencies, and last month's books read again exactly after a late correction.

The month (tests/e2e/test_books_api.py's night, 10p a unit): Thursday leaves Ann owing 40p,
Cal 10p, and the club owing Bob 50p. Then the book log:

    1  Ann pays the club 40 in cash, against Thursday
    2  Cal pays the club 100 in cash (a slip: he gave 10)
    3  the treasurer reverses 2: "typed 100 for 10"
    4  Cal pays the club 10 in cash
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from .conftest import assert_problem
from .test_books_api import a_night, post

SLIP = "typed 100 for 10"


def pay(client: Any, payer: str, payee: str, amount: int, method: str = "cash",
        currency: str = "GBP", **extra: Any) -> dict[str, Any]:
    response = post(client, "/payments", {"payer": payer, "payee": payee,
                                          "amount_minor": amount, "currency": currency,
                                          "method": method, **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def month(client: Any) -> str:
    """The month above; returns Thursday's session id."""
    sid = a_night(client, "Thursday")
    pay(client, "Ann", "club", 40, session_id=sid)
    pay(client, "Cal", "club", 100)
    reversed_ = client.post("/book-entries/2/reversal", json={"reason": SLIP},
                            headers={"Idempotency-Key": "reverse-2"})
    assert reversed_.status_code == 201, reversed_.get_json()
    assert reversed_.get_json()["payload"]["reverses"] == 2
    pay(client, "Cal", "club", 10)
    return sid


BOOK_READS = ("/accounts", "/debts", "/payables", "/settle-up", "/standings",
              "/book-entries", "/club/currencies")


def reads(client: Any, member_id: str, as_of: str | None = None) -> dict[str, Any]:
    """Every books read (and the member's account), as_of a point if given, without the
    `as_of` the answer echoes."""
    out = {}
    for url in (*BOOK_READS, f"/members/{member_id}/account"):
        response = client.get(url, query_string={"as_of": as_of} if as_of else {})
        assert response.status_code == 200, (url, response.get_json())
        body = response.get_json()
        body.pop("as_of", None)
        out[url] = body
    return out


def test_a_mistaken_payment_is_reversed_and_both_stay_on_the_books(tess, club):
    month(tess)
    accounts = tess.get("/accounts").get_json()
    assert {m["name"]: m["balances"] for m in accounts["members"]
            if m["name"] in ("Ann", "Bob", "Cal")} == {
        "Ann": {"GBP": 0}, "Bob": {"GBP": 50}, "Cal": {"GBP": 0}}
    assert accounts["club"]["cash"] == {"GBP": 50}  # 40 + 100 - 100 + 10
    assert accounts["check"]["zero_sum"] and accounts["log"]["entries"] == 4
    cal = tess.get(f"/members/{club.members['Cal']}/account").get_json()
    assert [(e["kind"], e["amount_minor"], e["balance_minor"], e["seq"])
            for e in cal["entries"]] == [("session", -10, -10, None),
                                         ("payment", 100, 90, 2),
                                         ("reversal", -100, -10, 3),
                                         ("payment", 10, 0, 4)]
    paid_at = cal["entries"][1]["at"][:10]
    assert cal["entries"][2]["description"] == \
        f"reversal of the payment of {paid_at} (entry 2): {SLIP}"
    assert tess.get("/debts").get_json()["debts"] == []


def test_an_entry_is_reversed_once_and_a_reversal_never(tess, club):
    month(tess)
    again = tess.post("/book-entries/2/reversal", json={"reason": "again"})
    assert assert_problem(again, 409, rule="entry-already-reversed")["reversed_by"] == 3
    assert_problem(tess.post("/book-entries/3/reversal", json={"reason": "undo the undo"}),
                   422, rule="entry-not-reversible")
    assert_problem(tess.post("/book-entries/99/reversal", json={"reason": "x"}), 404,
                   rule="entry-exists")
    assert_problem(tess.post("/book-entries/1/reversal", json={"reason": " "}), 422)
    assert tess.get("/accounts").get_json()["log"]["entries"] == 4


def test_a_reversed_cash_payment_leaves_the_tins_check(tess, club):
    sid = a_night(tess)
    pay(tess, "Ann", "club", 400, session_id=sid)  # the slip
    assert tess.post("/book-entries/1/reversal", json={"reason": SLIP}).status_code == 201
    pay(tess, "Ann", "club", 40, session_id=sid)
    assert post(tess, f"/sessions/{sid}/cash", {"counted_minor": 40, "currency": "GBP"}
                ).status_code == 201
    cash = tess.get(f"/sessions/{sid}/statement").get_json()["cash"]
    assert (cash["cash_paid_in_minor"], cash["expected_minor"], cash["difference_minor"]) \
        == (40, 40, 0)


def test_the_register_lists_filters_and_pages_the_book_log(tess, club):
    sid = month(tess)
    page = tess.get("/book-entries").get_json()
    rows = page["entries"]
    assert [(r["seq"], r["kind"], r["payer_name"], r["amount_minor"], r["reverses"],
             r["reversed_by"]) for r in rows] == [
        (1, "payment", "Ann", 40, None, None), (2, "payment", "Cal", 100, None, 3),
        (3, "reversal", "Cal", 100, 2, None), (4, "payment", "Cal", 10, None, None)]
    assert rows[2]["reason"] == SLIP and rows[2]["method"] == "cash"
    assert page["next_after"] is None

    def seqs(**query: Any) -> list[int]:
        response = tess.get("/book-entries", query_string=query)
        assert response.status_code == 200, response.get_json()
        return [r["seq"] for r in response.get_json()["entries"]]

    assert seqs(member_id=club.members["Cal"]) == [2, 3, 4]
    assert seqs(kind="reversal") == [3]
    assert seqs(session_id=sid) == [1]
    assert seqs(method="transfer") == [] and seqs(method="cash") == [1, 2, 3, 4]
    assert seqs(currency="EUR") == [] and seqs(currency="GBP") == [1, 2, 3, 4]
    assert seqs(until=rows[1]["recorded_at"]) == [1]
    assert seqs(since=rows[3]["recorded_at"]) == [4]
    first = tess.get("/book-entries?limit=2&kind=payment").get_json()
    assert [r["seq"] for r in first["entries"]] == [1, 2] and first["next_after"] == 2
    rest = tess.get(first["next"]).get_json()
    assert [r["seq"] for r in rest["entries"]] == [4] and rest["next"] is None


def test_the_register_exports_csv_with_a_byte_order_mark_when_asked(tess, club):
    from ledger.clubs.service import Clubs

    zoe = Clubs(tess.application.config["ENGINE"]).add_member(club.club_id, "Zoë")
    pay(tess, zoe["member_id"], "club", 5, method="transfer", note="=SUM(A1)")
    plain = tess.get("/book-entries?format=csv")
    assert plain.mimetype == "text/csv" and not plain.data.startswith(b"\xef\xbb\xbf")
    marked = tess.get("/book-entries?format=csv&bom=1")
    assert marked.data.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(marked.data.decode("utf-8-sig"))))
    header, row = table
    assert header[:4] == ["seq", "recorded_at", "kind", "payer_name"]
    assert (row[header.index("payer_name")], row[header.index("amount_minor")],
            row[header.index("note")]) == ("Zoë", "5", "'=SUM(A1)")
    debts = tess.get("/debts?format=csv&bom=true")
    assert debts.data.startswith(b"\xef\xbb\xbf")


def test_last_months_books_are_read_again_exactly_after_a_late_correction(tess, club):
    sid = month(tess)
    then = reads(tess, club.members["Cal"])
    fourth = then["/book-entries"]["entries"][3]["recorded_at"]
    # after the month-end: Thursday's end is undone (it reopens), the club pays Bob
    undone = tess.post(f"/sessions/{sid}/undo", json={"reason": "ended too soon"},
                       headers={"Idempotency-Key": "undo-end"})
    assert undone.status_code == 201, undone.get_json()
    pay(tess, "club", "Bob", 50, method="transfer")
    now = reads(tess, club.members["Cal"])
    assert now["/standings"]["members"] == [] and now["/accounts"] != then["/accounts"]
    assert {m["name"]: m["balances"] for m in now["/accounts"]["members"]
            if m["name"] in ("Ann", "Bob", "Cal")} == {
        "Ann": {"GBP": 40}, "Bob": {"GBP": -50}, "Cal": {"GBP": 10}}
    assert reads(tess, club.members["Cal"], as_of="4") == then
    assert reads(tess, club.members["Cal"], as_of=fourth) == then
    echoed = tess.get("/accounts", query_string={"as_of": "4"}).get_json()["as_of"]
    assert (echoed["asked"], echoed["seq"], echoed["at"]) == ("4", 4, fourth)


def test_what_the_club_owes_and_holds_is_shown_oldest_first(tess, club):
    first = a_night(tess, "Thursday")
    second = a_night(tess, "Friday")
    pay(tess, "Ann", "club", 80, session_id=second)
    pay(tess, "club", "Bob", 30, method="transfer")
    payables = tess.get("/payables").get_json()
    # Bob won 50 twice and was paid 30: Thursday's 50 is settled 30, Friday's stands
    assert [(p["name"], p["amount_minor"], p["session_id"]) for p in payables["payables"]] \
        == [("Bob", 20, first), ("Bob", 50, second)]
    assert payables["totals"] == {"GBP": 70}
    rows = list(csv.reader(io.StringIO(tess.get("/payables?format=csv").get_data(True))))
    assert [(r[0], r[6]) for r in rows[1:]] == [("Bob", "20"), ("Bob", "50")]
    settle = tess.get("/settle-up").get_json()
    assert settle["currency"] == "GBP"
    (gbp,) = settle["currencies"]
    assert gbp["pays_club"] == [{"member_id": club.members["Cal"], "name": "Cal",
                                 "amount_minor": 20}]
    assert [(w["name"], w["amount_minor"]) for w in gbp["club_pays"]] == [("Bob", 70)]
    assert (gbp["cash_minor"], gbp["bank_minor"], gbp["receivable_minor"],
            gbp["payable_minor"], gbp["position_minor"], gbp["balanced"]) == (
        80, -30, 20, 70, 0, True)
    page = tess.get("/standings?format=html").get_data(as_text=True)
    assert 'data-testid="payables"' in page and 'data-payable-total="GBP">0.70 GBP' in page
    assert "Net, units" not in page


def test_a_club_keeps_its_currencies_and_never_mixes_them(tess, club):
    a_night(tess)
    problem = assert_problem(post(tess, "/payments", {
        "payer": "Ann", "payee": "club", "amount_minor": 5, "currency": "EUR",
        "method": "cash"}), 422, rule="club-currency")
    assert problem["field"] == "currency" and "GBP" in problem["detail"]
    assert_problem(post(tess, "/payments", {"payer": "Ann", "payee": "club",
                                            "amount_minor": 5, "currency": "XYZ",
                                            "method": "cash"}), 422, rule="currency")
    assert tess.get("/club/currencies").get_json() == {"currency": "GBP", "accepted": []}
    assert_problem(tess.put("/club/currencies", json={"currency": "XYZ"}), 422,
                   rule="currency")
    assert_problem(tess.put("/club/currencies", json={"currency": "GBP",
                                                      "accepted": ["GBP"]}), 422,
                   rule="currency-listed-twice")
    assert tess.put("/club/currencies", json={"currency": "GBP", "accepted": ["EUR"]}
                    ).status_code == 201
    pay(tess, "Ann", "club", 5, currency="EUR")
    ann = next(m for m in tess.get("/accounts").get_json()["members"] if m["name"] == "Ann")
    assert ann["balances"] == {"EUR": 5, "GBP": -40}
    settle = tess.get("/settle-up").get_json()
    assert settle["accepted"] == ["EUR"]
    assert [(c["currency"], c["cash_minor"], c["payable_minor"], c["receivable_minor"])
            for c in settle["currencies"]] == [("EUR", 5, 5, 0), ("GBP", 0, 50, 50)]
    assert tess.get("/club/currencies?as_of=1").get_json()["accepted"] == ["EUR"]
    assert_problem(tess.get("/club/currencies?as_of=9"), 422, rule="as-of-in-range")


def test_a_session_opens_only_in_a_currency_the_club_keeps(tess, club, engine):
    from sqlalchemy import func, select

    from ledger.store.tables import members, sessions

    def counts() -> tuple[int, int]:
        with engine.connect() as conn:
            return tuple(conn.scalar(select(func.count()).select_from(t)  # type: ignore[misc]
                                     .where(t.c.club_id == club.club_id))
                         for t in (sessions, members))

    def open_in(currency: str) -> Any:
        return tess.post("/sessions", json={
            "name": f"in {currency}", "players": ["Ann", "Bob", "Zoë"], "guests": ["Zoë"],
            "currency": currency, "money_per_unit_minor": 10})

    before = counts()
    problem = assert_problem(open_in("EUR"), 422, rule="club-currency")
    assert problem["field"] == "currency"
    assert "GBP" in problem["detail"] and "EUR" in problem["detail"]
    assert_problem(open_in("XYZ"), 422, rule="currency")
    assert counts() == before  # no session, and the guest was not added
    assert tess.get("/audit/events").get_json()["events"] == []
    assert open_in("GBP").status_code == 201
    assert tess.put("/club/currencies", json={"currency": "GBP", "accepted": ["EUR"]}
                    ).status_code == 201
    opened = open_in("EUR")
    assert opened.status_code == 201, opened.get_json()
    assert opened.get_json()["session"]["currency"] == "EUR"
    # counters are kept by every club
    assert tess.post("/sessions", json={"players": ["Ann", "Bob"]}).status_code == 201


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("url", [*BOOK_READS, "/members/{member}/account"])
@pytest.mark.parametrize("parameter", ["until_", "asof", "page"])
def test_an_unknown_parameter_on_a_books_read_is_refused_naming_it(tess, club, url,
                                                                   parameter):
    response = tess.get(url.format(member=club.members["Ann"]),
                        query_string={parameter: "1"})
    problem = assert_problem(response, 422)
    assert problem["field"] == parameter, problem


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("as_of", ["yesterday", "2026-11-30T23:59:59", "0", "-3", "true"])
def test_an_as_of_that_names_no_point_is_refused(tess, club, as_of):
    a_night(tess)
    pay(tess, "Ann", "club", 40)
    problem = assert_problem(tess.get("/accounts", query_string={"as_of": as_of}), 422)
    assert problem["field"] == "as_of"


@pytest.mark.backends("sqlite")
def test_an_auditor_reads_the_register_but_may_not_reverse(app, engine, tess, club):
    from tests.clubs import club_client

    month(tess)
    auditor = club_client(app, engine, role="auditor", club=club)
    assert len(auditor.get("/book-entries").get_json()["entries"]) == 4
    assert_problem(auditor.post("/book-entries/1/reversal", json={"reason": "no"}), 403,
                   rule="role")
    assert_problem(auditor.put("/club/currencies", json={"currency": "EUR"}), 403,
                   rule="role")


def test_the_statement_and_explain_csv_give_one_table_per_file_when_asked(tess, club):
    sid = a_night(tess)
    pay(tess, "Ann", "club", 40, session_id=sid)
    assert post(tess, f"/sessions/{sid}/cash", {"counted_minor": 30, "currency": "GBP"}
                ).status_code == 201

    def table(url: str) -> list[list[str]]:
        response = tess.get(url)
        assert response.status_code == 200, response.get_data(True)
        assert response.data.startswith(b"\xef\xbb\xbf") == ("bom=1" in url)
        return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))

    base = f"/sessions/{sid}/statement?format=csv"
    players = table(f"{base}&table=players&bom=1")
    assert [(r[0], *r[-4:]) for r in players] == [
        ("player", "net_units", "currency", "net_money", "net_money_minor"),
        ("Ann", "-4", "GBP", "-0.40", "-40"), ("Bob", "5", "GBP", "0.50", "50"),
        ("Cal", "-1", "GBP", "-0.10", "-10")]
    assert table(f"{base}&table=transfers")[0] == ["from", "to", "amount_units", "currency",
                                                   "amount_money", "amount_money_minor"]
    cash = table(f"{base}&table=cash")
    assert cash[0][:4] == ["currency", "counted_minor", "expected_minor", "difference_minor"]
    assert cash[1][:4] == ["GBP", "30", "40", "-10"] and len(cash) == 2
    whole = tess.get(base).get_data(as_text=True)
    assert whole.count("\n\n") == 3 and "cash,GBP,30,40,-10," in whole  # as it always was
    figures = table(f"/sessions/{sid}/explain?format=csv&table=figures&bom=1")
    assert figures[0] == ["account", "kind", "net_units", "categories", "version", "as_of"]
    assert {r[0]: r[2] for r in figures[1:]}["Ann"] == "-4"
    postings = table(f"/sessions/{sid}/explain?format=csv&table=postings")
    assert postings[0][:3] == ["account", "kind", "version"] and all(postings[1:])
    assert_problem(tess.get(f"{base}&table=everything"), 422)


def test_a_guest_paid_from_the_float_leaves_the_tin_even(tess, club):
    # The night: the club paid Bob his 50 from the float into an otherwise empty tin.
    # Without the float the check read a surplus of 50 where 50 had left the tin.
    sid = a_night(tess)
    pay(tess, "club", "Bob", 50, session_id=sid)
    assert post(tess, f"/sessions/{sid}/cash", {"counted_minor": 0, "currency": "GBP"}
                ).status_code == 201
    cash = tess.get(f"/sessions/{sid}/statement").get_json()["cash"]
    assert (cash["expected_minor"], cash["difference_minor"]) == (-50, 50)
    assert post(tess, f"/sessions/{sid}/float", {"amount_minor": 50, "currency": "GBP",
                                                 "note": "from the box"}).status_code == 201
    cash = tess.get(f"/sessions/{sid}/statement").get_json()["cash"]
    assert (cash["float_minor"], cash["expected_minor"], cash["difference_minor"],
            cash["unbooked_minor"]) == (50, 0, 0, 0)


def test_a_shortage_is_booked_to_a_named_account_and_shown_on_paper(tess, club):
    sid = a_night(tess)
    refused = post(tess, f"/sessions/{sid}/cash-differences", {
        "difference": "shortage", "amount_minor": 20, "currency": "GBP", "account": "club",
        "reason": "tin short"})
    assert_problem(refused, 409, rule="cash-difference-after-count")
    assert post(tess, f"/sessions/{sid}/float", {"amount_minor": 100, "currency": "GBP"}
                ).status_code == 201
    pay(tess, "Ann", "club", 40, session_id=sid)
    pay(tess, "club", "Bob", 50, session_id=sid)
    assert post(tess, f"/sessions/{sid}/cash", {"counted_minor": 60, "currency": "GBP"}
                ).status_code == 201
    # expected: float 100 + pools 0 + 40 in - 50 out = 90; counted 60: 30 short
    for body, status, rule in (
            ({"difference": "surplus", "amount_minor": 10}, 422,
             "cash-difference-exceeds-check"),
            ({"difference": "shortage", "amount_minor": 31}, 422,
             "cash-difference-exceeds-check"),
            ({"difference": "shortage", "amount_minor": 10, "currency": "EUR"}, 422,
             "session-currency")):
        refused = post(tess, f"/sessions/{sid}/cash-differences", {
            "currency": "GBP", "account": "club", "reason": "r", **body})
        problem = assert_problem(refused, status, rule=rule)
    assert problem["field"] == "currency"
    for account, amount in (("club", 20), ("Cal", 10)):
        booked = post(tess, f"/sessions/{sid}/cash-differences", {
            "difference": "shortage", "amount_minor": amount, "currency": "GBP",
            "account": account, "reason": "tin short"})
        assert booked.status_code == 201, booked.get_json()
    cash = tess.get(f"/sessions/{sid}/statement").get_json()["cash"]
    assert (cash["expected_minor"], cash["difference_minor"], cash["booked_minor"],
            cash["unbooked_minor"]) == (90, -30, -30, 0)
    accounts = tess.get("/accounts").get_json()
    cal = next(m for m in accounts["members"] if m["name"] == "Cal")
    assert cal["balances"] == {"GBP": -20}  # his night's 10 and the 10 he answers for
    assert accounts["club"]["cash_over_short"] == {"GBP": 20}
    assert accounts["club"]["cash"] == {"GBP": -40}  # 40 in, 50 out, 30 short
    (gbp,) = tess.get("/settle-up").get_json()["currencies"]
    assert gbp["balanced"] and gbp["cash_over_short_minor"] == 20
    kinds = [r["kind"] for r in tess.get("/book-entries").get_json()["entries"]]
    assert kinds == ["float", "payment", "payment", "cash-count", "cash-difference",
                     "cash-difference"]
    page = tess.get(f"/sessions/{sid}/statement?format=html").get_data(as_text=True)
    assert 'data-difference-minor="-30"' in page and "The tin agrees" in page
    assert 'data-expected-minor="90"' in page
    club_page = tess.get("/standings?format=html").get_data(as_text=True)
    assert 'data-testid="tins"' in club_page
    assert 'data-difference-minor="-30"' in club_page
    assert 'data-unbooked-minor="0"' in club_page


def test_the_club_pages_tins_are_read_as_of_a_point_like_the_rest_of_it(tess, club):
    sid = a_night(tess)
    pay(tess, "Ann", "club", 40, session_id=sid)
    for counted in (30, 40):  # entry 2: 10 short; entry 3: counted again, it agrees
        assert post(tess, f"/sessions/{sid}/cash", {"counted_minor": counted,
                                                   "currency": "GBP"}).status_code == 201
    now = tess.get("/standings?format=html").get_data(as_text=True)
    assert 'data-difference-minor="0"' in now
    then = tess.get("/standings?format=html&as_of=2").get_data(as_text=True)
    assert 'data-testid="tins"' in then and 'data-difference-minor="-10"' in then
    before = tess.get("/standings?format=html&as_of=1").get_data(as_text=True)
    assert "No tin has been counted." in before


@pytest.mark.parametrize("as_of", ["99999999999999999999", "2147483648", "0001-01-01T00:00:00Z",
                                   "9999-12-31T23:59:59+14:00", "1e3", "\u0661"])
def test_an_as_of_out_of_every_range_is_a_clear_refusal_or_an_answer(tess, club, as_of):
    a_night(tess)
    pay(tess, "Ann", "club", 40)
    for url in BOOK_READS:
        response = tess.get(url, query_string={"as_of": as_of})
        assert response.status_code in (200, 422), (url, as_of, response.get_data(True))
        if response.status_code == 422:
            assert assert_problem(response, 422)["field"] == "as_of"
