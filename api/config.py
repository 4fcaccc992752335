"""Configuration from the environment: one place that reads LOO_* variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ledger.clubs.service import TOKEN_RECHECK_S
from ledger.operations.database import env_number, env_or_file


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, got {raw!r}") from None


def _flag(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


def _seconds(name: str, default: float) -> float:
    return env_number(name, default, "a number of seconds")


def from_env(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The app's settings: the environment first, then `overrides` (tests, the CLI)."""
    config: dict[str, Any] = {
        # None: ledger.store.db.make_engine's default (SQLite file instance/lanterloo.db).
        "DATABASE_URL": env_or_file("LOO_DATABASE_URL"),
        # A PostgreSQL hot standby of it that answers the reads of the books, the audit and
        # the statement (api/http/reading.py); None: the primary answers every read.
        "READ_DATABASE_URL": env_or_file("LOO_READ_DATABASE_URL"),
        # Run Alembic's upgrade when the app starts (handy for SQLite; in production migrate
        # as a separate step, see deploy/README.md).
        "AUTO_MIGRATE": _flag("LOO_AUTO_MIGRATE"),
        # At most this many events in one POST /sessions/<id>/events batch.
        "MAX_BATCH_EVENTS": _int("LOO_MAX_BATCH_EVENTS", 500),
        # At most this many events in one page of GET /sessions/<id>/events.
        "MAX_PAGE_EVENTS": _int("LOO_MAX_PAGE_EVENTS", 1000),
        # Request bodies above this many bytes get 413 before any parsing.
        "MAX_CONTENT_LENGTH": _int("LOO_MAX_BODY_BYTES", 1024 * 1024),
        # Failed pairing codes (POST /pairing) one address may send in a minute
        # (api/routes/tablets.py).
        "PAIRING_FAILURES_PER_MINUTE": _int("LOO_PAIRING_FAILURES_PER_MINUTE", 10),
        # The club whose administrator may attach sessions from before clubs over the API
        # (api/routes/attach.py), by id or name; unset: allowed only where the database holds one
        # club.
        "ATTACH_CLUB": os.environ.get("LOO_ATTACH_CLUB", ""),
        # How long a process trusts a token it has looked up before it looks again, seconds
        # (ledger/clubs/service.py, authenticate): the bound on a token revoked or expired directly
        # in the database. 0: every request looks its token up.
        "TOKEN_RECHECK_S": _seconds("LOO_TOKEN_RECHECK_S", TOKEN_RECHECK_S),
        "LOG_LEVEL": os.environ.get("LOO_LOG_LEVEL", "INFO"),
        # JSON lines (one object per line), or "text" for a terminal.
        "LOG_FORMAT": os.environ.get("LOO_LOG_FORMAT", "json"),
        # Check every answer against the OpenAPI document (api/http/contract.py): the tests run
        # with it on; it costs a walk of every answer.
        "STRICT_RESPONSES": _flag("LOO_STRICT_RESPONSES"),
        # flask-smorest / OpenAPI
        "API_TITLE": "Lanterloo",
        "API_VERSION": "1",
        "OPENAPI_VERSION": "3.0.3",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        "OPENAPI_SWAGGER_UI_PATH": "/docs",
        # Swagger UI's files: served by the app itself from the flask-swagger-ui package
        # (api/pages/swagger.py), so /docs loads with no connection to the internet.
        "OPENAPI_SWAGGER_UI_URL": os.environ.get("LOO_SWAGGER_UI_URL", "/docs/assets/"),
        # No validator badge: it would load an image from the internet.
        "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None},
        "JSON_SORT_KEYS": False,
    }
    if overrides:
        config.update(overrides)
    return config
