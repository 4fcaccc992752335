"""The club's books: what members owe the club and the club owes them, across sessions.

Pure Python (docs/books.md). Amounts are integers in the minor units of a currency (pence for
GBP), or in units for sessions played for counters (currency "units"). Every entry posts to
accounts, and its postings sum to zero in each currency (double entry):

- `member:<id>`: positive, the club owes him; negative, he owes the club;
- `club:cash` (money paid in or out in cash) and `club:bank` (by transfer or otherwise):
  minus what the club holds there;
- `club:written-off`: minus the debts the club gave up;
- `session:<id>`: minus the seats' nets of an ended session (zero unless the session
  ended with units left in its pools).

The entries themselves are ledger/domain/bookentries.py's.
A session's result is not a book entry: it is the `session_results` projection of its own
log, posted here as `SessionResult` lines: the result when the session ends, and the
difference a later correction makes, dated when it was made (ledger/domain/adjustments.py).
Payments and credits settle a member's oldest open items first (FIFO, `allocate`).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from . import events as ev
from .bookentries import (
    CLUB,
    BookEntry,
    BookPosting,
    CashCounted,
    CashDifferenceBooked,
    DebtWrittenOff,
    EntryReversed,
    FloatOpened,
    OpeningBalance,
    PaymentMethod,
    PaymentRecorded,
    check_balanced,
    member_account,
    session_account,
)
from .corrections import live_events
from .currencies import UNITS, money_cell
from .errors import InvariantBroken
from .events import Event
from .state import SessionState
from .statement import safe_cell
from .vocabulary import Reason, Status


class EntryKind(StrEnum):
    """The kinds of line on a member's account."""

    SESSION = "session"
    PAYMENT = "payment"
    WRITE_OFF = "write-off"
    REVERSAL = "reversal"
    CASH_DIFFERENCE = "cash-difference"  # a tin's shortage or surplus he answers for
    ADJUSTMENT = "adjustment"  # what a correction of a session changed in its result
    OPENING_BALANCE = "opening-balance"  # his balance brought in from the club's paper book


# -- session results ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SessionResult:
    """One seat's result of an ended session, as posted to the books (a row of
    `session_results`): the result when it ended, or what a correction changed in it
    (`corrected_by`, the version of its EntryCorrected, and its `reason`), posted at
    `posted_at` by the write that ended at the session's `version`. The figures of an
    adjustment are differences; `sessions` counts the session (1 when its result is posted,
    -1 when a correction reopens it, 0 for a change)."""

    session_id: str
    seat: str
    member_id: str | None
    currency: str
    net_units: int
    net_minor: int | None
    deals_dealt: int
    loos: int
    loo_units: int
    penalties: int
    penalty_units: int
    posted_at: datetime
    session_name: str = ""
    sessions: int = 1
    version: int = 0
    corrected_by: int | None = None
    reason: str | None = None

    @property
    def amount(self) -> int:
        """What the result is worth on the books: money, or units played for counters."""
        return self.net_minor if self.net_minor is not None else self.net_units

    def postings(self) -> list[BookPosting]:
        if self.member_id is None:
            return []
        out = [BookPosting(member_account(self.member_id), self.currency, self.amount),
               BookPosting(session_account(self.session_id), self.currency, -self.amount)]
        check_balanced(out)
        return out


# -- the lines of the books, in time order ------------------------------------------------------

@dataclass(frozen=True)
class Line:
    """Something that moved the books: a session result or a book entry, at a time."""

    at: datetime
    kind: EntryKind | None  # None: a cash count (it moves nothing)
    postings: tuple[BookPosting, ...]
    session_id: str | None = None
    session_name: str | None = None
    seq: int | None = None  # the book entry's number in the club's book log
    detail: dict[str, Any] = field(default_factory=dict)

    def sort_key(self) -> tuple[Any, ...]:
        # At one instant a session's result comes before a book entry (a payment made as the
        # session ends settles it); book entries by their number.
        return (self.at, 0 if self.seq is None else 1, self.seq or 0, self.session_id or "",
                self.detail.get("seat", ""))


def result_line(result: SessionResult) -> Line:
    return session_line(
        session_id=result.session_id, session_name=result.session_name, seat=result.seat,
        member_id=result.member_id, currency=result.currency, net_units=result.net_units,
        net_minor=result.net_minor, posted_at=result.posted_at,
        corrected_by=result.corrected_by, reason=result.reason)


def session_line(*, session_id: str, session_name: str, seat: str, member_id: str | None,
                 currency: str, net_units: int, net_minor: int | None,
                 posted_at: datetime, corrected_by: int | None = None,
                 reason: str | None = None) -> Line:
    """A session result's line, straight from its stored row (what result_line makes of a
    SessionResult, without building one: a club's books read thousands). A correction's
    adjustment names its EntryCorrected (`corrected_by`, its version) and its reason."""
    amount = net_minor if net_minor is not None else net_units
    postings = () if member_id is None else (
        BookPosting(member_account(member_id), currency, amount),
        BookPosting(session_account(session_id), currency, -amount))
    detail: dict[str, Any] = {"seat": seat, "net_units": net_units}
    if corrected_by is not None:
        detail.update(corrected_by=corrected_by, reason=reason)
    return Line(at=posted_at, kind=EntryKind.SESSION if corrected_by is None
                else EntryKind.ADJUSTMENT, postings=postings, session_id=session_id,
                session_name=session_name, detail=detail)


ENTRY_KINDS = {PaymentRecorded.type: EntryKind.PAYMENT, DebtWrittenOff.type: EntryKind.WRITE_OFF,
               EntryReversed.type: EntryKind.REVERSAL,
               CashDifferenceBooked.type: EntryKind.CASH_DIFFERENCE,
               OpeningBalance.type: EntryKind.OPENING_BALANCE}


def entry_kind(entry_type: str) -> EntryKind | None:
    """The kind of line a book entry of `entry_type` makes (None: it moves nothing)."""
    return ENTRY_KINDS.get(entry_type)


def entry_line(entry: BookEntry, *, seq: int, at: datetime,
               session_names: dict[str, str] | None = None,
               postings: Sequence[BookPosting] | None = None,
               payload: dict[str, Any] | None = None) -> Line:
    """A book entry's line; `postings` and `payload` when the caller has them already (the
    book log's reads make them once per entry)."""
    kind = entry_kind(entry.type)
    session_id = getattr(entry, "session_id", None)
    return Line(at=at, kind=kind,
                postings=tuple(entry.postings() if postings is None else postings),
                session_id=session_id,
                session_name=(session_names or {}).get(session_id or ""), seq=seq,
                detail={"type": entry.type,
                        **(entry.to_payload() if payload is None else payload)})


def in_order(lines: Iterable[Line]) -> list[Line]:
    return sorted(lines, key=Line.sort_key)


def balances(lines: Iterable[Line]) -> dict[str, dict[str, int]]:
    """Every account's balance per currency (accounts never posted to are absent)."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in lines:
        check_balanced(line.postings)
        for p in line.postings:
            out[p.account][p.currency] += p.amount
    return {a: dict(sorted(c.items())) for a, c in sorted(out.items())}


def zero_sum(accounts: dict[str, dict[str, int]]) -> dict[str, int]:
    """The sum of every account per currency: zero in each, or the books are broken."""
    sums: dict[str, int] = defaultdict(int)
    for per_currency in accounts.values():
        for currency, amount in per_currency.items():
            sums[currency] += amount
    return dict(sorted(sums.items()))


# -- one member's account, FIFO ----------------------------------------------------------------

@dataclass
class Item:
    """A line of a member's account and what of it is still open (unsettled)."""

    line: Line
    currency: str
    amount: int  # signed: positive, the club owes him more; negative, he owes it more
    open: int = 0  # signed like amount; 0 once settled
    balance: int = 0  # his running balance in the currency after this line


def allocate(items: Sequence[Item]) -> None:
    """FIFO: each line first settles the oldest open lines of the other sign in its currency;
    what is left of it stays open. Fills `open` and `balance` in place.

    At any moment the open items of a currency all have one sign and sum to the balance, so
    the open debts are what the member owes and the open credits what he is owed.
    """
    queues: dict[str, deque[Item]] = defaultdict(deque)
    running: dict[str, int] = defaultdict(int)
    for item in items:
        running[item.currency] += item.amount
        item.balance = running[item.currency]
        rest = item.amount
        queue = queues[item.currency]
        while rest and queue and (queue[0].open > 0) != (rest > 0):
            oldest = queue[0]
            take = min(abs(rest), abs(oldest.open))
            step = take if rest > 0 else -take
            oldest.open += step
            rest -= step
            if oldest.open == 0:
                queue.popleft()
        item.open = rest
        if rest:
            queue.append(item)
    # Checked once per currency after the pass, not after every line: summing the queue at
    # each line made a member of 1,000 sessions cost 200,000 additions (docs/audit.md).
    for currency, queue in queues.items():
        if sum(i.open for i in queue) != running[currency]:
            raise InvariantBroken("the open items do not sum to the balance")


def member_items(member_id: str, lines: Iterable[Line]) -> list[Item]:
    """The member's lines in time order, allocated FIFO."""
    return items_by_member(lines).get(member_id, [])


def items_by_member(lines: Iterable[Line]) -> dict[str, list[Item]]:
    """Every member's lines in time order, allocated FIFO, in one pass over the books."""
    out: dict[str, list[Item]] = defaultdict(list)
    for line in in_order(lines):
        for p in line.postings:
            if p.account.startswith("member:"):
                out[p.account[len("member:"):]].append(Item(line, p.currency, p.amount))
    for items in out.values():
        allocate(items)
    return dict(out)


# (member id, the line, currency, what of it is still open)
OpenLine = tuple[str, Line, str, int]


def open_lines(newest_first: Iterable[Line], owing: dict[tuple[str, str], int],
               owed: dict[tuple[str, str], int]) -> tuple[list[OpenLine], list[OpenLine]]:
    """FIFO's open debts and open credits, found from the newest end: a member who owes X
    in a currency still owes his newest debit lines back to X (payments and credits settled
    the older ones first), the oldest of them in part; the same for what the club owes him.
    `newest_first`: the lines in the reverse of their time order (`Line.sort_key`); it is
    read only until `owing` ({(member id, currency): X > 0}) and `owed` are accounted for,
    so a caller may stream it from the newest end and stop there. Returns (debts, credits),
    each newest first."""
    left = (dict(owing), dict(owed))  # [0] the debits still to find, [1] the credits
    out: tuple[list[OpenLine], list[OpenLine]] = ([], [])
    remaining = sum(owing.values()) + sum(owed.values())
    for line in newest_first:
        if not remaining:
            break
        for p in line.postings:
            if not p.amount or not p.account.startswith("member:"):
                continue
            side = int(p.amount > 0)
            key = (p.account[len("member:"):], p.currency)
            want = left[side].get(key, 0)
            if want > 0:
                take = min(want, abs(p.amount))
                left[side][key] = want - take
                remaining -= take
                out[side].append((key[0], line, p.currency, take))
    if remaining:
        raise InvariantBroken("the lines do not account for what the members owe or are owed")
    return out


REVERSED_KINDS = {"PaymentRecorded": "payment", "DebtWrittenOff": "write-off",
                  "CashDifferenceBooked": "cash difference", "CashCounted": "cash count",
                  "FloatOpened": "float"}


def describe(line: Line, member_id: str) -> str:
    """A line of a member's account in words: sessions by name, entries by what they were
    and when (a reversal names the entry it cancelled by its kind and date)."""
    d = line.detail
    if line.kind == EntryKind.SESSION:
        return f"result of session {line.session_name or line.session_id} ({d['seat']})"
    if line.kind == EntryKind.ADJUSTMENT:
        closed = f" (the session is in the closed period {d['closed_period']}: posted in the " \
            "open period)" if d.get("closed_period") else ""
        return (f"correction of session {line.session_name or line.session_id} ({d['seat']}), "
                f"version {d['corrected_by']}: {d['reason']}{closed}")
    if line.kind == EntryKind.OPENING_BALANCE:
        return f"opening balance as of {d['as_of']}" + (f": {d['note']}" if d.get("note")
                                                         else "")
    if line.kind == EntryKind.WRITE_OFF:
        return f"written off: {d['reason']}"
    if line.kind == EntryKind.REVERSAL:
        what = REVERSED_KINDS.get(d.get("reverses_type", ""), "entry")
        when = f" of {d['reverses_at'][:10]}" if d.get("reverses_at") else ""
        closed = f" (it is in the closed period {d['closed_period']}: posted in the open " \
            "period)" if d.get("closed_period") else ""
        return f"reversal of the {what}{when} (entry {d['reverses']}): {d['reason']}{closed}"
    if line.kind == EntryKind.CASH_DIFFERENCE:
        tin = f"the evening of {d['evening']}" if d.get("evening") \
            else f"session {line.session_name or line.session_id}"
        return f"cash {d['difference']} of {tin}: {d['reason']}"
    payer = "paid by him" if d["payer"] == member_id else (
        "paid by the club" if d["payer"] == CLUB else f"paid by {d['payer']}")
    payee = "to him" if d["payee"] == member_id else (
        "to the club" if d["payee"] == CLUB else f"to {d['payee']}")
    return f"payment {payer} {payee} ({d['method']})"


def item_dict(item: Item, member_id: str, n: int) -> dict[str, Any]:
    line = item.line
    return {
        "n": n, "at": line.at.isoformat(), "kind": str(line.kind),
        "description": describe(line, member_id), "session_id": line.session_id,
        "session_name": line.session_name, "seq": line.seq, "currency": item.currency,
        "amount_minor": item.amount, "balance_minor": item.balance, "open_minor": item.open,
        "corrected_by": line.detail.get("corrected_by"),
        "detail": {k: v for k, v in line.detail.items() if k != "type"},
    }


# A member's account as CSV (GET /members/<id>/account.csv; docs/books.md): money in its
# currency, the minor units beside, the session by name, the ids after.
ACCOUNT_COLUMNS = ["n", "at", "kind", "description", "session_name", "currency", "amount",
                   "amount_minor", "balance", "balance_minor", "open", "open_minor",
                   "session_id", "seq", "corrected_by"]


def account_row(entry: dict[str, Any]) -> list[object]:
    """An entry of the account (`item_dict`) as a row of ACCOUNT_COLUMNS."""
    currency = entry["currency"]
    money = {name: money_cell(entry[f"{name}_minor"], currency)
             for name in ("amount", "balance", "open")}
    return [money[k] if k in money else entry[k] for k in ACCOUNT_COLUMNS]


def open_items(items: Iterable[Item]) -> list[Item]:
    """The lines still open, oldest first."""
    return [i for i in items if i.open]


def account_summary(items: Sequence[Item], member_id: str = "") -> dict[str, Any]:
    """Balances per currency, what he owes and is owed, and the open items, oldest first,
    each in words (`describe`)."""
    balance: dict[str, int] = {}
    for item in items:
        balance[item.currency] = item.balance
    still_open = open_items(items)
    return {
        "balances": dict(sorted(balance.items())),
        "owes": {c: -b for c, b in sorted(balance.items()) if b < 0},
        "owed": {c: b for c, b in sorted(balance.items()) if b > 0},
        "open": [{"kind": str(i.line.kind), "currency": i.currency,
                  "amount_minor": abs(i.open), "owes": i.open < 0,
                  "session_id": i.line.session_id, "session_name": i.line.session_name,
                  "seq": i.line.seq, "corrected_by": i.line.detail.get("corrected_by"),
                  "since": i.line.at.isoformat(),
                  "description": describe(i.line, member_id)} for i in still_open],
    }


# -- the cash check ------------------------------------------------------------------------------

def cash_moves(payments: Iterable[PaymentRecorded], currency: str) -> tuple[int, int]:
    """(cash paid into the tin, cash paid out of it): the club's cash payments in the tin's
    currency; transfers and other methods never touch the tin."""
    paid_in = paid_out = 0
    for p in payments:
        if p.method != PaymentMethod.CASH or p.currency != currency:
            continue
        if p.payee == CLUB:
            paid_in += p.amount_minor
        if p.payer == CLUB:
            paid_out += p.amount_minor
    return paid_in, paid_out


def cash_check(counts: Sequence[tuple[datetime, CashCounted]], *, pools_minor: int,
               currency: str, payments: Iterable[PaymentRecorded],
               floats: Iterable[FloatOpened] = (),
               booked: Iterable[CashDifferenceBooked] = ()) -> dict[str, Any] | None:
    """The cash counted on a session's table against what the ledger says should be there.

    expected = the float put in the tin + what is still in the pools (in money) + cash paid
    to the club against the session - cash the club paid out against it (from the float, a
    guest's winnings). The last count stands; None when none. `booked_minor` is the
    shortages (negative) and surpluses booked for it; `unbooked_minor` what is left of the
    difference once they are.
    """
    if not counts:
        return None
    at, last = max(counts, key=lambda c: c[0])
    paid_in, paid_out = cash_moves(payments, currency)
    float_minor = sum(f.amount_minor for f in floats if f.currency == currency)
    booked_minor = sum(b.signed_minor for b in booked if b.currency == currency)
    expected = float_minor + pools_minor + paid_in - paid_out
    difference = last.counted_minor - expected
    return {"currency": currency, "counted_minor": last.counted_minor,
            "expected_minor": expected, "difference_minor": difference,
            "pools_minor": pools_minor, "cash_paid_in_minor": paid_in,
            "cash_paid_out_minor": paid_out, "counted_at": at.isoformat(),
            "counts": len(counts), "note": last.note, "float_minor": float_minor,
            "booked_minor": booked_minor, "unbooked_minor": difference - booked_minor}


# -- a session's results, from its state and its log ---------------------------------------------

# The log's events a session's results count (with the corrections that supersede them).
RESULT_EVENT_TYPES = ("DealSettled", "PenaltyImposed", "SessionEnded", "EntryCorrected")


def session_results(state: SessionState,
                    log: Iterable[tuple[int, Event, datetime]]) -> list[SessionResult]:
    """Each seat's result of the ended session (none while it is open).

    `log` holds the session's events (versioned, with the time each was recorded) of at
    least RESULT_EVENT_TYPES; the events a correction superseded are not counted
    (docs/rules.md §12). The nets are the state's (docs/rules.md §8); loos are the deals
    that looed the seat (DealSettled.looed), penalties the PenaltyImposed charged to him;
    their units are what he paid under those categories (the statement's `paid_units`).
    """
    if state.status != Status.ENDED:
        return []
    at = {version: moment for version, _, moment in log}
    live = live_events((version, event) for version, event, _ in log)
    ended = [v for v, e in live if isinstance(e, ev.SessionEnded)]
    if not ended:
        raise InvariantBroken(f"session {state.session_id} is ended but its log has no "
                              "live SessionEnded")
    posted_at = at[ended[-1]]
    loos: dict[str, int] = defaultdict(int)
    penalties: dict[str, int] = defaultdict(int)
    for _, event in live:
        if isinstance(event, ev.DealSettled):
            for player in event.looed:
                loos[player] += 1
        elif isinstance(event, ev.PenaltyImposed):
            penalties[event.player] += 1
    money = state.money_per_unit_minor is not None and bool(state.currency)
    currency = state.currency if money and state.currency else UNITS
    out = []
    for seat in state.seats:
        totals = state.totals.get(seat, {})
        paid = {k: -v for k, v in totals.items() if v < 0}
        net = state.balances.get(seat, 0)
        out.append(SessionResult(
            session_id=state.session_id, seat=seat, member_id=state.members.get(seat),
            currency=currency, net_units=net,
            net_minor=net * state.money_per_unit_minor
            if money and state.money_per_unit_minor is not None else None,
            deals_dealt=state.deals_dealt.get(seat, 0), loos=loos[seat],
            loo_units=paid.get(Reason.LOO, 0) + paid.get(Reason.SINGLE_LOO, 0),
            penalties=penalties[seat],
            penalty_units=sum(v for k, v in paid.items() if k.startswith("penalty:")),
            posted_at=posted_at, session_name=state.name))
    return out


def pools_minor(state: SessionState) -> int:
    """What is still in the session's pools, in money (or units for counters)."""
    units = state.pool_units() + state.next_pool_units()
    return units * state.money_per_unit_minor if state.money_per_unit_minor is not None \
        else units


# -- CSV ------------------------------------------------------------------------------------------

def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """Rows as CSV, every text cell formula-safe (statement.safe_cell); None is empty."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for row in rows:
        writer.writerow(["" if v is None else safe_cell(v) for v in row])
    return buf.getvalue()


def money_table(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    """Rows (dicts) as CSV in these columns: a column `X` a row does not have is its `X_minor`
    in the row's currency (`money_cell`), so every sheet gives money in the currency with the
    minor units in the column beside (docs/books.md, "Exports")."""
    out: list[list[object]] = [list(columns)]
    for row in rows:
        out.append([row[c] if c in row else money_cell(row.get(f"{c}_minor"),
                                                      row.get("currency"))
                    for c in columns])
    return csv_text(out)


CASH_COLUMNS = ["currency", "counted_minor", "expected_minor", "difference_minor",
                "pools_minor", "cash_paid_in_minor", "cash_paid_out_minor", "counted_at",
                "float_minor", "booked_minor", "unbooked_minor"]
# after them, the count, what was expected and the difference in the currency's own units
CASH_MONEY = ["counted", "expected", "difference"]


def _cash_row(cash: dict[str, Any]) -> list[object]:
    return [*(cash[k] for k in CASH_COLUMNS),
            *(money_cell(cash[f"{k}_minor"], cash["currency"]) for k in CASH_MONEY)]


def cash_csv(cash: dict[str, Any] | None, *, alone: bool = False,
             evening: str | None = None) -> str:
    """The statement's cash section as CSV: `alone`, a table of its own (a header, and the
    count's row if there is one, or the evening whose tin holds the session's cash); else
    lines to follow the statement's tables (after a blank line), as the statement sheet has
    always had them: `cash,evening,<date>` when the cash is in an evening's tin,
    `cash,counted,none` when nothing was counted."""
    if alone:
        rows: list[list[object]] = [[*CASH_COLUMNS, *CASH_MONEY, "evening"]]
        if cash is not None:
            rows.append([*_cash_row(cash), evening])
        elif evening is not None:
            rows.append([*(None for _ in (*CASH_COLUMNS, *CASH_MONEY)), evening])
        return csv_text(rows)
    if cash is None:
        return csv_text([[], ["cash", "evening", evening] if evening is not None
                         else ["cash", "counted", "none"]])
    return csv_text([[], ["cash", *CASH_COLUMNS, *CASH_MONEY], ["cash", *_cash_row(cash)]])
