"""Who is acting: the member behind the request's bearer token, from its device.

Every event records the member's display name (`actor`), the member id and the token id.
The `X-Actor` header of earlier versions is ignored: a client cannot name someone else.
"""

from __future__ import annotations

from ledger.clubs import Actor

from .auth import principal


def current_actor() -> Actor:
    """The actor of this request (a route behind api.auth.requires)."""
    return principal().actor
