"""Periods, closings and opening-balance files, in the domain (no database)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ledger.domain import InvalidInput
from ledger.domain import bookentries as be
from ledger.domain.opening import parse, to_minor
from ledger.domain.periods import check_period, end_of, period_of, start_of


def test_a_month_runs_from_its_first_instant_to_its_last_in_utc():
    assert start_of("2026-10") == datetime(2026, 10, 1, tzinfo=UTC)
    assert end_of("2026-10").isoformat() == "2026-10-31T23:59:59.999999+00:00"
    assert end_of("2026-12").isoformat() == "2026-12-31T23:59:59.999999+00:00"
    assert end_of("2028-02").day == 29
    assert end_of("9999-12") == datetime.max.replace(tzinfo=UTC)
    assert period_of(datetime.fromisoformat("2026-11-01T00:30:00+01:00")) == "2026-10"


@pytest.mark.parametrize("bad", ["2026-13", "2026-1", "26-10", "2026-10-01", 202610, None])
def test_a_period_is_a_month_written_yyyy_mm(bad):
    with pytest.raises(InvalidInput) as refused:
        check_period(bad)
    assert refused.value.rule == "period"


def test_a_reopened_month_is_open_until_it_is_closed_again():
    closed = be.PeriodClosed(period="2026-10", end="", end_seq=0, balances={})
    reopened = be.PeriodReopened(period="2026-10", reason="recount")
    assert be.closed_periods([(1, closed)]) == {"2026-10": 1}
    assert be.closed_periods([(1, closed), (2, reopened)]) == {}
    assert be.closed_periods([(1, closed), (2, reopened), (3, closed)]) == {"2026-10": 3}


def test_a_closing_or_a_reopening_is_never_reversed():
    closed = be.PeriodClosed(period="2026-10", end="", end_seq=0, balances={})
    for entry in (closed, be.PeriodReopened(period="2026-10", reason="recount")):
        with pytest.raises(InvalidInput) as refused:
            be.reversal_of(entry, 1, "no")
        assert refused.value.rule == "entry-not-reversible"


def test_a_reversal_names_the_closed_period_of_what_it_cancels_and_only_then():
    paid = be.PaymentRecorded(payer="m1", payee=be.CLUB, amount_minor=10, currency="GBP",
                              method=be.PaymentMethod.CASH)
    late = be.reversal_of(paid, 1, "cheque", closed_period="2026-10")
    assert late.to_payload()["closed_period"] == "2026-10"
    assert "closed_period" not in be.reversal_of(paid, 1, "cheque").to_payload()
    assert be.entry_from_record("EntryReversed", 1, late.to_payload()) == late


def test_an_opening_balance_posts_the_members_balance_against_the_opening_account():
    owed = be.OpeningBalance(member_id="m1", amount_minor=-1250, currency="GBP",
                             as_of="2026-09-30", file_sha256="x", line=2)
    assert owed.postings() == [be.BookPosting("member:m1", "GBP", -1250),
                               be.BookPosting(be.CLUB_OPENING, "GBP", 1250)]
    with pytest.raises(InvalidInput):
        be.OpeningBalance(member_id="m1", amount_minor=0, currency="GBP",
                          as_of="2026-09-30", file_sha256="x", line=2)


def test_money_is_read_in_the_currencys_decimals():
    assert to_minor("-12.50", "GBP") == -1250
    assert to_minor("3", "JPY") == 3
    for value, currency, rule in (("1.005", "GBP", "amount-decimals"),
                                  ("1.5", "JPY", "amount-decimals"),
                                  ("0.00", "GBP", "amount-non-zero"),
                                  ("1,00", "GBP", "amount"), ("", "GBP", "amount")):
        with pytest.raises(InvalidInput) as refused:
            to_minor(value, currency)
        assert refused.value.rule == rule


def test_a_file_names_each_bad_line_and_keeps_the_good_ones():
    parsed = parse(b"\xef\xbb\xbfMember,Amount,Currency,As_of\n"
                   b"Ann,-1.20,GBP,2026-09-30\n\n"
                   b"Bob,x,GBP,2026-09-30\n"
                   b",1,GBP,2026-09-30\n"
                   b"Cal,1,GBP,30/09/2026\n")
    assert [(line.line, line.member, line.amount_minor) for line in parsed.lines] == [
        (2, "Ann", -120)]
    assert [(p["line"], p["field"], p["rule"]) for p in parsed.problems] == [
        (4, "amount", "amount"), (5, "member", "member-required"), (6, "as_of", "date")]


@pytest.mark.parametrize(("content", "rule"), [
    (b"\xff\xfe", "csv-encoding"), (b"", "csv-columns"), (b"who,what\n", "csv-columns"),
    (b"member,amount,currency,as_of,note\n\n", "opening-balances-empty")])
def test_a_file_that_is_not_such_a_table_is_refused_whole(content, rule):
    with pytest.raises(InvalidInput) as refused:
        parse(content)
    assert (refused.value.rule, refused.value.field) == (rule, "file")
