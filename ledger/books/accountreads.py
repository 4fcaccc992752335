"""The club's accounts (`GET /accounts`) and its sessions' own accounts, a page at a time
(`GET /accounts/sessions`), now or as of an earlier point (docs/books.md, "The accounts").

`/accounts` lists the accounts a club has a few of (its members', its cash, bank, written-off
and over-and-short) and sums the sessions' own accounts (one an ended session: a club's
largest list) per currency as `club.left_in_sessions`; the zero-sum check is over every
account. The sessions' accounts themselves are paged by their name (`after` the last one
seen). The book log's chain is checked from the head this process last verified it to
(ledger/store/booklog.py, `check_chain`): `log.checked_from` says from where.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import Connection

from ledger.books.reads import Cut, balances, held, members_of
from ledger.domain import accounts as bk
from ledger.domain import bookentries as be
from ledger.store import booklog as store

SESSION = "session:"
# where the chain was rehashed from for this answer: not the answer's (the same read says the
# same whatever this process verified before); the route sends it as a header
CHECKED_FROM = "_chain_checked_from"


def _split(conn: Connection, club_id: str, cut: Cut
           ) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """(every account but the sessions' own, per currency; the sessions' accounts summed
    per currency), at the cut: now as the database keeps them, summed by it."""
    if cut.seq is None and cut.at is None:
        return (balances(conn, club_id, cut, sessions=False),
                dict(sorted(store.kept_session_totals(conn, club_id))))
    every = balances(conn, club_id, cut)
    sessions: dict[str, int] = defaultdict(int)
    for account_, per_currency in every.items():
        if account_.startswith(SESSION):
            for currency, amount in per_currency.items():
                sessions[currency] += amount
    return ({a: c for a, c in every.items() if not a.startswith(SESSION)},
            dict(sorted(sessions.items())))


def accounts(conn: Connection, club_id: str, cut: Cut) -> dict[str, Any]:
    """Every member's balance per currency, the club's accounts, what is left in the
    sessions' accounts, the zero-sum check over every account, and the log's chain."""
    sums, in_sessions = _split(conn, club_id, cut)
    members = members_of(conn, club_id)
    chain = store.check_chain(conn, club_id, cut.seq, at_head=cut.asked is None)
    totals = bk.zero_sum({**sums, "session:*": in_sessions})
    return {
        "members": [{"member_id": m.id, "name": m.name, "guest": bool(m.guest),
                     "balances": sums.get(be.member_account(m.id), {})}
                    for m in sorted(members.values(), key=lambda m: m.name_key)],
        "club": {"cash": held(sums, be.CLUB_CASH), "bank": held(sums, be.CLUB_BANK),
                 "written_off": held(sums, be.CLUB_WRITTEN_OFF),
                 "cash_over_short": held(sums, be.CLUB_OVER_SHORT),
                 "left_in_sessions": {c: -v for c, v in in_sessions.items() if v}},
        "accounts": sums,
        "check": {"sums": totals, "zero_sum": not any(totals.values())},
        "log": {"entries": chain.entries, "chain_head": chain.head,
                "chain_ok": chain.problem is None, "problem": chain.problem},
        CHECKED_FROM: chain.checked_from,
        **cut.echo(),
    }


def session_accounts(conn: Connection, club_id: str, cut: Cut, *, after: str, limit: int
                     ) -> dict[str, Any]:
    """A page of the sessions' own accounts by name, those after the session `after` ("":
    from the first), at most `limit`: each account's balance per currency, and
    `next_after` (the page's last session) when more follow."""
    start = f"{SESSION}{after}" if after else SESSION
    if cut.seq is None and cut.at is None:
        rows = store.kept_session_page(conn, club_id, after=start, limit=limit + 1)
    else:
        rows = [(a, c, n) for a, per in balances(conn, club_id, cut).items()
                if a.startswith(SESSION) and a > start for c, n in per.items()]
    page: dict[str, dict[str, int]] = {}
    for account_, currency, amount in rows:
        if account_ not in page and len(page) == limit + 1:
            break
        page.setdefault(account_, {})[currency] = amount
    listed = list(page.items())
    more = len(listed) > limit
    listed = listed[:limit]
    return {"sessions": [{"session_id": a[len(SESSION):], "account": a, "balances": per}
                         for a, per in listed],
            "next_after": listed[-1][0][len(SESSION):] if more else None,
            **cut.echo()}
