"""A month of the club's books played in the past: the ledger's clock set back, each write a
second after the one before (tests of closing a period and of the Beancount export)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

import ledger.books.service
import ledger.sessions.service
import ledger.store.base
import ledger.store.clublog
import ledger.store.postgres


def past_month(months: int = 2) -> str:
    """The month (YYYY-MM) `months` before this one: ended, whatever the day."""
    today = date.today()
    index = today.year * 12 + today.month - 1 - months
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


@contextmanager
def played_in(monkeypatch: pytest.MonkeyPatch, month: str, day: int = 10) -> Iterator[Any]:
    """The sessions and book entries written inside the block are recorded on `day` of
    `month`, from 20:00 UTC, a second apart."""
    at = [datetime.fromisoformat(f"{month}-{day:02d}T20:00:00+00:00")]

    class Then(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
            at[0] += timedelta(seconds=1)
            return at[0] if tz is None or tz is UTC else at[0].astimezone(tz)

    def tick(*_: Any) -> datetime:
        return Then.now(UTC)

    session_head = ledger.store.postgres.PostgresTx.session_head

    def head_then(self: Any, *args: Any, **kwargs: Any) -> Any:
        head = session_head(self, *args, **kwargs)  # its clock read with the head: then's
        return head if head is None else dataclasses.replace(head, now=tick())

    with monkeypatch.context() as patch:
        for module in (ledger.sessions.service, ledger.books.service):
            patch.setattr(module, "datetime", Then)
        # the database's clock, which stamps every entry (ledger/store/db.py `clock`)
        patch.setattr(ledger.store.base.Tx, "now", tick)
        patch.setattr(ledger.store.postgres.PostgresTx, "now", tick)
        patch.setattr(ledger.store.postgres.PostgresTx, "session_head", head_then)
        patch.setattr(ledger.store.clublog, "clock", tick)
        yield at
