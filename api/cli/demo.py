"""The demo session: docs/rules.md §10.1 and §10.2 and a few more deals, logged as a client would.

Five players A-E at baxter-wray (stake 3, loo 6, single loo 3). Every event below is the JSON
a dealer's client sends to POST /sessions/<id>/events; it goes through the same schemas and
the same Ledger service as the API, so the statement at the end is the ledger's own.

The session belongs to the demo club (DEMO_CLUB): players A-E are its members, and four
more members hold one role each (DEMO_STAFF). The treasurer opens and ends the session, the
dealer logs the play. `demo_tokens` issues a fresh token per role (revoking the previous
demo tokens: a secret is shown once, so the old ones could never be printed again).

Loading is idempotent: each request carries an Idempotency-Key, so loading the demo again
returns the session already recorded instead of a second copy.
"""

from __future__ import annotations

from typing import Any

from api.schemas import SessionOpenSchema, load_event
from ledger.clubs.service import ROLES, Actor, Clubs, NotFound
from ledger.domain.access import TokenStatus
from ledger.sessions.service import Ledger
from ledger.writes import WriteRequest, fingerprint

DEMO_VERSION = "v1"
DEMO_KEY = f"lanterloo-demo-{DEMO_VERSION}"
DEMO_CLUB = "Lanterloo demo club"
# The member who holds each role's demo token.
# who holds each demo token: the staff, and B, one of the demo's players, for his own view
DEMO_STAFF = {"admin": "Ada", "treasurer": "Tess", "dealer": "Dan", "auditor": "Otto",
              "member": "B"}
DEMO_TOKEN_LABEL = "demo"

OPEN: dict[str, Any] = {
    "name": "Demo: Baxter-Wray's worked examples",
    "players": ["A", "B", "C", "D", "E"],
    "preset": "baxter-wray",
    "first_dealer": "A",
    "unit": "counter",
    "money_per_unit_minor": 1,
    "currency": "GBP",
}


def _declare(player: str, declaration: str) -> dict[str, Any]:
    return {"type": "DeclarationMade", "player": player, "declaration": declaration}


def _card(player: str, card: str) -> dict[str, Any]:
    return {"type": "CardPlayed", "player": player, "card": card}


def _trick(winner: str) -> dict[str, Any]:
    return {"type": "TrickWon", "winner": winner}


# (what happens, the events the table logs for it)
DEALS: list[tuple[str, list[dict[str, Any]]]] = [
    # docs/rules.md §10.1: a fresh pool is the turn-up single. A pays 3; turn-up 7H;
    # face up B 9H, C KS, D QH, E 2H, A 5C. D's QH beats the 7H: D wins 3; A, B, C, E are
    # each looed 3. Next pool: 4 x 3 + B's 3 = 15.
    ("deal 1, A deals the turn-up single: D wins, A B C E are looed 3 each", [
        {"type": "DealStarted", "trump_card": "7H",
         "face_up": {"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"}},
    ]),
    # docs/rules.md §10.2: pool 15, C D E stand; C wins tricks 1 and 3, D trick 2, E none:
    # C 5 + 5, D 5, E looed 6. Next pool (C deals): 6 + 3 = 9. Clubs are trumps. Every card
    # follows the laws (follow suit, head if able, trump to head when void), so no breach.
    ("deal 2, B deals (pool 15): C takes two tricks, D one, E is looed 6", [
        {"type": "DealStarted", "trump_card": "3C"},
        _declare("C", "play"), _declare("D", "play"), _declare("E", "play"),
        _declare("A", "throw_up"), _declare("B", "throw_up"),
        _card("C", "AH"), _card("D", "5H"), _card("E", "6H"),  # C wins trick 1
        _card("C", "KS"), _card("D", "2C"), _card("E", "7S"),  # D, void of spades, trumps
        _card("D", "8D"), _card("E", "9D"), _card("C", "QD"),  # C heads the diamonds
    ]),
    # docs/rules.md §10.4: everyone before the dealer throws up and nobody takes the miss:
    # the dealer takes the pool (9) without play; nobody is looed, so a fresh pool follows.
    ("deal 3, C deals (pool 9): all throw up, C takes the pool", [
        {"type": "DealStarted", "trump_card": "KD"},
        _declare("D", "throw_up"), _declare("E", "throw_up"), _declare("A", "throw_up"),
        _declare("B", "throw_up"),
    ]),
    ("deal 4, D deals the turn-up single: A's QS beats the 10S", [
        {"type": "DealStarted", "trump_card": "10S",
         "face_up": {"E": "4H", "A": "QS", "B": "8S", "C": "AD", "D": "JC"}},
    ]),
    # Quick entry: only the winner of each trick is logged. B plays the miss and takes no
    # trick, so he is looed.
    ("deal 5, E deals (pool 15), quick entry: A two tricks, D one, B (on the miss) looed", [
        {"type": "DealStarted", "trump_card": "9H"},
        _declare("A", "play"), _declare("B", "take_miss"), _declare("C", "throw_up"),
        _declare("D", "play"), _declare("E", "throw_up"),
        _trick("A"), _trick("D"), _trick("A"),
    ]),
    ("deal 6, A deals (pool 9), quick entry: B, C and D take a trick each; nobody looed", [
        {"type": "DealStarted", "trump_card": "2S"},
        _declare("B", "play"), _declare("C", "play"), _declare("D", "play"),
        _declare("E", "throw_up"), _declare("A", "throw_up"),
        _trick("B"), _trick("C"), _trick("D"),
    ]),
    # A hand without a loo has been played: the session may end.
    ("the session ends after a hand without a loo", [
        {"type": "SessionEnded", "method": "single"},
    ]),
]


def demo_club(clubs: Clubs) -> tuple[str, dict[str, str]]:
    """(the demo club's id, {member name: member id}), made if missing: players A-E and the
    staff of DEMO_STAFF."""
    try:
        club_id = clubs.club(DEMO_CLUB)["club_id"]
    except NotFound:
        club, _admin, _token = clubs.create_club(DEMO_CLUB, admin=DEMO_STAFF["admin"],
                                                 label=DEMO_TOKEN_LABEL)
        club_id = club["club_id"]
    members = {}
    for name in [*OPEN["players"], *DEMO_STAFF.values()]:
        try:
            members[name] = clubs.member(club_id, name)["member_id"]
        except NotFound:
            members[name] = clubs.add_member(club_id, name)["member_id"]
    return club_id, members


def demo_tokens(clubs: Clubs) -> dict[str, str]:
    """A new bearer token for each role of the demo club; the earlier demo tokens revoked."""
    club_id, members = demo_club(clubs)
    for token in clubs.tokens(club_id):
        if token["label"] == DEMO_TOKEN_LABEL and token["status"] == TokenStatus.ACTIVE:
            clubs.revoke_token(token["token_id"], club_id=club_id)
    return {role: clubs.create_token(club_id, members[DEMO_STAFF[role]], role,
                                     DEMO_TOKEN_LABEL)["token"] for role in ROLES}


def load_demo(ledger: Ledger, *, echo: Any = None) -> str:
    """Record the demo session in the demo club (or find the one already recorded); return
    its id."""
    club_id, members = demo_club(Clubs(ledger.engine))
    club = ledger.for_club(club_id)
    treasurer = Actor(DEMO_STAFF["treasurer"], members[DEMO_STAFF["treasurer"]])
    dealer = Actor(DEMO_STAFF["dealer"], members[DEMO_STAFF["dealer"]])
    command = SessionOpenSchema().load(OPEN)
    opened = club.open_session(command, WriteRequest(treasurer, idempotency_key=DEMO_KEY,
                                                     fingerprint=fingerprint(OPEN)))
    session_id = str(opened.body["session_id"])
    for number, (what, events) in enumerate(DEALS, start=1):
        commands = [load_event(event, f"events.{i}") for i, event in enumerate(events)]
        ending = any(event["type"] == "SessionEnded" for event in events)
        club.append(session_id, commands, WriteRequest(
            treasurer if ending else dealer, idempotency_key=f"{DEMO_KEY}-{number}",
            fingerprint=fingerprint(events)))
        if echo:
            echo(f"  {what}")
    return session_id


def statement_table(statement: dict[str, Any]) -> str:
    """The statement as a plain-text table for a terminal."""
    unit = statement.get("unit") or "units"
    currency = statement.get("currency")
    rows = [("player", "paid", "received", "net", f"net {currency}" if currency else "")]
    for p in statement["players"]:
        money = p.get("net_money_minor")
        rows.append((p["player"], str(p["paid_total_units"]), str(p["received_total_units"]),
                     f"{p['net_units']:+d}", "" if money is None else f"{money:+d}"))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = [f"{statement.get('name') or statement['session_id']} "
             f"({statement.get('preset')}, {statement.get('deals')} deals, in {unit}s)"]
    for i, row in enumerate(rows):
        lines.append("  " + "  ".join(c.ljust(widths[j]) if j == 0 else c.rjust(widths[j])
                                      for j, c in enumerate(row)).rstrip())
        if i == 0:
            lines.append("  " + "  ".join("-" * w for w in widths).rstrip())
    pool = statement.get("pool", {})
    lines.append(f"  pool left: {pool.get('current_pool_units', 0)} "
                 f"+ {pool.get('next_pool_units', 0)} owed to the next deal"
                 f" ({pool.get('what_became_of_it', '')})")
    check = statement.get("check", {})
    lines.append(f"  zero-sum check: {'ok' if check.get('zero_sum') else 'FAILED'} "
                 f"(nets + pools = {check.get('nets_plus_pools_units')})")
    transfers = statement.get("settlement", {}).get("transfers", [])
    if transfers:
        lines.append("  to settle:")
        for t in transfers:
            lines.append(f"    {t['from']} pays {t['to']} {t['amount_units']}")
    return "\n".join(lines)
