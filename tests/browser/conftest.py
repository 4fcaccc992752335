"""Browser tests of the dealer's tablet (api/web.py) in real Chromium, driven by Playwright.

    LOO_TEST_TIER=all .venv/bin/python -m pytest tests/browser

The app is served by werkzeug in a thread on 127.0.0.1 against a SQLite file; each test gets
a club of its own (tests/clubs.py) and a fresh browser profile (--user-data-dir), so no
localStorage, cache or service worker leaks from one test to the next. Chromium is Debian's
(`/usr/bin/chromium`, or LOO_CHROMIUM); never Playwright's download. Without it the tests are
skipped, except under CI (CI=true), where they fail: .ci/run installs it.
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
def server(chromium: str) -> Iterator[Server]:
    folder = tempfile.mkdtemp(prefix="lanterloo-browser-")
    url = f"sqlite:///{folder}/lanterloo.db"
    upgrade(url)
    engine = make_engine(url)
    app = create_app({"ENGINE": engine, "TESTING": True})
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
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


@dataclass
class Device:
    """One tablet: a fresh browser profile and its page, counting the taps that log play."""

    context: Any
    page: Any
    base: str
    taps: int = 0
    console: list[str] = field(default_factory=list)

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.taps += 1


@pytest.fixture
def new_device(playwright_driver: Any, chromium: str, server: Server
               ) -> Iterator[Any]:
    """new_device(viewport=PORTRAIT, dark=False) -> a Device in a fresh profile."""
    made: list[tuple[Any, str]] = []

    def make(viewport: dict[str, int] | None = None, *, dark: bool = False) -> Device:
        profile = tempfile.mkdtemp(prefix="lanterloo-chromium-")
        context = playwright_driver.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
            viewport=viewport or PORTRAIT, has_touch=True, device_scale_factor=1,
            color_scheme="dark" if dark else "light", service_workers="allow")
        made.append((context, profile))
        page = context.pages[0] if context.pages else context.new_page()
        device = Device(context, page, server.url)
        page.on("console", lambda m: device.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: device.console.append(f"pageerror: {e}"))
        return device

    yield make
    for context, profile in made:
        context.close()
        shutil.rmtree(profile, ignore_errors=True)


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
