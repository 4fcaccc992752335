"""A code exchanged once for a token: the one mechanism behind a tablet's pairing code
(ledger/clubs/tablets.py) and a person's sign-in link (ledger/clubs/signin.py).

A code is symbols of an alphabet with no 0/O or 1/I. Only its SHA-256 is stored
(`pairing_codes`), with the member and role of the token it gives, the session it is for (a
pairing code) or none (a sign-in link), and when it expires. Its first LOOKUP symbols find its
row, so a wrong guess at the rest counts against that code, which dies after MAX_FAILED. It is
used once: the token it gave is kept beside it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from sqlalchemy import Connection

from ledger.domain import InvalidInput
from ledger.store import tabletstore as store

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # 32 symbols: no 0, 1, I, O
LOOKUP = 3
MAX_FAILED = 5


def digest(code: str) -> str:
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def normalise(raw: object, length: int, message: str, *, rule: str,
              field: str = "code") -> str:
    """The code as stored: capitals, without the spaces or dashes it was shown or typed with;
    InvalidInput(`message`) when it cannot be one of `length` symbols."""
    if not isinstance(raw, str):
        raise InvalidInput(message, rule=rule, field=field)
    code = "".join(ch for ch in raw.upper() if ch not in " -")
    if len(code) != length or any(ch not in ALPHABET for ch in code):
        raise InvalidInput(message, rule=rule, field=field)
    return code


def live(conn: Connection, lookup: str | None, now: datetime) -> list[Any]:
    """The codes that can still be used (of `lookup`, or all)."""
    rows = store.unused_codes(conn, now) if lookup is None \
        else store.codes_by_lookup(conn, lookup)
    return [r for r in rows if r.used_at is None and utc(r.expires_at) > now
            and r.failed_attempts < MAX_FAILED]


def make(conn: Connection, *, length: int, club_id: str, member_id: str, role: str,
         created_by: str, expires_at: datetime, now: datetime, session_id: str | None = None,
         created_with: str | None = None, label: str = "") -> tuple[str, str]:
    """A new code, written in the caller's transaction: (its row's id, the code itself,
    shown this once). Its lookup differs from every live code's."""
    taken = {r.lookup for r in live(conn, None, now)}
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(length))
        if code[:LOOKUP] not in taken:
            break
    code_id = uuid4().hex
    store.insert_code(conn, id=code_id, lookup=code[:LOOKUP], code_hash=digest(code),
                      club_id=club_id, session_id=session_id, member_id=member_id, role=role,
                      created_by=created_by, created_with=created_with, label=label,
                      created_at=now,
                      expires_at=expires_at, failed_attempts=0, used_at=None, token_id=None)
    return code_id, code


def spend(conn: Connection, code: str, now: datetime, *, for_session: bool,
          issue: Callable[[Any], dict[str, Any]],
          refused: Exception) -> tuple[Any, dict[str, Any]] | None:
    """Exchange `code` (normalised) in the caller's transaction: (its row, the token
    `issue(row)` made), the code marked used; None when no live code of its kind
    (`for_session`: a pairing code, else a sign-in link) matches, the wrong guess counted
    against the codes of its lookup (the caller commits them, then refuses). A code used by a
    concurrent request meanwhile raises `refused`: the transaction rolls back the token."""
    candidates = live(conn, code[:LOOKUP], now)
    wanted = digest(code)
    match = next((r for r in candidates if hmac.compare_digest(r.code_hash, wanted)
                  and (r.session_id is not None) == for_session), None)
    if match is None:
        for r in candidates:  # a wrong guess at this code's secret part, counted
            store.count_failure(conn, r.id)
        return None
    token = issue(match)
    if not store.mark_used(conn, match.id, now=now, token_id=token["token_id"]):
        raise refused
    return match, token
