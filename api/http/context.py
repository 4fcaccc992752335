"""What a request works with: its caller's club's ledger and books, and a session id it names."""

from __future__ import annotations

from typing import Any

from api.http.auth import principal
from api.http.extension import services
from api.http.reading import read_engine
from ledger.books.service import Books
from ledger.domain import SessionNotFound
from ledger.domain.limits import STREAM_ID_LENGTH
from ledger.sessions.service import Ledger


def ledger() -> Ledger:
    """The caller's club's Ledger: it sees and opens only that club's sessions. Only a route
    behind api.http.auth.requires has a caller; any other use fails closed."""
    standby = read_engine()
    if standby is not None:  # a read routed to the read replica (api/http/reading.py)
        return Ledger(standby, club_id=principal().club_id,
                      snapshot_every=services().ledger.snapshot_every)
    return services().ledger.for_club(principal().club_id)


def books() -> Books:
    """The caller's club's books (on the read replica in a read routed there)."""
    return Books(read_engine() or services().engine, principal().club_id)


def check_session_id(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A session id the store could never hold is simply not found (url_value_preprocessor)."""
    session_id = (values or {}).get("session_id")
    if session_id is None:
        return
    if len(session_id) > STREAM_ID_LENGTH or not session_id.isprintable():
        raise SessionNotFound("no such session", rule="session-exists", field="session_id")
