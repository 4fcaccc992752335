"""docs/rules.md §10: the worked examples (baxter-wray, stake 3, loo 6, single loo 3; five-card
loo in §10.6-§10.9)."""

from __future__ import annotations

import pytest

from .driver import Refused, one, postings

EX1_FACE_UP = {"B": "9H", "C": "KS", "D": "QH", "E": "2H", "A": "5C"}


def play_example_1(table):
    table.open(list("ABCDE"), preset="baxter-wray", first_dealer="A")
    return table.send("DealStarted", trump_card="7H", face_up=EX1_FACE_UP)


def declare(table, choices):
    out = []
    for player, declaration in choices:
        out += table.send("DeclarationMade", player=player, declaration=declaration)
    return out


def test_example_1_turn_up_single_queen_of_hearts_wins_and_four_are_looed_three(table):
    events = play_example_1(table)
    assert postings(events, "deal") == [("A", "pool", 3)]
    assert postings(events, "pool_taken") == [("pool", "D", 3)]
    assert sorted(postings(events, "single_loo")) == [
        ("A", "next_pool", 3), ("B", "next_pool", 3), ("C", "next_pool", 3),
        ("E", "next_pool", 3)]
    settled = one(events, "DealSettled")
    assert settled["outcome"] == "single-won" and sorted(settled["looed"]) == list("ABCE")
    session = table.session()
    assert session["next_dealer"] == "B"
    assert session["next_pool_units"] == 12
    assert session["balances"] == {"A": -6, "B": -3, "C": -3, "D": 3, "E": -3}


def test_example_1_next_deal_by_b_has_a_pool_of_fifteen(table):
    play_example_1(table)
    events = table.send("DealStarted", trump_card="2S")
    assert one(events, "DealStarted")["dealer"] == "B"
    assert table.session()["pool_units"] == 15
    assert postings(events) == [("B", "pool", 3), ("next_pool", "pool", 12)]


def deal_2_declarations(table):
    play_example_1(table)
    table.send("DealStarted", trump_card="2S")
    declare(table, [("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
                    ("B", "throw_up")])


def test_example_2_by_quick_entry_pays_c_ten_d_five_and_looes_e_six(table):
    deal_2_declarations(table)
    events = []
    for winner in ("C", "D", "C"):
        events += table.send("TrickWon", winner=winner)
    settled = one(events, "DealSettled")
    assert [s["amount_units"] for s in settled["shares"]] == [5, 5, 5]
    assert postings(events, "trick") == [("pool", "C", 5), ("pool", "D", 5), ("pool", "C", 5)]
    assert postings(events, "loo") == [("E", "next_pool", 6)]
    assert settled["looed"] == ["E"] and settled["carried_units"] == 0
    assert table.session()["next_pool_units"] == 6


def play_example_2_by_cards(table):
    deal_2_declarations(table)
    cards = [("C", "AH"), ("D", "3H"), ("E", "4H"),   # C wins trick 1
             ("C", "KD"), ("D", "AD"), ("E", "5D"),   # D heads and wins trick 2
             ("D", "7C"), ("E", "8C"), ("C", "9C")]   # C wins trick 3
    events = []
    for player, card in cards:
        events += table.send("CardPlayed", player=player, card=card)
    return events


def test_example_2_by_cards_finds_no_breach_and_settles_the_same(table):
    events = play_example_2_by_cards(table)
    assert [e["payload"]["winner"] for e in events if e["type"] == "TrickWon"] == ["C", "D", "C"]
    assert not [e for e in events if e["type"] in ("BreachDetected", "PenaltyImposed")]
    assert postings(events, "trick") == [("pool", "C", 5), ("pool", "D", 5), ("pool", "C", 5)]
    assert postings(events, "loo") == [("E", "next_pool", 6)]
    deal = table.deal(2)
    assert deal["phase"] == "settled" and deal["settlement"]["looed"] == ["E"]
    assert [t["winner"] for t in deal["tricks"]] == ["C", "D", "C"]


def test_example_2_next_pool_when_c_deals_is_nine(table):
    play_example_2_by_cards(table)
    table.send("DealStarted", trump_card="10S")
    session = table.session()
    assert session["deal"]["dealer"] == "C"
    assert session["pool_units"] == 9


def test_example_3_pool_of_seven_pays_three_two_two():
    """Example 3 is checked through a session in test_division_and_loos.py; here the split."""
    from ledger.domain.money import trick_shares

    assert trick_shares(7) == [3, 2, 2]


def test_example_4_dealer_takes_nine_when_all_before_him_throw_up_and_next_is_fresh(table):
    play_example_2_by_cards(table)
    table.send("DealStarted", trump_card="10S")
    events = declare(table, [("D", "throw_up"), ("E", "throw_up"), ("A", "throw_up"),
                             ("B", "throw_up")])
    settled = one(events, "DealSettled")
    assert settled["outcome"] == "dealer-took-pool" and settled["looed"] == []
    assert postings(events, "pool_taken") == [("pool", "C", 9)]
    assert settled["next_fresh"] is True
    nxt = [a for a in table.session()["expected"]["actions"] if a["type"] == "DealStarted"][0]
    assert nxt == {**nxt, "dealer": "D", "kind": "single"}


def test_worked_session_statement_nets_and_pools_sum_to_zero(table):
    play_example_2_by_cards(table)
    statement = table.statement()
    nets = {p["player"]: p["net_units"] for p in statement["players"]}
    # A: -3 price -3 single loo; B: -3 loo -3 price; C: -3 loo +10; D: +3 +5; E: -3 -6.
    assert nets == {"A": -6, "B": -6, "C": 7, "D": 8, "E": -9}
    assert statement["pool"]["next_pool_units"] == 6
    assert statement["check"] == {"nets_plus_pools_units": 0, "zero_sum": True}


# ---------------------------------------------------------------- five-card loo (§10.6-§10.9)

HEARTS = ["2H", "5H", "9H", "QH", "KH"]  # B's flush, the elder hand
DIAMONDS_WITH_PAM = ["3D", "5D", "9D", "QD", "JC"]  # C's flush, four with Pam


def open_five_card(table, preset, players="ABCD"):
    return table.open(list(players), preset=preset, rules={"variant": "five-card"},
                      first_dealer="A")


@pytest.mark.parametrize(("preset", "winner", "pool", "loo"), [
    ("baxter-wray", "C", 5, 10),     # Pam before the elder hand (p. 28); the dealer's 5
    ("blenheim", "B", 25, 25),       # the elder hand (Britannica); 10 + 3 antes, loo = pool
    ("enquire-within", "C", 5, 5),   # as Baxter-Wray (decision); the dealer's stake alone
    ("cassell", "C", 20, 5),         # as Baxter-Wray (decision); 5 + 3 antes, loo 5
])
def test_example_6_two_plain_flushes_under_each_preset(table, preset, winner, pool, loo):
    open_five_card(table, preset)
    table.send("DealStarted", trump_card="2S")
    declare(table, [("B", "play"), ("C", "play"), ("D", "play"), ("A", "play")])
    events = table.send("FlushShown", flushes={"B": HEARTS, "C": DIAMONDS_WITH_PAM})
    shown = one(events, "FlushShown")
    beaten = "C" if winner == "B" else "B"
    assert (shown["winner"], shown["beaten"], shown["payers"]) == (winner, [beaten], ["D", "A"])
    assert postings(events, "pool_taken") == [("pool", winner, pool)]
    assert sorted(postings(events, "flush")) == [("A", winner, loo), ("D", winner, loo)]
    balances = table.session()["balances"]
    assert balances[winner] == pool + 2 * loo - (5 if preset in ("blenheim", "cassell") else 0)
    assert balances[beaten] == (-5 if preset in ("blenheim", "cassell") else 0)


def test_example_6_a_trump_flush_beats_both_at_every_preset(table):
    open_five_card(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    declare(table, [("B", "play"), ("C", "play"), ("D", "play"), ("A", "play")])
    shown = one(table.send("FlushShown", flushes={
        "B": HEARTS, "C": DIAMONDS_WITH_PAM, "D": ["3S", "5S", "9S", "QS", "KS"]}),
        "FlushShown")
    assert (shown["winner"], shown["beaten"], shown["payers"]) == ("D", ["B", "C"], ["A"])


def test_example_7_enquire_withins_pool_is_the_dealers_stake_a_fifth_to_each_trick(table):
    open_five_card(table, "enquire-within")
    started = table.send("DealStarted", trump_card="7H")
    assert postings(started) == [("A", "pool", 5)]
    declare(table, [("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play")])
    events = []
    for winner in ("B", "C", "B", "B", "C"):
        events += table.send("TrickWon", winner=winner)
    settled = one(events, "DealSettled")
    assert [s["amount_units"] for s in settled["shares"]] == [1, 1, 1, 1, 1]
    assert postings(events, "loo") == [("A", "next_pool", 5)]
    assert table.session()["balances"] == {"A": -10, "B": 3, "C": 2, "D": 0}
    table.send("DealStarted", trump_card="9D")  # B deals: A's loo and B's price
    assert table.session()["pool_units"] == 10


# The hand of example 8: B leads the ace of trumps with the call; C holds Pam and the seven.
EXAMPLE_8 = [("B", "AH"), ("C", "JC"), ("A", "2C"),   # C plays Pam on the call: a breach
             ("C", "7H"), ("A", "3C"), ("B", "3H"),
             ("C", "7D"), ("A", "4C"), ("B", "3S"),
             ("C", "8D"), ("A", "5C"), ("B", "4S"),
             ("C", "9D"), ("A", "6C"), ("B", "5S")]
REPLAY_8 = [("B", "AH"), ("C", "7H"), ("A", "2C"),    # C passes the ace, as he must
            ("B", "3H"), ("C", "JC"), ("A", "3C"),
            ("C", "7D"), ("A", "4C"), ("B", "3S"),
            ("C", "8D"), ("A", "5C"), ("B", "4S"),
            ("C", "9D"), ("A", "6C"), ("B", "5S")]


def play_civil(table, cards):
    events = []
    for player, card in cards:
        extra = {"call": "pam-be-civil"} if card == "AH" else {}
        events += table.send("CardPlayed", player=player, card=card, **extra)
    return events


def test_example_8_pam_be_civil_ignored_at_baxter_wray_looes_him(table):
    open_five_card(table, "baxter-wray", players="ABC")
    table.send("DealStarted", trump_card="2H")
    declare(table, [("B", "play"), ("C", "play"), ("A", "play")])
    events = play_civil(table, EXAMPLE_8)
    penalty = one(events, "PenaltyImposed")
    assert (penalty["player"], penalty["offence"], penalty["amount_units"],
            penalty["destination"]) == ("C", "pam-be-civil", 10, "next_pool")
    assert one(events, "ReplayStarted")["asked_by"] is None
    events = play_civil(table, REPLAY_8)
    assert not [e for e in events if e["type"] == "BreachDetected"]
    settled = one(events, "DealSettled")
    assert [t["winner"] for t in table.deal(1)["tricks"]] == ["B", "C", "C", "C", "C"]
    assert [(s["paid_to"], s["stays_in_pool"]) for s in settled["shares"]] == \
        [("B", None)] + [(None, "forfeited")] * 4
    assert (settled["looed"], settled["carried_units"]) == (["A"], 4)
    session = table.session()
    assert session["balances"] == {"A": -15, "B": 1, "C": -10}
    assert session["next_pool_units"] == 24


def test_example_9_an_exchange_after_the_next_declaration_is_refused(table):
    open_five_card(table, "baxter-wray")
    table.send("DealStarted", trump_card="7H")
    declare(table, [("B", "play"), ("C", "play")])
    with pytest.raises(Refused) as refused:
        table.send("CardsExchanged", player="B", count=2)
    assert (refused.value.status, refused.value.problem["rule"]) == (409, "exchange-turn")
    table.send("CardsExchanged", player="C", count=2)
    declare(table, [("D", "throw_up"), ("A", "play")])
    table.send("CardsExchanged", player="A", count=1)
    exchanges = table.deal(1)["exchanges"]
    assert {p: e["count"] for p, e in exchanges.items()} == {"C": 2, "A": 1}


def test_example_9_at_blenheim_the_later_exchange_stands(table):
    open_five_card(table, "blenheim")
    table.send("DealStarted", trump_card="7H")
    declare(table, [("B", "play"), ("C", "play")])
    table.send("CardsExchanged", player="B", count=2)
