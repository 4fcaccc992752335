"""The club's books in memory (docs/books.md): postings balance, FIFO settles the oldest
debts first, and every account is the sum of its entries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.domain import InvalidInput
from ledger.domain.accounts import (
    Line,
    SessionResult,
    account_summary,
    balances,
    cash_check,
    csv_text,
    entry_line,
    in_order,
    member_items,
    open_lines,
    result_line,
    zero_sum,
)
from ledger.domain.bookentries import (
    CLUB,
    CLUB_BANK,
    CLUB_CASH,
    CLUB_WRITTEN_OFF,
    CashCounted,
    DebtWrittenOff,
    PaymentMethod,
    PaymentRecorded,
    member_account,
    session_account,
)

T0 = datetime(2026, 11, 1, 19, 0, tzinfo=UTC)


def at(hours: int) -> datetime:
    return T0 + timedelta(hours=hours)


def result(session: str, member: str, amount: int, hours: int, currency: str = "GBP"
           ) -> Line:
    return result_line(SessionResult(
        session_id=session, seat=member, member_id=member, currency=currency,
        net_units=amount, net_minor=amount if currency != "units" else None, deals_dealt=0,
        loos=0, loo_units=0, penalties=0, penalty_units=0, posted_at=at(hours),
        session_name=f"night {session}"))


def pay(seq: int, payer: str, payee: str, amount: int, hours: int,
        method: PaymentMethod = PaymentMethod.CASH, currency: str = "GBP") -> Line:
    return entry_line(PaymentRecorded(payer=payer, payee=payee, amount_minor=amount,
                                      currency=currency, method=method), seq=seq, at=at(hours))


def write_off(seq: int, member: str, amount: int, hours: int) -> Line:
    return entry_line(DebtWrittenOff(member_id=member, amount_minor=amount, currency="GBP",
                                     reason="moved away"), seq=seq, at=at(hours))


def test_a_payment_to_the_club_in_cash_credits_the_member_and_the_cash_box_holds_it():
    entry = PaymentRecorded(payer="ann", payee=CLUB, amount_minor=500, currency="GBP",
                            method=PaymentMethod.CASH)
    assert [(p.account, p.amount) for p in entry.postings()] == [
        (member_account("ann"), 500), (CLUB_CASH, -500)]


def test_a_transfer_from_the_club_goes_through_the_bank_account():
    entry = PaymentRecorded(payer=CLUB, payee="bob", amount_minor=300, currency="GBP",
                            method=PaymentMethod.TRANSFER)
    assert [(p.account, p.amount) for p in entry.postings()] == [
        (CLUB_BANK, 300), (member_account("bob"), -300)]


def test_a_write_off_credits_the_member_and_debits_written_off():
    entry = DebtWrittenOff(member_id="cal", amount_minor=200, currency="GBP", reason="gone")
    assert [(p.account, p.amount) for p in entry.postings()] == [
        (member_account("cal"), 200), (CLUB_WRITTEN_OFF, -200)]


def test_a_cash_count_moves_no_money():
    assert CashCounted(session_id="s", counted_minor=0, currency="GBP").postings() == []


@pytest.mark.parametrize(("kwargs", "field", "rule"), [
    ({"amount_minor": 0}, "amount_minor", "amount-positive"),
    ({"amount_minor": -5}, "amount_minor", "amount-positive"),
    ({"amount_minor": True}, "amount_minor", "amount-positive"),
    ({"currency": "gbp"}, "currency", "currency"),
    ({"currency": "POUNDS"}, "currency", "currency"),
    ({"payee": "ann"}, "payee", "payer-is-payee"),
    ({"note": " "}, "note", "text"),
])
def test_a_payment_that_breaks_a_rule_is_refused_naming_the_field(kwargs, field, rule):
    body = {"payer": "ann", "payee": CLUB, "amount_minor": 100, "currency": "GBP",
            "method": PaymentMethod.CASH, **kwargs}
    with pytest.raises(InvalidInput) as refused:
        PaymentRecorded(**body)
    assert (refused.value.field, refused.value.rule) == (field, rule)


def test_a_write_off_needs_a_reason():
    with pytest.raises(InvalidInput) as refused:
        DebtWrittenOff(member_id="ann", amount_minor=1, currency="GBP", reason="")
    assert (refused.value.field, refused.value.rule) == ("reason", "reason-required")


def test_a_payment_settles_the_oldest_debt_first():
    lines = [result("s1", "ann", -400, 0), result("s2", "ann", -300, 24),
             pay(1, "ann", CLUB, 500, 30)]
    items = member_items("ann", lines)
    assert [(i.amount, i.balance, i.open) for i in items] == [
        (-400, -400, 0), (-300, -700, -200), (500, -200, 0)]
    summary = account_summary(items)
    assert summary["owes"] == {"GBP": 200}
    assert [(o["session_id"], o["amount_minor"], o["since"]) for o in summary["open"]] == [
        ("s2", 200, at(24).isoformat())]


def test_a_credit_from_a_winning_night_settles_an_older_debt():
    items = member_items("ann", [result("s1", "ann", -250, 0), result("s2", "ann", 100, 24)])
    assert [i.open for i in items] == [-150, 0]
    assert account_summary(items)["balances"] == {"GBP": -150}


def test_a_debt_after_a_credit_uses_the_credit_up():
    items = member_items("bob", [result("s1", "bob", 300, 0), result("s2", "bob", -100, 24)])
    assert [i.open for i in items] == [200, 0]
    assert account_summary(items)["owed"] == {"GBP": 200}


def test_currencies_are_kept_apart():
    items = member_items("ann", [result("s1", "ann", -40, 0, "units"),
                                 pay(1, "ann", CLUB, 40, 1)])
    assert account_summary(items)["balances"] == {"GBP": 40, "units": -40}


def test_a_member_paying_another_member_moves_the_debt_between_them():
    lines = [result("s1", "ann", -500, 0), result("s1", "bob", 500, 0),
             pay(1, "ann", "bob", 500, 1)]
    books = balances(lines)
    assert books[member_account("ann")] == {"GBP": 0}
    assert books[member_account("bob")] == {"GBP": 0}
    assert books[session_account("s1")] == {"GBP": 0}


def test_the_cash_check_expects_the_pools_and_the_cash_paid_in_less_the_cash_paid_out():
    counts = [(at(1), CashCounted(session_id="s", counted_minor=900, currency="GBP")),
              (at(2), CashCounted(session_id="s", counted_minor=950, currency="GBP"))]
    payments = [PaymentRecorded(payer="ann", payee=CLUB, amount_minor=1000, currency="GBP",
                                method=PaymentMethod.CASH),
                PaymentRecorded(payer=CLUB, payee="bob", amount_minor=100, currency="GBP",
                                method=PaymentMethod.CASH),
                PaymentRecorded(payer="cal", payee=CLUB, amount_minor=700, currency="GBP",
                                method=PaymentMethod.TRANSFER)]
    cash = cash_check(counts, pools_minor=30, currency="GBP", payments=payments)
    assert cash is not None
    assert (cash["counted_minor"], cash["expected_minor"], cash["difference_minor"]) == (
        950, 930, 20)
    assert cash_check([], pools_minor=0, currency="GBP", payments=[]) is None


def test_csv_cells_that_look_like_formulas_are_quoted():
    assert csv_text([["=SUM(A1)", -5, None]]) == "'=SUM(A1),-5,\n"


# -- the property: random nights, payments and write-offs --------------------------------------

MEMBERS = ("ann", "bob", "cal", "dan")


@st.composite
def books_histories(draw: st.DrawFn) -> list[Line]:
    lines: list[Line] = []
    seq = 0
    for hour in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(("session", "payment", "write-off")))
        if kind == "session":
            seated = draw(st.lists(st.sampled_from(MEMBERS), min_size=2, max_size=4,
                                   unique=True))
            nets = [draw(st.integers(-50, 50)) for _ in seated[1:]]
            nets.insert(0, -sum(nets))  # a session's nets sum to zero
            lines += [result(f"s{hour}", m, n, hour) for m, n in zip(seated, nets,
                                                                     strict=True)]
        elif kind == "payment":
            payer, payee = draw(st.lists(st.sampled_from((*MEMBERS, CLUB)), min_size=2,
                                         max_size=2, unique=True))
            seq += 1
            lines.append(pay(seq, payer, payee, draw(st.integers(1, 80)), hour,
                             draw(st.sampled_from(tuple(PaymentMethod)))))
        else:
            member = draw(st.sampled_from(MEMBERS))
            owes = -balances(lines).get(member_account(member), {}).get("GBP", 0)
            if owes > 0:
                seq += 1
                lines.append(write_off(seq, member, draw(st.integers(1, owes)), hour))
    return lines


def fifo_reference(amounts: list[int]) -> list[int]:
    """What stays open of each amount: the other side's total settles the oldest first."""
    balance = sum(amounts)
    sign = -1 if balance < 0 else 1
    budget = sum(abs(a) for a in amounts if a * sign < 0)  # what the other side brought
    out = []
    for a in amounts:
        if a * sign <= 0 or balance == 0:
            out.append(0)
            continue
        used = min(abs(a), budget)
        budget -= used
        out.append(a - sign * used)
    return out


@settings(max_examples=60, deadline=None)
@given(books_histories())
def test_every_account_is_the_sum_of_its_entries_and_the_books_sum_to_zero(lines):
    books = balances(lines)
    assert all(v == 0 for v in zero_sum(books).values())
    for member in MEMBERS:
        items = member_items(member, lines)
        mine = [p.amount for line in lines for p in line.postings
                if p.account == member_account(member)]
        assert books.get(member_account(member), {}).get("GBP", 0) == sum(mine)
        summary = account_summary(items)
        balance = summary["balances"].get("GBP", 0)
        assert balance == sum(mine)
        debts = sum(o["amount_minor"] for o in summary["open"] if o["owes"])
        assert debts == max(-balance, 0)
        assert [i.open for i in items] == fifo_reference([i.amount for i in items])


@settings(max_examples=60, deadline=None)
@given(books_histories())
def test_the_open_debts_read_from_the_newest_end_are_those_fifo_leaves_open(lines):
    books = balances(lines)
    owing = {(member, "GBP"): -books[member_account(member)]["GBP"] for member in MEMBERS
             if books.get(member_account(member), {}).get("GBP", 0) < 0}
    owed = {(member, "GBP"): books[member_account(member)]["GBP"] for member in MEMBERS
            if books.get(member_account(member), {}).get("GBP", 0) > 0}
    debts, credits = open_lines(reversed(in_order(lines)), owing, owed)
    for side, found, sign in ((debts, owing, -1), (credits, owed, 1)):
        newest_back = sorted((m, line.sort_key(), amount) for m, line, _, amount in side)
        fifo = sorted((m, i.line.sort_key(), sign * i.open) for m in MEMBERS
                      for i in member_items(m, lines) if i.open * sign > 0)
        assert newest_back == fifo
        assert sum(amount for *_, amount in side) == sum(found.values())
