"""The auditor's room at the desk in real Chromium on a phone and a laptop: an auditor signed
in with the link the admin gave him sees the open tables by name and verifies one, with a
clear verdict; he is offered nothing to write."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.clubs.service import Actor, Clubs
from ledger.clubs.signin import SignIn
from ledger.domain import OpenSession
from ledger.sessions.service import Ledger
from ledger.writes import WriteRequest

from .desk import create_club, fits, open_link, signed_in


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_auditor_verifies_an_open_table(new_device, server, axe_source, size):
    name = f"Audit {size}"
    create_club(server, name)
    clubs = Clubs(server.engine)
    club = clubs.club(name)["club_id"]
    admin = clubs.member(club, "Mrs Bell")["member_id"]
    tess = clubs.add_member(club, "Tess")["member_id"]
    clubs.add_member(club, "Ode")
    Ledger(server.engine).for_club(club).open_session(
        OpenSession(players=["Tess", "Ode"], name="Friday"),
        WriteRequest(Actor("Tess", tess)))
    link = SignIn(server.engine).create_link(club, member="Ode", role="auditor",
                                             created_by=admin)
    ode = open_link(new_device, server, f"{server.url}/desk#signin={link['code']}", size)
    signed_in(ode, "Ode, auditor")
    row = ode.page.get_by_test_id("tables").locator("[data-table='Friday']")
    row.get_by_role("button", name="Verify Friday").click()
    expect(row).to_contain_text("Verified: the log of 1 entry and every figure agree.")
    expect(ode.page.locator("main form")).to_have_count(0)
    fits(ode, axe_source)
