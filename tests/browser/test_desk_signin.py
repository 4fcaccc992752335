"""Signing in at the desk (api/pages/desk.py, docs/desk.md) in real Chromium at the four
sizes: the club made by `lanterloo club create`, whose printed link signs the admin in; the
code leaves the address at once and never reaches a server's URL; a used link says so and
what to do, and signs nobody in; signing out, and a revoked access, say what to do next; a
dealer's link opens the tablet signed in as him."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from ledger.clubs.signin import SignIn
from ledger.store.tables import pairing_codes, tokens

from .desk import (
    ADMIN,
    CLUBS,
    SIZES,
    create_club,
    desk_club,
    drawn,
    fits,
    open_link,
    rows,
    signed_in,
)
from .tablet import TIMEOUT


@pytest.mark.parametrize("size", list(SIZES))
def test_the_link_club_create_prints_signs_the_admin_in_once(new_device, server, axe_source,
                                                             size):
    link = create_club(server, CLUBS[size])
    seen: list[str] = []
    admin = open_link(new_device, server, link, size)
    admin.page.on("request", lambda r: seen.append(r.url))
    signed_in(admin, "Mrs Bell, admin")
    expect(admin.page.get_by_role("navigation", name="Rooms")).to_contain_text(
        "The admin's room")
    expect(admin.page.get_by_test_id("members")).to_contain_text("Mrs Bell")
    assert not any("signin=" in url for url in seen)  # the code is never in a request's URL
    fits(admin, axe_source)

    before = rows(server, tokens)
    again = open_link(new_device, server, link, size)
    refused = again.page.get_by_test_id("signin-refused")
    expect(refused).to_contain_text("this sign-in link was used already, has expired or was "
                                    "withdrawn: ask your club's admin or treasurer for a new one")
    assert again.page.evaluate("() => localStorage.getItem('lanterloo.desk.token')") is None
    assert rows(server, tokens) == before
    fits(again, axe_source)


def test_signing_out_ends_the_access_and_says_how_to_come_back(new_device, server,
                                                                axe_source):
    admin = open_link(new_device, server, desk_club(server, "Signout").admin_link, "phone")
    signed_in(admin, "Mrs Bell, admin")
    token = admin.page.evaluate("() => localStorage.getItem('lanterloo.desk.token')")
    admin.page.get_by_role("button", name="Sign out").click()
    out = admin.page.get_by_test_id("signed-out")
    expect(out).to_contain_text("You are signed out")
    expect(out).to_contain_text("open a new sign-in link")
    assert admin.page.evaluate("() => localStorage.getItem('lanterloo.desk.token')") is None
    answer = admin.page.request.get(f"{server.url}/club",
                                    headers={"Authorization": f"Bearer {token}"})
    assert answer.status == 401
    admin.page.reload()
    expect(admin.page.get_by_test_id("signed-out")).to_contain_text("Sign in with the link")
    fits(admin, axe_source)


def test_a_revoked_access_says_to_ask_for_a_new_link(new_device, server):
    admin = open_link(new_device, server, desk_club(server, "Revoked").admin_link, "laptop")
    signed_in(admin, "Mrs Bell, admin")
    page: Any = admin.page
    # the room has read all it asked for: the revocation is met by the next visit, not by a
    # request of this one still in flight (which would sign the page out before the reload)
    drawn(page, "admin")
    token = page.evaluate("() => localStorage.getItem('lanterloo.desk.token')")
    page.request.post(f"{server.url}/signout", headers={"Authorization": f"Bearer {token}"})
    page.reload()
    out = page.get_by_test_id("signed-out")
    expect(out).to_contain_text("Your access to the desk has ended", timeout=TIMEOUT)
    expect(out).to_contain_text("Ask your club's admin")


def test_a_dealers_link_opens_the_tablet_signed_in_as_him(new_device, server):
    club = desk_club(server, "Dealer link", ("Dan",))
    dan = open_link(new_device, server, club.link("Dan", "dealer"), "tablet-landscape")
    dan.page.wait_for_url(f"{server.url}/table")
    kept = dan.page.evaluate("() => JSON.parse(localStorage.getItem('lanterloo.token'))")
    answer = dan.page.request.get(f"{server.url}/club",
                                  headers={"Authorization": f"Bearer {kept}"})
    assert (answer.json()["member"], answer.json()["role"]) == ("Dan", "dealer")
    assert dan.page.evaluate("() => localStorage.getItem('lanterloo.desk.token')") is None
    assert dan.foreign == []
    # the tablet's service worker has cached its shell: no request of it is left for the
    # server to answer a closed browser (werkzeug then leaves the file it was sending open,
    # and its warning fails whichever test is running when it is collected)
    dan.page.wait_for_function("async () => Boolean(await navigator.serviceWorker.ready)",
                               timeout=TIMEOUT)


def test_an_expired_link_says_to_ask_for_a_new_one(new_device, server):
    club = desk_club(server, "Expired link")
    made = SignIn(server.engine).create_link(club.club_id, member=ADMIN, role="admin",
                                             created_by=club.ids[ADMIN])
    with server.engine.begin() as conn:
        conn.execute(update(pairing_codes).where(pairing_codes.c.id == made["link_id"])
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    late = open_link(new_device, server, f"{server.url}/desk#signin={made['code']}", "phone")
    expect(late.page.get_by_test_id("signin-refused")).to_contain_text(
        "has expired or was withdrawn: ask your club's admin or treasurer for a new one")
    assert "signin=" not in late.page.url
