"""The club's books, as a service: record payments, write-offs and cash counts; read each
member's account, the club's accounts, the open debts and the season's standings.

    books = Books(make_engine(), club_id)
    books.record_payment(payer="Bob", payee="club", amount_minor=500, currency="GBP",
                         method="cash", request=WriteRequest(Actor("Tess", member_id)))
    books.account(member_id)        # every line, a running balance, FIFO open items

Book entries are appended to the club's book log (`book_entries`, hash-chained, append-only)
under the write protocol of every write (ledger/writes.py): the club's log is held for the
transaction (`Tx.book_head`), a stored answer to an Idempotency-Key is replayed. Session
results come from the `session_results` projection, which the ledger writes with the
session's events as it ends (ledger/sessions/service.py). The rules and the shapes are
docs/books.md's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from ledger.books import accountreads, postings, reads, tinreads
from ledger.clubs.service import NotFound, name_key
from ledger.domain import InvalidInput, LedgerError, OutOfTurn, SessionNotFound, SessionState
from ledger.domain import accounts as bk
from ledger.domain import bookentries as be
from ledger.domain.bookentries import (
    CLUB,
    CashCounted,
    CashDifferenceBooked,
    CurrenciesSet,
    DebtWrittenOff,
    Difference,
    FloatOpened,
    PaymentMethod,
    PaymentRecorded,
    SessionJoinedEvening,
)
from ledger.domain.currencies import check_kept, in_money
from ledger.domain.periods import period_of
from ledger.domain.tins import Tin, evening_of
from ledger.domain.vocabulary import Status
from ledger.store import booklog as store
from ledger.store import clublog, clubstore, open_store, queries
from ledger.store.base import Head, Tx
from ledger.store.chain import link
from ledger.writes import AppendResult, WriteRequest, perform

T = TypeVar("T")  # what a read of the books gives back
MAX_PAGE_LIMIT = 1000


class WriteOffExceedsDebt(LedgerError):
    code = "rule-violation"


class AlreadyReversed(OutOfTurn):
    """The entry was reversed already: a second reversal would cancel it twice."""


class Books:
    """One club's books."""

    def __init__(self, engine: Engine, club_id: str):
        self.engine = engine
        self.store = open_store(engine)
        self.club_id = club_id

    # -- writes ---------------------------------------------------------------------------

    def record_payment(self, *, payer: str, payee: str, amount_minor: Any, currency: Any,
                       method: Any, session_id: str | None = None, note: str | None = None,
                       request: WriteRequest) -> AppendResult:
        """Record that `payer` paid `payee` (each a member's id or name, or "club")."""

        def build(conn: Connection) -> be.BookEntry:
            who = {name: self.party(conn, value, name)
                   for name, value in (("payer", payer), ("payee", payee))}
            if who["payer"] == CLUB and who["payee"] == CLUB:
                raise InvalidInput("the club cannot pay itself: name a member as the payer "
                                   "or the payee", rule="payer-is-payee", field="payee")
            if method not in tuple(PaymentMethod):
                raise InvalidInput(f"method must be one of {', '.join(PaymentMethod)}",
                                   rule="payment-method", field="method")
            if session_id is not None:
                state = self._session(conn, session_id)
                _same_currency(state, currency)
            check_kept(currency, reads.currencies(conn, self.club_id, reads.NOW).kept)
            return PaymentRecorded(payer=who["payer"], payee=who["payee"],
                                   amount_minor=amount_minor, currency=currency,
                                   method=PaymentMethod(method), session_id=session_id,
                                   note=note)

        return self.append(build, request, "payment", payer, payee, amount_minor, currency,
                            method, session_id, note)

    def write_off(self, *, member: str, amount_minor: Any, currency: Any, reason: Any,
                  request: WriteRequest) -> AppendResult:
        """Write off what `member` owes, up to all of it in that currency; `reason` required."""

        def build(conn: Connection) -> be.BookEntry:
            member_id = self.party(conn, member, "member", club=False)
            entry = DebtWrittenOff(member_id=member_id, amount_minor=amount_minor,
                                   currency=currency, reason=reason)
            _, items = reads.member_items(conn, self.club_id, reads.NOW, member_id)
            owes = -bk.account_summary(items)["balances"].get(currency, 0)
            if entry.amount_minor > owes:
                raise WriteOffExceedsDebt(
                    f"{member} owes {in_money(max(owes, 0), currency)} {currency}: a write-off "
                    f"of {in_money(entry.amount_minor, currency)} {currency} would exceed it",
                    rule="write-off-exceeds-debt",
                    field="amount_minor", owes_minor=max(owes, 0))
            return entry

        return self.append(build, request, "write-off", member, amount_minor, currency, reason)

    def count_cash(self, session_id: str | None = None, *, evening: str | None = None,
                   counted_minor: Any, currency: Any, note: str | None = None,
                   request: WriteRequest) -> AppendResult:
        """Record the cash counted in a tin at the close: an (ended) session's own, or an
        evening's (every session that joined it ended)."""

        def build(conn: Connection) -> be.BookEntry:
            entries = tinreads.tin_entries(conn, self.club_id)
            states = self._tin_sessions(conn, entries, session_id, evening)
            if any(state.status != Status.ENDED for state in states):
                raise OutOfTurn("the cash is counted at the close: end the session"
                                + ("s of the evening" if evening else "") + " first",
                                rule="cash-after-end", field="session_id")
            entry = CashCounted(session_id=session_id, evening=evening,
                                counted_minor=counted_minor, currency=currency, note=note)
            self._tin_currency(conn, entries, session_id, evening, states, currency)
            return entry

        return self.append(build, request, "cash", session_id, evening, counted_minor,
                            currency, note)

    def open_float(self, session_id: str | None = None, *, evening: str | None = None,
                   amount_minor: Any, currency: Any, note: str | None = None,
                   request: WriteRequest) -> AppendResult:
        """Record the float put in a tin before (or during) play: a session's own, or an
        evening's (before any of its sessions exists, if need be)."""

        def build(conn: Connection) -> be.BookEntry:
            entries = tinreads.tin_entries(conn, self.club_id)
            states = self._tin_sessions(conn, entries, session_id, evening, empty=True)
            entry = FloatOpened(session_id=session_id, evening=evening,
                                amount_minor=amount_minor, currency=currency, note=note)
            self._tin_currency(conn, entries, session_id, evening, states, currency)
            return entry

        return self.append(build, request, "float", session_id, evening, amount_minor,
                            currency, note)

    def join_evening(self, evening: Any, *, session_id: str,
                     request: WriteRequest) -> AppendResult:
        """Put the session's cash in the evening's tin, with its other sessions."""

        def build(conn: Connection) -> be.BookEntry:
            be.check_evening(evening)
            entries = tinreads.tin_entries(conn, self.club_id)
            (state,) = self._tin_sessions(conn, entries, session_id, None)
            if Tin.of(entries, session_id=session_id).used:
                raise OutOfTurn(f"session {session_id} has a tin of its own (a float, a count "
                                "or a difference): reverse them first, then record them for "
                                "the evening", rule="session-has-own-tin", field="session_id")
            currency = tinreads.session_currency(state)
            self._tin_currency(conn, entries, None, evening, [], currency,
                               field="session_id")
            return SessionJoinedEvening(session_id=session_id, evening=evening,
                                        currency=currency)

        return self.append(build, request, "evening", evening, session_id)

    def book_cash_difference(self, session_id: str | None = None, *,
                             evening: str | None = None, difference: Any, amount_minor: Any,
                             currency: Any, account: Any, reason: Any,
                             request: WriteRequest) -> AppendResult:
        """Book a counted tin's shortage or surplus against the club or a member: at most
        what the tin's cash check (a session's or an evening's) leaves unbooked, of that
        sign."""

        def build(conn: Connection) -> be.BookEntry:
            entries = tinreads.tin_entries(conn, self.club_id)
            states = self._tin_sessions(conn, entries, session_id, evening, empty=True)
            party = self.party(conn, account, "account")
            if difference not in tuple(Difference):
                raise InvalidInput("difference must be shortage or surplus",
                                   rule="cash-difference", field="difference")
            entry = CashDifferenceBooked(
                session_id=session_id, evening=evening, difference=Difference(difference),
                amount_minor=amount_minor, currency=currency, account=party, reason=reason)
            self._tin_currency(conn, entries, session_id, evening, states, currency)
            check = tinreads.evening(conn, self.club_id, evening)["cash"] if evening else \
                tinreads.session_cash(conn, self.club_id, states[0])
            if check is None:
                raise OutOfTurn("count the cash first: a difference is booked against the "
                                "cash check", rule="cash-difference-after-count",
                                field="evening" if evening else "session_id")
            left = check["unbooked_minor"]
            if entry.signed_minor * left <= 0 or abs(entry.signed_minor) > abs(left):
                raise InvalidInput(
                    f"the cash check leaves {in_money(left, entry.currency)} "
                    f"{entry.currency} unbooked: a {difference} of "
                    f"{in_money(entry.amount_minor, entry.currency)} {entry.currency} does "
                    "not match it",
                    rule="cash-difference-exceeds-check", field="amount_minor",
                    unbooked_minor=left)
            return entry

        return self.append(build, request, "cash-difference", session_id, evening,
                            difference, amount_minor, currency, account, reason)

    def _tin_sessions(self, conn: Connection, entries: list[Any], session_id: str | None,
                      evening: str | None, *, empty: bool = False) -> list[SessionState]:
        """The sessions whose cash is in the tin: the session (refused when it joined an
        evening: its cash is in that tin), or the sessions that joined the evening (at
        least one, unless `empty`)."""
        if evening is not None:
            be.check_evening(evening)
            states = [self._session(conn, sid)
                      for sid in Tin.of(entries, evening=evening).sessions]
            if not states and not empty:
                raise OutOfTurn(f"no session has joined the evening of {evening}: join its "
                                "sessions first", rule="evening-has-sessions", field="evening")
            return states
        assert session_id is not None
        state = self._session(conn, session_id)
        joined = evening_of(entries, session_id)
        if joined is not None:
            raise OutOfTurn(f"session {session_id}'s cash is in the tin of the evening of "
                            f"{joined}", rule="session-in-evening", field="session_id",
                            evening=joined)
        return [state]

    def _tin_currency(self, conn: Connection, entries: list[Any], session_id: str | None,
                      evening: str | None, states: list[SessionState], currency: Any, *,
                      field: str = "currency") -> None:
        """A tin holds one currency: a session's, or the evening's (its first float's or
        session's; the first, one the club keeps)."""
        if session_id is not None:
            _same_currency(states[0], currency)
            return
        kept = Tin.of(entries, evening=evening).currency
        if kept is None:
            check_kept(currency, reads.currencies(conn, self.club_id, reads.NOW).kept)
        elif currency != kept:
            raise InvalidInput(f"the evening of {evening}'s tin holds {kept}, not "
                               f"{currency!r}", rule="evening-currency", field=field)

    def reverse(self, seq: Any, *, reason: Any, request: WriteRequest) -> AppendResult:
        """Cancel book entry `seq` for `reason`, with a new entry posting its postings back;
        an entry is reversed once, a reversal never."""

        def build(conn: Connection) -> be.BookEntry:
            if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
                raise InvalidInput("seq must be the number of a book entry",
                                   rule="entry-exists", field="seq")
            log = reads.Log.read(conn, self.club_id, reads.NOW)
            entry = log.entries.get(seq)
            if entry is None:
                raise NotFound(f"no book entry {seq}", rule="entry-exists", field="seq")
            done = log.reversed_by().get(seq)
            if done is not None:
                raise AlreadyReversed(f"book entry {seq} was reversed by entry {done}",
                                      rule="entry-already-reversed", field="seq",
                                      reversed_by=done)
            # an entry of a closed period is reversed in the open one, and the reversal
            # says so (docs/books.md, "Closing a period")
            period = period_of(log.recorded_at(seq))
            shut = be.closed_periods((s, e) for s, e in log.entries.items())
            return be.reversal_of(entry, seq, reason,
                                  closed_period=period if period in shut else None)

        return self.append(build, request, "reversal", seq, reason)

    def set_currencies(self, *, currency: Any, accepted: Any,
                       request: WriteRequest) -> AppendResult:
        """From now on keep the books in `currency`, and accept payments in `accepted`."""

        def build(conn: Connection) -> be.BookEntry:
            return CurrenciesSet(currency=currency, accepted=tuple(accepted or ()))

        return self.append(build, request, "currencies", currency, *(accepted or ()))

    def append(self, build: Callable[[Connection], be.BookEntry | list[be.BookEntry]],
               request: WriteRequest, *what: object) -> AppendResult:
        """The one write of the book log, for this service and ledger/books/closing.py: append
        the entry `build` decides on the log as it stands (or the entries, in one write: all
        or none; the answer then lists them, `entries`), under the write protocol; `what` is
        the command, for the fingerprint of a key."""
        actor = request.actor
        scope = f"books:{self.club_id}:{actor.member_id or ''}"[:80]
        request = request.fingerprinted(scope, *what)

        def find(tx: Tx) -> Head:
            key = request.idempotency_key
            head = tx.book_head(self.club_id, reply_to=(scope, key) if key else None)
            if head is None:
                raise NotFound(f"no club {self.club_id}", rule="club-exists", field="club")
            return head

        def write(tx: Tx, head: Head) -> dict[str, Any]:
            built = build(tx.conn)
            now, seq, previous = head.now or tx.now(), head.version, head.head_hash
            written = []
            entries = built if isinstance(built, list) else [built]
            # the balances every entry moves held at once, in their order (no deadlock)
            tx.hold_postings(self.club_id, [p for n, entry in enumerate(entries, seq + 1)
                                            for p in postings.rows_of(self.club_id, n, entry,
                                                                      now)])
            for entry in entries:
                seq += 1
                row: dict[str, Any] = {
                    "club_id": self.club_id, "seq": seq, "type": entry.type,
                    "schema_version": entry.schema_version, "payload": entry.to_payload(),
                    "recorded_at": now, "actor": actor.name,
                    "member_id": actor.member_id, "token_id": actor.token_id,
                    "idempotency_key": request.idempotency_key}
                row["hash"] = previous = link(store.hashed_row(row), previous)
                row["position"] = tx.append_book_entry(
                    row, postings.rows_of(self.club_id, seq, entry, now))
                written.append(store.entry_dict(row))
            if isinstance(built, list):
                return {"entries": written, "version": seq}
            return written[0]

        def current_version() -> int:
            with self.store.reading() as conn:
                return len(store.entries(conn, self.club_id))

        return perform(self.store, request, scope=scope, find=find, write=write,
                       current_version=current_version)

    def party(self, conn: Connection, value: Any, field: str, *, club: bool = True) -> str:
        """"club", or the id of the club's member named by id or display name."""
        if not isinstance(value, str) or not value:
            raise InvalidInput(f"{field} must be a member's id or name"
                               + (' or "club"' if club else ""), rule="party", field=field)
        if club and value == CLUB:
            return CLUB
        row = clubstore.find_member(conn, self.club_id, member_id=value) \
            or clubstore.find_member(conn, self.club_id, name_key=name_key(value))
        if row is None:
            raise NotFound(f"no member {value}", rule="member-exists", field=field)
        return str(row.id)

    def _session(self, conn: Connection, session_id: str) -> SessionState:
        row = queries.load_session(conn, session_id, club_id=self.club_id)
        if row is None:
            raise SessionNotFound(f"no session {session_id}", rule="session-exists",
                                  field="session_id")
        return SessionState.from_dict(row.state)

    # -- reads (ledger/books/reads.py; `as_of` a book position or a time, None now) -------

    def _read(self, as_of: str | None, read: Callable[[Connection, reads.Cut], T]) -> T:
        # One snapshot: the book log, its stored head and the results as of one moment
        # (a payment committed between two of the reads would else make `chain_ok` false).
        with self.store.consistent() as conn:
            return read(conn, reads.cut_at(conn, self.club_id, as_of))

    def account(self, member_id: str, *, after: int = 0, limit: int = 100,
                as_of: str | None = None) -> dict[str, Any]:
        """The member's account: a page of its lines in time order with a running balance
        per currency, and what he owes or is owed, from which sessions, since when."""
        _check_page(after, limit)
        return self._read(as_of, lambda conn, cut: reads.account(
            conn, self.club_id, cut, member_id, after=after, limit=limit))

    def account_csv(self, member_id: str, *, as_of: str | None = None) -> str:
        """Every entry of the member's account as CSV, in bk.ACCOUNT_COLUMNS."""
        with self.store.consistent() as conn:
            cut = reads.cut_at(conn, self.club_id, as_of)
            _, items = reads.member_items(conn, self.club_id, cut, member_id)
        rows: list[list[object]] = [list(bk.ACCOUNT_COLUMNS)]
        rows += [bk.account_row(bk.item_dict(item, member_id, n))
                 for n, item in enumerate(items, 1)]
        return bk.csv_text(rows)

    def accounts(self, *, as_of: str | None = None, after: int = 0,
                 limit: int | None = None) -> dict[str, Any]:
        """Every member's balance per currency (a page of them, by name, with `limit`), the
        club's accounts and the zero-sum check."""
        _check_page(after, limit)
        return _page(self._read(as_of, lambda conn, cut: accountreads.accounts(
            conn, self.club_id, cut)), "members", after, limit)

    def session_accounts(self, *, as_of: str | None = None, after: str = "",
                         limit: int = 100) -> dict[str, Any]:
        """A page of the sessions' own accounts, by name, after the session `after` ("":
        the first page), at most `limit`; `next_after` the page's last when more follow."""
        _check_page(0, limit)
        return self._read(as_of, lambda conn, cut: accountreads.session_accounts(
            conn, self.club_id, cut, after=after, limit=limit))

    def verify(self) -> list[str]:
        """Where the club's book log is broken ([] when its chain is whole and at its
        stored head), what is wrong with the stored answers to its keyed entries, where its
        postings' table is not the fold of the log (ledger/books/postings.py), then what is
        wrong with its club log (who may act: ledger/store/clublog.py): all read in one
        snapshot."""
        with self.store.consistent() as conn:
            rows = store.entries(conn, self.club_id)
            _, broken = store.verify_chain(conn, self.club_id, rows)
            return ([f"book log: {broken}"] if broken else []) \
                + store.answer_problems(conn, self.club_id, rows) \
                + postings.problems(conn, self.club_id, rows) \
                + postings.balance_problems(conn, self.club_id) \
                + clublog.check(conn, self.club_id)

    def rebuild_postings(self) -> int:
        """Write the club's postings' table again from its book log, in one transaction
        that holds the log (no entry is appended meanwhile); the rows written."""
        with self.store.transaction() as tx:
            if not tx.book_head(self.club_id, reply_to=None):
                raise NotFound(f"no club {self.club_id}", rule="club-exists", field="club")
            return postings.rebuild(tx.conn, self.club_id)

    def debts(self, *, as_of: str | None = None, after: int = 0,
              limit: int | None = None) -> dict[str, Any]:
        """Every member's open debts, oldest first (a page of them with `limit`), and their
        totals per currency."""
        _check_page(after, limit)
        return self._side("debts", as_of, after, limit)

    def payables(self, *, as_of: str | None = None, after: int = 0,
                 limit: int | None = None) -> dict[str, Any]:
        """What the club owes each member, oldest first (a page of it with `limit`), and the
        totals per currency."""
        _check_page(after, limit)
        return self._side("payables", as_of, after, limit)

    def open_items(self, *, as_of: str | None = None) -> dict[str, Any]:
        """Both sides at once, from one read of the books (the club's page): `debts`,
        `debts_totals`, `payables`, `payables_totals`."""
        return self._read(as_of, lambda conn, cut: reads.open_items(conn, self.club_id, cut))

    def _side(self, side: str, as_of: str | None, after: int, limit: int | None
              ) -> dict[str, Any]:
        """A page of one side: now, read from the open items the database keeps, the page
        only; as of a point, from the walk of the books, then paged (`_page`)."""
        def read(conn: Connection, cut: reads.Cut) -> dict[str, Any]:
            if cut.seq is None and cut.at is None:
                items, totals, more = reads.open_page(conn, self.club_id, side, after=after,
                                                      limit=limit)
                return {side: items, "totals": totals,
                        "next_after": after + len(items) if more else None}
            found = reads.open_items(conn, self.club_id, cut, sides=(side,))
            return _page({side: found[side], "totals": found[f"{side}_totals"],
                          "as_of": found["as_of"]}, side, after, limit)
        return self._read(as_of, read)

    def settle_up(self, *, as_of: str | None = None) -> dict[str, Any]:
        """Who pays the club, whom it pays, its cash and bank, per currency."""
        return self._read(as_of, lambda conn, cut: reads.settle_up(conn, self.club_id, cut))

    def standings(self, *, since: datetime | None = None, until: datetime | None = None,
                  as_of: str | None = None, after: int = 0,
                  limit: int | None = None) -> dict[str, Any]:
        """Per member, over the sessions that ended in [since, until]: sessions, deals
        dealt, net (units, and money per currency), loos and penalties; sorted by name (a
        page of them with `limit`)."""
        _check_page(after, limit)
        since = since.astimezone(UTC) if since is not None else None
        until = until.astimezone(UTC) if until is not None else None
        return _page(self._read(as_of, lambda conn, cut: reads.standings(
            conn, self.club_id, cut, since=since, until=until)), "members", after, limit)

    def register(self, filters: reads.Filters, *, after: int = 0, limit: int = 100,
                 as_of: str | None = None) -> dict[str, Any]:
        """The book log's entries, filtered and paged (bookreads.register)."""
        _check_page(after, limit)
        return self._read(as_of, lambda conn, cut: reads.register(
            conn, self.club_id, cut, filters, after=after, limit=limit))

    def currencies(self, *, as_of: str | None = None) -> dict[str, Any]:
        """The currency the club keeps its books in, and the others it accepts."""
        def read(conn: Connection, cut: reads.Cut) -> dict[str, Any]:
            kept = reads.currencies(conn, self.club_id, cut)
            return {"currency": kept.currency, "accepted": list(kept.accepted),
                    **cut.echo()}
        return self._read(as_of, read)

    # -- the tins (ledger/books/tinreads.py) -----------------------------------------------------

    def evening(self, evening: str, *, as_of: str | None = None) -> dict[str, Any]:
        """The evening's tin: its sessions, its float and its cash check."""
        be.check_evening(evening)
        return self._read(as_of, lambda conn, cut: tinreads.evening(
            conn, self.club_id, evening, cut))

    def cash_checks(self, *, as_of: str | None = None, limit: int = 20
                    ) -> list[dict[str, Any]]:
        """The cash checks of the last `limit` tins counted (a session's or an evening's),
        the latest first (the club's page); as of a point (docs/books.md), as they stood
        then: the book entries up to it, each session as its log stood at its time."""
        return self._read(as_of, lambda conn, cut: tinreads.cash_checks(
            conn, self.club_id, cut, limit=limit))


def cash_of(conn: Connection, club_id: str | None, state: SessionState
            ) -> tuple[dict[str, Any] | None, str | None]:
    """The statement's `cash` section for the session (None when its own tin was never
    counted) and its `evening` (the date of the evening whose tin holds its cash, if any);
    read on the caller's connection (`conn`: a statement is one connection, never two)."""
    if club_id is None:
        return None, None
    return tinreads.session_tin(conn, club_id, state)


def _same_currency(state: SessionState, currency: Any) -> None:
    expected = tinreads.session_currency(state)
    if currency != expected:
        raise InvalidInput(f"session {state.session_id} is played in {expected}, not "
                           f"{currency!r}", rule="session-currency", field="currency")


def _page(data: dict[str, Any], key: str, after: int, limit: int | None
          ) -> dict[str, Any]:
    """`data` with only the page of its list `key` after item number `after` (the items
    numbered from 1 in the list's order), at most `limit` of them, and `next_after`: the
    number of the page's last item when more follow, else None (docs/api.md, "Paging").
    Without `limit`, the whole list (`next_after` None)."""
    items = data[key]
    if limit is None:
        return {**data, key: items[after:], "next_after": None}
    end = after + limit
    return {**data, key: items[after:end], "next_after": end if end < len(items) else None}


def _check_page(after: Any, limit: Any) -> None:
    if limit is None and not isinstance(after, bool) and isinstance(after, int) \
            and after >= 0:
        return
    if isinstance(limit, bool) or not isinstance(limit, int) \
            or not 1 <= limit <= MAX_PAGE_LIMIT:
        raise InvalidInput(f"limit must be from 1 to {MAX_PAGE_LIMIT}", rule="page-limit",
                           field="limit")
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise InvalidInput("after must be an entry number >= 0", rule="page-after",
                           field="after")
