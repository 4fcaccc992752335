"""The application service behind the API, and the small adapters the views share."""

from __future__ import annotations

from typing import Any

from flask import current_app

from ledger.domain import SessionNotFound
from ledger.service import REPLAY_FLAG, Ledger
from ledger.store.tables import STREAM_ID_LENGTH

EXTENSION = "lanterloo"
_CLUB_LEDGERS = "club_ledgers"
_MAX_CLUB_LEDGERS = 1024


def ledger() -> Ledger:
    """The caller's club's Ledger: it sees and opens only that club's sessions. Only a route
    behind api.auth.requires has a caller; any other use fails closed."""
    from .auth import principal

    club_id = principal().club_id
    extension = current_app.extensions[EXTENSION]
    base = extension["ledger"]
    # A club's Ledger is made once per app and club, not per request: it holds nothing but
    # the engine's reader and writer and the club it is confined to.
    kept = extension.get(_CLUB_LEDGERS)
    if kept is None or kept[0] is not base:
        kept = extension[_CLUB_LEDGERS] = (base, {})
    by_club: dict[str, Ledger] = kept[1]
    found = by_club.get(club_id)
    if found is None:
        if len(by_club) >= _MAX_CLUB_LEDGERS:
            by_club.clear()
        found = by_club[club_id] = base.for_club(club_id)
    return found


def engine() -> Any:
    return current_app.extensions[EXTENSION]["engine"]


def split_replay(result: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """(the response body exactly as first returned, whether the service replayed it for a
    repeated Idempotency-Key)."""
    body = dict(result)
    return body, bool(body.pop(REPLAY_FLAG, False))


def check_session_id(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A session id the store could never hold is simply not found (url_value_preprocessor)."""
    session_id = (values or {}).get("session_id")
    if session_id is None:
        return
    if len(session_id) > STREAM_ID_LENGTH or not session_id.isprintable():
        raise SessionNotFound("no such session", rule="session-exists", field="session_id")
