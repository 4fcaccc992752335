"""The auditor's room at the desk in real Chromium on a phone and a laptop: an auditor signed
in with the link the admin gave him verifies the whole club with one verdict, finds the
club's sessions by name and date, verifies one, explains its figures (each the API's),
exports it as a file with a name and sees the ledger say the file is intact; reads the book
log and the corrections. Everything he does is a read: the only POST is the file's check; so
one club, built once, serves both sizes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from ledger.audit import checkpoints
from ledger.domain import OpenSession
from ledger.domain.commands import EndSession, StartDeal
from tests.clubs import own_signing_key

from .desk import DOC_SIZES, DeskClub, desk_club, fits, open_link, signed_in


@pytest.fixture(scope="module")
def signing_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The server signs each end with a key of the module's own, into a log of its own (the
    club below is built once, under it)."""
    with own_signing_key(str(tmp_path_factory.mktemp("audit-key"))) as signer:
        yield signer


@pytest.fixture(scope="module")
def audited(server: Any, signing_key: Any) -> tuple[DeskClub, str]:
    """A club with Friday ended (docs/rules.md §10.1 at 10p: Dan takes the pool of 3; the
    next pool is divided; an entry undone on the way), Saturday open, and a payment booked:
    built once, through the ledger's services, and only read by the auditor's tests. (The
    club, Friday's id.)"""
    club = desk_club(server, "Audit", ("Tess", "Dan", "Ann", "Ode"))
    ledger, as_tess = club.ledger(), club.by("Tess")
    friday = ledger.open_session(OpenSession(
        players=["Tess", "Dan", "Ann"], first_dealer="Tess", name="Friday",
        money_per_unit_minor=10, currency="GBP"), as_tess).body["session_id"]
    ledger.append(friday, [StartDeal(trump_card="7D", face_up={
        "Tess": "5C", "Dan": "9H", "Ann": "KS"})], as_tess)
    ledger.undo(friday, reason="the wrong trump card", request=as_tess)
    ledger.append(friday, [StartDeal(trump_card="7H", face_up={
        "Tess": "5C", "Dan": "9H", "Ann": "KS"})], as_tess)
    ledger.append(friday, [EndSession(method="divide-pool")], as_tess)
    ledger.open_session(OpenSession(players=["Dan", "Ann"], name="Saturday"), as_tess)
    club.books().record_payment(payer="Ann", payee="club", amount_minor=10, currency="GBP",
                                method="cash", request=as_tess)
    return club, friday


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_auditor_verifies_explains_and_exports(new_device, server, axe_source, size,
                                                   shots, signing_key, audited, tmp_path):
    club, friday = audited
    ode = open_link(new_device, server, club.link("Ode", "auditor"), size)
    signed_in(ode, "Ode, auditor")
    page = ode.page
    written: list[str] = []
    page.on("request", lambda r: written.append(f"{r.method} {r.url.split('?')[0]}")
            if r.method != "GET" else None)
    token = page.evaluate("() => localStorage.getItem('lanterloo.desk.token')")

    def api(path: str):
        answer = page.request.get(f"{server.url}{path}",
                                  headers={"Authorization": f"Bearer {token}"})
        assert answer.ok, answer.text()
        return answer.json()

    # the whole club, one verdict
    page.get_by_role("button", name="Verify the whole club").click()
    expect(page.get_by_test_id("club-verdict")).to_have_text(
        "The club verifies: 2 sessions, the book log and the club log each agree with their "
        "logs.")

    # the sessions by name, newest first; today's window finds both
    sessions = page.get_by_test_id("sessions")
    expect(sessions.locator("li")).to_have_count(2)
    expect(sessions.locator("li").first).to_contain_text("Saturday")
    today = datetime.now(UTC).astimezone().date().isoformat()
    window = page.get_by_test_id("sessions-window")
    window.get_by_label("Opened from").fill(today)
    window.get_by_label("Opened to").fill(today)
    window.get_by_role("button", name="Show the sessions").click()
    expect(page.get_by_test_id("sessions-count")).to_have_text(
        "Sessions 1–2 of 2, newest first.")
    # a window that ends before it starts: the ledger's sentence beside the field it names
    window.get_by_label("Opened from").fill("2026-12-31")
    window.get_by_label("Opened to").fill("2026-01-01")
    window.get_by_role("button", name="Show the sessions").click()
    expect(window.locator("[data-field='until'] .refusal")).to_contain_text(
        "until must be after since")
    window.get_by_label("Opened from").fill(today)
    window.get_by_label("Opened to").fill(today)
    window.get_by_label("Name").fill("fri")
    window.get_by_role("button", name="Show the sessions").click()
    expect(page.get_by_test_id("sessions-count")).to_have_text(
        "Sessions 1–1 of 1, newest first.")
    expect(window.locator(".refusal")).to_have_count(0)
    row = sessions.locator("[data-session='Friday']")
    version = api(f"/sessions/{friday}")["version"]
    expect(row).to_contain_text(f"ended, {version} entries; Tess, Dan, Ann")
    row.get_by_role("button", name="Verify Friday").click()
    expect(row.get_by_test_id("verdict")).to_have_text(
        f"Verified: the log of {version} entries and every figure agree.")

    # every figure is the API's
    row.get_by_role("button", name="Explain Friday").click()
    figures = row.get_by_test_id("figures")
    trail = api(f"/sessions/{friday}/explain")
    statement = {p["player"]: p for p in api(f"/sessions/{friday}/statement")["players"]}
    for player in ("Tess", "Dan", "Ann"):
        figure = next(f for f in trail["figures"] if f["account"] == player)
        minor = statement[player]["net_money_minor"]
        sign = "-" if minor < 0 else ""
        expect(figures.locator(f"[data-figure='{player}']")).to_contain_text(
            f"{player}: {figure['net_units']} units ({sign}{abs(minor) // 100}."
            f"{abs(minor) % 100:02d} GBP)")
    figures.get_by_role("button", name="Why Dan").click()
    expect(figures.locator("[data-figure='Dan'] .postings li")).to_have_count(
        len(next(f for f in trail["figures"] if f["account"] == "Dan")["postings"]))

    # the export: a file with a name, the API's own, and the ledger says it is intact
    with page.expect_download() as download:
        row.get_by_role("button", name="Export Friday").click()
    opened = api(f"/sessions/{friday}")
    assert download.value.suggested_filename == \
        f"friday-{api('/audit/sessions')['sessions'][1]['opened_at'][:10]}.lanterloo.json"
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert json.loads(saved.read_text()) == api(f"/sessions/{friday}/export")
    expect(row.get_by_test_id("export-verdict")).to_have_text(
        f"{download.value.suggested_filename} is intact: its {opened['version']} entries, "
        "every hash, the signature by the club's key "
        f"{checkpoints.key_id(signing_key.public_hex)} and every figure hold.")

    # the book log and the corrections, as the API has them
    book = page.get_by_test_id("book")
    (entry,) = api("/book-entries")["entries"]
    expect(book.locator(f"[data-seq='{entry['seq']}']")).to_contain_text(
        f"#{entry['seq']} payment: Ann to the club, 0.10 GBP")
    expect(page.get_by_test_id("corrections")).to_contain_text("the wrong trump card")
    (correction,) = api("/audit/corrections")["corrections"]
    assert correction["reason"] == "the wrong trump card"
    # the correction names its table by name and the day it was opened (the browser's
    # zone is the machine's, UTC here)
    opened_on = datetime.fromisoformat(
        correction["session_opened_at"].replace("Z", "+00:00")).strftime("%a, %-d %b %Y")
    expect(page.get_by_test_id("corrections").get_by_test_id("table-of")).to_have_text(
        f"{correction['session_name']}, opened {opened_on}")
    assert correction["session_name"] == "Friday"
    fits(ode, axe_source)
    if size in DOC_SIZES:
        page.screenshot(path=str(shots / f"desk-auditor-{size}.png"), full_page=True)
    assert set(written) == {f"POST {server.url}/audit/export-check"}, written
