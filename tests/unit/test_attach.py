"""A session from before clubs brought into a club (ledger/domain/seating.py `attach`):
once, every seat a member, kept through corrections and never undone as a table's entry."""

from __future__ import annotations

import pytest

from ledger.domain import InvalidInput, OutOfTurn, execute
from ledger.domain.commands import AttachToClub, EndSession, OpenSession, StartDeal
from ledger.domain.corrections import CorrectionRefused, correct, last_entry

SEATS = {"Ann": "m-ann", "Bob": "m-bob", "Cal": "m-cal"}


def played() -> list[tuple[int, object]]:
    """Opened without a club, one deal started, then attached: the versioned log."""
    log = []
    state, events = execute(None, OpenSession(players=list(SEATS), preset="cassell"))
    log += events
    state, events = execute(state, StartDeal(trump_card="7H"))
    log += events
    state, events = execute(state, AttachToClub(club_id="club", members=SEATS))
    log += events
    return [(i + 1, e) for i, e in enumerate(log)]


def test_attaching_seats_every_player_as_his_member_and_changes_no_money():
    state, _ = execute(None, OpenSession(players=list(SEATS), preset="baxter-wray"))
    balances, version = dict(state.balances), state.version
    after, events = execute(state, AttachToClub(club_id="club", members=SEATS))
    assert [e.type for e in events] == ["SessionAttached"]
    assert after.members == SEATS and after.balances == balances
    assert after.version == version + 1


@pytest.mark.parametrize("members", [
    {"Ann": "m-ann", "Bob": "m-bob"},  # a seat left out
    {**SEATS, "Dan": "m-dan"},  # a name that is no seat
    {**SEATS, "Cal": ""},  # a seat without its member
])
def test_every_seat_and_only_the_seats_are_members(members):
    state, _ = execute(None, OpenSession(players=list(SEATS)))
    with pytest.raises(InvalidInput) as refused:
        execute(state, AttachToClub(club_id="club", members=members))
    assert refused.value.rule == "club-member"


def test_a_session_is_attached_once_and_not_to_a_second_club_even_after_it_ended():
    state, _ = execute(None, OpenSession(players=list(SEATS)))
    state, _ = execute(state, EndSession(method="divide-pool"))
    state, _ = execute(state, AttachToClub(club_id="club", members=SEATS))
    for club in ("club", "another"):
        with pytest.raises(OutOfTurn) as refused:
            execute(state, AttachToClub(club_id=club, members=SEATS))
        assert refused.value.rule == "attached-once"


def test_an_undo_after_the_attachment_voids_the_table_entry_and_keeps_the_club():
    log = played()
    assert last_entry(log) == 2  # the deal, not the club's record
    state, events = correct(log, voids=[2], reason="wrong card", authorised_by="Tess")
    assert [e.type for e in events] == ["EntryCorrected", "SessionAttached"]
    assert state.members == SEATS and state.deal_no == 0
    with pytest.raises(CorrectionRefused) as refused:
        correct(log, voids=[3], reason="not the club's", authorised_by="Tess")
    assert refused.value.rule == "correction-voids"
