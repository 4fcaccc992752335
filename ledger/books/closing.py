"""Closing a period and bringing in opening balances, as a service (docs/books.md, "Closing
a period" and "Opening balances").

    periods = Periods(Books(engine, club_id))
    periods.close("2026-10", request=WriteRequest(treasurer))    # a PeriodClosed entry
    periods.reopen("2026-10", reason="...", request=...)         # an admin's PeriodReopened
    periods.import_opening(content, request=...)                 # OpeningBalance entries

Every write here is an entry of the club's book log, appended through the books' one write
(Books.append: the write protocol, the chain). A read of the books never changes what it
says as of a closed period's end: entries and corrections post at the time they are made,
and a period closes only once it has ended, so everything recorded after its close is dated
in an open period; an entry that would carry a date of its own (an opening balance's
`as_of`) inside a closed period is refused.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection

from ledger.books import reads
from ledger.books.service import Books
from ledger.clubs.service import NotFound
from ledger.domain import InvalidInput, LedgerError, OutOfTurn, opening
from ledger.domain import bookentries as be
from ledger.domain.currencies import UNITS, check_kept
from ledger.domain.periods import check_period, end_of, period_of
from ledger.store import booklog as store
from ledger.store.chain import as_utc, utc_iso
from ledger.store.db import clock
from ledger.writes import AppendResult, WriteRequest

# A write stamps its time when it begins and commits a moment later: a period closes only
# once no write begun inside it can still be on its way (far beyond any statement's timeout).
CLOSE_GRACE = timedelta(minutes=5)


class PeriodClosed(OutOfTurn):
    """The date named is inside a closed period."""


def file_digest(content: bytes) -> str:
    """The SHA-256 of an imported file's content: its identity (the same file twice)."""
    return hashlib.sha256(content).hexdigest()


def import_key(content: bytes) -> str:
    """The Idempotency-Key of an import sent without one: the file's own digest, so that
    the same file sent twice is recorded once."""
    return f"opening-balances-{file_digest(content)[:40]}"


class Periods:
    """One club's closed periods and opening balances, on its books."""

    def __init__(self, books: Books):
        self.books = books
        self.club_id = books.club_id

    def close(self, period: Any, *, request: WriteRequest) -> AppendResult:
        """Close the month `period` (YYYY-MM, ended): record its end's balances."""

        def build(conn: Connection) -> be.BookEntry:
            check_period(period)
            end = end_of(period)
            if clock(conn) - CLOSE_GRACE <= end:
                raise OutOfTurn(f"{period} has not ended: a period is closed after its last "
                                f"day (and {CLOSE_GRACE.seconds // 60} minutes, so that no "
                                "write begun inside it is still on its way)",
                                rule="period-not-ended", field="period")
            shut = reads.closed(conn, self.club_id, reads.NOW)
            if period in shut:
                raise OutOfTurn(f"{period} was closed by entry {shut[period]}",
                                rule="period-already-closed", field="period",
                                closed_by=shut[period])
            cut = reads.cut_at(conn, self.club_id, end.isoformat())
            balances = reads.balances(conn, self.club_id, cut)
            # the accounts that hold something: a club's sessions' own accounts are square
            # but for pools left over, and there is one per session
            held = {account: {c: n for c, n in per.items() if n}
                    for account, per in balances.items() if any(per.values())}
            return be.PeriodClosed(period=period, end=end.isoformat(), end_seq=cut.seq or 0,
                                   balances=held)

        return self.books.append(build, request, "close", period)

    def reopen(self, period: Any, *, reason: Any, request: WriteRequest) -> AppendResult:
        """Reopen the closed `period`, for `reason` (an admin's)."""

        def build(conn: Connection) -> be.BookEntry:
            check_period(period)
            if period not in reads.closed(conn, self.club_id, reads.NOW):
                raise OutOfTurn(f"{period} is not closed", rule="period-not-closed",
                                field="period")
            return be.PeriodReopened(period=period, reason=reason)

        return self.books.append(build, request, "reopen", period, reason)

    def periods(self, *, as_of: str | None = None) -> dict[str, Any]:
        """Every period ever closed, oldest first: closed now or reopened, its closing (who,
        when, its end and the balances there) and its reopenings."""
        with self.books.engine.connect() as conn:
            cut = reads.cut_at(conn, self.club_id, as_of)
            rows = store.entries(conn, self.club_id, types=reads.CLOSINGS, up_to=cut.seq)
        found: dict[str, dict[str, Any]] = {}
        for r in rows:
            entry = be.entry_from_record(r.type, r.schema_version, r.payload)
            at, by = utc_iso(as_utc(r.recorded_at)), r.actor
            if isinstance(entry, be.PeriodClosed):
                found[entry.period] = {
                    "period": entry.period, "closed": True, "seq": r.seq, "closed_at": at,
                    "closed_by": by, "end": entry.end, "end_seq": entry.end_seq,
                    "balances": entry.balances,
                    "reopenings": found.get(entry.period, {}).get("reopenings", [])}
            elif isinstance(entry, be.PeriodReopened) and entry.period in found:
                found[entry.period]["closed"] = False
                found[entry.period]["reopenings"].append(
                    {"seq": r.seq, "reopened_at": at, "reopened_by": by,
                     "reason": entry.reason})
        return {"periods": [found[p] for p in sorted(found)], **cut.echo()}

    def import_opening(self, content: bytes, *, request: WriteRequest) -> AppendResult:
        """Record the opening balances of the CSV file `content`, one entry per line, all or
        none: every refused line is named with its reason, and nothing is recorded."""
        parsed = opening.parse(content)
        digest = file_digest(content)

        def build(conn: Connection) -> list[be.BookEntry]:
            kept = reads.currencies(conn, self.club_id, reads.NOW).kept
            shut = reads.closed(conn, self.club_id, reads.NOW)
            today = clock(conn).date().isoformat()
            problems = list(parsed.problems)
            entries: list[be.BookEntry] = []
            seen: dict[tuple[str, str], int] = {}
            for line in parsed.lines:
                try:
                    member_id = self._member(conn, line.member)
                    if line.currency == UNITS:
                        raise InvalidInput("opening balances are money", rule="currency",
                                           field="currency")
                    check_kept(line.currency, kept)
                    if line.as_of > today:
                        raise InvalidInput(f"as_of {line.as_of} is in the future",
                                           rule="as-of-future", field="as_of")
                    if period_of(datetime.fromisoformat(line.as_of)) in shut:
                        raise PeriodClosed(
                            f"{line.as_of} is in the closed period "
                            f"{period_of(datetime.fromisoformat(line.as_of))}: an entry is "
                            "never dated inside a closed period", rule="period-closed",
                            field="as_of")
                    twice = seen.setdefault((member_id, line.currency), line.line)
                    if twice != line.line:
                        raise InvalidInput(f"line {twice} gives this member's balance in "
                                           f"{line.currency} already",
                                           rule="member-listed-twice", field="member")
                    entries.append(be.OpeningBalance(
                        member_id=member_id, amount_minor=line.amount_minor,
                        currency=line.currency, as_of=line.as_of, note=line.note,
                        file_sha256=digest, line=line.line))
                except LedgerError as error:
                    problems.append({"line": line.line, "field": error.field,
                                     "rule": error.rule, "detail": error.message})
            if problems:
                problems.sort(key=lambda p: p["line"])
                raise InvalidInput(f"{len(problems)} line(s) of the file refused: nothing "
                                   "was recorded", rule="opening-balances", field="file",
                                   lines=problems)
            self._not_imported(conn, digest)
            return entries

        return self.books.append(build, request, "opening-balances", digest)

    def _member(self, conn: Connection, value: str) -> str:
        try:
            return self.books.party(conn, value, "member", club=False)
        except NotFound:
            raise InvalidInput(f"no member {value} in the club (add him first)",
                               rule="member-exists", field="member") from None

    def _not_imported(self, conn: Connection, digest: str) -> None:
        """Refuse a file whose balances are on the books already (recorded by an import
        under another key, and not reversed)."""
        log = reads.Log.read(conn, self.club_id, reads.NOW)
        undone = log.reversed_by()
        seqs = [seq for seq, e in log.entries.items() if isinstance(e, be.OpeningBalance)
                and e.file_sha256 == digest and seq not in undone]
        if seqs:
            raise OutOfTurn(f"this file's balances were recorded already (entries "
                            f"{seqs[0]} to {seqs[-1]})", rule="opening-balances-imported",
                            field="file", entries=seqs)
