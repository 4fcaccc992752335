"""The periods a treasurer closes: calendar months, in UTC (docs/books.md, "Closing a
period").

Pure Python. A period is named `YYYY-MM`; it runs from the first instant of its month to
the last (`end_of`, the last microsecond), and a read of the books as of its end is a read
as of that instant.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from .errors import InvalidInput


def check_period(value: Any, field: str = "period") -> str:
    """A month, YYYY-MM (2026-11), refused naming the field otherwise."""
    try:
        valid = isinstance(value, str) and len(value) == 7 \
            and date.fromisoformat(f"{value}-01").isoformat()[:7] == value
    except ValueError:
        valid = False
    if not valid:
        raise InvalidInput(f"a period is a month, YYYY-MM such as 2026-11; got {value!r}",
                           rule="period", field=field)
    return str(value)


def check_date(value: Any, field: str) -> date:
    """A calendar date, YYYY-MM-DD, refused naming the field otherwise."""
    try:
        found = date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 \
            else None
    except ValueError:
        found = None
    if found is None:
        raise InvalidInput(f"{field} must be a date, YYYY-MM-DD; got {value!r}",
                           rule="date", field=field)
    return found


def start_of(period: str) -> datetime:
    """The first instant of the period, in UTC."""
    year, month = (int(part) for part in check_period(period).split("-"))
    return datetime(year, month, 1, tzinfo=UTC)


def end_of(period: str) -> datetime:
    """The last instant (microsecond) of the period, in UTC: a read as of it is the
    period's end."""
    start = start_of(period)
    if (start.year, start.month) == (9999, 12):  # the last month a time can name
        return datetime.max.replace(tzinfo=UTC)
    following = datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=UTC)
    return following - timedelta(microseconds=1)


def period_of(moment: datetime | date) -> str:
    """The period a time (taken in UTC) or a date falls in."""
    if isinstance(moment, datetime):
        moment = moment.astimezone(UTC)
    return f"{moment.year:04d}-{moment.month:02d}"
