"""A token issued through the write protocol (ledger/writes.py): with an Idempotency-Key, a
retry is answered once and never makes a second live token.

The secret is shown once, in the first answer, and kept nowhere: the answer stored for the
key is the token's record without it. A retry with the same key and request is answered with
that record (`replayed`, no secret); if the first answer was lost, the token it made is
revoked and another issued. The same key with another request is refused
(IdempotencyKeyReused), as for every write.
"""

from __future__ import annotations

from typing import Any

from ledger.clubs.service import Clubs, NotFound
from ledger.domain import InvalidInput
from ledger.store.base import Head, Tx
from ledger.store.chain import GENESIS
from ledger.writes import AppendResult, WriteRequest, perform


def issue_token(clubs: Clubs, club_id: str, member: str, role: str, label: str, *,
                expires_in_days: int | None, request: WriteRequest) -> AppendResult:
    """A new token for the club's member (id or display name), its secret in "token"; a
    replay (same key, same request, same sender) is the first answer less the secret."""
    try:
        member_id = clubs.member(club_id, member, field="member_id")["member_id"]
    except NotFound:
        # a name in the body that names nobody is bad input, whatever the role: the token
        # would have no holder (and a member token no account to show)
        raise InvalidInput(f"no member {member} in the club", rule="member-exists",
                           field="member") from None
    # a key is its sender's own: the same key from another member issues another token
    scope = f"tokens:{club_id}:{request.actor.member_id or ''}"[:80]
    request = request.fingerprinted(scope, member_id, role, label, expires_in_days)
    secrets: list[str] = []

    def find(tx: Tx) -> Head:
        key = request.idempotency_key
        return Head(0, GENESIS, club_id=club_id,
                    reply=tx.stored_reply(scope, key, club_id) if key else None)

    def write(tx: Tx, head: Head) -> dict[str, Any]:
        clubs.store.tokens_changed(tx)
        token = clubs.create_token_in(tx.conn, club_id, member_id, role, label,
                                      expires_in_days, by=request.actor)
        secrets.append(token.pop("token"))
        return token  # kept for the key without the secret

    result = perform(clubs.store, request, scope=scope, find=find, write=write,
                     current_version=lambda: 0)
    if result.replayed:
        return result
    return AppendResult({**result.body, "token": secrets[0]})
