"""A table the rule tests talk to: through the pure domain, or through the REST API.

Both drivers take the same wire types (`DealStarted`, `CardPlayed`, ...) and answer with the
same shapes, so every rule test runs end to end through HTTP as well as in memory.
"""

from __future__ import annotations

from typing import Any

from api.http.errors import status_of
from ledger.domain import CLIENT_TYPES, LedgerError, OpenSession, execute, session_view
from ledger.domain.events import event_to_record
from ledger.domain.execution import deal_view
from ledger.domain.statement import statement


class Refused(Exception):
    def __init__(self, status: int, problem: dict[str, Any]):
        super().__init__(f"{status}: {problem}")
        self.status = status
        self.problem = problem


class DomainTable:
    """In memory: execute() on a state, deal views captured as the store does."""

    def __init__(self) -> None:
        self.state: Any = None
        self.deals: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []

    def open(self, players: list[str], **body: Any) -> dict[str, Any]:
        try:
            self.state, events = execute(None, OpenSession(players=players, **body),
                                         session_id="s")
        except LedgerError as err:
            raise Refused(status_of(err), {"detail": err.message, **err.to_dict()}) from err
        self._record(events)
        return session_view(self.state)

    def send(self, type_: str, **fields: Any) -> list[dict[str, Any]]:
        return self.batch([{"type": type_, **fields}])

    def batch(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        snapshot = self.state.to_dict()
        out: list[Any] = []
        try:
            for item in items:
                fields = {k: v for k, v in item.items() if k != "type"}
                cls = CLIENT_TYPES[item["type"]]
                self.state, events = execute(self.state, cls(**fields))
                out += events
        except LedgerError as err:
            self.state = type(self.state).from_dict(snapshot)
            raise Refused(status_of(err), {"detail": err.message, **err.to_dict()}) from err
        return self._record(out)

    def _record(self, events: list[Any]) -> list[dict[str, Any]]:
        out = []
        for e in events:
            type_, _, payload = event_to_record(e)
            out.append({"type": type_, "payload": payload})
            if "deal_no" in payload:
                self.deals[payload["deal_no"]] = deal_view(self.state)
        self.events += out
        return out

    def session(self) -> dict[str, Any]:
        return session_view(self.state)

    def deal(self, deal_no: int) -> dict[str, Any]:
        return self.deals[deal_no]

    def statement(self) -> dict[str, Any]:
        return statement(self.state)


class RestTable:
    """Over HTTP through Flask's test client."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.sid: str | None = None

    def _check(self, resp: Any) -> dict[str, Any]:
        if resp.status_code >= 400:
            assert resp.mimetype == "application/problem+json", resp.data
            raise Refused(resp.status_code, resp.get_json())
        return resp.get_json()

    def open(self, players: list[str], **body: Any) -> dict[str, Any]:
        data = self._check(self.client.post("/sessions", json={"players": players, **body}))
        self.sid = data["session_id"]
        return data["session"]

    def send(self, type_: str, **fields: Any) -> list[dict[str, Any]]:
        return self.batch([{"type": type_, **fields}])

    def batch(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # Every append names the version it builds on, as a client must (else 428).
        before = self.session()["version"]
        resp = self.client.post(f"/sessions/{self.sid}/events",
                                json={"events": items, "expected_version": before})
        if resp.status_code >= 400:
            assert self.session()["version"] == before, "a refused batch appended events"
        data = self._check(resp)
        return [{"type": e["type"], "payload": e["payload"]} for e in data["appended"]]

    def session(self) -> dict[str, Any]:
        return self._check(self.client.get(f"/sessions/{self.sid}"))

    def deal(self, deal_no: int) -> dict[str, Any]:
        return self._check(self.client.get(f"/sessions/{self.sid}/deals/{deal_no}"))

    def statement(self) -> dict[str, Any]:
        return self._check(self.client.get(f"/sessions/{self.sid}/statement"))


def postings(events: list[dict[str, Any]], reason: str | None = None) -> list[tuple]:
    """(from, to, amount) of the postings in `events`, optionally of one reason."""
    return [(p["from"], p["to"], p["amount_units"]) for e in events
            for p in e["payload"].get("postings", []) if reason is None or p["reason"] == reason]


def one(events: list[dict[str, Any]], type_: str) -> dict[str, Any]:
    found = [e["payload"] for e in events if e["type"] == type_]
    assert len(found) == 1, f"expected one {type_}, got {[e['type'] for e in events]}"
    return found[0]
