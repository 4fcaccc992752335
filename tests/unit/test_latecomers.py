"""Every seat is someone's (ledger/domain/seating.py `join` and `attach_latecomers`): a join in
a club records the aftercomer's member; a seat of an aftercomer who joined before a join named
his member is attached once, to a member seated nowhere else, kept through corrections and
never undone as a table's entry."""

from __future__ import annotations

import pytest

from ledger.domain import InvalidInput, execute
from ledger.domain.commands import (
    AttachLatecomers,
    EndSession,
    JoinPlayer,
    OpenSession,
    StartDeal,
)
from ledger.domain.corrections import CorrectionRefused, correct, last_entry

SEATS = {"Ann": "m-ann", "Bob": "m-bob", "Cal": "m-cal"}


def opened():
    state, _ = execute(None, OpenSession(players=list(SEATS), members=SEATS,
                                         preset="cassell"))
    return state


def test_a_join_that_names_his_member_seats_him_as_that_member():
    state, events = execute(opened(), JoinPlayer(player="Dan", after="Cal", member="m-dan"))
    assert [(e.type, e.member) for e in events] == [("PlayerJoined", "m-dan")]
    assert state.members == {**SEATS, "Dan": "m-dan"}


def test_a_member_seated_already_does_not_join_under_another_name():
    with pytest.raises(InvalidInput) as refused:
        execute(opened(), JoinPlayer(player="Robert", after="Cal", member="m-bob"))
    assert (refused.value.rule, refused.value.field) == ("players", "player")


def old_join() -> list[tuple[int, object]]:
    """A join before it named the member, a deal, then the upgrade's attachment."""
    log = []
    state = None
    for command in (OpenSession(players=list(SEATS), members=SEATS, preset="cassell"),
                    JoinPlayer(player="Dan", after="Cal"), StartDeal(trump_card="7H"),
                    AttachLatecomers(members={"Dan": "m-dan"})):
        state, events = execute(state, command)
        log += events
    return [(i + 1, e) for i, e in enumerate(log)]


def test_the_upgrade_attaches_the_seats_that_name_no_member_and_changes_no_money():
    state, _ = execute(opened(), JoinPlayer(player="Dan", after="Cal"))
    state, _ = execute(state, EndSession(method="divide-pool"))
    balances = dict(state.balances)
    after, events = execute(state, AttachLatecomers(members={"Dan": "m-dan", "Ann": "m-x"}))
    assert [(e.type, e.members) for e in events] == [("LatecomersAttached", {"Dan": "m-dan"})]
    assert after.members == {**SEATS, "Dan": "m-dan"} and after.balances == balances
    again, events = execute(after, AttachLatecomers(members={"Dan": "m-dan"}))
    assert events == [] and again.version == after.version  # once


@pytest.mark.parametrize("members", [{"Dan": "m-ann"}, {"Dan": ""}])
def test_a_latecomers_seat_is_attached_to_a_member_seated_nowhere_else(members):
    state, _ = execute(opened(), JoinPlayer(player="Dan", after="Cal"))
    with pytest.raises(InvalidInput) as refused:
        execute(state, AttachLatecomers(members=members))
    assert refused.value.rule == "club-member"


def test_an_undo_after_the_attachment_keeps_it_and_it_is_never_voided():
    log = old_join()
    assert last_entry(log) == 3  # the deal, not the club's record
    state, events = correct(log, voids=[3], reason="wrong card", authorised_by="Tess")
    assert [e.type for e in events] == ["EntryCorrected", "LatecomersAttached"]
    assert state.members == {**SEATS, "Dan": "m-dan"}
    with pytest.raises(CorrectionRefused) as refused:
        correct(log, voids=[4], reason="not the club's", authorised_by="Tess")
    assert refused.value.rule == "correction-voids"
    state, events = correct(log, voids=[2], reason="Dan never came", authorised_by="Tess")
    assert "Dan" not in state.seats and "Dan" not in state.members  # nothing to attach
    assert [e.type for e in events] == ["EntryCorrected", "DealStarted"]
