"""Failed exchanges of a code for a token (a tablet's pairing code, a person's sign-in link)
counted per client address over the last minute, in this process: past a limit, the address
is answered 429 until the minute is over (api/routes/tablets.py, api/routes/signin.py)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from flask import current_app, request

from api.http.errors import ApiProblem
from ledger.domain import LedgerError

EXTENSION = "lanterloo_exchanges"
WINDOW_SECONDS = 60.0


class FailedExchanges:
    """Failed exchanges per client address over the last minute, in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[str, deque[float]] = {}

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self._seen.setdefault(address, deque())
        while times and times[0] <= now - WINDOW_SECONDS:
            times.popleft()
        return times

    def retry_after(self, address: str, limit: int) -> int | None:
        """Seconds until `address` may try again, or None if it may now."""
        now = time.monotonic()
        with self._lock:
            times = self._recent(address, now)
            if len(times) < limit:
                return None
            return max(1, int(times[0] + WINDOW_SECONDS - now + 0.999))

    def failed(self, address: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._recent(address, now).append(now)
            if len(self._seen) > 10_000:  # forget quiet addresses
                for quiet in [a for a, t in self._seen.items() if not t]:
                    del self._seen[quiet]


def failures(kind: str) -> FailedExchanges:
    """This app's failed exchanges of `kind` ("pairing", "signin")."""
    extension = current_app.extensions.setdefault(EXTENSION, {})
    found = extension.get(kind)
    if found is None:
        found = extension[kind] = FailedExchanges()
    return found


def exchange_limited(kind: str, what: str, exchange: Callable[[], dict[str, Any]]
                     ) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer of `exchange` (a code of `kind` exchanged for a token): 201, never cached;
    an address past PAIRING_FAILURES_PER_MINUTE failed exchanges in the last minute gets a
    429 naming `what` ("pairing codes", "sign-in links") instead, and a refused exchange
    counts against it."""
    address = request.remote_addr or "unknown"
    limit = int(current_app.config.get("PAIRING_FAILURES_PER_MINUTE", 10))
    wait = failures(kind).retry_after(address, limit)
    if wait is not None:
        raise ApiProblem(429, "too-many-attempts",
                         f"too many wrong {what} from this address: try again in {wait} s",
                         rule=f"{kind}-attempts", headers={"Retry-After": str(wait)})
    try:
        answer = exchange()
    except LedgerError:
        failures(kind).failed(address)
        raise
    return answer, 201, {"Cache-Control": "no-store"}
