"""The auditor's view of a whole club: its sessions by the time they were opened, and the
club verified a page of sessions at a time, with its book log and its club log.

    audit = ClubAudit(ledger, books)               # the caller's club's
    audit.sessions(since=..., until=..., after=0, limit=20)
    audit.verify(after=0, limit=20)                # then after=next_after, until it is None

A whole club is verified in pages so that no request holds the service for long: each page
folds its sessions again from their logs and compares every projection
(`SessionReads.verify_report`, one snapshot per session, as `GET /sessions/<id>/verify`);
the first page also checks the book log and the club log (`Books.verify`). The club is
whole when every page says so.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ledger.audit import export as exported
from ledger.audit.checkpoints import key_id
from ledger.books.service import Books
from ledger.domain import InvalidInput
from ledger.sessions.service import Ledger
from ledger.store import queries
from ledger.store.chain import utc_iso

MAX_PAGE = 100


def _check_page(after: int, limit: int) -> None:
    if not 0 <= after < 2**31:
        raise InvalidInput("after must be 0 or more", rule="page", field="after")
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be from 1 to {MAX_PAGE}", rule="page", field="limit")


def _summary(row: Any) -> dict[str, Any]:
    state = row.state or {}
    return {"session_id": row.id, "name": state.get("name") or "",
            "status": state.get("status", "open"), "version": int(row.version),
            "players": list(state.get("seats") or []),
            "opened_at": utc_iso(row.created_at), "last_entry_at": utc_iso(row.updated_at)}


class ClubAudit:
    def __init__(self, ledger: Ledger, books: Books):
        if ledger.club_id is None or ledger.club_id != books.club_id:
            raise ValueError("a club's audit reads one club's sessions and books")
        self.ledger = ledger
        self.books = books
        self.club_id: str = ledger.club_id

    def sessions(self, *, since: datetime | None = None, until: datetime | None = None,
                 name: str | None = None, after: int = 0, limit: int = 20) -> dict[str, Any]:
        """A page of the club's sessions opened in [since, until) whose name contains
        `name` (any case), newest first: name, players, open or ended, opened when, last
        entry when, version."""
        _check_page(after, limit)
        with self.ledger.store.reading() as conn:
            rows, total = queries.club_sessions(conn, self.club_id, since=since, until=until,
                                                name=name, after=after, limit=limit)
        return {"sessions": [_summary(r) for r in rows], "total": total,
                "next_after": after + limit if after + limit < total else None}

    def verify(self, *, after: int = 0, limit: int = 20) -> dict[str, Any]:
        """A page of the club's sessions verified, oldest first (and on the first page, the
        book log and the club log): `ok` is this page's verdict; the club's is every
        page's."""
        _check_page(after, limit)
        with self.ledger.store.reading() as conn:
            rows, total = queries.club_sessions(conn, self.club_id, after=after, limit=limit,
                                                newest_first=False)
        checked = []
        for row in rows:
            report = self.ledger.verify_report(row.id)
            checked.append({**_summary(row), "ok": report["ok"], "version": report["version"],
                            "chain_head": report["chain_head"],
                            "problems": report["problems"]})
        books = None
        if after == 0:
            problems = self.books.verify()
            books = {"ok": not problems, "problems": problems}
        ok = all(c["ok"] for c in checked) and (books is None or books["ok"])
        return {"ok": ok, "sessions": checked, "books": books, "total": total,
                "next_after": after + limit if after + limit < total else None}


def check_export_file(data: Any, trusted: set[str] | None) -> dict[str, Any]:
    """An exported session checked as `lanterloo verify-export` checks it, without the
    database: every hash, the signature (by `trusted` keys, or the key it names), the money
    folded again to its statement."""
    checked = exported.check_export(data, trusted)
    return {"ok": not checked.problems, "problems": list(checked.problems),
            "events": checked.events, "key_id": key_id(checked.key) if checked.key else None,
            "summary": checked.summary()}
