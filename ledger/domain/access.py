"""Who may act in a club, and the states of what lets them in: the words as types.

A role is carried by a token (ledger/clubs/service.py) and decides what its bearer may do (the
role table, api/http/auth.py); a token and a sign-in link are listed with their status.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """A token's role (migration 0013: the store's CHECK constraint holds these five)."""

    ADMIN = "admin"
    TREASURER = "treasurer"
    DEALER = "dealer"
    AUDITOR = "auditor"
    MEMBER = "member"  # one member's own account and statements, nothing else


ROLES: tuple[Role, ...] = tuple(Role)


class TokenStatus(StrEnum):
    """A token as its register lists it."""

    ACTIVE = "active"
    EXPIRED = "expired"
    REVOKED = "revoked"


class LinkStatus(StrEnum):
    """A sign-in link as its list shows it."""

    WAITING = "waiting"
    USED = "used"
    EXPIRED = "expired"
