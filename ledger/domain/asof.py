"""A session as it stood at an earlier version of its log, without folding the whole log.

The state at version v is the fold of the live events of the log's first v events
(corrections.live_events; docs/rules.md §12.3). It is found from the nearest stored snapshot
s <= v (the state at s), folding the events (s, v] onto it; where a correction c lies in
(s, v], the events before it after its `rewound_to` no longer count, so the state at v is the
state at `rewound_to` (found the same way) with the events c..v folded onto it. A snapshot of a
prefix never goes stale: the log is append-only.

    state = state_at(40, snapshot=..., events=..., last_correction=..., session_id="s1")

The three lookups are the store's (or a list's, in tests and in verify):
`snapshot(v)` the nearest (version, state dict) at or below v, or None;
`events(lo, hi)` the events with lo < version <= hi, in version order;
`last_correction(lo, hi)` the (version, rewound_to) of the last EntryCorrected with
lo < version <= hi, or None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import events as ev
from .errors import InvariantBroken
from .evolve import evolve
from .state import SessionState

Snapshot = Callable[[int], tuple[int, dict[str, Any]] | None]
Events = Callable[[int, int], Sequence[tuple[int, ev.Event]]]
LastCorrection = Callable[[int, int], tuple[int, int] | None]


def state_at(version: int, *, snapshot: Snapshot, events: Events,
             last_correction: LastCorrection, session_id: str = "") -> SessionState:
    """The session's state at `version` of its log (1 <= version <= the log's last)."""
    found = snapshot(version)
    base_version, base = (found[0], SessionState.from_dict(found[1])) if found else (0, None)
    if base is not None and base_version == version:
        return base
    corrected = last_correction(base_version, version)
    state: SessionState | None
    if corrected is not None:
        at, rewound_to = corrected
        if not 1 <= rewound_to < at:
            raise InvariantBroken(f"the correction at version {at} rewinds to {rewound_to}")
        state = state_at(rewound_to, snapshot=snapshot, events=events,
                         last_correction=last_correction, session_id=session_id)
        start = at - 1
    else:
        state, start = base, base_version
    for _, event in events(start, version):
        state = evolve(state, event, session_id=session_id)
    if state is None or state.version != version:
        raise InvariantBroken(f"folding to version {version} gave version "
                              f"{None if state is None else state.version}")
    return state


def in_memory(log: Sequence[tuple[int, ev.Event]],
              snapshots: dict[int, dict[str, Any]] | None = None
              ) -> tuple[Snapshot, Events, LastCorrection]:
    """The three lookups over a whole log held in memory (versions 1..N in order) and a map
    of snapshots {version: state dict}."""
    stored = dict(snapshots or {})
    ordered = sorted(stored)

    def snapshot(v: int) -> tuple[int, dict[str, Any]] | None:
        below = [s for s in ordered if s <= v]
        return (below[-1], stored[below[-1]]) if below else None

    def events(lo: int, hi: int) -> Sequence[tuple[int, ev.Event]]:
        return log[lo:hi]  # versions are 1..N: version v is at index v - 1

    def last_correction(lo: int, hi: int) -> tuple[int, int] | None:
        for v, e in reversed(log[lo:hi]):
            if isinstance(e, ev.EntryCorrected):
                return v, e.rewound_to
        return None

    return snapshot, events, last_correction


def snapshot_due(old_version: int, new_version: int, every: int) -> bool:
    """Whether an append from old_version to new_version crosses a multiple of `every`: the
    state at new_version is then kept as a snapshot."""
    return every > 0 and new_version // every > old_version // every
