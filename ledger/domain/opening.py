"""A club's opening balances, read from a CSV file (docs/books.md, "Opening balances").

Pure Python. The file's first line names its columns, `member,amount,currency,as_of,note`
(`note` may be left out); each line after it is one member's balance in one currency as the
club's paper book had it on `as_of`: `amount` in money (12.50, not 1250), positive when the
club owed him, negative when he owed the club. Every line is checked and every bad line is
named with its reason; the service records all of them or none.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .bookentries import MAX_AMOUNT_MINOR, check_text
from .currencies import check_iso, decimals
from .errors import InvalidInput, LedgerError
from .periods import check_date

COLUMNS = ("member", "amount", "currency", "as_of", "note")
REQUIRED = COLUMNS[:4]
MAX_LINES = 5000  # a club's members, many times over
MAX_BYTES = 1_000_000
_MONEY = re.compile(r"^[+-]?[0-9]{1,15}(\.[0-9]{1,4})?$")


@dataclass(frozen=True)
class OpeningLine:
    """A good line of the file: `line` its number in the file (the header is line 1)."""

    line: int
    member: str
    amount_minor: int
    currency: str
    as_of: str
    note: str | None


@dataclass
class Parsed:
    lines: list[OpeningLine] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)

    def refuse(self, line: int, error: LedgerError) -> None:
        self.problems.append({"line": line, "field": error.field, "rule": error.rule,
                              "detail": error.message})


def file_refused(message: str, rule: str) -> InvalidInput:
    return InvalidInput(message, rule=rule, field="file")


def parse(content: bytes) -> Parsed:
    """The file's good lines and its refused ones (each with its line, field, rule and
    reason); a file that cannot be read as such a table is refused whole."""
    if len(content) > MAX_BYTES:
        raise file_refused(f"the file is over {MAX_BYTES} bytes", "file-size")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise file_refused("the file must be UTF-8 text", "csv-encoding") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as error:
        raise file_refused(f"the file is not CSV: {error}", "csv") from None
    header = [cell.strip().lower() for cell in rows[0][1]] if rows else []
    if tuple(header) not in (COLUMNS, REQUIRED):
        raise file_refused(f"the first line must name the columns {','.join(COLUMNS)} "
                           f"(note may be left out); got {','.join(header) or 'nothing'}",
                           "csv-columns")
    data = [(n, row) for n, row in rows[1:] if any(cell.strip() for cell in row)]
    if not data:
        raise file_refused("the file has no balances after its first line",
                           "opening-balances-empty")
    if len(data) > MAX_LINES:
        raise file_refused(f"the file has {len(data)} lines: at most {MAX_LINES}",
                           "opening-balances-size")
    out = Parsed()
    for n, row in data:
        if len(row) != len(header):
            out.refuse(n, InvalidInput(f"the line has {len(row)} cells, not {len(header)}",
                                       rule="csv-columns", field="line"))
            continue
        try:
            out.lines.append(_line(n, dict(zip(header, (c.strip() for c in row),
                                               strict=True))))
        except LedgerError as error:
            out.refuse(n, error)
    return out


def _line(n: int, cells: dict[str, str]) -> OpeningLine:
    member = cells["member"]
    if not member:
        raise InvalidInput("member must name a member of the club (his name or id)",
                           rule="member-required", field="member")
    currency = check_iso(cells["currency"])
    amount = to_minor(cells["amount"], currency)
    as_of = check_date(cells["as_of"], "as_of").isoformat()
    note = check_text(cells.get("note") or None, "note", required=False)
    return OpeningLine(n, member, amount, currency, as_of, note)


def to_minor(value: str, currency: str, field: str = "amount") -> int:
    """Money as written (-12.50) in the currency's minor units (-1250): non-zero, with no
    more decimals than the currency has."""
    if not _MONEY.match(value):
        raise InvalidInput(f"{field} must be an amount of money such as 12.50 or -3; got "
                           f"{value!r}", rule="amount", field=field)
    places = decimals(currency)
    minor = Decimal(value).scaleb(places)
    if minor != minor.to_integral_value():
        raise InvalidInput(f"{currency} has {places} decimal places: {value} has more",
                           rule="amount-decimals", field=field)
    if not minor:
        raise InvalidInput("a balance of zero is no balance: leave the line out",
                           rule="amount-non-zero", field=field)
    if abs(minor) > MAX_AMOUNT_MINOR:
        raise InvalidInput(f"{field} is beyond {MAX_AMOUNT_MINOR} minor units",
                           rule="amount-limit", field=field)
    return int(minor)
