"""Small set-ups shared by the rule tests."""

from __future__ import annotations

from .driver import one

# Baxter-Wray with antes instead of the turn-up single, so a test starts on a three-card hand.
BW_HAND = {"fresh_pool": "antes"}


def open_three(table, preset="baxter-wray", **rules):
    """A deals to B, C, A; returns the session view."""
    if preset == "baxter-wray":
        rules = {**BW_HAND, **rules}
    return table.open(["A", "B", "C"], preset=preset, rules=rules, first_dealer="A")


def deal_and_declare(table, trump="2S", declarations=(("B", "play"), ("C", "play"),
                                                       ("A", "play"))):
    events = table.send("DealStarted", trump_card=trump)
    for player, declaration in declarations:
        events += table.send("DeclarationMade", player=player, declaration=declaration)
    return events


def play(table, cards):
    events = []
    for player, card in cards:
        events += table.send("CardPlayed", player=player, card=card)
    return events


def tricks(table, winners):
    events = []
    for winner in winners:
        events += table.send("TrickWon", winner=winner)
    return events


def breaches(events):
    return [(e["payload"]["player"], e["payload"]["rule"], e["payload"]["trick"])
            for e in events if e["type"] == "BreachDetected"]


def settled(events):
    return one(events, "DealSettled")
