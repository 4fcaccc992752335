"""The text forms of the resources: CSV for a spreadsheet, a printable HTML page, and the audit
queries' and the book register's pages, answered as JSON or CSV.

Each is served by its JSON route on `?format=` or the Accept header (api/http/formats.py) and
by api/routes/exports.py as a route of its own; here, once, so that no route borrows another's.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime
from typing import Any

import orjson
from flask import Response, request, url_for

from api.http.auth import principal
from api.http.context import books, ledger
from api.http.formats import CSV_MIMETYPE, csv_file, wants_csv
from api.http.writing import json_response
from api.pages.printable import (
    HTML_MIMETYPE,
    render_club_page,
    render_member_page,
    render_statement,
)
from ledger.audit.queries import (
    CORRECTION_COLUMNS,
    EVENT_COLUMNS,
    REGISTER_COLUMNS,
    Audit,
    Filters,
    to_csv,
)
from ledger.books.reads import REGISTER_CSV_COLUMNS as BOOK_REGISTER_COLUMNS
from ledger.books.reads import Filters as BookFilters
from ledger.books.reads import register_csv_rows
from ledger.domain.accounts import money_table
from ledger.sessions.memberview import MemberView

# ---------------------------------------------------------------- a session's statement and trail


def csv_filename(session_id: str, table: str | None = None) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", session_id)[:80] or "session"
    return f"lanterloo-{safe}-statement{'-' + table if table else ''}.csv"


def statement_explain(session_id: str, as_of: str | None = None) -> dict[str, Any] | None:
    """The postings behind each figure, for the page's expanding lines (the shape of
    `GET /sessions/<id>/explain`)."""
    return ledger().explain(session_id, as_of=as_of)


def statement_csv(session_id: str, as_of: str | None, *, table: str | None = None,
                  bom: bool = False) -> Response:
    """The statement as CSV, or one of its tables (also GET /sessions/<id>/statement.csv,
    api/routes/exports.py); `bom` starts it with a UTF-8 byte order mark."""
    text = ledger().statement_csv(session_id, as_of=as_of, table=table)
    return Response(("\ufeff" if bom else "") + text, mimetype=CSV_MIMETYPE, headers={
        "Content-Disposition": f'attachment; filename="{csv_filename(session_id, table)}"',
        "Vary": "Accept"})


def statement_page(session_id: str, as_of: str | None = None) -> Response:
    """The statement as a printable page (also GET /sessions/<id>/statement.html); as it
    stood at `as_of` (a version of the session's log or a time): its figures, its chart and
    the postings behind them, from the log up to there."""
    books = ledger()
    page = render_statement(books.statement(session_id, as_of=as_of),
                            books.balance_series(session_id, as_of=as_of),
                            explain=statement_explain(session_id, as_of),
                            club={"club_id": principal().club_id,
                                  "club": principal().club_name})
    # Its Content-Security-Policy (DOCUMENT_CSP) is set with every other's: api/http/security.py.
    return Response(page, mimetype=HTML_MIMETYPE, headers={"Vary": "Accept"})


def explain_csv(session_id: str, player: str | None, as_of: str | None, *,
                table: str | None = None, bom: bool = False) -> Response:
    """The trail as CSV, a row per posting, or one of its tables (also
    GET /sessions/<id>/explain.csv); `bom` starts it with a UTF-8 byte order mark."""
    text = ledger().explain_csv(session_id, player=player, as_of=as_of, table=table)
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", session_id)[:80] or "session"
    name = f"lanterloo-{safe}-explain{'-' + table if table else ''}.csv"
    return Response(("\ufeff" if bom else "") + text, mimetype=CSV_MIMETYPE, headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Vary": "Accept"})


# ---------------------------------------------------------------- the club's books

# The open debts and what the club owes, as CSV (docs/books.md, "Exports"): who, from which
# session and since when, the money in its currency with the minor units beside, the ids last.
OPEN_COLUMNS = ["name", "session_name", "since", "kind", "currency", "amount", "amount_minor",
                "member_id", "session_id", "seq", "corrected_by"]
SETTLE_COLUMNS = ["currency", "side", "name", "amount", "amount_minor", "member_id"]


def register_answer(query: dict[str, Any], *, csv: bool,
                    endpoint: str = "books.Register") -> Any:
    """A page of the book register, as JSON or CSV (also GET /book-entries.csv, whose next
    page is its own: `endpoint`)."""
    names = [f.name for f in dataclasses.fields(BookFilters)]
    filters = BookFilters(**{k: v for k, v in query.items() if k in names})
    after, limit = query["after"], query["limit"]
    page = books().register(filters, after=after, limit=limit, as_of=query.get("as_of"))
    headers = {"Vary": "Accept"}
    page["next"] = None
    if page["next_after"] is not None:
        args: dict[str, Any] = {k: v for k, v in request.args.items()
                                if k not in ("after", "limit")}
        page["next"] = url_for(endpoint, **args, after=page["next_after"], limit=limit)
        headers["Link"] = f'<{page["next"]}>; rel="next"'
    if csv:
        out = csv_file(money_table(BOOK_REGISTER_COLUMNS, register_csv_rows(page["entries"])),
                       register_filename(filters.since, filters.until, after), bom=query["bom"])
        out.headers.update(headers)
        return out
    return json_response(page, headers=headers)


def span_words(since: datetime | None, until: datetime | None) -> str:
    """A span of time as a file name says it: "2026-11" for a calendar month (UTC, as the
    ledger closes one), else its days ("from-2026-11-03-until-2026-11-10"), "" for no span."""
    if since is not None and until is not None:
        start, end = since.astimezone(UTC), until.astimezone(UTC)
        month_after = (start.replace(year=start.year + 1, month=1) if start.month == 12
                       else start.replace(month=start.month + 1))
        if start == start.replace(day=1, hour=0, minute=0, second=0, microsecond=0) \
                and end == month_after:
            return f"{start:%Y-%m}"
    parts = [f"from-{since.astimezone(UTC):%Y-%m-%d}" if since else "",
             f"until-{until.astimezone(UTC):%Y-%m-%d}" if until else ""]
    return "-".join(p for p in parts if p)


def register_filename(since: datetime | None, until: datetime | None, after: int) -> str:
    """The register's file: "lanterloo-register-2026-11.csv" for November 2026; a later page
    of it says where it starts ("...-after-40.csv")."""
    words = [w for w in ("lanterloo-register", span_words(since, until),
                         f"after-{after}" if after else "") if w]
    return "-".join(words) + ".csv"


def account_csv(member_id: str, *, as_of: str | None = None, bom: bool = False) -> Response:
    """Every entry of a member's account as CSV (also GET /members/<id>/account.csv)."""
    return csv_file(books().account_csv(member_id, as_of=as_of),
                    f"lanterloo-account-{member_id}.csv", bom=bom)


def debts_csv(*, as_of: str | None = None, bom: bool = False) -> Response:
    """The open debts as CSV (also GET /debts.csv)."""
    return csv_file(money_table(OPEN_COLUMNS, books().debts(as_of=as_of)["debts"]),
                    "lanterloo-debts.csv", bom=bom)


def club_page(since: datetime | None, until: datetime | None, *,
              as_of: str | None = None) -> Response:
    """The club's printable page: the standings, the open debts and what the club owes, and
    the tins as last counted, all as of `as_of` if given (also GET /standings.html)."""
    caller = principal()
    sides = books().open_items(as_of=as_of)  # both sides, one read of the books
    page = render_club_page({"club_id": caller.club_id, "club": caller.club_name},
                            books().standings(since=since, until=until, as_of=as_of),
                            {"debts": sides["debts"], "totals": sides["debts_totals"]},
                            {"payables": sides["payables"],
                             "totals": sides["payables_totals"]},
                            books().cash_checks(as_of=as_of))
    span = span_words(since, until)
    name = f"lanterloo-club-page{'-' + span if span else ''}.html"
    return Response(page, mimetype=HTML_MIMETYPE, headers={
        "Vary": "Accept", "Content-Disposition": f'inline; filename="{name}"'})


def payables_csv(*, as_of: str | None = None, bom: bool = False) -> Response:
    """What the club owes, as CSV (also GET /payables.csv)."""
    return csv_file(money_table(OPEN_COLUMNS, books().payables(as_of=as_of)["payables"]),
                    "lanterloo-payables.csv", bom=bom)


def settle_up_csv(*, as_of: str | None = None, bom: bool = False) -> Response:
    """Who pays whom, one row each, as CSV (also GET /settle-up.csv)."""
    data = books().settle_up(as_of=as_of)
    rows = [{"currency": side["currency"], "side": name, **who}
            for side in data["currencies"]
            for name in ("pays_club", "club_pays") for who in side[name]]
    return csv_file(money_table(SETTLE_COLUMNS, rows), "lanterloo-settle-up.csv", bom=bom)


# ---------------------------------------------------------------- a member's own page

PAGE_SESSIONS = 20  # the sessions a member's page shows his line of, newest first
PAGE_ENTRIES = 1  # the account's last entries read, to learn how many there are
PAGE_MONEY = 50  # the payments, reversals and write-offs a member's page lists, newest first


def member_view(member_id: str) -> MemberView:
    return MemberView(ledger(), member_id)


def member_page(member_id: str, as_of: str | None = None) -> Response:
    """A member's own page (also GET /members/<id>/account.html): his balance, what is open,
    the money he paid or was paid (the last PAGE_MONEY payments, reversals, write-offs), his
    last PAGE_SESSIONS sessions and his line of each, as one printable document; as
    they stood at `as_of` (a book position or a time), each session's line from its log as
    it was then."""
    view = member_view(member_id)
    listed = view.statements(as_of=as_of)
    account = books().account(member_id, after=0, limit=PAGE_ENTRIES, as_of=as_of)
    played = listed["sessions"]
    point = listed.get("as_of")
    money = view.money(as_of=as_of)
    parts = view.lines([p["session_id"] for p in played[:PAGE_SESSIONS]],
                       at=point["at"] if point else None)
    page = render_member_page({"club_id": principal().club_id, "club": principal().club_name},
                              account, played[:PAGE_SESSIONS], parts,
                              more=max(len(played) - PAGE_SESSIONS, 0), as_of=point,
                              money=money[:PAGE_MONEY],
                              more_money=max(len(money) - PAGE_MONEY, 0))
    return Response(page, mimetype=HTML_MIMETYPE, headers={"Vary": "Accept"})


# ---------------------------------------------------------------- the audit queries

FILTER_NAMES = ("session_id", "member_id", "type", "offence", "breach", "actor", "token_id",
                "since", "until")


def answer(endpoint: str, key: str, columns: list[str], query: dict[str, Any],
           run: Any) -> Any:
    filters = Filters(**{k: v for k, v in query.items() if k in FILTER_NAMES})
    after, limit, fmt = query["after"], query["limit"], query.get("format")
    page = dict(run(Audit.of(ledger()), filters, after=after, limit=limit))
    headers = {"Vary": "Accept"}
    page["next"] = None
    if page["next_after"] is not None:
        args = {k: (v.isoformat() if hasattr(v, "isoformat") else v)
                for k, v in query.items() if k in FILTER_NAMES or k == "format"
                or (k == "bom" and v)}
        page["next"] = url_for(endpoint, **args, after=page["next_after"], limit=limit)
        headers["Link"] = f'<{page["next"]}>; rel="next"'
    if wants_csv(fmt):
        bom = "\ufeff" if query.get("bom") else ""
        return Response(bom + to_csv(page[key], columns), mimetype=CSV_MIMETYPE, headers={
            **headers, "Content-Disposition": f'attachment; filename="lanterloo-audit-{key}'
                                              f'-after-{after}.csv"'})
    # Written straight as JSON (the schema documents it): marshmallow's dump of a page of
    # five hundred events costs more than the query behind it.
    return Response(orjson.dumps(page), status=200, mimetype="application/json",
                    headers=headers)


# Each query: its endpoint, the page's list, the CSV's columns and how to run it.
QUERIES: dict[str, tuple[str, str, list[str], Any]] = {
    "events": ("audit.Events", "events", EVENT_COLUMNS,
               lambda audit, f, **page: audit.events(f, **page)),
    "penalties": ("audit.Penalties", "entries", REGISTER_COLUMNS,
                  lambda audit, f, **page: audit.penalties(f, **page)),
    "corrections": ("audit.Corrections", "corrections", CORRECTION_COLUMNS,
                    lambda audit, f, **page: audit.corrections(f, **page)),
}


def run_query(name: str, query: dict[str, Any]) -> Any:
    endpoint, key, columns, run = QUERIES[name]
    return answer(endpoint, key, columns, query, run)


def audit_csv(name: str, query: dict[str, Any]) -> Any:
    """One of the audit queries as CSV (also GET /audit/<name>.csv, api/routes/exports.py)."""
    return run_query(name, {**query, "format": "csv"})
