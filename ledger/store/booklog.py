"""Reading the club's books: the book log and the session results projection.

A book entry's hash chains it to the one before it in its club's book log with the events'
canonical form (ledger/store/chain.py): its stream is "books:<club id>", its version `seq`.
The entries are written by the store (`Tx.append_book_entry`, ledger/store/base.py), which
moves the log's stored head (`log_heads`, ledger/store/clublog.py) with each; the results
with the session's write (`SessionWrite.results`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    and_,
    case,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    union_all,
)

from . import clublog
from .chain import first_broken_link, link, utc_iso
from .tables import (
    account_balances,
    book_entries,
    book_postings,
    member_standings,
    session_results,
    session_totals,
    sessions,
)


def chain_stream(club_id: str) -> str:
    return f"books:{club_id}"


def hashed_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A book entry as the chain hashes it: the events' canonical fields."""
    return {"stream_id": chain_stream(row["club_id"]), "version": row["seq"],
            "type": row["type"], "schema_version": row["schema_version"],
            "payload": row["payload"], "recorded_at": row["recorded_at"],
            "actor": row["actor"], "member_id": row["member_id"],
            "token_id": row["token_id"], "idempotency_key": row["idempotency_key"],
            "position": row.get("position"), "hash": row.get("hash")}


def entry_dict(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"position": row["position"], "seq": row["seq"], "type": row["type"],
            "schema_version": row["schema_version"], "payload": row["payload"],
            "recorded_at": utc_iso(row["recorded_at"]), "actor": row["actor"],
            "member_id": row["member_id"], "token_id": row["token_id"], "hash": row["hash"]}


def entries(conn: Connection, club_id: str, types: Sequence[str] = (),
            up_to: int | None = None, *, after: int = 0, limit: int | None = None,
            seqs: Iterable[int] | None = None) -> list[Row[Any]]:
    """The club's book log in order (its entries of `types` only, if given; only those
    numbered after `after` and up to `up_to`, at most `limit` of them, or those numbered
    `seqs`, if given)."""
    query = select(book_entries).where(book_entries.c.club_id == club_id)
    if types:
        query = query.where(book_entries.c.type.in_(types))
    if up_to is not None:
        query = query.where(book_entries.c.seq <= up_to)
    if after:
        query = query.where(book_entries.c.seq > after)
    if seqs is not None:
        query = query.where(book_entries.c.seq.in_(list(seqs)))
    query = query.order_by(book_entries.c.seq)
    return list(conn.execute(query if limit is None else query.limit(limit)))


def seq_at(conn: Connection, club_id: str, moment: datetime) -> int:
    """The number of the club's last book entry recorded at or before `moment` (0 if none)."""
    return int(conn.scalar(select(func.coalesce(func.max(book_entries.c.seq), 0))
                           .where(book_entries.c.club_id == club_id,
                                  book_entries.c.recorded_at <= moment)) or 0)


def entry_time(conn: Connection, club_id: str, seq: int) -> datetime | None:
    """When the club's book entry `seq` was recorded (None: there is none)."""
    return conn.scalar(select(book_entries.c.recorded_at)
                       .where(book_entries.c.club_id == club_id, book_entries.c.seq == seq))


def verify_chain(conn: Connection, club_id: str, rows: Sequence[Row[Any]], *,
                 at_head: bool = True) -> tuple[str, str | None]:
    """(the chain head recomputed, what is wrong or None) of a club's book log `rows` (its
    entries in order): the first broken link, else, when `rows` are all of them (`at_head`;
    not for a read as of an earlier point), a log that is not at its stored head (its last
    entries deleted, or one added behind the ledger's back)."""
    head, broken = first_broken_link(hashed_row(dict(r._mapping)) for r in rows)
    if broken or not at_head:
        return head, broken
    found = clublog.head_problems(conn, clublog.books_stream(club_id), "head",
                                  int(rows[-1].seq) if rows else 0, head)
    return head, found[0] if found else None


@dataclass(frozen=True)
class ChainCheck:
    """A book log's chain checked: its entries, its head recomputed, the first broken link or
    the head's problem (None: it holds), and the seq after which it was rehashed (0: all
    of it; else the head this process verified the whole chain to before)."""

    entries: int
    head: str
    problem: str | None
    checked_from: int


WHOLE_CHAIN_EVERY_S = 300.0  # a verified head older than this is verified again, all of it
# {(database, club): (seq, hash, when)}: the heads this process verified each chain to
_verified: dict[tuple[str, str], tuple[int, str, float]] = {}


def check_chain(conn: Connection, club_id: str, up_to: int | None, *, at_head: bool
                ) -> ChainCheck:
    """The club's book log up to `up_to` (all of it: None) checked as `verify_chain` does,
    but from the last head this process verified the whole chain to (in the last
    WHOLE_CHAIN_EVERY_S seconds) when that head's stored hash is still the one verified,
    the entries up to it are as many as its seq, and every link after it holds; anything
    else (and the first read, and one in WHOLE_CHAIN_EVERY_S) rehashes the whole log, so
    a problem is always reported as the whole walk finds it. What the shortcut cannot see:
    an entry at or before the verified head changed in place with its stored hash kept
    (`verify_chain`, `GET /verify` and `lanterloo verify` rehash every entry)."""
    key = (conn.engine.url.render_as_string(hide_password=True), club_id)
    known = _verified.get(key)
    if known is not None and (up_to is None or known[0] <= up_to) \
            and time.monotonic() - known[2] < WHOLE_CHAIN_EVERY_S:
        found = _from_verified(conn, club_id, up_to, known[0], known[1], at_head=at_head)
        if found is not None:
            _remember(key, found.entries, found.head, known[2])
            return found
    rows = entries(conn, club_id, up_to=up_to)
    head, broken = verify_chain(conn, club_id, rows, at_head=at_head)
    if broken is None and rows:
        _remember(key, int(rows[-1].seq), head, time.monotonic())
    return ChainCheck(len(rows), head, broken, 0)


def _remember(key: tuple[str, str], seq: int, head: str, when: float) -> None:
    """Remember a head verified (`when`: the time its whole chain was last rehashed)."""
    known = _verified.get(key)
    if known is None or seq >= known[0]:
        _verified[key] = (seq, head, when)


def _from_verified(conn: Connection, club_id: str, up_to: int | None, seq: int, hash_: str,
                   *, at_head: bool) -> ChainCheck | None:
    """The check from the verified head (`seq`, `hash_`) onward; None when anything is not
    as it was verified or does not hold (the caller then walks the whole log)."""
    c = book_entries.c
    stored = conn.scalar(select(c.hash).where(c.club_id == club_id, c.seq == seq))
    before = conn.scalar(select(func.count()).select_from(book_entries)
                         .where(c.club_id == club_id, c.seq <= seq))
    if stored != hash_ or before != seq:
        return None
    prev = hash_
    rows = entries(conn, club_id, up_to=up_to, after=seq)
    for n, row in enumerate(rows, start=seq + 1):
        try:
            if int(row.seq) != n or link(hashed_row(dict(row._mapping)), prev) != row.hash:
                return None
        except Exception:  # noqa: BLE001 (not hashable: the whole walk says why)
            return None
        prev = row.hash
    last = seq + len(rows)
    if at_head and clublog.head_problems(conn, clublog.books_stream(club_id), "head", last,
                                         prev):
        return None
    return ChainCheck(last, prev, None, seq)


def answer_problems(conn: Connection, club_id: str, rows: Sequence[Row[Any]]) -> list[str]:
    """The stored answers to the club's book entries made with an Idempotency-Key, against
    the entries (`rows`, the whole log): each must be the entry it recorded, field for field
    (its hash is the chain's), written with its key; an answer of several entries (`{entries,
    version}`) each of them, and its version the last one's. Kept under
    "books:<club>:<member>" (ledger/books/service.py), the member the entries name."""
    keyed = [r for r in rows if r.idempotency_key is not None]
    by_seq = {int(r.seq): r for r in rows}
    out = []
    for scope, key, body in clublog.stored_answers(
            conn, {f"books:{club_id}:{r.member_id or ''}"[:80] for r in keyed}):
        where = f"idempotency_keys.{scope}/{key}"
        several = isinstance(body, dict) and isinstance(body.get("entries"), list)
        answered = body["entries"] if several else [body]
        for n, sent in enumerate(answered):
            out += _entry_answer(f"{where}.entries.{n}" if several else where, key, sent,
                                 by_seq)
        if several and answered and isinstance(answered[-1], dict) \
                and body.get("version") != answered[-1].get("seq"):
            out.append(f"{where}.version: answered {body.get('version')!r}, its last entry "
                       f"is {answered[-1].get('seq')!r}")
    return out


def _entry_answer(where: str, key: str, sent: Any, by_seq: Mapping[int, Row[Any]]
                  ) -> list[str]:
    seq: Any = sent.get("seq") if isinstance(sent, dict) else None
    row = by_seq.get(seq)
    if row is None:
        return [f"{where}: the stored answer names entry {seq!r}, which the book log does "
                "not hold"]
    entry = entry_dict(dict(row._mapping))
    out = [f"{where}.{name}: answered {sent.get(name)!r}, the book log's {value!r}"
           for name, value in entry.items() if sent.get(name) != value]
    if set(sent) - set(entry):
        out.append(f"{where}: answered {sorted(set(sent) - set(entry))}, which no entry has")
    if row.idempotency_key != key:
        out.append(f"{where}: entry {row.seq} was written with key {row.idempotency_key!r}, "
                   "not this one")
    return out


# -- the book log's postings (`book_postings`, ledger/books/postings.py) ---------------------

def insert_postings(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    if rows:
        conn.execute(insert(book_postings), list(rows))


def replace_postings(conn: Connection, club_id: str, rows: Sequence[Mapping[str, Any]]
                     ) -> None:
    conn.execute(delete(book_postings).where(book_postings.c.club_id == club_id))
    insert_postings(conn, rows)


def postings(conn: Connection, club_id: str) -> list[Row[Any]]:
    """The club's rows of `book_postings`, by entry and place."""
    p = book_postings.c
    return list(conn.execute(select(book_postings).where(p.club_id == club_id)
                             .order_by(p.seq, p.n)))


def posting_sums(conn: Connection, club_id: str, *, up_to: int | None = None
                 ) -> list[tuple[str, str, int]]:
    """(account, currency, the sum of its postings) of the club's book entries (numbered
    up to `up_to`, if given): every account posted to, a sum of zero too."""
    p = book_postings.c
    query = (select(p.account, p.currency, func.sum(p.amount_minor))
             .where(p.club_id == club_id).group_by(p.account, p.currency))
    if up_to is not None:
        query = query.where(p.seq <= up_to)
    return [(str(a), str(c), int(n)) for a, c, n in conn.execute(query)]


def member_postings_newest_first(conn: Connection, club_id: str, *, up_to: int | None = None,
                                 account: str | None = None, currency: str | None = None,
                                 batch: int = 250, limit: int | None = None
                                 ) -> Iterator[Row[Any]]:
    """The postings of the club's book entries (numbered up to `up_to`, if given) to its
    members' accounts (to `account` in `currency` only, if given), from the newest entry
    back (by time, then number; an entry's postings in their place), read `batch` rows at
    a time: a reader who stops early reads no further (only the newest `limit`, in one
    plain query, if given)."""
    p = book_postings.c
    query = select(book_postings).where(
        p.club_id == club_id,
        p.account.startswith("member:") if account is None else p.account == account)
    if currency is not None:
        query = query.where(p.currency == currency)
    if up_to is not None:
        query = query.where(p.seq <= up_to)
    query = query.order_by(p.recorded_at.desc(), p.seq.desc(), p.n)
    # the option on the statement, not the connection: a write goes on after the walk
    if limit is not None:  # the newest few: one plain query
        yield from list(conn.execute(query.limit(limit)))
        return
    result = conn.execute(query.execution_options(yield_per=batch))
    try:
        yield from result
    finally:
        result.close()


# -- each account's balance now (`account_balances`, kept by triggers: migration 0015) ------

def of_kind(account: Any, prefix: str) -> Any:
    """`account` starts with `prefix` ("member:", "session:"), as the key's range (the
    character after ":" is ";"), so that an index skips the other kinds of account (a club
    has thousands of sessions'); with the filter too, exact whatever the collation."""
    return and_(account >= prefix, account < prefix[:-1] + chr(ord(prefix[-1]) + 1),
                account.startswith(prefix))


def kept_balances(conn: Connection, club_id: str, *, sessions: bool = True
                  ) -> list[tuple[str, str, int]]:
    """(account, currency, balance) of every account of the club posted to, now (without
    `sessions`, the sessions' own accounts left out)."""
    b = account_balances.c
    query = select(b.account, b.currency, b.amount_minor).where(b.club_id == club_id)
    if not sessions:
        # the key's ranges before and after the sessions' accounts (";" follows ":"), so
        # that the index skips a club's thousands of them; the filter keeps the answer exact
        # whatever the database's collation
        query = query.where(or_(b.account < "session:", b.account >= "session;"),
                            ~b.account.startswith("session:"))
    return [(str(a), str(c), int(n)) for a, c, n in conn.execute(query)]


def kept_session_totals(conn: Connection, club_id: str) -> list[tuple[str, int]]:
    """(currency, the sum of the club's sessions' own accounts in it) now, as the database
    keeps it (`session_totals`: one row a currency)."""
    t = session_totals.c
    return [(str(c), int(n)) for c, n in conn.execute(
        select(t.currency, t.amount_minor).where(t.club_id == club_id))]


def summed_session_totals(conn: Connection, club_id: str) -> dict[tuple[str, str], tuple[int, int]]:
    """{("sessions", currency): (the sum of the sessions' own accounts, the lines)} of the
    club's results' lines: what `session_totals` must hold."""
    r = session_results.c
    query = (select(r.currency, -func.sum(func.coalesce(r.net_minor, r.net_units)),
                    func.count()).where(r.club_id == club_id).group_by(r.currency))
    return {("sessions", str(c)): (int(n), int(k)) for c, n, k in conn.execute(query)}


def stored_session_totals(conn: Connection, club_id: str
                          ) -> dict[tuple[str, str], tuple[int, int]]:
    t = session_totals.c
    return {("sessions", str(c)): (int(n), int(k)) for c, n, k in conn.execute(
        select(t.currency, t.amount_minor, t.lines).where(t.club_id == club_id))}


def replace_session_totals(conn: Connection, club_id: str) -> None:
    """The club's `session_totals` written again from its results' lines."""
    conn.execute(delete(session_totals).where(session_totals.c.club_id == club_id))
    rows = [{"club_id": club_id, "currency": c, "amount_minor": n, "lines": k}
            for (_, c), (n, k) in summed_session_totals(conn, club_id).items()]
    if rows:
        conn.execute(insert(session_totals), rows)


def kept_session_page(conn: Connection, club_id: str, *, after: str, limit: int
                      ) -> list[tuple[str, str, int]]:
    """(account, currency, balance) of the club's sessions' own accounts now, in the
    accounts' order, those after the account `after` ("" for the first), at most `limit`
    accounts (an account a row per currency): read by the primary key's order."""
    b = account_balances.c
    named = (b.club_id == club_id, b.account.startswith("session:"), b.account > after)
    page = (select(b.account).where(*named).group_by(b.account).order_by(b.account)
            .limit(limit)).subquery()
    query = (select(b.account, b.currency, b.amount_minor)
             .where(b.club_id == club_id, b.account.in_(select(page.c.account)))
             .order_by(b.account, b.currency))
    return [(str(a), str(c), int(n)) for a, c, n in conn.execute(query)]


def summed_balances(conn: Connection, club_id: str) -> dict[tuple[str, str], tuple[int, int]]:
    """{(account, currency): (balance, how many postings)} of the club, summed from the
    book entries' postings and the results' lines: what `account_balances` must hold."""
    r, p = session_results.c, book_postings.c
    amount = func.coalesce(r.net_minor, r.net_units)
    posted = union_all(
        select(p.account.label("account"), p.currency, p.amount_minor.label("amount"))
        .where(p.club_id == club_id),
        select((literal("member:") + r.member_id).label("account"), r.currency,
               amount.label("amount"))
        .where(r.club_id == club_id, r.member_id.is_not(None)),
        select((literal("session:") + r.session_id).label("account"), r.currency,
               (-amount).label("amount"))
        .where(r.club_id == club_id)).subquery()
    query = select(posted.c.account, posted.c.currency, func.sum(posted.c.amount),
                   func.count()).group_by(posted.c.account, posted.c.currency)
    return {(str(a), str(c)): (int(n), int(k)) for a, c, n, k in conn.execute(query)}


def stored_balances(conn: Connection, club_id: str) -> dict[tuple[str, str], tuple[int, int]]:
    """{(account, currency): (balance, postings)} as `account_balances` holds them."""
    b = account_balances.c
    return {(str(a), str(c)): (int(n), int(k)) for a, c, n, k in conn.execute(
        select(b.account, b.currency, b.amount_minor, b.lines).where(b.club_id == club_id))}


def replace_balances(conn: Connection, club_id: str) -> None:
    """The club's `account_balances` written again from the postings and the results."""
    conn.execute(delete(account_balances).where(account_balances.c.club_id == club_id))
    rows = [{"club_id": club_id, "account": a, "currency": c, "amount_minor": n, "lines": k}
            for (a, c), (n, k) in summed_balances(conn, club_id).items()]
    if rows:
        conn.execute(insert(account_balances), rows)


# -- session results --------------------------------------------------------------------------


def load_results(conn: Connection, *, club_id: str | None = None,
                 session_id: str | None = None, member_id: str | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 sign: int = 0) -> list[Row[Any]]:
    """The results' lines (of the club, the session, the member; posted in [since, until];
    only those that debit a member, sign -1, or credit him, sign +1), in the order they were
    posted."""
    query = select(session_results)
    amount = func.coalesce(session_results.c.net_minor, session_results.c.net_units)
    if sign:
        query = query.where(amount < 0 if sign < 0 else amount > 0)
    if club_id is not None:
        query = query.where(session_results.c.club_id == club_id)
    if session_id is not None:
        query = query.where(session_results.c.session_id == session_id)
    if member_id is not None:
        query = query.where(session_results.c.member_id == member_id)
    if since is not None:
        query = query.where(session_results.c.posted_at >= since)
    if until is not None:
        query = query.where(session_results.c.posted_at <= until)
    return list(conn.execute(query.order_by(session_results.c.posted_at,
                                            session_results.c.session_id,
                                            session_results.c.seat,
                                            session_results.c.version)).all())


def results_newest_first(conn: Connection, club_id: str, *, until: datetime | None = None,
                         member_id: str | None = None, currency: str | None = None,
                         batch: int = 250, limit: int | None = None) -> Iterator[Row[Any]]:
    """The club's results' lines (posted by `until`, if given; the member's in `currency`
    only, if given) from the newest back, read `batch` rows at a time (a server-side cursor
    on PostgreSQL) so that a reader who stops early reads no further (only the newest
    `limit`, in one plain query, if given): the exact reverse of load_results' order."""
    query = select(session_results).where(session_results.c.club_id == club_id)
    if member_id is not None:
        query = query.where(session_results.c.member_id == member_id)
    if currency is not None:
        query = query.where(session_results.c.currency == currency)
    if until is not None:
        query = query.where(session_results.c.posted_at <= until)
    query = query.order_by(session_results.c.posted_at.desc(),
                           session_results.c.session_id.desc(),
                           session_results.c.seat.desc(), session_results.c.version.desc())
    # the option on the statement, not the connection: a write goes on after the walk
    if limit is not None:  # the newest few: one plain query
        yield from list(conn.execute(query.limit(limit)))
        return
    result = conn.execute(query.execution_options(yield_per=batch))
    try:
        yield from result
    finally:
        result.close()


def session_names(conn: Connection, club_id: str, session_ids: Iterable[str]
                  ) -> dict[str, str]:
    """{session id: its name} of those of the club's sessions that posted results."""
    query = (select(session_results.c.session_id, session_results.c.session_name)
             .where(session_results.c.club_id == club_id,
                    session_results.c.session_id.in_(list(session_ids)))
             .distinct())
    return {str(sid): str(name) for sid, name in conn.execute(query)}


def open_session_names(conn: Connection, club_id: str, session_ids: Iterable[str]
                       ) -> dict[str, str]:
    """{session id: its name} of those of the club's sessions, from their folded state: a
    session that has posted no result yet (one still open) is named too."""
    query = select(sessions.c.id, sessions.c.state).where(
        sessions.c.club_id == club_id, sessions.c.id.in_(list(session_ids)))
    return {str(sid): str((state or {}).get("name") or "")
            for sid, state in conn.execute(query)}


def result_sums(conn: Connection, club_id: str, by: str, *, until: datetime | None = None
                ) -> list[tuple[str, str, int]]:
    """(member or session id, currency, the sum of its lines' amounts) of the club's results
    (posted by `until`, if given): `by` "member_id" or "session_id" (or "currency": the
    currency twice, the sum of every line in it); the amount is
    net_minor, or net_units for counters. A session's sum counts every line, a line that
    names no member too: on no member's account, it leaves the books short of zero."""
    key = session_results.c[by]
    amount = func.sum(func.coalesce(session_results.c.net_minor, session_results.c.net_units))
    query = (select(key, session_results.c.currency, amount)
             .where(session_results.c.club_id == club_id, key.is_not(None))
             .group_by(key, session_results.c.currency))
    if until is not None:
        query = query.where(session_results.c.posted_at <= until)
    return [(str(k), str(c), int(a)) for k, c, a in conn.execute(query)]


STANDING_SUMS = ("sessions", "deals_dealt", "net_units", "net_minor", "loos", "loo_units",
                 "penalties", "penalty_units")


def kept_standings(conn: Connection, club_id: str) -> list[Row[Any]]:
    """standing_sums over every line of the club's results, as the database keeps them
    (`member_standings`): one row per member and currency."""
    k = member_standings.c
    net_minor = case((k.net_minor_lines > 0, k.net_minor), else_=None).label("net_minor")
    return list(conn.execute(select(k.member_id, k.currency, *(
        net_minor if name == "net_minor" else k[name] for name in STANDING_SUMS))
        .where(k.club_id == club_id)))


def summed_standings(conn: Connection, club_id: str) -> dict[tuple[str, str], tuple[int, ...]]:
    """{(member, currency): the sums of `member_standings`' columns} of the club's results'
    lines: what the table must hold."""
    r = session_results.c
    query = (select(r.member_id, r.currency, *(func.sum(r[name]) for name in KEPT_SUMS),
                    func.coalesce(func.sum(r.net_minor), 0), func.count(r.net_minor),
                    func.count())
             .where(r.club_id == club_id, r.member_id.is_not(None))
             .group_by(r.member_id, r.currency))
    return {(str(m), str(c)): tuple(int(n) for n in rest)
            for m, c, *rest in conn.execute(query)}


def stored_standings(conn: Connection, club_id: str) -> dict[tuple[str, str], tuple[int, ...]]:
    k = member_standings.c
    query = select(k.member_id, k.currency, *(k[name] for name in KEPT_SUMS), k.net_minor,
                   k.net_minor_lines, k.lines).where(k.club_id == club_id)
    return {(str(m), str(c)): tuple(int(n) for n in rest)
            for m, c, *rest in conn.execute(query)}


def replace_standings(conn: Connection, club_id: str) -> None:
    """The club's `member_standings` written again from its results' lines."""
    conn.execute(delete(member_standings).where(member_standings.c.club_id == club_id))
    rows = [{"club_id": club_id, "member_id": m, "currency": c,
             **dict(zip((*KEPT_SUMS, "net_minor", "net_minor_lines", "lines"), sums,
                        strict=True))}
            for (m, c), sums in summed_standings(conn, club_id).items()]
    if rows:
        conn.execute(insert(member_standings), rows)


# the sums `member_standings` keeps as they are (net_minor is kept with its count of lines)
KEPT_SUMS = ("sessions", "deals_dealt", "net_units", "loos", "loo_units", "penalties",
             "penalty_units")


def standing_sums(conn: Connection, club_id: str, *, since: datetime | None,
                  until: datetime | None) -> list[Row[Any]]:
    """Per member and currency, over the club's results' lines posted in [since, until]: the
    sum of each of STANDING_SUMS (net_minor None for counters; `sessions` counts each
    session's result once, less those a correction reopened)."""
    r = session_results.c
    query = (select(r.member_id, r.currency,
                    *(func.sum(r[name]).label(name) for name in STANDING_SUMS))
             .where(r.club_id == club_id, r.member_id.is_not(None))
             .group_by(r.member_id, r.currency))
    if since is not None:
        query = query.where(r.posted_at >= since)
    if until is not None:
        query = query.where(r.posted_at <= until)
    return list(conn.execute(query))


