"""Reading the club's books: the book log and the session results projection.

A book entry's hash chains it to the one before it in its club's book log with the events'
canonical form (ledger/store/chain.py): its stream is "books:<club id>", its version `seq`.
The entries are written by the store (`Tx.append_book_entry`, ledger/store/base.py), which
moves the log's stored head (`log_heads`, ledger/store/clublog.py) with each; the results
with the session's write (`SessionWrite.results`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, func, select

from . import clublog
from .chain import first_broken_link, utc_iso
from .tables import book_entries, session_results


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


def entries(conn: Connection, club_id: str, types: Sequence[str] = ()) -> list[Row[Any]]:
    """The club's book log in order (its entries of `types` only, if given)."""
    query = select(book_entries).where(book_entries.c.club_id == club_id)
    if types:
        query = query.where(book_entries.c.type.in_(types))
    return list(conn.execute(query.order_by(book_entries.c.seq)))


def verify_chain(conn: Connection, club_id: str, rows: Sequence[Row[Any]]
                 ) -> tuple[str, str | None]:
    """(the chain head recomputed, what is wrong or None) of a club's book log `rows` (all
    its entries, in order): the first broken link, else a log that is not at its stored
    head (its last entries deleted, or one added behind the ledger's back)."""
    head, broken = first_broken_link(hashed_row(dict(r._mapping)) for r in rows)
    if broken:
        return head, broken
    found = clublog.head_problems(conn, clublog.books_stream(club_id), "head",
                                  int(rows[-1].seq) if rows else 0, head)
    return head, found[0] if found else None


# -- session results --------------------------------------------------------------------------


def load_results(conn: Connection, *, club_id: str | None = None,
                 session_id: str | None = None, member_id: str | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 debits_only: bool = False) -> list[Row[Any]]:
    query = select(session_results)
    if debits_only:  # the results that left a member owing
        query = query.where(func.coalesce(session_results.c.net_minor,
                                          session_results.c.net_units) < 0)
    if club_id is not None:
        query = query.where(session_results.c.club_id == club_id)
    if session_id is not None:
        query = query.where(session_results.c.session_id == session_id)
    if member_id is not None:
        query = query.where(session_results.c.member_id == member_id)
    if since is not None:
        query = query.where(session_results.c.ended_at >= since)
    if until is not None:
        query = query.where(session_results.c.ended_at <= until)
    return list(conn.execute(query.order_by(session_results.c.ended_at,
                                            session_results.c.session_id,
                                            session_results.c.seat)).all())


def result_sums(conn: Connection, club_id: str, by: str) -> list[tuple[str, str, int]]:
    """(member or session id, currency, the sum of its seats' amounts) of the club's results:
    `by` "member_id" or "session_id"; the amount is net_minor, or net_units for counters."""
    key = session_results.c[by]
    amount = func.sum(func.coalesce(session_results.c.net_minor, session_results.c.net_units))
    rows = conn.execute(select(key, session_results.c.currency, amount)
                        .where(session_results.c.club_id == club_id,
                               session_results.c.member_id.is_not(None))
                        .group_by(key, session_results.c.currency))
    return [(str(k), str(c), int(a)) for k, c, a in rows]


STANDING_SUMS = ("deals_dealt", "net_units", "net_minor", "loos", "loo_units", "penalties",
                 "penalty_units")


def standing_sums(conn: Connection, club_id: str, *, since: datetime | None,
                  until: datetime | None) -> list[Row[Any]]:
    """Per member and currency, over the club's results that ended in [since, until]: the
    number of sessions and the sum of each of STANDING_SUMS (net_minor None for counters)."""
    r = session_results.c
    query = (select(r.member_id, r.currency, func.count().label("sessions"),
                    *(func.sum(r[name]).label(name) for name in STANDING_SUMS))
             .where(r.club_id == club_id, r.member_id.is_not(None))
             .group_by(r.member_id, r.currency))
    if since is not None:
        query = query.where(r.ended_at >= since)
    if until is not None:
        query = query.where(r.ended_at <= until)
    return list(conn.execute(query))


