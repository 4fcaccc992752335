"""Failed exchanges of a code for a token (a tablet's pairing code, a person's sign-in link)
counted per client address over the last minute, in this process: past a limit, the address
is answered 429 until the minute is over (api/routes/tablets.py, api/routes/signin.py)."""

from __future__ import annotations

import threading
import time
from collections import deque

from flask import current_app

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
