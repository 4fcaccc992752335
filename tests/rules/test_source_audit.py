"""The rules a reading of the sources against the ledger corrected (docs/rules.md §7, §8, §11).

Each runs in memory and through the REST API on SQLite and PostgreSQL (the `table` fixture).
"""

from __future__ import annotations

import pytest

from .driver import Refused, one, postings
from .helpers import BW_HAND, open_three, play, settled

FIVE = ["A", "B", "C", "D", "E"]


def apply_transfers(statement):
    """Every party's balance after the statement's transfers: all zero when they settle."""
    parties = {row["player"]: row["net_units"] for row in statement["players"]}
    on_table = statement["pool"]["current_pool_units"] + statement["pool"]["next_pool_units"]
    if on_table:
        parties["pool"] = on_table
    for t in statement["settlement"]["transfers"]:
        parties[t["from"]] += t["amount_units"]
        parties[t["to"]] -= t["amount_units"]
    return parties


# ---------------------------------------------------------------- 1. the settlement mid-session


def test_mid_session_the_pool_is_a_party_owed_its_units_and_the_transfers_balance(table):
    # docs/rules.md §10.1: D wins the turn-up single; A, B, C, E are looed 3 each.
    table.open(FIVE, preset="baxter-wray", first_dealer="A")
    table.send("DealStarted", trump_card="7H",
               face_up={"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"})
    statement = table.statement()
    nets = {row["player"]: row["net_units"] for row in statement["players"]}
    assert nets == {"A": -6, "B": -3, "C": -3, "D": 3, "E": -3}
    assert statement["pool"]["next_pool_units"] == 12
    assert statement["settlement"]["provisional"] is True
    assert statement["settlement"]["final"] is False
    transfers = {(t["from"], t["to"]): t["amount_units"]
                 for t in statement["settlement"]["transfers"]}
    assert sum(v for (_, to), v in transfers.items() if to == "pool") == 12
    assert sum(v for (_, to), v in transfers.items() if to == "D") == 3
    assert not any(apply_transfers(statement).values())


def test_a_turn_up_single_nobody_wins_leaves_every_player_owing_the_pool(table):
    table.open(FIVE, preset="baxter-wray", first_dealer="A")
    table.send("DealStarted", trump_card="AH",
               face_up={"A": "5C", "B": "9H", "C": "KS", "D": "QH", "E": "2H"})
    statement = table.statement()
    transfers = sorted((t["from"], t["to"], t["amount_units"])
                       for t in statement["settlement"]["transfers"])
    assert transfers == [("A", "pool", 6), ("B", "pool", 3), ("C", "pool", 3),
                         ("D", "pool", 3), ("E", "pool", 3)]
    assert not any(apply_transfers(statement).values())


# ---------------------------------------------------------------- 2. releasing the last loos


def test_releasing_the_last_loos_releases_only_the_loos_for_taking_no_trick(table):
    # Baxter-Wray p. 17: "releasing those who failed to win a trick in the previous deal".
    open_three(table)  # A deals to B, C, A; antes instead of the turn-up single
    table.send("DealStarted", trump_card="2S")
    for player in ("B", "C", "A"):
        table.send("DeclarationMade", player=player, declaration="play")
    # A (standing) names a card: an offence loo, owed to the next pool, his one loo
    events = table.send("PenaltyImposed", player="A", offence="named-card")
    assert postings(events, "penalty") == [("A", "next_pool", 6)]
    # the hand is replayed (Baxter-Wray p. 21); B takes every trick, C takes none
    for _ in range(2):  # as played, then the replay
        play(table, [("B", "AH"), ("C", "3H"), ("A", "4H"),
                     ("B", "KH"), ("C", "5H"), ("A", "6H"),
                     ("B", "QH"), ("C", "7H"), ("A", "8H")])
    loos = table.session()["loos_owed"]
    assert sorted((x["player"], x["amount_units"], x["reason"]) for x in loos) == \
        [("A", 6, "penalty:named-card"), ("C", 6, "loo")]
    events = table.send("SessionEnded", method="release-last-loos")
    ended = one(events, "SessionEnded")
    released = [(p["to"], p["amount_units"]) for p in ended["postings"]
                if p["reason"] == "loo_released"]
    assert released == [("C", 6)]  # A's offence loo stays in the last pool
    divided = sum(p["amount_units"] for p in ended["postings"] if p["reason"] == "end_division")
    assert divided == 6
    assert table.statement()["settlement"]["final"] is True


# ---------------------------------------------------------------- 3. any one at the table


def test_any_one_at_the_table_who_names_an_unplayed_card_is_looed_standing_or_not(table):
    # Baxter-Wray p. 25: "as also is any one ... exposing or mentioning the value of his own,
    # or opponent's unplayed cards".
    open_three(table)
    table.send("DealStarted", trump_card="2S")
    table.send("DeclarationMade", player="B", declaration="play")
    table.send("DeclarationMade", player="C", declaration="throw_up")
    table.send("DeclarationMade", player="A", declaration="play")
    events = table.send("PenaltyImposed", player="C", offence="named-card")
    penalty = one(events, "PenaltyImposed")
    assert (penalty["stage"], penalty["amount_units"]) == ("in-play", 6)
    assert postings(events, "penalty") == [("C", "next_pool", 6)]
    # a revoke remains a standing player's offence
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="C", offence="revoke")
    assert refused.value.problem["rule"] == "standing-player"


# ---------------------------------------------------------------- 4. when the offence was made


@pytest.mark.parametrize("preset", ["enquire-within", "cassell"])
def test_looking_at_a_neighbours_hand_during_play_shares_the_deals_one_loo(table, preset):
    # Enquire Within §97 vi: "looking at a neighbour's hand, either during the play" or not;
    # docs/rules.md §11.20: once play has begun it is an offence in play.
    open_three(table, preset)
    table.send("DealStarted", trump_card="2S")
    for player in ("B", "C", "A"):
        table.send("DeclarationMade", player=player, declaration="play")
    play(table, [("B", "AS")])
    events = table.send("PenaltyImposed", player="C", offence="looked-at-another-hand")
    penalty = one(events, "PenaltyImposed")
    assert penalty["stage"] == "in-play"
    loo = penalty["amount_units"]
    events = play(table, [("C", "3S"), ("A", "4S"),
                          ("B", "KS"), ("C", "5H"), ("A", "6H"),
                          ("B", "QS"), ("C", "7H"), ("A", "8H")])
    deal = settled(events)
    # C took no trick: his offence loo covers it; A took none either and is looed
    assert sorted(deal["looed"]) == ["A"]
    owed = [(x["player"], x["amount_units"]) for x in table.session()["loos_owed"]]
    assert sorted(owed) == sorted([("C", loo), ("A", deal["loo_units"])])


@pytest.mark.parametrize("preset", ["enquire-within", "cassell"])
def test_the_same_offence_before_play_is_a_loo_of_its_own(table, preset):
    open_three(table, preset)
    table.send("DealStarted", trump_card="2S")
    events = table.send("PenaltyImposed", player="C", offence="looked-at-another-hand")
    assert one(events, "PenaltyImposed")["stage"] == "pre-play"
    for player in ("B", "C", "A"):
        table.send("DeclarationMade", player=player, declaration="play")
    events = play(table, [("B", "AS"), ("C", "3S"), ("A", "4S"),
                          ("B", "KS"), ("C", "5H"), ("A", "6H"),
                          ("B", "QS"), ("C", "7H"), ("A", "8H")])
    assert sorted(settled(events)["looed"]) == ["A", "C"]  # and C's offence loo besides
    owed = sorted(x["player"] for x in table.session()["loos_owed"])
    assert owed == ["A", "C", "C"]


# ---------------------------------------------------------------- 5. the pool of a penalty loo


def test_a_penalty_loo_charged_in_the_declarations_is_on_the_pool_when_play_began(table):
    # docs/rules.md §11.3 at unlimited loo: the loo is the pool as it stood when play began,
    # current-pool penalties included.
    open_three(table, loo="unlimited")
    table.send("DealStarted", trump_card="2S")  # fresh: A pays 3 for the deal
    table.send("DeclarationMade", player="B", declaration="play")
    events = table.send("PenaltyImposed", player="B", offence="named-card")
    penalty = one(events, "PenaltyImposed")
    assert (penalty["amount_units"], penalty["destination"]) == \
        (None, "next_pool-at-settlement")
    # C looks at his cards before his turn: a single loo paid into this pool (3 + 3)
    events = table.send("PenaltyImposed", player="C", offence="looked-at-own-cards")
    assert postings(events, "penalty") == [("C", "pool", 3)]
    table.send("DeclarationMade", player="C", declaration="play")
    table.send("DeclarationMade", player="A", declaration="play")
    events = play(table, [("B", "AH"), ("C", "3H"), ("A", "4H"),
                          ("B", "KH"), ("C", "5H"), ("A", "6H"),
                          ("B", "QH"), ("C", "7H"), ("A", "8H")])
    # the replay Baxter-Wray requires, then the settlement
    events += play(table, [("B", "AH"), ("C", "3H"), ("A", "4H"),
                           ("B", "KH"), ("C", "5H"), ("A", "6H"),
                           ("B", "QH"), ("C", "7H"), ("A", "8H")])
    deal = settled(events)
    assert deal["pool_units"] == 6
    penalty_loos = [(p["from"], p["to"], p["amount_units"]) for e in events
                    if e["type"] == "DealSettled" for p in e["payload"]["postings"]
                    if p["reason"] == "penalty"]
    assert penalty_loos == [("B", "next_pool", 6)]


# ---------------------------------------------------------------- 6. the dealer forced to throw up


def test_a_dealer_forced_to_throw_up_with_one_player_standing_gives_him_the_pool(table):
    # docs/rules.md §11.21, Baxter-Wray p. 24: looking at another hand before declaring: throw up.
    open_three(table)
    table.send("DealStarted", trump_card="2S")
    table.send("DeclarationMade", player="B", declaration="play")
    table.send("DeclarationMade", player="C", declaration="throw_up")
    events = table.send("PenaltyImposed", player="A", offence="looked-at-another-hand")
    deal = settled(events)
    assert deal["outcome"] == "last-standing-took-pool"
    assert ("pool", "B", deal["pool_units"]) in postings(events, "pool_taken")
    outcomes = table.statement()["outcomes"]
    assert [(o["outcome"], o["deals"]) for o in outcomes] == [("last-standing-took-pool", 1)]
    assert "took the pool without play" in outcomes[0]["meaning"]


def test_a_dealer_forced_to_throw_up_with_nobody_standing_carries_the_pool(table):
    open_three(table)
    table.send("DealStarted", trump_card="2S")
    # the dealer looks at another hand before anyone declares: he must throw up ...
    table.send("PenaltyImposed", player="A", offence="looked-at-another-hand")
    table.send("DeclarationMade", player="B", declaration="throw_up")
    # ... and when the others throw up too, nobody takes the pool
    events = table.send("DeclarationMade", player="C", declaration="throw_up")
    deal = settled(events)
    assert deal["outcome"] == "nobody-stood"
    assert deal["carried_units"] == deal["pool_units"] > 0
    assert [o["outcome"] for o in table.statement()["outcomes"]] == ["nobody-stood"]


# ---------------------------------------------------------------- 7. smaller


def test_a_32_card_pack_seats_ten_when_the_dealer_stands_out(table):
    # nine hands of three, a miss and a trump card: 31 cards
    players = [f"P{i}" for i in range(10)]
    view = table.open(players, preset="baxter-wray",
                      rules={**BW_HAND, "pack": 32, "dealer_stands_out_above": 9})
    assert view["seats"] == players
    with pytest.raises(Refused) as refused:
        table.open(players + ["P10"], preset="baxter-wray",
                   rules={**BW_HAND, "pack": 32, "dealer_stands_out_above": 9})
    assert refused.value.problem["rule"] == "pack-size"


def test_a_forced_stand_after_a_single_needs_a_fresh_pool_of_antes(table):
    with pytest.raises(Refused) as refused:
        table.open(FIVE, preset="baxter-wray", rules={"force_after_single": True})
    assert refused.value.status == 422
    assert refused.value.problem["field"] == "rules.force_after_single"
    table.open(FIVE, preset="baxter-wray",
               rules={"force_after_single": True, "fresh_pool": "antes"})


def test_the_miss_played_for_the_pool_leads_when_the_miss_holder_leads(table):
    open_three(table, miss_holder_leads=True)
    table.send("DealStarted", trump_card="2S")
    table.send("DeclarationMade", player="B", declaration="play")
    table.send("DeclarationMade", player="C", declaration="throw_up")
    table.send("DeclarationMade", player="A", declaration="play_miss_for_pool")
    card = table.session()["expected"]["actions"][0]
    assert (card["type"], card["player"]) == ("CardPlayed", "A")


@pytest.mark.parametrize("preset", ["enquire-within", "cassell"])
def test_a_player_who_throws_up_after_the_lead_is_not_waited_for(table, preset):
    table.open(["A", "B", "C", "D"], preset=preset, first_dealer="A")
    table.send("DealStarted", trump_card="2S")
    for player in ("B", "C", "D", "A"):
        table.send("DeclarationMade", player=player, declaration="play")
    play(table, [("B", "AH")])
    events = table.send("PenaltyImposed", player="C", offence="threw-up-after-lead")
    assert one(events, "PenaltyImposed")["stage"] == "in-play"
    assert table.session()["expected"]["actions"][0]["player"] == "D"
    events = play(table, [("D", "3H"), ("A", "4H")])
    won = one(events, "TrickWon")
    assert [p for p, _ in won["cards"]] == ["B", "D", "A"]
    events = play(table, [("B", "KH"), ("D", "5H"), ("A", "6H"),
                          ("B", "QH"), ("D", "7H"), ("A", "8H")])
    deal = settled(events)
    assert sorted(deal["looed"]) == ["A", "D"]  # C's offence loo covers his no trick
    with pytest.raises(Refused):
        table.send("PenaltyImposed", player="B", offence="threw-up-after-lead")


# ---------------------------------------------------------------- what a client is told


def test_between_deals_the_next_deal_says_whether_everyone_must_stand(table):
    open_three(table, club_law=True)
    offer = table.session()["expected"]["actions"][0]
    assert (offer["type"], offer["kind"], offer["forced"], offer["club_law"]) == \
        ("DealStarted", "hand", None, True)
    table.send("LastRoundStarted")
    offer = table.session()["expected"]["actions"][0]
    assert (offer["forced"], offer["club_law"]) == ("last-round", False)


def test_a_penalty_the_ledger_already_charged_for_a_breach_is_refused(table):
    open_three(table)
    table.send("DealStarted", trump_card="2S")
    for player in ("B", "C", "A"):
        table.send("DeclarationMade", player=player, declaration="play")
    # C plays a club on a heart lead, then shows a heart: a revoke, proven at once
    events = play(table, [("B", "AH"), ("C", "3C"), ("A", "4H"),
                          ("B", "KS"), ("C", "5H")])
    breach = one(events, "BreachDetected")
    assert (breach["player"], breach["rule"], breach["trick"]) == ("C", "revoke", 1)
    assert one(events, "PenaltyImposed")["detected"] is True
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="C", offence="revoke")
    assert refused.value.problem["rule"] == "one-penalty-in-play"
    assert "detected" in refused.value.problem["detail"]


def test_a_breach_is_reported_the_moment_the_cards_prove_it(table):
    open_three(table)
    table.send("DealStarted", trump_card="2S")
    for player in ("B", "C", "A"):
        table.send("DeclarationMade", player=player, declaration="play")
    # A holds 9H and plays 4H under B's 5H... he could head: proven when 9H shows
    events = play(table, [("B", "5H"), ("C", "3C"), ("A", "4H")])
    assert not [e for e in events if e["type"] == "BreachDetected"]
    events = play(table, [("B", "KS"), ("C", "5S"), ("A", "9H")])
    # A's 9H is a heart in a spade trick... and proves he could have headed trick 1
    found = [(e["payload"]["player"], e["payload"]["rule"], e["payload"]["trick"])
             for e in events if e["type"] == "BreachDetected"]
    assert ("A", "not-heading", 1) in found
    deal = table.deal(1)
    assert any(b["rule"] == "not-heading" for b in deal["breaches"])
