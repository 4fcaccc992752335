"""The reads of a ledger's sessions: from the projections, never by replaying the log.

`Ledger` (ledger/sessions/service.py) is these reads and the writes; a club's ledger (`for_club`)
reads only that club's sessions. No read writes: a session whose projections an older release
wrote is answered from its log as it folds, in the read's one connection, and is rebuilt only
by `lanterloo migrate` (at the upgrade) or `lanterloo rebuild` (ledger/projections.py);
`verify` and `rebuild` are the operator's checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from ledger import projections
from ledger.audit import checkpoint_log, receipts
from ledger.books.service import cash_of
from ledger.domain import (
    InvalidInput,
    LedgerError,
    SessionNotFound,
    SessionState,
    deal_view,
    event_from_record,
    event_to_record,
    session_view,
    statement,
    statement_csv,
)
from ledger.domain.accounts import cash_csv
from ledger.domain.corrections import live_events
from ledger.domain.explain import TRAIL_TYPES, Logged, explain, explain_csv
from ledger.domain.series import balance_series
from ledger.domain.state import to_json
from ledger.projections import SHAPE
from ledger.sessions import history
from ledger.store import queries
from ledger.store.base import Store
from ledger.store.chain import CHAIN_FORMAT, utc_iso

__all__ = ["SessionReads", "DealNotFound", "MAX_PAGE_LIMIT", "plain_json", "session_not_found"]

MAX_PAGE_LIMIT = 1000
MAX_DEAL_NO = 2**31 - 1  # deal_views.deal_no is a 32-bit integer


class DealNotFound(LedgerError):
    code = "not-found"


class SessionReads:
    """The sessions' reads; `club_id` confines them to one club's sessions."""

    engine: Any
    store: Store
    club_id: str | None
    snapshot_every: int

    def session_exists(self, session_id: str) -> bool:
        with self.store.reading() as conn:
            return queries.session_version(conn, session_id, club_id=self.club_id) is not None

    def session_version(self, session_id: str) -> int:
        """The session's version now, read without its state (a poll's If-None-Match)."""
        with self.store.reading() as conn:
            version = queries.session_version(conn, session_id, club_id=self.club_id)
        if version is None:
            raise session_not_found(session_id)
        return version

    def session(self, session_id: str, *, as_of: int | str | None = None) -> dict[str, Any]:
        """The session view: whose turn, the legal choices, the pools, every balance; with
        `as_of` (a version, or an ISO-8601 time), as it stood then, marked `as_of`."""
        with self.store.reading() as conn:
            row = self._row(conn, session_id)
            if as_of is None:
                return plain_json(session_view(SessionState.from_dict(row.state)))
            state, _, at = history.state_and_pin_at(conn, row, as_of)
        return plain_json({**session_view(state), "as_of": at})

    def deal(self, session_id: str, deal_no: int, *,
             as_of: int | str | None = None) -> dict[str, Any]:
        """The deal's view as it last stood (as of a version or a time, if given)."""
        with self.store.reading() as conn:
            row = self._row(conn, session_id)
            if as_of is not None:
                state, at = history.deal_state_at(conn, row, deal_no, as_of)
                view = None if state is None else {**(deal_view(state) or {}), "as_of": at}
                where = f" as of version {at['version']}"
            else:
                # Outside the store's 32-bit deal numbers there is no deal to look for.
                in_range = 1 <= deal_no <= MAX_DEAL_NO
                view = None if not in_range \
                    else row.views.get(deal_no) if isinstance(row, _FoldedRow) \
                    else queries.load_deal_view(conn, session_id, deal_no,
                                                club_id=self.club_id)
                where = ""
        if view is None:
            raise DealNotFound(f"session {session_id} had no deal {deal_no}{where}"
                               if where else f"session {session_id} has no deal {deal_no}",
                               rule="deal-exists", field="deal_no")
        return plain_json(view)

    def statement(self, session_id: str, *, as_of: int | str | None = None) -> dict[str, Any]:
        """The statement, pinned to the log it was drawn from (its version and chain head,
        and the latest head of it signed and kept: ledger/audit/checkpoint_log.py);
        with `as_of`, as it stood then, marked `as_of`. The cash is counted after the close,
        outside the session's log: a statement as of a point of that log shows none. One
        connection in one snapshot: the session, its tin and its pin agree."""
        with self.store.consistent() as conn:
            row = self._row(conn, session_id)
            if as_of is None:
                state = SessionState.from_dict(row.state)
                cash, evening = cash_of(conn, row.club_id, state)
                return plain_json({**statement(state, _signed_pin(session_id, row)),
                                   "cash": cash, "evening": evening})
            state, pin, at = history.state_and_pin_at(conn, row, as_of)
        return plain_json({**statement(state, pin), "cash": None, "evening": None,
                           "as_of": at})

    def statements(self, session_ids: Sequence[str], *, as_of: str | None = None
                   ) -> list[dict[str, Any]]:
        """The statements of these sessions as they stand (or as they stood at the time
        `as_of`), in one read: without the log's pin and the cash check (a member's page
        shows neither; `statement` has both)."""
        with self.store.reading() as conn:
            rows = [self._row(conn, sid) for sid in session_ids]
            states = [SessionState.from_dict(row.state) if as_of is None
                      else history.state_and_pin_at(conn, row, as_of)[0] for row in rows]
        return [plain_json(statement(state)) for state in states]

    def statement_csv(self, session_id: str, *, as_of: int | str | None = None,
                      table: str | None = None) -> str:
        """The statement as CSV: one table (`players`, `summary`, `transfers` or `cash`), or
        all of them (ledger/domain/statement.py); read as `statement` is."""
        with self.store.consistent() as conn:
            row = self._row(conn, session_id)
            if as_of is None:
                state = SessionState.from_dict(row.state)
                pin = _signed_pin(session_id, row)
                cash, evening = cash_of(conn, row.club_id, state) \
                    if table in (None, "cash") else (None, None)
            else:
                state, pin, _ = history.state_and_pin_at(conn, row, as_of)
                cash, evening = None, None
        if table == "cash":
            return cash_csv(cash, alone=True, evening=evening)
        text = statement_csv(state, pin, table)
        return text + cash_csv(cash, evening=evening) if table is None and as_of is None \
            else text

    def explain(self, session_id: str, *, player: str | None = None,
                as_of: int | str | None = None) -> dict[str, Any]:
        """Every figure of the session (or `player`'s) with the postings that make it up and
        the rule behind each (docs/explain.md); as of a version or a time, if given."""
        with self.store.reading() as conn:
            row = self._row(conn, session_id)
            at = history.point(conn, session_id, as_of, row.version, club_id=self.club_id) \
                if as_of is not None else None
            version = at["version"] if at is not None else row.version
            rows = queries.events_between_full(conn, session_id, 0, version,
                                               types=TRAIL_TYPES, club_id=self.club_id)
        logged = [Logged(version=r.version, position=r.position,
                         recorded_at=utc_iso(r.recorded_at), actor=r.actor, event=e)
                  for r, (_, e) in zip(rows, history.versioned(rows), strict=True)]
        return explain(session_id, logged, version=version, player=player, as_of=at)

    def explain_csv(self, session_id: str, *, player: str | None = None,
                    as_of: int | str | None = None, table: str | None = None) -> str:
        return explain_csv(self.explain(session_id, player=player, as_of=as_of), table)

    def events(self, session_id: str, after_position: int = 0,
               limit: int = 100) -> dict[str, Any]:
        """One page of the log: {"events": [...], "next_after": position or None}. An event
        a correction superseded names it (`superseded_by`: the correction's version;
        docs/rules.md §12.3): the log keeps it, the projections no longer count it."""
        if isinstance(limit, bool) or not isinstance(limit, int) \
                or not 1 <= limit <= MAX_PAGE_LIMIT:
            raise InvalidInput(f"limit must be from 1 to {MAX_PAGE_LIMIT}",
                               rule="page-limit", field="limit")
        if isinstance(after_position, bool) or not isinstance(after_position, int) \
                or after_position < 0:
            raise InvalidInput("after must be a position >= 0", rule="page-after",
                               field="after")
        with self.store.reading() as conn:
            self._row(conn, session_id)
            rows = queries.read_events(conn, session_id, after_position=after_position,
                                       limit=limit + 1, club_id=self.club_id)
            superseded = [(row.payload["rewound_to"], row.version)
                          for row in queries.read_events(conn, session_id,
                                                         types=("EntryCorrected",),
                                                         club_id=self.club_id)]
        page = [{**_event_dict(row), "superseded_by": next(
            (version for kept, version in superseded if kept < row.version < version), None)}
            for row in rows[:limit]]
        more = len(rows) > limit
        return {"events": page, "next_after": page[-1]["position"] if more else None}

    def balance_series(self, session_id: str, *, as_of: int | str | None = None
                       ) -> dict[str, Any]:
        """Each player's balance after every deal (the statement's chart;
        ledger/domain/series.py): from the stored deal views, or, as of a version or a
        time, from the views the log up to there folds to (a correction after it may have
        changed the stored ones)."""
        with self.store.reading() as conn:
            row = self._row(conn, session_id)
            if as_of is None:
                views = row.views if isinstance(row, _FoldedRow) \
                    else queries.load_deal_views(conn, session_id, club_id=self.club_id)
                return plain_json(balance_series(row.state["seats"], views,
                                                 row.state["balances"]))
            version = history.point(conn, session_id, as_of, row.version,
                                    club_id=self.club_id)["version"]
            log = history.versioned(queries.events_between_full(
                conn, session_id, 0, version, club_id=self.club_id))
        state, folding = projections.fold_events(session_id, live_events(log))
        then = orjson.loads(to_json(state))
        return plain_json(balance_series(
            then["seats"], {n: orjson.loads(v) for n, v in folding.views.items()},
            then["balances"]))

    def _row(self, conn: Any, session_id: str, *, as_stored: bool = False) -> Any:
        """The session's row; one whose projections are of an older form is answered from
        its log as it folds (`_FoldedRow`, nothing written: a read never writes, the stale
        projections are rebuilt by `lanterloo migrate` or `lanterloo rebuild`), unless it is
        wanted `as_stored` (verify)."""
        row = queries.load_session(conn, session_id, club_id=self.club_id)
        if row is None:
            raise session_not_found(session_id)
        if row.shape != SHAPE and not as_stored:  # by an older release: folded, not stored
            return _folded(conn, row)
        return row

    # -- verify and rebuild ---------------------------------------------------------------

    def verify(self, session_id: str) -> list[str]:
        """Where the log is broken or the stored projections differ from its fold; [] when
        the log is whole and they agree (ledger/projections.py)."""
        return self._verified(session_id).problems[session_id]

    def verify_report(self, session_id: str) -> dict[str, Any]:
        """What `verify` finds, as the API reports it: ok, the chain head, every problem;
        the version and head are those it verified (read in its snapshot)."""
        found = self._verified(session_id)
        version, head = found.heads[session_id]
        problems = found.problems[session_id]
        return {"session_id": session_id, "ok": not problems, "version": version,
                "chain_head": head, "chain_format": CHAIN_FORMAT, "problems": problems}

    def _verified(self, session_id: str) -> projections.Pass:
        self._row_of(session_id)
        return projections.verify(self.store, session_id, session_id,
                                  every=self.snapshot_every)

    def rebuild(self, session_id: str) -> list[str]:
        """Write the session's projections anew from its log; what is wrong with the log
        itself (a rebuild leaves the chain as it is: `verify` still reports it)."""
        self._row_of(session_id)
        return projections.rebuild(self.store, session_id, session_id).problems[session_id]

    def _row_of(self, session_id: str) -> Any:
        with self.store.reading() as conn:
            return self._row(conn, session_id, as_stored=True)




# -- helpers -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _FoldedRow:
    """A session's row as its log folds, for a session whose stored projections an older
    release wrote (`shape` below projections.SHAPE): what a rebuild would store, held only
    for the read that asked. Its `views` are the deals' views by number."""

    id: str
    club_id: str | None
    version: int
    head_hash: str | None
    shape: int
    state: dict[str, Any]
    views: dict[int, dict[str, Any]]


def _folded(conn: Any, row: Any) -> _FoldedRow:
    """The stale session `row` as its log up to the row's version folds (one connection,
    nothing written)."""
    log = history.versioned(queries.events_between(conn, row.id, 0, row.version,
                                                   club_id=row.club_id))
    state, folding = projections.fold_events(row.id, live_events(log))
    return _FoldedRow(id=row.id, club_id=row.club_id, version=row.version,
                      head_hash=row.head_hash, shape=row.shape,
                      state=orjson.loads(to_json(state)),
                      views={n: orjson.loads(v) for n, v in folding.views.items()})


def _signed_pin(session_id: str, row: Any) -> dict[str, Any]:
    """The pin of a statement drawn now, with the latest head of the session signed and
    kept in the checkpoint log (ledger/audit/checkpoint_log.py; read, never signed here)."""
    pin = history.pin(row.version, row.head_hash)
    signed = checkpoint_log.latest(session_id)
    if signed is not None:
        pin["checkpoint"] = signed
    kept = receipts.receipt(row.club_id, session_id)
    if kept is not None:  # its latest end in the club's log (ledger/audit/receipts.py)
        pin["receipt"] = kept
    return pin


def session_not_found(session_id: str) -> SessionNotFound:
    return SessionNotFound(f"no session {session_id}", rule="session-exists",
                           field="session_id")


def plain_json(value: Mapping[str, Any]) -> dict[str, Any]:
    """The value as JSON gives it back, so that a stored answer equals the one first sent."""
    out: dict[str, Any] = orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))
    return out


def _event_dict(row: Any) -> dict[str, Any]:
    """A stored event as clients read it, upcast to the current shape of its type."""
    type_, schema_version, payload = event_to_record(
        event_from_record(row.type, row.schema_version, row.payload))
    return plain_json({"position": row.position, "version": row.version, "type": type_,
                   "schema_version": schema_version, "payload": payload,
                   "recorded_at": utc_iso(row.recorded_at), "actor": row.actor,
                   "member_id": row.member_id, "token_id": row.token_id, "hash": row.hash})
