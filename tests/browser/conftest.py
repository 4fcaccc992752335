"""Browser tests of the dealer's tablet (api/pages/tablet.py) in real Chromium, driven by
Playwright.

    LOO_TEST_TIER=all .venv/bin/python -m pytest tests/browser

One Chromium for the whole run; each test's tablets are fresh browser contexts in it (their
own storage, cache and service workers, so nothing leaks from one tablet to the next), and a
module may keep one context for all its tests where they only read (the layout matrix). The
app is served by werkzeug in a thread on 127.0.0.1 against a SQLite file, one server per
module; each test gets a club of its own (tests/clubs.py; the desk's, tests/browser/desk.py),
and a module's tests that only read may share one built once (the auditor's). Chromium is
Debian's (`/usr/bin/chromium`, or LOO_CHROMIUM); never Playwright's download. Without it the
tests are skipped, except under CI (CI=true), where they fail: .ci/run installs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from werkzeug.serving import WSGIRequestHandler, make_server

from api import create_app
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from tests.clubs import Club, make_club

CHROMIUM_ENV = "LOO_CHROMIUM"
CHROMIUM_DEFAULT = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PORTRAIT = {"width": 800, "height": 1280}
LANDSCAPE = {"width": 1280, "height": 800}


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in item.nodeid:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium() -> str:
    path = os.environ.get(CHROMIUM_ENV, CHROMIUM_DEFAULT)
    if not Path(path).exists():
        reason = (f"Chromium is not at {path} (apt-get install chromium, or set "
                  f"{CHROMIUM_ENV})")
        if _in_ci():
            pytest.fail(f"CI is set and {reason}", pytrace=False)
        pytest.skip(reason)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if _in_ci():
            pytest.fail("CI is set and playwright is not installed (pip install -e '.[test]')",
                        pytrace=False)
        pytest.skip("playwright is not installed")
    return path


@dataclass
class Server:
    url: str
    engine: Engine
    thread: threading.Thread
    httpd: Any

    def club(self) -> Club:
        return make_club(self.engine)


class _Quiet(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:
        """No line per request: the tablets poll."""


@pytest.fixture(scope="session")
def migrated(chromium: str) -> Iterator[Path]:
    """A SQLite file migrated to head once for the run; each module's server gets a copy."""
    folder = tempfile.mkdtemp(prefix="lanterloo-browser-template-")
    path = Path(folder) / "template.db"
    upgrade(f"sqlite:///{path}")
    try:
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def server(migrated: Path) -> Iterator[Server]:
    folder = tempfile.mkdtemp(prefix="lanterloo-browser-")
    shutil.copyfile(migrated, f"{folder}/lanterloo.db")
    engine = make_engine(f"sqlite:///{folder}/lanterloo.db")
    app = create_app({"ENGINE": engine, "TESTING": True})
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_Quiet)
    # shutdown() waits for the loop to look again: a twentieth of a second, not the default half
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{httpd.server_port}", engine, thread, httpd)
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        engine.dispose()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def playwright_driver(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    driver = sync_playwright().start()
    try:
        yield driver
    finally:
        driver.stop()


@pytest.fixture(scope="session")
def browser(playwright_driver: Any, chromium: str) -> Iterator[Any]:
    """The one Chromium of the run."""
    launched = playwright_driver.chromium.launch(executable_path=chromium, headless=True,
                                                 args=CHROMIUM_ARGS)
    try:
        yield launched
    finally:
        launched.close()


@dataclass
class Device:
    """One tablet: a browser context of its own and its page, counting the taps that log
    play."""

    context: Any
    page: Any
    base: str
    taps: int = 0
    console: list[str] = field(default_factory=list)

    def tap(self, locator: Any) -> None:
        """A touch at the centre of the control, as a finger does, without Playwright's wait
        for it to hold still over two frames (test_layout.py proves nothing moves: the screen
        may be drawn again meanwhile, the control is where it was)."""
        box = locator.bounding_box()
        if box is None:
            locator.tap()
        else:
            self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1


def _device(browser: Any, base: str, viewport: dict[str, int] | None, dark: bool) -> Device:
    context = browser.new_context(
        viewport=viewport or PORTRAIT, has_touch=True, device_scale_factor=1,
        color_scheme="dark" if dark else "light", service_workers="allow")
    page = context.new_page()
    device = Device(context, page, base)
    page.on("console", lambda m: device.console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: device.console.append(f"pageerror: {e}"))
    return device


@pytest.fixture
def new_device(browser: Any, server: Server) -> Iterator[Any]:
    """new_device(viewport=PORTRAIT, dark=False) -> a Device in a fresh context."""
    made: list[Device] = []

    def make(viewport: dict[str, int] | None = None, *, dark: bool = False) -> Device:
        device = _device(browser, server.url, viewport, dark)
        made.append(device)
        return device

    yield make
    for device in made:
        device.context.close()


@pytest.fixture(scope="module")
def module_device(browser: Any, server: Server) -> Iterator[Device]:
    """One tablet kept for every test of a module (tests that only read may share it)."""
    device = _device(browser, server.url, PORTRAIT, False)
    try:
        yield device
    finally:
        device.context.close()


HERE = Path(__file__).parent
AXE = HERE / "vendor" / "axe.min.js"
DOCS = HERE.parent.parent / "docs" / "screenshots"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's source, vendored by vendor_axe.sh (pinned, checked)."""
    if not AXE.exists():
        try:
            subprocess.run([str(HERE / "vendor_axe.sh")], check=True, timeout=300)
        except (OSError, subprocess.SubprocessError) as error:
            if _in_ci():
                pytest.fail(f"CI is set and axe-core could not be vendored: {error}")
            pytest.skip(f"axe-core could not be vendored: {error}")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where screenshots go: docs/screenshots/ with LOO_SCREENSHOTS=1, else a temporary
    folder."""
    folder = DOCS if os.environ.get("LOO_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder
