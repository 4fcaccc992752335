"""Driving the tablet's screen like a dealer: each helper taps what a dealer taps, counted by
the Device, and waits for the screen to offer the next step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from ledger.clubs.service import Actor
from ledger.domain import OpenSession
from ledger.sessions.service import Ledger
from ledger.writes import WriteRequest
from tests.clubs import Club

from .conftest import Device, Server

PLAYERS = ["A", "B", "C", "D", "E"]
# docs/rules.md §10.1: A deals the turn-up single; D's QH beats the 7H.
SINGLE = ("7H", {"B": "9H", "C": "KS", "D": "QH", "E": "2H", "A": "5C"})
TIMEOUT = 10_000


def open_session(server: Server, club: Club, *, players: list[str] | None = None,
                 preset: str = "baxter-wray", name: str = "Thursday",
                 rules: dict[str, Any] | None = None, currency: str | None = None,
                 money_per_unit_minor: int | None = None) -> str:
    players = players or PLAYERS
    ledger = Ledger(server.engine).for_club(club.club_id)
    opened = ledger.open_session(
        OpenSession(players=players, preset=preset, first_dealer=players[0], name=name,
                    rules=rules or {}, currency=currency,
                    money_per_unit_minor=money_per_unit_minor),
        WriteRequest(Actor("treasurer", club.members["treasurer"])), guests=players)
    return str(opened.body["session_id"])


def ledger_of(server: Server, club: Club) -> Ledger:
    return Ledger(server.engine).for_club(club.club_id)


def sign_in(device: Device, token: str, session_id: str, *, path: str = "/table") -> None:
    """Sign in with a club's dealer token (the pairing code has tests of its own)."""
    page = device.page
    page.goto(f"{device.base}{path}#s={session_id}")
    page.get_by_text("Or use a dealer token").click()
    page.locator("#token").fill(token)
    page.get_by_test_id("sign-in").click()
    expect(prompt(device)).to_be_visible(timeout=TIMEOUT)


def prompt(device: Device) -> Any:
    return device.page.get_by_test_id("prompt")


def wait_saved(device: Device) -> None:
    """Until the badge says "All saved" (checked at every frame, not at expect's backoff)."""
    device.page.wait_for_function(
        "() => { const b = document.querySelector('[data-testid=sync]');"
        " return b && b.textContent === 'All saved'; }", polling="raf", timeout=TIMEOUT)


def pick(device: Device, card: str) -> None:
    device.tap(device.page.locator(f'[data-testid=board] button[data-card="{card}"]'))


def turn_up_single(device: Device, dealer: str, trump: str, face_up: dict[str, str]) -> None:
    expect(prompt(device)).to_contain_text(f"{dealer} deals the turn-up single", timeout=TIMEOUT)
    pick(device, trump)
    for _player, card in face_up.items():
        pick(device, card)


def deal(device: Device, dealer: str, trump: str) -> None:
    expect(prompt(device)).to_have_text(f"{dealer} deals: tap the card turned up",
                                        timeout=TIMEOUT)
    pick(device, trump)


def declare(device: Device, *pairs: tuple[str, str]) -> None:
    for player, choice in pairs:
        expect(prompt(device)).to_have_text(f"{player} declares", timeout=TIMEOUT)
        device.tap(device.page.locator(f'button[data-declaration="{choice}"]'))


def everyone_plays(device: Device) -> None:
    device.tap(device.page.get_by_test_id("everyone-plays"))


def choose_mode(device: Device, mode: str) -> None:
    button = device.page.get_by_test_id("mode-quick" if mode == "quick" else "mode-cards")
    expect(button).to_be_enabled(timeout=TIMEOUT)
    if button.get_attribute("aria-pressed") != "true":
        device.tap(button)


def play(device: Device, *pairs: tuple[str, str]) -> None:
    for player, card in pairs:
        expect(prompt(device)).to_contain_text(f"{player} plays", timeout=TIMEOUT)
        pick(device, card)


def tricks(device: Device, *winners: str) -> None:
    for winner in winners:
        expect(prompt(device)).to_contain_text("who won it?", timeout=TIMEOUT)
        device.tap(device.page.locator(f'button[data-winner="{winner}"]'))


# The limits for a five-player deal, the turn-up not counted: quick mode 9 taps (trump,
# five declarations, three winners), card by card 22 (and the switch to it, fifteen cards),
# and a quick deal where all play, with "Everyone else plays", 6.
QUICK_LIMIT, CARDS_LIMIT, SHORTCUT_LIMIT = 9, 22, 6


def start(new_device: Any, server: Server, **kwargs: Any) -> tuple[Club, str, Device]:
    """A session of a new club, a dealer's tablet signed in to it, the turn-up single logged;
    the taps counted from here."""
    club = server.club()
    sid = open_session(server, club, **kwargs)
    device = new_device(kwargs.pop("viewport", None) if "viewport" in kwargs else None)
    sign_in(device, club.tokens["dealer"], sid)
    turn_up_single(device, "A", *SINGLE)
    wait_saved(device)
    device.taps = 0  # the turn-up is not counted
    return club, sid, device


# ---------------------------------------------------------------- the layout, measured

# Every size of tablet the club may bring, both ways up, and a phone held sideways.
VIEWPORTS = [
    {"width": 600, "height": 960}, {"width": 960, "height": 600},
    {"width": 768, "height": 1024}, {"width": 1024, "height": 768},
    {"width": 1024, "height": 600}, {"width": 800, "height": 1280},
    {"width": 1280, "height": 800}, {"width": 1366, "height": 1024},
    {"width": 844, "height": 390},
]
MIN_TARGET = 44

# What the dealer can tap now (outside the side column's reading matter), with a key that
# names the same control from one screen to the next, and what is wrong with each: off the
# screen, smaller than 44 px, or covered (not the element at its own centre).
_TAPPABLE = """() => {
  const keys = ['card', 'declaration', 'winner', 'offender', 'offence', 'exchange', 'flusher',
    'count', 'call', 'pamHolder', 'replay', 'session', 'testid'];
  const keyOf = (el) => {
    for (const k of keys) if (el.dataset[k] !== undefined) return k + ':' + el.dataset[k];
    return 'text:' + el.textContent.trim().slice(0, 40);
  };
  const W = window.innerWidth, H = window.innerHeight;
  const out = [];
  for (const el of document.querySelectorAll('button, a.btn, input, textarea, summary')) {
    if (el.disabled || el.closest('[inert]') || el.closest('.side')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    const problems = [];
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      problems.push('off screen');
    } else {
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(el === hit || el.contains(hit))) {
        problems.push('covered by ' + (hit ? hit.tagName + '.' + hit.className : 'nothing'));
      }
    }
    if (r.width < MIN - 0.5 || r.height < MIN - 0.5) {
      problems.push('small ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
    out.push({key: keyOf(el), box: [r.left, r.top, r.width, r.height], problems});
  }
  const cards = Array.from(document.querySelectorAll('[data-testid=picker] button[data-card]'));
  const offCards = cards.filter((c) => { const r = c.getBoundingClientRect();
    return r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5; })
    .map((c) => c.dataset.card);
  return {controls: out, cards: cards.length, offCards,
          scrolls: document.scrollingElement.scrollHeight > H + 1
            || document.scrollingElement.scrollWidth > W + 1};
}""".replace("MIN", str(MIN_TARGET))


def tappable(device: Device) -> dict[str, Any]:
    return device.page.evaluate(_TAPPABLE)


def layout_problems(device: Device, where: str, *, cards: int | None = None) -> list[str]:
    """What is wrong with the screen as it stands: a control off the screen, covered or small,
    a card of the picker off the screen, a page that scrolls, or not all `cards` shown."""
    found = tappable(device)
    size = device.page.viewport_size
    at = f"{size['width']}x{size['height']} {where}"
    out = [f"{at}: {c['key']}: {', '.join(c['problems'])}" for c in found["controls"]
           if c["problems"]]
    out += [f"{at}: card {c} off screen" for c in found["offCards"]]
    if found["scrolls"]:
        out.append(f"{at}: the page scrolls")
    if cards is not None and found["cards"] != cards:
        out.append(f"{at}: {found['cards']} cards on the picker, not {cards}")
    return out


def boxes(device: Device) -> dict[str, tuple[float, ...]]:
    return {c["key"]: tuple(round(v, 1) for v in c["box"]) for c in tappable(device)["controls"]}


def moved(before: dict[str, tuple[float, ...]], after: dict[str, tuple[float, ...]]) -> list[str]:
    """The controls on both screens whose box is not where it was."""
    return [f"{k} {before[k]} -> {after[k]}" for k in before.keys() & after.keys()
            if any(abs(a - b) > 0.5 for a, b in zip(before[k], after[k], strict=True))]


class Steady:
    """Taps as a dealer does, where the control is on the screen (the centre of its box, with
    the touchscreen), checking that nothing the dealer can tap has moved between two taps:
    the boxes right before each tap against those right before the one before (what the
    finger meets), whatever the screen did in between (the tap's own answer on the device,
    then the ledger's)."""

    def __init__(self, device: Device):
        self.device = device
        self.last = boxes(device)
        self.moves: list[str] = []
        self.taps = 0

    def tap(self, key: str) -> None:
        """Tap the control named `key` ("card:3C", "declaration:play", "testid:undo"...)."""
        now = boxes(self.device)
        self.moves += [f"before {key}: {m}" for m in moved(self.last, now)]
        self.last = now
        assert key in now, f"{key} is not on the screen to tap: {sorted(now)}"
        left, top, width, height = now[key]
        self.device.page.touchscreen.tap(left + width / 2, top + height / 2)
        self.device.taps += 1
        self.taps += 1

    def settle(self) -> None:
        """Once the ledger has answered: compare again."""
        wait_saved(self.device)
        now = boxes(self.device)
        self.moves += [f"once saved: {m}" for m in moved(self.last, now)]
        self.last = now


# ---------------------------------------------------------------- screens, checked

# The two sizes of the screenshots: a small tablet upright, a tablet held sideways.
SIZES = {"portrait": {"width": 600, "height": 960}, "landscape": {"width": 1024, "height": 768}}


def check(device: Device, axe_source: str, name: str, shots: Path, found: list[str], *,
          layout: bool = True) -> None:
    """Add to `found` what axe-core finds serious or critical on the screen as it stands, and
    (with `layout`) its layout problems; save its screenshot as `name`.png in `shots`."""
    page = device.page
    page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")  # rendered
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source)  # through the DevTools protocol: the page's CSP stays on
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
          .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '));
    }""")
    found.extend(f"{name}: {v}" for v in result)
    if layout:
        found.extend(layout_problems(device, name))
    page.screenshot(path=str(shots / f"{name}.png"))
