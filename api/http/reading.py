"""Reads of the books, the audit and the statement from the read replica, when there is one
(LOO_READ_DATABASE_URL; ledger/store/replica.py decides which database answers).

Read-your-writes: every write's answer (a 2xx to anything but GET, HEAD and OPTIONS) carries
the primary's WAL position after it, as the header `Loo-Position` and the cookie
`loo_position` (HttpOnly, lasting the bound and a few seconds: after the bound no standby
answer is older than the write anyway). A read that sends either back, the header or the
cookie, is answered by the standby only once it has replayed that position, else by the
primary. A read's answer says which answered it: `Loo-Read-From: standby` or `primary`.

A read the standby answers with a refusal (a version, a book position or a session it may
not hold yet) or a database error is asked again of the primary: the user sees the
primary's answer, never the standby's failure. Writes never touch the standby: only the GET
views of READ_BLUEPRINTS are routed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask import Flask, Response, g, request
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from api.http.extension import services
from ledger.domain import LedgerError
from ledger.operations.database import UNREACHED, Choice, ReadReplica, format_lsn, parse_lsn
from ledger.sessions.history import as_moment, as_version

READ_BLUEPRINTS = ("books", "audit", "statement")
POSITION_HEADER = "Loo-Position"
POSITION_COOKIE = "loo_position"
SERVED_BY_HEADER = "Loo-Read-From"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def read_engine() -> Engine | None:
    """The standby's engine in a routed read the standby may answer; None otherwise (the
    primary). Asked once the caller has been let in (the view's `requires` ran), so that a
    refused request costs the standby nothing; the choice holds for the whole request."""
    replica: ReadReplica | None = g.get("read_replica")
    if replica is None:
        return None
    choice: Choice | None = g.get("read_choice")
    if choice is None:
        choice = g.read_choice = replica.choose(after=_asked_position(),
                                                as_of_moment=_asked_moment())
    return choice.engine if choice.standby else None


def install(app: Flask) -> None:
    """Route the GET views of READ_BLUEPRINTS, and hand out positions after writes."""
    for endpoint, view in list(app.view_functions.items()):
        if endpoint.split(".", 1)[0] in READ_BLUEPRINTS:
            app.view_functions[endpoint] = _routed(view)

    @app.after_request
    def _position(response: Response) -> Response:
        replica = services().replica
        if replica is None:
            return response
        served_by = g.get("read_from")
        if served_by:
            response.headers[SERVED_BY_HEADER] = served_by
        if request.method not in SAFE_METHODS and 200 <= response.status_code < 300:
            position = format_lsn(replica.position())
            response.headers[POSITION_HEADER] = position
            response.set_cookie(POSITION_COOKIE, position, httponly=True, samesite="Strict",
                                secure=request.is_secure,
                                max_age=math.ceil(replica.max_lag_s) + 5)
        return response


def _routed(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def read(*args: Any, **kwargs: Any) -> Any:
        replica = services().replica
        if replica is None or request.method not in ("GET", "HEAD"):
            return view(*args, **kwargs)
        g.read_replica = replica
        try:
            answer = view(*args, **kwargs)
        except (DBAPIError, LedgerError) as error:
            choice = g.pop("read_choice", None)
            if choice is None or not choice.standby:
                if choice is not None:
                    _served("primary", choice.reason)
                raise
            if isinstance(error, DBAPIError):
                replica.failed(error)
                reason = "standby-failed"
            else:
                reason = "refused-on-standby"
        else:
            choice = g.pop("read_choice", None)
            if choice is not None:
                _served("standby" if choice.standby else "primary", choice.reason)
            return answer
        finally:
            g.pop("read_replica", None)
        _served("primary", reason)
        return view(*args, **kwargs)  # no replica in g: the primary answers

    return read


def _served(by: str, reason: str) -> None:
    from api.http import metrics

    g.read_from = by
    metrics.REPLICA_READS.labels(by, reason).inc()


def _asked_position() -> int | None:
    """The latest position the reader sent (header or cookie); UNREACHED for one that is
    not a WAL position."""
    sent = [value for value in (request.headers.get(POSITION_HEADER),
                                request.cookies.get(POSITION_COOKIE)) if value]
    if not sent:
        return None
    positions = [parse_lsn(value) for value in sent]
    return max(UNREACHED if p is None else p for p in positions)


def _asked_moment() -> datetime | None:
    """The time a read names with `as_of`, if it names one (a version or a book position
    needs no check: the standby refuses one it does not hold, and the primary is asked)."""
    as_of = request.args.get("as_of")
    if not as_of or as_version(as_of) is not None:
        return None
    try:
        return as_moment(as_of)
    except LedgerError:
        return None  # refused by the read itself
