"""deploy/nginx.conf for real, in front of gunicorn (deploy/gunicorn.conf.py): Debian's nginx
runs the shipped site file under Debian's own main file (tests/support/nginx.py), over TLS
with a self-signed certificate, and shows that slow clients wait in nginx, not in the app,
and are cut at the configured times; that a room of tablets behind one address is never
limited while a script is; that every refusal of the proxy is problem+json; and that its
logs hold no query, no client request id and no token.

Skipped (with the reason) where nginx is not installed (`make proxy` installs it); under
CI=true it fails instead.
"""

from __future__ import annotations

import http.client as http_client
import re
import select
import shutil
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from api.cli.main import exposure_warning
from tests.support.databases import Databases
from tests.support.nginx import SITE, Proxy, nginx_or_skip, self_signed

from .harness import EXERCISED, Server, free_port, http

CONFIG = SITE
HEADER_TIMEOUT_S = 10.0  # client_header_timeout in deploy/nginx.conf
BODY_TIMEOUT_S = 10.0  # client_body_timeout
SECRET = "loo_0123456789abcdef_" + "S" * 43  # shaped like a token: it must never be logged


def _setting(name: str) -> float:
    found = re.search(rf"^\s*{name}\s+(\d+)s;", CONFIG.read_text(), re.MULTILINE)
    assert found, name
    return float(found.group(1))


def _token(n: int) -> dict[str, str]:
    """A bearer header shaped like tablet n's token (nginx limits by its public id)."""
    return {"Authorization": f"Bearer loo_{n:016x}_{'t' * 43}"}


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory, databases: Databases
          ) -> Iterator[tuple[Proxy, Server]]:
    """nginx and gunicorn, once for the module (its tests run in order: the app stopped
    last)."""
    nginx_or_skip()
    tmp_path = tmp_path_factory.mktemp("proxy")
    shutil.copyfile(databases.sqlite_template(), tmp_path / "lanterloo.db")
    app = Server(f"sqlite:///{tmp_path / 'lanterloo.db'}", workers=1, threads=4).start()
    made = Proxy(tmp_path, https=free_port(), http=free_port(),
                 tls=self_signed(tmp_path / "tls"))
    try:
        made.start([app.port], lambda: http(made.https, "GET", "/healthz", timeout=2,
                                             tls=made.context)[0] == 200)
        yield made, app
    finally:
        made.stop()
        app.stop()


def _connect(proxy: Proxy, timeout: float = 30) -> socket.socket:
    raw = socket.create_connection(("127.0.0.1", proxy.https), timeout=timeout)
    return proxy.context.wrap_socket(raw, server_hostname="127.0.0.1")


def _drip(proxy: Proxy, at_once: bytes, head: bytes, *, every_s: float,
          stop: threading.Event, results: list[tuple[str, float]], what: str) -> None:
    """Send `at_once`, then `head` a byte every `every_s` (then nothing) until nginx answers
    or closes, or `stop` is set: how long it took, and how (the answer's first line,
    "closed" or "still open")."""
    started = time.monotonic()
    line = "still open"
    with _connect(proxy) as sock:
        if at_once:
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


def test_the_site_file_starts_under_debians_nginx_and_plain_http_goes_to_https(proxy):
    made, _ = proxy
    status, headers, _ = http(made.http, "GET", "/table?x=1")
    assert status == 301 and headers["location"].startswith("https://"), headers
    assert headers["location"].endswith("/table?x=1")
    status, headers, body = http(made.https, "GET", "/healthz", tls=made.context)
    assert status == 200 and body["status"] == "ok", body
    assert headers["strict-transport-security"] == "max-age=31536000"
    with pytest.raises(ssl.SSLError):  # a client that does not trust the certificate
        http(made.https, "GET", "/healthz", tls=ssl.create_default_context())


def test_slow_clients_wait_in_the_proxy_and_are_cut_at_its_timeouts(proxy):
    made, app = proxy
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
    clients = [threading.Thread(target=_drip, args=(made, at_once, head), kwargs={
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
        status, _, _ = http(made.https, "GET", "/healthz", timeout=10, tls=made.context)
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


def test_one_address_holds_at_most_sixty_four_requests_in_progress(proxy):
    made, _ = proxy
    assert re.search(r"limit_conn lanterloo_conn 64;", CONFIG.read_text())
    held = []
    for _ in range(68):  # bodies that never come: each a request in progress
        sock = _connect(made, timeout=5)
        sock.sendall(HEAD + b"{")
        held.append(sock)
    time.sleep(0.3)
    answers = []
    try:
        readable, _, _ = select.select(held, [], [], 0.5)
        for sock in readable:  # (TLS 1.3 session tickets make every socket readable)
            sock.settimeout(0.2)
            try:
                answers.append(sock.recv(4096))
            except TimeoutError:
                pass
    finally:
        for sock in held:
            sock.close()
    answered = [answer for answer in answers if answer]
    for answer in answered:
        assert answer.startswith(b"HTTP/1.1 429 "), answer[:200]
        assert b"application/problem+json" in answer
    assert len(answered) == 4
    time.sleep(0.2)
    assert http(made.https, "GET", "/healthz", timeout=5, tls=made.context)[0] == 200


def _room(made: Proxy, seconds: float, tablets: int = 20) -> list[int]:
    """`tablets` tablets behind one address, each with its own token: a poll every 2 s, a
    live view every 1 s, and once a burst of eight taps; every status they got."""
    def tablet(n: int) -> list[int]:
        got = []
        started = time.monotonic()
        tick = 0
        while time.monotonic() - started < seconds:
            began = time.monotonic()
            paths = ["/healthz"] * (2 if tick % 2 == 0 else 1)
            if tick == 1 + n % 3:
                paths += ["/healthz"] * 8
            for path in paths:
                got.append(http(made.https, "GET", path, headers=_token(n), timeout=10,
                                tls=made.context)[0])
            tick += 1
            # a second from this tick's start, as a tablet's timer does: one kept waiting by
            # a slow answer polls again a second later, it does not fire the ticks it missed
            time.sleep(max(0.0, began + 1.0 - time.monotonic()))
        return got

    with ThreadPoolExecutor(tablets) as pool:
        return [status for got in pool.map(tablet, range(tablets)) for status in got]


def _kept_alive(made: Proxy, requests: int) -> list[int]:
    """`requests` GET /healthz one after the other on one kept-alive connection."""
    conn = http_client.HTTPSConnection("127.0.0.1", made.https, timeout=10,
                                       context=made.context)
    try:
        statuses = []
        for _ in range(requests):
            conn.request("GET", "/healthz")
            answer = conn.getresponse()
            answer.read()
            statuses.append(answer.status)
        return statuses
    finally:
        conn.close()


def test_a_room_of_tablets_behind_one_address_is_never_limited_and_a_script_is(proxy):
    made, _ = proxy
    time.sleep(3.5)  # the per-address bucket (burst 200 at 60/s) full again after any flood
    statuses = _room(made, seconds=4.0)
    assert set(statuses) == {200}, sorted(set(statuses))
    # one token far above a tablet: its burst passes, the rest is refused
    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        script = list(pool.map(lambda _: http(made.https, "GET", "/healthz",
                                              headers=_token(999), timeout=10,
                                              tls=made.context), range(120)))
    script_s = time.monotonic() - started
    refused = [(h, b) for s, h, b in script if s == 429]
    # the burst of 30 and 10 a second pass, the rest is refused
    assert [s for s, _, _ in script].count(200) >= 30
    assert len(refused) >= 120 - 30 - 10 * script_s - 5, (len(refused), script_s)
    for headers, body in refused:
        assert headers["content-type"] == "application/problem+json"
        assert headers["retry-after"] == "1" and body["rule"] == "rate-limited"
    # no token, one address: the looser limit per address (once the script's share of it
    # has drained, at 60 a second)
    time.sleep(2.5)
    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        flood = [status for got in pool.map(lambda _: _kept_alive(made, 100), range(8))
                 for status in got]
    took = time.monotonic() - started
    # the burst of 200 and 60 a second pass, the rest is refused
    assert flood.count(200) >= 200, flood.count(200)
    assert flood.count(429) >= max(1, 800 - 200 - 60 * took - 20), (flood.count(429), took)
    EXERCISED.append(f"nginx: 20 tablets on one address for 4 s: {len(statuses)} requests, "
                     f"all 200; one token, 120 at once ({script_s:.1f} s): {len(refused)} × "
                     f"429; no token, 800 at once ({took:.1f} s): {flood.count(429)} × 429")


def test_every_refusal_of_the_proxy_is_problem_json(proxy):
    made, _ = proxy
    time.sleep(1.5)  # the per-address bucket refills after the flood
    status, headers, body = http(made.https, "POST", "/members", b"{" + b" " * (2 * 1024 * 1024)
                                 + b"}", timeout=10, tls=made.context)
    assert status == 413 and headers["content-type"] == "application/problem+json"
    assert body["rule"] == "too-large"
    status, headers, body = http(made.https, "GET", "/metrics", tls=made.context)
    assert status == 404 and headers["content-type"] == "application/problem+json", body
    assert body["rule"] == "not-found"
    status, headers, body = http(made.https, "GET", "/" + "a" * 9000, tls=made.context)
    assert status == 414 and headers["content-type"] == "application/problem+json", body
    assert body["rule"] == "uri-too-long"
    status, headers, body = http(made.https, "GET", "/healthz", headers={"X-Big": "b" * 9000},
                                 tls=made.context)
    assert status in (400, 431) and headers["content-type"] == "application/problem+json"


def test_the_proxy_logs_hold_no_query_no_client_request_id_and_no_token(proxy):
    made, _ = proxy
    status, headers, _ = http(made.https, "GET", f"/healthz?token={SECRET}",
                              headers={"Authorization": f"Bearer {SECRET}",
                                       "X-Request-Id": "client-chosen-id-42"},
                              tls=made.context)
    assert status == 422  # a query /healthz does not take is refused, naming it
    # the app was given nginx's own request id: the proxy's line and the app's join up
    ours = headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", ours), ours
    http(made.https, "GET", "/" + "q" * 9000 + f"?{SECRET}", tls=made.context)
    logs = made.logs()
    assert f'"request_id":"{ours}"' in logs
    assert '"uri":"/healthz"' in logs
    for secret in (SECRET, "SSSSSSSS", "client-chosen-id-42", "?token", "qqqqqqqq"):
        assert secret not in logs, secret


def test_an_app_that_does_not_answer_is_a_503_problem_with_retry_after(proxy):
    made, app = proxy
    app.stop()
    status, headers, body = http(made.https, "GET", f"/sessions?after={SECRET}",
                                 tls=made.context)
    assert status == 503 and headers["content-type"] == "application/problem+json"
    assert headers["retry-after"] == "5" and body["rule"] == "service-unavailable"
    assert SECRET not in made.logs() and "SSSSSSSS" not in made.logs()


def test_serve_says_plainly_that_it_must_sit_behind_the_proxy_beyond_loopback():
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        assert exposure_warning(host) is None
    for host in ("0.0.0.0", "::", "192.168.1.20", "loo.example"):
        warning = exposure_warning(host)
        assert warning is not None and "must sit behind the reverse proxy" in warning
        assert "deploy/nginx.conf" in warning
