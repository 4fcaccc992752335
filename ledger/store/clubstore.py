"""Reading and writing clubs, members and tokens, one statement at a time.

Like the event store, every function takes a Connection inside the caller's transaction.
Every lookup of a member or a token takes the club it must belong to: another club's row is
simply not found. Every write of a club, a member or a token is recorded, in the same
transaction, as an entry of the club's chained log (ledger/store/clublog.py), with who made
it (`by`; None: the operator at the command line).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, bindparam, insert, or_, select, update

from . import clublog
from .chain import utc_iso
from .clublog import Acting
from .tables import clubs, members, tokens


def insert_club(conn: Connection, *, club_id: str, name: str, name_key: str,
                now: datetime, by: Acting | None = None) -> None:
    conn.execute(insert(clubs).values(id=club_id, name=name, name_key=name_key,
                                      created_at=now))
    clublog.start_heads(conn, club_id)
    clublog.record(conn, club_id, clublog.CLUB_CREATED, {"club_id": club_id, "name": name},
                   by=by)


def find_club(conn: Connection, id_or_name_key: str) -> Any:
    """The club with this id, else the one with this casefolded name."""
    return conn.execute(select(clubs).where(or_(clubs.c.id == id_or_name_key,
                                                clubs.c.name_key == id_or_name_key))
                        .order_by((clubs.c.id == id_or_name_key).desc())).first()


def insert_member(conn: Connection, *, member_id: str, club_id: str, name: str, name_key: str,
                  guest: bool, now: datetime, by: Acting | None = None) -> None:
    conn.execute(insert(members).values(id=member_id, club_id=club_id, name=name,
                                        name_key=name_key, guest=guest, created_at=now))
    clublog.record(conn, club_id, clublog.MEMBER_ADDED,
                   clublog.member_payload(member_id, name, guest), by=by)


def rename_member(conn: Connection, club_id: str, member_id: str, *, name: str,
                  name_key: str, by: Acting | None = None) -> None:
    conn.execute(update(members).where(members.c.club_id == club_id, members.c.id == member_id)
                 .values(name=name, name_key=name_key))
    clublog.record(conn, club_id, clublog.MEMBER_RENAMED,
                   {"member_id": member_id, "name": name}, by=by)


def admit_guest(conn: Connection, club_id: str, member_id: str, *,
                by: Acting | None = None) -> None:
    """The guest becomes a member of the club."""
    conn.execute(update(members).where(members.c.club_id == club_id, members.c.id == member_id)
                 .values(guest=False))
    clublog.record(conn, club_id, clublog.GUEST_ADMITTED, {"member_id": member_id}, by=by)


def retire_member(conn: Connection, club_id: str, member_id: str, *, now: datetime,
                  by: Acting | None = None) -> None:
    conn.execute(update(members).where(members.c.club_id == club_id, members.c.id == member_id)
                 .values(retired_at=now))
    clublog.record(conn, club_id, clublog.MEMBER_RETIRED,
                   {"member_id": member_id, "retired_at": utc_iso(now)}, by=by)


def member_tokens(conn: Connection, club_id: str, member_id: str) -> list[str]:
    """The ids of the member's tokens that are not revoked."""
    return list(conn.scalars(select(tokens.c.id).where(
        tokens.c.club_id == club_id, tokens.c.member_id == member_id,
        tokens.c.revoked_at.is_(None)).order_by(tokens.c.created_at, tokens.c.id)))


def find_member(conn: Connection, club_id: str, *, member_id: str | None = None,
                name_key: str | None = None, lock: str | None = None) -> Any:
    """The club's member with this id or this casefolded name (another club's: None).
    `lock`: "update" (a change of the member: his retirement) or "share" (seating him),
    which wait for each other on PostgreSQL, so that a member is never seated at a table
    that opens while he is being retired (SQLite has one writer at a time)."""
    query = select(members).where(members.c.club_id == club_id)
    if member_id is not None:
        query = query.where(members.c.id == member_id)
    elif name_key is not None:
        query = query.where(members.c.name_key == name_key)
    else:
        return None
    if lock is not None:
        query = query.with_for_update(read=lock == "share")
    return conn.execute(query).first()


def list_members(conn: Connection, club_id: str) -> list[Row[Any]]:
    return list(conn.execute(select(members).where(members.c.club_id == club_id)
                             .order_by(members.c.name_key)))


def insert_token(conn: Connection, *, token_id: str, club_id: str, member_id: str, role: str,
                 label: str, secret_hash: str, now: datetime,
                 expires_at: datetime | None, by: Acting | None = None) -> None:
    """A new token; `by`, who asked for it (None: the operator at the command line), is kept
    on the token for the token register and in the club's log."""
    conn.execute(insert(tokens).values(
        id=token_id, club_id=club_id, member_id=member_id, role=role, label=label,
        secret_hash=secret_hash, created_at=now, expires_at=expires_at, revoked_at=None,
        issued_by=by.member_id if by is not None else None,
        issued_with=by.token_id if by is not None else None))
    clublog.record(conn, club_id, clublog.TOKEN_ISSUED, clublog.token_payload(
        token_id=token_id, member_id=member_id, role=role, label=label,
        secret_hash=secret_hash, created_at=now, expires_at=expires_at), by=by)


def issued_tokens(conn: Connection, club_id: str) -> list[Row[Any]]:
    """The club's tokens that a member issued, with who issued them and with what role."""
    issuer = members.alias("issuer")
    issuing = tokens.alias("issuing")
    return list(conn.execute(
        select(tokens.c.id, tokens.c.member_id, members.c.name.label("member_name"),
               tokens.c.role, tokens.c.label, tokens.c.created_at, tokens.c.revoked_at,
               tokens.c.issued_by, issuer.c.name.label("issuer_name"), tokens.c.issued_with,
               issuing.c.role.label("issuer_role"))
        .join(members, members.c.id == tokens.c.member_id)
        .join(issuer, issuer.c.id == tokens.c.issued_by)
        .outerjoin(issuing, issuing.c.id == tokens.c.issued_with)
        .where(tokens.c.club_id == club_id).order_by(tokens.c.created_at, tokens.c.id)))



_TOKEN_COLUMNS = (tokens.c.id, tokens.c.club_id, tokens.c.member_id, tokens.c.role,
                  tokens.c.label, tokens.c.created_at, tokens.c.expires_at,
                  tokens.c.revoked_at, members.c.name.label("member_name"))


def find_token(conn: Connection, token_id: str, *, club_id: str | None = None
               ) -> Any:
    """The token (without its hash), with its member's name; None if not in `club_id`."""
    query = select(*_TOKEN_COLUMNS).join(members, members.c.id == tokens.c.member_id) \
        .where(tokens.c.id == token_id)
    if club_id is not None:
        query = query.where(tokens.c.club_id == club_id)
    return conn.execute(query).first()


# Built once: every request runs it, and building a statement costs more CPU than running
# it (SQLAlchemy then finds its compiled form in the engine's cache by the statement's key).
_AUTHENTICATION = (
    select(*_TOKEN_COLUMNS, tokens.c.secret_hash, clubs.c.name.label("club_name"))
    .join(members, members.c.id == tokens.c.member_id)
    .join(clubs, clubs.c.id == tokens.c.club_id)
    .where(tokens.c.id == bindparam("token_id")))


def token_for_authentication(conn: Connection, token_id: str) -> Any:
    """Everything a request needs to know about its bearer: the token, its hash, its member
    and its club, in one query (read afresh each time: a revocation counts at once)."""
    return conn.execute(_AUTHENTICATION, {"token_id": token_id}).first()


def list_tokens(conn: Connection, club_id: str) -> list[Row[Any]]:
    return list(conn.execute(
        select(*_TOKEN_COLUMNS).join(members, members.c.id == tokens.c.member_id)
        .where(tokens.c.club_id == club_id).order_by(tokens.c.created_at, tokens.c.id)))


def revoke_token(conn: Connection, token_id: str, *, now: datetime,
                 by: Acting | None = None) -> None:
    """Revoke the token if it is not revoked yet (the first revocation's time stays)."""
    club_id = conn.execute(update(tokens).where(tokens.c.id == token_id,
                                                tokens.c.revoked_at.is_(None))
                           .values(revoked_at=now).returning(tokens.c.club_id)).scalar()
    if club_id is not None:
        clublog.record(conn, club_id, clublog.TOKEN_REVOKED,
                       {"token_id": token_id, "revoked_at": utc_iso(now)},
                       by=by)
