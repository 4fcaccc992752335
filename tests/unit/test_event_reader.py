"""Reading the log back: every event from its stored record, and the fold of a whole log to
its projections, held to golden streams (tests/golden, tests/support/golden.py) and to
random sessions; a payload that does not read, or a posting that does not balance, is
refused."""

from __future__ import annotations

import dataclasses

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.domain import InvariantBroken, statement
from ledger.domain import events as ev
from ledger.domain.corrections import live_events
from ledger.domain.events import EVENT_TYPES, event_from_record, event_to_record, upcast
from ledger.domain.evolve import evolve
from ledger.domain.rules import build_rules
from ledger.domain.state import SessionState, plain
from tests.support.golden import SESSIONS, load
from tests.support.projected import fold_with_views
from tests.support.sessions import VARIANT_NAMES, DrawChooser, SessionShape, play_session


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_golden_log_reads_back_and_folds_to_its_recorded_projections(name):
    golden = load(name)
    log = []
    for version, (type_, schema_version, payload) in enumerate(golden["events"], start=1):
        event = event_from_record(type_, schema_version, payload)
        # a record of an older shape (a join before it named a member) reads as its upcast
        current = EVENT_TYPES[type_].schema_version
        assert list(event_to_record(event)) == [
            type_, current, upcast(EVENT_TYPES[type_], schema_version, payload)], version
        log.append((version, event))
    state, views = fold_with_views((e for _, e in live_events(log)), golden["session_id"])
    assert plain(state) == golden["state"]
    assert {str(n): v for n, v in views.items()} == golden["views"]
    assert plain(statement(state)) == golden["statement"]
    assert SessionState.from_dict(golden["state"]).to_dict() == golden["state"]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_every_event_of_a_random_session_reads_back_as_it_was_decided(data):
    shape = SessionShape(min_deals=1, max_deals=8, variants=VARIANT_NAMES)
    state = None
    for event in play_session(DrawChooser(data.draw), shape=shape).events:
        type_, schema_version, payload = event_to_record(event)
        again = event_from_record(type_, schema_version,
                                  orjson.loads(orjson.dumps(payload)))  # as the store gives it
        assert again == event and type(again) is type(event)
        assert event_to_record(again) == (type_, schema_version, payload)
        state = evolve(state, again, session_id="s")
    assert state is not None and sum(state.balances.values()) == 0


def test_a_payload_without_a_required_field_does_not_read():
    payload = {"deal_no": 1, "player": "A", "card": "7H", "trick": 1}  # no "replay"
    with pytest.raises(InvariantBroken, match="CardPlayed event lacks replay"):
        event_from_record("CardPlayed", 1, payload)


def test_unknown_keys_are_left_out_and_defaults_are_fresh_for_each_event():
    payload = {"deal_no": 1, "player": "A", "card": "7H", "trick": 1, "replay": False,
               "later": "ignored"}
    event = event_from_record("CardPlayed", 1, payload)
    assert event == ev.CardPlayed(deal_no=1, player="A", card="7H", trick=1, replay=False)
    assert "later" not in vars(event) and event.call is None
    started = {"deal_no": 1, "dealer": "A", "kind": "hand", "trump_card": "7H",
               "dealt": ["A", "B"], "fresh": True, "forced": None, "miss": False,
               "redeal": False}
    one, two = (event_from_record("DealStarted", 1, dict(started)) for _ in range(2))
    assert one.face_up == {} and one.postings == []  # type: ignore[attr-defined]
    assert one.face_up is not two.face_up  # type: ignore[attr-defined]
    assert one.postings is not two.postings  # type: ignore[attr-defined]
    assert one == ev.DealStarted(deal_no=1, dealer="A", kind=ev.DealKind.HAND,
                                 trump_card="7H", dealt=["A", "B"], fresh=True, forced=None,
                                 miss=False, redeal=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.deal_no = 2  # type: ignore[misc]


def _opened() -> SessionState:
    return evolve(None, ev.SessionOpened(
        name="t", players=["A", "B", "C"], first_dealer="A", rules=build_rules().to_dict(),
        unit="penny", money_per_unit_minor=None, currency=None), session_id="s")


@pytest.mark.parametrize("postings", [
    [{"from": "A", "to": "pool", "amount_units": 0, "reason": "deal"}],
    [{"from": "A", "to": "pool", "amount_units": -3, "reason": "deal"}],
    [{"from": "A", "to": "pool", "amount_units": True, "reason": "deal"}],
    [{"from": "A", "to": "pool", "amount_units": "3", "reason": "deal"}],
    [{"from": "A", "to": "pool", "amount_units": 2.0, "reason": "deal"}],
    [{"from": "A", "to": "pool", "amount_units": 1, "reason": "deal"},
     {"from": "B", "to": "B", "amount_units": 1, "reason": "deal"}],
])
def test_a_posting_that_is_not_a_positive_whole_movement_is_refused(postings):
    event = ev.SessionEnded(method=ev.EndMethod.DIVIDE_POOL, postings=postings)  # type: ignore[attr-defined]
    state = _opened()
    with pytest.raises(InvariantBroken, match="posting"):
        evolve(state, event, session_id="s")


@pytest.mark.parametrize("postings", [
    [{"from": "A", "to": "pool", "reason": "deal"}],
    [{"from": "A", "to": "Zed", "amount_units": 1, "reason": "deal"}],
    [{"from": "Zed", "to": "pool", "amount_units": 1, "reason": "deal"}],
])
def test_a_posting_to_or_from_no_account_is_refused(postings):
    event = ev.SessionEnded(method=ev.EndMethod.DIVIDE_POOL, postings=postings)  # type: ignore[attr-defined]
    with pytest.raises(InvariantBroken, match="posting"):
        evolve(_opened(), event, session_id="s")
