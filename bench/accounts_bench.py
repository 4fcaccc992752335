"""The club's books at a club's scale: every books read, now and as of a point.

    python -m bench.accounts_bench URL [--sessions 1000] [--payments 1000]   # one JSON line

Makes a club of 10 members on the (migrated, may be shared) database at URL, writes the
results of `--sessions` ended sessions of five seats (random zero-sum nets, through the
projection writer) and appends `--payments` payments through the service, then prints the
median of 10 calls of each read (docs/books.md, "Cost").
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert

from ledger.bookreads import Filters
from ledger.clubs import Actor, Clubs
from ledger.domain.accounts import SessionResult
from ledger.projections import result_rows
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from ledger.store.tables import session_results, sessions
from ledger.treasury import Books
from ledger.writes import WriteRequest


def median_ms(call: Callable[[], Any], times: int = 10) -> float:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        call()
        spent.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(spent), 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--payments", type=int, default=1000)
    args = parser.parse_args()
    upgrade(args.url)
    engine = make_engine(args.url)
    clubs = Clubs(engine)
    info, admin, _ = clubs.create_club(f"bench {secrets.token_hex(4)}")
    club = info["club_id"]
    names = [f"M{i}" for i in range(10)]
    ids = {n: clubs.add_member(club, n)["member_id"] for n in names}
    actor = Actor("bench", admin["member_id"])
    rnd = random.Random(1)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        for s in range(args.sessions):
            sid = secrets.token_hex(16)
            conn.execute(insert(sessions).values(id=sid, club_id=club, version=1, state={},
                                                 created_at=start, updated_at=start))
            seated = rnd.sample(names, 5)
            nets = [rnd.randint(-30, 30) for _ in range(4)]
            nets.insert(0, -sum(nets))
            conn.execute(insert(session_results), result_rows([SessionResult(
                session_id=sid, seat=m, member_id=ids[m], currency="GBP", net_units=n,
                net_minor=n * 10, deals_dealt=3, loos=1, loo_units=3, penalties=0,
                penalty_units=0, posted_at=start + timedelta(hours=s),
                session_name=f"night {s}", version=1)
                for m, n in zip(seated, nets, strict=True)], club))
    books = Books(engine, club)
    begun = time.perf_counter()
    for _ in range(args.payments):
        books.record_payment(payer=rnd.choice(names), payee="club",
                             amount_minor=rnd.randint(1, 100), currency="GBP", method="cash",
                             request=WriteRequest(actor))
    payment_ms = (time.perf_counter() - begun) * 1000 / max(args.payments, 1)
    middle = max(args.payments // 2, 1)  # a book position half way
    print(json.dumps({
        "sessions": args.sessions, "payments": args.payments,
        "payment_append_ms": round(payment_ms, 1),
        "member_account_ms": median_ms(lambda: books.account(ids["M0"])),
        "accounts_ms": median_ms(books.accounts),
        "debts_ms": median_ms(books.debts),
        "standings_ms": median_ms(books.standings),
        "payables_ms": median_ms(books.payables),
        "settle_up_ms": median_ms(books.settle_up),
        "register_page_ms": median_ms(lambda: books.register(Filters(), limit=100)),
        "register_member_ms": median_ms(lambda: books.register(Filters(member_id=ids["M0"]),
                                                                limit=100)),
        "accounts_as_of_ms": median_ms(lambda: books.accounts(as_of=str(middle))),
        "debts_as_of_ms": median_ms(lambda: books.debts(as_of=str(middle))),
        "member_account_as_of_ms": median_ms(lambda: books.account(ids["M0"],
                                                                   as_of=str(middle))),
    }))
    engine.dispose()


if __name__ == "__main__":
    main()
