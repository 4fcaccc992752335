"""Clubs, their members and their bearer tokens: who may act, and as whom.

    clubs = Clubs(make_engine())
    club, admin, token = clubs.create_club("Thursday Loo")      # token["token"]: shown once
    principal = clubs.authenticate(token["token"])             # or None

A token reads `loo_<public id>_<secret>`: 16 hex digits that find the row, then 256 random
bits (secrets.token_urlsafe(32)). Only the SHA-256 of the secret is stored, compared with
hmac.compare_digest. A token belongs to one member of one club and carries one role; it may
expire and may be revoked, never deleted (events name the token that appended them).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

from sqlalchemy import Connection, Engine, func, select

from ledger.domain import InvalidInput, LedgerError
from ledger.domain.access import ROLES, Role, TokenStatus
from ledger.store import clublog, open_store
from ledger.store import clubstore as store
from ledger.store.tables import clubs as clubs_table

__all__ = ["Actor", "Principal", "Clubs", "ROLES", "Role", "TOKEN_PREFIX", "NotFound",
           "name_key", "check_current", "check_name", "member_dict",
           "resolve_players", "hash_secret", "create_short_lived_token"]

TOKEN_PREFIX = "loo_"
LEDGER_WRITERS = (Role.TREASURER, Role.DEALER)  # the roles that append to a session
MAX_NAME = 40  # a seat name (api/schemas/__init__.py PLAYER)
MAX_LABEL = 100
MAX_EXPIRY_DAYS = 3650
_TOKEN = re.compile(r"^loo_([0-9a-f]{16})_([A-Za-z0-9_-]{43,128})$")
_NAME = re.compile(r"^[^\s@](?:.*\S)?$")
# Compared against when the token id is unknown, so that a miss costs what a hit costs.
_DUMMY_HASH = hashlib.sha256(b"no such token").hexdigest()


class NotFound(LedgerError):
    """Not in this club: another club's row is answered exactly like a missing one."""

    code = "not-found"


@dataclass(frozen=True)
class Actor:
    """Who appends: recorded with every event (`actor` is the member's display name)."""

    name: str
    member_id: str | None = None
    token_id: str | None = None


@dataclass(frozen=True)
class Principal:
    """The bearer of a valid token: a member of one club, acting in one role from one device."""

    club_id: str
    club_name: str
    member_id: str
    member_name: str
    role: Role
    token_id: str
    token_label: str

    @property
    def actor(self) -> Actor:
        return Actor(self.member_name, self.member_id, self.token_id)


KNOWN_TOKENS = 4096  # token ids a process remembers (authenticate)
# How long a process trusts what it found of a token id before it looks again, seconds: the
# bound on a change made behind the service's back (an UPDATE of tokens in the database),
# which moves no token epoch. A change made through the service counts at once.
TOKEN_RECHECK_S = 30.0


@dataclass(frozen=True)
class _Known:
    """What authenticate found of a token id: its hash and principal, or for an id that is
    unknown, revoked or refused, the dummy hash and no principal."""

    secret_hash: str
    principal: Principal | None
    expires: datetime | None
    epoch: Any
    found_at: float  # time.monotonic()


def name_key(name: str) -> str:
    """What makes two display names the same within a club: case and width folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


RESERVED_NAMES = frozenset({"pool", "next_pool"})  # the pools' accounts


def check_name(name: Any, field: str = "name") -> str:
    """A display name a member can be seated under (the domain's player-name rule, at most
    MAX_NAME characters)."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.isprintable() \
            or not _NAME.match(name) or len(name_key(name)) > 64 \
            or name.lower() in RESERVED_NAMES:
        raise InvalidInput(f"{name!r} is not a usable name (1-{MAX_NAME} printable "
                           "characters, not starting with a space or '@', not ending with a "
                           "space, not 'pool' or 'next_pool')", rule="player-name", field=field)
    return name


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime | None) -> datetime | None:
    if moment is not None and moment.tzinfo is None:  # SQLite hands back naive UTC
        return moment.replace(tzinfo=UTC)
    return moment


def _iso(moment: datetime | None) -> str | None:
    moment = _utc(moment)
    return moment.isoformat() if moment is not None else None


def member_dict(row: Any) -> dict[str, Any]:
    return {"member_id": row.id, "name": row.name, "guest": bool(row.guest),
            "created_at": _iso(row.created_at), "retired_at": _iso(row.retired_at)}


def check_current(row: Any, field: str = "member") -> None:
    """A retired member is not seated, paired, nor given access (ledger/clubs/membership.py):
    his history is kept as it was."""
    if row.retired_at is not None:
        raise InvalidInput(f"{row.name} has retired from the club: he cannot be seated, "
                           "paired at a tablet or given access", rule="member-retired",
                           field=field)


def token_dict(row: Any, *, now: datetime | None = None) -> dict[str, Any]:
    """A token as it is listed: never its secret nor its hash."""
    now = now or _now()
    expires, revoked = _utc(row.expires_at), _utc(row.revoked_at)
    status = TokenStatus.REVOKED if revoked \
        else TokenStatus.EXPIRED if expires and expires <= now else TokenStatus.ACTIVE
    return {"token_id": row.id, "member_id": row.member_id, "member": row.member_name,
            "role": row.role, "label": row.label, "created_at": _iso(row.created_at),
            "expires_at": _iso(expires), "revoked_at": _iso(revoked), "status": status}


def resolve_players(conn: Connection, club_id: str, players: list[Any], guests: list[Any],
                    *, now: datetime, by: Actor | None = None, field: str | None = None,
                    retired_ok: bool = False) -> dict[str, tuple[str, str]]:
    """{the name as sent: (seat name, member id)} for each player of a new session, or for
    an aftercomer (`field`: the one field a refusal names, "player").

    A player is a member's id or display name (any case); a name listed in `guests` that is
    no member yet becomes a guest member now, in the caller's transaction. A retired member
    is refused, but where a session recorded before is attached (`retired_ok`).
    """
    hint = 'list them under "guests"' if field is None else 'send "guest": true'
    guest_keys = {name_key(g) for g in guests if isinstance(g, str)}
    resolved: dict[str, Any] = {}
    seated_keys: set[str] = set()
    for i, player in enumerate(players):
        if not isinstance(player, str):
            raise InvalidInput("players are members' names or ids", rule="players",
                               field=field or f"players.{i}")
        lock = None if retired_ok else "share"  # against a retirement (membership.py)
        row = store.find_member(conn, club_id, member_id=player, lock=lock) \
            or store.find_member(conn, club_id, name_key=name_key(player), lock=lock)
        if row is None and name_key(player) in guest_keys:
            check_name(player, field or "players")
            member_id = uuid4().hex
            store.insert_member(conn, member_id=member_id, club_id=club_id, name=player,
                                name_key=name_key(player), guest=True, now=now, by=by)
            row = store.find_member(conn, club_id, member_id=member_id)
        if row is None:
            raise InvalidInput(f"player {player!r} is not a member of the club; add them as a "
                               f"member or {hint}", rule="club-member",
                               field=field or f"players.{i}", player=player)
        if not retired_ok:
            check_current(row, field or f"players.{i}")
        resolved[player] = (row.name, row.id)
        seated_keys.add(name_key(player))
        seated_keys.add(row.name_key)
    for i, guest in enumerate(guests):
        if not isinstance(guest, str) or name_key(guest) not in seated_keys:
            raise InvalidInput(f"guest {guest!r} is not among the players", rule="club-member",
                               field=field or f"guests.{i}")
    return resolved


def create_short_lived_token(conn: Connection, club_id: str, member_id: str, role: str,
                             label: str, *, lifetime: timedelta,
                             now: datetime | None = None,
                             by: Actor | None = None) -> dict[str, Any]:
    """A token that expires after `lifetime` (hours, not days: a tablet paired for one
    evening, ledger/clubs/tablets.py), written in the caller's transaction; "token" holds the
    secret, returned here once. Otherwise a token like any other (revoked the same way)."""
    if role not in ROLES:
        raise InvalidInput(f"role must be one of {', '.join(ROLES)}", rule="role", field="role")
    if not isinstance(label, str) or not 1 <= len(label) <= MAX_LABEL or not label.isprintable():
        raise InvalidInput(f"label must be 1 to {MAX_LABEL} printable characters",
                           rule="token-label", field="label")
    if not timedelta(0) < lifetime <= timedelta(days=1):
        raise InvalidInput("a short-lived token lasts at most a day", rule="token-expiry",
                           field="lifetime")
    now = now or _now()
    token_id = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    store.insert_token(conn, token_id=token_id, club_id=club_id, member_id=member_id, role=role,
                       label=label, secret_hash=hash_secret(secret), now=now,
                       expires_at=now + lifetime, by=by)
    row = store.find_token(conn, token_id)
    return {**token_dict(row, now=now), "token": f"{TOKEN_PREFIX}{token_id}_{secret}"}


class Clubs:
    """Clubs, members and tokens over one database. The methods taking `club_id` see only
    that club: another club's member or token is NotFound, exactly like a missing one."""

    def __init__(self, engine: Engine, *, recheck_s: float = TOKEN_RECHECK_S):
        self.engine = engine
        self.store = open_store(engine)
        self.recheck_s = recheck_s  # how long a token id found is trusted (authenticate)
        self._known: dict[str, _Known] = {}  # token id -> what authenticate found

    # -- clubs ------------------------------------------------------------------------------

    def create_club(self, name: str, *, admin: str = "admin", label: str = "first admin token",
                    expires_in_days: int | None = None, by: Actor | None = None
                    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """A new club, its first member and that member's admin token (with its secret)."""
        check_name(name)
        check_name(admin, "admin")
        with self.store.transaction() as tx:
            self.store.tokens_changed(tx)
            conn = tx.conn
            if store.find_club(conn, name_key(name)) is not None:
                raise InvalidInput(f"a club named {name!r} exists already", rule="club-name",
                                   field="name")
            club_id = uuid4().hex
            store.insert_club(conn, club_id=club_id, name=name, name_key=name_key(name),
                              now=_now(), by=by)
            member = self._add_member(conn, club_id, admin, guest=False, by=by)
            token = self.create_token_in(conn, club_id, member["member_id"], Role.ADMIN, label,
                                       expires_in_days, by=by)
        return {"club_id": club_id, "name": name}, member, token

    def club(self, id_or_name: str) -> dict[str, Any]:
        with self.store.reading() as conn:
            row = store.find_club(conn, id_or_name) or store.find_club(conn,
                                                                       name_key(id_or_name))
        if row is None:
            raise NotFound(f"no club {id_or_name}", rule="club-exists", field="club")
        return {"club_id": row.id, "name": row.name}

    def club_ids(self) -> list[str]:
        """Every club's id, in order."""
        with self.store.reading() as conn:
            return list(clublog.club_ids(conn))

    def owns_sessions_before_clubs(self, club_id: str, named: str = "") -> bool:
        """Whether the club is plainly the owner of the sessions recorded before clubs: the
        club `named` (its id or name, LOO_ATTACH_CLUB), or with none named the database's only
        club."""
        t = clubs_table
        with self.store.reading() as conn:
            if named:
                count = conn.scalar(select(func.count()).select_from(t).where(
                    t.c.id == club_id, (t.c.id == named) | (t.c.name == named)))
            else:
                count = conn.scalar(select(func.count()).select_from(t))
        return count == 1

    # -- members ----------------------------------------------------------------------------

    def add_member(self, club_id: str, name: str, *, guest: bool = False,
                   by: Actor | None = None) -> dict[str, Any]:
        check_name(name)
        with self.store.transaction() as tx:
            self.store.tokens_changed(tx)
            conn = tx.conn
            return self._add_member(conn, club_id, name, guest=guest, by=by)

    def _add_member(self, conn: Connection, club_id: str, name: str, *,
                    guest: bool, by: Actor | None) -> dict[str, Any]:
        if store.find_member(conn, club_id, name_key=name_key(name)) is not None:
            raise InvalidInput(f"the club has a member named {name!r} already (names are "
                               "compared without regard to case)", rule="member-name-unique",
                               field="name")
        member_id = uuid4().hex
        store.insert_member(conn, member_id=member_id, club_id=club_id, name=name,
                            name_key=name_key(name), guest=guest, now=_now(), by=by)
        row = store.find_member(conn, club_id, member_id=member_id)
        return member_dict(row)

    def members(self, club_id: str, *, retired: bool = False) -> list[dict[str, Any]]:
        """The club's members and guests by name; the retired too with `retired`."""
        with self.store.reading() as conn:
            return [member_dict(r) for r in store.list_members(conn, club_id)
                    if retired or r.retired_at is None]

    def member(self, club_id: str, id_or_name: str, field: str = "member") -> dict[str, Any]:
        with self.store.reading() as conn:
            row = store.find_member(conn, club_id, member_id=id_or_name) \
                or store.find_member(conn, club_id, name_key=name_key(id_or_name))
        if row is None:
            raise NotFound(f"no member {id_or_name}", rule="member-exists", field=field)
        return member_dict(row)

    # -- tokens -----------------------------------------------------------------------------

    def create_token(self, club_id: str, member: str, role: str, label: str, *,
                     expires_in_days: int | None = None,
                     by: Actor | None = None) -> dict[str, Any]:
        """A new token for the club's member (id or name); "token" holds the secret, which
        is returned here once and stored nowhere."""
        member_id = self.member(club_id, member, field="member_id")["member_id"]
        with self.store.transaction() as tx:
            self.store.tokens_changed(tx)
            conn = tx.conn
            return self.create_token_in(conn, club_id, member_id, role, label, expires_in_days,
                                        by=by)

    def create_token_in(self, conn: Connection, club_id: str, member_id: str, role: str,
                        label: str, expires_in_days: int | None, *,
                        by: Actor | None) -> dict[str, Any]:
        """A new token written in the caller's transaction; `by`: who asked for it (kept
        for the token register and in the club's log), None at the command line."""
        if role not in ROLES:
            raise InvalidInput(f"role must be one of {', '.join(ROLES)}", rule="role",
                               field="role")
        if not isinstance(label, str) or not 1 <= len(label) <= MAX_LABEL \
                or not label.isprintable():
            raise InvalidInput(f"label must be 1 to {MAX_LABEL} printable characters",
                               rule="token-label", field="label")
        if expires_in_days is not None and (
                isinstance(expires_in_days, bool) or not isinstance(expires_in_days, int)
                or not 1 <= expires_in_days <= MAX_EXPIRY_DAYS):
            raise InvalidInput(f"expires_in_days must be from 1 to {MAX_EXPIRY_DAYS}",
                               rule="token-expiry", field="expires_in_days")
        holder = store.find_member(conn, club_id, member_id=member_id)
        if holder is not None:
            check_current(holder)
        now = _now()
        expires_at = now + timedelta(days=expires_in_days) if expires_in_days else None
        token_id = secrets.token_hex(8)
        secret = secrets.token_urlsafe(32)
        store.insert_token(conn, token_id=token_id, club_id=club_id, member_id=member_id,
                           role=role, label=label, secret_hash=hash_secret(secret), now=now,
                           expires_at=expires_at, by=by)
        row = store.find_token(conn, token_id)
        return {**token_dict(row, now=now), "token": f"{TOKEN_PREFIX}{token_id}_{secret}"}

    def token_register(self, club_id: str) -> list[dict[str, Any]]:
        """The tokens of the club a member issued that someone should review: one a member
        issued to himself, one an admin issued for a role that writes the ledger (treasurer,
        dealer), which the admin's own role cannot, and every member token (a link that
        shows one member's account to whoever holds it); each with why."""
        out = []
        with self.store.reading() as conn:
            for row in store.issued_tokens(conn, club_id):
                reasons = []
                if row.issued_by == row.member_id:
                    reasons.append("self-issued")
                if row.issuer_role == Role.ADMIN and row.role in LEDGER_WRITERS:
                    reasons.append("beyond-issuer-role")
                if row.role == Role.MEMBER:
                    reasons.append("member-link")
                if reasons:
                    out.append({
                        "token_id": row.id, "member_id": row.member_id,
                        "member": row.member_name, "role": row.role, "label": row.label,
                        "issued_at": _iso(row.created_at), "revoked_at": _iso(row.revoked_at),
                        "issued_by": row.issued_by, "issued_by_name": row.issuer_name,
                        "issued_with": row.issued_with, "issuer_role": row.issuer_role,
                        "reasons": reasons})
        return out

    def token(self, token_id: str, *, club_id: str) -> dict[str, Any]:
        """The club's token as it is listed (NotFound for another club's, as for none)."""
        with self.store.reading() as conn:
            row = store.find_token(conn, token_id, club_id=club_id)
        if row is None:
            raise NotFound(f"no token {token_id}", rule="token-exists", field="token_id")
        return token_dict(row)

    def tokens(self, club_id: str) -> list[dict[str, Any]]:
        now = _now()
        with self.store.reading() as conn:
            return [token_dict(r, now=now) for r in store.list_tokens(conn, club_id)]

    def revoke_token(self, token_id: str, *, club_id: str | None = None,
                     by: Actor | None = None) -> dict[str, Any]:
        """Revoke the token (of `club_id` only, when given); revoking twice is harmless."""
        with self.store.transaction() as tx:
            self.store.tokens_changed(tx)
            conn = tx.conn
            if store.find_token(conn, token_id, club_id=club_id) is None:
                raise NotFound(f"no token {token_id}", rule="token-exists", field="token_id")
            store.revoke_token(conn, token_id, now=_now(), by=by)
            return token_dict(store.find_token(conn, token_id))

    def authenticate(self, presented: str | None) -> Principal | None:
        """The principal behind a bearer token, or None: malformed, unknown, wrong secret,
        revoked or expired all read the same to the caller.

        What a token id was found to be (a token, or none that may sign in) is remembered
        with the store's token epoch, which moves on every host when any token, member or
        club changes through the service (a revocation included), and for at most
        `recheck_s` seconds (a change made in the database directly moves no epoch). While
        both hold, the id is known without a query; the secret is still compared and the
        expiry still checked. An unknown id costs what a known one costs: the same hash, one
        constant-time compare (against a dummy hash), the same query once, then none."""
        match = _TOKEN.match(presented or "")
        if match is None:
            return None
        token_id, secret = match.groups()
        hashed, now = hash_secret(secret), _now()
        epoch = self.store.token_epoch()
        known = self._known.get(token_id)
        if known is None or epoch is None or known.epoch != epoch \
                or time.monotonic() - known.found_at >= self.recheck_s:
            known = self._look_up(token_id, epoch, now)
        if not hmac.compare_digest(known.secret_hash, hashed) or known.principal is None \
                or (known.expires is not None and known.expires <= now):
            return None
        return known.principal

    def _look_up(self, token_id: str, epoch: Any, now: datetime) -> _Known:
        found_at = time.monotonic()
        with self.store.reading() as conn:  # one round trip, no BEGIN
            row = store.token_for_authentication(conn, token_id)
        expires = _utc(row.expires_at) if row is not None else None
        if row is None or row.revoked_at is not None \
                or (expires is not None and expires <= now):
            known = _Known(_DUMMY_HASH, None, None, epoch, found_at)
        else:
            known = _Known(row.secret_hash, Principal(
                club_id=row.club_id, club_name=row.club_name, member_id=row.member_id,
                member_name=row.member_name, role=Role(row.role), token_id=row.id,
                token_label=row.label), expires, epoch, found_at)
        if epoch is not None and self.recheck_s > 0:
            if len(self._known) >= KNOWN_TOKENS:
                self._known.clear()
            self._known[token_id] = known
        return known
