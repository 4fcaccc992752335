"""What a session's log makes, and the checks that it still does.

Beside each session's log the store keeps its projections: the folded state (`sessions`),
each deal's view as it last stood (`deal_views`), the state at every SNAPSHOT_EVERY-th
version (`snapshots`, for reads as of a version) and, once the session has ended, each
seat's result (`session_results`, for the club's books). This module is the one place that
says what they are:

- `Folding`: evolve, keeping each deal's view as it stood when it was last the current deal.
  The live append folds its new events through it (`execute(..., fold=...)`), and so does
  every rebuild: the views an append writes are the views a rebuild writes.
- `fold_log(rows)`: a session's stored rows checked (versions 1..N, positions in order, the
  hash chain: ledger/store/chain.py) and folded, live events only (docs/rules.md §12), with
  the views, the snapshots and the results they make.
- `verify(store, first, last)` and `rebuild(store, first, last)`: every session whose id is
  in [first, last] folded from its log, compared with (or written over) what is stored. One
  session is the range [id, id]; `lanterloo verify --all` and `rebuild --all` run the same
  code over chunks of sessions in parallel (ledger/operations/bulk.py), and `copy` rebuilds with it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Connection, Text, cast, select

from ledger.domain import Event, SessionState, adjustments, asof, event_from_record
from ledger.domain.accounts import RESULT_EVENT_TYPES, SessionResult, session_results
from ledger.domain.corrections import live_events
from ledger.domain.errors import InvariantBroken
from ledger.domain.events import EntryCorrected, SessionAttached
from ledger.domain.evolve import evolve
from ledger.domain.execution import deal_view_fields
from ledger.domain.state import to_json
from ledger.domain.vocabulary import Status
from ledger.kept import (
    Answer,
    answer_problems,
    answer_view,
    answered_versions,
    missing_snapshots,
)
from ledger.store import clublog
from ledger.store.base import EventRow, Rebuilt, Store, Tx
from ledger.store.chain import GENESIS, as_utc, session_genesis, utc_iso, walk
from ledger.store.tables import deal_views, sessions, snapshots
from ledger.store.tables import session_results as results_table

# An append that crosses a multiple of this version keeps the state as a snapshot, so a read
# as of any version folds at most about this many events (docs/explain.md).
SNAPSHOT_EVERY = 100

# The form the projections are written in, stored with each session (`sessions.shape`).
# Raise it with any change to what a projection holds: sessions of an older form are then
# rebuilt from their logs by `lanterloo migrate` (`rebuild_stale`), `lanterloo rebuild`, or
# before they are next written (ledger/sessions/service.py); a read never writes: it answers
# from the log as it folds (ledger/sessions/reads.py). 0: written before forms were recorded.
SHAPE = 2  # 2: a session's results as lines posted over time (migration 0012)


def deal_view_json(state: SessionState) -> str:
    """The deal view's JSON, written from the state's own values (no copy of them first)."""
    view = deal_view_fields(state)
    if view is None:
        raise InvariantBroken("no deal to view")
    return to_json(view)


class Folding:
    """`evolve`, keeping each deal's view as it stood when it was last the current deal: a
    deal's view is taken just before the first event of another deal is folded, and the
    current deal's by `finish`. Only deals this folding moved get a view."""

    def __init__(self, session_id: str):
        self.session_id = session_id
        self.views: dict[int, str] = {}
        self.view_versions: dict[int, int] = {}  # deal_no -> the version of its last event
        self._moved: int | None = None  # the deal this folding last moved

    def __call__(self, state: SessionState | None, event: Event) -> SessionState:
        if state is not None and (deal := state.deal) is not None:
            moved = deal.deal_no
            if self._moved == moved and getattr(event, "deal_no", moved) != moved:
                self.views[moved] = deal_view_json(state)
        state = evolve(state, event, session_id=self.session_id)
        if (deal := state.deal) is not None:
            self._moved = deal.deal_no
            deal_no = getattr(event, "deal_no", None)
            if isinstance(deal_no, int):
                self.view_versions[deal_no] = state.version
        return state

    def finish(self, state: SessionState) -> dict[int, str]:
        """The views, the current deal's as it stands now."""
        if state.deal is not None and self._moved == state.deal.deal_no:
            self.views[state.deal.deal_no] = deal_view_json(state)
        return self.views


def fold_events(session_id: str, events: Iterable[tuple[int, Event]]
                ) -> tuple[SessionState, Folding]:
    """The live events of a log folded from nothing, with every deal's view."""
    folding = Folding(session_id)
    state: SessionState | None = None
    for _, event in events:
        state = folding(state, event)
    if state is None:
        raise InvariantBroken(f"session {session_id} has no events")
    folding.finish(state)
    return state, folding


# -- a session's log, checked and folded --------------------------------------------------

@dataclass
class Folded:
    """One session as its log makes it."""

    session_id: str
    version: int  # the log's last version
    head: str  # the chain's head recomputed from the log
    problems: list[str]  # what is wrong with the log itself (a gap, a broken link)
    chain_broken: bool = False
    # the club the chain's genesis binds (ledger/store/chain.py); UNBOUND: a chain of the
    # first releases, which starts from 64 zeros
    opened_in: str | None = None
    state: SessionState | None = None  # None: the log does not fold
    error: str | None = None  # why it does not
    views: dict[int, str] = field(default_factory=dict)
    view_versions: dict[int, int] = field(default_factory=dict)
    log: list[tuple[int, Event]] = field(default_factory=list)  # every event, voided too
    timed: list[tuple[int, Event, datetime]] = field(default_factory=list)  # for results
    states_at: dict[int, str] = field(default_factory=dict)  # asked versions -> state JSON
    answer_views: dict[int, Any] = field(default_factory=dict)  # answered versions -> view
    results: list[SessionResult] = field(default_factory=list)  # its lines on the books

    @property
    def state_json(self) -> str:
        return to_json(self.state)


UNBOUND = "unbound"


def fold_log(session_id: str, rows: Sequence[EventRow], states_at: Collection[int] = (),
             *, club_id: str | None = None, answered: Collection[int] = ()) -> Folded:
    """The session folded from its stored rows (in version order), each row checked; the
    state at each version in `states_at` kept as JSON (the snapshots), and the session's
    view at each version in `answered` as a stored answer gives it (ledger/kept.py
    `answer_view`). The chain may start
    from the genesis of `club_id` (the session's club as stored), of no club, or from the
    first releases' 64 zeros; which one is `opened_in`."""
    out = Folded(session_id, len(rows), GENESIS, _log_problems(rows))
    starts = {GENESIS: UNBOUND, session_genesis(session_id, None): None}
    if club_id is not None:
        starts[session_genesis(session_id, club_id)] = club_id
    out.head, broken, start = walk(rows, list(starts))
    out.opened_in = starts.get(start, UNBOUND) if start is not None else UNBOUND
    if broken:
        out.problems.append(f"chain: {broken}")
        out.chain_broken = True
    try:
        out.log = [(row.version, event_from_record(row.type, row.schema_version, row.payload))
                   for row in rows]
        out.timed = [(row.version, event, _moment(row.recorded_at))
                     for row, (_, event) in zip(rows, out.log, strict=True)
                     if event.type in RESULT_EVENT_TYPES]
        _fold(out, states_at, answered)
        out.results = results_of(out, rows)
    except Exception as error:  # noqa: BLE001 - the finding is that it does not fold
        out.state, out.error = None, f"{type(error).__name__}: {error}"
    return out


def _fold(out: Folded, states_at: Collection[int], answered: Collection[int]) -> None:
    if not out.log:
        raise InvariantBroken("no events")
    wanted, viewed = set(states_at), set(answered)
    if any(isinstance(e, EntryCorrected) for _, e in out.log):
        state, folding = fold_events(out.session_id, live_events(out.log))
        found = snapshot_states(out.session_id, out.log, wanted | viewed)
        out.states_at = {v: found[v] for v in wanted if v in found}
        out.answer_views = {v: answer_view(SessionState.from_dict(orjson.loads(found[v])))
                            for v in viewed if v in found}
    else:
        folding = Folding(out.session_id)
        state_or_none: SessionState | None = None
        for version, event in out.log:
            state_or_none = folding(state_or_none, event)
            if version in wanted:
                out.states_at[version] = to_json(state_or_none)
            if version in viewed:
                out.answer_views[version] = answer_view(state_or_none)
        assert state_or_none is not None
        state = state_or_none
        folding.finish(state)
    out.state, out.views, out.view_versions = state, folding.views, folding.view_versions


def snapshot_states(session_id: str, log: Sequence[tuple[int, Event]], versions: Iterable[int]
                    ) -> dict[int, str]:
    """The state at each of `versions` of the log (1..N), as JSON: the fold of its live
    events up to there, each folded from the one before it (domain/asof.py)."""
    found: dict[int, dict[str, Any]] = {}
    texts: dict[int, str] = {}
    for version in sorted(versions):
        if not 1 <= version <= len(log):
            continue
        snapshot, events, last_correction = asof.in_memory(log, found)
        state = asof.state_at(version, snapshot=snapshot, events=events,
                              last_correction=last_correction, session_id=session_id)
        texts[version] = to_json(state)
        found[version] = orjson.loads(texts[version])
    return texts


def _log_problems(rows: Sequence[EventRow]) -> list[str]:
    """The first break in the rows' versions (1..N) or positions (increasing with them)."""
    expected, last_position = 1, None
    for row in rows:
        if row.version != expected:
            missing = (f"version {expected} is missing" if row.version == expected + 1 else
                       f"versions {expected} to {row.version - 1} are missing")
            return [f"events: {missing} (the log goes from version {expected - 1} to "
                    f"{row.version}; {len(rows)} events for versions 1..{rows[-1].version})"]
        if last_position is not None and row.position <= last_position:
            return [f"events: version {row.version} is at position {row.position}, not after "
                    f"version {row.version - 1}'s position {last_position}"]
        expected, last_position = row.version + 1, row.position
    return []


def _moment(iso: str) -> datetime:
    return datetime.fromisoformat(iso).astimezone(UTC)


# -- session results -----------------------------------------------------------------------

# The events whose write may move a session's results on the club's books: its end, a
# correction, its attachment to a club or its latecomers' to members (which name the members).
RESULT_TRIGGERS = frozenset({"SessionEnded", "EntryCorrected", "SessionAttached",
                             "LatecomersAttached"})


def result_rows(results: Iterable[SessionResult], club_id: str | None) -> list[dict[str, Any]]:
    """Rows of `session_results`."""
    return [{"session_id": r.session_id, "seat": r.seat, "session_name": r.session_name,
             "club_id": club_id, "member_id": r.member_id, "currency": r.currency,
             "net_units": r.net_units, "net_minor": r.net_minor,
             "deals_dealt": r.deals_dealt, "loos": r.loos, "loo_units": r.loo_units,
             "penalties": r.penalties, "penalty_units": r.penalty_units,
             "posted_at": r.posted_at, "version": r.version, "sessions": r.sessions,
             "corrected_by": r.corrected_by, "reason": r.reason} for r in results]


def posted_result(row: Any) -> SessionResult:
    """A stored row of `session_results` as the line it is."""
    return SessionResult(
        session_id=row.session_id, seat=row.seat, member_id=row.member_id,
        currency=row.currency, net_units=int(row.net_units),
        net_minor=None if row.net_minor is None else int(row.net_minor),
        deals_dealt=int(row.deals_dealt), loos=int(row.loos), loo_units=int(row.loo_units),
        penalties=int(row.penalties), penalty_units=int(row.penalty_units),
        posted_at=as_utc(row.posted_at), session_name=row.session_name,
        sessions=int(row.sessions), version=int(row.version),
        corrected_by=row.corrected_by, reason=row.reason)


def results_after(posted: Sequence[SessionResult], state: SessionState,
                  timed: Iterable[tuple[int, Event, datetime]], written: Sequence[Event], *,
                  at: datetime, first: int) -> list[SessionResult]:
    """The session's lines on the books after a write of the events `written` (versions
    `first`... , at `at`) that left it at `state`: those `posted` before it, and the
    difference it made (ledger/domain/adjustments.py). `timed`: the log up to the write,
    of at least RESULT_EVENT_TYPES, with their times. The live append and a rebuild alike."""
    correction = next(((first + i, e) for i, e in enumerate(written)
                       if isinstance(e, EntryCorrected)), None)
    now = session_results(state, timed) if state.status == Status.ENDED else []
    lines = adjustments.post(posted, now, at=at, version=state.version,
                             correction=correction)
    return adjustments.labelled(lines, state.members, state.name)


def results_of(folded: Folded, rows: Sequence[EventRow]) -> list[SessionResult]:
    """The session's lines on the books, from its log: every write (the events that share
    one time) that holds a RESULT_TRIGGERS event, from the first end on, posts the
    difference it made to the result (corrections are rare: the state after each earlier
    such write is folded again)."""
    assert folded.state is not None
    ends = [v for v, e in folded.log if e.type == "SessionEnded"]
    if not ends:
        return []
    # Only the writes from the one that ended the session on can post: the rows before it
    # are not grouped (a long session's log is thousands of rows, its end near the last).
    start = bisect_left(rows, ends[0], key=lambda row: row.version)  # rows in version order
    while start > 0 and rows[start - 1].recorded_at == rows[start].recorded_at:
        start -= 1
    writes: list[list[EventRow]] = []  # each write's rows, in order
    for row in rows[start:]:
        if writes and writes[-1][-1].recorded_at == row.recorded_at:
            writes[-1].append(row)
        else:
            writes.append([row])
    events = dict(folded.log)
    lookups = asof.in_memory(folded.log)
    lines: list[SessionResult] = []
    for write in writes:
        last = write[-1].version
        written = [events[r.version] for r in write]
        if last < ends[0] or not any(e.type in RESULT_TRIGGERS for e in written):
            continue
        state = folded.state if last == folded.version else asof.state_at(
            last, snapshot=lookups[0], events=lookups[1], last_correction=lookups[2],
            session_id=folded.session_id)
        lines = results_after(lines, state, [t for t in folded.timed if t[0] <= last],
                              written, at=_moment(write[-1].recorded_at),
                              first=write[0].version)
    return lines


def _result_key(row: Any) -> str:
    """A line of `session_results` as verify names it: its seat and version, "Ann@12"."""
    r = row if isinstance(row, dict) else row._mapping
    return f"{r['seat']}@{r['version']}"


def compared_result(row: Any) -> dict[str, Any]:
    """A row of `session_results` as verify compares it: every column."""
    r = dict(row) if isinstance(row, dict) else dict(row._mapping)
    return {"session_id": r["session_id"], "seat": r["seat"],
            "session_name": r["session_name"], "club_id": r["club_id"],
            "member_id": r["member_id"], "currency": r["currency"],
            "net_units": int(r["net_units"]),
            "net_minor": None if r["net_minor"] is None else int(r["net_minor"]),
            "deals_dealt": r["deals_dealt"], "loos": r["loos"],
            "loo_units": int(r["loo_units"]), "penalties": r["penalties"],
            "penalty_units": int(r["penalty_units"]),
            "posted_at": utc_iso(as_utc(r["posted_at"])), "version": int(r["version"]),
            "sessions": int(r["sessions"]), "corrected_by": r["corrected_by"],
            "reason": r["reason"]}


# -- what is stored ------------------------------------------------------------------------

@dataclass
class Stored:
    """A session's projections as stored."""

    version: int
    head_hash: str | None
    state: str
    club_id: str | None
    shape: int
    adopted_by: str | None = None  # the club whose club log took it in at the upgrade
    views: dict[int, str] = field(default_factory=dict)
    snapshots: dict[int, str] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)


def load_stored(conn: Connection, first: str, last: str) -> dict[str, Stored]:
    """The stored projections of the sessions whose ids are in [first, last]."""
    between = (sessions.c.id >= first, sessions.c.id <= last)
    adopted = clublog.adopted_sessions(conn)
    found = {sid: Stored(int(version), head, state, club, int(shape), adopted.get(sid))
             for sid, version, state, head, club, shape in conn.execute(
                 select(sessions.c.id, sessions.c.version, cast(sessions.c.state, Text),
                        sessions.c.head_hash, sessions.c.club_id, sessions.c.shape)
                 .where(*between))}
    for sid, deal_no, view in conn.execute(
            select(deal_views.c.session_id, deal_views.c.deal_no, cast(deal_views.c.view, Text))
            .where(deal_views.c.session_id >= first, deal_views.c.session_id <= last)):
        if sid in found:
            found[sid].views[int(deal_no)] = view
    for sid, version, state in conn.execute(
            select(snapshots.c.session_id, snapshots.c.version, cast(snapshots.c.state, Text))
            .where(snapshots.c.session_id >= first, snapshots.c.session_id <= last)):
        if sid in found:
            found[sid].snapshots[int(version)] = state
    for row in conn.execute(select(results_table).where(results_table.c.session_id >= first,
                                                        results_table.c.session_id <= last)):
        if row.session_id in found:
            found[row.session_id].results[_result_key(row)] = compared_result(row)
    return found


class Answers:
    """The stored answers to the keyed writes of the sessions of one read, session by
    session, each scope read once (an opening's scope holds every session its member
    opened)."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.read: dict[str, list[tuple[str, Any]]] = {}  # scope -> [(key, body)]

    def of(self, session_id: str, club_id: str | None, rows: Sequence[EventRow]
           ) -> list[Answer]:
        """The answers that name `session_id`, under the scopes its keyed writes were
        kept under, as the writes name them (ledger/sessions/service.py): "<id>" or
        "<id>:<member>" for an append, "attach:<id>", and "open[:<club>][:<member>]" for
        the opening. A log with no keyed write has none, and costs no query."""
        members = {row.member_id for row in rows if row.idempotency_key is not None}
        if not members:
            return []
        scopes: set[str] = set()
        for member in members:
            scopes |= {session_id, f"attach:{session_id}",
                       f"{session_id}:{member}" if member else session_id}
            scopes |= {":".join(["open", *(p for p in (club, by) if p)])
                       for club in (club_id, None) for by in (member, None)}
        unread = scopes - self.read.keys()
        if unread:
            for scope in unread:
                self.read[scope] = []
            for scope, key, body in clublog.stored_answers(self.conn, unread):
                self.read[scope].append((key, body))
        return [Answer(scope, key, body) for scope in sorted(scopes)
                for key, body in self.read[scope]
                if isinstance(body, dict) and body.get("session_id") == session_id
                and "appended" in body]


def differences(stored: Stored, folded: Folded) -> list[str]:
    """What `verify` reports for a session: its log's problems, then every projection that
    differs from the fold of its log, in the order they are stored."""
    out = list(folded.problems)
    if stored.shape != SHAPE:
        out.append(f"projections: written in form {stored.shape}, this code's is {SHAPE}: "
                   "`lanterloo migrate` rebuilds them from the log")
    if not folded.chain_broken and (stored.head_hash not in (None, folded.head)
                                    or (stored.head_hash is None and folded.head != GENESIS)):
        out.append(f"chain head: sessions.head_hash is {stored.head_hash}, the log's is "
                   f"{folded.head}")
    if not folded.chain_broken:
        out += _binding(stored, folded)
    if folded.state is None:
        return [*out, f"rebuild: the log does not fold ({folded.error})"]
    if stored.version != folded.version:
        out.append(f"sessions.version: stored {stored.version}, log {folded.version}")
    out += _json_diff("state", stored.state, folded.state_json)
    for deal_no in sorted(set(stored.views) | set(folded.views)):
        path = f"deal_views.{deal_no}"
        if deal_no not in folded.views:
            out.append(f"{path}: stored only")
        elif deal_no not in stored.views:
            out.append(f"{path}: rebuilt only")
        else:
            out += _json_diff(path, stored.views[deal_no], folded.views[deal_no])
    rebuilt = {_result_key(r): compared_result(r)
               for r in result_rows(folded.results, stored.club_id)}
    out += diff("session_results", stored.results, rebuilt)
    if stored.club_id is not None:  # every seat is someone's: a result on no account is lost
        nameless = sorted({r["seat"] for r in [*stored.results.values(), *rebuilt.values()]
                           if r["member_id"] is None})
        if nameless:
            out.append(f"session_results: the result of {', '.join(nameless)} names no member "
                       "of the club: it is on nobody's account (`lanterloo migrate` attaches "
                       "latecomers to members)")
    for version in sorted(stored.snapshots):
        if version not in folded.states_at:
            out.append(f"snapshots.{version}: beyond the log's {folded.version} versions")
        else:
            out += _json_diff(f"snapshots.{version}", stored.snapshots[version],
                              folded.states_at[version])
    return out


def _binding(stored: Stored, folded: Folded) -> list[str]:
    """The club the session's chain binds, against the club it is stored under: the club
    of its last SessionAttached, else of its genesis; a chain of the first releases is
    bound by the club log that took it in at the upgrade (ledger/store/clublog.py)."""
    attached = [e.club_id for _, e in folded.log if isinstance(e, SessionAttached)]
    bound: str | None
    if attached:
        bound, how = attached[-1], "its SessionAttached event"
    elif folded.opened_in == UNBOUND:
        bound, how = stored.adopted_by, "the club log that took it in at the upgrade"
    else:
        bound, how = folded.opened_in, "its chain's genesis"
    if stored.club_id == bound:
        return []
    return [f"club: sessions.club_id is {stored.club_id}, but {how} binds the session to "
            f"{bound if bound is not None else 'no club'}: the session was moved"]


def _json_diff(path: str, stored: str, rebuilt: str) -> list[str]:
    """The differences between two JSON texts, as values (equal texts are equal values)."""
    if stored == rebuilt:
        return []
    return diff(path, orjson.loads(stored), orjson.loads(rebuilt))


def diff(path: str, stored: Any, rebuilt: Any) -> list[str]:
    """Where two values differ, by path: `state.balances.A: stored 3, rebuilt 4`."""
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        out = []
        for key in sorted(set(stored) | set(rebuilt), key=str):
            if key not in rebuilt:
                out.append(f"{path}.{key}: stored only")
            elif key not in stored:
                out.append(f"{path}.{key}: rebuilt only")
            else:
                out += diff(f"{path}.{key}", stored[key], rebuilt[key])
        return out
    if stored != rebuilt:
        return [f"{path}: stored {stored!r}, rebuilt {rebuilt!r}"]
    return []


# -- verify and rebuild --------------------------------------------------------------------

@dataclass
class Pass:
    """What a verify or a rebuild of some sessions found."""

    problems: dict[str, list[str]] = field(default_factory=dict)  # every session: [] if right
    events: int = 0
    # every session verified: (version, chain head) as stored in the snapshot it was read in
    heads: dict[str, tuple[int, str | None]] = field(default_factory=dict)

    def add(self, other: Pass) -> None:
        self.problems.update(other.problems)
        self.events += other.events
        self.heads.update(other.heads)


def verify(store: Store, first: str, last: str, *, every: int = SNAPSHOT_EVERY) -> Pass:
    """Every session in [first, last] against the fold of its log, in one read of a
    consistent snapshot of both: its projections, its snapshots (`every`: the appends'
    interval, as `Ledger.snapshot_every`) and its stored answers (ledger/kept.py)."""
    out = Pass()
    with store.consistent() as conn:
        stored = load_stored(conn, first, last)
        answers = Answers(conn)
        out.heads = {sid: (s.version, s.head_hash) for sid, s in stored.items()}
        for sid, rows in store.event_rows(conn, first, last):
            out.events += len(rows)
            if sid in stored:
                kept = stored[sid]
                answered = answers.of(sid, kept.club_id, rows)
                folded = fold_log(sid, rows, kept.snapshots, club_id=kept.club_id,
                                  answered=answered_versions(answered))
                out.problems[sid] = differences(kept, folded) \
                    + missing_snapshots(rows, kept.snapshots, every) \
                    + answer_problems(answered, rows, folded.answer_views)
    for sid in stored:
        if sid not in out.problems:
            out.problems[sid] = ["events: the session has no events"]
    return out


def rebuild(store: Store, first: str, last: str) -> Pass:
    """Write every projection of the sessions in [first, last] anew from their logs (the
    chain head stays: it is the log's pin). A log that does not fold is refused whole."""
    with store.transaction() as tx:
        return rebuild_in(store, tx, first, last)


def rebuild_in(store: Store, tx: Tx, first: str, last: str) -> Pass:
    """`rebuild`, in the write transaction `tx`."""
    out = Pass()
    stored = tx.sessions_in(first, last)
    written: list[Rebuilt] = []
    for sid, rows in store.event_rows(tx.conn, first, last):
        out.events += len(rows)
        if sid not in stored:
            continue
        every = range(SNAPSHOT_EVERY, len(rows) + 1, SNAPSHOT_EVERY)
        folded = fold_log(sid, rows, every, club_id=stored[sid])
        if folded.state is None:
            raise InvariantBroken(f"session {sid}: the log does not fold ({folded.error})")
        written.append(Rebuilt(
            sid, stored[sid], folded.version, folded.state_json,
            {n: (folded.view_versions.get(n, folded.version), view)
             for n, view in folded.views.items()},
            {v: folded.states_at[v] for v in every},
            result_rows(folded.results, stored[sid]), SHAPE))
        out.problems[sid] = folded.problems
    tx.replace_projections(written)
    return out
