"""Reading the club's books, now or as they stood at an earlier point (docs/books.md).

    cut = cut_at(conn, club_id, "2026-11-30T23:59:59Z")    # or a book position: "18"
    settle_up(conn, club_id, cut)                           # what /settle-up said then

A read sees the book entries numbered up to the cut and the session results' lines posted by
its time. A correction never rewrites a line: it posts what it changed at its own time
(ledger/domain/adjustments.py), so a month-end read after a late correction says exactly
what it said at the month's end, from the same projection as a read of now. Every function
here takes the cut; `Cut()` is now.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection

from ledger.clubs.service import NotFound, name_key
from ledger.domain import InvalidInput
from ledger.domain import accounts as bk
from ledger.domain import bookentries as be
from ledger.domain.accounts import Line
from ledger.domain.currencies import UNITS
from ledger.domain.periods import end_of, period_of
from ledger.sessions import history
from ledger.store import booklog as store
from ledger.store import clubstore, openitems
from ledger.store.chain import as_utc, utc_iso


@dataclass(frozen=True)
class Cut:
    """Where a read stops: book entries up to `seq`, results' lines posted by `at` (None:
    all)."""

    seq: int | None = None
    at: datetime | None = None
    asked: str | None = None

    def echo(self) -> dict[str, Any]:
        """What an answer as of a point says of it ({} for now): `as_of` as asked, the book
        position and the time it was read at."""
        if self.asked is None:
            return {}
        return {"as_of": {"asked": self.asked, "seq": self.seq,
                          "at": utc_iso(self.at) if self.at else None}}


NOW = Cut()
END_OF_TIME = datetime(9999, 12, 31, tzinfo=UTC)
MAX_SEQ = 2**31 - 1  # book_entries.seq is an INTEGER


def cut_at(conn: Connection, club_id: str, as_of: str | None) -> Cut:
    """The point `as_of` names: a book position (the number of a book entry: the books
    just after it was recorded) or an ISO-8601 time with its offset; now when None."""
    if as_of is None:
        return NOW
    seq = history.as_version(as_of)
    if seq is not None:
        # a position the log cannot hold is not looked up (the column is a 32-bit integer)
        at = store.entry_time(conn, club_id, seq) if 1 <= seq <= MAX_SEQ else None
        if at is None:
            last = store.seq_at(conn, club_id, END_OF_TIME)
            raise InvalidInput(f"as_of must be a book position from 1 to {last} (the "
                               f"club's book log) or a time; got {seq}",
                               rule="as-of-in-range", field="as_of")
        at = as_utc(at)
    else:
        at = history.as_moment(as_of)
        seq = store.seq_at(conn, club_id, at)
    return Cut(seq=seq, at=at, asked=str(as_of))


# -- the lines ---------------------------------------------------------------------------

def line_of_row(r: Any) -> Line:
    return bk.session_line(
        session_id=r.session_id, session_name=r.session_name, seat=r.seat,
        member_id=r.member_id, currency=r.currency, net_units=int(r.net_units),
        net_minor=None if r.net_minor is None else int(r.net_minor),
        posted_at=as_utc(r.posted_at), corrected_by=r.corrected_by, reason=r.reason)


def result_lines(conn: Connection, club_id: str, cut: Cut, *, member_id: str | None = None,
                 sign: int = 0) -> list[Line]:
    """The club's session results as lines (only the member's, only debits or credits)."""
    return [line_of_row(r) for r in store.load_results(
        conn, club_id=club_id, member_id=member_id, until=cut.at, sign=sign)]


@dataclass
class Log:
    """The club's book entries up to the cut, decoded once."""

    rows: list[Any]
    entries: dict[int, be.BookEntry] = field(default_factory=dict)
    postings: dict[int, list[be.BookPosting]] = field(default_factory=dict)

    @classmethod
    def read(cls, conn: Connection, club_id: str, cut: Cut) -> Log:
        rows = store.entries(conn, club_id, up_to=cut.seq)
        entries = {r.seq: be.entry_from_record(r.type, r.schema_version, r.payload)
                   for r in rows}
        # each entry's postings made (and checked balanced) once per read of the log
        return cls(rows, entries, {seq: e.postings() for seq, e in entries.items()})

    def recorded_at(self, seq: int) -> datetime:
        """When entry `seq` was recorded (in UTC)."""
        return next(as_utc(r.recorded_at) for r in self.rows if r.seq == seq)

    def reversed_by(self) -> dict[int, int]:
        """{seq of a cancelled entry: seq of its reversal}."""
        return {e.reverses: seq for seq, e in self.entries.items()
                if isinstance(e, be.EntryReversed)}

    def lines(self, session_names: dict[str, str], member_id: str | None = None
              ) -> list[Line]:
        account = be.member_account(member_id) if member_id else None
        out = []
        when: dict[int, datetime] | None = None
        for r in self.rows:
            postings = self.postings[r.seq]
            if not postings or (account and all(p.account != account for p in postings)):
                continue
            # the stored payload is the entry's to_payload(), as it was written
            payload = r.payload
            entry = self.entries[r.seq]
            if isinstance(entry, be.EntryReversed):  # named by the date of what it cancelled
                when = when or {x.seq: as_utc(x.recorded_at) for x in self.rows}
                cancelled = when.get(entry.reverses)
                payload = {**payload, "reverses_at": cancelled.isoformat() if cancelled
                           else None}
            out.append(bk.entry_line(entry, seq=r.seq, at=as_utc(r.recorded_at),
                                     session_names=session_names, postings=postings,
                                     payload=payload))
        return out

    def currencies(self) -> be.CurrenciesSet:
        """The currencies the club keeps at the cut."""
        return _last_currencies(self.entries.values())


def _last_currencies(entries: Iterable[be.BookEntry]) -> be.CurrenciesSet:
    found = be.DEFAULT_CURRENCIES
    for entry in entries:
        if isinstance(entry, be.CurrenciesSet):
            found = entry
    return found


def currencies(conn: Connection, club_id: str, cut: Cut) -> be.CurrenciesSet:
    """The currencies the club keeps at the cut, reading only its changes of currency."""
    return _last_currencies(
        be.entry_from_record(r.type, r.schema_version, r.payload)
        for r in store.entries(conn, club_id, types=(be.CurrenciesSet.type,), up_to=cut.seq))


def closed(conn: Connection, club_id: str, cut: Cut) -> dict[str, int]:
    """{period: the seq of its closing} of the periods closed at the cut, reading only the
    closings and reopenings."""
    return be.closed_periods(
        (r.seq, be.entry_from_record(r.type, r.schema_version, r.payload))
        for r in store.entries(conn, club_id, types=CLOSINGS, up_to=cut.seq))


CLOSINGS = (be.PeriodClosed.type, be.PeriodReopened.type)


def in_closed_periods(conn: Connection, club_id: str, cut: Cut, lines: list[Line]
                      ) -> list[Line]:
    """The lines, each adjustment of a session whose result was posted in a period closed
    at the cut saying so (`closed_period`): it is posted in the open period."""
    periods = closed(conn, club_id, cut) if any(
        line.kind == bk.EntryKind.ADJUSTMENT for line in lines) else {}
    if not periods:
        return lines
    ended: dict[str, datetime] = {}
    for line in lines:
        if line.kind == bk.EntryKind.SESSION and line.session_id:
            ended.setdefault(line.session_id, line.at)
    out = []
    for line in lines:
        at = ended.get(line.session_id or "")
        period = period_of(at) if at is not None else None
        if line.kind == bk.EntryKind.ADJUSTMENT and period in periods \
                and line.at > end_of(period):
            line = replace(line, detail={**line.detail, "closed_period": period})
        out.append(line)
    return out


def _names(lines: Iterable[Line]) -> dict[str, str]:
    return {line.session_id or "": line.session_name or "" for line in lines}


def members_of(conn: Connection, club_id: str) -> dict[str, Any]:
    return {row.id: row for row in clubstore.list_members(conn, club_id)}


# -- a member's account --------------------------------------------------------------------

def member_items(conn: Connection, club_id: str, cut: Cut, member_id: str
                 ) -> tuple[Any, list[bk.Item]]:
    member = clubstore.find_member(conn, club_id, member_id=member_id)
    if member is None:
        raise NotFound(f"no member {member_id}", rule="member-exists", field="member_id")
    results = in_closed_periods(conn, club_id, cut,
                                result_lines(conn, club_id, cut, member_id=member_id))
    entries = Log.read(conn, club_id, cut).lines(_names(results), member_id)
    return member, bk.member_items(member_id, results + entries)


def account(conn: Connection, club_id: str, cut: Cut, member_id: str, *, after: int,
            limit: int) -> dict[str, Any]:
    """A page of the member's lines with running balances, and his open items."""
    member, items = member_items(conn, club_id, cut, member_id)
    # only the page's lines are written out (a member of 1,000 sessions has 1,000)
    page = [bk.item_dict(item, member_id, n)
            for n, item in enumerate(items[after:after + limit], after + 1)]
    return {"member_id": member_id, "name": member.name, "guest": bool(member.guest),
            **bk.account_summary(items, member_id), "entries": page, "total_entries": len(items),
            "next_after": after + limit if after + limit < len(items) else None,
            **cut.echo()}


# -- every account -------------------------------------------------------------------------

def balances(conn: Connection, club_id: str, cut: Cut, *, sessions: bool = True
             ) -> dict[str, dict[str, int]]:
    """Every account's balance per currency at the cut: now, as the database keeps them
    (`account_balances`, one row an account); as of an earlier point, summed by the
    database: the results' lines posted by then (a club's largest table) and the book
    entries' postings up to its position (`book_postings`, the projection of the book log
    written with each entry: ledger/books/postings.py). Without `sessions`, the sessions'
    own accounts are left out (the open items need only the members')."""
    sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    if cut.seq is None and cut.at is None:  # now: the balances the database keeps
        for account_, currency, amount in store.kept_balances(conn, club_id,
                                                              sessions=sessions):
            sums[account_][currency] += amount
        return {a: dict(sorted(c.items())) for a, c in sorted(sums.items())}
    for by, account_of, sign in (("member_id", be.member_account, 1),
                                 ("session_id", be.session_account, -1))[:2 if sessions else 1]:
        for key, currency, amount in store.result_sums(conn, club_id, by, until=cut.at):
            sums[account_of(key)][currency] += sign * amount
    for account_, currency, amount in store.posting_sums(conn, club_id, up_to=cut.seq):
        if sessions or not account_.startswith("session:"):
            sums[account_][currency] += amount
    return {a: dict(sorted(c.items())) for a, c in sorted(sums.items())}


def held(balances_: dict[str, dict[str, int]], account_: str) -> dict[str, int]:
    """What the club holds in `account_` per currency (its balance, the other way round)."""
    return {c: -v for c, v in balances_.get(account_, {}).items() if v}


def left_in_sessions(conn: Connection, club_id: str, cut: Cut) -> dict[str, int]:
    """Per currency, what is left in the club's sessions' own accounts at the cut (pools
    not paid out), summed by the database."""
    if cut.seq is None and cut.at is None:
        totals = store.kept_session_totals(conn, club_id)
    else:
        totals = [(c, -n) for _, c, n in store.result_sums(conn, club_id, "currency",
                                                           until=cut.at)]
    return {c: -n for c, n in sorted(totals) if n}


# -- what members owe the club, and what it owes them ---------------------------------------

SIDES = {"debts": False, "payables": True}  # the side's name: whether it is the credits


def open_items(conn: Connection, club_id: str, cut: Cut, *,
               sides: tuple[str, ...] = ("debts", "payables")) -> dict[str, Any]:
    """The open debts (`debts`: what members owe the club) and what the club owes them
    (`payables`), oldest first, and their totals per currency. Now: as the database keeps
    them (`open_items`, ledger/store/openitems.py); as of an earlier point, FIFO's open
    lines found from the newest end (bk.open_lines): the members' balances, then the
    results' lines and the book postings from the newest back only as far as the open
    items reach, read once for both sides."""
    if cut.seq is None and cut.at is None:
        out: dict[str, Any] = {}
        for side in sides:
            out[side], out[f"{side}_totals"], _ = open_page(conn, club_id, side)
        return out
    sums = balances(conn, club_id, cut, sessions=False)
    members = members_of(conn, club_id)
    owing, owed = openitems.sides(
        (account_, currency, amount) for account_, per_currency in sums.items()
        for currency, amount in per_currency.items()
        if _SIDE_OF[amount > 0] in sides)
    found = openitems.walk(conn, club_id, owing, owed, until=cut.at, up_to=cut.seq)
    # a book entry's line names its session (a reversed payment's) by the session's results
    unnamed = {line.session_id for side in found for _, line, _, _ in side
               if line.session_id and line.session_name is None}
    names = store.session_names(conn, club_id, unnamed) if unnamed else {}
    out = {}
    for side in sides:
        out[side], out[f"{side}_totals"] = _listed(found[SIDES[side]], members, names)
    return {**out, **cut.echo()}


_SIDE_OF = {False: "debts", True: "payables"}


def open_page(conn: Connection, club_id: str, side: str, *, after: int = 0,
              limit: int | None = None) -> tuple[list[dict[str, Any]], dict[str, int], bool]:
    """(a page of one side's open items now, as the answers list them, straight from the
    table in their order; the side's totals per currency, from the kept balances; whether
    more follow the page)."""
    rows, more = openitems.page(conn, club_id, SIDES[side], after=after, limit=limit)
    unnamed = {r.session_id for r in rows if r.session_id and r.session_name is None}
    names = store.session_names(conn, club_id, unnamed) if unnamed else {}
    listed = [_item(r.member_id, r.name, r.currency, abs(int(r.open_minor)), r.session_id,
                    r.session_name or names.get(r.session_id or ""), r.kind, r.seq,
                    r.corrected_by, as_utc(r.at)) for r in rows]
    return listed, openitems.totals(conn, club_id, SIDES[side]), more


def _item(member_id: str, name: str, currency: str, amount: int, session_id: str | None,
          session_name: str | None, kind: str, seq: int | None, corrected_by: int | None,
          since: datetime) -> dict[str, Any]:
    return {"member_id": member_id, "name": name, "currency": currency,
            "amount_minor": amount, "session_id": session_id, "session_name": session_name,
            "kind": kind, "seq": seq, "corrected_by": corrected_by,
            "since": since.isoformat()}


def _listed(lines: list[bk.OpenLine], members: dict[str, Any], names: dict[str, str]
            ) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The open lines oldest first, as the answer lists them, and their totals."""
    keyed = []
    for member_id, line, currency, amount in lines:
        name = members[member_id].name
        keyed.append(((line.at, name_key(name), line.session_id or ""), _item(
            member_id, name, currency, amount, line.session_id,
            line.session_name or names.get(line.session_id or ""), str(line.kind), line.seq,
            line.detail.get("corrected_by"), line.at)))
    keyed.sort(key=lambda k: k[0])
    out = [d for _, d in keyed]
    totals: dict[str, int] = defaultdict(int)
    for d in out:
        totals[d["currency"]] += d["amount_minor"]
    return out, dict(sorted(totals.items()))


def settle_up(conn: Connection, club_id: str, cut: Cut) -> dict[str, Any]:
    """Per currency: who pays the club, whom the club pays, what it holds in cash and at
    the bank, and its position (holdings + owed to it - owed by it)."""
    # the sessions' own accounts only as what is left in them per currency (one an ended
    # session: a club's largest list, summed by the database)
    sums = balances(conn, club_id, cut, sessions=False)
    left = left_in_sessions(conn, club_id, cut)
    members = members_of(conn, club_id)
    per: dict[str, dict[str, Any]] = {}

    def of(currency: str) -> dict[str, Any]:
        return per.setdefault(currency, {"currency": currency, "pays_club": [],
                                         "club_pays": [], "receivable_minor": 0,
                                         "payable_minor": 0})

    for m in sorted(members.values(), key=lambda m: m.name_key):
        for currency, amount in sums.get(be.member_account(m.id), {}).items():
            if amount:
                side = of(currency)
                side["club_pays" if amount > 0 else "pays_club"].append(
                    {"member_id": m.id, "name": m.name, "amount_minor": abs(amount)})
                side["payable_minor" if amount > 0 else "receivable_minor"] += abs(amount)
    cash, bank = held(sums, be.CLUB_CASH), held(sums, be.CLUB_BANK)
    written_off = held(sums, be.CLUB_WRITTEN_OFF)
    over_short = held(sums, be.CLUB_OVER_SHORT)
    for currency in {*cash, *bank, *written_off, *left, *over_short}:
        of(currency)
    for currency, side in per.items():
        side["cash_minor"], side["bank_minor"] = cash.get(currency, 0), bank.get(currency, 0)
        side["written_off_minor"] = written_off.get(currency, 0)
        side["cash_over_short_minor"] = over_short.get(currency, 0)
        side["left_in_sessions_minor"] = left.get(currency, 0)
        # Every account sums to zero, so the position is what the club gave up (written
        # off, the tins' shortages net of surpluses) and what is left in pools, with the
        # sign of a loss: a check, not a figure.
        side["position_minor"] = (side["cash_minor"] + side["bank_minor"]
                                  + side["receivable_minor"] - side["payable_minor"])
        side["balanced"] = side["position_minor"] == -(
            side["written_off_minor"] + side["cash_over_short_minor"]
            + side["left_in_sessions_minor"])
    kept = currencies(conn, club_id, cut)
    return {"currency": kept.currency, "accepted": list(kept.accepted),
            "currencies": [per[c] for c in sorted(per)], **cut.echo()}


# -- the season's standings ------------------------------------------------------------------

SUMMED = ("sessions", "deals_dealt", "net_units", "loos", "loo_units", "penalties", "penalty_units")


def standings(conn: Connection, club_id: str, cut: Cut, *, since: datetime | None,
              until: datetime | None) -> dict[str, Any]:
    """Per member, over the results' lines posted in [since, until] by the cut (a session's
    result when it ended, a correction's change when it was made): sessions, deals dealt,
    net (units, and money per currency), loos and penalties; by name. A member whose lines
    there sum to nothing at all (a session ended, then reopened) is left out."""
    last = until if cut.at is None or (until is not None and until < cut.at) else cut.at
    # every line, now: the sums the database keeps (one row a member and currency)
    rows = store.kept_standings(conn, club_id) if since is None and last is None \
        else store.standing_sums(conn, club_id, since=since, until=last)
    members = members_of(conn, club_id)
    table: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row.member_id not in members or not any(
                int(getattr(row, name) or 0) for name in (*SUMMED, "net_minor")):
            continue
        m = members[row.member_id]
        s = table.setdefault(row.member_id, {
            "member_id": m.id, "name": m.name, "guest": bool(m.guest),
            "net_minor": {}, **{name: 0 for name in SUMMED}})
        for name in SUMMED:
            s[name] += int(getattr(row, name))
        # money per currency; sessions played for counters under "units", as the books
        net = row.net_minor if row.currency != UNITS else row.net_units
        if net is not None:
            s["net_minor"][row.currency] = s["net_minor"].get(row.currency, 0) + int(net)
    for s in table.values():
        s["net_minor"] = dict(sorted(s["net_minor"].items()))
    ordered = sorted(table.values(), key=lambda s: (name_key(s["name"]), s["member_id"]))
    return {"since": since.isoformat() if since else None,
            "until": until.isoformat() if until else None, "members": ordered,
            **cut.echo()}


# -- the register of book entries ------------------------------------------------------------

REGISTER_COLUMNS = ["seq", "recorded_at", "kind", "type", "payer", "payer_name", "payee",
                    "payee_name", "member_id", "member_name", "currency", "amount_minor",
                    "method", "session_id", "counted_minor", "reverses", "reversed_by",
                    "note", "reason", "difference", "evening", "actor"]
# The register as CSV (docs/books.md, "Exports"): names first, money in its currency with the
# minor units beside, the ids last; a reversal's amount negative, so that a column of one
# payer's payments sums to what he paid.
REGISTER_CSV_COLUMNS = [
    "seq", "recorded_at", "kind", "payer_name", "payee_name", "member_name", "session_name",
    "currency", "amount", "amount_minor", "method", "counted", "counted_minor", "reverses",
    "reversed_by", "note", "reason", "difference", "evening", "actor", "type", "payer",
    "payee", "member_id", "session_id"]


def register_csv_rows(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The register's rows as its CSV has them: a reversal signed as what it moves (minus
    what it cancelled)."""
    return [{**e, "amount_minor": -e["amount_minor"]}
            if e["kind"] == "reversal" and e["amount_minor"] is not None else e
            for e in entries]


KINDS = {"PaymentRecorded": "payment", "DebtWrittenOff": "write-off",
         "CashCounted": "cash-count", "EntryReversed": "reversal",
         "CurrenciesSet": "currencies", "FloatOpened": "float",
         "CashDifferenceBooked": "cash-difference", "SessionJoinedEvening": "evening",
         "OpeningBalance": "opening-balance", "PeriodClosed": "period-closed",
         "PeriodReopened": "period-reopened"}


@dataclass(frozen=True)
class Filters:
    """Which entries the register keeps (None: any)."""

    member_id: str | None = None
    kind: str | None = None
    method: str | None = None
    session_id: str | None = None
    evening: str | None = None
    currency: str | None = None
    since: datetime | None = None
    until: datetime | None = None


REGISTER_CHUNK = 500  # the book entries the register reads at a time


def _entry(r: Any) -> be.BookEntry:
    return be.entry_from_record(r.type, r.schema_version, r.payload)


def register(conn: Connection, club_id: str, cut: Cut, filters: Filters, *, after: int,
             limit: int) -> dict[str, Any]:
    """The book log's entries the filters keep, after entry `after`, at most `limit`. A
    reversal shows what it cancelled (payer, payee, amount...) with `reverses`; a cancelled
    entry shows `reversed_by`.

    Only what the page needs is read: the log from `after` on (the page and one more entry,
    then REGISTER_CHUNK at a time) until the page is full and one more entry is kept (or the
    log ends), the reversals
    (for `reversed_by`) and the entries the page's reversals cancelled, so that a page costs
    the same however long the log (docs/performance.md)."""
    members = members_of(conn, club_id)
    reversals = {r.seq: _entry(r) for r in store.entries(
        conn, club_id, types=(be.EntryReversed.type,), up_to=cut.seq)}
    undone = {e.reverses: seq for seq, e in reversals.items()
              if isinstance(e, be.EntryReversed)}
    out: list[dict[str, Any]] = []
    next_after = None
    position = after
    size = min(REGISTER_CHUNK, limit + 1)  # a page and the one after it, unless filtered
    while next_after is None:
        rows = store.entries(conn, club_id, up_to=cut.seq, after=position, limit=size)
        entries = {r.seq: _entry(r) for r in rows}
        wanted = {e.reverses for e in entries.values()
                  if isinstance(e, be.EntryReversed) and e.reverses not in entries}
        cancelled = {**entries, **({r.seq: _entry(r) for r in store.entries(
            conn, club_id, seqs=wanted)} if wanted else {})}
        for r in rows:
            row = _register_row(r, entries[r.seq], cancelled, undone, members)
            if not _kept(row, filters):
                continue
            if len(out) == limit:
                next_after = out[-1]["seq"]
                break
            out.append(row)
        if len(rows) < size:
            break
        position, size = rows[-1].seq, REGISTER_CHUNK
    named = {row["session_id"] for row in out if row["session_id"]}
    names = store.session_names(conn, club_id, named) if named else {}
    if named - names.keys():  # a table still open, joined to a tin or paid for: its name
        names.update(store.open_session_names(conn, club_id, named - names.keys()))
    for row in out:
        row["session_name"] = names.get(row["session_id"] or "")
    return {"entries": out, "next_after": next_after, **cut.echo()}


def _register_row(r: Any, entry: be.BookEntry, cancelled: dict[int, be.BookEntry],
                  undone: dict[int, int], members: dict[str, Any]) -> dict[str, Any]:
    data = entry.to_payload()
    if isinstance(entry, be.EntryReversed):  # a reversal: what it cancelled, and why
        data = {**cancelled[entry.reverses].to_payload(), "reason": entry.reason}

    # the member an entry is about: written off, or answering for a tin's shortage
    member = data.get("member_id") or (data.get("account") if data.get("account") not in (
        None, be.CLUB) else None)

    def name(party: Any) -> str | None:
        if party == be.CLUB:
            return "club"
        return members[party].name if party in members else None

    return {"seq": r.seq, "recorded_at": utc_iso(r.recorded_at), "kind": KINDS[r.type],
            "type": r.type, "payer": data.get("payer"), "payer_name": name(data.get("payer")),
            "payee": data.get("payee"), "payee_name": name(data.get("payee")),
            "member_id": member, "member_name": name(member),
            "currency": data.get("currency"), "amount_minor": data.get("amount_minor"),
            "method": data.get("method"), "session_id": data.get("session_id"),
            "counted_minor": data.get("counted_minor"),
            "reverses": getattr(entry, "reverses", None), "reversed_by": undone.get(r.seq),
            "note": data.get("note"), "reason": data.get("reason"),
            "difference": data.get("difference"), "evening": data.get("evening"),
            "actor": r.actor}


def _kept(row: dict[str, Any], f: Filters) -> bool:
    if f.member_id is not None and f.member_id not in (row["payer"], row["payee"],
                                                       row["member_id"]):
        return False
    if f.kind is not None and row["kind"] != f.kind:
        return False
    for name in ("method", "session_id", "evening", "currency"):
        wanted = getattr(f, name)
        if wanted is not None and row[name] != wanted:
            return False
    at = datetime.fromisoformat(row["recorded_at"])
    return (f.since is None or at >= f.since) and (f.until is None or at < f.until)
