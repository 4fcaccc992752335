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
session's events as it ends (ledger/service.py). The rules and the shapes are
docs/books.md's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine

from ledger.clubs import NotFound, name_key
from ledger.domain import InvalidInput, LedgerError, OutOfTurn, SessionNotFound, SessionState
from ledger.domain import accounts as bk
from ledger.domain.accounts import (
    CLUB,
    CashCounted,
    DebtWrittenOff,
    Line,
    PaymentMethod,
    PaymentRecorded,
)
from ledger.domain.vocabulary import Status
from ledger.store import booklog as store
from ledger.store import clublog, clubstore, open_store, queries
from ledger.store.base import Head, Tx
from ledger.store.chain import as_utc, link
from ledger.writes import AppendResult, WriteRequest, perform

MAX_PAGE_LIMIT = 1000


class WriteOffExceedsDebt(LedgerError):
    code = "rule-violation"


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

        def build(conn: Connection) -> bk.BookEntry:
            who = {name: self._party(conn, value, name)
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
            return PaymentRecorded(payer=who["payer"], payee=who["payee"],
                                   amount_minor=amount_minor, currency=currency,
                                   method=PaymentMethod(method), session_id=session_id,
                                   note=note)

        return self._append(build, request, "payment", payer, payee, amount_minor, currency,
                            method, session_id, note)

    def write_off(self, *, member: str, amount_minor: Any, currency: Any, reason: Any,
                  request: WriteRequest) -> AppendResult:
        """Write off what `member` owes, up to all of it in that currency; `reason` required."""

        def build(conn: Connection) -> bk.BookEntry:
            member_id = self._party(conn, member, "member", club=False)
            entry = DebtWrittenOff(member_id=member_id, amount_minor=amount_minor,
                                   currency=currency, reason=reason)
            items = bk.member_items(member_id, self._lines(conn, member_id))
            owes = -bk.account_summary(items)["balances"].get(currency, 0)
            if entry.amount_minor > owes:
                raise WriteOffExceedsDebt(
                    f"{member} owes {max(owes, 0)} {currency}: a write-off of "
                    f"{entry.amount_minor} would exceed it", rule="write-off-exceeds-debt",
                    field="amount_minor", owes_minor=max(owes, 0))
            return entry

        return self._append(build, request, "write-off", member, amount_minor, currency, reason)

    def count_cash(self, session_id: str, *, counted_minor: Any, currency: Any,
                   note: str | None = None, request: WriteRequest) -> AppendResult:
        """Record the cash counted on the table at the (ended) session's close."""

        def build(conn: Connection) -> bk.BookEntry:
            state = self._session(conn, session_id)
            if state.status != Status.ENDED:
                raise OutOfTurn("the cash is counted at the session's close: end the session "
                                "first", rule="cash-after-end", field="session_id")
            entry = CashCounted(session_id=session_id, counted_minor=counted_minor,
                                currency=currency, note=note)
            _same_currency(state, currency)
            return entry

        return self._append(build, request, "cash", session_id, counted_minor, currency, note)

    def _append(self, build: Callable[[Connection], bk.BookEntry], request: WriteRequest,
                *what: object) -> AppendResult:
        """Append the entry `build` makes as the next of the club's book log."""
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
            entry = build(tx.conn)
            row: dict[str, Any] = {
                "club_id": self.club_id, "seq": head.version + 1, "type": entry.type,
                "schema_version": entry.schema_version, "payload": entry.to_payload(),
                "recorded_at": datetime.now(UTC), "actor": actor.name,
                "member_id": actor.member_id, "token_id": actor.token_id,
                "idempotency_key": request.idempotency_key}
            row["hash"] = link(store.hashed_row(row), head.head_hash)
            row["position"] = tx.append_book_entry(row)
            return store.entry_dict(row)

        def current_version() -> int:
            with self.store.reading() as conn:
                return len(store.entries(conn, self.club_id))

        return perform(self.store, request, scope=scope, find=find, write=write,
                       current_version=current_version)

    def _party(self, conn: Connection, value: Any, field: str, *, club: bool = True) -> str:
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

    # -- reads ----------------------------------------------------------------------------

    def _lines(self, conn: Connection, member_id: str | None = None) -> list[Line]:
        """Every line of the club's books (session results and entries), in time order; only
        those that touch `member_id`, if given."""
        results = [bk.session_line(
            session_id=r.session_id, session_name=r.session_name, seat=r.seat,
            member_id=r.member_id, currency=r.currency, net_units=int(r.net_units),
            net_minor=None if r.net_minor is None else int(r.net_minor),
            ended_at=as_utc(r.ended_at))
            for r in store.load_results(conn, club_id=self.club_id, member_id=member_id)]
        names = {line.session_id or "": line.session_name or "" for line in results}
        entries = [bk.entry_line(bk.entry_from_record(r.type, r.schema_version, r.payload),
                                 seq=r.seq, at=as_utc(r.recorded_at),
                                 session_names=names)
                   for r in store.entries(conn, self.club_id)
                   if r.type != CashCounted.type and (member_id is None or member_id in (
                       r.payload.get("payer"), r.payload.get("payee"),
                       r.payload.get("member_id")))]
        return bk.in_order(results + entries)

    def _members(self, conn: Connection) -> dict[str, Any]:
        return {row.id: row for row in clubstore.list_members(conn, self.club_id)}

    def account(self, member_id: str, *, after: int = 0, limit: int = 100) -> dict[str, Any]:
        """The member's account: a page of its lines in time order with a running balance
        per currency, and what he owes or is owed, from which sessions, since when."""
        _check_page(after, limit)
        with self.engine.connect() as conn:
            member = clubstore.find_member(conn, self.club_id, member_id=member_id)
            if member is None:
                raise NotFound(f"no member {member_id}", rule="member-exists",
                               field="member_id")
            items = bk.member_items(member_id, self._lines(conn, member_id))
        # only the page's lines are written out (a member of 1,000 sessions has 1,000)
        page = [bk.item_dict(item, member_id, n)
                for n, item in enumerate(items[after:after + limit], after + 1)]
        return {"member_id": member_id, "name": member.name, "guest": bool(member.guest),
                **bk.account_summary(items), "entries": page, "total_entries": len(items),
                "next_after": after + limit if after + limit < len(items) else None}

    def account_csv(self, member_id: str) -> str:
        data = self.account(member_id, limit=MAX_PAGE_LIMIT)
        rows = [["n", "at", "kind", "description", "session_id", "session_name", "seq",
                 "currency", "amount_minor", "balance_minor", "open_minor"]]
        after = 0
        while True:
            rows += [[e[k] for k in rows[0]] for e in data["entries"]]
            if data["next_after"] is None:
                break
            after = data["next_after"]
            data = self.account(member_id, after=after, limit=MAX_PAGE_LIMIT)
        return bk.csv_text(rows)

    def _balances(self, conn: Connection) -> tuple[dict[str, dict[str, int]], list[Any]]:
        """Every account's balance per currency, the results summed by the database (a
        club's results are its largest table), and the club's book entries."""
        sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for member_id, currency, amount in store.result_sums(conn, self.club_id, "member_id"):
            sums[bk.member_account(member_id)][currency] += amount
        for session_id, currency, amount in store.result_sums(conn, self.club_id,
                                                              "session_id"):
            sums[bk.session_account(session_id)][currency] -= amount
        rows = store.entries(conn, self.club_id)
        for row in rows:
            entry = bk.entry_from_record(row.type, row.schema_version, row.payload)
            for p in entry.postings():
                sums[p.account][p.currency] += p.amount
        return {a: dict(sorted(c.items())) for a, c in sorted(sums.items())}, rows

    def accounts(self) -> dict[str, Any]:
        """Every member's balance per currency, the club's accounts and the zero-sum check."""
        with self.engine.connect() as conn:
            balances, rows = self._balances(conn)
            members = self._members(conn)
            head, broken = store.verify_chain(conn, self.club_id, rows)
        count = len(rows)
        totals = bk.zero_sum(balances)

        def held(account: str) -> dict[str, int]:
            return {c: -v for c, v in balances.get(account, {}).items()}

        sessions_left: dict[str, int] = defaultdict(int)
        for account, per_currency in balances.items():
            if account.startswith("session:"):
                for currency, amount in per_currency.items():
                    sessions_left[currency] -= amount
        return {
            "members": [{"member_id": m.id, "name": m.name, "guest": bool(m.guest),
                         "balances": balances.get(bk.member_account(m.id), {})}
                        for m in sorted(members.values(), key=lambda m: m.name_key)],
            "club": {"cash": held(bk.CLUB_CASH), "bank": held(bk.CLUB_BANK),
                     "written_off": held(bk.CLUB_WRITTEN_OFF),
                     "left_in_sessions": {c: v for c, v in sorted(sessions_left.items())
                                          if v}},
            "accounts": balances,
            "check": {"sums": totals, "zero_sum": not any(totals.values())},
            "log": {"entries": count, "chain_head": head, "chain_ok": broken is None,
                    "problem": broken},
        }

    def _chain(self, conn: Connection) -> tuple[str, str | None, int]:
        rows = store.entries(conn, self.club_id)
        head, broken = store.verify_chain(conn, self.club_id, rows)
        return head, broken, len(rows)

    def verify(self) -> list[str]:
        """Where the club's book log is broken ([] when its chain is whole and at its
        stored head), then what is wrong with its club log (who may act:
        ledger/store/clublog.py)."""
        with self.engine.connect() as conn:
            _, broken, _ = self._chain(conn)
            return ([f"book log: {broken}"] if broken else []) \
                + clublog.check(conn, self.club_id)

    def debts(self) -> dict[str, Any]:
        """Every member's open debts, oldest first, and their totals per currency."""
        with self.engine.connect() as conn:
            balances, rows = self._balances(conn)
            members = self._members(conn)
            owing = {(account[len("member:"):], currency): -amount
                     for account, per_currency in balances.items()
                     if account.startswith("member:")
                     for currency, amount in per_currency.items() if amount < 0}
            debits = [] if not owing else [bk.session_line(
                session_id=r.session_id, session_name=r.session_name, seat=r.seat,
                member_id=r.member_id, currency=r.currency, net_units=int(r.net_units),
                net_minor=None if r.net_minor is None else int(r.net_minor),
                ended_at=as_utc(r.ended_at))
                for r in store.load_results(conn, club_id=self.club_id, debits_only=True)]
        names = {line.session_id or "": line.session_name or "" for line in debits}
        debits += [bk.entry_line(bk.entry_from_record(r.type, r.schema_version, r.payload),
                                 seq=r.seq, at=as_utc(r.recorded_at),
                                 session_names=names)
                   for r in rows if r.type == PaymentRecorded.type]
        out = []
        for member_id, line, currency, amount in bk.open_debts(debits, owing):
            member = members[member_id]
            out.append({"member_id": member_id, "name": member.name, "currency": currency,
                        "amount_minor": amount, "session_id": line.session_id,
                        "session_name": line.session_name, "kind": str(line.kind),
                        "seq": line.seq, "since": line.at.isoformat(), "_at": line.at})
        out.sort(key=lambda d: (d["_at"], name_key(d["name"]), d["session_id"] or ""))
        totals: dict[str, int] = defaultdict(int)
        for d in out:
            del d["_at"]
            totals[d["currency"]] += d["amount_minor"]
        return {"debts": out, "totals": dict(sorted(totals.items()))}

    def debts_csv(self) -> str:
        data = self.debts()
        header = ["member_id", "name", "currency", "amount_minor", "session_id",
                  "session_name", "since"]
        return bk.csv_text([header, *([d[k] for k in header] for d in data["debts"])])

    def standings(self, *, since: datetime | None = None,
                  until: datetime | None = None) -> dict[str, Any]:
        """Per member, over the sessions that ended in [since, until]: sessions, deals
        dealt, net (units, and money per currency), loos and penalties; sorted by name."""
        since = since.astimezone(UTC) if since is not None else None
        until = until.astimezone(UTC) if until is not None else None
        with self.engine.connect() as conn:  # summed by the database
            rows = store.standing_sums(conn, self.club_id, since=since, until=until)
            members = self._members(conn)
        table: dict[str, dict[str, Any]] = {}
        for row in rows:
            if row.member_id not in members:
                continue
            m = members[row.member_id]
            s = table.setdefault(row.member_id, {
                "member_id": m.id, "name": m.name, "guest": bool(m.guest), "sessions": 0,
                "deals_dealt": 0, "net_units": 0, "net_minor": {}, "loos": 0,
                "loo_units": 0, "penalties": 0, "penalty_units": 0})
            s["sessions"] += int(row.sessions)
            for name in ("deals_dealt", "net_units", "loos", "loo_units", "penalties",
                         "penalty_units"):
                s[name] += int(getattr(row, name))
            if row.net_minor is not None:
                s["net_minor"][row.currency] = int(row.net_minor)
        for s in table.values():
            s["net_minor"] = dict(sorted(s["net_minor"].items()))
        ordered = sorted(table.values(), key=lambda s: (name_key(s["name"]), s["member_id"]))
        return {"since": since.isoformat() if since else None,
                "until": until.isoformat() if until else None, "members": ordered}

    # -- the statement's cash section ---------------------------------------------------

    def cash(self, conn: Connection, state: SessionState) -> dict[str, Any] | None:
        """The cash check of one session (ledger.domain.accounts.cash_check)."""
        def of_session(type_: str) -> list[Any]:
            return [row for row in store.entries(conn, self.club_id, types=(type_,))
                    if row.payload.get("session_id") == state.session_id]

        # Most statements have no count: then the payments are not read at all.
        counts: list[tuple[datetime, CashCounted]] = []
        for row in of_session(CashCounted.type):
            entry = bk.entry_from_record(row.type, row.schema_version, row.payload)
            assert isinstance(entry, CashCounted)
            counts.append((as_utc(row.recorded_at), entry))
        if not counts:
            return None
        payments: list[PaymentRecorded] = []
        for row in of_session(PaymentRecorded.type):
            entry = bk.entry_from_record(row.type, row.schema_version, row.payload)
            assert isinstance(entry, PaymentRecorded)
            payments.append(entry)
        currency = state.currency if state.money_per_unit_minor is not None \
            and state.currency else bk.UNITS
        return bk.cash_check(counts, pools_minor=bk.pools_minor(state), currency=currency,
                             payments=payments)


def cash_of(engine: Engine, club_id: str | None, state: SessionState) -> dict[str, Any] | None:
    """The statement's `cash` section for the session (None when nothing was counted)."""
    if club_id is None:
        return None
    with engine.connect() as conn:
        return Books(engine, club_id).cash(conn, state)




def _same_currency(state: SessionState, currency: Any) -> None:
    expected = state.currency if state.money_per_unit_minor is not None and state.currency \
        else bk.UNITS
    if currency != expected:
        raise InvalidInput(f"session {state.session_id} is played in {expected}, not "
                           f"{currency!r}", rule="session-currency", field="currency")


def _check_page(after: Any, limit: Any) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) \
            or not 1 <= limit <= MAX_PAGE_LIMIT:
        raise InvalidInput(f"limit must be from 1 to {MAX_PAGE_LIMIT}", rule="page-limit",
                           field="limit")
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise InvalidInput("after must be an entry number >= 0", rule="page-after",
                           field="after")
