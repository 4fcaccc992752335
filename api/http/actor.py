"""Who is acting: the member behind the request's bearer token, from its device.

Every event records the member's display name (`actor`), the member id and the token id.
The `X-Actor` header of earlier versions is ignored: a client cannot name someone else.
"""

from __future__ import annotations

from api.http.auth import principal
from ledger.clubs.service import Actor


def current_actor() -> Actor:
    """The actor of this request (a route behind api.http.auth.requires)."""
    return principal().actor
