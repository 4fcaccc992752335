"""The tins in memory (docs/books.md, "The cash check"): an evening's tin folds the entries
of its sessions, its floats, counts and differences; a reversed entry no longer counts."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ledger.domain import InvalidInput
from ledger.domain.bookentries import (
    CLUB,
    CashCounted,
    CashDifferenceBooked,
    Difference,
    EntryReversed,
    FloatOpened,
    PaymentMethod,
    PaymentRecorded,
    SessionJoinedEvening,
    reversal_of,
)
from ledger.domain.errors import InvariantBroken
from ledger.domain.tins import Tin, TinSession, evening_check, evening_of, live

NIGHT = "2026-11-26"


def at(minute: int) -> datetime:
    return datetime(2026, 11, 26, 19, minute, tzinfo=UTC)


def cash(payer: str, payee: str, amount: int, session_id: str,
         method: PaymentMethod = PaymentMethod.CASH) -> PaymentRecorded:
    return PaymentRecorded(payer=payer, payee=payee, amount_minor=amount, currency="GBP",
                           method=method, session_id=session_id)


def test_an_evenings_tin_counts_its_float_and_its_sessions_cash_against_the_count():
    join_b = SessionJoinedEvening(session_id="b", evening=NIGHT, currency="GBP")
    log = [(1, at(0), FloatOpened(evening=NIGHT, amount_minor=500, currency="GBP")),
           (2, at(1), SessionJoinedEvening(session_id="a", evening=NIGHT, currency="GBP")),
           (3, at(2), join_b),
           (4, at(3), SessionJoinedEvening(session_id="c", evening="2026-11-27",
                                           currency="GBP")),
           (5, at(4), FloatOpened(session_id="a", amount_minor=7, currency="GBP")),
           (6, at(50), CashCounted(evening=NIGHT, counted_minor=420, currency="GBP")),
           (7, at(51), CashDifferenceBooked(evening=NIGHT, difference=Difference.SHORTAGE,
                                            amount_minor=5, currency="GBP", account=CLUB,
                                            reason="short"))]
    tin = Tin.of(live(log), evening=NIGHT)
    assert (tin.sessions, tin.currency, len(tin.floats), len(tin.counts), len(tin.booked)) \
        == (["a", "b"], "GBP", 1, 1, 1)
    sessions = [TinSession("a", "A", 0, [cash("ann", CLUB, 40, "a"),
                                          cash("cal", CLUB, 10, "a", PaymentMethod.TRANSFER)]),
                TinSession("b", "B", 30, [cash(CLUB, "gus", 100, "b")])]
    out = evening_check(tin, sessions)
    # 500 + pools 30 + 40 in - 100 out = 470; counted 420: 50 short, 5 booked
    assert [(s["cash_paid_in_minor"], s["cash_paid_out_minor"]) for s in out["sessions"]] \
        == [(40, 0), (0, 100)]
    assert out["cash"] is not None
    assert (out["cash"]["expected_minor"], out["cash"]["difference_minor"],
            out["cash"]["unbooked_minor"]) == (470, -50, -45)
    # the join of b reversed: b is out of the evening, its cash no longer counts there
    undone = log + [(8, at(52), reversal_of(join_b, 3, "b kept its own tin"))]
    assert Tin.of(live(undone), evening=NIGHT).sessions == ["a"]
    assert evening_of(live(undone), "b") is None and evening_of(live(log), "b") == NIGHT
    assert not any(isinstance(e, EntryReversed) for _, _, e in live(undone))


def test_an_evening_is_a_calendar_date_and_a_tin_is_a_sessions_or_an_evenings():
    for bad in ("2026-02-30", "2026-1-5", "26/11/2026", 20261126):
        with pytest.raises(InvalidInput) as refused:
            FloatOpened(evening=bad, amount_minor=1, currency="GBP")  # type: ignore[arg-type]
        assert refused.value.rule == "evening"
    for both in ({"session_id": "a", "evening": NIGHT}, {}):
        with pytest.raises(InvariantBroken):
            CashCounted(counted_minor=0, currency="GBP", **both)
    # a session's entries keep the payload they always had; an evening's names it
    assert "evening" not in FloatOpened(session_id="a", amount_minor=1,
                                        currency="GBP").to_payload()
    assert FloatOpened(evening=NIGHT, amount_minor=1, currency="GBP").to_payload()[
        "evening"] == NIGHT
