"""A member's own view at a club's scale: what his token reads, timed through the app.

    python -m bench.member_bench URL [--sessions 200]    # one JSON line, medians in ms

Makes a club on the (migrated, may be shared) database at URL where one member, Ann, plays
`--sessions` evenings of three seats (the turn-up single, then the pool divided), issues
her a member token, and prints the median of 10 calls of each read her token makes: her
account, the list of her statements, one statement, and her page (which draws her line of
her last 20 sessions). docs/books.md, "A member's own view".
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets

from api import create_app
from ledger.clubs.service import Actor, Clubs
from ledger.domain import OpenSession
from ledger.domain.commands import EndSession, StartDeal
from ledger.sessions.service import Ledger
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from ledger.writes import WriteRequest

from .accounts_bench import median_ms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--sessions", type=int, default=200)
    args = parser.parse_args()
    upgrade(args.url)
    engine = make_engine(args.url)
    clubs = Clubs(engine)
    info, admin, _ = clubs.create_club(f"bench {secrets.token_hex(4)}")
    club = info["club_id"]
    ids = {n: clubs.add_member(club, n)["member_id"] for n in ("Ann", "Bob", "Cal")}
    ledger = Ledger(engine).for_club(club)
    request = WriteRequest(Actor("bench", admin["member_id"]))
    sid = ""
    for i in range(args.sessions):
        sid = ledger.open_session(OpenSession(
            players=["Ann", "Bob", "Cal"], first_dealer="Ann", name=f"Evening {i}",
            money_per_unit_minor=10, currency="GBP"), request).body["session_id"]
        ledger.append(sid, [StartDeal(trump_card="7H", face_up={
            "Ann": "5C", "Bob": "9H", "Cal": "KS"})], request)
        ledger.append(sid, [EndSession(method="divide-pool")], request)
    token = clubs.create_token(club, ids["Ann"], "member", "bench")["token"]
    web = create_app({"ENGINE": engine}).test_client()
    logging.getLogger("lanterloo.request").setLevel(logging.WARNING)  # no line per request
    headers = {"Authorization": f"Bearer {token}"}
    ann = ids["Ann"]

    def get(url: str) -> None:
        response = web.get(url, headers=headers)
        assert response.status_code == 200, (url, response.status_code)

    print(json.dumps({
        "backend": engine.dialect.name, "sessions": args.sessions,
        "account_ms": median_ms(lambda: get(f"/members/{ann}/account")),
        "statements_ms": median_ms(lambda: get(f"/members/{ann}/statements")),
        "statement_ms": median_ms(lambda: get(f"/members/{ann}/statements/{sid}")),
        "page_ms": median_ms(lambda: get(f"/members/{ann}/account.html")),
    }))
    engine.dispose()


if __name__ == "__main__":
    main()
