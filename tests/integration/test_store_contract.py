"""The ledger's storage contract, run against every store (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest
from sqlalchemy import Engine, func, insert, select, text, update
from sqlalchemy.exc import DatabaseError

from ledger.clubs.service import Clubs
from ledger.domain import ConcurrencyConflict, InvalidInput, LedgerError, SessionNotFound
from ledger.domain.commands import Declare, EndSession, StartDeal
from ledger.sessions.service import DealNotFound, Ledger
from ledger.store.tables import deal_views, events, idempotency_keys, sessions
from ledger.writes import AppendResult, IdempotencyKeyReused, WriteRequest
from tests.clubs import club_ledger
from tests.support.projected import rebuilt

from .helpers import PLAYERS, open_command, quick_deal, turn_up_single

# and on PostgreSQL partitioned by club (tests/conftest.py)
pytestmark = pytest.mark.partitioned

ACTOR = "dealer@club"


def body(result: AppendResult) -> dict:
    """The response as the API sends it."""
    return result.body


def open_session(ledger: Ledger, **kwargs) -> str:
    return ledger.open_session(open_command(), WriteRequest(ACTOR), **kwargs).body["session_id"]


def play_deals(ledger: Ledger, session_id: str, deals: int) -> None:
    """The turn-up single, then quick deals, one command per append."""
    ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR))
    for _ in range(deals - 1):
        for command in quick_deal(ledger.session(session_id)):
            ledger.append(session_id, [command], WriteRequest(ACTOR))


def count(engine: Engine, table) -> int:
    with engine.connect() as conn:
        return conn.scalar(select(func.count()).select_from(table))


def run_together(*calls):
    """Start the calls at the same moment on their own threads; their results or errors."""
    start = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        start.wait()
        try:
            outcomes[i] = calls[i]()
        except Exception as error:  # noqa: BLE001 - the test inspects it
            outcomes[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


# -- append and read back ------------------------------------------------------------------

def test_opening_a_session_appends_session_opened_as_version_one(ledger):
    result = ledger.open_session(open_command(), WriteRequest(ACTOR))

    assert result.replayed is False
    assert result.body["version"] == 1
    [event] = result.body["appended"]
    assert event["type"] == "SessionOpened"
    assert event["version"] == 1
    assert event["actor"] == ACTOR
    assert event["payload"]["players"] == PLAYERS
    assert datetime.fromisoformat(event["recorded_at"]).utcoffset().total_seconds() == 0
    assert result.body["session"]["seats"] == PLAYERS
    assert ledger.session(result.body["session_id"]) == result.body["session"]
    assert ledger.session_exists(result.body["session_id"])


def test_appended_events_read_back_in_order_with_versions_one_to_n(ledger):
    opened = ledger.open_session(open_command(), WriteRequest(ACTOR))
    session_id = opened.body["session_id"]
    appended = list(opened.body["appended"])
    appended += ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR)).body["appended"]
    for command in quick_deal(ledger.session(session_id)):
        appended += ledger.append(session_id, [command], WriteRequest(ACTOR)).body["appended"]

    log = ledger.events(session_id, limit=1000)["events"]

    assert log == appended
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    positions = [e["position"] for e in log]
    assert positions == sorted(set(positions))
    assert [e["type"] for e in log[:3]] == ["SessionOpened", "DealStarted", "DealSettled"]
    assert log[-1]["type"] == "DealSettled"
    assert ledger.session(session_id)["version"] == len(log)


def test_a_batch_is_appended_with_consecutive_versions_in_one_response(ledger):
    session_id = open_session(ledger)
    ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR))

    result = ledger.append(session_id, quick_deal(ledger.session(session_id)),
                           WriteRequest(ACTOR, expected_version=3))

    versions = [e["version"] for e in result.body["appended"]]
    assert versions == list(range(4, 4 + len(versions)))
    assert result.body["version"] == versions[-1] == result.body["session"]["version"]
    assert result.body["appended"][-1]["type"] == "DealSettled"


def test_a_batch_that_ends_one_deal_and_starts_the_next_stores_both_deal_views(ledger):
    session_id = open_session(ledger)
    ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR))
    second = quick_deal(ledger.session(session_id))
    *most, last_trick = second
    ledger.append(session_id, most, WriteRequest(ACTOR))

    ledger.append(session_id, [last_trick, StartDeal(trump_card="2D")], WriteRequest(ACTOR))

    assert ledger.deal(session_id, 2)["phase"] == "settled"
    assert ledger.deal(session_id, 3)["phase"] == "declaring"
    assert ledger.deal(session_id, 3)["trump_card"] == "2D"
    assert ledger.verify(session_id) == []



def test_payloads_and_projections_keep_the_order_their_keys_were_written_in(ledger):
    session_id = open_session(ledger)
    dealt = ["Ben", "Cat", "Dan", "Eve", "Ann"]  # from the dealer's left, the dealer last

    appended = ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR)).body["appended"]

    assert list(appended[0]["payload"]["face_up"]) == dealt
    assert list(ledger.events(session_id)["events"][1]["payload"]["face_up"]) == dealt
    assert list(ledger.deal(session_id, 1)["face_up"]) == dealt
    assert list(rebuilt(ledger.engine, session_id)[0]["deal"]["face_up"]) == dealt

# -- refusals leave no trace ---------------------------------------------------------------

def test_an_expected_version_behind_the_stream_is_a_conflict_naming_the_current_version(ledger):
    session_id = open_session(ledger)
    ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR))

    with pytest.raises(ConcurrencyConflict) as refused:
        ledger.append(session_id, [StartDeal(trump_card="9S")],
                      WriteRequest(ACTOR, expected_version=1))

    assert refused.value.current_version == 3
    assert refused.value.expected_version == 1
    assert refused.value.code == "version-conflict"
    assert refused.value.to_dict()["current_version"] == 3
    assert ledger.session(session_id)["version"] == 3


def test_a_batch_whose_later_command_is_refused_appends_nothing(ledger, engine):
    session_id = open_session(ledger)
    ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR))
    before = ledger.session(session_id)
    events_before = count(engine, events)

    with pytest.raises(LedgerError):
        ledger.append(session_id, [StartDeal(trump_card="9S"),
                                   Declare(player="Nobody", declaration="play")],
                      WriteRequest(ACTOR))

    assert count(engine, events) == events_before
    assert ledger.session(session_id) == before
    with pytest.raises(DealNotFound):
        ledger.deal(session_id, 2)
    assert ledger.verify(session_id) == []


def test_an_empty_batch_is_refused(ledger):
    session_id = open_session(ledger)
    with pytest.raises(InvalidInput):
        ledger.append(session_id, [], WriteRequest(ACTOR))


def test_an_unknown_session_is_not_found_for_every_call(ledger):
    missing = "0" * 32
    for call in (lambda: ledger.session(missing), lambda: ledger.statement(missing),
                 lambda: ledger.statement_csv(missing), lambda: ledger.deal(missing, 1),
                 lambda: ledger.events(missing), lambda: ledger.rebuild(missing),
                 lambda: ledger.append(missing, [turn_up_single()], WriteRequest(ACTOR))):
        with pytest.raises(SessionNotFound) as refused:
            call()
        assert refused.value.code == "not-found"
    assert not ledger.session_exists(missing)


def test_a_deal_not_yet_dealt_is_not_found(ledger):
    session_id = open_session(ledger)
    with pytest.raises(DealNotFound) as refused:
        ledger.deal(session_id, 1)
    assert refused.value.code == "not-found"


# -- idempotency ---------------------------------------------------------------------------

def test_a_repeated_key_on_open_returns_the_first_response_and_opens_nothing(ledger, engine):
    first = ledger.open_session(open_command(),
                                WriteRequest(ACTOR, idempotency_key="k-open", fingerprint="f1"))

    again = ledger.open_session(open_command(),
                                WriteRequest(ACTOR, idempotency_key="k-open", fingerprint="f1"))

    assert again.replayed is True
    assert body(again) == body(first)
    assert count(engine, sessions) == 1
    assert count(engine, events) == 1


def test_a_repeated_key_on_append_returns_the_first_response_and_appends_nothing(ledger,
                                                                               engine):
    session_id = open_session(ledger)
    first = ledger.append(session_id, [turn_up_single()],
                          WriteRequest(ACTOR, expected_version=1, idempotency_key="k-1"))
    events_after = count(engine, events)

    # The retry still names version 1: the stream moved on because of this very request.
    again = ledger.append(session_id, [turn_up_single()],
                          WriteRequest(ACTOR, expected_version=1, idempotency_key="k-1"))

    assert again.replayed is True
    assert body(again) == body(first)
    assert count(engine, events) == events_after


def test_a_key_reused_for_a_different_request_is_refused(ledger):
    session_id = open_session(ledger)
    ledger.append(session_id, [turn_up_single()],
                  WriteRequest(ACTOR, idempotency_key="k-2", fingerprint="deal one"))

    with pytest.raises(IdempotencyKeyReused) as refused:
        ledger.append(session_id, [StartDeal(trump_card="9S")],
                      WriteRequest(ACTOR, idempotency_key="k-2", fingerprint="deal two"))

    assert refused.value.code == "idempotency-key-reuse"
    assert refused.value.rule == "idempotency-key-reuse"
    assert ledger.session(session_id)["version"] == 3


def test_without_a_fingerprint_the_commands_themselves_tell_requests_apart(ledger):
    session_id = open_session(ledger)
    ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR, idempotency_key="k-3"))
    with pytest.raises(IdempotencyKeyReused):
        ledger.append(session_id, [StartDeal(trump_card="9S")],
                      WriteRequest(ACTOR, idempotency_key="k-3"))


def test_a_key_is_scoped_to_its_session(ledger):
    one, two = open_session(ledger), open_session(ledger)
    ledger.append(one, [turn_up_single()],
                  WriteRequest(ACTOR, idempotency_key="same", fingerprint="x"))

    result = ledger.append(two, [turn_up_single()],
                           WriteRequest(ACTOR, idempotency_key="same", fingerprint="x"))

    assert result.replayed is False
    assert result.body["session_id"] == two


def test_a_refused_request_stores_nothing_under_its_key(ledger, engine):
    session_id = open_session(ledger)
    with pytest.raises(LedgerError):
        ledger.append(session_id, [Declare(player="Ann", declaration="play")],
                      WriteRequest(ACTOR, idempotency_key="k-4", fingerprint="early"))
    assert count(engine, idempotency_keys) == 0

    result = ledger.append(session_id, [turn_up_single()],
                           WriteRequest(ACTOR, idempotency_key="k-4", fingerprint="fixed"))

    assert result.replayed is False


# -- the log is append-only ----------------------------------------------------------------

def test_the_events_table_refuses_update(ledger, engine):
    open_session(ledger)
    with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
        conn.execute(update(events).values(actor="someone else"))
    with engine.connect() as conn:
        assert conn.scalar(select(events.c.actor)) == ACTOR


def test_the_events_table_refuses_delete(ledger, engine):
    open_session(ledger)
    with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
        conn.execute(events.delete())
    assert count(engine, events) == 1


@pytest.mark.backends("postgresql")
def test_the_events_table_refuses_truncate_on_postgresql(ledger, engine):
    open_session(ledger)
    with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
        conn.execute(text("TRUNCATE events"))
    assert count(engine, events) == 1


# -- paging --------------------------------------------------------------------------------

def test_events_are_paged_by_position(ledger):
    session_id = open_session(ledger)
    play_deals(ledger, session_id, 2)
    everything = ledger.events(session_id, limit=1000)["events"]

    pages, after = [], 0
    while True:
        page = ledger.events(session_id, after_position=after, limit=4)
        pages.append(page["events"])
        if page["next_after"] is None:
            break
        assert page["next_after"] == page["events"][-1]["position"]
        after = page["next_after"]

    assert [e for page in pages for e in page] == everything
    assert all(len(page) == 4 for page in pages[:-1])
    assert 1 <= len(pages[-1]) <= 4


def test_a_page_after_the_last_event_is_empty(ledger):
    session_id = open_session(ledger)
    last = ledger.events(session_id)["events"][-1]["position"]
    assert ledger.events(session_id, after_position=last) == {"events": [], "next_after": None}


def test_paging_keeps_to_one_session(ledger):
    one, two = open_session(ledger), open_session(ledger)
    ledger.append(two, [turn_up_single()], WriteRequest(ACTOR))
    assert [e["type"] for e in ledger.events(one)["events"]] == ["SessionOpened"]


@pytest.mark.parametrize("limit", [0, 1001, -5])
def test_a_page_limit_outside_one_to_a_thousand_is_refused(ledger, limit):
    session_id = open_session(ledger)
    with pytest.raises(InvalidInput) as refused:
        ledger.events(session_id, limit=limit)
    assert refused.value.rule == "page-limit"


# -- projections equal a rebuild -----------------------------------------------------------

def test_the_projections_after_many_appends_equal_a_rebuild_from_the_log(ledger):
    session_id = open_session(ledger)
    play_deals(ledger, session_id, 4)
    ledger.append(session_id, [StartDeal(trump_card="QC")], WriteRequest(ACTOR))  # one left open

    state, views = rebuilt(ledger.engine, session_id)

    assert ledger.verify(session_id) == []
    assert sorted(views) == [1, 2, 3, 4, 5]
    assert {n: ledger.deal(session_id, n) for n in views} == views
    assert state["version"] == ledger.session(session_id)["version"]


def test_verify_names_a_projection_that_drifted_from_the_log(ledger, engine):
    session_id = open_session(ledger)
    play_deals(ledger, session_id, 2)
    with engine.begin() as conn:
        state = conn.scalar(select(sessions.c.state).where(sessions.c.id == session_id))
        state["balances"]["Ann"] += 1
        conn.execute(update(sessions).where(sessions.c.id == session_id).values(state=state))
        conn.execute(deal_views.delete().where(deal_views.c.deal_no == 1))

    differences = ledger.verify(session_id)

    assert any(d.startswith("state.balances.Ann") for d in differences)
    assert "deal_views.1: rebuilt only" in differences


def test_the_statement_is_read_from_the_projection(ledger):
    session_id = open_session(ledger)
    play_deals(ledger, session_id, 3)
    ledger.append(session_id, [EndSession(method="divide-pool")], WriteRequest(ACTOR))

    statement = ledger.statement(session_id)
    csv_text = ledger.statement_csv(session_id)

    assert statement
    assert isinstance(csv_text, str) and "Ann" in csv_text
    assert ledger.verify(session_id) == []


# -- concurrency ---------------------------------------------------------------------------

def test_two_writers_at_the_same_expected_version_one_wins_the_other_conflicts(engine):
    ledger = club_ledger(engine)
    session_id = open_session(ledger)
    ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR))

    def write(trump: str):
        return lambda: ledger.append(session_id, [StartDeal(trump_card=trump)],
                                     WriteRequest(ACTOR, expected_version=3))

    outcomes = run_together(write("9S"), write("2D"))

    wins = [o.body for o in outcomes if isinstance(o, AppendResult)]
    conflicts = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
    assert len(wins) == 1 and len(conflicts) == 1
    assert conflicts[0].current_version == wins[0]["version"] == 4
    assert ledger.verify(session_id) == []


def test_a_version_taken_in_the_log_under_the_projection_becomes_a_conflict(ledger, engine):
    session_id = open_session(ledger)
    # Another writer's event at version 2, committed without its projection update.
    with engine.begin() as conn:
        conn.execute(insert(events).values(
            stream_id=session_id, club_id=ledger.club_id, version=2, type="LastRoundStarted",
            schema_version=1,
            payload={"deals": 5}, recorded_at=datetime.now().astimezone(), actor="other"))

    with pytest.raises(ConcurrencyConflict) as refused:
        ledger.append(session_id, [turn_up_single()], WriteRequest(ACTOR))

    assert refused.value.current_version == 2
    assert refused.value.expected_version == 1


# -- clubs ---------------------------------------------------------------------------------

def club(ledger: Ledger, name: str) -> str:
    """A club whose members are the helpers' players."""
    clubs = Clubs(ledger.engine)
    club_id = clubs.create_club(name)[0]["club_id"]
    for player in PLAYERS:
        clubs.add_member(club_id, player)
    return club_id


def test_a_clubs_ledger_sees_only_that_clubs_sessions(ledger):
    ours = ledger.for_club(club(ledger, "lanterloo-whist-and-loo"))
    theirs = ledger.for_club(club(ledger, "another-club"))
    session_id = ours.open_session(open_command(), WriteRequest(ACTOR)).body["session_id"]
    ours.append(session_id, [turn_up_single()], WriteRequest(ACTOR))

    assert ours.session(session_id)["session_id"] == session_id
    assert not theirs.session_exists(session_id)
    with pytest.raises(SessionNotFound):
        theirs.append(session_id, [turn_up_single()], WriteRequest(ACTOR))
    for read in (theirs.session, theirs.statement, theirs.statement_csv, theirs.events,
                 theirs.rebuild, theirs.verify, lambda s: theirs.deal(s, 1)):
        with pytest.raises(SessionNotFound):
            read(session_id)
    assert ours.deal(session_id, 1)["deal_no"] == 1


def test_an_open_idempotency_key_is_scoped_to_the_club(ledger):
    ours, theirs = ledger.for_club(club(ledger, "a")), ledger.for_club(club(ledger, "b"))
    first = ours.open_session(open_command(),
                              WriteRequest(ACTOR, idempotency_key="k", fingerprint="x"))
    second = theirs.open_session(open_command(),
                                 WriteRequest(ACTOR, idempotency_key="k", fingerprint="x"))
    assert second.replayed is False
    assert second.body["session_id"] != first.body["session_id"]


def test_the_same_key_sent_twice_at_once_opens_one_session(engine):
    ledger = club_ledger(engine)

    def open_it():
        return ledger.open_session(open_command(), WriteRequest(ACTOR, idempotency_key="k-race",
                                                                fingerprint="same"))

    first, second = run_together(open_it, open_it)

    assert isinstance(first, AppendResult) and isinstance(second, AppendResult), (first, second)
    assert body(first) == body(second)
    assert sorted([first.replayed, second.replayed]) == [False, True]
    assert count(engine, sessions) == 1


@pytest.mark.backends("postgresql")
def test_a_twin_that_commits_between_the_read_and_the_write_is_answered_with_its_answer(
        engine, monkeypatch):
    """PostgreSQL reads the head without a lock: a twin request (same key, same version) that
    commits after this one read the head finds it, here made to happen every time, and this
    one's write, finding the row moved, gets the twin's answer, not a 409."""
    from ledger.store.postgres import PostgresTx

    ledger = club_ledger(engine)
    session_id = open_session(ledger)
    request = WriteRequest(ACTOR, expected_version=1, idempotency_key="k-between",
                           fingerprint="same")
    read = PostgresTx.session_head
    twin: list[AppendResult] = []

    def read_then_let_the_twin_in(self, *args, **kwargs):
        head = read(self, *args, **kwargs)
        if not twin:  # the first read only: the twin runs to its commit in between
            twin.append(None)  # type: ignore[arg-type]
            done = threading.Thread(target=lambda: twin.append(
                ledger.append(session_id, [turn_up_single()], request)))
            done.start()
            done.join()
        return head

    monkeypatch.setattr(PostgresTx, "session_head", read_then_let_the_twin_in)
    answer = ledger.append(session_id, [turn_up_single()], request)

    assert answer.replayed and body(answer) == body(twin[1])
    assert ledger.session(session_id)["version"] == 3


def test_the_same_key_sent_twice_at_once_appends_once(engine):
    ledger = club_ledger(engine)
    session_id = open_session(ledger)

    def deal():
        return ledger.append(session_id, [turn_up_single()], WriteRequest(
            ACTOR, expected_version=1, idempotency_key="k-race", fingerprint="same"))

    first, second = run_together(deal, deal)

    assert isinstance(first, AppendResult) and isinstance(second, AppendResult), (first, second)
    assert body(first) == body(second)
    assert ledger.session(session_id)["version"] == 3
