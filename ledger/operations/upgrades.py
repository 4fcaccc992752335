"""What an upgrade does beyond the schema and the projections: the records an earlier release
left short, completed by appended facts (docs/operations.md, "Upgrading").

    attached = attach_latecomers(engine)   # [(session id, the seats attached, or why not)]

An aftercomer who joined a club's session before a join named his member sat on nobody's
account: his result was on the statement and on no member's. Each such seat is attached to
the club's member of that name (any case), or a new guest member, by one `LatecomersAttached`
event of the session (chained like every other, under the operator's name) and one entry of
the club's log; his lines on the books are then his member's from the first. The stored
events are not touched, and a second run finds nothing to do.
"""

from __future__ import annotations

from sqlalchemy import Engine

from ledger.clubs.service import Actor
from ledger.domain import LedgerError
from ledger.sessions.service import Ledger
from ledger.store import queries
from ledger.writes import WriteRequest

OPERATOR = "operator"


def attach_latecomers(engine: Engine, *, actor: str = OPERATOR
                      ) -> list[tuple[str, list[str] | str]]:
    """Every club session's seats that name no member attached to members: (session id,
    the seats attached) per session that had any, or (session id, why it was not)."""
    ledger = Ledger(engine)
    with ledger.store.reading() as conn:
        found = queries.club_sessions_with_old_joins(conn)
    out: list[tuple[str, list[str] | str]] = []
    for row in found:
        session_id = str(row.id)
        try:
            result = ledger.for_club(str(row.club_id)).attach_latecomers(
                session_id, WriteRequest(Actor(actor)))
        except LedgerError as error:
            out.append((session_id, error.message))
            continue
        appended = result.body["appended"]
        if appended:
            out.append((session_id, sorted(appended[0]["payload"]["members"])))
    return out
