"""The penalty dialog offers exactly what the ledger accepts (ledger/domain/penalty_offers.py).

After every command of generated sessions (tests/support/sessions.py: every preset and
variant, penalties, redeals, replays, aftercomers, withdrawals), each player and each offence of
the preset's table is sent to the ledger as an `ImposePenalty` through `execute`: one that
`expected`'s PenaltyImposed action offers (`by_player`, and `redeal` for `redeal: true`) must
be accepted, one it does not offer must be refused, and outside a deal (no such action) every
one is refused.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.domain import LedgerError, execute, expected
from ledger.domain import commands as cmd
from ledger.domain.offence_tables import TABLES, offences_for
from ledger.domain.state import SessionState
from ledger.domain.vocabulary import RedealRule
from tests.support.sessions import VARIANT_NAMES, RandomChooser, SessionShape, play_session

# penalties charged often, so that the offers change within a deal; two deals at least, so
# that one is a hand (the first may be the turn-up single)
SHAPE = SessionShape(min_deals=2, max_deals=5, variants=VARIANT_NAMES, p_penalty=0.15,
                     p_in_play_penalty=0.08)


def penalty_action(state: SessionState) -> dict[str, Any] | None:
    return next((a for a in expected(state)["actions"] if a["type"] == "PenaltyImposed"), None)


def asks(state: SessionState) -> list[tuple[str, str, bool]]:
    """Every penalty the table could send now: each seat, each offence, and `redeal: true`
    where the laws know a redeal on request."""
    table = TABLES[state.rules.penalties]
    return [(player, name, redeal) for player in state.seats for name, spec in table.items()
            for redeal in ((False, True) if spec.redeal == RedealRule.OPTIONAL else (False,))]


def offered(action: dict[str, Any] | None, player: str, name: str, redeal: bool) -> bool:
    if action is None:
        return False
    if name not in action["by_player"].get(player, []):
        return False
    return not redeal or name in action["redeal"].get(player, [])


class Audit:
    """Checks the offers after every command; every refused ask is tried, and the accepted
    ones (each on a copy of the state) all of them at every `full_every`-th command, else a
    sample of `sample` (a whole session copied per ask would take minutes)."""

    def __init__(self, seed: int, *, full_every: int, sample: int):
        self.rng = random.Random(seed)
        self.full_every = full_every
        self.sample = sample
        self.steps = 0
        self.accepted = 0
        self.refused = 0

    def __call__(self, _step: Any, state: SessionState) -> None:
        self.steps += 1
        action = penalty_action(state)
        if action is not None:
            assert sorted(action["offences"]) == sorted(offences_for(state.rules))
        yes, no = [], []
        for ask in asks(state):
            (yes if offered(action, *ask) else no).append(ask)
        for player, name, redeal in no:
            version = state.version
            try:
                _, events = execute(state, cmd.ImposePenalty(player=player, offence=name,
                                                             redeal=redeal))
            except LedgerError:
                assert state.version == version
                self.refused += 1
                continue
            raise AssertionError(f"not offered but accepted: {player} {name} redeal={redeal} "
                                 f"in {state.deal and state.deal.phase}: "
                                 f"{[e.type for e in events]}")
        if self.steps % self.full_every and len(yes) > self.sample:
            yes = self.rng.sample(yes, self.sample)
        for player, name, redeal in yes:
            try:
                execute(copy.deepcopy(state), cmd.ImposePenalty(player=player, offence=name,
                                                                redeal=redeal))
            except LedgerError as error:
                raise AssertionError(f"offered but refused: {player} {name} redeal={redeal} "
                                     f"({error.rule}: {error.message})") from error
            self.accepted += 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_offence_offered_is_accepted_and_every_other_is_refused(seed):
    audit = Audit(seed, full_every=7, sample=3)
    played = play_session(RandomChooser(seed), shape=SHAPE, observer=audit)
    assert audit.steps == len(played.steps)
    assert audit.refused > 0 and audit.accepted > 0


def test_the_offer_follows_the_deal_a_misdeal_is_the_dealers_and_no_revoke_before_a_card():
    """Baxter-Wray p. 23: a misdeal is the dealer's, and only before play (it means a redeal);
    an offence in play is a standing player's; the turn-up single takes no penalty."""
    state, _ = execute(None, cmd.OpenSession(players=["A", "B", "C", "D"]))
    assert penalty_action(state) is None  # between deals
    state, _ = execute(state, cmd.StartDeal(trump_card="7H", face_up={
        "B": "2C", "C": "3C", "D": "4C", "A": "5C"}))
    assert penalty_action(state) is None  # the single settled itself: between deals again
    state, _ = execute(state, cmd.StartDeal(trump_card="3C"))
    action = penalty_action(state)
    assert action is not None
    dealer = state.deal.dealer
    assert "misdeal" in action["by_player"][dealer]
    assert all("misdeal" not in names for p, names in action["by_player"].items()
               if p != dealer)
    # before anyone declared to play, nobody stands: no revoke is offered
    assert all("revoke" not in names for names in action["by_player"].values())
    # a redeal may be asked for interference while the cards are still being declared
    assert all("interfering-with-deal" in names for names in action["redeal"].values())
    first = state.deal.dealt[0]
    state, _ = execute(state, cmd.Declare(player=first, declaration="play"))
    action = penalty_action(state)
    assert "revoke" in action["by_player"][first]
    assert all("revoke" not in names for p, names in action["by_player"].items() if p != first)
