"""deploy/nginx.conf for real, in front of gunicorn (deploy/gunicorn.conf.py): Debian's nginx
runs a copy of the file with only the addresses and the log's path changed, and shows that
slow clients wait in nginx, not in the app, and are cut at the configured times; that an
oversize body is a 413 and a flood a 429, each as problem+json.

Skipped (with the reason) where nginx is not installed (`make proxy` installs it); under
CI=true it fails instead.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.cli import exposure_warning
from tests.support.databases import Databases

from .harness import EXERCISED, ROOT, Server, free_port, http

NGINX = os.environ.get("LOO_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
CONFIG = ROOT / "deploy" / "nginx.conf"
HEADER_TIMEOUT_S = 10.0  # client_header_timeout in deploy/nginx.conf
BODY_TIMEOUT_S = 10.0  # client_body_timeout
DRIPPERS = 8  # slow clients at once, as in the attack this guards against


def _setting(name: str) -> float:
    found = re.search(rf"^\s*{name}\s+(\d+)s;", CONFIG.read_text(), re.MULTILINE)
    assert found, name
    return float(found.group(1))


def _nginx_or_skip() -> None:
    if Path(NGINX).exists():
        return
    reason = "nginx is not installed (make proxy installs Debian's)"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI is set and {reason}", pytrace=False)
    pytest.skip(reason)


def proxy_config(folder: Path, listen: int, app: int) -> Path:
    """deploy/nginx.conf as a site of a main file of the test's own: the same directives,
    with the ports, the upstream's address and the access log's path changed."""
    site = CONFIG.read_text()
    for old, new in (("listen 80;", f"listen 127.0.0.1:{listen};"),
                     ("server app:8000", f"server 127.0.0.1:{app}"),
                     ("access_log /dev/stdout json;", f"access_log {folder}/access.log json;")):
        assert old in site, old
        site = site.replace(old, new)
    (folder / "lanterloo.conf").write_text(site)
    main = folder / "nginx.conf"
    main.write_text(f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
{"user root root;" if os.geteuid() == 0 else ""}
events {{ worker_connections 512; }}
http {{
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/lanterloo.conf;
}}
""")
    return main


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory, databases: Databases
          ) -> Iterator[tuple[int, Server]]:
    """nginx and gunicorn, once for the module (its tests run in order: the flood last)."""
    _nginx_or_skip()
    tmp_path = tmp_path_factory.mktemp("proxy")
    shutil.copyfile(databases.sqlite_template(), tmp_path / "lanterloo.db")
    app = Server(f"sqlite:///{tmp_path / 'lanterloo.db'}", workers=1, threads=4).start()
    port = free_port()
    main = proxy_config(tmp_path, port, app.port)
    process = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(main),
                                "-e", str(tmp_path / "error.log")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                if http(port, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None, (tmp_path / "error.log").read_text()
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.05)
        yield port, app
    finally:
        process.terminate()
        process.wait(timeout=10)
        app.stop()


def _drip(port: int, at_once: bytes, head: bytes, *, every_s: float, stop: threading.Event,
          results: list[tuple[str, float]], what: str) -> None:
    """Send `at_once`, then `head` a byte every `every_s` (then nothing) until nginx answers
    or closes, or `stop` is set: how long it took, and how (the answer's first line,
    "closed" or "still open")."""
    started = time.monotonic()
    line = "still open"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(at_once)
        sock.settimeout(every_s)
        for i in range(10**6):
            if stop.is_set():
                break
            if i < len(head):
                try:
                    sock.sendall(head[i:i + 1])
                except OSError:
                    line = "closed"
                    break
            try:
                answer = sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                answer = b""
            line = answer.split(b"\r\n", 1)[0].decode() or "closed"
            break
    results.append((f"{what}: {line}", time.monotonic() - started))


HEAD = (b"POST /members HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n")


def test_slow_clients_wait_in_the_proxy_and_are_cut_at_its_timeouts(proxy):
    port, app = proxy
    assert _setting("client_header_timeout") == HEADER_TIMEOUT_S
    assert _setting("client_body_timeout") == BODY_TIMEOUT_S
    results: list[tuple[str, float]] = []
    stop = threading.Event()
    slow_header = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    kinds = [  # (what, sent at once, then sent a byte every so many seconds)
        *[("header", b"", slow_header, 2.0)] * 4,  # cut at the header's total time
        *[("stalled body", HEAD + b'{"name": "', b"", 2.0)] * 2,  # cut after a 10 s stall
        # a byte of body every 2 s: never stalls, so nginx keeps it (up to limit_conn)
        *[("dripped body", HEAD, b'{"name": "' + b"a" * 80, 2.0)] * 2,
    ]
    clients = [threading.Thread(target=_drip, args=(port, at_once, head), kwargs={
        "every_s": every, "stop": stop, "results": results, "what": what})
        for what, at_once, head, every in kinds]
    for client in clients:
        client.start()
    # Meanwhile the app answers at once: the slow clients hold nothing of gunicorn's (its one
    # worker has four threads, fewer than the slow clients).
    probes = []
    give_up = time.monotonic() + HEADER_TIMEOUT_S + 3
    while sum(client.is_alive() for client in clients) > 2 and time.monotonic() < give_up:
        started = time.monotonic()
        status, _, _ = http(port, "GET", "/healthz", timeout=10)
        probes.append((status, time.monotonic() - started))
        time.sleep(0.25)
    stop.set()
    for client in clients:
        client.join(timeout=30)
    assert len(results) == len(kinds)
    for what, took in results:
        if what.startswith("dripped body"):
            assert what.endswith("still open"), what  # it never reached the app
            continue
        timeout = HEADER_TIMEOUT_S if what.startswith("header") else BODY_TIMEOUT_S
        # cut: the connection closed or a 408, within the configured time
        assert what.endswith("closed") or " 408 " in what, what
        assert took < timeout + 2.5, (what, took)
    EXERCISED.append(
        f"nginx: {len(kinds)} slow clients: {sorted(w for w, _ in results)}, cut after "
        f"{min(t for w, t in results if 'dripped' not in w):.1f}-"
        f"{max(t for w, t in results if 'dripped' not in w):.1f} s; {len(probes)} /healthz "
        f"probes meanwhile, the slowest {max(t for _, t in probes) * 1000:.0f} ms")
    assert len(probes) > 20
    assert all(status == 200 for status, _ in probes)
    assert max(took for _, took in probes) < 0.5, sorted(took for _, took in probes)[-5:]


def test_one_address_holds_at_most_sixteen_requests_in_progress(proxy):
    port, _ = proxy
    assert re.search(r"limit_conn perclient 16;", CONFIG.read_text())
    held = []
    for _ in range(20):  # bodies that never come: each a request in progress
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(HEAD + b"{")
        held.append(sock)
    time.sleep(0.3)
    answered, _, _ = select.select(held, [], [], 0.5)
    for sock in answered:
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 429 "), answer[:200]
        assert b"application/problem+json" in answer
    assert len(answered) == 4
    for sock in held:
        sock.close()
    time.sleep(0.2)
    assert http(port, "GET", "/healthz", timeout=5)[0] == 200


def test_an_oversize_body_is_a_413_and_a_flood_a_429_from_the_proxy(proxy):
    port, _ = proxy
    status, headers, body = http(port, "POST", "/members", b"{" + b" " * (2 * 1024 * 1024) +
                                 b"}", timeout=10)
    assert status == 413 and headers["content-type"] == "application/problem+json"
    assert body["rule"] == "too-large"
    statuses = []
    for _ in range(120):  # 20 a second with a burst of 40: far more than that at once
        status, headers, body = http(port, "GET", "/healthz", timeout=5)
        statuses.append(status)
        if status == 429:
            assert headers["content-type"] == "application/problem+json"
            assert headers["retry-after"] == "1" and body["rule"] == "rate-limited"
    # the burst (what the earlier tests left of it) passes, the rest is refused
    assert statuses[0] == 200 and statuses.count(200) + statuses.count(429) == 120
    assert statuses.count(429) >= 120 - 40 - 20, statuses
    EXERCISED.append(f"nginx: a 2 MiB body 413; 120 requests at once: "
                     f"{statuses.count(200)} × 200, {statuses.count(429)} × 429")


def test_serve_says_plainly_that_it_must_sit_behind_the_proxy_beyond_loopback():
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        assert exposure_warning(host) is None
    for host in ("0.0.0.0", "::", "192.168.1.20", "loo.example"):
        warning = exposure_warning(host)
        assert warning is not None and "must sit behind the reverse proxy" in warning
        assert "deploy/nginx.conf" in warning
