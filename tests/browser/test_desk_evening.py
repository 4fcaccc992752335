"""The evening at the desk in real Chromium at the four sizes, the way a treasurer works: a
table opened under Cassell's laws at 10p a counter with two members and a guest typed in, a
tablet paired for the named dealer (its token is his), the table ended with an ending the
ledger offers; a table of one is refused with the ledger's sentence beside the players and
nothing is recorded; a table in the middle of a deal offers no end."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import func, select

from ledger.store.tables import sessions

from .desk import CLUBS, DOC_SIZES, SIZES, api, fits, treasurer_at_the_desk


def open_table(page: Any, name: str, *, players: list[str], guest: str | None = None,
               first: str | None = None) -> None:
    form = page.get_by_test_id("open-table")
    form.get_by_label("Name of the table").fill(name)
    form.get_by_label("Laws").select_option(label="Cassell's Book of In-door Amusements")
    form.get_by_label("One counter is worth").fill("0.10")
    for player in players:
        form.get_by_label(player, exact=True).check()
    if guest:
        form.get_by_label("A guest's name").fill(guest)
        form.get_by_role("button", name="Seat the guest").click()
    if first:
        form.get_by_label("First dealer").select_option(first)
    form.get_by_role("button", name="Open the table").click()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_treasurer_opens_a_table_pairs_a_tablet_for_its_dealer_and_ends_it(
        new_device, server, axe_source, size, shots):
    tess = treasurer_at_the_desk(new_device, server, CLUBS[size], size)
    page = tess.page
    open_table(page, "Thursday, first table", players=["Tess", "Dan"], guest="Mr Green",
               first="Dan")
    expect(page.get_by_role("status")).to_have_text("Thursday, first table is open.")
    row = page.get_by_test_id("tables").locator("[data-table='Thursday, first table']")
    expect(row).to_contain_text("deal 0, last entry")
    fits(tess, axe_source)

    listed = api(server, tess, "GET", "/club/sessions")["sessions"]
    sid = listed[0]["session_id"]
    view = api(server, tess, "GET", f"/sessions/{sid}")
    assert view["seats"] == ["Tess", "Dan", "Mr Green"] and view["next_dealer"] == "Dan"
    assert (view["rules"]["preset"], view["money_per_unit_minor"], view["currency"]) == (
        "cassell", 10, "GBP")
    guests = {m["name"]: m["guest"] for m in api(server, tess, "GET", "/members")["members"]}
    assert guests["Mr Green"] is True and guests["Dan"] is False

    row.get_by_role("button", name="Tablets and end").click()
    detail = row.get_by_test_id("table-detail")
    expect(detail).to_contain_text("one counter is 0.10 GBP; next to deal: Dan.")
    pair = detail.get_by_test_id("pair-form")
    expect(pair.get_by_label("For the dealer")).to_have_value(view["members"]["Dan"])
    pair.get_by_role("button", name="Show a pairing code").click()
    code = detail.get_by_test_id("pairing-code")
    expect(code).to_have_text(re.compile(r"^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$"))
    fits(tess, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-evening-{size}.png"), full_page=True)
    paired = page.request.post(f"{server.url}/pairing", data={"code": code.inner_text()})
    assert paired.status == 201 and paired.json()["member"] == "Dan"

    offered = [a for a in view["expected"]["actions"] if a["type"] == "SessionEnded"][0]
    ending = detail.get_by_test_id("end-form")
    expect(ending.get_by_role("radio")).to_have_count(len(offered["methods"]))
    ending.get_by_role("radio", name="Divide the pool").check()
    ending.get_by_role("button", name="End Thursday, first table").click()
    expect(page.get_by_role("status")).to_have_text(
        "Thursday, first table has ended: its statement is ready.")
    expect(page.get_by_test_id("tables")).to_have_count(0)
    ended = api(server, tess, "GET", f"/sessions/{sid}")
    assert (ended["status"], ended["ended_method"]) == ("ended", "divide-pool")
    fits(tess, axe_source)


def test_a_table_of_one_is_refused_beside_the_players_and_nothing_is_recorded(
        new_device, server, axe_source):
    tess = treasurer_at_the_desk(new_device, server, "Evening refused", "phone")
    with server.engine.connect() as conn:
        before = conn.scalar(select(func.count()).select_from(sessions))
    open_table(tess.page, "Alone", players=["Tess"])
    refusal = tess.page.get_by_test_id("open-table").locator(
        "fieldset[data-field='players'] > .refusal")
    expect(refusal).to_have_text("players: Length must be between 2 and 16.")
    with server.engine.connect() as conn:
        assert conn.scalar(select(func.count()).select_from(sessions)) == before
    fits(tess, axe_source)


def test_a_table_in_the_middle_of_a_deal_offers_no_end(new_device, server):
    tess = treasurer_at_the_desk(new_device, server, "Evening mid-deal", "laptop")
    open_table(tess.page, "Busy", players=["Tess", "Dan", "Ann"])
    expect(tess.page.get_by_role("status")).to_have_text("Busy is open.")
    sid = api(server, tess, "GET", "/club/sessions")["sessions"][0]["session_id"]
    api(server, tess, "POST", f"/sessions/{sid}/events",
        {"type": "DealStarted", "trump_card": "7H"},  # Cassell's first deal: a hand
        {"If-Match": '"1"', "Idempotency-Key": "mid-deal-start"})
    view = api(server, tess, "GET", f"/sessions/{sid}")
    assert not any(a["type"] == "SessionEnded" for a in view["expected"]["actions"])
    tess.page.reload()
    row = tess.page.get_by_test_id("tables").locator("[data-table='Busy']")
    row.get_by_role("button", name="Tablets and end").click()
    expect(row).to_contain_text("The laws allow no end now")
    expect(row.get_by_test_id("end-form")).to_have_count(0)
