"""A session's result on the club's books, kept as it was posted (docs/books.md, "Corrections
that keep the past").

A session posts its result when it ends. A write that changes the result afterwards (a
correction of a deal, an undo that reopens the session, the end logged again) never rewrites
what was posted: it posts the difference, per seat, at its own time: the session's result
as it now stands minus the sum of the lines posted so far. A correction's difference is an
adjustment naming its `EntryCorrected` (the version) and carrying its reason. So the books at
any earlier time read what they read then, and a session's lines always sum to its result as
it stands (to nothing while it is open).

    lines = post([], ended, at=t0, version=12, correction=None)          # the result
    lines = post(lines, corrected, at=t1, version=30, correction=(13, marker))

One function for the live append and for a rebuild from the log (ledger/projections.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime

from . import events as ev
from .accounts import SessionResult
from .errors import InvariantBroken

# The figures a line carries, as differences; net_minor beside them (None for counters).
COUNTED = ("net_units", "deals_dealt", "loos", "loo_units", "penalties", "penalty_units",
           "sessions")


FIGURES = (*COUNTED, "net_minor")


def _figures(result: SessionResult | None) -> dict[str, int]:
    """A result's figures (all zero for none)."""
    if result is None:
        return dict.fromkeys(FIGURES, 0)
    return {**{name: getattr(result, name) for name in COUNTED},
            "net_minor": result.net_minor or 0}


def _sums(lines: Sequence[SessionResult]) -> dict[str, dict[str, int]]:
    """Per seat, each figure summed over its posted lines."""
    out: dict[str, dict[str, int]] = {}
    for line in lines:
        seat = out.setdefault(line.seat, _figures(None))
        for name, value in _figures(line).items():
            seat[name] += value
    return out


def post(lines: Sequence[SessionResult], now: Sequence[SessionResult], *, at: datetime,
         version: int, correction: tuple[int, ev.EntryCorrected] | None
         ) -> list[SessionResult]:
    """The lines posted so far and, per seat whose figures `now` (the session's results as
    they stand after the write at `at`, ending at `version`; empty while it is open) differ
    from their sum, a line of the difference: an adjustment when the write was a
    `correction` ((its version, its event)), else a result."""
    posted = _sums(lines)
    current = {r.seat: r for r in now}
    out = list(lines)
    for seat in [*current, *(s for s in posted if s not in current)]:
        before, after = posted.get(seat, _figures(None)), _figures(current.get(seat))
        change = {name: after[name] - before[name] for name in FIGURES}
        if not any(change.values()):
            continue
        model = current.get(seat) or next(r for r in lines if r.seat == seat)
        out.append(dataclasses.replace(
            model, net_units=change["net_units"], deals_dealt=change["deals_dealt"],
            loos=change["loos"], loo_units=change["loo_units"], penalties=change["penalties"],
            penalty_units=change["penalty_units"], sessions=change["sessions"],
            net_minor=None if model.net_minor is None else change["net_minor"],
            posted_at=at, version=version,
            corrected_by=correction[0] if correction else None,
            reason=correction[1].reason if correction else None))
    # the lines of a seat sum to its result as it stands: nothing lost, nothing twice
    sums = _sums(out)
    if any(sums[seat] != _figures(current.get(seat)) for seat in sums):
        raise InvariantBroken("a session's posted lines do not sum to its result")
    return out


def labelled(lines: Sequence[SessionResult], members: Mapping[str, str | None],
             session_name: str) -> list[SessionResult]:
    """Every line under the seat's member and the session's name as they stand now (a
    session attached to its club after it ended is the club's from its first line)."""
    return [dataclasses.replace(line, member_id=members.get(line.seat),
                                session_name=session_name) for line in lines]
