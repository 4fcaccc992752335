"""The tins: where a night's cash is counted (docs/books.md, "The cash check").

Pure Python. A tin is one session's (its own float, counts and booked differences) or one
evening's: the sessions that joined an evening (`SessionJoinedEvening`, an evening named by
its date) share its tin, its float, its counts and its differences. A session's cash is in
one tin: a session that joined an evening has no tin of its own.

`Tin.of` folds the book log's live entries (a reversed entry, and a reversal, no longer
count) into the tin; `evening_check` counts an evening's tin against its float, what its
sessions took and paid out in cash and what is left in their pools (the same
`cash_check` as a session's tin).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .accounts import cash_check, cash_moves
from .bookentries import (
    BookEntry,
    CashCounted,
    CashDifferenceBooked,
    EntryReversed,
    FloatOpened,
    PaymentRecorded,
    SessionJoinedEvening,
)

# (seq, recorded at, entry): a book entry as the log holds it
Recorded = tuple[int, datetime, BookEntry]


def live(entries: Iterable[Recorded]) -> list[Recorded]:
    """The entries that still count: neither reversed nor a reversal."""
    entries = list(entries)
    undone = {e.reverses for _, _, e in entries if isinstance(e, EntryReversed)}
    return [(seq, at, e) for seq, at, e in entries
            if seq not in undone and not isinstance(e, EntryReversed)]


def evening_of(entries: Iterable[Recorded], session_id: str) -> str | None:
    """The evening whose tin holds the session's cash (None: its own tin); `entries` live."""
    found = None
    for _, _, e in entries:
        if isinstance(e, SessionJoinedEvening) and e.session_id == session_id:
            found = e.evening
    return found


@dataclass
class Tin:
    """One tin's entries, in the order they were recorded."""

    session_id: str | None = None
    evening: str | None = None
    sessions: list[str] = field(default_factory=list)  # an evening's, in the order they joined
    currency: str | None = None  # an evening's: its first float's or first session's
    floats: list[FloatOpened] = field(default_factory=list)
    counts: list[tuple[datetime, CashCounted]] = field(default_factory=list)
    booked: list[CashDifferenceBooked] = field(default_factory=list)

    @classmethod
    def of(cls, entries: Iterable[Recorded], *, session_id: str | None = None,
           evening: str | None = None) -> Tin:
        """The tin of the session or of the evening, from the live entries."""
        tin = cls(session_id=session_id, evening=evening)
        for _, at, e in entries:
            if isinstance(e, SessionJoinedEvening):
                if evening is not None and e.evening == evening:
                    tin.sessions.append(e.session_id)
                    tin.currency = tin.currency or e.currency
                continue
            if not isinstance(e, FloatOpened | CashCounted | CashDifferenceBooked) \
                    or (e.session_id, e.evening) != (session_id, evening):
                continue
            if isinstance(e, FloatOpened):
                tin.floats.append(e)
                tin.currency = tin.currency or e.currency
            elif isinstance(e, CashCounted):
                tin.counts.append((at, e))
            else:
                tin.booked.append(e)
        return tin

    @property
    def used(self) -> bool:
        """Anything recorded for this tin (a float, a count, a difference)."""
        return bool(self.floats or self.counts or self.booked)


@dataclass(frozen=True)
class TinSession:
    """What one of an evening's sessions brings to its tin."""

    session_id: str
    name: str
    pools_minor: int  # what is still in its pools, in money
    payments: Sequence[PaymentRecorded]  # the payments recorded against it


def evening_check(tin: Tin, sessions: Sequence[TinSession]) -> dict[str, Any]:
    """The evening's tin: each session's cash in and out and what is left in its pools,
    the float, and the cash check (null until the tin is counted): expected = the float +
    the pools + the cash paid to the club against the evening's sessions - the cash the club
    paid out of the tin against them; the difference counted - expected, and what of it is
    booked."""
    currency = tin.currency or ""
    rows = []
    for s in sessions:
        paid_in, paid_out = cash_moves(s.payments, currency)
        rows.append({"session_id": s.session_id, "session_name": s.name,
                     "pools_minor": s.pools_minor, "cash_paid_in_minor": paid_in,
                     "cash_paid_out_minor": paid_out})
    check = cash_check(tin.counts, pools_minor=sum(s.pools_minor for s in sessions),
                       currency=currency,
                       payments=[p for s in sessions for p in s.payments],
                       floats=tin.floats, booked=tin.booked)
    return {"evening": tin.evening, "currency": tin.currency, "sessions": rows,
            "float_minor": sum(f.amount_minor for f in tin.floats if f.currency == currency),
            "floats": len(tin.floats), "cash": check}


def by_session(payments: Iterable[PaymentRecorded]) -> Mapping[str, list[PaymentRecorded]]:
    """The payments recorded against each session."""
    out: dict[str, list[PaymentRecorded]] = {}
    for p in payments:
        if p.session_id is not None:
            out.setdefault(p.session_id, []).append(p)
    return out
