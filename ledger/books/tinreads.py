"""Reading the tins (docs/books.md, "The cash check"): a session's cash check, an evening's
tin, and the tins last counted for the club's page; now or as of a point.

The book log's entries of the tins (floats, counts, differences, sessions joining an
evening, reversals) are read and folded by ledger/domain/tins.py; the payments only when a
tin was counted or an evening is read. A session is read as its log stood at the cut.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from ledger.books.reads import NOW, Cut
from ledger.domain import SessionState
from ledger.domain import accounts as bk
from ledger.domain import bookentries as be
from ledger.domain.currencies import UNITS
from ledger.domain.tins import Recorded, Tin, TinSession, by_session, evening_check, live
from ledger.sessions import history
from ledger.store import booklog as store
from ledger.store import queries
from ledger.store.chain import as_utc

TIN_TYPES = (be.SessionJoinedEvening.type, be.FloatOpened.type, be.CashCounted.type,
             be.CashDifferenceBooked.type, be.EntryReversed.type)


def tin_entries(conn: Connection, club_id: str, cut: Cut = NOW, *,
                payments: bool = False) -> list[Recorded]:
    """The live entries of the club's tins up to the cut (with its payments if asked)."""
    types = (*TIN_TYPES, be.PaymentRecorded.type) if payments else TIN_TYPES
    return live((r.seq, as_utc(r.recorded_at),
                 be.entry_from_record(r.type, r.schema_version, r.payload))
                for r in store.entries(conn, club_id, types=types, up_to=cut.seq))


def session_currency(state: SessionState) -> str:
    """The currency of a session's cash: its money's, or units for counters."""
    return state.currency if state.money_per_unit_minor is not None and state.currency \
        else UNITS


def payments_of(entries: list[Recorded]) -> dict[str, list[be.PaymentRecorded]]:
    return dict(by_session(e for _, _, e in entries if isinstance(e, be.PaymentRecorded)))


def session_cash(conn: Connection, club_id: str, state: SessionState, cut: Cut = NOW
                 ) -> dict[str, Any] | None:
    """The cash check of a session's own tin (None while it was never counted)."""
    return session_tin(conn, club_id, state, cut)[0]


def session_tin(conn: Connection, club_id: str, state: SessionState, cut: Cut = NOW
                ) -> tuple[dict[str, Any] | None, str | None]:
    """(the cash check of the session's own tin, None while it was never counted; the
    evening whose tin holds its cash instead, None when it joined none)."""
    entries = tin_entries(conn, club_id, cut)
    evening = next((e.evening for _, _, e in entries if isinstance(e, be.SessionJoinedEvening)
                    and e.session_id == state.session_id), None)
    if not Tin.of(entries, session_id=state.session_id).counts:
        return None, evening  # most statements: nothing more is read
    return _session_check(state, tin_entries(conn, club_id, cut, payments=True)), evening


def _session_check(state: SessionState, entries: list[Recorded]) -> dict[str, Any] | None:
    tin = Tin.of(entries, session_id=state.session_id)
    return bk.cash_check(tin.counts, pools_minor=bk.pools_minor(state),
                         currency=session_currency(state),
                         payments=payments_of(entries).get(state.session_id, ()),
                         floats=tin.floats, booked=tin.booked)


def state_at(conn: Connection, club_id: str, session_id: str, cut: Cut
             ) -> SessionState | None:
    """The session as its log stood at the cut (None: not the club's)."""
    row = queries.load_session(conn, session_id, club_id=club_id)
    if row is None:
        return None
    if cut.at is None:
        return SessionState.from_dict(row.state)
    return history.state_at(conn, session_id,
                            queries.version_at(conn, session_id, cut.at, club_id=club_id),
                            club_id=club_id)


def evening(conn: Connection, club_id: str, evening: str, cut: Cut = NOW,
            entries: list[Recorded] | None = None) -> dict[str, Any]:
    """The evening's tin at the cut: its sessions, its float and its cash check."""
    if entries is None:
        entries = tin_entries(conn, club_id, cut, payments=True)
    tin = Tin.of(entries, evening=evening)
    payments = payments_of(entries)
    sessions = []
    for session_id in tin.sessions:
        state = state_at(conn, club_id, session_id, cut)
        if state is not None:
            sessions.append(TinSession(session_id, state.name, bk.pools_minor(state),
                                       payments.get(session_id, [])))
    return {**evening_check(tin, sessions), **cut.echo()}


def cash_checks(conn: Connection, club_id: str, cut: Cut, *, limit: int = 20
                ) -> list[dict[str, Any]]:
    """The cash checks of the last `limit` tins counted, the latest first: a session's
    (`session_id`) or an evening's (`evening`, with `session_name` "evening of <date>")."""
    counted = [(e.session_id, e.evening) for _, _, e in tin_entries(conn, club_id, cut)
               if isinstance(e, be.CashCounted)]
    if not counted:  # no tin counted: the payments are not read at all
        return []
    entries = tin_entries(conn, club_id, cut, payments=True)
    out = []
    for session_id, night in list(dict.fromkeys(reversed(counted)))[:limit]:
        if night is not None:
            check = evening(conn, club_id, night, cut, entries)["cash"]
            name = f"evening of {night}"
        else:
            assert session_id is not None
            state = state_at(conn, club_id, session_id, cut)
            if state is None:
                continue
            check, name = _session_check(state, entries), state.name
        if check is not None:
            out.append({"session_id": session_id, "session_name": name, "evening": night,
                        **check})
    return out
