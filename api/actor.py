"""Who is acting: the one hook that roles and tokens will replace.

For now the actor is whatever the `X-Actor` header says (a dealer's or treasurer's name), or
the configured default. Every event records it.
"""

from __future__ import annotations

from flask import current_app, request

from .errors import ApiProblem

ACTOR_HEADER = "X-Actor"
MAX_ACTOR_LENGTH = 100


def current_actor() -> str:
    """The actor of this request, or a 400 problem if the header is unusable."""
    raw = request.headers.get(ACTOR_HEADER)
    if raw is None:
        return str(current_app.config["DEFAULT_ACTOR"])
    actor = raw.strip()
    if not actor or len(actor) > MAX_ACTOR_LENGTH or not actor.isprintable():
        raise ApiProblem(400, "malformed-request",
                         f"{ACTOR_HEADER} must be 1 to {MAX_ACTOR_LENGTH} printable characters",
                         rule="actor", field=ACTOR_HEADER)
    return actor
