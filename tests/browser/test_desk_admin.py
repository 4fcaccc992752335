"""The admin's room at the desk in real Chromium at the four sizes, the way an admin works:
add a member, give her the treasurer's role with a sign-in link, see her hold access and
since when, revoke it; a name the club has already is refused with the ledger's sentence
beside the name and nothing is added; a treasurer gives member links only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.store.tables import members

from .desk import CLUBS, DOC_SIZES, SIZES, desk_club, fits, open_link, rows, signed_in


def add_member(page, name: str) -> None:
    form = page.get_by_test_id("add-member")
    form.get_by_label("Name").fill(name)
    form.get_by_role("button", name="Add the member").click()


def give_link(page, member: str, role_words: str) -> str:
    form = page.get_by_test_id("give-link")
    form.get_by_label("Who").select_option(member)
    form.get_by_label("Role").select_option(label=role_words)
    form.get_by_role("button", name="Make a sign-in link").click()
    url = page.get_by_test_id("link-url")
    expect(url).to_contain_text("/desk#signin=")
    return url.inner_text()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_admin_adds_a_member_gives_her_a_role_and_takes_it_back(new_device, server,
                                                                    axe_source, size, shots):
    admin = open_link(new_device, server, desk_club(server, CLUBS[size]).admin_link, size)
    signed_in(admin, "Mrs Bell, admin")
    page = admin.page
    add_member(page, "Tess")
    expect(page.get_by_role("status")).to_have_text("Tess is a member of the club.")
    expect(page.get_by_test_id("members").locator("[data-member='Tess']")).to_be_visible()

    # the same name in another case: the ledger's sentence beside the name, nothing added
    before = rows(server, members)
    add_member(page, "TESS")
    refusal = page.get_by_test_id("add-member").locator("[data-field='name'] .refusal")
    expect(refusal).to_contain_text("TESS")
    expect(page.get_by_test_id("add-member").get_by_label("Name")).to_have_attribute(
        "aria-invalid", "true")
    assert rows(server, members) == before
    fits(admin, axe_source)

    link = give_link(page, "Tess", "treasurer: tables, payments and the books")
    expect(page.get_by_test_id("links").locator("[data-status='waiting']")).to_contain_text(
        "Tess as treasurer: waiting to be opened")
    fits(admin, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-admin-{size}.png"), full_page=True)

    tess = open_link(new_device, server, link, size)
    signed_in(tess, "Tess, treasurer")
    expect(tess.page.get_by_role("navigation", name="Rooms")).to_contain_text("The evening")
    fits(tess, axe_source)

    page.reload()
    signed_in(admin, "Mrs Bell, admin")
    held = page.get_by_test_id("access").locator("[data-member='Tess']")
    expect(held).to_contain_text("Tess as treasurer (sign-in link)")
    expect(held).to_contain_text("since ")
    expect(page.get_by_test_id("links").locator("[data-status='used']").first).to_contain_text(
        "Tess as treasurer: used")
    held.get_by_role("button", name="Revoke").click()
    expect(page.get_by_test_id("access").locator("[data-member='Tess']")).to_have_count(0)

    tess.page.reload()
    expect(tess.page.get_by_test_id("signed-out")).to_contain_text(
        "Your access to the desk has ended")


def test_a_treasurer_gives_member_links_only(new_device, server, axe_source):
    admin = open_link(new_device, server, desk_club(server, "Treasurer links").admin_link,
                      "laptop")
    signed_in(admin, "Mrs Bell, admin")
    for name in ("Tess", "Dan"):
        add_member(admin.page, name)
        expect(admin.page.get_by_test_id("members").locator(f"[data-member='{name}']")) \
            .to_be_visible()
    tess = open_link(new_device, server,
                     give_link(admin.page, "Tess", "treasurer: tables, payments and the books"),
                     "phone")
    signed_in(tess, "Tess, treasurer")
    tess.page.get_by_role("link", name="Members' links").click()
    form = tess.page.get_by_test_id("give-link")
    expect(form.get_by_label("Role").locator("option")).to_have_text(
        ["member: his own account only"])
    dans = give_link(tess.page, "Dan", "member: his own account only")
    expect(tess.page.get_by_test_id("links").locator("[data-status='waiting']")) \
        .to_contain_text("Dan as member: waiting to be opened")
    fits(tess, axe_source)

    # Dan opens his link on his phone: his own account's page, the token out of the address
    dan = open_link(new_device, server, dans, "phone")
    expect(dan.page.locator("main.sheet")).to_be_visible()
    assert dan.page.url == f"{server.url}/table/member"
    expect(dan.page.locator("main.sheet")).to_contain_text("Dan")
    expect(dan.page.get_by_test_id("balances")).to_have_text("Nothing on your account yet.")
    assert dan.foreign == []
    dans_token = dan.page.evaluate("() => localStorage.getItem('lanterloo.member-token')")

    # and Tess takes it back
    tess.page.reload()
    tess.page.get_by_role("link", name="Members' links").click()
    used = tess.page.get_by_test_id("links").locator("[data-status='used']")
    expect(used).to_contain_text("Dan as member: used")
    with tess.page.expect_response(lambda r: r.request.method == "DELETE") as revoked:
        used.get_by_role("button", name="Revoke his access").click()
    assert revoked.value.status == 200
    answer = tess.page.request.get(f"{server.url}/club",
                                   headers={"Authorization": f"Bearer {dans_token}"})
    assert answer.status == 401

    # a page that offered more (an older one, say) meets the ledger's refusal beside the role
    form.get_by_label("Role").evaluate(
        "s => s.append(new Option('admin: members and access', 'admin'))")
    form.get_by_label("Who").select_option("Dan")
    form.get_by_label("Role").select_option("admin")
    form.get_by_role("button", name="Make a sign-in link").click()
    expect(form.locator("[data-field='role'] .refusal")).to_have_text(
        "a treasurer gives and takes back member access only: ask the club's admin for any "
        "other role")
    expect(tess.page.get_by_test_id("links").locator("li")).to_have_count(1)  # Dan's only
