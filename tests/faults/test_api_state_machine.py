"""A Hypothesis state machine driving the HTTP API with random commands, legal and not: any
event a client may send, in any order, as one event or a batch, with the right version, a
stale one, none, a fresh or a reused Idempotency-Key, and bodies that are not JSON at all.

Whatever it sends: never a 5xx, every refusal is problem+json, and the session's version moves
only on a 201 that is not a replay, by exactly the events that 201 lists.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from api import create_app
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
from tests.clubs import club_client

PLAYERS = ["A", "B", "C", "D", "E"]
CARDS = [f"{r}{s}" for r in ["2", "7", "10", "J", "Q", "K", "A"] for s in "CDHS"] + ["ZZ", "1S"]
player = st.sampled_from(PLAYERS + ["Z"])
EVENT = st.one_of(
    st.builds(lambda c: {"type": "DealStarted", "trump_card": c}, st.sampled_from(CARDS)),
    st.builds(lambda p, d: {"type": "DeclarationMade", "player": p, "declaration": d}, player,
              st.sampled_from(["play", "throw_up", "take_miss", "play_miss_for_pool", "x"])),
    st.builds(lambda p, c: {"type": "CardPlayed", "player": p, "card": c}, player,
              st.sampled_from(CARDS)),
    st.builds(lambda p: {"type": "TrickWon", "winner": p}, player),
    st.builds(lambda p: {"type": "PenaltyImposed", "player": p, "offence": "revoke"}, player),
    st.just({"type": "LastRoundStarted"}),
    st.sampled_from([{"type": "SessionEnded", "method": "single"},
                     {"type": "TrickWon", "winner": "A", "amount_units": 5},
                     {"type": "Nonsense"}, {"type": "CardPlayed"}, {}]),
)
PRECONDITION = st.sampled_from(["current", "stale", "none", "new-key", "old-key"])


class HttpApi(RuleBasedStateMachine):
    app: Any = None
    client: Any = None

    @initialize()
    def open(self) -> None:
        response = self.client.post("/sessions", json={"players": PLAYERS,
                                                       "preset": "blenheim"})
        assert response.status_code == 201
        self.sid = response.get_json()["session_id"]
        self.version = response.get_json()["version"]
        self.keys: list[tuple[str, Any]] = []
        self.counter = itertools.count()

    def _post(self, body: Any, how: str) -> None:
        headers: dict[str, str] = {}
        if how == "current":
            headers["If-Match"] = f'"{self.version}"'
        elif how == "stale":
            headers["If-Match"] = f'"{max(self.version - 1, 0)}"'
        elif how == "new-key" or (how == "old-key" and not self.keys):
            key = f"k{next(self.counter)}"
            headers["Idempotency-Key"] = key
            self.keys.append((key, body))
        elif how == "old-key":
            headers["Idempotency-Key"] = self.keys[-1][0]
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        response = self.client.post(f"/sessions/{self.sid}/events", data=raw, headers=headers,
                                    content_type="application/json")
        assert response.status_code < 500, response.get_data(as_text=True)
        now = self.client.get(f"/sessions/{self.sid}").get_json()["version"]
        replayed = response.headers.get("Idempotent-Replayed") == "true"
        if response.status_code == 201 and not replayed:
            appended = response.get_json()["appended"]
            assert now == self.version + len(appended) == response.get_json()["version"]
        else:
            if response.status_code >= 400:
                assert response.mimetype == "application/problem+json"
                assert response.get_json()["status"] == response.status_code
            assert now == self.version, (response.status_code, response.get_json())
        self.version = now

    @rule(event=EVENT, how=PRECONDITION)
    def one_event(self, event: dict[str, Any], how: str) -> None:
        self._post(event, how)

    @rule(data=st.data(), how=st.sampled_from(["current", "current", "new-key", "old-key"]))
    def what_the_table_expects(self, data: st.DataObject, how: str) -> None:
        """A move the session offers now (its `expected` actions), with a random card where
        one is needed: mostly legal, so that sessions get somewhere."""
        view = self.client.get(f"/sessions/{self.sid}").get_json()
        actions = [a for a in view["expected"].get("actions", [])
                   if a["type"] in ("DealStarted", "DeclarationMade", "CardPlayed",
                                    "TrickWon")]
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        body: dict[str, Any] = {"type": action["type"]}
        if action["type"] == "DealStarted":
            body["trump_card"] = data.draw(st.sampled_from(CARDS[:-2]))
        elif action["type"] == "DeclarationMade":
            body["player"] = action["player"]
            body["declaration"] = data.draw(st.sampled_from(action["choices"]))
        elif action["type"] == "CardPlayed":
            body["player"] = action.get("player", "A")
            body["card"] = data.draw(st.sampled_from(action.get("cards") or CARDS[:-2]))
        else:
            body["winner"] = data.draw(st.sampled_from(action.get("players") or PLAYERS))
        self._post(body, how)

    @rule(batch=st.lists(EVENT, min_size=0, max_size=4), how=PRECONDITION,
          with_version=st.booleans())
    def batch(self, batch: list[dict[str, Any]], how: str, with_version: bool) -> None:
        body: dict[str, Any] = {"events": batch}
        if with_version:
            body["expected_version"] = self.version
        self._post(body, how)

    @rule(raw=st.sampled_from([b"", b"{", b"[]", b"null", b'{"type": 1}', b"\xff\xfe",
                               b'{"events": "x"}', b'{"type": "DealStarted", "trump_card":'
                               b' "\\ud800"}']), how=PRECONDITION)
    def not_json(self, raw: bytes, how: str) -> None:
        self._post(raw, how)

    @rule(what=st.sampled_from(["", "/statement", "/events?after=0&limit=3", "/deals/1",
                                "/deals/99", "/verify"]))
    def read(self, what: str) -> None:
        response = self.client.get(f"/sessions/{self.sid}{what}")
        assert response.status_code < 500

    @invariant()
    def whole(self) -> None:
        if getattr(self, "sid", None) and self.version % 7 == 0:
            report = self.client.get(f"/sessions/{self.sid}/verify").get_json()
            assert report["ok"], report


@pytest.fixture
def machine_app(tmp_path):
    url = f"sqlite:///{tmp_path / 'machine.db'}"
    upgrade(url)
    engine = make_engine(url)
    app = create_app({"ENGINE": engine, "TESTING": True})
    yield app, club_client(app, engine)
    engine.dispose()


def test_random_commands_over_http_never_a_5xx_and_the_version_moves_only_on_201(
        machine_app):
    HttpApi.app, HttpApi.client = machine_app
    HttpApi.TestCase.settings = settings(
        max_examples=20, stateful_step_count=25, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    HttpApi.TestCase().runTest()
