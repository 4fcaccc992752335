"""The club's books over HTTP, on SQLite and PostgreSQL (docs/books.md): a night's nets
become debts, payments settle the oldest first, write-offs need a reason, the cash counted
at the close is checked on the statement, and every refusal names its field and rule."""

from __future__ import annotations

import csv
import io

import pytest

from tests.clubs import club_client, make_club

from .conftest import assert_problem

# docs/rules.md §10.1, three players: Ann deals the turn-up single; Bob's 9H beats the 7H and
# takes the pool of 3 (Ann's deal price); Ann and Cal are looed 3 each for the next pool.
# Divided at the end, 2 each: Ann -3-3+2 = -4, Bob +3+2 = 5, Cal -3+2 = -1 (10p a unit).
SINGLE = {"type": "DealStarted", "trump_card": "7H",
          "face_up": {"Ann": "5C", "Bob": "9H", "Cal": "KS"}}
END = {"type": "SessionEnded", "method": "divide-pool"}


def post(client, url, body, key=None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(url, json=body, headers=headers)


def a_night(client, name="Thursday", end=True):
    opened = client.post("/sessions", json={
        "name": name, "players": ["Ann", "Bob", "Cal"], "guests": [], "currency": "GBP",
        "money_per_unit_minor": 10, "first_dealer": "Ann"})
    assert opened.status_code == 201, opened.get_json()
    sid = opened.get_json()["session_id"]
    assert post(client, f"/sessions/{sid}/events", SINGLE, key=f"{sid}-1").status_code == 201
    if end:
        ended = post(client, f"/sessions/{sid}/events", END, key=f"{sid}-2")
        assert ended.status_code == 201, ended.get_json()
    return sid


def test_a_nights_nets_become_the_members_debts_and_credits(tess, club):
    sid = a_night(tess)
    accounts = tess.get("/accounts").get_json()
    balances = {m["name"]: m["balances"] for m in accounts["members"]}
    assert (balances["Ann"], balances["Bob"], balances["Cal"]) == (
        {"GBP": -40}, {"GBP": 50}, {"GBP": -10})
    assert accounts["check"] == {"sums": {"GBP": 0}, "zero_sum": True}
    debts = tess.get("/debts").get_json()
    assert [(d["name"], d["amount_minor"], d["session_id"], d["session_name"])
            for d in debts["debts"]] == [("Ann", 40, sid, "Thursday"),
                                         ("Cal", 10, sid, "Thursday")]
    assert debts["totals"] == {"GBP": 50}


def test_a_payment_settles_the_oldest_nights_debt_first(tess, club):
    first = a_night(tess, "Thursday")
    second = a_night(tess, "Friday")
    paid = post(tess, "/payments", {"payer": "Ann", "payee": "club", "amount_minor": 50,
                                    "currency": "GBP", "method": "cash"})
    assert paid.status_code == 201, paid.get_json()
    account = tess.get(f"/members/{club.members['Ann']}/account").get_json()
    assert [(e["kind"], e["amount_minor"], e["balance_minor"], e["open_minor"])
            for e in account["entries"]] == [("session", -40, -40, 0),
                                             ("session", -40, -80, -30),
                                             ("payment", 50, -30, 0)]
    assert account["owes"] == {"GBP": 30}
    assert [(o["session_id"], o["amount_minor"]) for o in account["open"]] == [(second, 30)]
    assert first != second


def test_a_members_account_is_paged_and_exported_as_csv(tess, club):
    a_night(tess, "=cmd|' /C calc'!A0")
    for _ in range(2):
        assert post(tess, "/payments", {"payer": "Ann", "payee": "club", "amount_minor": 5,
                                        "currency": "GBP", "method": "transfer"}
                    ).status_code == 201
    url = f"/members/{club.members['Ann']}/account"
    page = tess.get(f"{url}?limit=2").get_json()
    assert [e["n"] for e in page["entries"]] == [1, 2] and page["next_after"] == 2
    rest = tess.get(page["next"]).get_json()
    assert [e["n"] for e in rest["entries"]] == [3] and rest["next"] is None
    response = tess.get(f"{url}?format=csv")
    assert response.mimetype == "text/csv"
    table = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert table[0][:4] == ["n", "at", "kind", "description"]
    amount = table[0].index("amount_minor")
    assert [row[amount] for row in table[1:]] == ["-40", "5", "5"]
    # a session named like a formula is quoted
    assert table[1][table[0].index("session_name")].startswith("'=")


@pytest.mark.parametrize("name", [";=cmd|' /C calc'!A0", ",+SUM(A1)", ";;@SUM(A1)",
                                  "\uff1dcmd|' /C calc'!A0", "\uff0b1", "\uff0d1",
                                  "\uff20SUM(A1)", ",\uff1d1"])
def test_a_session_named_like_a_formula_behind_a_separator_or_full_width_is_quoted(
        tess, club, name):
    a_night(tess, name)
    response = tess.get(f"/members/{club.members['Ann']}/account?format=csv")
    table = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert table[1][table[0].index("session_name")] == "'" + name


def test_the_formula_guard_quotes_every_start_a_spreadsheet_runs_and_nothing_else():
    from ledger.domain.statement import safe_cell

    for start in ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20"):
        for before in ("", ";", ",", ";,"):
            cell = f"{before}{start}1+1"
            assert safe_cell(cell) == "'" + cell, cell
    for plain in ("Thursday", "a=b", ";x", ",", "", "1-2", "\uff21"):
        assert safe_cell(plain) == plain
    assert safe_cell(-40) == -40


def test_a_members_account_is_written_as_its_schema_dumps_it(tess, club):
    from api.schemas.books import AccountSchema

    a_night(tess)
    assert post(tess, "/payments", {"payer": "Ann", "payee": "club", "amount_minor": 5,
                                    "currency": "GBP", "method": "cash"}).status_code == 201
    response = tess.get(f"/members/{club.members['Ann']}/account?limit=1")
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert [e["kind"] for e in body["entries"]] == ["session"] and body["next"] is not None
    assert AccountSchema().dump(body) == body  # every member, in the schema's types


def test_the_open_debts_are_exported_as_csv(tess, club):
    a_night(tess)
    response = tess.get("/debts?format=csv")
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["name", "session_name", "since", "kind", "currency", "amount",
                       "amount_minor", "member_id", "session_id", "seq", "corrected_by"]
    assert [(r[0], r[5], r[6]) for r in rows[1:]] == [("Ann", "0.40", "40"),
                                                      ("Cal", "0.10", "10")]


def test_the_standings_add_up_the_season_per_member(tess, club):
    a_night(tess, "Thursday")
    a_night(tess, "Friday")
    a_night(tess, "Open", end=False)  # not ended: not in the standings
    standings = tess.get("/standings").get_json()["members"]
    assert [(s["name"], s["sessions"], s["net_units"], s["net_minor"], s["loos"],
             s["deals_dealt"]) for s in standings] == [
        ("Ann", 2, -8, {"GBP": -80}, 2, 2), ("Bob", 2, 10, {"GBP": 100}, 0, 0),
        ("Cal", 2, -2, {"GBP": -20}, 2, 0)]
    assert tess.get("/standings?since=2999-01-01T00:00:00Z").get_json()["members"] == []
    assert_problem(tess.get("/standings?until=yesterday"), 422)


def test_a_write_off_needs_a_reason_and_may_not_exceed_the_debt(tess, club):
    a_night(tess)
    too_much = post(tess, "/write-offs", {"member": "Cal", "amount_minor": 11,
                                          "currency": "GBP", "reason": "moved away"})
    problem = assert_problem(too_much, 422, rule="write-off-exceeds-debt")
    assert problem["field"] == "amount_minor" and problem["owes_minor"] == 10
    # the sentence a treasurer reads says the amounts in money, with the currency
    assert problem["detail"] == \
        "Cal owes 0.10 GBP: a write-off of 0.11 GBP would exceed it"
    no_reason = post(tess, "/write-offs", {"member": "Cal", "amount_minor": 10,
                                           "currency": "GBP", "reason": " "})
    assert assert_problem(no_reason, 422)["field"] == "reason"
    done = post(tess, "/write-offs", {"member": "Cal", "amount_minor": 10, "currency": "GBP",
                                      "reason": "moved away"})
    assert done.status_code == 201 and done.get_json()["type"] == "DebtWrittenOff"
    accounts = tess.get("/accounts").get_json()
    assert accounts["club"]["written_off"] == {"GBP": 10}
    assert accounts["check"]["zero_sum"] and accounts["log"]["entries"] == 1


@pytest.mark.parametrize(("body", "status", "field", "rule"), [
    ({"payee": "Ann"}, 422, "payee", "payer-is-payee"),
    ({"payer": "club", "payee": "club"}, 422, "payee", "payer-is-payee"),
    ({"amount_minor": 0}, 422, "amount_minor", "amount-positive"),
    ({"amount_minor": 1.5}, 422, "amount_minor", None),
    ({"currency": "pounds"}, 422, "currency", "currency"),
    ({"method": "cheque"}, 422, "method", None),
    ({"payer": "Nobody"}, 404, "payer", "member-exists"),
    ({"session_id": "0" * 32}, 404, "session_id", "session-exists"),
    ({"amount": 5}, 422, None, None),
])
def test_a_payment_that_breaks_a_rule_is_refused_and_nothing_is_written(tess, body, status,
                                                                        field, rule):
    base = {"payer": "Ann", "payee": "club", "amount_minor": 100, "currency": "GBP",
            "method": "cash"}
    problem = assert_problem(post(tess, "/payments", {**base, **body}), status, rule=rule)
    if field:
        assert problem["field"] == field
    assert tess.get("/accounts").get_json()["log"]["entries"] == 0


def test_a_member_of_another_club_is_not_found(app, engine, tess, club):
    other = make_club(engine, "Other club")
    stranger = other.members["dealer"]
    assert_problem(tess.get(f"/members/{stranger}/account"), 404, rule="member-exists")
    refused = post(tess, "/payments", {"payer": stranger, "payee": "club", "amount_minor": 1,
                                       "currency": "GBP", "method": "cash"})
    assert assert_problem(refused, 404)["field"] == "payer"
    sid = a_night(tess)
    theirs = club_client(app, engine, club=other)
    assert_problem(post(theirs, f"/sessions/{sid}/cash",
                        {"counted_minor": 0, "currency": "GBP"}), 404)
    assert theirs.get("/debts").get_json() == {"debts": [], "totals": {},
                                               "next_after": None, "next": None}


def test_a_retried_payment_is_recorded_once_and_answered_the_same(tess, club):
    body = {"payer": "Bob", "payee": "club", "amount_minor": 25, "currency": "GBP",
            "method": "cash", "note": "on the way out"}
    first = post(tess, "/payments", body, key="pay-bob-1")
    again = post(tess, "/payments", body, key="pay-bob-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    other = post(tess, "/payments", {**body, "amount_minor": 26}, key="pay-bob-1")
    assert_problem(other, 422, rule="idempotency-key-reuse")
    assert tess.get("/accounts").get_json()["log"]["entries"] == 1


def test_the_cash_counted_at_the_close_is_checked_on_the_statement(tess, club):
    sid = a_night(tess)
    assert tess.get(f"/sessions/{sid}/statement").get_json()["cash"] is None
    for payer, amount in (("Ann", 40), ("Cal", 10)):
        assert post(tess, "/payments", {"payer": payer, "payee": "club",
                                        "amount_minor": amount, "currency": "GBP",
                                        "method": "cash", "session_id": sid}
                    ).status_code == 201
    assert post(tess, "/payments", {"payer": "club", "payee": "Bob", "amount_minor": 45,
                                    "currency": "GBP", "method": "cash",
                                    "session_id": sid}).status_code == 201
    counted = post(tess, f"/sessions/{sid}/cash", {"counted_minor": 0, "currency": "GBP",
                                                   "note": "tin"}, key="count-1")
    assert counted.status_code == 201, counted.get_json()
    cash = tess.get(f"/sessions/{sid}/statement").get_json()["cash"]
    # expected: nothing in the pools + 50 paid in - 45 paid out = 5; the tin holds 0
    assert (cash["counted_minor"], cash["expected_minor"], cash["difference_minor"]) == (
        0, 5, -5)
    text = tess.get(f"/sessions/{sid}/statement?format=csv").get_data(as_text=True)
    assert "cash,GBP,0,5,-5,0,50,45," in text
    wrong = post(tess, f"/sessions/{sid}/cash", {"counted_minor": 0, "currency": "EUR"})
    assert assert_problem(wrong, 422, rule="session-currency")["field"] == "currency"


def test_the_cash_is_counted_only_once_the_session_has_ended(tess, club):
    sid = a_night(tess, end=False)
    refused = post(tess, f"/sessions/{sid}/cash", {"counted_minor": 0, "currency": "GBP"})
    assert assert_problem(refused, 409, rule="cash-after-end")["field"] == "session_id"
    assert_problem(post(tess, f"/sessions/{sid}/cash", {"counted_minor": -1,
                                                        "currency": "GBP"}), 409)


def test_a_session_ended_then_corrected_no_longer_counts_in_the_books(tess, club):
    sid = a_night(tess)
    assert tess.get("/debts").get_json()["totals"] == {"GBP": 50}
    undone = tess.post(f"/sessions/{sid}/undo", json={"reason": "ended too soon"},
                       headers={"Idempotency-Key": "undo-end"})
    assert undone.status_code == 201, undone.get_json()
    assert tess.get("/debts").get_json() == {"debts": [], "totals": {},
                                             "next_after": None, "next": None}
    assert tess.get("/standings").get_json()["members"] == []
    ended = post(tess, f"/sessions/{sid}/events", END, key="end-again")
    assert ended.status_code == 201
    assert tess.get("/debts").get_json()["totals"] == {"GBP": 50}
    assert tess.get(f"/sessions/{sid}/verify").get_json()["ok"] is True


def test_an_auditor_reads_the_books_but_may_not_write_them(app, engine, tess, club):
    a_night(tess)
    auditor = club_client(app, engine, role="auditor", club=club)
    assert auditor.get("/accounts").status_code == 200
    refused = post(auditor, "/payments", {"payer": "Ann", "payee": "club", "amount_minor": 1,
                                          "currency": "GBP", "method": "cash"})
    assert_problem(refused, 403, rule="role")
