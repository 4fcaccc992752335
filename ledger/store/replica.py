"""A read replica: a PostgreSQL hot standby that answers reads, never staler than a bound.

The standby answers a read only when it has replayed (pg_last_wal_replay_lsn) at least

- the primary's WAL position read at most `max_lag_s` ago (a probe of the primary's
  pg_current_wal_insert_lsn, made again when the newest is older than half the bound): every
  transaction committed before that probe is on the standby, so its answer is at most
  `max_lag_s` old;
- the position the reader names (`after`): the primary's WAL position after the reader's own
  write (api/http/reading.py hands it out with every write's answer), so a reader sees its
  own writes;
- for a read as of a time, a probe taken at or after that time (the primary's
  clock_timestamp() beside its position), so that a read as of a moment is never cut short.

Otherwise, and when the standby fails or is not a standby (promoted, or no recovery), the
read goes to the primary; a standby that failed is left alone for `retry_s`. The replay
position is read on a connection of its own before the read's own transaction begins, so
the read's snapshot is taken after it: at least as new.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from .db import env_number

log = logging.getLogger("lanterloo.replica")

ENV_READ_URL = "LOO_READ_DATABASE_URL"
ENV_MAX_LAG = "LOO_READ_MAX_LAG_MS"
ENV_RETRY = "LOO_READ_RETRY_S"
MAX_LAG_MS = 2000
# The greatest WAL position: no standby has replayed it, so a reader who names it reads from
# the primary.
UNREACHED = 2**64 - 1
RETRY_S = 10


def parse_lsn(value: str | None) -> int | None:
    """A WAL position as PostgreSQL writes it (`16/B374D848`) as a number; None when it is
    not one."""
    if not value:
        return None
    high, slash, low = value.strip().partition("/")
    if not slash or not 1 <= len(high) <= 8 or not 1 <= len(low) <= 8:
        return None
    try:
        return (int(high, 16) << 32) | int(low, 16)
    except ValueError:
        return None


def format_lsn(position: int) -> str:
    return f"{position >> 32:X}/{position & 0xFFFFFFFF:X}"


@dataclass(frozen=True)
class Probe:
    """The primary's WAL position at `at_s` (this process's monotonic clock, read before the
    question was sent) and the primary's own time then."""

    at_s: float
    lsn: int
    moment: datetime


@dataclass(frozen=True)
class Choice:
    """Where one read goes, and why (a reason of the metric and the log)."""

    engine: Engine
    standby: bool
    reason: str


class ReadReplica:
    """The primary and its hot standby, and the choice between them for one read."""

    def __init__(self, primary: Engine, standby: Engine, *, max_lag_s: float,
                 retry_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.primary = primary
        self.standby = standby
        _never_read_write(standby)
        self.max_lag_s = max_lag_s
        self.retry_s = retry_s
        self._clock = clock
        self._lock = threading.Lock()
        self._probes: deque[Probe] = deque()
        self._down_until = 0.0
        self.last_reason = "not-yet-asked"

    @classmethod
    def from_env(cls, primary: Engine, standby: Engine) -> ReadReplica:
        max_lag_ms = env_number(ENV_MAX_LAG, MAX_LAG_MS)
        return cls(primary, standby, max_lag_s=max_lag_ms / 1000,
                   retry_s=env_number(ENV_RETRY, RETRY_S))

    def position(self) -> int:
        """The primary's WAL position now: at or after every transaction committed before;
        UNREACHED when the primary cannot say (the reader's next reads then go to the
        primary until its position expires)."""
        try:
            with self.primary.connect() as conn:
                return int(parse_lsn(conn.execute(
                    text("SELECT pg_current_wal_insert_lsn()::text")).scalar_one()) or UNREACHED)
        except DBAPIError:
            return UNREACHED

    def choose(self, *, after: int | None = None,
               as_of_moment: datetime | None = None) -> Choice:
        """The standby when it has replayed what the read must see, else the primary."""
        if self._clock() < self._down_until:
            return self._primary("standby-down")
        try:
            probes = self._probes_within_bound()
        except DBAPIError:
            return self._primary("primary-unreachable")
        try:
            with self.standby.connect() as conn:
                row = conn.execute(text("SELECT pg_last_wal_replay_lsn()::text, "
                                        "pg_is_in_recovery()")).one()
        except DBAPIError as error:
            self.failed(error)
            return self._primary("standby-unreachable")
        replayed = parse_lsn(row[0])
        if replayed is None or not row[1]:  # a primary, or a standby since promoted
            return self._primary("not-a-standby")
        reached = [probe for probe in probes if probe.lsn <= replayed]
        if not reached:
            return self._primary("standby-lagging")
        self.last_reason = "standby"  # within its bound: what this read asks is its own
        if after is not None and after > replayed:
            return Choice(self.primary, False, "before-your-write")
        if as_of_moment is not None and reached[-1].moment < as_of_moment:
            return Choice(self.primary, False, "as-of-after-replay")
        return Choice(self.standby, True, "standby")

    def failed(self, error: BaseException) -> None:
        """The standby failed a read: leave it alone for `retry_s`."""
        log.warning("read replica failed (%s: %s): reads go to the primary for %s s",
                    type(error).__name__, str(getattr(error, "orig", error)).strip(),
                    self.retry_s)
        self._down_until = self._clock() + self.retry_s
        self.last_reason = "standby-down"

    def status(self) -> str:
        """`ok` when the last read could go to the standby, else `fallback: <why>`; a read's
        check is made first when the last one is older than the bound (/readyz)."""
        with self._lock:
            stale = not self._probes or self._clock() - self._probes[-1].at_s > self.max_lag_s
        reason = self.choose().reason if stale else self.last_reason
        return "ok" if reason == "standby" else f"fallback: {reason}"

    def _primary(self, reason: str) -> Choice:
        self.last_reason = reason
        return Choice(self.primary, False, reason)

    def _probes_within_bound(self) -> list[Probe]:
        """The probes of the primary at most `max_lag_s` old, oldest first; a new one first
        when the newest is older than half the bound."""
        now = self._clock()
        with self._lock:
            while self._probes and now - self._probes[0].at_s > self.max_lag_s:
                self._probes.popleft()
            fresh = bool(self._probes) and now - self._probes[-1].at_s <= self.max_lag_s / 2
            if fresh:
                return list(self._probes)
        at_s = self._clock()
        with self.primary.connect() as conn:
            row = conn.execute(text(
                "SELECT pg_current_wal_insert_lsn()::text, clock_timestamp()")).one()
        probe = Probe(at_s, int(parse_lsn(row[0]) or 0), row[1])
        with self._lock:
            if not self._probes or self._probes[-1].at_s < at_s:
                self._probes.append(probe)
            return list(self._probes)


def _never_read_write(engine: Engine) -> None:
    """A standby refuses `BEGIN READ WRITE`, which psycopg sends once SQLAlchemy has reset the
    read-only flag of a connection a read set (`Store.consistent`): reset it to the server's
    default (None) instead, which on a standby is read-only."""
    dialect: Any = engine.dialect
    set_readonly = dialect.set_readonly

    def only_read_only(dbapi_connection: Any, value: bool) -> None:
        if value:
            set_readonly(dbapi_connection, value)
        else:
            dbapi_connection.read_only = None

    dialect.set_readonly = only_read_only
