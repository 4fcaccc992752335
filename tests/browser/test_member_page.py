"""A member's own page in real Chromium, at a phone's size, opened from the link the
treasurer sends: /table/member#token=... (the token in the fragment). The shell keeps the
token, takes it out of the address, and shows the member's page (GET
/members/<id>/account?format=html). Checked: his figures are his account's (his payments, a
mistaken one and its reversal among them, in pounds), no one else's
name is on it, nothing overflows a phone's width, nothing is requested from another origin,
and axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import expect

from ledger.books.service import Books
from ledger.clubs.service import Actor
from ledger.domain import OpenSession
from ledger.domain.commands import EndSession, StartDeal
from ledger.writes import WriteRequest

from .tablet import TIMEOUT, ledger_of
from .test_statement_page import serious_violations

PHONE = {"width": 390, "height": 844}


def test_the_member_page_shows_his_figures_and_no_one_elses_on_a_phone(
        new_device, server, axe_source):
    club = server.club()
    ledger = ledger_of(server, club)
    tess = WriteRequest(Actor("treasurer", club.members["treasurer"]))
    # docs/rules.md §10.1, three seats at 10p a unit: the member's 9H takes the pool of 3,
    # the pool of 6 is divided at the end: he is +5 (50p), the treasurer -4, the dealer -1
    sid = ledger.open_session(OpenSession(players=["treasurer", "member", "dealer"],
                                          first_dealer="treasurer", name="Thursday",
                                          money_per_unit_minor=10, currency="GBP"),
                              tess).body["session_id"]
    ledger.append(sid, [StartDeal(trump_card="7H", face_up={
        "treasurer": "5C", "member": "9H", "dealer": "KS"})], tess)
    ledger.append(sid, [EndSession(method="divide-pool")], tess)
    # the club pays him 20p of it in cash; a payment of 58p typed against him is reversed
    books = Books(server.engine, club.club_id)
    books.record_payment(payer="club", payee="member", amount_minor=20, currency="GBP",
                         method="cash", session_id=sid, request=tess)
    slip = books.record_payment(payer="member", payee="club", amount_minor=58,
                                currency="GBP", method="cash", request=tess)
    books.reverse(slip.body["seq"], reason="typed against the wrong member", request=tess)
    issued = json.load(urllib.request.urlopen(urllib.request.Request(
        f"{server.url}/tokens", method="POST", data=json.dumps({
            "member": club.members["member"], "role": "member", "label": "his phone"}).encode(),
        headers={"Authorization": f"Bearer {club.tokens['treasurer']}",
                 "Content-Type": "application/json", "Idempotency-Key": "member-link"})))
    device = new_device(PHONE)
    page: Any = device.page
    foreign: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server.url) else foreign.append(r.url))
    page.goto(f"{server.url}{issued['url']}")
    sheet = page.locator("main.sheet")
    expect(sheet).to_be_visible(timeout=TIMEOUT)
    assert page.url == f"{server.url}/table/member"  # the token is out of the address
    expect(page.get_by_test_id("balances")).to_contain_text("The club owes you 0.30 GBP")
    money = page.get_by_test_id("money")
    expect(money.locator("tr[data-kind]")).to_have_count(3)
    expect(money).to_contain_text("The club paid you (cash, for Thursday)")
    expect(money).to_contain_text("\u22120.20 GBP")
    expect(money.locator('tr[data-kind="reversal"]')).to_contain_text("\u22120.58 GBP")
    expect(money.locator("tr[data-reversed-by]")).to_contain_text("+0.58 GBP")
    expect(page.locator(f"#s-{sid} [data-net-units]")).to_have_text("+5 units = +0.50 GBP")
    row = page.locator(f'[data-testid="sessions"] tr[data-session-id="{sid}"]')
    expect(row).to_contain_text("Thursday")
    row.get_by_role("link").click()
    assert page.url.endswith(f"#s-{sid}")
    text = sheet.inner_text()
    assert "treasurer" not in text.lower() and "dealer" not in text.lower()
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], wide
    assert foreign == []
    assert serious_violations(page, axe_source) == []
