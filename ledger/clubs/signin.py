"""Signing a person in with a link: the desk's way in (docs/desk.md).

    links = SignIn(engine)
    made = links.create_link(club_id, member="Tess", role="treasurer", created_by=admin_id)
    signed = links.exchange(made["code"])    # signed["token"]: Tess's treasurer token

A sign-in link carries a code of CODE_LENGTH symbols (130 bits) in its fragment
(`/desk#signin=<code>`), which no browser sends to a server. It is made and spent as every
code exchanged for a token is (ledger/clubs/codes.py): good for LINK_LIFETIME, once, only its
SHA-256 stored. Exchanged, it gives a token of the member and role it was made for, lasting
TOKEN_DAYS, which the page keeps and which is revoked like any other (signing out revokes
it). Unknown, expired, used, withdrawn or mistyped: one answer, which says what to do next.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from ledger.clubs import codes
from ledger.clubs.service import ROLES, Actor, Clubs, NotFound, check_current, name_key
from ledger.domain import InvalidInput, LedgerError
from ledger.domain.access import LinkStatus
from ledger.store import clubstore, open_store
from ledger.store import tabletstore as store
from ledger.store.chain import utc_iso
from ledger.store.db import clock

__all__ = ["SignIn", "SignInRefused", "LINK_LIFETIME", "TOKEN_DAYS", "CODE_LENGTH",
           "normalise_link_code"]

CODE_LENGTH = 26
LINK_LIFETIME = timedelta(minutes=30)
TOKEN_DAYS = 30
LABEL = "sign-in link"  # the token's label: the device is the link's
CLI_LABEL = "sign-in link (command line)"
MAX_LISTED = 200


class SignInRefused(LedgerError):
    """A link that signs nobody in: unknown, expired, used, withdrawn or mistyped."""

    code = "signin-refused"


def normalise_link_code(raw: object) -> str:
    return codes.normalise(raw, CODE_LENGTH, f"a sign-in link's code is {CODE_LENGTH} letters "
                           "and digits: open the whole link you were given", rule="signin-code")


def _status(row: Any, now: datetime) -> LinkStatus:
    if row.used_at is not None:
        return LinkStatus.USED
    if codes.utc(row.expires_at) <= now or row.failed_attempts >= codes.MAX_FAILED:
        return LinkStatus.EXPIRED
    return LinkStatus.WAITING


class SignIn:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.store = open_store(engine)

    def create_link(self, club_id: str, *, member: str, role: str, created_by: str,
                    created_with: str | None = None, at_command_line: bool = False,
                    now: datetime | None = None) -> dict[str, Any]:
        """A link's code that signs `member` (an id or a name) in with `role`, once, within
        LINK_LIFETIME; the code is in the answer this once. `created_by` is the member who
        gives it, with the token `created_with`; a link made `at_command_line` is the
        operator's (`lanterloo club create`), and the token it gives is issued by no member,
        as the command line's are."""
        if role not in ROLES:
            raise InvalidInput(f"role must be one of {', '.join(ROLES)}", rule="role",
                               field="role")
        with self.store.transaction() as tx:
            conn = tx.conn
            now = now or tx.now()  # the database's clock sets and judges the expiry
            expires = now + LINK_LIFETIME
            found = clubstore.find_member(conn, club_id, member_id=member) \
                or clubstore.find_member(conn, club_id, name_key=name_key(member))
            if found is None:
                raise InvalidInput(f"no member {member} in the club: add him first",
                                   rule="member-exists", field="member")
            check_current(found)
            link_id, code = codes.make(conn, length=CODE_LENGTH, club_id=club_id,
                                       member_id=found.id, role=role, created_by=created_by,
                                       expires_at=expires, now=now,
                                       created_with=created_with,
                                       label=CLI_LABEL if at_command_line else LABEL)
        return {"link_id": link_id, "code": code, "member": found.name,
                "member_id": found.id, "role": role, "created_at": utc_iso(now),
                "expires_at": utc_iso(expires),
                "expires_in_seconds": int(LINK_LIFETIME.total_seconds())}

    def links(self, club_id: str, *, roles: tuple[str, ...] | None = None,
              now: datetime | None = None) -> list[dict[str, Any]]:
        """The club's sign-in links, newest first (of `roles` only, when given): for whom,
        which role, made by whom and when, and whether it waits, was used or expired."""
        with self.store.reading() as conn:
            now = now or clock(conn)
            rows = store.signin_links(conn, club_id, MAX_LISTED)
        return [{"link_id": r.id, "member": r.member_name, "member_id": r.member_id,
                 "role": r.role, "created_by": r.maker_name,
                 "created_at": utc_iso(r.created_at), "expires_at": utc_iso(r.expires_at),
                 "used_at": utc_iso(r.used_at) if r.used_at is not None else None,
                 "token_id": r.token_id, "status": _status(r, now)}
                for r in rows if roles is None or r.role in roles]

    def withdraw(self, club_id: str, link_id: str, *, roles: tuple[str, ...] | None = None,
                 now: datetime | None = None) -> dict[str, Any]:
        """Let a waiting link of the club (of `roles`, when given) expire now."""
        with self.store.transaction() as tx:
            now = now or tx.now()
            listed = {r.id: r for r in store.signin_links(tx.conn, club_id, MAX_LISTED)}
            row = listed.get(link_id)
            if row is None or (roles is not None and row.role not in roles):
                raise NotFound(f"no sign-in link {link_id}", rule="link-exists",
                               field="link_id")
            if not store.withdraw_code(tx.conn, link_id, club_id, now=now):
                raise InvalidInput("that link was used or has expired already: revoke the "
                                   "access it gave instead", rule="link-waiting",
                                   field="link_id")
        return next(r for r in self.links(club_id, now=now) if r["link_id"] == link_id)

    def exchange(self, raw: object, *, now: datetime | None = None) -> dict[str, Any]:
        """The token a link's code signs in (its secret shown this once); the code is
        spent. Refused alike whatever is wrong with the code."""
        code = normalise_link_code(raw)
        refused = SignInRefused("this sign-in link was used already, has expired or was "
                                "withdrawn: ask your club's admin or treasurer for a new one",
                                rule="signin-code", field="code")
        with self.store.transaction() as tx:
            conn = tx.conn
            now = now or tx.now()  # the clock that set the link's expiry
            self.store.tokens_changed(tx)  # a token is made

            def issue(match: Any) -> dict[str, Any]:
                # issued on the word of the member who made the link (the operator's: none)
                by = None if match.label == CLI_LABEL \
                    else Actor("sign-in link", match.created_by, match.created_with)
                return Clubs(self.engine).create_token_in(
                    conn, match.club_id, match.member_id, match.role, match.label or LABEL,
                    TOKEN_DAYS, by=by)

            spent = codes.spend(conn, code, now, for_session=False, issue=issue,
                                refused=refused)
            if spent is not None:
                match, token = spent
                club = clubstore.find_club(conn, match.club_id)
                return {**token, "club_id": match.club_id,
                        "club": club.name if club is not None else ""}
        raise refused  # once the failures are committed
