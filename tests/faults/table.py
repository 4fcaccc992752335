"""Sessions driven over real HTTP: open one, and the bodies of a random legal session."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, select

from ledger.sessions.service import Ledger
from ledger.store.tables import events
from tests.support.sessions import RandomChooser, SessionShape, play_session, to_wire

from .harness import http

PLAYERS = ["A", "B", "C", "D", "E"]
# Blenheim's fresh pool is antes: the first deal is a plain DealStarted.
OPEN = {"players": PLAYERS, "guests": PLAYERS, "preset": "blenheim", "first_dealer": "A"}
FIRST_DEAL = {"type": "DealStarted", "trump_card": "7H"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def open_session(port: int, token: str, body: dict[str, Any] | None = None) -> tuple[str, int]:
    status, _, data = http(port, "POST", "/sessions", body or OPEN, headers=bearer(token))
    assert status == 201, data
    return data["session_id"], data["version"]


def version_of(port: int, token: str, session_id: str) -> int:
    status, _, data = http(port, "GET", f"/sessions/{session_id}", headers=bearer(token))
    assert status == 200, data
    return int(data["version"])


def legal_session(seed: int, deals: int = 3) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the POST /sessions body, every accepted command's wire body in order) of a random
    legal session."""
    played = play_session(RandomChooser(seed), shape=SessionShape(
        max_deals=deals, p_illegal_try=0.0, p_illegal_card=0.0, p_overrides=0.0,
        p_penalty=0.0, p_in_play_penalty=0.0, p_join=0.0, p_withdraw=0.0), deals=deals)
    opening = to_wire(played.opening)
    opening["guests"] = list(opening["players"])
    return opening, [step.wire() for step in played.steps[1:] if step.accepted]


def log_versions(engine: Engine, session_id: str) -> list[int]:
    with engine.connect() as conn:
        return list(conn.scalars(select(events.c.version).where(
            events.c.stream_id == session_id).order_by(events.c.version)))


def events_by_key(engine: Engine, session_id: str) -> dict[str, int]:
    """How many events of the session each Idempotency-Key appended."""
    counts: dict[str, int] = {}
    with engine.connect() as conn:
        for key in conn.scalars(select(events.c.idempotency_key).where(
                events.c.stream_id == session_id)):
            if key:
                counts[key] = counts.get(key, 0) + 1
    return counts


def assert_whole(engine: Engine, session_id: str) -> None:
    """Versions 1..N without a gap, the hash chain whole, the projections equal a rebuild."""
    versions = log_versions(engine, session_id)
    assert versions == list(range(1, len(versions) + 1))
    assert Ledger(engine).verify(session_id) == []
