"""What the desk's browser tests share (tests/browser/test_desk_*.py): the four sizes, a club
made by the install command, a person's browser opened on a sign-in link, and the checks every
room is held to: nothing off-screen, touch controls at least 44 px, axe-core finding nothing
serious, no request outside the app's origin."""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import expect

from api.cli.main import main

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


@dataclass
class Person:
    """One person's browser at the desk."""

    device: Any
    size: str
    foreign: list[str] = field(default_factory=list)

    @property
    def page(self) -> Any:
        return self.device.page


def create_club(server: Any, name: str, admin: str = "Mrs Bell") -> str:
    """`lanterloo club create` against the server's database: the admin's sign-in link."""
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


def fits(person: Person, axe_source: str) -> None:
    """Nothing wider than the screen, every visible control 44 px on a touch size, axe-core
    finds nothing serious, no request left the app's origin."""
    page = person.page
    page.wait_for_load_state("networkidle")  # the room drawn from what the API answered
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
