"""An evening's tin over HTTP, on SQLite and PostgreSQL (docs/books.md, "The cash check"):
two tables share one tin, one float and one count.

The evening of 26 November 2026: the treasurer puts a float of 500 in the tin before anyone
sits down. Table A (Ann, Bob, Cal at 10p a unit) leaves Ann -40, Bob +50, Cal -10; table B
(Ann, the guest Gus, Cal at 20p) leaves Ann -80, Gus +100, Cal -20. Ann pays 40 in cash
against A, Cal his 10 by transfer (it never touches the tin); the club pays Gus his 100 from
the tin against B. Expected in the tin: 500 + 40 - 100 = 440; counted 420: 20 short.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from .conftest import assert_problem
from .test_book_register import pay
from .test_books_api import END, post

EVENING = "2026-11-26"
TIN = f"/evenings/{EVENING}"


def a_table(client: Any, name: str, players: list[str], pence: int,
            guests: tuple[str, ...] = (), end: bool = True) -> str:
    """A session of one turn-up single (docs/rules.md §10.1): the second player's 9H takes
    the pool; at the end he is +5 units, the first -4, the third -1."""
    opened = client.post("/sessions", json={
        "name": name, "players": players, "guests": list(guests), "currency": "GBP",
        "money_per_unit_minor": pence, "first_dealer": players[0]})
    assert opened.status_code == 201, opened.get_json()
    sid = opened.get_json()["session_id"]
    deal = {"type": "DealStarted", "trump_card": "7H",
            "face_up": dict(zip(players, ["5C", "9H", "KS"], strict=True))}
    assert post(client, f"/sessions/{sid}/events", deal, key=f"{sid}-1").status_code == 201
    if end:
        assert post(client, f"/sessions/{sid}/events", END, key=f"{sid}-2").status_code == 201
    return sid


def created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def join(client: Any, sid: str, evening: str = EVENING) -> Any:
    return post(client, f"/evenings/{evening}/sessions", {"session_id": sid})


def the_evening(client: Any) -> tuple[str, str]:
    """The evening above, up to the count; returns the two sessions' ids."""
    created(post(client, f"{TIN}/float", {"amount_minor": 500, "currency": "GBP",
                                          "note": "from the box"}))  # entry 1
    a = a_table(client, "Table A", ["Ann", "Bob", "Cal"], 10)
    b = a_table(client, "Table B", ["Ann", "Gus", "Cal"], 20, guests=("Gus",))
    created(join(client, a))  # 2
    created(join(client, b))  # 3
    pay(client, "Ann", "club", 40, session_id=a)  # 4
    pay(client, "Cal", "club", 10, method="transfer", session_id=a)  # 5
    pay(client, "club", "Gus", 100, session_id=b)  # 6
    created(post(client, f"{TIN}/cash", {"counted_minor": 420, "currency": "GBP"}))  # 7
    return a, b


def test_two_tables_share_the_evenings_tin_and_its_shortage_shows(tess, club):
    a, b = the_evening(tess)
    tin = tess.get(TIN).get_json()
    assert (tin["evening"], tin["currency"], tin["float_minor"], tin["floats"]) == (
        EVENING, "GBP", 500, 1)
    assert [(s["session_id"], s["session_name"], s["pools_minor"], s["cash_paid_in_minor"],
             s["cash_paid_out_minor"]) for s in tin["sessions"]] == [
        (a, "Table A", 0, 40, 0), (b, "Table B", 0, 0, 100)]
    cash = tin["cash"]
    assert (cash["float_minor"], cash["cash_paid_in_minor"], cash["cash_paid_out_minor"],
            cash["expected_minor"], cash["counted_minor"], cash["difference_minor"],
            cash["unbooked_minor"]) == (500, 40, 100, 440, 420, -20, -20)
    # each table's statement has no tin of its own: its cash is in the evening's, and says so
    for sid in (a, b):
        statement = tess.get(f"/sessions/{sid}/statement").get_json()
        assert (statement["cash"], statement["evening"]) == (None, EVENING)
        page = tess.get(f"/sessions/{sid}/statement.html").get_data(as_text=True)
        assert f'data-evening="{EVENING}"' in page and "has not been counted" not in page

    # the shortage, booked to the club, leaves nothing unbooked
    refused = post(tess, f"{TIN}/cash-differences", {
        "difference": "shortage", "amount_minor": 21, "currency": "GBP", "account": "club",
        "reason": "tin short"})
    problem = assert_problem(refused, 422, rule="cash-difference-exceeds-check")
    assert problem["unbooked_minor"] == -20
    assert problem["detail"] == ("the cash check leaves -0.20 GBP unbooked: a shortage of "
                                 "0.21 GBP does not match it")
    created(post(tess, f"{TIN}/cash-differences", {
        "difference": "shortage", "amount_minor": 20, "currency": "GBP", "account": "club",
        "reason": "tin short"}))  # 8
    cash = tess.get(TIN).get_json()["cash"]
    assert (cash["booked_minor"], cash["unbooked_minor"]) == (-20, 0)
    accounts = tess.get("/accounts").get_json()
    assert accounts["club"]["cash"] == {"GBP": -80}  # 40 in, 100 out, 20 short
    assert accounts["club"]["cash_over_short"] == {"GBP": 20}
    assert accounts["check"]["zero_sum"]

    # the register shows the evening's entries; ?evening= keeps only them
    rows = tess.get(f"/book-entries?evening={EVENING}").get_json()["entries"]
    assert [(r["seq"], r["kind"], r["evening"], r["session_id"]) for r in rows] == [
        (1, "float", EVENING, None), (2, "evening", EVENING, a), (3, "evening", EVENING, b),
        (7, "cash-count", EVENING, None), (8, "cash-difference", EVENING, None)]

    # the club's page shows the evening's tin beside the sessions' own
    page = tess.get("/standings?format=html").get_data(as_text=True)
    assert f'data-evening="{EVENING}"' in page and f"evening of {EVENING}" in page
    assert 'data-difference-minor="-20"' in page and 'data-unbooked-minor="0"' in page


def test_the_evenings_tin_as_csv_is_one_reckoning(tess, club):
    a, b = the_evening(tess)
    response = tess.get(f"{TIN}?format=csv&bom=1")
    assert response.mimetype == "text/csv"
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0] == ["line", "session_name", "currency", "amount", "amount_minor",
                       "session_id"]
    assert rows[1][2:5] == ["GBP", "5.00", "500"]
    assert [(r[0], r[5], r[4]) for r in rows[1:]] == [
        ("float", "", "500"),
        ("pools", a, "0"), ("cash paid in", a, "40"), ("cash paid out", a, "0"),
        ("pools", b, "0"), ("cash paid in", b, "0"), ("cash paid out", b, "100"),
        ("expected", "", "440"), ("counted", "", "420"), ("difference", "", "-20"),
        ("booked", "", "0"), ("unbooked", "", "-20")]


def test_the_evenings_tin_is_read_as_of_a_point(tess, club):
    a, b = the_evening(tess)
    before_b = tess.get(f"{TIN}?as_of=2").get_json()
    assert before_b["as_of"]["seq"] == 2
    assert [s["session_id"] for s in before_b["sessions"]] == [a]
    assert before_b["cash"] is None
    before_count = tess.get(f"{TIN}?as_of=6").get_json()
    assert before_count["cash"] is None and len(before_count["sessions"]) == 2
    # counted again (it agrees after all): the last count stands, and as of 7 the first
    created(post(tess, f"{TIN}/cash", {"counted_minor": 440, "currency": "GBP"}))  # 8
    assert tess.get(TIN).get_json()["cash"]["difference_minor"] == 0
    assert tess.get(f"{TIN}?as_of=7").get_json()["cash"]["difference_minor"] == -20
    page = tess.get("/standings?format=html&as_of=7").get_data(as_text=True)
    assert 'data-difference-minor="-20"' in page


def test_a_session_is_in_one_tin(tess, club):
    a = a_table(tess, "Table A", ["Ann", "Bob", "Cal"], 10)
    own = a_table(tess, "Table C", ["Ann", "Bob", "Cal"], 10)
    created(post(tess, f"/sessions/{own}/float", {"amount_minor": 50, "currency": "GBP"}))
    created(join(tess, a))
    # joined twice, or a second evening: refused, naming the evening it is in
    again = assert_problem(join(tess, a, "2026-11-27"), 409, rule="session-in-evening")
    assert again["evening"] == EVENING and again["field"] == "session_id"
    # its own float, count or difference: refused, its cash is in the evening's tin
    for path, body in (("float", {"amount_minor": 50, "currency": "GBP"}),
                       ("cash", {"counted_minor": 0, "currency": "GBP"})):
        assert_problem(post(tess, f"/sessions/{a}/{path}", body), 409,
                       rule="session-in-evening")
    # a session with a tin of its own does not join
    assert_problem(join(tess, own), 409, rule="session-has-own-tin")
    # reversing the join takes it out: then its own tin is its own again
    entries = tess.get("/book-entries?kind=evening").get_json()["entries"]
    created(tess.post(f"/book-entries/{entries[0]['seq']}/reversal",
                      json={"reason": "it kept its own tin"}))
    assert tess.get(TIN).get_json()["sessions"] == []
    assert tess.get(f"/sessions/{a}/statement").get_json()["evening"] is None
    assert tess.get(f"/sessions/{own}/statement").get_json()["evening"] is None
    created(post(tess, f"/sessions/{a}/float", {"amount_minor": 50, "currency": "GBP"}))


def test_the_evenings_refusals_name_their_field_and_rule(tess, club):
    entries = lambda: tess.get("/accounts").get_json()["log"]["entries"]  # noqa: E731
    open_ = a_table(tess, "Table A", ["Ann", "Bob", "Cal"], 10, end=False)
    count = {"counted_minor": 0, "currency": "GBP"}
    assert_problem(post(tess, f"{TIN}/cash", count), 409, rule="evening-has-sessions")
    created(join(tess, open_))
    assert_problem(post(tess, f"{TIN}/cash", count), 409, rule="cash-after-end")
    assert_problem(post(tess, f"{TIN}/cash-differences", {
        "difference": "shortage", "amount_minor": 1, "currency": "GBP", "account": "club",
        "reason": "r"}), 409, rule="cash-difference-after-count")
    problem = assert_problem(post(tess, f"{TIN}/float", {"amount_minor": 5,
                                                         "currency": "EUR"}),
                             422, rule="evening-currency")
    assert problem["field"] == "currency"
    for bad in ("2026-02-30", "26-11-2026", "2026-11-26x"):
        problem = assert_problem(post(tess, f"/evenings/{bad}/float",
                                      {"amount_minor": 5, "currency": "GBP"}),
                                 422, rule="evening")
        assert problem["field"] == "evening"
        assert_problem(tess.get(f"/evenings/{bad}"), 422, rule="evening")
    # a float in a currency the club does not keep, before any session joined
    assert_problem(post(tess, "/evenings/2026-11-27/float", {"amount_minor": 5,
                                                            "currency": "EUR"}),
                   422, rule="club-currency")
    assert_problem(join(tess, "0" * 32), 404, rule="session-exists")
    assert_problem(tess.get(f"{TIN}?until=2026-12-01"), 422)
    assert entries() == 1  # the one join


def test_the_register_names_a_table_still_open_that_joined_the_tin(tess, club):
    """The register names a session by its name from the moment it is open, not only once it
    has posted a result: the desk lists entries by names."""
    sid = a_table(tess, "Table still open", ["Ann", "Bob", "Cal"], 10, end=False)
    created(join(tess, sid))
    pay(tess, "Ann", "club", 10, session_id=sid)
    entries = tess.get("/book-entries").get_json()["entries"]
    assert [(e["kind"], e["session_name"]) for e in entries] == [
        ("evening", "Table still open"), ("payment", "Table still open")]
