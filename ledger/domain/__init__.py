"""The pure core: cards, rule presets, commands, events, decide/evolve, statements.

Nothing here imports Flask, SQLAlchemy or marshmallow (tests/unit/test_architecture.py).

    state, events = execute(None, OpenSession(...), session_id="s1")  # a new session
    events = execute(state, PlayCard(player="C", card="QH"))[1]        # state is folded in place
"""

from .commands import CLIENT_TYPES, Command, OpenSession
from .errors import (
    ConcurrencyConflict,
    InvalidInput,
    InvariantBroken,
    LedgerError,
    OutOfTurn,
    SessionNotFound,
)
from .events import EVENT_TYPES, Event, event_from_record, event_to_record
from .execution import deal_view, execute, expected, fold, session_view
from .rules import PRESETS, Rules, build_rules
from .state import DealState, SessionState
from .statement import statement, statement_csv

__all__ = [
    "CLIENT_TYPES", "Command", "OpenSession", "deal_view", "execute", "expected", "fold",
    "session_view", "ConcurrencyConflict", "InvalidInput", "InvariantBroken", "LedgerError",
    "OutOfTurn", "SessionNotFound", "EVENT_TYPES", "Event", "event_from_record",
    "event_to_record", "PRESETS", "Rules", "build_rules", "DealState", "SessionState",
    "statement", "statement_csv",
]
