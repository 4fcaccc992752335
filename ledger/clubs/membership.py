"""The admin's changes to a member: a new display name, a guest made a member, a member
retired. Each is an entry of the club's log (ledger/store/clublog.py: `MemberRenamed`,
`GuestAdmitted`, `MemberRetired`), written through the write protocol (ledger/writes.py), so
that an Idempotency-Key answers a retry once; a refused change appends nothing.

    change_member(clubs, club_id, "Tess", name="Tessa", request=request)
    change_member(clubs, club_id, "Dan", guest=False, request=request)
    retire_member(clubs, club_id, "Ode", request=request)

What a club expects (docs/api.md, "Members"):

- A new name is unique in the club whatever its case, as when he was added. The sessions he
  played keep the name he was seated under; his account and every list show the new one.
- A guest becomes a member; a member is not made a guest again.
- A member is retired only when nothing is left open: not while he holds a seat at an open
  table (end it first, or let him withdraw), not while his account is unsettled either way
  (he owes the club, or the club owes him: settle or write it off first), and never by
  himself (another admin retires an admin). Retiring takes back every access he holds: his
  tokens are revoked and his waiting sign-in links and pairing codes withdrawn, in the same
  transaction. His history stays: his sessions, statements and account read as before. A
  retired member is no longer listed among the members (unless asked), and cannot be
  seated, paired at a tablet, nor given a link or a token. He is not renamed nor retired
  again.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from ledger.books import reads
from ledger.clubs.service import (
    Clubs,
    NotFound,
    check_name,
    member_dict,
    name_key,
)
from ledger.domain import InvalidInput, OutOfTurn
from ledger.domain import bookentries as be
from ledger.domain.currencies import in_money
from ledger.store import clubstore, tabletstore
from ledger.store.base import Head, Tx
from ledger.store.chain import GENESIS
from ledger.writes import AppendResult, WriteRequest, perform


def change_member(clubs: Clubs, club_id: str, member: str, *, name: str | None = None,
                  guest: bool | None = None, request: WriteRequest) -> AppendResult:
    """Rename the club's member (`name`) and/or make a guest a member (`guest=False`)."""
    if name is None and guest is None:
        raise InvalidInput("say what changes: a new name, or \"guest\": false to make a "
                           "guest a member", rule="member-change", field="name")
    if guest is True:
        raise InvalidInput("a member is not made a guest again", rule="member-guest",
                           field="guest")
    if name is not None:
        check_name(name)

    def write(tx: Tx, conn: Connection, row: Any) -> None:
        if name is not None and name != row.name:
            other = clubstore.find_member(conn, club_id, name_key=name_key(name))
            if other is not None and other.id != row.id:
                retired = " (a retired member)" if other.retired_at is not None else ""
                raise InvalidInput(f"the club has a member named {other.name!r}{retired} "
                                   "already (names are compared without regard to case)",
                                   rule="member-name-unique", field="name")
            clubstore.rename_member(conn, club_id, row.id, name=name,
                                    name_key=name_key(name), by=request.actor)
        if guest is False and row.guest:
            clubstore.admit_guest(conn, club_id, row.id, by=request.actor)

    return _perform(clubs, club_id, member, request, "change", write, name, guest)


def retire_member(clubs: Clubs, club_id: str, member: str, *,
                  request: WriteRequest) -> AppendResult:
    """Retire the club's member: refused while he is seated at an open table or his account
    is unsettled, and for the caller himself; his access is taken back with it."""

    def write(tx: Tx, conn: Connection, row: Any) -> None:
        if row.id == request.actor.member_id:
            raise InvalidInput("you cannot retire yourself: another admin can",
                               rule="member-retire-self", field="member_id")
        seated = [state.get("name") or "a table with no name"
                  for state in tabletstore.club_states(conn, club_id)
                  if state.get("status") == "open"
                  and row.id in (state.get("members") or {}).values()]
        if seated:
            raise OutOfTurn(f"{row.name} holds a seat at the open table {seated[0]!r}: end "
                            "it, or let him withdraw, before he retires",
                            rule="member-seated", field="member_id")
        owed = _unsettled(conn, club_id, row.id)
        if owed:
            raise OutOfTurn(f"{row.name}'s account is not settled ({'; '.join(owed)}): "
                            "settle it or write it off before he retires",
                            rule="member-unsettled", field="member_id")
        now = tx.now()
        for token_id in clubstore.member_tokens(conn, club_id, row.id):
            clubstore.revoke_token(conn, token_id, now=now, by=request.actor)
        tabletstore.withdraw_member_codes(conn, club_id, row.id, now=now)
        clubstore.retire_member(conn, club_id, row.id, now=now, by=request.actor)

    return _perform(clubs, club_id, member, request, "retire", write)


def _unsettled(conn: Connection, club_id: str, member_id: str) -> list[str]:
    """What the member owes the club or the club owes him, in words, per currency."""
    sums = reads.balances(conn, club_id, reads.NOW, sessions=False)
    out = []
    for currency, amount in sums.get(be.member_account(member_id), {}).items():
        if amount:
            text = f"{in_money(abs(amount), currency)} {currency}"
            out.append(f"the club owes him {text}" if amount > 0
                       else f"he owes the club {text}")
    return out


def _perform(clubs: Clubs, club_id: str, member: str, request: WriteRequest, what: str,
             change: Any, *command: object) -> AppendResult:
    """One change of a member under the write protocol: his row found and locked in the
    transaction, `change` made, his member record the answer (kept for a key)."""
    scope = f"members:{club_id}:{request.actor.member_id or ''}"[:80]
    request = request.fingerprinted(scope, what, member, *command)

    def find(tx: Tx) -> Head:
        key = request.idempotency_key
        return Head(0, GENESIS, reply=tx.stored_reply(scope, key, club_id) if key else None)

    def write(tx: Tx, head: Head) -> dict[str, Any]:
        conn = tx.conn
        # locked before anything is checked: a table seating him waits, or is waited for
        row = clubstore.find_member(conn, club_id, member_id=member, lock="update")
        if row is None:
            raise NotFound(f"no member {member}", rule="member-exists", field="member_id")
        if row.retired_at is not None:
            raise OutOfTurn(f"{row.name} has retired from the club: his record is kept "
                                "as it was", rule="member-retired", field="member_id")
        clubs.store.tokens_changed(tx)  # a principal's name, or his tokens, change
        change(tx, conn, row)
        return member_dict(clubstore.find_member(conn, club_id, member_id=row.id))

    return perform(clubs.store, request, scope=scope, find=find, write=write,
                   current_version=lambda: 0, club_id=club_id)
