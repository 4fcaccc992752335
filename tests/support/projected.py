"""Projections as tests read them: plain JSON values from ledger/projections.py."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson
from sqlalchemy import Engine, select

from ledger.domain import Event, SessionState
from ledger.projections import fold_events
from ledger.store.tables import sessions


def fold_with_views(events: Iterable[Event], session_id: str
                    ) -> tuple[SessionState, dict[int, dict[str, Any]]]:
    """The state the events fold to, and every deal's view as it last stood."""
    state, folding = fold_events(session_id, ((0, e) for e in events))
    return state, {n: orjson.loads(view) for n, view in folding.views.items()}


def plain(value: Any) -> Any:
    """The value as JSON gives it back."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def all_sessions(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return [r[0] for r in conn.execute(select(sessions.c.id).order_by(sessions.c.id))]


def rebuilt(engine: Engine, session_id: str) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """(the state, every deal's view) as the session's stored log folds them, as plain JSON."""
    from ledger.domain.corrections import live_events
    from ledger.sessions import history
    from ledger.store import queries

    with engine.connect() as conn:
        log = history.versioned(queries.stream_by_version(conn, session_id))
    state, views = fold_with_views((e for _, e in live_events(log)), session_id)
    return plain(state.to_dict()), views
