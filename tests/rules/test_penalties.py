"""docs/rules.md §7: every row of every preset's offence table, and what each penalty does."""

from __future__ import annotations

import pytest

from ledger.domain.offence_tables import MISS, PAM, TABLES

from .driver import Refused, one, postings
from .helpers import BW_HAND, tricks

FIVE = ["A", "B", "C", "D", "E"]
# preset -> (pool at the first deal, the deal's loo)
SETUP = {"baxter-wray": (3, 6), "blenheim": (18, 18), "enquire-within": (1, 3),
         "cassell": (15, 3)}
# preset -> offence -> (amount, destination, replay); "loo" is the deal's loo.
EXPECTED = {
    "baxter-wray": {
        **{o: ("single", "pool", "none") for o in (
            "misdeal", "interfering-with-deal", "looked-at-own-cards", "declared-out-of-turn",
            "looked-at-miss", "looked-at-thrown-up-cards", "looked-at-pack")},
        "looked-at-another-hand": ("loo", "pool", "none"),
        **{o: ("loo", "next_pool", "required") for o in (
            "lead-rule", "revoke", "not-heading", "not-trumping-to-head", "trump-after-trick",
            "played-out-of-turn", "exposed-card-in-play", "named-card",
            # five-card loo only (Baxter-Wray pp. 21, 28): played at five-card loo below
            "pam-be-civil")},
    },
    "blenheim": {
        **{o: ("stake", "pool", "none") for o in (
            "misdeal", "looked-at-own-cards", "declared-out-of-turn", "exposed-card")},
        **{o: (None, "settled-with-deal", "on-request") for o in (
            "exposed-card-in-play", "played-out-of-turn", "played-before-all-declared",
            "detached-card", "revoke", "lead-rule", "not-heading", "not-trumping-to-head",
            "trump-after-trick")},
    },
    "enquire-within": {o: ("loo", "next_pool", "none") for o in TABLES["enquire-within"]},
    # Cassell's loo is capped at the pool, so a loo charged before play is fixed when the deal
    # is settled, on the pool as it stood when play began (docs/rules.md §11.3).
    "cassell": {o: (None, "next_pool-at-settlement", "none") for o in TABLES["cassell"]},
}
ROWS = [(preset, offence) for preset, rows in EXPECTED.items() for offence in rows]


def test_every_offence_of_every_preset_is_covered_by_a_test():
    assert {p: set(rows) for p, rows in EXPECTED.items()} == \
        {p: set(rows) for p, rows in TABLES.items()}


def open_five(table, preset, **rules):
    if preset == "baxter-wray":
        rules = {**BW_HAND, **rules}
    table.open(FIVE, preset=preset, rules=rules, first_dealer="A")


def to_play(table):
    for p, d in (("B", "play"), ("C", "play"), ("D", "throw_up"), ("E", "throw_up"),
                 ("A", "throw_up")):
        table.send("DeclarationMade", player=p, declaration=d)


@pytest.mark.parametrize("preset, offence", ROWS)
def test_each_penalty_row_charges_its_amount_to_its_pool(table, preset, offence):
    spec = TABLES[preset][offence]
    five_card = spec.needs == PAM  # an offence with Pam: at five-card loo, loo 10, pool 5
    open_five(table, preset, **({"variant": "five-card"} if five_card else {}))
    table.send("DealStarted", trump_card="2S")
    amount, destination, replay = EXPECTED[preset][offence]
    if spec.stage == "in-play":
        to_play(table)
    if spec.leaves_play:  # throwing up after the lead: once the first card is led
        table.send("CardPlayed", player="B", card="3H")
        if amount == "loo" or amount is None:
            amount, destination = "loo", "next_pool"
    offender = "A" if spec.dealer_only else "B"
    events = table.send("PenaltyImposed", player=offender, offence=offence)
    penalty = one(events, "PenaltyImposed")
    pool, loo = (5, 10) if five_card else SETUP[preset]
    want = {"single": 3, "stake": 3, "loo": loo, None: None}[amount]
    assert (penalty["amount_units"], penalty["destination"], penalty["replay"]) == \
        (want, destination, replay)
    assert penalty["law"] == spec.law
    if want:
        assert postings(events, "penalty") == [(offender, destination, want)]
    if spec.redeal == "always":
        assert table.session()["deal"]["phase"] == "redeal"


def test_a_misdeal_is_dealt_again_by_the_same_dealer_without_a_second_price(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    table.send("DeclarationMade", player="B", declaration="play")
    table.send("PenaltyImposed", player="A", offence="misdeal")
    with pytest.raises(Refused) as refused:
        table.send("DealStarted", trump_card="4D", dealer="B")
    assert refused.value.problem["rule"] == "redeal-same-dealer"
    events = table.send("DealStarted", trump_card="4D")
    started = one(events, "DealStarted")
    assert started["redeal"] is True and started["postings"] == []
    session = table.session()
    assert session["pool_units"] == 18 + 3 and session["deal"]["trump_card"] == "4D"
    assert session["expected"]["actions"][0] == {
        "type": "DeclarationMade", "player": "B", "choices": ["play", "throw_up", "take_miss"]}


def test_only_the_dealer_misdeals(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="B", offence="misdeal")
    assert refused.value.problem["rule"] == "misdeal-dealer"


def test_interfering_causes_a_redeal_only_when_the_cards_were_mixed(table):
    open_five(table, "baxter-wray")
    table.send("DealStarted", trump_card="2S")
    table.send("PenaltyImposed", player="C", offence="interfering-with-deal")
    assert table.session()["deal"]["phase"] == "declaring"
    table.send("PenaltyImposed", player="C", offence="interfering-with-deal", redeal=True)
    assert table.session()["deal"]["phase"] == "redeal"


def test_blenheim_declaring_before_his_turn_forces_a_throw_up(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    penalty = one(table.send("PenaltyImposed", player="C", offence="declared-out-of-turn"),
                  "PenaltyImposed")
    assert penalty["throw_up"] is True
    table.send("DeclarationMade", player="B", declaration="play")
    assert table.session()["expected"]["actions"][0]["player"] == "D"


def test_baxter_wray_looking_at_a_hand_while_standing_forfeits_and_looes_again(table):
    open_five(table, "baxter-wray")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    penalty = one(table.send("PenaltyImposed", player="B", offence="looked-at-another-hand"),
                  "PenaltyImposed")
    assert penalty["forfeits_winnings"] is True and penalty["throw_up"] is False
    result = one(tricks(table, ["C", "C", "C"]), "DealSettled")
    assert result["looed"] == ["B"]  # docs/rules.md §11.17: looed again if he takes no trick


def test_blenheim_offender_who_makes_a_trick_forfeits_it_and_is_fined_four_stakes(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    table.send("PenaltyImposed", player="B", offence="revoke")
    tricks(table, ["B", "C", "C"])
    assert table.session()["deal"]["phase"] == "review"
    events = table.send("ReplayWaived")
    result = one(events, "DealSettled")
    assert result["shares"][0]["stays_in_pool"] == "forfeited"
    assert postings(events, "penalty") == [("B", "next_pool", 12)]
    assert result["looed"] == [] and result["next_fresh"] is True  # a fine is not a loo
    assert result["carried_units"] == 6 + 0


def test_blenheim_offender_who_makes_no_trick_is_looed_and_pays_nothing_more(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    table.send("PenaltyImposed", player="B", offence="revoke")
    tricks(table, ["C", "C", "C"])
    events = table.send("ReplayWaived")
    assert postings(events, "penalty") == []
    assert postings(events, "loo") == [("B", "next_pool", 18)]


def test_blenheim_replay_is_asked_by_anyone_but_the_offender(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    table.send("PenaltyImposed", player="B", offence="revoke")
    tricks(table, ["C", "C", "C"])
    with pytest.raises(Refused) as refused:
        table.send("ReplayAsked", by="B")
    assert refused.value.problem["rule"] == "replay-on-request"
    assert one(table.send("ReplayAsked", by="D"), "ReplayStarted")["asked_by"] == "D"
    result = one(tricks(table, ["B", "B", "C"]), "DealSettled")
    # Judged on the replay (docs/rules.md §11.16): he made tricks, so the fine, and C is not looed.
    assert result["looed"] == [] and result["shares"][0]["stays_in_pool"] == "forfeited"


def test_enquire_within_offender_keeps_his_winnings_and_has_one_loo_for_the_deal(table):
    open_five(table, "enquire-within")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    table.send("PenaltyImposed", player="C", offence="revoke")
    second = one(table.send("PenaltyImposed", player="C", offence="not-heading"),
                 "PenaltyImposed")
    assert second["amount_units"] == 0 and second["destination"] == "covered"
    events = tricks(table, ["B", "B", "B"])
    assert postings(events, "loo") == []  # his offence loo covers taking no trick
    assert table.session()["balances"]["C"] == -3


def test_an_offence_in_play_needs_a_standing_offender(table):
    open_five(table, "enquire-within")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="D", offence="revoke")
    assert refused.value.problem["rule"] == "standing-player"


def test_an_offence_outside_the_presets_laws_is_refused_listing_them(table):
    open_five(table, "enquire-within")
    table.send("DealStarted", trump_card="2S")
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="B", offence="detached-card")
    assert refused.value.problem["rule"] == "offence"
    assert "told-cards" in refused.value.problem["detail"]


def test_no_penalty_once_the_deal_is_settled(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    tricks(table, ["B", "B", "C"])
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="B", offence="revoke")
    assert refused.value.problem["rule"] == "deal-in-progress"


def test_a_blenheim_fine_in_a_misdealt_hand_is_charged_at_the_redeal(table):
    open_five(table, "blenheim")
    table.send("DealStarted", trump_card="2S")
    table.send("DeclarationMade", player="B", declaration="play")
    table.send("PenaltyImposed", player="B", offence="played-before-all-declared")
    table.send("PenaltyImposed", player="A", offence="misdeal")
    events = table.send("DealStarted", trump_card="4D")
    assert postings(events) == [("B", "next_pool", 12)]
    to_play(table)
    result = one(tricks(table, ["B", "C", "C"]), "DealSettled")  # no review for a void hand
    assert result["shares"][0]["paid_to"] == "B"


# ---------------------------------------------------------------- offences the game cannot have


@pytest.mark.parametrize("preset", ["baxter-wray", "enquire-within", "cassell"])
@pytest.mark.parametrize("variant", ["irish", "five-card"])
def test_looking_at_the_miss_is_no_offence_where_there_is_no_miss(table, preset, variant):
    # Baxter-Wray p. 27 (five-card loo): "There is no miss"; p. 28: Irish loo is "virtually the
    # same"; Britannica: "There is no miss". docs/rules.md §9.2, §9.3.
    assert TABLES[preset]["looked-at-miss"].needs == MISS
    open_five(table, preset, variant=variant)
    table.send("DealStarted", trump_card="2S")
    penalty = next(a for a in table.session()["expected"]["actions"]
                   if a["type"] == "PenaltyImposed")
    assert "looked-at-miss" not in penalty["offences"]
    assert "looked-at-own-cards" in penalty["offences"]
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="B", offence="looked-at-miss")
    problem = refused.value.problem
    assert (refused.value.status, problem["rule"], problem["field"]) == \
        (422, "no-miss", "offence")
    assert "There is no miss" in problem["detail"]
    assert table.session()["version"] == 2  # nothing appended


def test_pam_be_civil_is_no_offence_where_there_is_no_pam(table):
    # Baxter-Wray p. 28: at Irish loo "Pam is unknown"; at three-card loo there is no Pam
    open_five(table, "baxter-wray")
    table.send("DealStarted", trump_card="2S")
    to_play(table)
    penalty = next(a for a in table.session()["expected"]["actions"]
                   if a["type"] == "PenaltyImposed")
    assert "pam-be-civil" not in penalty["offences"] and "looked-at-miss" in penalty["offences"]
    with pytest.raises(Refused) as refused:
        table.send("PenaltyImposed", player="B", offence="pam-be-civil")
    assert (refused.value.status, refused.value.problem["rule"]) == (422, "no-pam")
