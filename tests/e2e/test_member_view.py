"""A member's own view over HTTP, on SQLite and PostgreSQL (docs/books.md, "A member's own
view"): the treasurer issues Ann a member token and sends her the link; with it she reads her
own account, her statements and what she owes, exactly as the treasurer reads them, and
nothing else of the club.

The figures (tests/e2e/test_books_api.py's night, 10p a unit): Thursday leaves Ann -40p, Bob
+50p, Cal -10p. Ann pays the club 30p. Friday is the same night again: Ann owes 10p from
Thursday and 40p from Friday, 50p in all, oldest first.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import assert_problem
from .test_books_api import a_night, post


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def issue(client: Any, member: str, *, label: str = "Ann's phone", role: str = "member",
          **extra: Any) -> Any:
    return post(client, "/tokens", {"member": member, "role": role, "label": label, **extra})


@pytest.fixture
def month(tess, club) -> dict[str, Any]:
    thursday = a_night(tess, "Thursday")
    paid = post(tess, "/payments", {"payer": "Ann", "payee": "club", "amount_minor": 30,
                                    "currency": "GBP", "method": "cash"})
    assert paid.status_code == 201, paid.get_json()
    friday = a_night(tess, "Friday")
    issued = issue(tess, club.members["Ann"])
    assert issued.status_code == 201, issued.get_json()
    return {"thursday": thursday, "friday": friday, "token": issued.get_json()["token"],
            "issued": issued.get_json()}


def test_a_treasurer_issues_a_member_token_and_its_link_carries_it_in_the_fragment(
        app, tess, club, month):
    issued = month["issued"]
    assert issued["role"] == "member" and issued["member_id"] == club.members["Ann"]
    assert issued["member"] == "Ann" and issued["status"] == "active"
    # the link to send: the page, the token only after '#', which no browser sends
    assert issued["url"] == f"/table/member#token={issued['token']}"
    assert "?" not in issued["url"]
    me = app.test_client().get("/club", headers=bearer(month["token"])).get_json()
    assert (me["role"], me["member_id"], me["member"]) == ("member", club.members["Ann"], "Ann")
    shell = app.test_client().get("/table/member")
    assert shell.status_code == 200 and "member.js" in shell.get_data(as_text=True)
    assert "Ann" not in shell.get_data(as_text=True)  # the shell holds no data


def test_her_account_is_the_one_the_treasurer_reads(app, tess, club, month):
    ann, http = club.members["Ann"], app.test_client()
    hers = http.get(f"/members/{ann}/account", headers=bearer(month["token"]))
    assert hers.status_code == 200, hers.get_json()
    assert hers.get_json() == tess.get(f"/members/{ann}/account").get_json()
    account = hers.get_json()
    assert account["balances"] == {"GBP": -50} and account["owes"] == {"GBP": 50}
    # what she owes, oldest first: 10 left of Thursday's 40 after her 30, then Friday's 40
    assert [(o["session_id"], o["amount_minor"], o["owes"]) for o in account["open"]] == [
        (month["thursday"], 10, True), (month["friday"], 40, True)]
    assert [(e["kind"], e["amount_minor"], e["balance_minor"]) for e in account["entries"]] \
        == [("session", -40, -40), ("payment", 30, -10), ("session", -40, -50)]
    # as of the payment (book entry 1), and as CSV, as the treasurer has them
    then = http.get(f"/members/{ann}/account?as_of=1", headers=bearer(month["token"]))
    assert then.get_json()["balances"] == {"GBP": -10}
    assert then.get_json() == tess.get(f"/members/{ann}/account?as_of=1").get_json()
    csv_text = http.get(f"/members/{ann}/account.csv", headers=bearer(month["token"]))
    assert csv_text.status_code == 200
    assert csv_text.get_data() == tess.get(f"/members/{ann}/account.csv").get_data()


def test_her_statements_show_her_own_line_and_the_sessions_totals_only(app, tess, club,
                                                                       month):
    ann, http = club.members["Ann"], app.test_client()
    listed = http.get(f"/members/{ann}/statements", headers=bearer(month["token"]))
    assert listed.status_code == 200, listed.get_json()
    sessions = listed.get_json()["sessions"]
    assert [(s["session_id"], s["seat"], s["net_units"], s["net_minor"], s["currency"])
            for s in sessions] == [(month["friday"], "Ann", -4, -40, "GBP"),
                                   (month["thursday"], "Ann", -4, -40, "GBP")]
    line = http.get(sessions[1]["statement"], headers=bearer(month["token"]))
    assert line.status_code == 200, line.get_json()
    part = line.get_json()
    full = tess.get(f"/sessions/{month['thursday']}/statement").get_json()
    assert part["line"] == next(p for p in full["players"] if p["player"] == "Ann")
    # Ann: paid 3 to deal and looed 3, received 2 of the divided pool: -4, 40p
    assert (part["line"]["paid_total_units"], part["line"]["received_total_units"],
            part["line"]["net_units"], part["line"]["net_money_minor"]) == (6, 2, -4, -40)
    # the session's totals: 3 players paid 9 in all (Ann 6, Cal 3), all 9 came back out
    assert part["totals"] == {"players": 3, "paid_units": 9, "received_units": 9,
                              "won_units": 5, "lost_units": 5}
    assert part["check"]["zero_sum"] and part["final"] and part["log"] == full["log"]
    text = line.get_data(as_text=True)
    for other in ("Bob", "Cal", club.members["Bob"], club.members["Cal"]):
        assert other not in text
    assert "transfers" not in part and "cash" not in part


def test_a_member_token_reaches_nothing_but_her_own(app, tess, club, month):
    http, token, bob = app.test_client(), bearer(month["token"]), club.members["Bob"]
    for url in (f"/members/{bob}/account", f"/members/{bob}/account.csv",
                f"/members/{bob}/account.html", f"/members/{bob}/statements",
                f"/members/{bob}/statements/{month['thursday']}", "/accounts", "/debts",
                "/payables", "/members", "/tokens", "/audit/tokens", "/book-entries",
                f"/sessions/{month['thursday']}", f"/sessions/{month['thursday']}/statement",
                "/club/sessions"):
        assert_problem(http.get(url, headers=token), 403, rule="role")
    paid = http.post("/payments", headers={**token, "Idempotency-Key": "ann-pays-herself"},
                     json={"payer": "club", "payee": "Ann", "amount_minor": 50,
                           "currency": "GBP", "method": "cash"})
    assert_problem(paid, 403, rule="role")
    more = http.post("/tokens", headers={**token, "Idempotency-Key": "ann-more"},
                     json={"member": "Ann", "role": "member", "label": "again"})
    assert_problem(more, 403, rule="role")
    assert tess.get("/accounts").get_json()["log"]["entries"] == 1  # nothing appended


def test_a_session_she_did_not_play_is_not_found_as_one_that_does_not_exist(
        app, tess, club, month):
    ann, http, token = club.members["Ann"], app.test_client(), bearer(month["token"])
    opened = tess.post("/sessions", json={"name": "Without Ann", "players": ["Bob", "Cal"],
                                          "guests": []})
    assert opened.status_code == 201, opened.get_json()
    sid = opened.get_json()["session_id"]
    hers = assert_problem(http.get(f"/members/{ann}/statements/{sid}", headers=token), 404)
    nowhere = assert_problem(http.get(f"/members/{ann}/statements/{'0' * 32}",
                                      headers=token), 404)
    assert hers["detail"].replace(sid, "<id>") == nowhere["detail"].replace("0" * 32, "<id>")


def test_her_page_shows_her_figures_and_no_one_elses(app, tess, club, month):
    ann, http, token = club.members["Ann"], app.test_client(), bearer(month["token"])
    page = http.get(f"/members/{ann}/account?format=html", headers=token)
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert html == http.get(f"/members/{ann}/account.html", headers=token).get_data(True)
    assert 'data-balance-minor="-50"' in html and "You owe the club 0.50 GBP" in html
    assert html.count('data-owes="true"') == 2
    for sid in (month["thursday"], month["friday"]):
        assert f'href="#s-{sid}"' in html and f'id="s-{sid}"' in html
    assert 'data-net-units="-4"' in html and 'name="viewport"' in html
    for other in ("Bob", "Cal"):
        assert other not in html
    assert "<script" not in html and "http://" not in html and "https://" not in html


def test_her_page_as_of_a_point_is_her_account_as_it_stood_then(app, tess, club, month):
    ann, http, token = club.members["Ann"], app.test_client(), bearer(month["token"])
    # book entry 1 is her payment: Thursday's 40 less her 30, and Friday not yet played
    page = http.get(f"/members/{ann}/account?format=html&as_of=1", headers=token)
    assert page.status_code == 200, page.get_data(as_text=True)
    html = page.get_data(as_text=True)
    assert 'data-balance-minor="-10"' in html and "You owe the club 0.10 GBP" in html
    assert html.count('data-owes="true"') == 1 and "(entry 1)" in html
    assert f'id="s-{month["thursday"]}"' in html and month["friday"] not in html
    at = tess.get(f"/members/{ann}/account?as_of=1").get_json()["as_of"]["at"]
    by_time = http.get(f"/members/{ann}/account.html", query_string={"as_of": at},
                       headers=token).get_data(as_text=True)
    assert by_time.replace(at, "<at>") == html.replace(at, "<at>")
    assert_problem(http.get(f"/members/{ann}/account.html?as_of=9", headers=token),
                   422, rule="as-of-in-range")


def test_issuing_a_member_token_names_the_member_or_is_refused(tess, club):
    unknown = assert_problem(issue(tess, "0" * 32), 422, rule="member-exists")
    assert unknown["field"] == "member"
    none = assert_problem(post(tess, "/tokens", {"role": "member", "label": "x"}), 422)
    assert "member" in none["errors"]
    dealer = assert_problem(issue(tess, club.members["Ann"], role="dealer"), 403, rule="role")
    assert dealer["field"] == "role"
    assert [t for t in tess.get("/audit/tokens").get_json()["tokens"]
            if t["member_id"] == club.members["Ann"]] == []


def test_a_token_for_a_member_the_club_does_not_have_is_refused_whatever_its_role(
        app, club):
    admin = app.test_client()
    admin.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {club.tokens['admin']}"
    before = admin.get("/tokens").get_json()["tokens"]
    for role in ("dealer", "treasurer", "auditor", "member"):
        refused = assert_problem(issue(admin, "Nobody", role=role), 422, rule="member-exists")
        assert refused["field"] == "member" and "Nobody" in refused["detail"]
    assert admin.get("/tokens").get_json()["tokens"] == before


def test_a_member_token_is_revoked_like_any_other_and_listed_in_the_register(
        app, tess, club, month):
    http, token_id = app.test_client(), month["issued"]["token_id"]
    listed = [t for t in tess.get("/audit/tokens").get_json()["tokens"]
              if t["token_id"] == token_id]
    assert [(t["role"], t["member"], t["member_id"], t["issued_by_name"], t["reasons"])
            for t in listed] == [("member", "Ann", club.members["Ann"], "treasurer",
                                  ["member-link"])]
    # a treasurer revokes member tokens, and no other
    refused = tess.delete(f"/tokens/{club.token_ids['dealer']}")
    assert_problem(refused, 403, rule="role")
    assert http.get("/club", headers=bearer(club.tokens["dealer"])).status_code == 200
    gone = tess.delete(f"/tokens/{token_id}")
    assert gone.status_code == 200 and gone.get_json()["status"] == "revoked"
    assert_problem(http.get(f"/members/{club.members['Ann']}/account",
                            headers=bearer(month["token"])), 401, rule="bearer-token")
    register = [t for t in tess.get("/audit/tokens").get_json()["tokens"]
                if t["token_id"] == token_id]
    assert register[0]["revoked_at"] == gone.get_json()["revoked_at"]


def test_her_page_shows_her_payments_a_mistake_and_its_reversal(app, tess, club,
                                                                 monkeypatch):
    """Cal, -10p on Thursday, pays 85p; a payment of 58p typed against him is reversed. His
    page says he is square and shows the payment, the mistake and its reversal, newest first,
    in pounds; his debts are named by their session, never by a book entry's number."""
    from .test_book_register import pay

    thursday = a_night(tess, "Thursday")
    pay(tess, "Cal", "club", 10, session_id=thursday)  # 1: square
    pay(tess, "Cal", "club", 58)  # 2: a mistake
    undone = tess.post("/book-entries/2/reversal", json={"reason": "not his"},
                       headers={"Idempotency-Key": "undo-2"})
    assert undone.status_code == 201, undone.get_json()
    cal, http = club.members["Cal"], app.test_client()
    token = bearer(issue(tess, cal, label="Cal's phone").get_json()["token"])
    html = http.get(f"/members/{cal}/account.html", headers=token).get_data(as_text=True)
    assert "Square" in html and 'data-balance-minor="0"' in html
    money = html[html.index('data-testid="money"'):html.index('id="sessions-title"')]
    assert [kind for kind in ("reversal", "payment", "payment")] == [
        chunk.split('"')[0] for chunk in money.split('data-kind="')[1:]]
    assert "You paid the club (cash, for Thursday)" in money
    assert "+0.10 GBP" in money and "+0.58 GBP" in money and "\u22120.58 GBP" in money
    assert "Reversal of the payment of 20" in money and "(entry 2): not his" in money
    assert 'data-reversed-by="3"' in money and "(reversed)" in money
    assert "minor units" not in html and "earlier: your account lists them all" not in html
    # a long history: the newest of them, and how many more the account lists
    monkeypatch.setattr("api.http.forms.PAGE_MONEY", 2)
    short = http.get(f"/members/{cal}/account.html", headers=token).get_data(as_text=True)
    assert short.count("data-kind=") == 2 and "And 1 earlier: your account lists them all" \
        in short
    # a session's net in money, its units beside
    assert "\u22120.10 GBP <span class=\"count\">(\u22121 units)</span>" in html
    # a debt that came from a book entry (the club paid him too much) is named in words
    pay(tess, "club", "Cal", 25, method="transfer")
    owing = http.get(f"/members/{cal}/account.html", headers=token).get_data(as_text=True)
    opened = owing[owing.index('data-testid="open"'):owing.index('id="money-title"')]
    assert "entry 4" not in opened and "payment paid by the club to him (transfer)" in opened
    assert http.get(f"/members/{cal}/account", headers=token).get_json()["open"][0][
        "description"] == "payment paid by the club to him (transfer)"
