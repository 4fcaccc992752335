"""Reading an event without marshmallow (api/schemas.py `_PlainLoad`) gives what the schema
gives: the same command, or the same refusal (the schema's own, since the plain reading
defers to it on anything it cannot read exactly).

Events come from generated sessions (every client type the generator sends, odd spellings
included), then mutated: a member dropped, added or renamed, a value replaced by null, a
number, a boolean, a list, other text, the type swapped.
"""

from __future__ import annotations

import functools
from typing import Any

import marshmallow as ma
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api import schemas
from api.errors import ApiProblem
from ledger.domain import LedgerError
from tests.support.sessions import RandomChooser, SessionShape, play_session


@functools.cache
def played_events() -> tuple[dict[str, Any], ...]:
    events = []
    for seed in range(6):
        played = play_session(RandomChooser(seed), shape=SessionShape(
            min_deals=2, max_deals=5, variants=("three-card", "irish", "five-card")))
        events.extend(step.wire() for step in played.steps[1:])
    return tuple(events)


def outcome(event: Any) -> tuple[Any, ...]:
    try:
        return ("command", schemas.load_event(event, "events.3"))
    except ApiProblem as problem:
        return ("problem", problem.status, problem.code, problem.rule, problem.field,
                problem.detail, problem.extra)
    except ma.ValidationError as error:
        return ("invalid", error.messages)
    except LedgerError as error:
        return ("refused", type(error), str(error), error.to_dict())


def both_ways(event: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    plain = outcome(event)
    saved = schemas._PLAIN_LOADERS
    schemas._PLAIN_LOADERS = {kind: (lambda e: None) for kind in saved}
    try:
        by_schema = outcome(event)
    finally:
        schemas._PLAIN_LOADERS = saved
    return plain, by_schema


def test_every_event_of_generated_sessions_reads_the_same():
    read_plainly = set()
    for event in played_events():
        plain, by_schema = both_ways(event)
        assert plain == by_schema, event
        if schemas._PLAIN_LOADERS[event["type"]](event) is not None:
            read_plainly.add(event["type"])
    # the plain reading does serve the events of play
    assert {"DealStarted", "DeclarationMade", "CardPlayed", "TrickWon"} <= read_plainly


VALUES = st.none() | st.booleans() | st.integers(-3, 2**70) | st.floats(allow_nan=False) \
    | st.text(max_size=50) | st.sampled_from(["", " ", "QH", "10S", "7♥", "A", "Ada", "play",
                                              "throw_up", "\x00", "a" * 41, "pam-be-civil"]) \
    | st.lists(st.text(max_size=3), max_size=3) | st.dictionaries(st.text(max_size=3),
                                                                    st.text(max_size=3),
                                                                    max_size=2)


@st.composite
def mutated(draw: Any) -> dict[str, Any]:
    event = dict(draw(st.sampled_from(played_events())))
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["drop", "add", "replace", "type"]))
        keys = sorted(event)
        if action == "drop" and keys:
            event.pop(draw(st.sampled_from(keys)))
        elif action == "add":
            name = draw(st.sampled_from(["player", "card", "call", "dealer", "face_up",
                                         "winner", "extra", "amount", "redeal", "by"]))
            event[name] = draw(VALUES)
        elif action == "replace" and keys:
            event[draw(st.sampled_from(keys))] = draw(VALUES)
        elif action == "type":
            event["type"] = draw(st.sampled_from([*schemas.EVENT_SCHEMAS, "Nope"]))
    return event


@settings(max_examples=1500, deadline=None)
@given(mutated())
def test_any_mutated_event_reads_the_same(event):
    plain, by_schema = both_ways(event)
    assert plain == by_schema


@pytest.mark.parametrize("event", [
    {"type": "CardPlayed", "player": "A", "card": "QH", "call": None},
    {"type": "CardPlayed", "player": "A", "card": "QH", "call": "pam-be-civil"},
    {"type": "DealStarted", "trump_card": "7H", "dealer": None},
    {"type": "DealStarted", "trump_card": "7H", "face_up": {"A": "5C", "B": "9H"}},
    {"type": "TrickWon", "winner": "A\nB"},
    {"type": "TrickWon", "winner": ""},
    {"type": "TrickWon", "winner": 1},
    {"type": "DeclarationMade", "player": "C", "declaration": "maybe"},
    {"type": "PenaltyImposed", "player": "C", "offence": "revoke", "redeal": 1},
])
def test_edges_read_the_same(event):
    plain, by_schema = both_ways(event)
    assert plain == by_schema
