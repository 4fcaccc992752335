"""Where a read goes (ledger/store/replica.py), against stand-ins for the primary and the
standby that answer the two questions the choice asks: the primary's WAL position and time,
the standby's replay position. tests/faults/test_read_replica.py runs it on real servers."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy.exc import OperationalError

from ledger.store.replica import ReadReplica, format_lsn, parse_lsn

NOON = datetime(2026, 11, 29, 12, tzinfo=UTC)


class Server:
    """A stand-in engine: `lsn` is the primary's insert position or the standby's replay."""

    def __init__(self, lsn: int, *, recovering: bool = True) -> None:
        self.lsn = lsn
        self.recovering = recovering
        self.moment = NOON
        self.down = False
        self.dialect = SimpleNamespace(set_readonly=lambda conn, value: None)

    @contextmanager
    def connect(self) -> Any:
        if self.down:
            raise OperationalError("connect", {}, Exception("connection refused"))
        yield self

    def execute(self, statement: Any) -> Any:
        sql = str(statement)
        if "replay" in sql:
            row = (format_lsn(self.lsn), self.recovering)
        elif "clock_timestamp" in sql:
            row = (format_lsn(self.lsn), self.moment)
        else:
            row = (format_lsn(self.lsn),)
        return SimpleNamespace(one=lambda: row, scalar_one=lambda: row[0])


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def replica(primary_lsn: int = 1000, replayed: int = 1000) -> tuple[ReadReplica, Server,
                                                                    Server, Clock]:
    primary, standby, clock = Server(primary_lsn), Server(replayed), Clock()
    made = ReadReplica(primary, standby, max_lag_s=2.0, retry_s=10.0,  # type: ignore[arg-type]
                       clock=clock)
    return made, primary, standby, clock


def test_positions_read_as_postgresql_writes_them():
    assert parse_lsn("16/B374D848") == (0x16 << 32) | 0xB374D848
    assert format_lsn(parse_lsn("16/B374D848") or 0) == "16/B374D848"
    for garbage in ("", "16", "x/1", "1/2/3", "123456789/0", None):
        assert parse_lsn(garbage) is None


def test_a_standby_that_has_replayed_the_primarys_position_answers():
    made, *_ = replica()
    assert made.choose().standby


def test_a_standby_behind_the_probe_of_the_bound_does_not():
    made, primary, standby, clock = replica(primary_lsn=1000, replayed=900)
    assert made.choose().reason == "standby-lagging"
    standby.lsn = 1000
    assert made.choose().standby
    # the primary moves on; the probe of 1000 is still within the bound, then it is not
    primary.lsn = 2000
    clock.now += 1.5
    assert made.choose().standby
    clock.now += 1.0
    assert made.choose().reason == "standby-lagging"
    standby.lsn = 2000
    assert made.choose().standby


def test_a_reader_who_names_a_later_position_reads_from_the_primary():
    made, *_ = replica()
    assert made.choose(after=1001).reason == "before-your-write"
    assert made.status() == "ok"  # the standby is within its bound: the reader is ahead
    assert made.choose(after=1000).standby


def test_a_read_as_of_a_time_after_the_replayed_probe_reads_from_the_primary():
    made, *_ = replica()
    assert made.choose(as_of_moment=NOON - timedelta(seconds=1)).standby
    assert made.choose(as_of_moment=NOON + timedelta(seconds=1)).reason == \
        "as-of-after-replay"


def test_a_standby_down_is_left_alone_for_the_retry_time():
    made, _, standby, clock = replica()
    standby.down = True
    assert made.choose().reason == "standby-unreachable"
    standby.down = False
    assert made.choose().reason == "standby-down"
    assert made.status() == "fallback: standby-down"
    clock.now += 10.5
    assert made.choose().standby
    assert made.status() == "ok"


def test_a_server_out_of_recovery_is_no_standby():
    made, _, standby, _ = replica()
    standby.recovering = False
    assert made.choose().reason == "not-a-standby"


def test_a_primary_that_cannot_say_its_position_sends_reads_to_itself():
    made, primary, _, _ = replica()
    primary.down = True
    assert made.choose().reason == "primary-unreachable"
    assert made.position() == 2**64 - 1
