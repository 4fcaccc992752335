"""docs/rules.md §10: the worked examples (baxter-wray, stake 3, loo 6, single loo 3)."""

from __future__ import annotations

from .driver import one, postings

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
