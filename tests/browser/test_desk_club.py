"""The admin's room's club sections in real Chromium on a laptop and a phone: a member
renamed, a guest made a member, a member retired (and one the ledger will not retire while
he sits at an open table: its sentence beside the button, nothing recorded), the club's
currencies set (a currency listed twice refused beside the field), and the checkpoint key's
status with the public key to copy. Every figure shown is the API's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.audit import checkpoints
from ledger.clubs.service import Clubs
from ledger.domain import OpenSession
from ledger.store.tables import book_entries, club_log

from .desk import DOC_SIZES, desk_club, fits, open_link, rows, signed_in


def member_row(page, name: str):
    return page.get_by_test_id("members").locator(f"[data-member='{name}']")


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_admin_renames_admits_and_retires_members_and_sets_the_currencies(
        new_device, server, axe_source, size, shots, signing_key):
    made = desk_club(server, f"Club room {size}", ("Tes", "Ode"), guests=("Dee",))
    clubs, club, tess = Clubs(server.engine), made.club_id, made.ids["Tes"]
    made.ledger().open_session(OpenSession(players=["Ode", "Tes"], name="Friday"),
                               made.by("Ode"))
    admin = open_link(new_device, server, made.admin_link, size)
    signed_in(admin, "Mrs Bell, admin")
    page = admin.page

    # a new name
    member_row(page, "Tes").get_by_role("button", name="Change Tes").click()
    change = page.get_by_test_id("member-change")
    change.get_by_label("New name").fill("Tess")
    change.get_by_role("button", name="Rename Tes").click()
    expect(page.get_by_role("status")).to_have_text("Tes is now Tess.")
    expect(member_row(page, "Tess")).to_be_visible()
    assert clubs.member(club, tess)["name"] == "Tess"

    # a guest made a member
    expect(member_row(page, "Dee")).to_contain_text("Dee (guest)")
    member_row(page, "Dee").get_by_role("button", name="Change Dee").click()
    page.get_by_test_id("member-change").get_by_role("button",
                                                     name="Make Dee a member").click()
    expect(page.get_by_role("status")).to_have_text("Dee is a member of the club.")
    expect(member_row(page, "Dee")).not_to_contain_text("guest")

    # Ode sits at the open table: the ledger's sentence beside the button, nothing recorded
    logged = rows(server, club_log)
    member_row(page, "Ode").get_by_role("button", name="Change Ode").click()
    retire = page.get_by_test_id("member-change").get_by_test_id("retire")
    retire.get_by_role("button", name="Retire Ode").click()
    expect(retire.locator("[data-field='member_id'] .refusal")).to_have_text(
        "Ode holds a seat at the open table 'Friday': end it, or let him withdraw, before "
        "he retires")
    assert rows(server, club_log) == logged
    fits(admin, axe_source)

    # Dee retires: listed apart, with when
    member_row(page, "Dee").get_by_role("button", name="Change Dee").click()
    page.get_by_test_id("member-change").get_by_role("button", name="Retire Dee").click()
    expect(page.get_by_role("status")).to_have_text("Dee has retired.")
    expect(member_row(page, "Dee")).to_have_count(0)
    expect(page.get_by_test_id("retired").locator("[data-member='Dee']")).to_contain_text(
        "retired ")
    assert [m["name"] for m in clubs.members(club, retired=True) if m["retired_at"]] == ["Dee"]
    assert "Dee" not in {m["name"] for m in clubs.members(club)}
    assert "Dee" not in page.get_by_test_id("give-link").get_by_label("Who").inner_text()

    # the currencies: one listed twice is refused beside the field, nothing recorded
    form = page.get_by_test_id("currencies")
    expect(page.get_by_test_id("currencies-now")).to_have_text("Books kept in GBP.")
    entries = rows(server, book_entries)
    form.get_by_label("Also accepted").fill("EUR, GBP")
    form.get_by_role("button", name="Keep these currencies").click()
    expect(form.locator("[data-field='accepted'] .refusal")).to_have_text(
        "accepted lists each other currency once, not the club's own")
    assert rows(server, book_entries) == entries
    form.get_by_label("Also accepted").fill("eur")
    form.get_by_role("button", name="Keep these currencies").click()
    expect(page.get_by_test_id("currencies-now")).to_have_text(
        "Books kept in GBP; payments also in EUR.")
    assert rows(server, book_entries) == entries + 1

    # the checkpoint key: signed, its public key to copy, as the API says
    expect(page.get_by_test_id("key-status")).to_have_text(
        f"Heads are signed: every table's end and every export, with key "
        f"{checkpoints.key_id(signing_key.public_hex)}.")
    expect(page.get_by_test_id("public-key")).to_have_text(signing_key.public_hex)
    fits(admin, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-club-{size}.png"), full_page=True)
