"""A member's own view of the books: the sessions he played and his part of each statement.

    view = MemberView(ledger.for_club(club_id), member_id)
    view.statements()                  # the sessions he played, newest first, his net in each
    view.statement(session_id)         # his line of its statement and the session's totals
    view.lines(session_ids)            # the same for a page of sessions, in one read
    view.money(as_of=None)             # his payments, reversals, write-offs, newest first

His account (balances, what he owes and is owed, oldest first) is the account every books
reader gets (`Books.account`): a member token reads it for its own member only (api/http/auth.py).
docs/books.md, "A member's own view".
"""

from __future__ import annotations

from typing import Any

from ledger.books import reads
from ledger.clubs.service import NotFound
from ledger.domain import SessionNotFound
from ledger.domain import accounts as bk
from ledger.domain.bookentries import CLUB
from ledger.domain.currencies import UNITS
from ledger.domain.statement import member_statement
from ledger.sessions.service import Ledger
from ledger.store import clubstore


class MemberView:
    """One member of the ledger's club (the ledger must be confined to a club)."""

    def __init__(self, ledger: Ledger, member_id: str):
        if ledger.club_id is None:
            raise ValueError("a member's view is of one club's ledger: use Ledger.for_club")
        self.ledger, self.club_id, self.member_id = ledger, ledger.club_id, member_id

    def _member(self, conn: Any) -> Any:
        row = clubstore.find_member(conn, self.club_id, member_id=self.member_id)
        if row is None:
            raise NotFound(f"no member {self.member_id}", rule="member-exists",
                           field="member_id")
        return row

    def statements(self, *, as_of: str | None = None) -> dict[str, Any]:
        """The ended sessions he held a seat in, newest first, with his net in each: the
        session results of his account, as of a book position or a time (`as_of`)."""
        with self.ledger.engine.connect() as conn:
            member = self._member(conn)
            cut = reads.cut_at(conn, self.club_id, as_of)
            lines = reads.result_lines(conn, self.club_id, cut, member_id=self.member_id)
        # A session's lines: its result when it ended, then what each late correction
        # changed (docs/books.md): one session, its net their sum, listed at its end.
        sessions: dict[str, dict[str, Any]] = {}
        for line in sorted(lines, key=lambda x: x.sort_key()):
            mine = next((p for p in line.postings if p.account.startswith("member:")), None)
            currency = mine.currency if mine is not None else UNITS
            units = line.detail.get("net_units")
            minor = None if mine is None or currency == UNITS else mine.amount
            played = sessions.get(str(line.session_id))
            if played is None:
                sessions[str(line.session_id)] = {
                    "session_id": line.session_id, "session_name": line.session_name,
                    "seat": line.detail.get("seat"), "ended_at": line.at.isoformat(),
                    "currency": currency, "net_units": units, "net_minor": minor}
            else:
                played["net_units"] = _plus(played["net_units"], units)
                played["net_minor"] = _plus(played["net_minor"], minor)
        return {"member_id": self.member_id, "name": member.name,
                "sessions": list(reversed(sessions.values())), **cut.echo()}

    def money(self, *, as_of: str | None = None) -> list[dict[str, Any]]:
        """The money that moved on his account besides his sessions' results, newest first:
        payments (his and the club's), reversals, write-offs and a tin's difference he
        answers for, each in his own words (`words`), signed as it moved his balance; a
        cancelled entry says which reversal cancelled it (`reversed_by`)."""
        with self.ledger.engine.connect() as conn:
            cut = reads.cut_at(conn, self.club_id, as_of)
            _, items = reads.member_items(conn, self.club_id, cut, self.member_id)
        moves = [i for i in items if i.line.kind in MONEY_KINDS]
        undone = {i.line.detail["reverses"]: i.line.seq for i in moves
                  if i.line.kind == bk.EntryKind.REVERSAL}
        return [{"at": i.line.at.isoformat(), "kind": str(i.line.kind), "seq": i.line.seq,
                 "words": _words(i.line, self.member_id), "currency": i.currency,
                 "amount_minor": i.amount, "session_id": i.line.session_id,
                 "session_name": i.line.session_name,
                 "reversed_by": undone.get(i.line.seq)} for i in reversed(moves)]

    def statement(self, session_id: str, *, as_of: int | str | None = None
                  ) -> dict[str, Any]:
        """His line of the session's statement and the session's totals (now, or as of a
        version of its log or a time); a session he held no seat in is not found, exactly as
        one that does not exist."""
        with self.ledger.engine.connect() as conn:
            self._member(conn)
        part = member_statement(self.ledger.statement(session_id, as_of=as_of),
                                self.member_id)
        if part is None:
            # answered as a session that does not exist: the club's other sessions are not
            # his to know of
            raise SessionNotFound(f"no session {session_id}", rule="session-exists",
                                  field="session_id")
        return part

    def lines(self, session_ids: list[str], *, at: str | None = None
              ) -> list[dict[str, Any]]:
        """His part of each of these sessions' statements as they stand (or stood at the
        time `at`), read at once (his page): as `statement` gives it, less the log's pin
        (the page does not show it)."""
        parts = [member_statement(full, self.member_id)
                 for full in self.ledger.statements(session_ids, as_of=at)]
        return [p for p in parts if p is not None]


MONEY_KINDS = (bk.EntryKind.PAYMENT, bk.EntryKind.REVERSAL, bk.EntryKind.WRITE_OFF,
               bk.EntryKind.CASH_DIFFERENCE)


def _words(line: bk.Line, member_id: str) -> str:
    """A money line of his account as his own page says it, to him."""
    d = line.detail
    if line.kind == bk.EntryKind.PAYMENT:
        def party(who: str) -> str:
            return "you" if who == member_id else "the club" if who == CLUB else "a member"
        said = _first_up(f"{party(d['payer'])} paid {party(d['payee'])}")
        session = f", for {line.session_name}" if line.session_name else ""
        return f"{said} ({d['method']}{session})"
    if line.kind == bk.EntryKind.WRITE_OFF:
        return f"Written off by the club: {d['reason']}"
    return _first_up(bk.describe(line, member_id))


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plus(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)
