"""The club log: who may act in a club, as a chained log; and the stored heads of its logs.

Every change of a club's members and tokens is recorded, in the transaction that makes it,
as an entry of the club's log (`record`): the club created, a member added (renamed, a guest
admitted, retired: ledger/clubs/membership.py), a token issued
(with its secret's SHA-256, never the secret) or revoked, a session from before clubs
attached. An upgrade starts the log of an existing club with one `ClubLogStarted` entry that
takes in its members, tokens and sessions as they were (migration 0011). Entries chain like
the book log's (ledger/store/chain.py, stream "club:<club id>"), and `check` replays them
against the `clubs`, `members` and `tokens` rows: a row added, changed or removed behind the
ledger's back (a forged admin token, a swapped secret hash, a role edited) no longer matches.

`log_heads` keeps the last seq and hash of each club's book log and club log, moved with
every append (`advance`): deleting the last entries of a log, or adding one with a correctly
computed hash, leaves the log and its stored head apart (`head_problems`). A rewrite of the
whole log with its head is caught by a signed checkpoint kept outside the database
(ledger/audit/checkpoints.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import ColumnElement, Connection, Row, and_, insert, select, update

from ledger.domain.access import TokenStatus

from .chain import GENESIS, first_broken_link, link, utc_iso
from .db import NotOneSnapshot, clock, in_snapshot
from .tables import club_log, clubs, idempotency_keys, log_heads, members, tokens

CLUB_CREATED = "ClubCreated"
LOG_STARTED = "ClubLogStarted"  # an existing club's log, started by the upgrade
MEMBER_ADDED = "MemberAdded"
MEMBER_RENAMED = "MemberRenamed"  # {member_id, name}: his display name from now on
GUEST_ADMITTED = "GuestAdmitted"  # {member_id}: a guest made a member of the club
MEMBER_RETIRED = "MemberRetired"  # {member_id, retired_at}: no longer seated nor given access
TOKEN_ISSUED = "TokenIssued"
TOKEN_REVOKED = "TokenRevoked"
SESSION_ATTACHED = "SessionAttached"
LATECOMERS_ATTACHED = "LatecomersAttached"  # an upgrade's: aftercomers' seats to members


class Acting(Protocol):
    """Who makes a change (ledger.clubs.service.Actor)."""

    @property
    def name(self) -> str: ...
    @property
    def member_id(self) -> str | None: ...
    @property
    def token_id(self) -> str | None: ...


class HeadMissing(RuntimeError):
    """A club's log has no stored head: it was removed behind the ledger's back, and the
    log is not appended to until an operator has looked (`lanterloo verify --all`)."""


def stream(club_id: str) -> str:
    return f"club:{club_id}"


def books_stream(club_id: str) -> str:
    return f"books:{club_id}"


# -- heads ---------------------------------------------------------------------------------

def start_heads(conn: Connection, club_id: str) -> None:
    """The empty heads of a new club's book log and club log."""
    conn.execute(insert(log_heads), [
        {"stream_id": s, "club_id": club_id, "seq": 0, "hash": GENESIS}
        for s in (books_stream(club_id), stream(club_id))])


def _head(stream_id: str) -> ColumnElement[bool]:
    """The row of the log's head, by its key: its club (the stream's name after the colon,
    "books:<club>", "club:<club>") and its stream."""
    return and_(log_heads.c.club_id == stream_id.partition(":")[2],
                log_heads.c.stream_id == stream_id)


def held_head(conn: Connection, stream_id: str) -> tuple[int, str]:
    """(seq, hash) of the log's stored head, its row locked for the transaction."""
    row = conn.execute(select(log_heads.c.seq, log_heads.c.hash)
                       .where(_head(stream_id)).with_for_update()).first()
    if row is None:
        raise HeadMissing(f"{stream_id}: the log has no stored head (log_heads); run "
                          "`lanterloo verify --all`")
    return int(row.seq), str(row.hash)


def advance(conn: Connection, stream_id: str, old_seq: int, seq: int, hash_: str) -> None:
    """Move the log's stored head from `old_seq` to (seq, hash_)."""
    moved = conn.execute(update(log_heads).where(_head(stream_id), log_heads.c.seq == old_seq)
                         .values(seq=seq, hash=hash_))
    if moved.rowcount != 1:
        raise HeadMissing(f"{stream_id}: the stored head is not at seq {old_seq}")


def head_problems(conn: Connection, stream_id: str, what: str, last_seq: int,
                  head: str) -> list[str]:
    """The log (its last seq, its head recomputed) against its stored head, read in the
    snapshot the log was read in (`Store.consistent`): else an append committed between the
    two reads would be reported as entries deleted."""
    if not in_snapshot(conn):
        raise NotOneSnapshot("a log and its stored head are compared in one snapshot "
                             "(Store.consistent)")
    row = conn.execute(select(log_heads.c.seq, log_heads.c.hash)
                       .where(_head(stream_id))).first()
    if row is None:
        return [f"{what}: no stored head (log_heads has no row {stream_id})"]
    if int(row.seq) != last_seq:
        return [f"{what}: the stored head is at seq {row.seq}, the log ends at seq {last_seq}: "
                "entries were deleted from its end, or added behind the ledger's back"]
    if row.hash != head:
        return [f"{what}: the stored head's hash {row.hash} is not the log's {head}"]
    return []


# -- the club log --------------------------------------------------------------------------

def hashed_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """An entry as the chain hashes it: the events' canonical fields."""
    return {"stream_id": stream(row["club_id"]), "version": row["seq"],
            "type": row["type"], "schema_version": row["schema_version"],
            "payload": row["payload"], "recorded_at": row["recorded_at"],
            "actor": row["actor"], "member_id": row["member_id"],
            "token_id": row["token_id"], "idempotency_key": row["idempotency_key"],
            "position": row.get("position"), "hash": row.get("hash")}


def record(conn: Connection, club_id: str, type_: str, payload: dict[str, Any], *,
           by: Acting | None) -> None:
    """Append an entry to the club's log, in the caller's transaction (the log's head is
    held until it ends: appends to one club's log are serialised), stamped by the
    database's clock once the head is held."""
    seq, prev = held_head(conn, stream(club_id))
    row: dict[str, Any] = {
        "club_id": club_id, "seq": seq + 1, "type": type_, "schema_version": 1,
        "payload": payload, "recorded_at": clock(conn),
        "actor": by.name if by is not None else "operator",
        "member_id": by.member_id if by is not None else None,
        "token_id": by.token_id if by is not None else None, "idempotency_key": None}
    row["hash"] = link(hashed_row(row), prev)
    conn.execute(insert(club_log), row)
    advance(conn, stream(club_id), seq, seq + 1, row["hash"])


def member_payload(member_id: str, name: str, guest: bool) -> dict[str, Any]:
    return {"member_id": member_id, "name": name, "guest": bool(guest)}


def member_state(member_id: str, name: str, guest: bool,
                 retired_at: str | None = None) -> dict[str, Any]:
    """A member as the log makes him and as `check` compares him with his row."""
    return {**member_payload(member_id, name, guest), "retired_at": retired_at}


def token_payload(*, token_id: str, member_id: str, role: str, label: str, secret_hash: str,
                  created_at: datetime, expires_at: datetime | None) -> dict[str, Any]:
    return {"token_id": token_id, "member_id": member_id, "role": role, "label": label,
            "secret_hash": secret_hash, "created_at": utc_iso(created_at),
            "expires_at": utc_iso(expires_at) if expires_at is not None else None}


def entries(conn: Connection, club_id: str) -> list[Row[Any]]:
    return list(conn.execute(select(club_log).where(club_log.c.club_id == club_id)
                             .order_by(club_log.c.seq)))


def adopted_sessions(conn: Connection) -> dict[str, str]:
    """{session id: club id} of the sessions each club's log took in at the upgrade."""
    out: dict[str, str] = {}
    for club_id, payload in conn.execute(select(club_log.c.club_id, club_log.c.payload)
                                         .where(club_log.c.type == LOG_STARTED)):
        for session_id in payload.get("sessions", []):
            out[session_id] = club_id
    return out


class Known:
    """The club as its log makes it: its name, members and tokens."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.members: dict[str, dict[str, Any]] = {}
        self.tokens: dict[str, dict[str, Any]] = {}

    def apply(self, type_: str, payload: Mapping[str, Any]) -> None:
        if type_ in (CLUB_CREATED, LOG_STARTED):
            self.name = payload["name"]
            for member in payload.get("members", []):
                self.apply(MEMBER_ADDED, member)
            for token in payload.get("tokens", []):
                self.apply(TOKEN_ISSUED, token)
        elif type_ == MEMBER_ADDED:
            self.members[payload["member_id"]] = member_state(
                payload["member_id"], payload["name"], payload["guest"],
                payload.get("retired_at"))
        elif type_ in (MEMBER_RENAMED, GUEST_ADMITTED, MEMBER_RETIRED):
            member = self.members.get(payload["member_id"])
            if member is not None:
                if type_ == MEMBER_RENAMED:
                    member["name"] = payload["name"]
                elif type_ == GUEST_ADMITTED:
                    member["guest"] = False
                else:
                    member["retired_at"] = payload["retired_at"]
        elif type_ == TOKEN_ISSUED:
            self.tokens[payload["token_id"]] = {
                **{k: payload[k] for k in ("token_id", "member_id", "role", "label",
                                           "secret_hash", "created_at", "expires_at")},
                "revoked_at": payload.get("revoked_at")}
        elif type_ == TOKEN_REVOKED:
            token = self.tokens.get(payload["token_id"])
            if token is not None:
                token["revoked_at"] = payload["revoked_at"]


def _iso(moment: datetime | None) -> str | None:
    return utc_iso(moment) if moment is not None else None


def check(conn: Connection, club_id: str) -> list[str]:
    """What is wrong with the club's log ([] when whole, at its stored head, and its
    replay equals the club's name, members and tokens as stored)."""
    rows = entries(conn, club_id)
    head, broken = first_broken_link(hashed_row(dict(r._mapping)) for r in rows)
    problems = [f"club log: {broken}"] if broken else []
    problems += head_problems(conn, stream(club_id), "club log",
                              int(rows[-1].seq) if rows else 0, head)
    if broken:
        return problems
    known = Known()
    for r in rows:
        known.apply(r.type, r.payload)
    name = conn.execute(select(clubs.c.name).where(clubs.c.id == club_id)).scalar_one()
    if known.name != name:
        problems.append(f"clubs.name: stored {name!r}, the club log's {known.name!r}")
    stored_members = {r.id: member_state(r.id, r.name, r.guest, _iso(r.retired_at))
                      for r in conn.execute(select(members).where(members.c.club_id == club_id))}
    stored_tokens = {r.id: {"token_id": r.id, "member_id": r.member_id, "role": r.role,
                            "label": r.label, "secret_hash": r.secret_hash,
                            "created_at": _iso(r.created_at),
                            "expires_at": _iso(r.expires_at),
                            "revoked_at": _iso(r.revoked_at)}
                     for r in conn.execute(select(tokens).where(tokens.c.club_id == club_id))}
    problems += _compare("members", stored_members, known.members)
    problems += _compare("tokens", stored_tokens, known.tokens)
    return problems + _token_answers(conn, club_id, rows, known)


def _same(answered: Any, logged: Any) -> bool:
    """Equal, times as the instants they name (an answer wrote them in the server's zone)."""
    if isinstance(answered, str) and isinstance(logged, str) and answered != logged:
        try:
            return datetime.fromisoformat(answered) == datetime.fromisoformat(logged)
        except ValueError:
            return False
    return bool(answered == logged)


def stored_answers(conn: Connection, scopes: Iterable[str]) -> list[tuple[str, str, Any]]:
    """The stored answers to Idempotency-Keys (scope, key, response) kept under `scopes`."""
    wanted = sorted(set(scopes))
    k = idempotency_keys.c
    return [(str(scope), str(key), body) for at in range(0, len(wanted), 500)
            for scope, key, body in conn.execute(select(k.scope, k.key, k.response)
                                                 .where(k.scope.in_(wanted[at:at + 500])))]


ISSUED = ("token_id", "member_id", "role", "label", "created_at", "expires_at")


def _token_answers(conn: Connection, club_id: str, rows: Sequence[Row[Any]], known: Known
                   ) -> list[str]:
    """The stored answers to tokens issued with an Idempotency-Key (ledger/clubs/tokens.py, kept
    under "tokens:<club>:<issuer>", without the secret) against the club log: each is the
    token its TokenIssued entry issued, active and unrevoked, held by the member named."""
    scopes = {f"tokens:{club_id}:{r.member_id or ''}"[:80] for r in rows
              if r.type == TOKEN_ISSUED}
    out = []
    for scope, key, body in stored_answers(conn, scopes):
        where = f"idempotency_keys.{scope}/{key}"
        token_id: Any = body.get("token_id") if isinstance(body, dict) else None
        issued = known.tokens.get(token_id)
        if issued is None:
            out.append(f"{where}: the stored answer names a token the club log never issued")
            continue
        holder = known.members.get(issued["member_id"], {}).get("name")
        wanted = {**{f: issued[f] for f in ISSUED}, "member": holder, "revoked_at": None,
                  "status": TokenStatus.ACTIVE}
        out += [f"{where}.{name}: answered {body.get(name)!r}, the club log's {value!r}"
                for name, value in wanted.items() if not _same(body.get(name), value)]
        if set(body) - set(wanted):
            out.append(f"{where}: answered {sorted(set(body) - set(wanted))}, which no "
                       "token has")
    return out


def _compare(table: str, stored: Mapping[str, Mapping[str, Any]],
             logged: Mapping[str, Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    for key in sorted(set(stored) | set(logged)):
        if key not in logged:
            out.append(f"{table}.{key}: stored, but the club log never added it (written "
                       "behind the ledger's back)")
        elif key not in stored:
            out.append(f"{table}.{key}: in the club log, but no longer stored")
        else:
            changed = [f for f in logged[key] if stored[key].get(f) != logged[key][f]]
            out += [f"{table}.{key}.{f}: stored {stored[key].get(f)!r}, the club log's "
                    f"{logged[key][f]!r}" for f in changed if f != "secret_hash"]
            if "secret_hash" in changed:
                out.append(f"{table}.{key}.secret_hash: not the hash the club log issued")
    return out


def club_ids(conn: Connection) -> Sequence[str]:
    return list(conn.scalars(select(clubs.c.id).order_by(clubs.c.id)))
