"""The entries of a club's book log: payments, write-offs, cash counts, floats and cash
differences (of a session's tin or an evening's), sessions joining an evening, reversals and
the currencies the club keeps (docs/books.md).

Pure Python. Each entry is a frozen fact; its postings (`postings()`) go from an account to an
account and sum to zero in each currency, asserted where they are made (`check_balanced`). A
mistaken entry is never edited: an `EntryReversed` cancels it, posting its postings back.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import date
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from .currencies import UNITS, check_iso
from .errors import InvalidInput, InvariantBroken
from .periods import check_date, check_period

CLUB = "club"
CLUB_CASH = "club:cash"
CLUB_BANK = "club:bank"
CLUB_WRITTEN_OFF = "club:written-off"
CLUB_OVER_SHORT = "club:cash-over-short"  # the tins' shortages and surpluses the club bore
CLUB_OPENING = "club:opening-balances"  # the balances brought in from the club's paper book
MAX_AMOUNT_MINOR = 10**12  # a billion pounds in pence: beyond any club's night
MAX_TEXT = 500
_CURRENCY = re.compile(r"^[A-Z]{3}$")  # the shape of a code; the club's list decides


class PaymentMethod(StrEnum):
    CASH = "cash"
    TRANSFER = "transfer"
    OTHER = "other"


def member_account(member_id: str) -> str:
    return f"member:{member_id}"


def session_account(session_id: str) -> str:
    return f"session:{session_id}"


class BookPosting(NamedTuple):
    """A signed amount on one account, in one currency (a tuple: a club's books make
    thousands of them per read)."""

    account: str
    currency: str
    amount: int


def check_balanced(postings: Sequence[BookPosting]) -> None:
    """Double entry: the postings of one entry sum to zero in each currency."""
    sums: dict[str, int] = defaultdict(int)
    for p in postings:
        sums[p.currency] += p.amount
    if any(sums.values()):
        raise InvariantBroken(f"book postings do not balance: {dict(sums)}")


# -- checks that name the field and the rule ------------------------------------------------

def check_currency(value: Any, field: str = "currency") -> str:
    if not isinstance(value, str) or not (value == UNITS or _CURRENCY.match(value)):
        raise InvalidInput(f"currency must be a three-letter ISO 4217 code such as GBP, or "
                           f"{UNITS!r} for counters; got {value!r}", rule="currency",
                           field=field)
    return value


def check_amount(value: Any, field: str, *, zero: bool = False) -> int:
    least = 0 if zero else 1
    if isinstance(value, bool) or not isinstance(value, int) \
            or not least <= value <= MAX_AMOUNT_MINOR:
        raise InvalidInput(f"{field} must be a whole number of minor units from {least} to "
                           f"{MAX_AMOUNT_MINOR}; got {value!r}",
                           rule="amount-non-negative" if zero else "amount-positive",
                           field=field)
    return value


def check_text(value: Any, field: str, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT \
            or not value.isprintable():
        rule = f"{field}-required" if required else "text"
        raise InvalidInput(f"{field} must be 1 to {MAX_TEXT} printable characters"
                           + (" (it is required)" if required else ""), rule=rule, field=field)
    return value


def check_evening(value: Any, field: str = "evening") -> str:
    """An evening is named by its calendar date, YYYY-MM-DD (the treasurer's date of the
    night, whatever the clock said when play ran past midnight)."""
    try:
        valid = isinstance(value, str) and len(value) == 10 \
            and date.fromisoformat(value).isoformat() == value
    except ValueError:
        valid = False
    if not valid:
        raise InvalidInput(f"an evening is named by its date, YYYY-MM-DD; got {value!r}",
                           rule="evening", field=field)
    return str(value)


def check_tin(session_id: str | None, evening: str | None) -> None:
    """A tin is one session's or one evening's, never both nor neither."""
    if (session_id is None) == (evening is None):
        raise InvariantBroken("a tin entry names a session or an evening, not "
                              f"{session_id!r} and {evening!r}")
    if evening is not None:
        check_evening(evening)


# -- the entries of the book log --------------------------------------------------------------

@dataclass(frozen=True)
class BookEntry:
    type: ClassVar[str]
    schema_version: ClassVar[int] = 1

    def postings(self) -> list[BookPosting]:
        return []

    def to_payload(self) -> dict[str, Any]:
        """The payload stored in the book log: the fields as plain JSON values."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "evening" and value is None:
                continue  # a session's tin: its entries keep the shape they always had
            out[f.name] = str(value) if isinstance(value, StrEnum) else value
        return out


@dataclass(frozen=True)
class PaymentRecorded(BookEntry):
    """`payer` paid `payee` (each a member id or "club") `amount_minor` of `currency`."""

    type: ClassVar[str] = "PaymentRecorded"
    payer: str
    payee: str
    amount_minor: int
    currency: str
    method: PaymentMethod
    session_id: str | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        check_amount(self.amount_minor, "amount_minor")
        check_currency(self.currency)
        if self.method not in tuple(PaymentMethod):
            raise InvalidInput(f"method must be one of {', '.join(PaymentMethod)}",
                               rule="payment-method", field="method")
        if self.payer == self.payee:
            raise InvalidInput("the payer and the payee are the same party",
                               rule="payer-is-payee", field="payee")
        check_text(self.note, "note", required=False)

    def account_of(self, party: str) -> str:
        if party == CLUB:
            return CLUB_CASH if self.method == PaymentMethod.CASH else CLUB_BANK
        return member_account(party)

    def postings(self) -> list[BookPosting]:
        # Who pays gains a claim on the club (or owes it less); who is paid, the opposite.
        out = [BookPosting(self.account_of(self.payer), self.currency, self.amount_minor),
               BookPosting(self.account_of(self.payee), self.currency, -self.amount_minor)]
        check_balanced(out)
        return out


@dataclass(frozen=True)
class DebtWrittenOff(BookEntry):
    """The club gave up `amount_minor` of what `member_id` owed it, for `reason`."""

    type: ClassVar[str] = "DebtWrittenOff"
    member_id: str
    amount_minor: int
    currency: str
    reason: str

    def __post_init__(self) -> None:
        check_amount(self.amount_minor, "amount_minor")
        check_currency(self.currency)
        check_text(self.reason, "reason", required=True)

    def postings(self) -> list[BookPosting]:
        out = [BookPosting(member_account(self.member_id), self.currency, self.amount_minor),
               BookPosting(CLUB_WRITTEN_OFF, self.currency, -self.amount_minor)]
        check_balanced(out)
        return out


@dataclass(frozen=True, kw_only=True)
class CashCounted(BookEntry):
    """The cash in a tin at the close, as the treasurer counted it: a session's tin
    (`session_id`) or an evening's (`evening`, the tin its sessions share). A count moves no
    money (no postings): the cash check compares it with what the ledger expects."""

    type: ClassVar[str] = "CashCounted"
    session_id: str | None = None
    evening: str | None = None
    counted_minor: int
    currency: str
    note: str | None = None

    def __post_init__(self) -> None:
        check_tin(self.session_id, self.evening)
        check_amount(self.counted_minor, "counted_minor", zero=True)
        check_currency(self.currency)
        check_text(self.note, "note", required=False)


@dataclass(frozen=True)
class EntryReversed(BookEntry):
    """The treasurer cancelled entry `reverses` of the book log for `reason`: `undo` posts
    its postings back (each negated), so the two together move nothing. The cancelled entry
    stays in the log as it was."""

    type: ClassVar[str] = "EntryReversed"
    reverses: int  # the cancelled entry's seq
    reverses_type: str
    reason: str
    undo: tuple[tuple[str, str, int], ...] = ()  # (account, currency, amount)
    # the closed period the cancelled entry is in: the reversal posts in the open one
    closed_period: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.reverses, bool) or not isinstance(self.reverses, int) \
                or self.reverses < 1:
            raise InvalidInput("reverses must be the number (seq) of a book entry",
                               rule="entry-exists", field="seq")
        check_text(self.reason, "reason", required=True)
        self.postings()

    def to_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reverses": self.reverses,
                               "reverses_type": self.reverses_type, "reason": self.reason,
                               "undo": [list(p) for p in self.undo]}
        if self.closed_period is not None:  # an entry of an open period keeps the old shape
            out["closed_period"] = self.closed_period
        return out

    def postings(self) -> list[BookPosting]:
        out = [BookPosting(str(a), str(c), int(n)) for a, c, n in self.undo]
        check_balanced(out)
        return out


@dataclass(frozen=True)
class CurrenciesSet(BookEntry):
    """From now on the club keeps its books in `currency`, and accepts payments in
    `accepted` too. Moves no money; balances already in other currencies stay as they are."""

    type: ClassVar[str] = "CurrenciesSet"
    currency: str
    accepted: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_iso(self.currency, "currency")
        if not isinstance(self.accepted, tuple) or len(self.accepted) > 20:
            raise InvalidInput("accepted must be a list of at most 20 ISO 4217 codes",
                               rule="currency", field="accepted")
        for code in self.accepted:
            check_iso(code, "accepted")
        if self.currency in self.accepted or len(set(self.accepted)) != len(self.accepted):
            raise InvalidInput("accepted lists each other currency once, not the club's own",
                               rule="currency-listed-twice", field="accepted")

    def to_payload(self) -> dict[str, Any]:
        return {"currency": self.currency, "accepted": list(self.accepted)}

    @property
    def kept(self) -> tuple[str, ...]:
        return (self.currency, *self.accepted)


# A club that never set its currencies keeps its books in pounds (docs/books.md).
DEFAULT_CURRENCIES = CurrenciesSet(currency="GBP")

@dataclass(frozen=True, kw_only=True)
class FloatOpened(BookEntry):
    """The treasurer put `amount_minor` of the club's cash in a tin before play (its float):
    a session's tin (`session_id`) or an evening's (`evening`). The cash check expects it
    back. It moves no money: the tin is the club's cash either way."""

    type: ClassVar[str] = "FloatOpened"
    session_id: str | None = None
    evening: str | None = None
    amount_minor: int
    currency: str
    note: str | None = None

    def __post_init__(self) -> None:
        check_tin(self.session_id, self.evening)
        check_amount(self.amount_minor, "amount_minor")
        check_currency(self.currency)
        check_text(self.note, "note", required=False)


@dataclass(frozen=True)
class SessionJoinedEvening(BookEntry):
    """Session `session_id`'s cash is in the tin of `evening` (a calendar date), with the
    other sessions of that evening: the evening's cash check counts it. It moves no money;
    reversing it takes the session out of the evening."""

    type: ClassVar[str] = "SessionJoinedEvening"
    session_id: str
    evening: str
    currency: str  # the session's: an evening's tin holds one currency

    def __post_init__(self) -> None:
        check_evening(self.evening)
        check_currency(self.currency)


class Difference(StrEnum):
    SHORTAGE = "shortage"  # the tin held less than the cash check expected
    SURPLUS = "surplus"  # more


@dataclass(frozen=True, kw_only=True)
class CashDifferenceBooked(BookEntry):
    """A tin (a session's, `session_id`, or an evening's, `evening`) held `amount_minor`
    less (a shortage) or more (a surplus) than its cash check expected, booked against
    `account`: "club" (the club bears it, on club:cash-over-short) or a member (he answers
    for it), for `reason`."""

    type: ClassVar[str] = "CashDifferenceBooked"
    session_id: str | None = None
    evening: str | None = None
    difference: Difference
    amount_minor: int
    currency: str
    account: str
    reason: str

    def __post_init__(self) -> None:
        check_tin(self.session_id, self.evening)
        check_amount(self.amount_minor, "amount_minor")
        check_currency(self.currency)
        if self.difference not in tuple(Difference):
            raise InvalidInput("difference must be shortage or surplus",
                               rule="cash-difference", field="difference")
        check_text(self.reason, "reason", required=True)

    def postings(self) -> list[BookPosting]:
        # A shortage: the club holds less cash, and the account bears it (a member owes it
        # or the club's over-and-short account lost it); a surplus the other way round.
        other = CLUB_OVER_SHORT if self.account == CLUB else member_account(self.account)
        amount = self.amount_minor if self.difference == Difference.SHORTAGE \
            else -self.amount_minor
        out = [BookPosting(CLUB_CASH, self.currency, amount),
               BookPosting(other, self.currency, -amount)]
        check_balanced(out)
        return out

    @property
    def signed_minor(self) -> int:
        """The difference as counted minus expected: negative for a shortage."""
        return -self.amount_minor if self.difference == Difference.SHORTAGE \
            else self.amount_minor


@dataclass(frozen=True, kw_only=True)
class OpeningBalance(BookEntry):
    """The club's paper book said `member_id`'s balance was `amount_minor` of `currency` on
    `as_of` (a date): positive, the club owed him; negative, he owed the club. Brought in
    from line `line` of an imported file (`file_sha256`, its content's digest), against
    club:opening-balances."""

    type: ClassVar[str] = "OpeningBalance"
    member_id: str
    amount_minor: int  # signed, as the member's account
    currency: str
    as_of: str
    note: str | None = None
    file_sha256: str
    line: int

    def __post_init__(self) -> None:
        if isinstance(self.amount_minor, bool) or not isinstance(self.amount_minor, int) \
                or not 0 < abs(self.amount_minor) <= MAX_AMOUNT_MINOR:
            raise InvalidInput(f"amount must be a non-zero amount of at most "
                               f"{MAX_AMOUNT_MINOR} minor units either way; got "
                               f"{self.amount_minor!r}", rule="amount-non-zero",
                               field="amount")
        check_currency(self.currency)
        check_date(self.as_of, "as_of")
        check_text(self.note, "note", required=False)

    def postings(self) -> list[BookPosting]:
        out = [BookPosting(member_account(self.member_id), self.currency, self.amount_minor),
               BookPosting(CLUB_OPENING, self.currency, -self.amount_minor)]
        check_balanced(out)
        return out


@dataclass(frozen=True)
class PeriodClosed(BookEntry):
    """The treasurer closed `period` (a month, YYYY-MM, in UTC): from now on nothing is
    dated inside it. `balances` is every account's non-zero balance per currency at its
    `end` (the book position `end_seq` and the results posted by then), as the books read
    there. It moves no money."""

    type: ClassVar[str] = "PeriodClosed"
    period: str
    end: str
    end_seq: int
    balances: dict[str, dict[str, int]]

    def __post_init__(self) -> None:
        check_period(self.period)


@dataclass(frozen=True)
class PeriodReopened(BookEntry):
    """An admin reopened the closed `period` for `reason`. It moves no money."""

    type: ClassVar[str] = "PeriodReopened"
    period: str
    reason: str

    def __post_init__(self) -> None:
        check_period(self.period)
        check_text(self.reason, "reason", required=True)


def closed_periods(entries: Iterable[tuple[int, BookEntry]]) -> dict[str, int]:
    """{period: the seq of its closing} of the periods closed and not reopened since, from
    the book log's entries in order."""
    out: dict[str, int] = {}
    for seq, entry in entries:
        if isinstance(entry, PeriodClosed):
            out[entry.period] = seq
        elif isinstance(entry, PeriodReopened):
            out.pop(entry.period, None)
    return dict(sorted(out.items()))


BOOK_ENTRY_TYPES: dict[str, type[BookEntry]] = {
    cls.type: cls for cls in (PaymentRecorded, DebtWrittenOff, CashCounted, EntryReversed,
                              CurrenciesSet, FloatOpened, CashDifferenceBooked,
                              SessionJoinedEvening, OpeningBalance, PeriodClosed,
                              PeriodReopened)}


def entry_from_record(type_: str, schema_version: int, payload: dict[str, Any]) -> BookEntry:
    cls = BOOK_ENTRY_TYPES.get(type_)
    if cls is None or schema_version != cls.schema_version:
        raise InvariantBroken(f"unknown book entry {type_} v{schema_version}")
    data = dict(payload)
    if cls is PaymentRecorded:
        data["method"] = PaymentMethod(data["method"])
    elif cls is CashDifferenceBooked:
        data["difference"] = Difference(data["difference"])
    elif cls is EntryReversed:
        data["undo"] = tuple((str(a), str(c), int(n)) for a, c, n in data.get("undo", ()))
    elif cls is CurrenciesSet:
        data["accepted"] = tuple(data.get("accepted", ()))
    return cls(**data)


NOT_REVERSIBLE = {EntryReversed: "a reversal", CurrenciesSet: "a change of currencies",
                  PeriodClosed: "the closing of a period (an admin reopens it)",
                  PeriodReopened: "the reopening of a period (close it again)"}


def reversal_of(entry: BookEntry, seq: int, reason: Any, *,
                closed_period: str | None = None) -> EntryReversed:
    """The entry that cancels `entry` (number `seq`, in the closed period `closed_period`
    if it is in one: the reversal says so); a reversal, a change of currencies, a closing
    or a reopening cannot be reversed (reverse the mistake, set the currencies again,
    reopen or close the period)."""
    what = NOT_REVERSIBLE.get(type(entry))
    if what is not None:
        raise InvalidInput(f"entry {seq} is {what}: it cannot be reversed",
                           rule="entry-not-reversible", field="seq")
    return EntryReversed(reverses=seq, reverses_type=entry.type, reason=reason,
                         undo=tuple((p.account, p.currency, -p.amount)
                                    for p in entry.postings()),
                         closed_period=closed_period)
