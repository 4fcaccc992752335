"""No secret reaches a log line: a token a client puts in the path, the query or the
X-Request-Id, or a bearer value anywhere, is written redacted by the request's line, by the
service's formatters and by the access log (api/http/redaction.py)."""

from __future__ import annotations

import json
import logging
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from api.http import observability
from api.http.redaction import redact
from api.http.serving import JsonAccessLogger

pytestmark = pytest.mark.backends("sqlite")

SECRET = "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8"
TOKEN = f"loo_0123456789abcdef_{SECRET}"


class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _lines(client, *requests) -> tuple[list[str], list]:
    keep = Keep()
    logger = logging.getLogger("lanterloo")
    logger.addHandler(keep)
    responses = []
    try:
        for path, headers in requests:
            responses.append(client.get(path, headers=headers))
    finally:
        logger.removeHandler(keep)
    json_lines = [observability.JsonFormatter().format(r) for r in keep.records]
    text_lines = [observability.RedactingFormatter("%(message)s").format(r)
                  for r in keep.records]
    return json_lines + text_lines, responses


def test_a_token_in_the_path_the_query_or_the_request_id_is_logged_redacted(client):
    lines, responses = _lines(
        client,
        (f"/sessions/{TOKEN}", {}),
        (f"/club?token={TOKEN}&auth=Bearer%20{SECRET}", {}),
        ("/club", {"X-Request-Id": TOKEN}),
        ("/club", {"X-Request-Id": "loo_short"}),
    )
    # /club takes no query parameter: 422, its line still written, the query redacted
    assert [r.status_code for r in responses] == [404, 422, 200, 200]
    assert len(lines) == 8
    for line in lines:
        assert SECRET not in line and "loo_short" not in line, line
    first = json.loads(lines[0])
    assert first["path"] == "/sessions/loo_[redacted]"
    assert first["msg"] == "GET /sessions/loo_[redacted] 404"
    second = json.loads(lines[1])
    assert second["query"] == "token=loo_[redacted]&auth=Bearer [redacted]"
    # a credential-shaped X-Request-Id is not adopted: a new id is made, and sent back
    for response in responses[2:]:
        assert response.headers["X-Request-Id"] not in (TOKEN, "loo_short")
        assert len(response.headers["X-Request-Id"]) == 32
    ours = "5f0c6a8e9b7d4c21a3e4f5061728394a"
    kept = client.get("/club", headers={"X-Request-Id": ours})
    assert kept.headers["X-Request-Id"] == ours  # an id of the server's own shape is kept


@pytest.mark.parametrize("sent", [
    f"0123456789abcdef_{SECRET}",  # the token without its loo_ prefix
    SECRET,  # the bare secret
    f"{SECRET[:32]}",  # a part of it
    "req-42", "table-7.req-42",  # plain, but not of the server's shape
    "5F0C6A8E9B7D4C21A3E4F5061728394A",  # upper case
])
def test_a_request_id_not_of_the_servers_shape_is_replaced_and_never_echoed_or_logged(
        client, sent):
    lines, [response] = _lines(client, ("/club", {"X-Request-Id": sent}))
    assert response.status_code == 200
    answered = response.headers["X-Request-Id"]
    assert answered != sent and len(answered) == 32 and int(answered, 16) >= 0
    assert lines
    for line in lines:
        assert sent not in line and SECRET[:20] not in line, line
    assert sent not in response.get_data(as_text=True)


def test_redact_replaces_every_credential_shape_and_nothing_else():
    assert redact(f"a {TOKEN} b") == "a loo_[redacted] b"
    assert redact(f"LOO_{SECRET}") == "LOO_[redacted]"
    assert redact(f"Authorization: Bearer {SECRET}") == "Authorization: Bearer [redacted]"
    assert redact(f"bearer+{SECRET}") == "Bearer [redacted]"
    assert redact("/sessions/2ec5c73d0b1f40e0ada09cfd563c821a/events?after=3") == \
        "/sessions/2ec5c73d0b1f40e0ada09cfd563c821a/events?after=3"


def test_the_access_log_writes_the_path_redacted():
    config = Config()
    config.set("accesslog", "/dev/null")
    logger = JsonAccessLogger(config)
    keep = Keep()
    logger.access_log.addHandler(keep)
    response = SimpleNamespace(headers=[("X-Request-Id", "abc")], status="404 NOT FOUND",
                               sent=10)
    request = SimpleNamespace(method="GET", path=f"/sessions/{TOKEN}")
    logger.access(response, request, {"REMOTE_ADDR": "127.0.0.1"}, 0.01)
    [record] = keep.records
    line = json.loads(record.getMessage())
    assert line["path"] == "/sessions/loo_[redacted]" and SECRET not in record.getMessage()


def test_redacting_twice_changes_nothing_more():
    once = redact(f"{TOKEN} Bearer {SECRET}")
    assert redact(once) == once == "loo_[redacted] Bearer [redacted]"
