"""The club's books for a period as a Beancount file, for the club's accountant
(docs/books.md, "The books as Beancount").

    text = beancount(engine, club_id, date(2026, 10, 1), date(2026, 10, 31))

One account per member (Liabilities:Members:<name>) and for the club's tin (Assets:Cash),
bank (Assets:Bank), each session's pools (Equity:Pools:<session>), the debts written off
(Expenses:Written-Off), the tins' shortages and surpluses (Expenses:Cash-Over-Short) and the
balances brought in (Equity:Opening-Balances). The file opens them on the period's first
day with every balance brought forward (the books as of the instant before), then one
transaction per book entry and per session result (a result, or a correction's change to
it) in the period, each on the day (UTC) it was posted, and ends with a `balance` assertion
for every account and currency on the day after the period, the books as of its last
instant: what /accounts says as of it. Its accounts are those that hold something at either
end or move in the period (a session's square account of an earlier month is left out).

Beancount counts what an account holds with the sign of an asset, the books with the sign
of what the club owes: every amount here is the book's posting negated (the club's cash
held is positive; a member the club owes is a negative liability). Amounts are money in the
currency's decimals (minor units / 10^decimals), counters' units as the commodity UNITS.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, Engine

from ledger.books import reads
from ledger.domain import InvalidInput
from ledger.domain import accounts as bk
from ledger.domain import bookentries as be
from ledger.domain.currencies import UNITS, decimals
from ledger.store import booklog as store
from ledger.store import clubstore
from ledger.store.chain import as_utc

MAX_DAYS = 3660  # ten years in one file

CLUB_ACCOUNTS = {be.CLUB_CASH: "Assets:Cash", be.CLUB_BANK: "Assets:Bank",
                 be.CLUB_WRITTEN_OFF: "Expenses:Written-Off",
                 be.CLUB_OVER_SHORT: "Expenses:Cash-Over-Short",
                 be.CLUB_OPENING: "Equity:Opening-Balances"}


def check_range(first: date, last: date) -> None:
    if last < first:
        raise InvalidInput(f"to ({last}) is before from ({first})", rule="date-range",
                           field="to")
    if first == date.min or last == date.max:  # the day before and the day after are named
        raise InvalidInput("a period from 0001-01-02 to 9999-12-30 at the most",
                           rule="date-range", field="to" if last == date.max else "from")
    if (last - first).days > MAX_DAYS:
        raise InvalidInput(f"a file covers at most {MAX_DAYS} days", rule="date-range",
                           field="to")


def beancount(engine: Engine, club_id: str, first: date, last: date) -> str:
    """The club's books from `first` to `last` (dates, both included, in UTC)."""
    check_range(first, last)
    start = datetime.combine(first, time(), tzinfo=UTC)
    end = datetime.combine(last + timedelta(days=1), time(), tzinfo=UTC) \
        - timedelta(microseconds=1)
    with engine.connect() as conn:
        before = reads.cut_at(conn, club_id, (start - timedelta(microseconds=1)).isoformat())
        after = reads.cut_at(conn, club_id, end.isoformat())
        opened = reads.balances(conn, club_id, before)
        closing = reads.balances(conn, club_id, after)
        log = reads.Log.read(conn, club_id, after)
        names = Names(conn, club_id)
        results = store.load_results(conn, club_id=club_id, since=start, until=end)
        kept = log.currencies().currency
        # the accounts that hold something at either end or move in the period (not every
        # square session account of the club's past)
        posted = {p.account for seq, postings in log.postings.items()
                  if seq > (before.seq or 0) for p in postings}
        posted |= {a for r in results for line in [reads.line_of_row(r)]
                   for a in (p.account for p in line.postings)}
        used = {a for a in {*opened, *closing} if any(opened.get(a, {}).values())
                or any(closing.get(a, {}).values()) or a in posted}
        names.name_sessions(conn, club_id, {a[len("session:"):] for a in used
                                            if a.startswith("session:")})
        moves = [*_entries(log, before.seq or 0, names), *_results(results, names)]
    moves.sort(key=lambda move: move[0])
    out = [f'option "title" "{_quote(names.club)}: the books from {first} to {last}"',
           f'option "operating_currency" "{kept}"', ""]
    out += [f"{first} open {names.account(a)}" for a in sorted(used, key=names.account)]
    brought = [(a, c, n) for a, per in opened.items() for c, n in per.items() if n]
    if brought:
        out += ["", f'{first} * "Balances brought forward"',
                f'  as-of: "{before.at.isoformat() if before.at else start.isoformat()}"']
        out += [_posting(names.account(a), c, n) for a, c, n in sorted(brought)]
    for _, lines in moves:
        out += ["", *lines]
    out.append("")
    following = last + timedelta(days=1)
    out += [f"{following} balance {names.account(a)} {_money(c, n)}"
            for a in sorted(used, key=names.account) for c, n in closing[a].items()]
    return "\n".join(out) + "\n"


class Names:
    """The Beancount account of each account of the books: members by name, sessions by
    name and id, each name unique."""

    def __init__(self, conn: Connection, club_id: str):
        club = clubstore.find_club(conn, club_id)
        self.club = club.name if club is not None else club_id
        self.members: dict[str, str] = {}  # id: the account's last part
        self.people: dict[str, str] = {be.CLUB: "the club"}  # id: the name, in words
        taken: set[str] = set()
        for m in sorted(clubstore.list_members(conn, club_id), key=lambda m: m.id):
            name = _component(m.name)
            if name in taken:
                name = f"{name}-{_component(m.id)}"
            taken.add(name)
            self.members[m.id], self.people[m.id] = name, m.name
        self.sessions: dict[str, str] = {}
        self.session_names: dict[str, str] = {}

    def name_sessions(self, conn: Connection, club_id: str, ids: set[str]) -> None:
        self.session_names = store.session_names(conn, club_id, ids) if ids else {}
        self.sessions = {sid: f"{_component(name)}-{re.sub('[^A-Za-z0-9]', '', sid)[:8]}"
                         for sid, name in self.session_names.items()}

    def tin(self, payload: dict[str, Any]) -> str:
        if payload.get("evening"):
            return f"the evening of {payload['evening']}"
        sid = str(payload.get("session_id"))
        return f"session {self.session_names.get(sid, sid)}"

    def account(self, account: str) -> str:
        if account in CLUB_ACCOUNTS:
            return CLUB_ACCOUNTS[account]
        kind, _, key = account.partition(":")
        if kind == "member":
            return f"Liabilities:Members:{self.members.get(key) or _component(key)}"
        if kind == "session":
            return f"Equity:Pools:{self.sessions.get(key) or _component(key)}"
        return "Equity:" + "-".join(_component(part) for part in account.split(":"))


def _entries(log: reads.Log, after: int, names: Names
             ) -> Iterable[tuple[tuple[Any, ...], list[str]]]:
    """One transaction per book entry of the period (those that move no money too, with
    no postings)."""
    for r in log.rows:
        if r.seq <= after:
            continue
        entry = log.entries[r.seq]
        at = as_utc(r.recorded_at)
        line = bk.entry_line(entry, seq=r.seq, at=at, postings=log.postings[r.seq],
                             payload=r.payload)
        what = _words(entry, line, names)
        lines = [f'{at.date()} * "{reads.KINDS[entry.type]}" "{_quote(what)}"',
                 f'  seq: "{r.seq}"', f'  recorded-at: "{at.isoformat()}"',
                 f'  actor: "{_quote(r.actor)}"']
        lines += [_posting(names.account(p.account), p.currency, p.amount)
                  for p in log.postings[r.seq]]
        yield (at, 1, r.seq), lines


def _words(entry: be.BookEntry, line: bk.Line, names: Names) -> str:
    """A book entry in words, its parties by name and its amounts in money."""
    d = entry.to_payload()
    currency = str(d.get("currency", ""))

    def money(key: str) -> str:
        return _money(currency, -int(d.get(key) or 0))

    if isinstance(entry, be.PaymentRecorded):
        return (f"{names.people.get(entry.payer, entry.payer)} paid "
                f"{names.people.get(entry.payee, entry.payee)} {money('amount_minor')} "
                f"({entry.method})")
    if isinstance(entry, be.OpeningBalance):
        return (f"opening balance of {names.people.get(entry.member_id, entry.member_id)} "
                f"as of {entry.as_of}" + (f": {entry.note}" if entry.note else ""))
    if isinstance(entry, be.DebtWrittenOff):
        return (f"{money('amount_minor')} of what "
                f"{names.people.get(entry.member_id, entry.member_id)} owed written off: "
                f"{entry.reason}")
    if line.kind is not None:  # a reversal, a cash difference: as the accounts say it
        return bk.describe(line, "")
    return {"CashCounted": f"cash counted in {names.tin(d)}: {money('counted_minor')}",
            "FloatOpened": f"float of {names.tin(d)}: {money('amount_minor')}",
            "SessionJoinedEvening": f"{names.tin({'session_id': d.get('session_id')})} "
                                    f"joined the evening of {d.get('evening')}",
            "CurrenciesSet": f"the club keeps its books in {currency}",
            "PeriodClosed": f"period {d.get('period')} closed",
            "PeriodReopened": f"period {d.get('period')} reopened: {d.get('reason')}",
            }.get(entry.type, entry.type)


def _results(rows: list[Any], names: Names) -> Iterable[tuple[tuple[Any, ...], list[str]]]:
    """One transaction per session result (a session's end, or a correction's change to
    it): the members' nets against the session's pools."""
    groups: dict[tuple[str, int], list[Any]] = defaultdict(list)
    for r in rows:
        groups[(r.session_id, r.version)].append(r)
    for (session_id, version), group in groups.items():
        first = group[0]
        lines = [reads.line_of_row(r) for r in group]
        postings = [p for line in lines for p in line.postings]
        if not postings:
            continue  # a seat with no member behind it is on no account
        at = as_utc(first.posted_at)
        what = f"result of session {first.session_name}" if first.corrected_by is None \
            else (f"correction of session {first.session_name}, version "
                  f"{first.corrected_by}: {first.reason}")
        out = [f'{at.date()} * "session" "{_quote(what)}"', f'  session: "{session_id}"',
               f'  version: "{version}"', f'  posted-at: "{at.isoformat()}"']
        sums: dict[tuple[str, str], int] = defaultdict(int)
        for p in postings:
            sums[(p.account, p.currency)] += p.amount
        out += [_posting(names.account(a), c, n) for (a, c), n in sums.items() if n]
        if len(out) > 4:
            yield (at, 0, session_id, version), out


def _posting(account: str, currency: str, amount: int) -> str:
    return f"  {account}  {_money(currency, amount)}"


def _money(currency: str, amount: int) -> str:
    """The book's amount as Beancount holds it: negated, in money."""
    places = decimals(currency)
    value = Decimal(-amount).scaleb(-places)
    return f"{value:.{places}f} {'UNITS' if currency == UNITS else currency}"


def _component(text: str) -> str:
    """A part of a Beancount account name: ASCII letters, digits and dashes, starting with
    a capital letter."""
    ascii_ = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = [w for w in re.split(r"[^A-Za-z0-9]+", ascii_) if w]
    joined = "-".join(w[0].upper() + w[1:] for w in words)
    return joined if joined[:1].isalpha() else f"X{joined}"


def _quote(text: Any) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
