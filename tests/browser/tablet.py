"""Driving the tablet's screen like a dealer: each helper taps what a dealer taps, counted by
the Device, and waits for the screen to offer the next step."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from ledger.clubs import Actor
from ledger.domain import OpenSession
from ledger.service import Ledger
from tests.clubs import Club

from .conftest import Device, Server

PLAYERS = ["A", "B", "C", "D", "E"]
# docs/rules.md §10.1: A deals the turn-up single; D's QH beats the 7H.
SINGLE = ("7H", {"B": "9H", "C": "KS", "D": "QH", "E": "2H", "A": "5C"})
TIMEOUT = 10_000


def open_session(server: Server, club: Club, *, players: list[str] | None = None,
                 preset: str = "baxter-wray", name: str = "Thursday",
                 rules: dict[str, Any] | None = None) -> str:
    players = players or PLAYERS
    ledger = Ledger(server.engine).for_club(club.club_id)
    opened = ledger.open_session(
        OpenSession(players=players, preset=preset, first_dealer=players[0], name=name,
                    rules=rules or {}),
        actor=Actor("treasurer", club.members["treasurer"]), guests=players)
    return str(opened["session_id"])


def ledger_of(server: Server, club: Club) -> Ledger:
    return Ledger(server.engine).for_club(club.club_id)


def sign_in(device: Device, token: str, session_id: str, *, path: str = "/table") -> None:
    page = device.page
    page.goto(f"{device.base}{path}#s={session_id}")
    page.locator("#token").fill(token)
    page.get_by_test_id("sign-in").click()
    expect(page.locator("h2.prompt")).to_be_visible(timeout=TIMEOUT)


def prompt(device: Device) -> Any:
    return device.page.locator("h2.prompt")


def wait_saved(device: Device) -> None:
    expect(device.page.get_by_test_id("sync")).to_have_text("All saved", timeout=TIMEOUT)


def pick(device: Device, card: str) -> None:
    device.tap(device.page.locator(f'.picker button[data-card="{card}"]'))


def turn_up_single(device: Device, dealer: str, trump: str, face_up: dict[str, str]) -> None:
    expect(prompt(device)).to_contain_text(f"{dealer} deals the turn-up single", timeout=TIMEOUT)
    pick(device, trump)
    for _player, card in face_up.items():
        pick(device, card)


def deal(device: Device, dealer: str, trump: str) -> None:
    expect(prompt(device)).to_have_text(f"{dealer} deals", timeout=TIMEOUT)
    pick(device, trump)


def declare(device: Device, *pairs: tuple[str, str]) -> None:
    for player, choice in pairs:
        expect(prompt(device)).to_have_text(f"{player} declares", timeout=TIMEOUT)
        device.tap(device.page.locator(f'button[data-declaration="{choice}"]'))


def choose_mode(device: Device, mode: str) -> None:
    name = "Quick: tap the winner" if mode == "quick" else "Card by card"
    button = device.page.get_by_role("button", name=name)
    expect(button).to_be_visible(timeout=TIMEOUT)
    if button.get_attribute("aria-pressed") != "true":
        device.tap(button)


def play(device: Device, *pairs: tuple[str, str]) -> None:
    for player, card in pairs:
        expect(prompt(device)).to_contain_text(f"{player} plays", timeout=TIMEOUT)
        pick(device, card)


def tricks(device: Device, *winners: str) -> None:
    for number, winner in enumerate(winners, start=1):
        del number
        expect(prompt(device)).to_contain_text("who won it?", timeout=TIMEOUT)
        device.tap(device.page.locator(f'button[data-winner="{winner}"]'))


# The limits: a five-player deal in at most 12 taps in quick mode, 25 card by card,
# the turn-up not counted.
QUICK_LIMIT, CARDS_LIMIT = 12, 25


def start(new_device: Any, server: Server, **kwargs: Any) -> tuple[Club, str, Device]:
    """A session of a new club, a dealer's tablet signed in to it, the turn-up single logged;
    the taps counted from here."""
    club = server.club()
    sid = open_session(server, club, **kwargs)
    device = new_device()
    sign_in(device, club.tokens["dealer"], sid)
    turn_up_single(device, "A", *SINGLE)
    wait_saved(device)
    device.taps = 0  # the turn-up is not counted
    return club, sid, device
