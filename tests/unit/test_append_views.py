"""A session view is the caller's own: changing one changes neither the session nor the next
view (the rules' dict is built afresh from the frozen rules each time, `Rules.to_dict`;
tests/unit/test_rules_dict.py holds it to the dataclass form, value and key order).
"""

from __future__ import annotations

from ledger.domain import session_view
from tests.support.sessions import RandomChooser, SessionShape, play_session


def test_a_caller_changing_its_view_does_not_change_the_next():
    played = play_session(RandomChooser(7), shape=SessionShape(min_deals=1, max_deals=4))
    before = session_view(played.state)
    first = session_view(played.state)
    first["rules"]["stake"] = -1
    first["rules"].clear()
    first["balances"].clear()
    assert session_view(played.state) == before
