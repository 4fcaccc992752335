"""The request's log line is the record logging.Logger.log would make (api/http/observability.py):
the same message, fields and level, naming the line that logs it as its caller, and the JSON
formatter writes what json.dumps writes."""

from __future__ import annotations

import json
import logging

import pytest

from api.http import observability

# the request's log line, whatever the database
pytestmark = pytest.mark.backends("sqlite")


class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_the_request_record_names_its_caller(client):
    keep = Keep()
    logger = logging.getLogger("lanterloo.request")
    logger.addHandler(keep)
    try:
        response = client.get("/sessions/no-such-session")
    finally:
        logger.removeHandler(keep)
    assert response.status_code == 404
    [record] = keep.records
    assert record.pathname == observability.__file__
    assert record.funcName == "_finish" and record.lineno > 0
    assert record.getMessage() == "GET /sessions/no-such-session 404"
    assert record.levelno == logging.INFO
    assert record.request_id == response.headers["X-Request-Id"]  # type: ignore[attr-defined]
    assert record.rule == "session-exists"  # type: ignore[attr-defined]
    line = json.loads(observability.JsonFormatter().format(record))
    assert line["status"] == 404 and line["route"] == "/sessions/<session_id>"


def test_the_json_line_is_what_json_dumps_writes():
    record = logging.LogRecord("lanterloo.request", logging.INFO, __file__, 1, "%s", ("é",),
                               None)
    record.odd = object()
    record.text = "\u2028 ü \U0001f0a1"
    text = observability.JsonFormatter().format(record)
    line = json.loads(text)
    assert text == json.dumps(line, ensure_ascii=False)
    assert line["odd"] == str(record.odd) and line["text"] == record.text
