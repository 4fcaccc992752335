"""docs/rules.md §9.2 and §9.3: Irish loo and five-card loo, each rule with an example from the
sources' own words (Baxter-Wray, Round Games with Cards pp. 27-28; Britannica 9th ed., "Loo";
Enquire Within §100)."""

from __future__ import annotations

import pytest

from .driver import Refused, one, postings
from .helpers import breaches, play, tricks

PRESETS = ("baxter-wray", "blenheim", "enquire-within", "cassell")


def open_variant(table, variant, preset="baxter-wray", players=("A", "B", "C"), **rules):
    """A deals to the others, then himself."""
    return table.open(list(players), preset=preset, rules={"variant": variant, **rules},
                      first_dealer="A")


def declare(table, *pairs):
    events = []
    for player, declaration in pairs:
        events += table.send("DeclarationMade", player=player, declaration=declaration)
    return events


def refused(table, type_, **fields):
    with pytest.raises(Refused) as err:
        table.send(type_, **fields)
    return err.value.problem


# ---------------------------------------------------------------- opening


@pytest.mark.parametrize("preset", PRESETS)
def test_irish_and_five_card_loo_open_at_every_preset(table, preset):
    irish = open_variant(table, "irish", preset)["rules"]
    assert irish["variant"] == "irish" and "pam" not in irish and "flush_payers" not in irish
    events = table.send("DealStarted", trump_card="7H")
    # Britannica: Irish loo "There is no miss"
    assert one(events, "DealStarted")["miss"] is False


@pytest.mark.parametrize(("preset", "payers", "stake", "loo"), [
    ("baxter-wray", "all-but-beaten-flushes", 5, 10),
    ("blenheim", "all-but-pam-and-flushes", 5, None),
    ("enquire-within", "stood-but-pam-and-flushes", 5, 5),
    ("cassell", "all-but-beaten-flushes", 5, 5),
])
def test_five_card_loo_stores_pam_the_flush_payers_and_a_stake_divisible_by_five(
        table, preset, payers, stake, loo):
    rules = open_variant(table, "five-card", preset)["rules"]
    # Britannica: "a single stake should be divisible by five"; "Pam (knave of clubs)"
    assert (rules["stake"], rules["pam"], rules["flush_payers"], rules["loo_amount"]) == \
        (stake, "jack-of-clubs", payers, loo)


def test_five_card_parameters_are_overridable(table):
    rules = open_variant(table, "five-card", "blenheim", pam="jack-of-trumps",
                         flush_payers="all-but-beaten-flushes", stake=10)["rules"]
    assert (rules["pam"], rules["flush_payers"], rules["stake"]) == \
        ("jack-of-trumps", "all-but-beaten-flushes", 10)


@pytest.mark.parametrize(("rules", "field"), [
    ({"variant": "five-card", "stake": 3}, "rules.stake"),  # Britannica: divisible by five
    ({"variant": "five-card", "pam": "queen-of-hearts"}, "rules.pam"),
    ({"variant": "five-card", "flush_payers": "nobody"}, "rules.flush_payers"),
    ({"variant": "irish", "pam": "jack-of-clubs"}, "rules.pam"),  # Irish: "Pam is unknown"
    ({"flush_payers": "all-but-beaten-flushes"}, "rules.flush_payers"),
    ({"variant": "seven-card"}, "rules.variant"),
])
def test_variant_parameters_out_of_place_are_refused(table, rules, field):
    with pytest.raises(Refused) as err:
        table.open(["A", "B", "C"], rules=rules)
    assert err.value.status == 422 and err.value.problem["field"] == field


# ---------------------------------------------------------------- exchanges


def test_exchanges_once_after_declaring_from_the_top_of_the_pack(table):
    # Baxter-Wray p. 27: "the dealer gives him a like number from the top of the pack. No
    # second exchange is allowable, nor can a card once put out be taken back into the hand;
    # neither may a player who makes an exchange afterwards throw up his cards".
    open_variant(table, "irish")
    table.send("DealStarted", trump_card="7H")
    assert refused(table, "CardsExchanged", player="B", count=1)["rule"] == \
        "exchange-after-declaring"
    declare(table, ("B", "play"))
    offer = [a for a in table.session()["expected"]["actions"] if a["type"] == "CardsExchanged"]
    assert offer == [{"type": "CardsExchanged", "players": ["B"], "stock_left": 42,
                      "exchange_at": "turn-to-declare"}]
    events = table.send("CardsExchanged", player="B", count=2, cards_out=["2C", "3D"],
                        cards_in=["KS", "QS"])
    assert one(events, "CardsExchanged")["stock_left"] == 40
    assert refused(table, "CardsExchanged", player="B", count=1)["rule"] == "one-exchange"
    declare(table, ("C", "throw_up"))
    assert refused(table, "CardsExchanged", player="C", count=1)["rule"] == \
        "exchange-after-declaring"
    declare(table, ("A", "play"))
    # the count is logged always, the cards when known; the dealer exchanges last
    events = table.send("CardsExchanged", player="A", count=3)
    assert one(events, "CardsExchanged")["cards_out"] == []
    assert refused(table, "CardPlayed", player="B", card="2C")["rule"] == "card-unseen"
    table.send("CardPlayed", player="B", card="KS")
    assert refused(table, "CardsExchanged", player="A", count=1)["rule"] in (
        "one-exchange", "exchange-before-play")


def test_a_pack_that_runs_short_is_refused_with_the_reason(table):
    # Nine players at Irish loo with the 32-card pack: 27 cards dealt, one turned up, 4 left.
    open_variant(table, "irish", players=tuple("ABCDEFGHI"), pack=32)
    table.send("DealStarted", trump_card="7H")
    declare(table, ("B", "play"))
    table.send("CardsExchanged", player="B", count=3)
    declare(table, ("C", "play"))
    problem = refused(table, "CardsExchanged", player="C", count=2)
    assert problem["rule"] == "pack-short" and "1 card left" in problem["detail"]
    table.send("CardsExchanged", player="C", count=1)


def test_there_is_no_miss_and_the_dealer_stands_against_one_player(table):
    open_variant(table, "irish")
    table.send("DealStarted", trump_card="7H")
    assert refused(table, "DeclarationMade", player="B", declaration="take_miss")["rule"] == \
        "no-miss"
    declare(table, ("B", "play"), ("C", "throw_up"))
    # docs/rules.md §11.36: no miss to play for the pool, so the dealer must stand
    choices = table.session()["expected"]["actions"][0]["choices"]
    assert choices == ["play"]
    declare(table, ("A", "play"))
    assert table.session()["deal"]["phase"] == "playing"


def test_irish_loo_leads_a_trump_from_two_only_with_two_declared_players(table):
    # Britannica: at Irish loo "it is not compulsory to lead a trump with two trumps, unless
    # there are only two declared players".
    open_variant(table, "irish", players=("A", "B", "C", "D"))
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "play"), ("A", "throw_up"))
    events = play(table, [("B", "6D"), ("C", "8D"), ("D", "QD"),
                          ("D", "KH"), ("B", "5S"), ("C", "7H"),
                          ("B", "KS"), ("C", "9C"), ("D", "3C")])
    assert breaches(events) == []
    table.send("DealStarted", trump_card="2S")
    declare(table, ("C", "play"), ("D", "play"), ("A", "throw_up"), ("B", "throw_up"))
    events = play(table, [("C", "6D"), ("D", "8D"),
                          ("D", "KH"), ("C", "5S"),
                          ("C", "KS"), ("D", "9C")])
    assert breaches(events) == [("C", "lead-highest-trump", 1)]


def test_quick_entry_at_irish_loo(table):
    open_variant(table, "irish")
    table.send("DealStarted", trump_card="7H")
    declare(table, ("B", "play"), ("C", "play"))
    table.send("CardsExchanged", player="C", count=3)
    declare(table, ("A", "play"))
    settled = one(tricks(table, ["B", "B", "C"]), "DealSettled")
    assert settled["looed"] == ["A"] and [s["amount_units"] for s in settled["shares"]] == \
        [1, 1, 1]


# ---------------------------------------------------------------- five tricks


def test_five_tricks_divide_the_pool_with_the_odd_units_to_the_first_four(table):
    # Britannica: "a single stake should be divisible by five"; docs/rules.md §5.7: a pool that
    # does not divide pays its odd units to tricks 1, 2, 3, 4 in order. Baxter-Wray's fresh
    # pool at five-card loo is the dealer's fee alone (p. 28).
    open_variant(table, "five-card", deal_price=8)
    started = table.send("DealStarted", trump_card="7H")
    assert postings(started) == [("A", "pool", 8)]
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    settled = one(tricks(table, ["B", "C", "B", "B", "C"]), "DealSettled")
    assert [s["amount_units"] for s in settled["shares"]] == [2, 2, 2, 1, 1]
    # "Those who play their cards ... and do not gain a trick, are looed" (p. 27): loo 10
    assert settled["looed"] == ["A"] and settled["loo_units"] == 10
    assert table.session()["balances"] == {"A": -18, "B": 5, "C": 3}


# ---------------------------------------------------------------- Pam


def test_pam_is_the_highest_trump_whatever_suit_is_turned_up(table):
    # Baxter-Wray p. 27: "The knave of clubs ... is the highest card, and is styled Pam; the ace
    # of trumps is next in value". Hearts are trumps: C's knave of clubs takes the ace.
    open_variant(table, "five-card")
    table.send("DealStarted", trump_card="2H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    assert table.deal(1)["pam"] == "JC"
    events = table.batch([{"type": "CardPlayed", "player": "B", "card": "AH", "call": "none"}])
    events += play(table, [("C", "JC"), ("A", "KH"),
                          ("C", "7D"), ("A", "2C"), ("B", "3S"),
                          ("C", "8D"), ("A", "3C"), ("B", "4S"),
                          ("C", "9D"), ("A", "4C"), ("B", "5S"),
                          ("C", "10D"), ("A", "5C"), ("B", "6S")])
    assert breaches(events) == []
    assert [e["payload"]["winner"] for e in events if e["type"] == "TrickWon"] == ["C"] * 5
    assert one(events, "DealSettled")["looed"] == ["B", "A"]


def test_the_knave_of_trumps_is_pam_by_agreement(table):
    open_variant(table, "five-card", pam="jack-of-trumps")
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    assert table.deal(1)["pam"] == "JS"
    events = table.batch([{"type": "CardPlayed", "player": "B", "card": "AS", "call": "none"}])
    events += play(table, [("C", "JS"), ("A", "KS")])
    assert one(events, "TrickWon")["winner"] == "C"


def test_pam_counts_as_a_trump_when_trumping_to_head(table):
    # Britannica: "Holding none of the suit led, they must head the trick with a trump"; Pam
    # is a trump, not a club: C, holding no club but Pam, must head the 9C with it.
    open_variant(table, "five-card")
    table.send("DealStarted", trump_card="2H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    events = play(table, [("B", "9C"), ("C", "7D"), ("A", "2C"),
                          ("B", "4S"), ("C", "JC"), ("A", "3C"),
                          ("C", "8D"), ("A", "4C"), ("B", "5S"),
                          ("C", "9D"), ("A", "5C"), ("B", "6S"),
                          ("C", "10D"), ("A", "6C"), ("B", "7S")])
    assert breaches(events) == [("C", "not-trumping-to-head", 1)]
    penalty = one(events, "PenaltyImposed")
    assert (penalty["offence"], penalty["amount_units"]) == ("not-trumping-to-head", 10)


def _civil_hand(table, call, c_first, preset="baxter-wray"):
    open_variant(table, "five-card", preset)
    table.send("DealStarted", trump_card="2H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    first = {"type": "CardPlayed", "player": "B", "card": "AH",
             "call": "pam-be-civil" if call else "none"}
    events = table.batch([first])
    c_second = "7H" if c_first == "JC" else "JC"
    events += play(table, [("C", c_first), ("A", "2C"),
                           *((("B", "3H"), ("C", c_second), ("A", "3C")) if c_first == "7H"
                             else (("C", c_second), ("A", "3C"), ("B", "3H"))),
                           ])
    return events


def test_pam_be_civil_the_holder_of_pam_with_another_trump_passes_the_ace(table):
    # Baxter-Wray p. 28: "When the ace of trumps is led it is usual for the player of it to say,
    # 'Pam, be civil,' in which case the holder of Pam must pass the trick, if he can do so
    # without revoking".
    events = _civil_hand(table, call=True, c_first="7H")
    assert breaches(events) == []
    assert [e["payload"]["winner"] for e in events if e["type"] == "TrickWon"] == ["B", "C"]
    assert [e["payload"].get("call") for e in events if e["type"] == "CardPlayed"][0] == \
        "pam-be-civil"


def test_pam_played_on_the_ace_with_the_call_looes_him_at_baxter_wray(table):
    # Baxter-Wray p. 28: "the holder of Pam must pass the trick"; p. 21: "A player infringing
    # any of the rules, or playing in an irregular manner, is looed, and the amount of his
    # winnings, if any, is left in the pool" (docs/rules.md §11.37): a loo of 10 to the next
    # pool, and the hand is replayed as after any breach of the laws of play.
    events = _civil_hand(table, call=True, c_first="JC")
    assert breaches(events) == [("C", "pam-be-civil", 1)]
    penalty = one(events, "PenaltyImposed")
    assert (penalty["player"], penalty["offence"], penalty["amount_units"],
            penalty["destination"], penalty["forfeits_winnings"], penalty["replay"]) == \
        ("C", "pam-be-civil", 10, "next_pool", True, "required")
    assert penalty["detected"] is True and "p. 28" in penalty["law"]


@pytest.mark.parametrize("preset", ["blenheim", "enquire-within", "cassell"])
def test_pam_played_on_the_ace_with_the_call_is_reported_where_the_offences_are_closed(
        table, preset):
    # docs/rules.md §11.37: Britannica's laws and Enquire Within's list name no penalty for it
    events = _civil_hand(table, call=True, c_first="JC", preset=preset)
    assert breaches(events) == [("C", "pam-be-civil", 1)]
    assert not [e for e in events if e["type"] == "PenaltyImposed"]


def test_without_the_call_pam_must_head_the_ace(table):
    events = _civil_hand(table, call=False, c_first="7H")
    assert breaches(events) == [("C", "not-heading", 1)]
    # the answer is logged: the ace was led without the call
    assert [e["payload"].get("call") for e in events if e["type"] == "CardPlayed"][0] == "none"


def test_with_no_other_trump_pam_may_win_the_ace_after_the_call(table):
    # Baxter-Wray p. 28: "but if he has no trump he may win the trick with Pam"
    open_variant(table, "five-card")
    table.send("DealStarted", trump_card="2H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    events = table.batch([{"type": "CardPlayed", "player": "B", "card": "AH",
                           "call": "pam-be-civil"}])
    events += play(table, [("C", "JC"), ("A", "2C")])
    assert breaches(events) == [] and one(events, "TrickWon")["winner"] == "C"


def test_the_call_is_refused_but_with_the_ace_of_trumps_led_at_five_card_loo(table):
    open_variant(table, "five-card")
    table.send("DealStarted", trump_card="2H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    assert refused(table, "CardPlayed", player="B", card="KH",
                   call="pam-be-civil")["rule"] == "pam-be-civil"
    table.send("CardPlayed", player="B", card="AH", call="none")
    assert refused(table, "CardPlayed", player="C", card="AD",
                   call="pam-be-civil")["rule"] == "pam-be-civil"


# ---------------------------------------------------------------- flushes

FOUR = ("A", "B", "C", "D")


def test_a_flush_takes_the_pool_and_a_loo_from_every_player_at_baxter_wray(table):
    # Baxter-Wray p. 28: the holder of the flush, "besides taking the amount in the pool,
    # receives from each of the players, whether they stood or not, the amount of a loo, and
    # the next deal becomes a single, there being no payments to the pool, beyond the
    # dealer's fee".
    open_variant(table, "five-card", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    actions = [a["type"] for a in table.session()["expected"]["actions"]]
    assert "FlushShown" in actions and "CardsExchanged" in actions
    events = table.send("FlushShown", flushes={"B": ["2H", "5H", "9H", "QH", "KH"]})
    shown = one(events, "FlushShown")
    assert (shown["winner"], shown["payers"]) == ("B", ["C", "D", "A"])
    settled = one(events, "DealSettled")
    assert settled["outcome"] == "flush" and settled["next_fresh"] is True
    assert sorted(postings(events, "flush")) == [("A", "B", 10), ("C", "B", 10), ("D", "B", 10)]
    assert postings(events, "pool_taken") == [("pool", "B", 5)]
    started = table.send("DealStarted", trump_card="3S")
    assert postings(started) == [("B", "pool", 5)]
    statement = table.statement()
    b = next(p for p in statement["players"] if p["player"] == "B")
    assert b["received_units"]["flush"] == 30
    assert {o["outcome"] for o in statement["outcomes"]} == {"flush"}


def test_a_trump_flush_beats_a_flush_with_pam_which_beats_the_elder_hand(table):
    # Baxter-Wray p. 28: "A flush in trumps is superior to a flush in any other suit, but if
    # there is more than one flush—neither of which is of the trump suit—then the flush which
    # includes Pam wins, or if neither contains that card then the elder hand ... the holder of
    # the other flush takes nothing; he, however, is exempt from the loo".
    open_variant(table, "five-card", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "play"), ("A", "throw_up"))
    events = table.send("FlushShown", flushes={
        "B": ["2H", "5H", "9H", "QH", "KH"], "C": ["3D", "5D", "9D", "QD", "JC"],
        "D": ["3S", "5S", "9S", "QS", "KS"]})
    shown = one(events, "FlushShown")
    assert (shown["winner"], shown["beaten"], shown["payers"]) == ("D", ["B", "C"], ["A"])
    assert shown["pam_held_by"] == "C"


def test_between_plain_flushes_pam_then_the_elder_hand_wins(table):
    open_variant(table, "five-card", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "play"), ("A", "play"))
    shown = one(table.send("FlushShown", flushes={"C": ["3D", "5D", "9D", "QD", "KD"],
                                                  "B": ["2H", "5H", "9H", "QH", "KH"]}),
                "FlushShown")
    assert (shown["winner"], shown["beaten"], shown["payers"]) == ("B", ["C"], ["D", "A"])


def test_britannica_exempts_the_holder_of_pam_and_of_another_flush(table):
    # Britannica: "A flush ... loos the board, i.e., the holder receives the amount of a loo from
    # every one ... If more than one flush is held, or if Pam is held, the holder is exempted".
    open_variant(table, "five-card", preset="blenheim", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    events = table.send("FlushShown", flushes={"B": ["2H", "5H", "9H", "QH", "KH"]},
                        pam_held_by="C")
    shown = one(events, "FlushShown")
    assert (shown["winner"], shown["payers"]) == ("B", ["D", "A"])
    # the pool: the dealer's 10 and three antes of 5; the loo is the pool up to 35 (mixed)
    settled = one(events, "DealSettled")
    assert (settled["pool_units"], settled["loo_units"]) == (25, 25)
    assert sorted(postings(events, "flush")) == [("A", "B", 25), ("D", "B", 25)]


def test_enquire_within_loos_the_players_who_stood(table):
    # Enquire Within §100 iii: "Any player with five cards of a suit (a flush) looes all the
    # players who stand in the game".
    open_variant(table, "five-card", preset="enquire-within", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    events = table.send("FlushShown", flushes={"C": ["4H", "5H", "9H", "QH", "JC"]})
    shown = one(events, "FlushShown")
    assert (shown["winner"], shown["payers"]) == ("C", ["B", "A"])
    assert sorted(postings(events, "flush")) == [("A", "C", 5), ("B", "C", 5)]


def test_a_claimed_flush_the_cards_do_not_make_is_refused(table):
    open_variant(table, "five-card", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    assert refused(table, "FlushShown",
                   flushes={"B": ["2H", "5H", "9H", "QH", "KH"]})["rule"] == "flush-timing"
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    problem = refused(table, "FlushShown", flushes={"B": ["2H", "5H", "9H", "QH", "KS"]})
    assert problem["rule"] == "flush-cards" and problem["field"] == "flushes.B"
    # four of a suit with a knave that is not Pam
    assert refused(table, "FlushShown",
                   flushes={"B": ["2H", "5H", "9H", "QH", "JD"]})["rule"] == "flush-cards"
    assert refused(table, "FlushShown",
                   flushes={"B": ["2S", "5S", "9S", "QS", "KS"]})["rule"] == "card-unseen"
    assert refused(table, "FlushShown",
                   flushes={"D": ["2H", "5H", "9H", "QH", "KH"]})["rule"] == "flush-standing"
    table.send("CardPlayed", player="B", card="3C")
    assert refused(table, "FlushShown",
                   flushes={"B": ["2H", "5H", "9H", "QH", "KH"]})["rule"] == "flush-timing"


def test_flushes_belong_to_five_card_loo(table):
    open_variant(table, "irish")
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    assert refused(table, "FlushShown",
                   flushes={"B": ["2H", "5H", "9H", "QH", "KH"]})["rule"] == "flush-variant"


# ---------------------------------------------------------------- flush precedence by preset

PLAIN_WITH_PAM = ["3D", "5D", "9D", "QD", "JC"]  # diamonds, four with Pam
PLAIN_HEARTS = ["2H", "5H", "9H", "QH", "KH"]
TRUMP_SPADES = ["3S", "5S", "9S", "QS", "KS"]


@pytest.mark.parametrize(("preset", "order"), [
    ("baxter-wray", "trumps-pam-elder"), ("blenheim", "trumps-elder"),
    ("enquire-within", "trumps-pam-elder"), ("cassell", "trumps-pam-elder")])
def test_each_preset_stores_its_flush_precedence(table, preset, order):
    assert open_variant(table, "five-card", preset)["rules"]["flush_precedence"] == order


@pytest.mark.parametrize(("preset", "winner"), [
    # Baxter-Wray p. 28: "then the flush which includes Pam wins"
    ("baxter-wray", "C"),
    # Britannica: "As between two flushes which do not take precedence, the elder hand wins"
    ("blenheim", "B"),
    # Enquire Within §100 ii, "yields only to a superior flush, or the elder hand": read as
    # Baxter-Wray spells it out (decision, docs/rules.md §9.3)
    ("enquire-within", "C"),
    ("cassell", "C"),  # Cassell has no five-card loo: Baxter-Wray's (decision)
])
def test_between_two_plain_flushes_pam_counts_only_where_the_source_says(table, preset, winner):
    open_variant(table, "five-card", preset, players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "play"), ("A", "play"))
    # B is the elder hand; C's flush holds Pam
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS, "C": PLAIN_WITH_PAM}),
                "FlushShown")
    assert shown["winner"] == winner
    assert shown["beaten"] == [p for p in ("B", "C") if p != winner]


@pytest.mark.parametrize("preset", ["baxter-wray", "blenheim", "enquire-within", "cassell"])
def test_a_trump_flush_beats_the_elder_hand_and_pam_at_every_preset(table, preset):
    # Baxter-Wray p. 28 and Britannica: "A trump flush takes precedence of flushes in other
    # suits"
    open_variant(table, "five-card", preset, players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "play"), ("A", "throw_up"))
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS, "C": PLAIN_WITH_PAM,
                                                  "D": TRUMP_SPADES}), "FlushShown")
    assert (shown["winner"], shown["beaten"]) == ("D", ["B", "C"])


def test_blenheim_gives_the_pool_and_the_loos_to_the_elder_flush(table):
    # The case that paid the wrong player: at blenheim the elder hand B wins over C's flush with
    # Pam; C is exempt (another flush, and Pam), D and A pay B the loo (the pool, up to 35).
    open_variant(table, "five-card", "blenheim", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "play"), ("A", "play"))
    events = table.send("FlushShown", flushes={"C": PLAIN_WITH_PAM, "B": PLAIN_HEARTS})
    shown = one(events, "FlushShown")
    assert (shown["winner"], shown["beaten"], shown["payers"], shown["pam_held_by"]) == \
        ("B", ["C"], ["D", "A"], "C")
    # the pool: the dealer's 10 and three antes of 5
    assert postings(events, "pool_taken") == [("pool", "B", 25)]
    assert sorted(postings(events, "flush")) == [("A", "B", 25), ("D", "B", 25)]


@pytest.mark.parametrize(("rules", "field"), [
    ({"variant": "five-card", "flush_precedence": "pam-first"}, "rules.flush_precedence"),
    ({"variant": "irish", "flush_precedence": "trumps-elder"}, "rules.flush_precedence"),
    ({"flush_precedence": "trumps-elder"}, "rules.flush_precedence"),
    ({"exchange_at": "before-play"}, "rules.exchange_at"),  # three-card: the miss instead
    ({"variant": "irish", "exchange_at": "whenever"}, "rules.exchange_at"),
])
def test_the_new_variant_parameters_out_of_place_are_refused(table, rules, field):
    with pytest.raises(Refused) as err:
        table.open(["A", "B", "C"], rules=rules)
    assert err.value.status == 422 and err.value.problem["field"] == field


def test_a_club_may_choose_the_other_flush_precedence(table):
    rules = open_variant(table, "five-card", "baxter-wray", players=FOUR,
                         flush_precedence="trumps-elder")["rules"]
    assert rules["flush_precedence"] == "trumps-elder"
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "play"), ("A", "play"))
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS, "C": PLAIN_WITH_PAM}),
                "FlushShown")
    assert shown["winner"] == "B"


# ---------------------------------------------------------------- Enquire Within's pool


def test_enquire_within_five_card_pool_is_the_dealers_stake_alone(table):
    # Enquire Within §100 i: "the dealer (having paid his own stake into the pool) gives five
    # cards"; ii: "if every one at dealing stakes half-a-crown, the tricks are entitled to
    # sixpence a-piece, and whoever is looed must put down half-a-crown": a pool of one stake,
    # a fifth of it to each trick, a loo of one stake (docs/rules.md §11.35).
    rules = open_variant(table, "five-card", "enquire-within", players=FOUR)["rules"]
    assert (rules["ante"], rules["fresh_deal_price"], rules["loo_amount"]) == (0, 5, 5)
    started = table.send("DealStarted", trump_card="7H")
    assert postings(started) == [("A", "pool", 5)]
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    settled = one(tricks(table, ["B", "C", "B", "B", "C"]), "DealSettled")
    assert [s["amount_units"] for s in settled["shares"]] == [1, 1, 1, 1, 1]
    assert (settled["looed"], settled["loo_units"]) == (["A"], 5)
    assert table.session()["balances"] == {"A": -10, "B": 3, "C": 2, "D": 0}


# ---------------------------------------------------------------- the exchange's turn


@pytest.mark.parametrize(("preset", "at"), [
    ("baxter-wray", "turn-to-declare"), ("blenheim", "before-play"),
    ("enquire-within", "turn-to-declare"), ("cassell", "turn-to-declare")])
@pytest.mark.parametrize("variant", ["irish", "five-card"])
def test_each_preset_stores_when_cards_are_exchanged(table, preset, at, variant):
    assert open_variant(table, variant, preset)["rules"]["exchange_at"] == at


@pytest.mark.parametrize("variant", ["irish", "five-card"])
def test_at_baxter_wray_an_exchange_after_the_next_declaration_is_refused(table, variant):
    # Baxter-Wray p. 27: "the player, whose turn it is to declare, places the cards he wishes
    # exchanged, face downwards, on the table, and the dealer gives him a like number"
    open_variant(table, variant, players=FOUR)
    table.send("DealStarted", trump_card="7H")
    declare(table, ("B", "play"))
    offer = next(a for a in table.session()["expected"]["actions"]
                 if a["type"] == "CardsExchanged")
    assert (offer["players"], offer["exchange_at"]) == (["B"], "turn-to-declare")
    declare(table, ("C", "play"))
    # B's turn has passed: only C may exchange now
    offer = next(a for a in table.session()["expected"]["actions"]
                 if a["type"] == "CardsExchanged")
    assert offer["players"] == ["C"]
    with pytest.raises(Refused) as err:
        table.send("CardsExchanged", player="B", count=2)
    assert (err.value.status, err.value.problem["rule"]) == (409, "exchange-turn")
    assert "whose turn it is to declare" in err.value.problem["detail"]
    table.send("CardsExchanged", player="C", count=2)
    declare(table, ("D", "throw_up"), ("A", "play"))
    # the dealer declares last: his turn lasts until the first card
    assert [a["players"] for a in table.session()["expected"]["actions"]
            if a["type"] == "CardsExchanged"] == [["A"]]
    table.send("CardsExchanged", player="A", count=1)


def test_at_blenheim_declared_players_exchange_until_the_first_card(table):
    # Britannica: Irish loo "is played by allowing declared players to exchange"
    open_variant(table, "five-card", "blenheim", players=FOUR)
    table.send("DealStarted", trump_card="7H")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    offer = next(a for a in table.session()["expected"]["actions"]
                 if a["type"] == "CardsExchanged")
    assert (offer["players"], offer["exchange_at"]) == (["B", "C", "A"], "before-play")
    table.send("CardsExchanged", player="B", count=2)
    table.send("CardsExchanged", player="C", count=1)


def test_where_all_must_stand_the_exchanges_go_in_turn(table):
    # Club law: nobody declares, so a player's turn passes when a player after him exchanges
    # (docs/rules.md §11.40)
    open_variant(table, "five-card", players=FOUR, club_law=True)
    table.send("DealStarted", trump_card="7C")
    table.send("CardsExchanged", player="C", count=1)
    with pytest.raises(Refused) as err:
        table.send("CardsExchanged", player="B", count=1)
    assert err.value.problem["rule"] == "exchange-turn"
    table.send("CardsExchanged", player="D", count=1)


def test_a_club_may_keep_the_later_exchange_at_baxter_wray(table):
    open_variant(table, "irish", exchange_at="before-play")
    table.send("DealStarted", trump_card="7H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    table.send("CardsExchanged", player="B", count=1)


# ---------------------------------------------------------------- who holds Pam


def _blenheim_flush_deal(table, **rules):
    open_variant(table, "five-card", "blenheim", players=FOUR, **rules)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))


def test_the_holder_of_pam_is_asked_where_it_exempts_him_and_no_card_tells(table):
    _blenheim_flush_deal(table)
    flush = next(a for a in table.session()["expected"]["actions"] if a["type"] == "FlushShown")
    assert flush == {"type": "FlushShown", "players": ["B", "C", "A"], "pam": "JC",
                     "needs": ["flushes", "pam_held_by"],
                     "pam_candidates": ["B", "C", "D", "A"]}
    with pytest.raises(Refused) as err:
        table.send("FlushShown", flushes={"B": PLAIN_HEARTS})
    problem = err.value.problem
    assert (err.value.status, problem["rule"], problem["field"]) == \
        (422, "pam-held-by", "pam_held_by")
    assert problem["candidates"] == ["C", "D", "A"]  # B's five cards are shown
    assert table.session()["version"] == 6  # nothing appended


def test_null_says_nobody_holds_pam_and_everyone_else_pays(table):
    _blenheim_flush_deal(table)
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS}, pam_held_by=None),
                "FlushShown")
    assert (shown["pam_held_by"], shown["payers"]) == (None, ["C", "D", "A"])


def test_a_flush_shown_with_pam_answers_the_question(table):
    _blenheim_flush_deal(table)
    shown = one(table.send("FlushShown", flushes={"C": PLAIN_WITH_PAM}), "FlushShown")
    assert (shown["pam_held_by"], shown["payers"]) == ("C", ["B", "D", "A"])


def test_the_logged_cards_tell_who_holds_pam_and_the_table_is_not_asked(table):
    # C drew Pam in an exchange logged with its cards: the ledger knows he holds it.
    open_variant(table, "five-card", "blenheim", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    table.send("CardsExchanged", player="C", count=1, cards_out=["4D"], cards_in=["JC"])
    flush = next(a for a in table.session()["expected"]["actions"] if a["type"] == "FlushShown")
    assert (flush["needs"], flush["pam_held_by"]) == (["flushes"], "C")
    assert "pam_candidates" not in flush
    # never the table's word over the logged cards
    for claim in ("D", None):
        with pytest.raises(Refused) as err:
            table.send("FlushShown", flushes={"B": PLAIN_HEARTS}, pam_held_by=claim)
        assert (err.value.problem["rule"], err.value.problem["field"]) == \
            ("pam-holder", "pam_held_by")
        assert "C drew Pam (JC) in his exchange" in err.value.problem["detail"]
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS}), "FlushShown")
    assert (shown["pam_held_by"], shown["payers"]) == ("C", ["D", "A"])


def test_pam_turned_up_or_put_out_is_held_by_nobody(table):
    open_variant(table, "five-card", "blenheim", players=FOUR)
    table.send("DealStarted", trump_card="JC")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    flush = next(a for a in table.session()["expected"]["actions"] if a["type"] == "FlushShown")
    assert (flush["needs"], flush["pam_held_by"]) == (["flushes"], None)
    with pytest.raises(Refused) as err:
        table.send("FlushShown", flushes={"B": PLAIN_HEARTS}, pam_held_by="C")
    assert "Pam (JC) is the card turned up" in err.value.problem["detail"]
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS}), "FlushShown")
    assert (shown["pam_held_by"], shown["payers"]) == (None, ["C", "D", "A"])


def test_pam_put_out_in_a_logged_exchange_is_held_by_nobody(table):
    open_variant(table, "five-card", "blenheim", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    table.send("CardsExchanged", player="C", count=1, cards_out=["JC"], cards_in=["4D"])
    flush = next(a for a in table.session()["expected"]["actions"] if a["type"] == "FlushShown")
    assert (flush["needs"], flush["pam_held_by"]) == (["flushes"], None)
    with pytest.raises(Refused) as err:
        table.send("FlushShown", flushes={"B": PLAIN_HEARTS}, pam_held_by="C")
    assert "C put Pam (JC) out in his exchange" in err.value.problem["detail"]


def test_a_player_whose_flush_is_shown_without_pam_cannot_hold_it(table):
    _blenheim_flush_deal(table)
    with pytest.raises(Refused) as err:
        table.send("FlushShown", flushes={"B": PLAIN_HEARTS}, pam_held_by="B")
    assert (err.value.problem["rule"], err.value.problem["field"]) == \
        ("pam-holder", "pam_held_by")


def test_enquire_within_asks_only_among_the_players_who_stood(table):
    # Enquire Within §100 iii: the flush "looes all the players who stand in the game"; ii:
    # "except a player holding pam": only a standing player's holding matters
    open_variant(table, "five-card", "enquire-within", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    flush = next(a for a in table.session()["expected"]["actions"] if a["type"] == "FlushShown")
    assert flush["pam_candidates"] == ["B", "C", "A"]
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS}, pam_held_by="A"),
                "FlushShown")
    assert shown["payers"] == ["C"]


def test_baxter_wray_does_not_ask_who_holds_pam(table):
    # Baxter-Wray p. 28: every player pays "whether they stood or not", Pam or no Pam
    open_variant(table, "five-card", players=FOUR)
    table.send("DealStarted", trump_card="2S")
    declare(table, ("B", "play"), ("C", "play"), ("D", "throw_up"), ("A", "play"))
    flush = next(a for a in table.session()["expected"]["actions"] if a["type"] == "FlushShown")
    assert flush["needs"] == ["flushes"] and "pam_held_by" not in flush
    shown = one(table.send("FlushShown", flushes={"B": PLAIN_HEARTS}), "FlushShown")
    assert shown["payers"] == ["C", "D", "A"]


# ---------------------------------------------------------------- the call, asked


def test_the_lead_asks_whether_pam_be_civil_was_called_while_pam_is_out(table):
    open_variant(table, "five-card")
    table.send("DealStarted", trump_card="2H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    card = next(a for a in table.session()["expected"]["actions"] if a["type"] == "CardPlayed")
    assert card == {"type": "CardPlayed", "player": "B", "trick": 1,
                    "calls": ["pam-be-civil"],
                    "pam_call": {"card": "AH", "choices": ["pam-be-civil", "none"]}}
    with pytest.raises(Refused) as err:
        table.send("CardPlayed", player="B", card="AH")
    problem = err.value.problem
    assert (err.value.status, problem["rule"], problem["field"]) == (422, "pam-call", "call")
    # any other card needs no answer; "none" on it is no call and is not logged
    played = one(table.send("CardPlayed", player="B", card="3D", call="none"), "CardPlayed")
    assert "call" not in played


def test_the_call_is_not_asked_once_pam_is_gone(table):
    open_variant(table, "five-card")
    table.send("DealStarted", trump_card="JC")  # Pam turned up: out of play
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    card = next(a for a in table.session()["expected"]["actions"] if a["type"] == "CardPlayed")
    assert "pam_call" not in card
    played = one(table.send("CardPlayed", player="B", card="AC"), "CardPlayed")
    assert "call" not in played


def test_after_pam_is_played_the_ace_led_later_needs_no_answer(table):
    open_variant(table, "five-card")
    table.send("DealStarted", trump_card="2H")
    declare(table, ("B", "play"), ("C", "play"), ("A", "play"))
    play(table, [("B", "3D"), ("C", "JC"), ("A", "4D")])  # C trumps with Pam
    card = next(a for a in table.session()["expected"]["actions"] if a["type"] == "CardPlayed")
    assert card["player"] == "C" and "pam_call" not in card
    played = one(table.send("CardPlayed", player="C", card="AH"), "CardPlayed")
    assert "call" not in played


# ---------------------------------------------------------------- ten players, one card


def test_ten_players_at_five_card_loo_are_warned_of_a_stock_of_one_card(table):
    # 10 hands of five and the trump card leave 1 card of 52; Baxter-Wray p. 27: five-card loo
    # "is not suitable for more than six players"
    view = open_variant(table, "five-card", players=tuple("ABCDEFGHIJ"))
    assert [w["rule"] for w in view["warnings"]] == ["five-card-players", "short-stock"]
    short = view["warnings"][1]
    assert short["stock_left"] == 1 and "1 card in the pack" in short["detail"]
    assert "not suitable for more than six players" in view["warnings"][0]["detail"]
    assert table.session()["warnings"] == view["warnings"]
    table.send("DealStarted", trump_card="7H")
    declare(table, ("B", "play"))
    table.send("CardsExchanged", player="B", count=1)
    declare(table, ("C", "play"))
    with pytest.raises(Refused) as err:
        table.send("CardsExchanged", player="C", count=1)
    assert err.value.problem["rule"] == "pack-short"


def test_six_players_at_five_card_loo_and_three_card_tables_have_no_warning(table):
    assert "warnings" not in open_variant(table, "five-card", players=tuple("ABCDEF"))


def test_a_large_three_card_table_has_no_warning(table):
    assert "warnings" not in table.open(list("ABCDEFGHIJ"), first_dealer="A")
