"""The audit queries across a club's sessions (ledger/audit/queries.py), on SQLite and PostgreSQL.

Random sessions of the generator (tests/support/sessions.py) are logged into a club by two
devices, with undos now and then; a plain model read from the whole log says which events
each filter keeps. Every page must hold only such events, and paging through must give each
of them exactly once, in the log's order.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select

from ledger.audit.queries import LATER, REGISTER_TYPES, Audit, Filters
from ledger.clubs.service import Actor, Clubs
from ledger.domain import InvalidInput, LedgerError, event_from_record
from ledger.domain.corrections import live_events
from ledger.sessions.service import Ledger
from ledger.store.tables import events, sessions
from ledger.writes import WriteRequest
from tests.clubs import Club, make_club
from tests.support.sessions import RandomChooser, SessionShape, play_session
from tests.support.sessions import sessions as played_sessions

SHAPE = SessionShape(min_deals=2, max_deals=5, p_penalty=0.15, p_in_play_penalty=0.08,
                     p_illegal_card=0.25, p_illegal_try=0.0)


def batches(steps: list[Any]) -> list[list[Any]]:
    """The accepted steps after the opening, a deal's worth at a time."""
    out: list[list[Any]] = [[]]
    for step in steps[1:]:
        if not step.accepted:
            continue
        out[-1].append(step)
        if any(e.type in ("DealSettled", "SessionEnded") for e in step.events):
            out.append([])
    return [b for b in out if b]


@dataclass
class World:
    engine: Engine
    club: Club
    ledger: Ledger
    audit: Audit
    session_ids: list[str] = field(default_factory=list)
    actors: list[Actor] = field(default_factory=list)

    def actor_ids(self) -> dict[str, str]:
        """The actor filters the tests send, and the member each names (id, or name in any
        case)."""
        dealer, treasurer = self.club.members["dealer"], self.club.members["treasurer"]
        return {dealer: dealer, "treasurer": treasurer, "Dealer": dealer}

    def log(self) -> list[dict[str, Any]]:
        """Every event of the club's sessions, decoded, with the model's answers."""
        with self.engine.connect() as conn:
            rows = list(conn.execute(
                select(events).join(sessions, sessions.c.id == events.c.stream_id)
                .where(sessions.c.club_id == self.club.club_id).order_by(events.c.position)))
        by_session: dict[str, list[Any]] = {}
        for r in rows:
            by_session.setdefault(r.stream_id, []).append(r)
        live: set[tuple[str, int]] = set()
        seats: dict[str, dict[str, str]] = {}
        for sid, rs in by_session.items():
            log = [(r.version, event_from_record(r.type, r.schema_version, r.payload))
                   for r in sorted(rs, key=lambda r: r.version)]
            live |= {(sid, v) for v, _ in live_events(log)}
            seats[sid] = dict(log[0][1].members)  # type: ignore[attr-defined]
        return [{"row": r, "live": (r.stream_id, r.version) in live,
                 "seats": seats[r.stream_id]} for r in rows]


def build(engine: Engine, played: list[Any], *, seed: int, undos: bool = True) -> World:
    club = make_club(engine)
    clubs = Clubs(engine)
    tablet = clubs.create_token(club.club_id, "dealer", "dealer", "tablet 2")
    ledger = Ledger(engine).for_club(club.club_id)
    world = World(engine, club, ledger, Audit.of(ledger))
    treasurer = Actor("treasurer", club.members["treasurer"], club.token_ids["treasurer"])
    world.actors = [Actor("dealer", club.members["dealer"], club.token_ids["dealer"]),
                    Actor("dealer", club.members["dealer"], tablet["token_id"]), treasurer]
    rng = random.Random(seed)
    for p in played:
        opening = dataclasses.replace(p.opening, members={})
        sid = ledger.open_session(opening, WriteRequest(treasurer),
                                  guests=list(opening.players)).body["session_id"]
        world.session_ids.append(sid)
        for batch in batches(p.steps):
            ledger.append(sid, [s.command for s in batch], WriteRequest(rng.choice(world.actors)))
            if undos and rng.random() < 0.15:
                try:
                    ledger.undo(sid, reason="mistyped", request=WriteRequest(treasurer))
                except LedgerError:
                    pass  # nothing the rules let an undo void here
                break  # the rest no longer follows the corrected log
    return world


def random_sessions(seed: int, count: int) -> list[Any]:
    return [play_session(RandomChooser(seed * 100 + i), shape=SHAPE) for i in range(count)]


@pytest.fixture
def world(engine: Engine) -> World:
    built = build(engine, random_sessions(7, 5), seed=7)
    # another club's sessions, which no query of ours may show
    build(engine, random_sessions(8, 2), seed=8)
    return built


def every_page(query: Any, filters: Filters, limit: int, key: str) -> list[list[dict]]:
    pages, after = [], 0
    while True:
        page = query(filters, after=after, limit=limit)
        pages.append(page[key])
        if page["next_after"] is None:
            return pages
        assert page[key] and page["next_after"] == page[key][-1]["position"]
        after = page["next_after"]


def about(row: Any) -> list[str]:
    return [v for k in ("player", "winner", "dealer") if isinstance(v := row.payload.get(k),
                                                                    str)]


def keeps(e: dict[str, Any], f: Filters, world: World, *, register: bool = False) -> bool:
    """The model: does the filter keep this event (read straight from the log)?"""
    r = e["row"]
    if register and r.type not in REGISTER_TYPES:
        return False
    if f.session_id is not None and r.stream_id != f.session_id:
        return False
    if f.type is not None and r.type != f.type:
        return False
    if f.offence is not None and (r.type != "PenaltyImposed"
                                  or r.payload["offence"] != f.offence):
        return False
    if f.breach is not None and (r.type != "BreachDetected" or r.payload["rule"] != f.breach):
        return False
    if f.member_id is not None:
        names = [r.payload["player"]] if register else about(r)
        if not any(e["seats"].get(n) == f.member_id for n in names):
            return False
    if f.actor is not None and r.member_id != world.actor_ids()[f.actor]:
        return False
    if f.token_id is not None and r.token_id != f.token_id:
        return False
    moment = r.recorded_at if r.recorded_at.tzinfo else r.recorded_at.replace(tzinfo=UTC)
    if f.since is not None and moment < f.since:
        return False
    return not (f.until is not None and moment >= f.until)


@st.composite
def filters_for(draw: Any, world: World, log: list[dict[str, Any]],
                register: bool) -> Filters:
    rows = [e["row"] for e in log]
    members = sorted({m for e in log for m in e["seats"].values()})
    moments = sorted({r.recorded_at if r.recorded_at.tzinfo else
                      r.recorded_at.replace(tzinfo=UTC) for r in rows})
    maybe = lambda s: draw(st.none() | s)  # noqa: E731
    since = maybe(st.sampled_from(moments))
    until = maybe(st.sampled_from([m + timedelta(microseconds=1) for m in moments]))
    if since is not None and until is not None and until <= since:
        since, until = until - timedelta(microseconds=1), since + timedelta(microseconds=1)
    # the same instants, written with any offset
    zone = timezone(timedelta(minutes=draw(st.integers(-12 * 60, 14 * 60))))
    since = since.astimezone(zone) if since is not None else None
    until = until.astimezone(zone) if until is not None else None
    return Filters(
        session_id=maybe(st.sampled_from(world.session_ids)),
        member_id=maybe(st.sampled_from(members)),
        type=maybe(st.sampled_from(list(REGISTER_TYPES) if register
                                   else sorted({r.type for r in rows}))),
        offence=maybe(st.sampled_from(sorted({r.payload["offence"] for r in rows
                                              if r.type == "PenaltyImposed"}) or ["revoke"])),
        breach=maybe(st.sampled_from(sorted({r.payload["rule"] for r in rows
                                             if r.type == "BreachDetected"}) or ["revoke"])),
        actor=maybe(st.sampled_from(sorted(world.actor_ids()))),
        token_id=maybe(st.sampled_from(sorted({a.token_id for a in world.actors
                                               if a.token_id}))),
        since=since, until=until)


def check_paging(world: World, log: list[dict[str, Any]], f: Filters, limit: int, *,
                 register: bool) -> None:
    query, key = (world.audit.penalties, "entries") if register else (world.audit.events,
                                                                      "events")
    expected = [e for e in log if keeps(e, f, world, register=register)]
    pages = every_page(query, f, limit, key)
    got = [row for page in pages for row in page]
    assert all(len(page) <= limit for page in pages)
    assert [r["position"] for r in got] == [e["row"].position for e in expected]
    for row, e in zip(got, expected, strict=True):
        assert row["session_id"] == e["row"].stream_id
        assert row["live"] is e["live"] and (row["superseded_by"] is None) is e["live"]


@pytest.mark.parametrize("register", [False, True], ids=["events", "register"])
def test_every_page_keeps_only_what_the_filters_say_and_paging_gives_each_once_in_order(
        world, register):
    log = world.log()
    assert any(not e["live"] for e in log), "the sessions have no undo to supersede"
    assert {"PenaltyImposed", "BreachDetected", "EntryCorrected"} <= {e["row"].type
                                                                      for e in log}

    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data: Any) -> None:
        f = data.draw(filters_for(world, log, register))
        limit = data.draw(st.integers(1, 9))
        check_paging(world, log, f, limit, register=register)

    run()


def test_no_filter_pages_through_the_club_log_and_nothing_of_another_club(world):
    log = world.log()
    check_paging(world, log, Filters(), 50, register=False)
    check_paging(world, log, Filters(), 7, register=True)


@settings(max_examples=4, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(played=st.lists(played_sessions(max_deals=4, shape=SHAPE, seeded=True), min_size=1,
                       max_size=3))
def test_the_register_lists_every_penalty_and_breach_of_the_sessions(engine, played):
    world = build(engine, played, seed=1, undos=False)
    register = [row for page in every_page(world.audit.penalties, Filters(), 500, "entries")
                for row in page]
    logged = [(sid, e) for sid, p in zip(world.session_ids, played, strict=True)
              for e in p.events if e.type in REGISTER_TYPES]
    assert [(r["session_id"], r["type"], r["deal_no"], r["player"]) for r in register] == \
        [(sid, e.type, e.deal_no, e.player) for sid, e in logged]  # type: ignore[attr-defined]
    for row, (_, e) in zip(register, logged, strict=True):
        assert row["live"] and row["superseded_by"] is None
        if row["kind"] == "penalty":
            assert (row["offence"], row["law"], row["detected"]) == (
                e.offence, e.law, e.detected)  # type: ignore[attr-defined]
            if row["charged_as"] is None:  # charged by its own postings, or not yet
                assert row["amount_units"] == e.amount_units  # type: ignore[attr-defined]
                assert row["paid_units"] == sum(p["amount_units"] for p in e.postings_list)
            else:  # fixed when the deal was settled: what the settlement charged
                assert e.amount_units is None  # type: ignore[attr-defined]
                assert str(e.destination) in LATER  # type: ignore[attr-defined]
                assert row["amount_units"] == row["paid_units"] > 0
        else:
            assert (row["breach"], row["detail"], row["detected"]) == (
                e.rule, e.detail, True)  # type: ignore[attr-defined]


def accounts(view: dict[str, Any]) -> dict[str, int]:
    return {**view["balances"], "pool": view["pool_units"],
            "next_pool": view["next_pool_units"]}


def test_a_correction_shows_what_it_voided_what_replaced_it_and_what_changed(engine):
    club = make_club(engine)
    ledger = Ledger(engine).for_club(club.club_id)
    treasurer = Actor("treasurer", club.members["treasurer"], club.token_ids["treasurer"])
    played = play_session(RandomChooser(3), shape=SessionShape(min_deals=3, max_deals=3,
                                                               p_illegal_try=0.0))
    opening = dataclasses.replace(played.opening, members={})
    sid = ledger.open_session(opening, WriteRequest(treasurer),
                              guests=list(opening.players)).body["session_id"]
    for batch in batches(played.steps):
        ledger.append(sid, [s.command for s in batch], WriteRequest(treasurer))
    before = accounts(ledger.session(sid))
    undone = ledger.undo(sid, reason="the last card was C's", request=WriteRequest(treasurer))
    after = accounts(ledger.session(sid))
    page = Audit.of(ledger).corrections()
    [row] = page["corrections"]
    marker = undone.body["appended"][0]
    assert row["position"] == marker["position"] and row["session_id"] == sid
    assert row["reason"] == "the last card was C's" and row["authorised_by"] == "treasurer"
    assert row["voids"] == marker["payload"]["voids"] and row["replacements"] == []
    changed = {k: after.get(k, 0) - before.get(k, 0) for k in set(before) | set(after)}
    assert row["changes"] == {k: v for k, v in changed.items() if v}
    assert row["live"] and row["device"] == "test treasurer"
    # the voided entry is no longer live in the event search, and names the correction
    voided = row["voids"][0]["version"]
    found = [e for e in Audit.of(ledger).events(Filters(session_id=sid), limit=500)["events"]
             if e["version"] == voided]
    assert found[0]["superseded_by"] == row["version"] and not found[0]["live"]


def test_another_clubs_session_member_or_token_in_a_filter_finds_nothing(world, engine):
    theirs = make_club(engine)
    their_ledger = Ledger(engine).for_club(theirs.club_id)
    theirs_audit = Audit.of(their_ledger)
    ours = world.session_ids[0]
    for f in (Filters(session_id=ours), Filters(member_id=world.club.members["dealer"]),
              Filters(token_id=world.club.token_ids["dealer"]),
              Filters(actor=world.club.members["dealer"])):
        assert theirs_audit.events(f) == {"events": [], "next_after": None}
        assert theirs_audit.penalties(f) == {"entries": [], "next_after": None}
        assert theirs_audit.corrections(f) == {"corrections": [], "next_after": None}


@pytest.mark.parametrize(("filters", "page", "field"), [
    (Filters(type="CardPlayd"), {}, "type"),
    (Filters(offence="cheating"), {}, "offence"),
    (Filters(breach="revoked"), {}, "breach"),
    (Filters(since=datetime(2026, 11, 22, 18, 0)), {}, "since"),
    (Filters(since=datetime(2026, 11, 22, tzinfo=UTC),
             until=datetime(2026, 11, 21, tzinfo=UTC)), {}, "until"),
    (Filters(), {"limit": 501}, "limit"),
    (Filters(), {"limit": 0}, "limit"),
    (Filters(), {"after": -1}, "after"),
])
def test_a_bad_filter_is_refused_naming_its_field(engine, filters, page, field):
    audit = Audit(engine, club_id=make_club(engine).club_id)
    with pytest.raises(InvalidInput) as refused:
        audit.events(filters, **page)
    assert refused.value.field == field


def test_the_register_takes_only_its_own_types_and_corrections_no_offence(engine):
    audit = Audit(engine, club_id=make_club(engine).club_id)
    with pytest.raises(InvalidInput) as refused:
        audit.penalties(Filters(type="CardPlayed"))
    assert refused.value.field == "type"
    with pytest.raises(InvalidInput) as refused:
        audit.corrections(Filters(offence="revoke"))
    assert refused.value.field == "offence"
