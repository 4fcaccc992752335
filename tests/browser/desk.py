"""What the desk's browser tests share (tests/browser/test_desk_*.py, test_whole_evening.py):
the four sizes; a club built through the ledger's own services (the clubs' service, sign-in
links, the ledger, the books), or made by the install command where that is what a test is
about; a person's browser opened on a sign-in link; the desk's own reads; and the checks
every room is held to: nothing off-screen, touch controls at least 44 px, axe-core finding
nothing serious, no request outside the app's origin."""

from __future__ import annotations

import contextlib
import io
import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import expect
from sqlalchemy import func, select

from api.cli.main import main
from ledger.books.service import Books
from ledger.clubs.service import Actor, Clubs
from ledger.clubs.signin import SignIn
from ledger.domain import OpenSession
from ledger.domain.commands import EndSession, StartDeal
from ledger.sessions.service import Ledger
from ledger.writes import WriteRequest

from .tablet import TIMEOUT
from .test_statement_page import serious_violations

LAPTOP = {"width": 1366, "height": 768}
TABLET_PORTRAIT = {"width": 768, "height": 1024}
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = {"laptop": LAPTOP, "tablet-portrait": TABLET_PORTRAIT,
         "tablet-landscape": TABLET_LANDSCAPE, "phone": PHONE}
TOUCH = {"tablet-portrait", "tablet-landscape", "phone"}
# A club's name is unique in the module's database: one per size, as a club would be named.
CLUBS = {"laptop": "Thursday Loo Club", "tablet-portrait": "Friday Loo Club",
         "tablet-landscape": "Saturday Loo Club", "phone": "The Crown Loo Club"}
DOC_SIZES = ("laptop", "phone")  # the screenshots docs/desk.md shows
LINK = re.compile(r"^  (\S+/desk#signin=\w+)$", re.M)
ADMIN = "Mrs Bell"


# -- the club --------------------------------------------------------------------------------

@dataclass
class DeskClub:
    """A club built through the ledger's services: its id, its members' ids by name, and the
    admin's first sign-in link (what `lanterloo club create` prints)."""

    server: Any
    club_id: str
    name: str
    ids: dict[str, str]  # member's name -> member id
    admin_link: str

    def link(self, member: str, role: str) -> str:
        """A sign-in link the admin gives `member` for `role`: the desk's address."""
        made = SignIn(self.server.engine).create_link(self.club_id, member=member, role=role,
                                                      created_by=self.ids[ADMIN])
        return f"{self.server.url}/desk#signin={made['code']}"

    def by(self, member: str) -> WriteRequest:
        """A write made by `member`."""
        return WriteRequest(Actor(member, self.ids[member]))

    def ledger(self) -> Ledger:
        return Ledger(self.server.engine).for_club(self.club_id)

    def books(self) -> Books:
        return Books(self.server.engine, self.club_id)


def desk_club(server: Any, name: str, members: tuple[str, ...] = (), *,
              guests: tuple[str, ...] = ()) -> DeskClub:
    """A club as `lanterloo club create NAME --admin "Mrs Bell"` makes it (its admin, her
    first token and sign-in link), and `members` and `guests` added by the clubs' service."""
    clubs = Clubs(server.engine)
    info, admin, _token = clubs.create_club(name, admin=ADMIN, label="first admin token")
    club_id, admin_id = info["club_id"], admin["member_id"]
    made = SignIn(server.engine).create_link(club_id, member=admin_id, role="admin",
                                             created_by=admin_id, at_command_line=True)
    ids = {ADMIN: admin_id}
    for member in members:
        ids[member] = clubs.add_member(club_id, member)["member_id"]
    for guest in guests:
        ids[guest] = clubs.add_member(club_id, guest, guest=True)["member_id"]
    return DeskClub(server, club_id, info["name"], ids,
                    f"{server.url}/desk#signin={made['code']}")


def create_club(server: Any, name: str, admin: str = ADMIN) -> str:
    """`lanterloo club create` against the server's database: the admin's sign-in link (for
    the tests of what the command prints; desk_club builds a club without it)."""
    import os
    import tempfile

    from ledger.audit import checkpoint_log, checkpoints

    out = io.StringIO()
    # `club create` makes a checkpoint key in the instance folder when none is configured: a
    # folder of its own here, so that this process's other tests sign nothing with it
    before = os.environ.get("LOO_INSTANCE_DIR")
    with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(out):
        os.environ["LOO_INSTANCE_DIR"] = folder
        try:
            status = main(["club", "create", name, "--admin", admin, "--url", server.url,
                           "--database-url", server.engine.url.render_as_string(False)])
        finally:
            if before is None:
                os.environ.pop("LOO_INSTANCE_DIR", None)
            else:
                os.environ["LOO_INSTANCE_DIR"] = before
            checkpoints.forget_configuration()
            checkpoint_log.forget_state()
    assert status == 0, out.getvalue()
    found = LINK.search(out.getvalue())
    assert found, out.getvalue()
    return found.group(1)


def ended_table(club: DeskClub, by: str = "Tess") -> str:
    """docs/rules.md §10.1 at 10p a counter, "Thursday" of Tess, Dan and Ann: Dan takes the
    pool of 3 with the turn-up's trump; the pool of 6 is divided: Tess owes 40p, Ann 10p. The
    table's session id."""
    ledger, request = club.ledger(), club.by(by)
    sid = str(ledger.open_session(OpenSession(
        players=["Tess", "Dan", "Ann"], first_dealer="Tess", name="Thursday",
        money_per_unit_minor=10, currency="GBP"), request).body["session_id"])
    ledger.append(sid, [StartDeal(trump_card="7H", face_up={
        "Tess": "5C", "Dan": "9H", "Ann": "KS"})], request)
    ledger.append(sid, [EndSession(method="divide-pool")], request)
    return sid


def rows(server: Any, table: Any) -> int:
    """The rows of `table` in the server's database."""
    with server.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(table)) or 0)


def gbp(minor: int) -> str:
    return f"{'-' if minor < 0 else ''}{abs(minor) / 100:.2f} GBP"


# -- the person at the desk ------------------------------------------------------------------

@dataclass
class Person:
    """One person's browser at the desk (and the club, where the test built it)."""

    device: Any
    size: str
    foreign: list[str] = field(default_factory=list)
    club: DeskClub | None = None

    @property
    def page(self) -> Any:
        return self.device.page


def open_link(new_device: Any, server: Any, url: str, size: str) -> Person:
    """A fresh browser of `size` opening `url` (a sign-in link, or the desk)."""
    device = new_device(SIZES[size])
    person = Person(device, size)
    device.context.set_default_timeout(TIMEOUT)
    device.page.on("request", lambda r: None if r.url.startswith(server.url)
                   else person.foreign.append(r.url))
    device.page.goto(url)
    return person


def signed_in(person: Person, who: str) -> None:
    expect(person.page.get_by_test_id("who")).to_have_text(who, timeout=TIMEOUT)
    assert person.page.url.split("#")[0].endswith("/desk")
    assert "signin=" not in person.page.url  # the code left the address


def treasurer_at_the_desk(new_device: Any, server: Any, name: str, size: str) -> Person:
    """A club with Tess (treasurer), Dan and Ann; Tess signed in with her link (the club is
    her Person's `club`)."""
    club = desk_club(server, name, ("Tess", "Dan", "Ann"))
    tess = open_link(new_device, server, club.link("Tess", "treasurer"), size)
    tess.club = club
    signed_in(tess, "Tess, treasurer")
    expect(tess.page.get_by_test_id("open-table")).to_be_visible()
    return tess


def drawn(page: Any, room: str | None = None) -> None:
    """The desk has drawn every answer it asked the API for (<html data-requests="0">, kept
    by its api.js), in `room` (its id: "evening", "after", "month", ...) when named; looked
    for at every frame, not at expect's widening intervals."""
    page.wait_for_function(
        """(room) => document.documentElement.dataset.requests === '0'
            && (room === null || document.querySelector(`main[data-room="${room}"]`) !== null)""",
        arg=room, polling="raf", timeout=TIMEOUT)


def api(server: Any, person: Person, method: str, path: str, body: Any = None,
        headers: dict[str, str] | None = None) -> Any:
    """The API's answer to a request made with the token `person`'s desk keeps."""
    token = person.page.evaluate("() => localStorage.getItem('lanterloo.desk.token')")
    sent = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
            **(headers or {})}
    request = urllib.request.Request(f"{server.url}{path}", method=method, headers=sent,
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def refused(server: Any, person: Person, method: str, path: str,
            body: Any) -> tuple[int, Any]:
    """What the API answers a request it refuses: its status and problem."""
    try:
        api(server, person, method, path, body, {"Idempotency-Key": f"refused-{path}"})
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
    raise AssertionError(f"{method} {path} was not refused")


def fits(person: Person, axe_source: str) -> None:
    """Nothing wider than the screen, every visible control 44 px on a touch size, axe-core
    finds nothing serious, no request left the app's origin."""
    page = person.page
    drawn(page)  # the room drawn from what the API answered
    width = SIZES[person.size]["width"]
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width, (person.size, wide)
    if person.size in TOUCH:
        small = page.evaluate("""() => [...document.querySelectorAll(
              'button, a.btn, .nav a, input, select, label.check')]
            .filter(e => e.offsetParent !== null && e.type !== 'radio' && e.type !== 'checkbox')
            .map(e => [e.textContent.trim() || e.name || e.tagName,
                       e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44)
            .map(([t, r]) => `${t} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert small == [], (person.size, small)
        clipped = page.evaluate("""(w) => [...document.querySelectorAll(
              'button, a, input, select, h1, h2, h3, p, li')]
            .filter(e => e.offsetParent !== null)
            .filter(e => { const r = e.getBoundingClientRect(); return r.right > w + 1
                           || r.left < -1; })
            .map(e => e.tagName + ' ' + e.textContent.trim().slice(0, 40))""", width)
        assert clipped == [], (person.size, clipped)
    found = serious_violations(page, axe_source)
    assert found == [], (person.size, found)
    assert person.foreign == []
