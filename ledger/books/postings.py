"""The book log's postings as a table (`book_postings`, migration 0015): a projection.

    rows_of(club_id, seq, entry, recorded_at)   # the rows an entry's append writes
    problems(conn, club_id)                     # where the table is not the fold of the log
    rebuild(conn, club_id)                      # the table written again from the log
    rebuild_clubs(engine, differing=True)       # `lanterloo migrate`'s, every club's

Each book entry's postings are written, one row each, in the transaction that appends the
entry (Books.append, under the write protocol of ledger/writes.py), so that a read sums
the balances in the database up to a book position, and walks the members' lines from the
newest back, without reading and decoding the whole log (ledger/books/reads.py). The log
stays the truth: `Books.verify` (and `lanterloo verify --all`) compares the table with the
fold of the log; `lanterloo rebuild --all` and `lanterloo migrate` write it again from the
log where it differs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine

from ledger.domain import bookentries as be
from ledger.store import booklog as store
from ledger.store import clublog, open_store, openitems
from ledger.store.chain import as_utc

# the differences verify names, at most (a table left unkept differs at every entry)
SHOWN = 5


def rows_of(club_id: str, seq: int, entry: be.BookEntry, recorded_at: datetime
            ) -> list[dict[str, Any]]:
    """The rows of `book_postings` for entry `seq` (none for an entry that moves nothing:
    a cash count, a change of currency, a closing)."""
    return [{"club_id": club_id, "seq": seq, "n": n, "account": p.account,
             "currency": p.currency, "amount_minor": p.amount, "type": entry.type,
             "recorded_at": recorded_at, "session_id": getattr(entry, "session_id", None)}
            for n, p in enumerate(entry.postings())]


def folded(club_id: str, rows: Iterable[Any]) -> list[dict[str, Any]]:
    """The rows of `book_postings` the book log `rows` (its entries, in order) makes."""
    out: list[dict[str, Any]] = []
    for r in rows:
        entry = be.entry_from_record(r.type, r.schema_version, r.payload)
        out += rows_of(club_id, int(r.seq), entry, r.recorded_at)
    return out


COMPARED = ("seq", "n", "account", "currency", "amount_minor", "type", "session_id")


def _compared(row: Any) -> tuple[Any, ...]:
    r = row if isinstance(row, dict) else row._mapping
    return (*(r[name] for name in COMPARED), as_utc(r["recorded_at"]))


def _named(r: tuple[Any, ...]) -> str:
    seq, n, account, currency, amount, entry_type = r[:6]
    return f"entry {seq} posting {n} ({entry_type}: {account} {currency} {amount})"


def problems(conn: Connection, club_id: str, rows: Sequence[Any] | None = None
             ) -> list[str]:
    """Where the club's `book_postings` is not the fold of its book log (`rows`, the whole
    log, if read already): [] when they are equal, row for row."""
    log = store.entries(conn, club_id) if rows is None else rows
    want = [_compared(r) for r in folded(club_id, log)]
    have = [_compared(r) for r in store.postings(conn, club_id)]
    if want == have:
        return []
    wanted, held = set(want), set(have)
    out = [f"book_postings: {_named(r)} is not in the table" for r in want if r not in held]
    out += [f"book_postings: {_named(r)} is not the book log's" for r in have
            if r not in wanted]
    if not out:  # the same rows, twice or in another order
        out = [f"book_postings: holds {len(have)} rows where the book log makes {len(want)}"]
    more = len(out) - SHOWN
    return out[:SHOWN] + ([f"book_postings: and {more} more"] if more > 0 else [])


def balance_problems(conn: Connection, club_id: str) -> list[str]:
    """Where the club's `account_balances` is not the sums of its postings and results'
    lines, its `member_standings` or `session_totals` the sums of its results' lines, or its
    `open_items` what the walk of its books finds (ledger/store/openitems.py): [] when every
    sum, count and open item is."""
    out = []
    for table, want, have, what in (
            ("account_balances", store.summed_balances(conn, club_id),
             store.stored_balances(conn, club_id), "(balance, postings)"),
            ("member_standings", store.summed_standings(conn, club_id),
             store.stored_standings(conn, club_id),
             f"({', '.join((*store.KEPT_SUMS, 'net_minor', 'net_minor_lines', 'lines'))})"),
            ("session_totals", store.summed_session_totals(conn, club_id),
             store.stored_session_totals(conn, club_id), "(left in sessions, lines)")):
        found = [f"{table}: {a} {c} holds {have.get((a, c))}, the books sum to "
                 f"{want.get((a, c))} {what}"
                 for a, c in sorted({*want, *have}) if want.get((a, c)) != have.get((a, c))]
        more = len(found) - SHOWN
        out += found[:SHOWN] + ([f"{table}: and {more} more"] if more > 0 else [])
    return out + openitems.problems(conn, club_id, SHOWN)


def rebuild(conn: Connection, club_id: str) -> int:
    """Write the club's `book_postings` again from its book log; the rows written."""
    rows = folded(club_id, store.entries(conn, club_id))
    # its balances' rows held first, in the writes' order (a session ending meanwhile waits)
    openitems.hold(conn, club_id, [(a, c) for a, c, _ in store.kept_balances(conn, club_id)])
    store.replace_postings(conn, club_id, rows)
    store.replace_balances(conn, club_id)
    store.replace_standings(conn, club_id)
    store.replace_session_totals(conn, club_id)
    openitems.rebuild(conn, club_id)
    return len(rows)


def rebuild_clubs(engine: Engine, *, differing: bool = False) -> list[str]:
    """Write every club's `book_postings` again from its book log (only where it is not the
    fold of the log, with `differing`: as `lanterloo migrate` does), each club in one
    transaction that holds its log; the clubs written."""
    written = []
    store_ = open_store(engine)
    with store_.reading() as conn:
        club_ids = list(clublog.club_ids(conn))
    for club_id in club_ids:
        with store_.transaction() as tx:
            if tx.book_head(club_id, reply_to=None) is None:
                continue
            if differing and not problems(tx.conn, club_id) \
                    and not balance_problems(tx.conn, club_id):
                continue
            rebuild(tx.conn, club_id)
            written.append(club_id)
    return written
