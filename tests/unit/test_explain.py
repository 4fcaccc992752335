"""Every unit explained, and the state as of any version, in memory (docs/explain.md).

The trail of each figure sums exactly to the figure, per category too, and the figures are the
statement's; each posting names the rule that decided it. The state as of a version, found from
snapshots and the events after them, is the fold of the live events of the log up to it, across
corrections.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.domain import OpenSession, execute, statement
from ledger.domain import commands as cmd
from ledger.domain.asof import in_memory, snapshot_due, state_at
from ledger.domain.corrections import client_command, correct, live_events
from ledger.domain.errors import InvalidInput, LedgerError
from ledger.domain.events import Event
from ledger.domain.evolve import evolve
from ledger.domain.explain import RULES, Logged, explain, explain_csv
from ledger.domain.state import SessionState
from ledger.domain.vocabulary import Reason
from tests.support.sessions import (
    VARIANT_NAMES,
    DrawChooser,
    RandomChooser,
    SessionShape,
    play_session,
)

SHAPE = SessionShape(min_deals=1, max_deals=6, variants=VARIANT_NAMES)


def logged(log: list[tuple[int, Event]]) -> list[Logged]:
    """The live events of a log as the store would give them (positions 10 apart)."""
    return [Logged(version=v, position=10 * v, recorded_at=f"2026-11-22T18:00:{v % 60:02d}Z",
                   actor="Tess", event=e) for v, e in live_events(log)]


def fold(log: list[tuple[int, Event]]) -> SessionState:
    state: SessionState | None = None
    for _, event in live_events(log):
        state = evolve(state, event, session_id="s")
    assert state is not None
    return state


def check_trail(trail: dict[str, Any], state: SessionState) -> None:
    """Each figure's postings sum to its net and per category to the category; the figures
    are the statement's (players) and the pools' flows and balances."""
    data = statement(state)
    players = {p["player"]: p for p in data["players"]}
    for fig in trail["figures"]:
        postings = fig["postings"]
        assert sum(p["signed_units"] for p in postings) == fig["net_units"]
        for name, units in fig["categories"].items():
            assert sum(p["signed_units"] for p in postings if p["category"] == name) == units
        assert fig["net_units"] == state.balances[fig["account"]]
        for p in postings:
            assert p["signed_units"] == (p["amount_units"] if p["to"] == fig["account"]
                                         else -p["amount_units"])
            assert all(isinstance(p["rule"][k], str) and p["rule"][k]
                       for k in ("preset", "parameter", "law", "source", "docs"))
            assert p["rule"]["docs"].startswith("docs/rules.md §")
        if fig["kind"] == "player":
            line = players[fig["account"]]
            assert {k: -v for k, v in fig["categories"].items() if v < 0} == line["paid_units"]
            assert {k: v for k, v in fig["categories"].items() if v > 0} == \
                line["received_units"]
            assert fig["net_units"] == line["net_units"]
        else:
            flows = {k.split(":", 1)[1]: v for k, v in state.pool_flows.items()
                     if k.split(":", 1)[0] == fig["account"]}
            assert fig["categories"] == dict(sorted(flows.items()))


def with_corrections(draw: Any, played: Any) -> list[tuple[int, Event]]:
    """The played log, with a few corrections that void an entry and put it back."""
    log = list(enumerate(played.events, start=1))
    for _ in range(draw(st.integers(0, 3))):
        state: SessionState | None = None
        entries = []
        for version, event in live_events(log):
            command = client_command(event, state)
            if command is not None:
                entries.append((version, command))
            state = evolve(state, event, session_id="s")
        if len(entries) < 2:
            break
        version, command = entries[draw(st.integers(1, len(entries) - 1))]
        try:
            _, events = correct(log, voids=[version], replacements=[command], reason="again",
                                authorised_by="Tess", session_id="s")
        except LedgerError:
            continue
        log += [(len(log) + 1 + i, e) for i, e in enumerate(events)]
    return log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_figure_of_a_random_session_is_the_sum_of_its_trail(data):
    played = play_session(DrawChooser(data.draw), shape=SHAPE)
    log = with_corrections(data.draw, played)
    state = fold(log)
    trail = explain("s", logged(log), version=len(log))
    check_trail(trail, state)
    assert [f["account"] for f in trail["figures"]] == [*state.seats, "pool", "next_pool"]
    one = state.seats[-1]
    alone = explain("s", logged(log), version=len(log), player=one)
    assert alone["figures"] == [f for f in trail["figures"] if f["account"] == one]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_state_as_of_any_version_is_the_fold_of_the_log_up_to_it(data):
    played = play_session(DrawChooser(data.draw), shape=SHAPE)
    log = with_corrections(data.draw, played)
    every = data.draw(st.integers(1, 12))
    folded = {v: fold(log[:v]).to_dict() for v in range(1, len(log) + 1)}
    snapshots = {v: folded[v] for v in range(every, len(log) + 1, every)}
    snapshot, events, last_correction = in_memory(log, snapshots)
    for version in range(1, len(log) + 1):
        found = state_at(version, snapshot=snapshot, events=events,
                         last_correction=last_correction, session_id="s")
        assert found.to_dict() == folded[version], version


def test_the_state_as_of_a_version_needs_no_snapshot_at_all():
    played = play_session(RandomChooser(5), shape=SessionShape(min_deals=3, max_deals=3))
    log = list(enumerate(played.events, start=1))
    snapshot, events, last_correction = in_memory(log)
    found = state_at(len(log), snapshot=snapshot, events=events,
                     last_correction=last_correction, session_id="s")
    assert found.to_dict() == fold(log).to_dict()


def test_an_append_keeps_a_snapshot_only_when_it_crosses_a_multiple_of_the_interval():
    assert snapshot_due(99, 100, 100) and snapshot_due(98, 103, 100)
    assert not snapshot_due(100, 101, 100) and not snapshot_due(0, 99, 100)
    assert not snapshot_due(5, 500, 0)


def test_the_rule_table_has_one_entry_per_posting_reason():
    assert set(RULES) == set(Reason)


# ---------------------------------------------------------------- worked examples

def play(opening: OpenSession, commands: list[cmd.Command]) -> list[tuple[int, Event]]:
    state, events = execute(None, opening, session_id="s")
    for command in commands:
        state, produced = execute(state, command)
        events += produced
    return list(enumerate(events, start=1))


EXAMPLE_1 = cmd.StartDeal(trump_card="7H", face_up={"A": "5C", "B": "9H", "C": "KS", "D": "QH",
                                                    "E": "2H"})
EXAMPLE_2 = [cmd.StartDeal(trump_card="2S"),
             *(cmd.Declare(player=p, declaration=d) for p, d in
               (("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
                ("B", "throw_up"))),
             cmd.PlayCard(player="C", card="AH"), cmd.PlayCard(player="D", card="3H"),
             cmd.PlayCard(player="E", card="4H"), cmd.PlayCard(player="C", card="KD"),
             cmd.PlayCard(player="D", card="AD"), cmd.PlayCard(player="E", card="5D"),
             cmd.PlayCard(player="D", card="7C"), cmd.PlayCard(player="E", card="8C"),
             cmd.PlayCard(player="C", card="9C")]


def figure_of(trail: dict[str, Any], account: str) -> dict[str, Any]:
    return next(f for f in trail["figures"] if f["account"] == account)


def test_bs_single_loo_in_deal_1_names_baxter_wray_p18_and_the_single_loo_parameter():
    opening = OpenSession(players=["A", "B", "C", "D", "E"], preset="baxter-wray",
                          first_dealer="A")
    log = play(opening, [EXAMPLE_1])
    b = figure_of(explain("s", logged(log), version=len(log)), "B")
    assert b["net_units"] == -3 and b["categories"] == {"single_loo": -3}
    [loo] = b["postings"]
    assert (loo["deal_no"], loo["from"], loo["to"], loo["signed_units"]) == (1, "B", "next_pool",
                                                                            -3)
    assert loo["event_type"] == "DealSettled" and loo["version"] == 3
    assert loo["rule"] == {"preset": "baxter-wray", "parameter": "single_loo = 3",
                           "law": loo["rule"]["law"], "source": "Baxter-Wray p. 18",
                           "docs": "docs/rules.md §5.2, §4.5"}


def test_es_loo_of_6_in_deal_2_names_the_loo_amount_and_baxter_wray_p16():
    opening = OpenSession(players=["A", "B", "C", "D", "E"], preset="baxter-wray",
                          first_dealer="A")
    log = play(opening, [EXAMPLE_1, *EXAMPLE_2])
    trail = explain("s", logged(log), version=len(log))
    e = figure_of(trail, "E")
    assert e["net_units"] == -9 and e["categories"] == {"loo": -6, "single_loo": -3}
    loo = next(p for p in e["postings"] if p["category"] == "loo")
    assert loo["deal_no"] == 2 and loo["amount_units"] == 6
    assert loo["rule"]["parameter"] == "loo = limited, loo_amount = 6"
    assert loo["rule"]["source"] == "Baxter-Wray p. 16"
    # C's two tricks of a pool of 15: 5 each, Baxter-Wray p. 22
    c = figure_of(trail, "C")
    tricks = [p for p in c["postings"] if p["category"] == "trick"]
    assert [p["amount_units"] for p in tricks] == [5, 5]
    assert tricks[0]["rule"]["source"] == "Baxter-Wray p. 22"
    assert "the pool held 15" in tricks[0]["rule"]["parameter"]
    # B's deal price of 3 for deal 2
    b = figure_of(trail, "B")
    deal = next(p for p in b["postings"] if p["category"] == "deal")
    assert deal["rule"]["parameter"] == "deal_price = 3" and deal["deal_no"] == 2
    # §10.5: the nets, and the next pool holds E's 6
    assert {f["account"]: f["net_units"] for f in trail["figures"]} == {
        "A": -6, "B": -6, "C": 7, "D": 8, "E": -9, "pool": 0, "next_pool": 6}


def test_a_blenheim_ante_names_the_ante_and_the_blenheim_club():
    opening = OpenSession(players=["A", "B", "C"], preset="blenheim", first_dealer="A")
    log = play(opening, [cmd.StartDeal(trump_card="7H")])
    b = figure_of(explain("s", logged(log), version=len(log)), "B")
    [ante] = b["postings"]
    assert ante["category"] == "ante" and ante["amount_units"] == 3
    assert ante["rule"]["parameter"] == "ante = 3"
    assert ante["rule"]["source"] == "Britannica, laws of the Blenheim Club"
    a = figure_of(explain("s", logged(log), version=len(log)), "A")
    assert a["postings"][0]["rule"]["parameter"] == "fresh_deal_price = 6"


def test_a_penalty_takes_the_law_of_its_penalty_imposed_event():
    opening = OpenSession(players=["A", "B", "C"], preset="baxter-wray", first_dealer="A")
    log = play(opening, [cmd.StartDeal(trump_card="7H", face_up={"A": "2C", "B": "3C",
                                                                 "C": "4C"}),
                         cmd.StartDeal(trump_card="2S"),
                         cmd.ImposePenalty(player="C", offence="looked-at-own-cards")])
    c = figure_of(explain("s", logged(log), version=len(log)), "C")
    penalty = next(p for p in c["postings"] if p["category"] == "penalty:looked-at-own-cards")
    imposed = next(e for _, e in log if e.type == "PenaltyImposed")
    assert penalty["rule"]["law"] == imposed.law  # type: ignore[attr-defined]
    assert penalty["rule"]["source"] == "Baxter-Wray p. 24"
    assert "single_loo = 3" in penalty["rule"]["parameter"]
    assert penalty["offence"] == "looked-at-own-cards" and penalty["event_type"] == \
        "PenaltyImposed"


def test_a_five_card_trick_is_a_fifth_of_the_pool():
    played = play_session(RandomChooser(7), shape=SessionShape(
        min_deals=6, max_deals=6, variants=("five-card",), preset="enquire-within"))
    log = list(enumerate(played.events, start=1))
    trail = explain("s", logged(log), version=len(log))
    tricks = [p for f in trail["figures"] for p in f["postings"] if p["category"] == "trick"]
    assert tricks and all("a fifth" in p["rule"]["law"] for p in tricks)
    assert all(p["rule"]["docs"] == "docs/rules.md §9.3, §5.7" for p in tricks)


def test_explaining_a_player_who_never_sat_is_refused_naming_player():
    opening = OpenSession(players=["A", "B", "C"], preset="baxter-wray", first_dealer="A")
    log = play(opening, [])
    with pytest.raises(InvalidInput) as refused:
        explain("s", logged(log), version=1, player="Zed")
    assert refused.value.field == "player"


def test_the_trail_as_csv_has_a_row_per_posting_and_each_figures_net():
    opening = OpenSession(players=["A", "B", "C", "D", "E"], preset="baxter-wray",
                          first_dealer="A")
    log = play(opening, [EXAMPLE_1])
    text = explain_csv(explain("s", logged(log), version=len(log)))
    rows = text.splitlines()
    assert rows[0].startswith("account,kind,version,position,event_type")
    assert "B,player,3,30,DealSettled" in text
    assert "single_loo = 3" in text and "Baxter-Wray p. 18" in text
    assert "B,player,-3,single_loo -3" in text


def test_a_name_a_spreadsheet_would_run_is_quoted_in_every_cell_of_the_trail_csv():
    # "=A" deals (3 to the pool) and is single-looed (3 to the next pool) in deal 1: his name
    # is the account, the payer and a figure, each a cell that must not run as a formula
    opening = OpenSession(players=["=A", "B", "C", "D", "E"], preset="baxter-wray",
                          first_dealer="=A")
    log = play(opening, [cmd.StartDeal(trump_card="7H", face_up={
        "=A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"})])
    text = explain_csv(explain("s", logged(log), version=len(log)))
    rows = [r for r in text.splitlines() if "=A" in r]
    assert rows and all("'=A" in r and ",=A" not in r and not r.startswith("=") for r in rows)
    assert "'=A,player,2,20,DealStarted" in text and ",'=A,pool,3,-3,deal," in text
