"""The members' open items now (`open_items`), kept by the writes that post.

    hold(conn, club_id, accounts, standings, totals)   # the kept rows a write moves, in order
    keep(conn, club_id, added, rewalk)                 # the open items after the write's lines
    walk(conn, club_id, owing, owed, until=, up_to=)   # FIFO's open lines, from the newest end
    walked(conn, club_id)                              # the table as the walk makes it
    problems(conn, club_id) / rebuild(conn, club_id)   # verify's check, and the rebuild
    page(conn, club_id, credits, after=, limit=)       # /debts' and /payables' page

The walk of the books stays the definition of the open items (accounts.open_lines: a member
who owes X in a currency still owes his newest debit lines back to X). A write that posts
lines to a member applies FIFO to what is kept, by its own function (accounts.allocate):
each new line first settles his oldest open items of the other sign, what is left of it
stays open; only his newest open item and the oldest ones it settles are read. That is the
walk's answer when the new lines come after his newest open item and his balance keeps its
side; else (he had nothing open, a line came in older, his balance changed side, a line was
taken back or changed) his own lines are walked from the newest back, as far as his balance
reaches (an index of his results by time). `problems` holds the two to each other.

Every write holds the kept rows it moves (`account_balances`, `member_standings`,
`session_totals`) before it moves any, in one order (the table, then the account or member,
then the currency), so that two writes that move the same accounts the other way round wait
for each other and never deadlock on PostgreSQL (docs/books.md). A member's open items are
written only while his balance's row is held.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    literal,
    select,
    tuple_,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.elements import ColumnElement

from ledger.domain import accounts as bk
from ledger.domain import bookentries as be
from ledger.domain.accounts import Line
from ledger.domain.errors import InvariantBroken

from . import booklog
from .chain import as_utc
from .tables import account_balances, members, open_items

MEMBER = "member:"
Pair = tuple[str, str]  # (member id, currency)


# -- the lines, as the walk reads them ---------------------------------------------------------

def result_line(row: Any) -> Line:
    """A row of `session_results` (or its values) as its line (its version kept: it names
    the line)."""
    r = row if isinstance(row, dict) else row._mapping
    line = bk.session_line(
        session_id=r["session_id"], session_name=r["session_name"], seat=r["seat"],
        member_id=r["member_id"], currency=r["currency"], net_units=int(r["net_units"]),
        net_minor=None if r["net_minor"] is None else int(r["net_minor"]),
        posted_at=as_utc(r["posted_at"]), corrected_by=r["corrected_by"],
        reason=r["reason"])
    line.detail["version"] = int(r["version"])
    return line


def posted_lines(rows: Iterable[Any]) -> Iterator[Line]:
    """The book entries' lines from the rows of `book_postings` (an entry's rows one after
    another), each with its postings among those rows: what the open items' walk needs of
    an entry (its time, number, kind and session), without its payload read."""
    group: list[Any] = []
    for row in rows:
        r = SimpleNamespace(**row) if isinstance(row, dict) else row
        if group and r.seq != group[0].seq:
            yield _posted_line(group)
            group = []
        group.append(r)
    if group:
        yield _posted_line(group)


def _posted_line(rows: list[Any]) -> Line:
    first = rows[0]
    return Line(at=as_utc(first.recorded_at), kind=bk.entry_kind(first.type),
                postings=tuple(be.BookPosting(r.account, r.currency, int(r.amount_minor))
                               for r in rows),
                session_id=first.session_id, seq=int(first.seq),
                detail={"type": first.type})


def line_key(line: Line) -> str:
    """The line's name in `open_items`: a book entry's number, or a result's row."""
    if line.seq is not None:
        return f"entry:{line.seq}"
    return f"result:{line.session_id}:{line.detail['version']}:{line.detail['seat']}"


def _kept_line(r: Any) -> Line:
    """A kept item as a line of its member's account (its posting to him whole)."""
    detail: dict[str, Any] = {} if r.seq is not None else {"seat": r.seat,
                                                           "version": r.version}
    if r.corrected_by is not None:
        detail["corrected_by"] = r.corrected_by
    return Line(at=as_utc(r.at), kind=bk.EntryKind(r.kind),
                postings=(be.BookPosting(be.member_account(r.member_id), r.currency,
                                         int(r.amount_minor)),),
                session_id=r.session_id, session_name=r.session_name, seq=r.seq,
                detail=detail)


def item_row(club_id: str, found: bk.OpenLine, credit: bool) -> dict[str, Any]:
    """An open line the walk found, as a row of `open_items`."""
    member_id, line, currency, take = found
    account = be.member_account(member_id)
    amount = next(p.amount for p in line.postings
                  if p.account == account and p.currency == currency)
    result = line.seq is None
    return {"club_id": club_id, "member_id": member_id, "currency": currency,
            "line": line_key(line), "at": line.at, "seq": line.seq,
            "session_id": line.session_id,
            "seat": line.detail["seat"] if result else None,
            "version": line.detail["version"] if result else None,
            "session_name": line.session_name, "kind": str(line.kind),
            "corrected_by": line.detail.get("corrected_by"), "amount_minor": amount,
            "open_minor": take if credit else -take}


# -- the walk ---------------------------------------------------------------------------------

def walk(conn: Connection, club_id: str, owing: dict[Pair, int], owed: dict[Pair, int], *,
         until: datetime | None = None, up_to: int | None = None,
         member: Pair | None = None) -> tuple[list[bk.OpenLine], list[bk.OpenLine]]:
    """FIFO's (open debts, open credits) of `owing` and `owed` ({(member, currency):
    amount > 0}), newest first: the results' lines posted by `until` and the book entries
    numbered up to `up_to` (all: None), walked from the newest back only as far as the
    amounts reach (all the members', or only `member`'s lines in his currency)."""
    if not owing and not owed:
        return [], []
    member_id, currency = member or (None, None)
    results = (result_line(r) for r in booklog.results_newest_first(
        conn, club_id, until=until, member_id=member_id, currency=currency))
    entries = posted_lines(booklog.member_postings_newest_first(
        conn, club_id, up_to=up_to, currency=currency,
        account=None if member_id is None else be.member_account(member_id)))
    return bk.open_lines(heapq.merge(results, entries, key=Line.sort_key, reverse=True),
                         owing, owed)


def sides(balances: Iterable[tuple[str, str, int]]
          ) -> tuple[dict[Pair, int], dict[Pair, int]]:
    """(owing, owed) of the members' balances ((account, currency, amount), any account)."""
    owing: dict[Pair, int] = {}
    owed: dict[Pair, int] = {}
    for account, currency, amount in balances:
        if account.startswith(MEMBER) and amount:
            (owed if amount > 0 else owing)[(account[len(MEMBER):], currency)] = abs(amount)
    return owing, owed


def walked(conn: Connection, club_id: str) -> list[dict[str, Any]]:
    """The rows `open_items` must hold: the walk of all the books, for the balances the
    postings and the results' lines sum to."""
    owing, owed = sides((a, c, n) for (a, c), (n, _) in
                        booklog.summed_balances(conn, club_id).items())
    debts, credits = walk(conn, club_id, owing, owed)
    return [item_row(club_id, found, False) for found in debts] \
        + [item_row(club_id, found, True) for found in credits]


def rebuild(conn: Connection, club_id: str) -> int:
    """Write the club's `open_items` again from the walk; the rows written."""
    rows = walked(conn, club_id)
    conn.execute(delete(open_items).where(open_items.c.club_id == club_id))
    if rows:
        conn.execute(insert(open_items), rows)
    return len(rows)


COMPARED = ("member_id", "currency", "line", "seq", "session_id", "seat", "version",
            "session_name", "kind", "corrected_by", "amount_minor", "open_minor")


def _compared(r: Any) -> tuple[Any, ...]:
    m = r if isinstance(r, dict) else r._mapping
    return (*(m[name] for name in COMPARED), as_utc(m["at"]))


def problems(conn: Connection, club_id: str, shown: int = 5) -> list[str]:
    """Where the club's `open_items` is not what the walk of its books finds, each naming
    the member and the line: [] when it is, row for row."""
    try:
        want = {(r[0], r[1], r[2]): r for r in map(_compared, walked(conn, club_id))}
    except InvariantBroken as broken:
        return [f"open_items: the books cannot be walked: {broken}"]
    have = {(r[0], r[1], r[2]): r for r in map(_compared, conn.execute(
        select(open_items).where(open_items.c.club_id == club_id)))}
    out = []
    for key in sorted({*want, *have}):
        member_id, currency, line = key
        w, h = want.get(key), have.get(key)
        if w == h:
            continue
        where = f"open_items: member {member_id}'s line {line} ({currency})"
        if h is None:
            assert w is not None
            out.append(f"{where} is open by {w[-2]} (of {w[-3]}), and not in the table")
        elif w is None:
            out.append(f"{where} holds {h[-2]} open, and is settled")
        else:
            out.append(f"{where} holds {h[-2]} open, the walk finds {w[-2]} (of {w[-3]})"
                       if h[-2] != w[-2] else f"{where} differs from the walk's: "
                       f"{[COMPARED[n] for n in range(len(COMPARED)) if h[n] != w[n]]}")
    more = len(out) - shown
    return out[:shown] + ([f"open_items: and {more} more"] if more > 0 else [])


# -- what a write holds, and keeps ------------------------------------------------------------

def hold(conn: Connection, club_id: str, accounts: Iterable[Pair]) -> None:
    """Hold the balances' rows a write is about to move, by account and currency (each made,
    empty, if it is new: the write's own postings then fill it), before it moves any: one
    order for every write. The other kept rows need no order of their own: a member's
    standings and open items are moved only by a write that holds his balance's row, and
    the sessions' total of a currency is the last row a session's end takes (its triggers
    move the standings, which never wait, after it)."""
    keys = sorted(set(accounts))
    if not keys:
        return
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(account_balances).values(
        [{"club_id": club_id, "account": a, "currency": c, "amount_minor": 0, "lines": 0}
         for a, c in keys])
    conn.execute(statement.on_conflict_do_update(
        index_elements=["club_id", "account", "currency"],
        set_={"lines": account_balances.c.lines}))


def result_holds(rows: Iterable[Any]) -> set[Pair]:
    """The balances' rows (account, currency) that results' rows (of a club) move."""
    accounts: set[Pair] = set()
    for r in rows:
        m = r if isinstance(r, dict) else r._mapping
        accounts.add((be.session_account(m["session_id"]), m["currency"]))
        if m["member_id"] is not None:
            accounts.add((be.member_account(m["member_id"]), m["currency"]))
    return accounts


def keep(conn: Connection, club_id: str, added: Sequence[Line],
         rewalk: Iterable[Pair] = ()) -> None:
    """Bring the open items of the members the write posted to up to date: `added`, the
    write's new lines (posted already, their balances moved); `rewalk`, the members (and
    currencies) whose lines it took back or changed, walked again. Their balances' rows
    are held (`hold`). What is kept of all of them is read in one statement, and written
    in at most three."""
    new: dict[Pair, list[Line]] = defaultdict(list)
    for line in added:
        for p in line.postings:
            if p.account.startswith(MEMBER) and p.amount:
                new[(p.account[len(MEMBER):], p.currency)].append(line)
    again = set(rewalk)
    plans = {pair: _plan(pair, new[pair]) for pair in sorted(new) if pair not in again}
    ends = _ends(conn, club_id, {pair: plan[2] for pair, plan in plans.items()})
    writes = _Writes()
    for pair, (lines, amounts, _) in plans.items():
        if not _forward(pair, lines, amounts, *ends[pair], writes, club_id):
            again.add(pair)
    if again:
        o, b = open_items.c, account_balances.c
        ids = sorted({m for m, _ in again})
        rows = list(conn.execute(select(open_items).where(o.club_id == club_id,
                                                          o.member_id.in_(ids))))
        balance = {(str(a)[len(MEMBER):], str(c)): int(n) for a, c, n in conn.execute(
            select(b.account, b.currency, b.amount_minor).where(
                b.club_id == club_id, b.account.in_([be.member_account(m) for m in ids])))}
        for pair in sorted(again):
            _walked_again(conn, club_id, pair, balance.get(pair, 0),
                          [r for r in rows if (r.member_id, r.currency) == pair], writes)
    writes.run(conn, club_id)


def _plan(pair: Pair, lines: list[Line]) -> tuple[list[Line], list[int], int]:
    """The member's new lines in order, their amounts to him, and the most they settle."""
    lines = sorted(lines, key=Line.sort_key)
    account = be.member_account(pair[0])
    amounts = [sum(p.amount for p in line.postings
                   if p.account == account and p.currency == pair[1]) for line in lines]
    return lines, amounts, sum(abs(a) for a in amounts)


def _where(club_id: str, pair: Pair) -> tuple[ColumnElement[bool], ...]:
    o = open_items.c
    return o.club_id == club_id, o.member_id == pair[0], o.currency == pair[1]


def _in_order(rows: Iterable[Any]) -> list[Any]:
    return sorted(rows, key=lambda r: _kept_line(r).sort_key())


OLDEST = 16  # a member's oldest open items read with his newest, in the one statement


def _ends(conn: Connection, club_id: str, pairs: dict[Pair, int]
          ) -> dict[Pair, tuple[list[Any], list[Any]]]:
    """{member's pair: (his newest open items: all those at the latest time; his oldest, in
    order, every one up to a time: as many as reach `pairs[pair]`, or all)}."""
    o = open_items.c
    parts = []
    for n, pair in enumerate(pairs):
        where = _where(club_id, pair)
        last = select(func.max(o.at)).where(*where).scalar_subquery()
        parts.append(select(open_items, literal(2 * n).label("part"))
                     .where(*where, o.at == last))
        first = select(open_items).where(*where).order_by(o.at).limit(OLDEST).subquery()
        parts.append(select(first, literal(2 * n + 1).label("part")))
    found: dict[int, list[Any]] = defaultdict(list)
    if parts:
        for r in conn.execute(union_all(*parts)):
            found[int(r.part)].append(r)
    out = {}
    for n, (pair, amount) in enumerate(pairs.items()):
        oldest = sorted(found[2 * n + 1], key=lambda r: as_utc(r.at))
        if len(oldest) == OLDEST:  # more may follow: only the times before the last are whole
            oldest = [r for r in oldest if as_utc(r.at) < as_utc(oldest[-1].at)]
            if sum(abs(int(r.open_minor)) for r in oldest) < amount:
                oldest = _oldest(conn, _where(club_id, pair), amount)
        out[pair] = (_in_order(found[2 * n]), _in_order(oldest))
    return out


def _oldest(conn: Connection, where: tuple[ColumnElement[bool], ...], amount: int
            ) -> list[Any]:
    """The member's oldest open items, as far as they reach `amount` (all of them if they
    do not), every item at the time of the last one read included."""
    o = open_items.c
    limit = 4 * OLDEST
    while True:
        rows = list(conn.execute(select(open_items).where(*where).order_by(o.at)
                                 .limit(limit)))
        if len(rows) < limit:
            return rows
        if sum(abs(int(r.open_minor)) for r in rows) >= amount:
            return list(conn.execute(select(open_items).where(*where,
                                                                o.at <= rows[-1].at)))
        limit *= 4


def _forward(pair: Pair, lines: list[Line], amounts: list[int], newest: list[Any],
             oldest: list[Any], writes: _Writes, club_id: str) -> bool:
    """FIFO applied at the write (accounts.allocate): each of the member's new lines first
    settles his oldest open items of the other sign, what is left of it stays open. True
    when done; False when it cannot be done so and his lines must be walked: he had nothing
    open (a line older than one settled might be what is open now), a new line is not after
    his newest open item (it came in older), or his balance changed side."""
    if not newest or lines[0].sort_key() <= _kept_line(newest[-1]).sort_key():
        return False
    credit = int(newest[-1].open_minor) > 0
    settles = sum(abs(a) for a in amounts if (a > 0) != credit)
    taken, have = [], 0
    for r in oldest:  # as far as the new lines can settle
        if have >= settles:
            break
        taken.append(r)
        have += abs(int(r.open_minor))
    items = [bk.Item(_kept_line(r), pair[1], int(r.open_minor)) for r in taken]
    items += [bk.Item(line, pair[1], a) for line, a in zip(lines, amounts, strict=True)]
    bk.allocate(items)
    if any(i.open and (i.open > 0) != credit for i in items):
        return False  # his balance changed side: what is open of the other is walked for
    writes.move(taken, [item_row(club_id, (pair[0], i.line, pair[1], abs(i.open)),
                                 i.open > 0) for i in items if i.open])
    return True


NEWEST = 8  # a member's newest lines of each kind read first when his lines are walked


def _walked_again(conn: Connection, club_id: str, pair: Pair, amount: int, kept: list[Any],
                  writes: _Writes) -> None:
    """The member's open items (in one currency) found by walking his lines from the newest
    back as far as his balance (`amount`) reaches: his NEWEST results' lines and postings
    first (what is open after his balance changed side is mostly the newest line), then,
    if they do not reach it, all of them streamed."""
    want = {pair: abs(amount)} if amount else {}
    owing, owed = (want if amount < 0 else {}), (want if amount > 0 else {})
    account = be.member_account(pair[0])
    results = [result_line(r) for r in booklog.results_newest_first(
        conn, club_id, member_id=pair[0], currency=pair[1], limit=NEWEST)]
    rows = list(booklog.member_postings_newest_first(
        conn, club_id, account=account, currency=pair[1], limit=NEWEST))
    entries = list(posted_lines(rows))
    # the lines read are the newest end of his lines down to the older of the two cut short
    ends = [lines[-1].sort_key() for lines, read in ((results, results), (entries, rows))
            if len(read) == NEWEST]
    known = [line for line in heapq.merge(results, entries, key=Line.sort_key, reverse=True)
             if not ends or line.sort_key() >= max(ends)]
    try:
        debts, credits = bk.open_lines(known, owing, owed)
    except InvariantBroken:
        if not ends:
            raise
        debts, credits = walk(conn, club_id, owing, owed, member=pair)
    writes.move(kept, [item_row(club_id, found, amount > 0) for found in debts or credits])


class _Writes:
    """What a write changes in `open_items`, gathered, then written in three statements."""

    def __init__(self) -> None:
        self.gone: list[tuple[str, str, str]] = []
        self.moved: list[dict[str, Any]] = []
        self.fresh: list[dict[str, Any]] = []

    def move(self, kept: list[Any], rows: list[dict[str, Any]]) -> None:
        """A member's kept items (of one currency; those the write read) to `rows`: only
        what changed."""
        old = {r.line: r for r in kept}
        now = {r["line"]: r for r in rows}
        for line in [line for line in now if line in old]:
            was, will = _compared(old[line]), _compared(now[line])
            if was[:-2] + was[-1:] != will[:-2] + will[-1:]:  # a rebuild changed the line
                self.gone.append((old[line].member_id, old[line].currency, line))
                del old[line]
        self.gone += [(r.member_id, r.currency, line) for line, r in old.items()
                      if line not in now]
        self.moved += [{"m": r["member_id"], "c": r["currency"], "l": line,
                        "n": r["open_minor"]} for line, r in now.items()
                       if line in old and int(old[line].open_minor) != r["open_minor"]]
        self.fresh += [r for line, r in now.items() if line not in old]

    def run(self, conn: Connection, club_id: str) -> None:
        o = open_items.c
        if self.gone:
            conn.execute(delete(open_items).where(
                o.club_id == club_id,
                tuple_(o.member_id, o.currency, o.line).in_(self.gone)))
        if self.moved:
            conn.execute(update(open_items).where(
                o.club_id == club_id, o.member_id == bindparam("m"),
                o.currency == bindparam("c"), o.line == bindparam("l"))
                .values(open_minor=bindparam("n")), self.moved)
        if self.fresh:
            conn.execute(insert(open_items), self.fresh)


# -- the reads of now -------------------------------------------------------------------------

def _ordered(conn: Connection, column: Any) -> Any:
    # the answers' order is Python's (code points): PostgreSQL's collation may differ
    return column.collate("C") if conn.dialect.name == "postgresql" else column


def page(conn: Connection, club_id: str, credits: bool, *, after: int = 0,
         limit: int | None = None) -> tuple[list[Any], bool]:
    """(a page of the open items of one side, with each member's name, in the answers'
    order: since, name, session, then as the walk found them; whether more follow): those
    after item number `after`, at most `limit` (all, None)."""
    o, m = open_items.c, members.c
    side: ColumnElement[bool] = o.open_minor > 0 if credits else o.open_minor < 0
    query = (select(open_items, m.name)
             .join(members, and_(m.id == o.member_id, m.club_id == o.club_id))
             .where(o.club_id == club_id, side)
             .order_by(o.at, _ordered(conn, m.name_key),
                       _ordered(conn, func.coalesce(o.session_id, "")),
                       # at one time, a book entry before a result, the later entry first
                       case((o.seq.is_(None), 1), else_=0), o.seq.desc(),
                       _ordered(conn, o.seat).desc(), o.version.desc()))
    if after:
        query = query.offset(after)
    if limit is None:
        return list(conn.execute(query)), False
    rows = list(conn.execute(query.limit(limit + 1)))
    return rows[:limit], len(rows) > limit


def totals(conn: Connection, club_id: str, credits: bool) -> dict[str, int]:
    """Per currency, what the members' kept balances on one side sum to (what its open
    items sum to)."""
    b = account_balances.c
    query = (select(b.currency, func.sum(b.amount_minor))
             .where(b.club_id == club_id, booklog.of_kind(b.account, MEMBER),
                    b.amount_minor > 0 if credits else b.amount_minor < 0)
             .group_by(b.currency))
    return {str(c): abs(int(n)) for c, n in sorted(conn.execute(query)) if n}
