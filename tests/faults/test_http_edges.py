"""What gunicorn and the app do at the edges of HTTP, through a real server: bodies over the
limit however they are sent, gunicorn's own refusals, slow clients, request ids, logs and
metrics."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

from .harness import http
from .table import FIRST_DEAL, bearer, open_session

LIMIT = 1024 * 1024


def raw(port: int, request: bytes, *, timeout: float = 10) -> tuple[int, dict[str, str], Any]:
    """Send bytes as they are; read the whole answer (the server closes or it is complete)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, v in
                   (line.split(":", 1) for line in lines[1:] if ":" in line)}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    status = int(lines[0].split()[1])
    parsed = json.loads(body) if "json" in headers.get("content-type", "") else body
    return status, headers, parsed


def chunked(port: int, path: str, payload: bytes, token: str, **headers: str) -> Any:
    extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    head = (f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n{extra}"
            "Connection: close\r\n\r\n").encode()
    body = b"".join(b"%x\r\n%s\r\n" % (len(payload[i:i + 65536]), payload[i:i + 65536])
                    for i in range(0, len(payload), 65536)) + b"0\r\n\r\n"
    return raw(port, head + body)


def test_a_chunked_body_over_the_limit_is_a_413_like_one_with_a_length(sqlite_url, serve,
                                                                      club_for):
    club = club_for(sqlite_url)
    token = club.tokens["treasurer"]
    server = serve(sqlite_url, workers=1)
    session_id, version = open_session(server.port, token)
    # Valid JSON, just too long: the padding is a string member the schema would refuse.
    big = json.dumps({**FIRST_DEAL, "pad": "x" * LIMIT}).encode()
    path = f"/sessions/{session_id}/events"
    for status, headers, body in (chunked(server.port, path, big, token,
                                          **{"If-Match": f'"{version}"'}),
                                  http(server.port, "POST", path, big,
                                       headers={**bearer(token),
                                                "If-Match": f'"{version}"'})):
        assert status == 413, body
        assert headers["content-type"] == "application/problem+json"
        assert body["rule"] == "too-large"
    # Under the limit, chunked is read whole and appended like any other body.
    status, _, body = chunked(server.port, path, json.dumps(FIRST_DEAL).encode(), token,
                              **{"If-Match": f'"{version}"'})
    assert status == 201, body
    assert body["version"] > version


def test_gunicorns_own_refusals_are_problem_json(sqlite_url, serve):
    server = serve(sqlite_url, workers=1)
    cases = {
        414: b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        431: b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
        400: b"NOT A REQUEST LINE\r\n\r\n",
    }
    for want, request in cases.items():
        status, headers, body = raw(server.port, request)
        assert status == want, (want, body)
        assert headers["content-type"] == "application/problem+json", headers
        assert body["status"] == want and body["type"].startswith("urn:lanterloo:problem:")


def test_slow_clients_do_not_stall_the_service(sqlite_url, serve):
    """Slowloris: four clients sending their headers a byte at a time (what stalled every
    sync worker) leave the service answering: each holds one thread of a worker's eight.
    More slow clients than threads would stall a worker too: the buffering proxy in front
    (deploy/nginx.conf) is the defence against many (docs/operations.md, "Slow clients")."""
    server = serve(sqlite_url, workers=2, threads=8)
    slow = []
    for _ in range(4):
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        slow.append(sock)
    try:
        for _ in range(3):
            for sock in slow:
                sock.sendall(b"a")
            started = time.monotonic()
            status, _, _ = http(server.port, "GET", "/healthz", timeout=5)
            assert status == 200 and time.monotonic() - started < 1.0
            time.sleep(0.3)
    finally:
        for sock in slow:
            sock.close()


# An id of the server's own shape (32 lowercase hex digits, as nginx's $request_id): kept.
OURS = "7ab1e70000004000800000000000a042"


def test_request_ids_go_in_and_out_and_every_log_line_is_json_without_secrets(
        sqlite_url, serve, club_for):
    club = club_for(sqlite_url)
    token = club.tokens["treasurer"]
    server = serve(sqlite_url, workers=1)
    session_id, version = open_session(server.port, token)
    status, headers, _ = http(server.port, "GET", f"/sessions/{session_id}",
                              headers={**bearer(token), "X-Request-Id": OURS})
    assert status == 200 and headers["x-request-id"] == OURS
    status, headers, problem = http(server.port, "POST", f"/sessions/{session_id}/events",
                                    FIRST_DEAL, headers={**bearer(token),
                                                         "If-Match": f'"{version - 1}"',
                                                         "X-Request-Id": "bad id\u00e9"[:6]})
    assert status == 409 and len(headers["x-request-id"]) == 32  # an id of the server's
    time.sleep(0.3)
    lines = [json.loads(line) for line in server.output().splitlines()
             if line.startswith("{")]
    requests = [line for line in lines if line.get("logger") == "lanterloo.request"]
    access = [line for line in lines if line.get("logger") == "gunicorn.access"]
    mine = [line for line in requests if line.get("request_id") == OURS]
    assert mine and mine[0]["session"] == session_id and mine[0]["club"] == club.club_id
    assert mine[0]["status"] == 200 and mine[0]["latency_ms"] >= 0
    refused = [line for line in requests if line.get("status") == 409]
    assert refused and refused[0]["rule"] == "expected-version"
    assert any(line["request_id"] == OURS for line in access)
    secret = token.split("_", 2)[2]
    assert secret not in server.output()


def test_metrics_count_appends_refusals_conflicts_and_replays(sqlite_url, serve, club_for):
    club = club_for(sqlite_url)
    token = club.tokens["treasurer"]
    server = serve(sqlite_url, workers=1)
    session_id, version = open_session(server.port, token)
    path = f"/sessions/{session_id}/events"
    headers = {**bearer(token), "Idempotency-Key": "k-1"}
    assert http(server.port, "POST", path, FIRST_DEAL, headers=headers)[0] == 201
    assert http(server.port, "POST", path, FIRST_DEAL, headers=headers)[0] == 201  # replay
    assert http(server.port, "POST", path, FIRST_DEAL,
                headers={**bearer(token), "If-Match": '"1"'})[0] == 409
    status, headers_, text = http(server.port, "GET", "/metrics")
    assert status == 200 and headers_["content-type"].startswith("text/plain")
    page = text.decode()
    assert 'lanterloo_appends_total{kind="append"} 1.0' in page
    assert 'lanterloo_appends_total{kind="open"} 1.0' in page
    assert "lanterloo_idempotent_replays_total 1.0" in page
    assert "lanterloo_conflicts_total 1.0" in page
    assert 'lanterloo_refusals_total{rule="expected-version",status="409"} 1.0' in page
    assert "lanterloo_request_duration_seconds_bucket" in page
    # Through a proxy (X-Forwarded-For) it is not served.
    status, _, problem = http(server.port, "GET", "/metrics",
                              headers={"X-Forwarded-For": "203.0.113.9"})
    assert status == 403 and problem["rule"] == "metrics-access"


def test_metrics_of_every_worker_with_multiprocess_mode_and_a_token(sqlite_url, serve,
                                                                    club_for, tmp_path):
    club = club_for(sqlite_url)
    token = club.tokens["treasurer"]
    server = serve(sqlite_url, workers=2, PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "prom"),
                   LOO_METRICS_TOKEN="scrape-secret")
    open_session(server.port, token)
    for _ in range(20):
        http(server.port, "GET", "/healthz")
    assert http(server.port, "GET", "/metrics")[0] == 403
    status, _, text = http(server.port, "GET", "/metrics",
                           headers={"Authorization": "Bearer scrape-secret"})
    assert status == 200
    page = text.decode()
    # Every worker's count, summed: the 20 liveness checks wherever they were answered.
    assert 'lanterloo_requests_total{method="GET",route="/healthz",status="200"} 2' in page
    assert 'lanterloo_appends_total{kind="open"} 1.0' in page
