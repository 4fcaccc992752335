"""Five-card and Irish loo logs: sessions opened before `flush_precedence` and `exchange_at`
existed keep the rules they were played under, and a correction says again what the table said
(the call, the holder of Pam) and no more (docs/rules.md §3.1, §9.3, §11.38, §11.40, §12.2).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.domain import LedgerError, build_rules, execute
from ledger.domain import commands as cmd
from ledger.domain import events as ev
from ledger.domain.corrections import client_command, correct
from ledger.domain.evolve import evolve
from ledger.domain.state import SessionState
from tests.support.sessions import SessionShape
from tests.unit.test_corrections import check_voiding

FOUR = ["A", "B", "C", "D"]


def opened_before(preset: str, variant: str, *, left_out: tuple[str, ...],
                  **changes: Any) -> SessionState:
    """A session whose stored rules lack the parameters `left_out`, as one opened before they
    existed stored them."""
    rules = build_rules(preset, {"variant": variant}).to_dict()
    for name in left_out:
        del rules[name]
    rules.update(changes)
    opened = ev.SessionOpened(name="", players=FOUR, first_dealer="A", rules=rules,
                              unit="counter", money_per_unit_minor=None, currency=None)
    return evolve(None, opened, session_id="s")


def run(state: SessionState, *commands: cmd.Command) -> tuple[SessionState, list[ev.Event]]:
    out: list[ev.Event] = []
    for command in commands:
        state, events = execute(state, command)
        out += events
    return state, out


DECLARE_ALL = (cmd.Declare("B", "play"), cmd.Declare("C", "play"), cmd.Declare("D", "play"),
               cmd.Declare("A", "play"))


def test_a_blenheim_session_opened_before_keeps_pam_before_the_elder_hand():
    state = opened_before("blenheim", "five-card", left_out=("flush_precedence",))
    assert state.rules.flush_precedence is None
    state, events = run(state, cmd.StartDeal(trump_card="2S"), *DECLARE_ALL,
                        cmd.ShowFlush(flushes={"B": ["2H", "5H", "9H", "QH", "KH"],
                                               "C": ["3D", "5D", "9D", "QD", "JC"]}))
    shown = next(e for e in events if isinstance(e, ev.FlushShown))
    assert shown.winner == "C"  # as it was played: the flush holding Pam


def test_an_irish_session_opened_before_keeps_the_exchange_open_until_the_first_card():
    state = opened_before("baxter-wray", "irish", left_out=("exchange_at",))
    state, events = run(state, cmd.StartDeal(trump_card="7H"), *DECLARE_ALL,
                        cmd.ExchangeCards(player="B", count=2))
    assert any(isinstance(e, ev.CardsExchanged) for e in events)


def test_an_enquire_within_session_opened_with_an_ante_keeps_it():
    state = opened_before("enquire-within", "five-card", left_out=(), ante=5)
    state, events = run(state, cmd.StartDeal(trump_card="7H"))
    assert state.pool_units() == 5 + 3 * 5


# ---------------------------------------------------------------- corrections


def five_card_deal(preset: str) -> list[tuple[int, ev.Event]]:
    state, opened = execute(None, cmd.OpenSession(players=FOUR, preset=preset,
                                                  rules={"variant": "five-card"},
                                                  first_dealer="A"), session_id="s")
    log = list(opened)
    for command in (cmd.StartDeal(trump_card="2S"), *DECLARE_ALL):
        state, events = execute(state, command)
        log += events
    return [(i + 1, e) for i, e in enumerate(log)]


def test_a_holder_the_table_named_is_said_again_and_one_the_cards_told_is_not():
    log = five_card_deal("blenheim")
    named = cmd.ShowFlush(flushes={"B": ["2H", "5H", "9H", "QH", "KH"]}, pam_held_by=None)
    _, events = execute(fold_log(log), named)  # execute folds the state it is given
    flush = next(e for e in events if isinstance(e, ev.FlushShown))
    assert flush.pam_named and flush.payload()["pam_named"] is True
    state = fold_log(log)
    again = client_command(flush, state)
    assert isinstance(again, cmd.ShowFlush) and again.pam_held_by is None
    shown = cmd.ShowFlush(flushes={"C": ["3D", "5D", "9D", "QD", "JC"]})
    _, events = execute(fold_log(log), shown)
    flush = next(e for e in events if isinstance(e, ev.FlushShown))
    assert flush.pam_held_by == "C" and not flush.pam_named
    assert "pam_named" not in flush.payload()
    again = client_command(flush, state)
    assert isinstance(again, cmd.ShowFlush) and again.pam_held_by is cmd.UNSAID


def test_an_ace_led_without_a_call_before_the_table_was_asked_is_corrected_as_no_call():
    # A log written before the call was asked: the ace of trumps led bare, Pam out.
    log = five_card_deal("baxter-wray")
    state = fold_log(log)
    bare = ev.CardPlayed(deal_no=1, player="B", card="AS", trick=1, replay=False)
    with pytest.raises(LedgerError) as err:
        execute(state, cmd.PlayCard(player="B", card="AS"))  # refused today, unsaid
    assert err.value.rule == "pam-call"
    log.append((len(log) + 1, bare))
    again = client_command(bare, state)
    assert isinstance(again, cmd.PlayCard) and again.call == "none"
    # void a declaration before it: the tail, the bare ace with it, is decided anew
    state, events = correct(log, voids=[log[-2][0]],
                            replacements=[cmd.Declare(player="A", declaration="play")],
                            reason="A said play", authorised_by="T", session_id="s")
    replayed = [e for e in events if isinstance(e, ev.CardPlayed)]
    assert [(e.card, e.call) for e in replayed] == [("AS", "none")]


def fold_log(log: list[tuple[int, ev.Event]]) -> SessionState:
    state: SessionState | None = None
    for _, event in log:
        state = evolve(state, event, session_id="s")
    assert state is not None
    return state


FIVE_CARD = SessionShape(min_deals=1, max_deals=5, variants=("five-card",),
                         p_stacked_flush=0.4, p_stacked_civil=0.6)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_voiding_an_entry_of_a_five_card_session_follows_what_the_table_said(data):
    """A correction decides the tail anew as the table entered it: refused exactly when the
    entries, without the voided one, cannot be logged (tests/unit/test_corrections.py)."""
    check_voiding(data, FIVE_CARD)
