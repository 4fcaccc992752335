"""The settlement statement of a session (docs/rules.md §8), in JSON and CSV.

Built from the running totals in the state, so a 1,000-deal session costs what a 1-deal
session costs: O(players).
"""

from __future__ import annotations

import csv
import io
from typing import Any, TypedDict

from .currencies import money_cell
from .errors import InvariantBroken
from .events import NEXT_POOL, POOL
from .state import SessionState
from .vocabulary import EndMethod, Outcome, Preset, Status


class Statement(TypedDict):
    """A session's settlement statement (`statement`): who paid and received what, the pools,
    the zero-sum check, the log it was drawn from and who pays whom (docs/api.md)."""

    session_id: str
    name: str
    version: int
    status: Status
    ended_method: EndMethod | None
    preset: Preset
    unit: str
    money_per_unit_minor: int | None
    currency: str | None
    deals: int
    players: list[dict[str, Any]]  # per seat: paid and received per category, the net
    pool: dict[str, Any]  # the units on the table and what became of them
    corrections: list[dict[str, Any]]
    outcomes: list[dict[str, Any]]
    check: dict[str, Any]  # nets_plus_pools_units, zero_sum
    log: dict[str, Any] | None  # the pin: version, chain head, chain format
    settlement: dict[str, Any]  # final, provisional, transfers

POOL_PARTY = "pool"


def _transfers(balances: dict[str, int]) -> list[dict[str, Any]]:
    """Who pays whom: the largest debtor pays the largest creditor until all are square.

    `balances` sum to zero (the pool, while it holds units, is a creditor like a player), so
    the transfers settle every party exactly.
    """
    if sum(balances.values()) != 0:
        raise InvariantBroken("the parties to a settlement do not sum to zero")
    debtors = sorted(((-b, p) for p, b in balances.items() if b < 0), reverse=True)
    creditors = sorted(((b, p) for p, b in balances.items() if b > 0), reverse=True)
    out = []
    i = j = 0
    debt = [d for d, _ in debtors]
    credit = [c for c, _ in creditors]
    while i < len(debtors) and j < len(creditors):
        amount = min(debt[i], credit[j])
        out.append({"from": debtors[i][1], "to": creditors[j][1], "amount_units": amount})
        debt[i] -= amount
        credit[j] -= amount
        if debt[i] == 0:
            i += 1
        if credit[j] == 0:
            j += 1
    return out


def statement(state: SessionState, log: dict[str, Any] | None = None) -> Statement:
    """The settlement statement; `log` ({"version", "chain_head", "chain_format"}, from the
    store) pins the log the statement was drawn from: a later change to it no longer matches.
    """
    per_unit = state.money_per_unit_minor
    players: list[dict[str, Any]] = []
    for p in state.seats:
        totals = state.totals.get(p, {})
        paid = {k: -v for k, v in sorted(totals.items()) if v < 0}
        received = {k: v for k, v in sorted(totals.items()) if v > 0}
        net = state.balances[p]
        if sum(totals.values()) != net:
            raise InvariantBroken(f"{p}: categories do not add up to the net")
        players.append({
            "player": p, "member_id": state.members.get(p),
            "active": p in state.active, "deals_dealt": state.deals_dealt.get(p, 0),
            "paid_units": paid, "received_units": received,
            "paid_total_units": sum(paid.values()), "received_total_units": sum(received.values()),
            "net_units": net,
            "net_money_minor": net * per_unit if per_unit is not None else None,
        })
    pool, nxt = state.balances[POOL], state.balances[NEXT_POOL]
    total = sum(x["net_units"] for x in players) + pool + nxt
    parties = {x["player"]: x["net_units"] for x in players}
    if pool + nxt:
        # docs/rules.md §8: units still on the table belong to the pool, a party owed them like a
        # player until the session ends; the players' nets sum to minus what it holds.
        parties[POOL_PARTY] = pool + nxt
    transfers = _transfers(parties)
    for t in transfers:
        t["amount_money_minor"] = t["amount_units"] * per_unit if per_unit is not None else None
    return {
        "session_id": state.session_id,
        "name": state.name,
        "version": state.version,
        "status": state.status,
        "ended_method": state.ended_method,
        "preset": state.rules.preset,
        "unit": state.unit,
        "money_per_unit_minor": per_unit,
        "currency": state.currency,
        "deals": state.deal_no,
        "players": players,
        "pool": {
            "current_pool_units": pool,
            "next_pool_units": nxt,
            "loos_owed": list(state.loos_owed),
            "flows_units": dict(sorted(state.pool_flows.items())),
            "what_became_of_it": _pool_fate(state, pool + nxt),
        },
        "corrections": list(state.corrections),
        "outcomes": [{"outcome": name, "deals": count, "meaning": OUTCOMES.get(name, name)}
                     for name, count in sorted(state.outcomes.items())],
        "check": {"nets_plus_pools_units": total, "zero_sum": total == 0},
        "log": log,
        # Provisional until the session ends: the pool is then one of the parties.
        "settlement": {"final": state.status == Status.ENDED and pool + nxt == 0,
                       "provisional": state.status != Status.ENDED, "transfers": transfers},
    }


# How a deal ended (DealSettled.outcome), in words (docs/rules.md §5.9).
OUTCOMES: dict[Outcome, str] = {
    Outcome.DIVIDED: "the tricks divided the pool",
    Outcome.POOL_WON: "one player took all three tricks and the pool (all-or-nothing loo)",
    Outcome.POOL_STAYS: "the tricks were divided and the pool stayed for the next deal "
                        "(all-or-nothing loo)",
    Outcome.DEALER_TOOK_POOL: "everyone before the dealer threw up: the dealer took the pool",
    Outcome.MISS_HOLDER_TOOK_POOL: "only the holder of the miss stood: he took the pool",
    Outcome.LAST_STANDING_TOOK_POOL: "a penalty made the dealer throw up when one player "
                                     "stood: that player took the pool without play",
    Outcome.NOBODY_STOOD: "nobody stood (a penalty made the dealer throw up): the pool was "
                          "carried to the next deal",
    Outcome.SINGLE_WON: "turn-up single: a card of the turned-up suit beat it and took the "
                        "pool",
    Outcome.SINGLE_NOT_WON: "turn-up single: no card beat the turn-up; everyone was looed and "
                            "the pool was carried",
    Outcome.FLUSH: "five-card loo: a flush took the pool and a loo from each player who pays "
                   "it; the hand was not played",
}


def member_statement(full: dict[str, Any], member_id: str) -> dict[str, Any] | None:
    """One member's part of a session's statement (docs/books.md, "A member's own view"):
    his own line, whole, and the session's totals; no other player's line, name or transfer.
    None when he held no seat in it."""
    players = full["players"]
    mine = next((p for p in players if p.get("member_id") == member_id), None)
    if mine is None:
        return None
    pool = full["pool"]
    out = {k: full[k] for k in ("session_id", "name", "version", "status", "ended_method",
                                "preset", "unit", "money_per_unit_minor", "currency", "deals",
                                "check", "log")}
    out.update({
        "member_id": member_id,
        "line": mine,
        "totals": {
            "players": len(players),
            "paid_units": sum(p["paid_total_units"] for p in players),
            "received_units": sum(p["received_total_units"] for p in players),
            "won_units": sum(p["net_units"] for p in players if p["net_units"] > 0),
            "lost_units": -sum(p["net_units"] for p in players if p["net_units"] < 0),
        },
        "pool": {"current_pool_units": pool["current_pool_units"],
                 "next_pool_units": pool["next_pool_units"],
                 "what_became_of_it": pool["what_became_of_it"]},
        "corrections": len(full["corrections"]),
        "final": full["settlement"]["final"],
    })
    if "as_of" in full:
        out["as_of"] = full["as_of"]
    # his line and the others' make the session's totals: paid in is paid out or pooled
    if out["totals"]["paid_units"] - out["totals"]["received_units"] != \
            pool["current_pool_units"] + pool["next_pool_units"]:
        raise InvariantBroken("the players' payments do not add up to the pools")
    return out


def _pool_fate(state: SessionState, left: int) -> str:
    if state.status == Status.ENDED:
        return {EndMethod.SINGLE: "the session ended after a hand without a loo; anything "
                                  "carried was divided equally",
                EndMethod.DIVIDE_POOL: "the pool was divided equally among the players",
                EndMethod.RELEASE_LAST_LOOS: "the last loos were released and the rest "
                                             "divided equally",
                }[state.ended_method or EndMethod.SINGLE]
    if left:
        return f"{left} units are on the table for the next deal"
    return "the pools are empty"


# OWASP, CSV injection: a cell beginning with one of these is a formula to a spreadsheet,
# their full-width forms included (a spreadsheet set for East Asian input folds ＝ to =).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
# List separators a spreadsheet may take a cell's leading `;` or `,` for, so that what
# follows starts a cell of its own: `;=cmd()` is a formula too.
_SEPARATORS = ";,"


def safe_cell(value: object) -> object:
    """A text cell a spreadsheet will not run: a leading quote neutralises a formula.

    Numbers stay numbers (a negative net is not text); only text is escaped.
    """
    if isinstance(value, str) and value.lstrip(_SEPARATORS).startswith(FORMULA_START):
        return "'" + value
    return value


class _SafeWriter:
    def __init__(self, buf: io.StringIO):
        self._w = csv.writer(buf, lineterminator="\n")

    def writerow(self, row: list[object]) -> None:
        self._w.writerow([safe_cell(v) for v in row])


STATEMENT_TABLES = ("players", "summary", "transfers")


def statement_tables(state: SessionState, log: dict[str, Any] | None = None
                     ) -> dict[str, list[list[object]]]:
    """The statement's tables, each a header and its rows: `players` (paid and received per
    category, the net), `summary` (the pools, the zero-sum check, the log's pin) and
    `transfers` (who pays whom)."""
    data = statement(state, log)
    paid = sorted({k for x in data["players"] for k in x["paid_units"]})
    received = sorted({k for x in data["players"] for k in x["received_units"]})
    currency = data["currency"] or ""
    players: list[list[object]] = [
        ["player", *(f"paid:{c}" for c in paid), *(f"received:{c}" for c in received),
         "net_units", "currency", "net_money", "net_money_minor"]]
    for x in data["players"]:
        players.append([x["player"], *(x["paid_units"].get(c, 0) for c in paid),
                        *(x["received_units"].get(c, 0) for c in received), x["net_units"],
                        currency, _money(x["net_money_minor"], currency),
                        "" if x["net_money_minor"] is None else x["net_money_minor"]])
    pool = data["pool"]
    summary: list[list[object]] = [
        ["pool", "current_pool_units", pool["current_pool_units"], "next_pool_units",
         pool["next_pool_units"], pool["what_became_of_it"]],
        ["check", "nets_plus_pools_units", data["check"]["nets_plus_pools_units"],
         "zero_sum", data["check"]["zero_sum"]]]
    if log:
        summary.append(["log", "version", log["version"], "chain_head", log["chain_head"]])
        signed = log.get("checkpoint")
        if signed:  # the head signed with the service's key (ledger/audit/checkpoints.py)
            summary.append(["checkpoint", "signed_at", signed["signed_at"], "key", signed["key"],
                            "signature", signed["signature"]])
    transfers: list[list[object]] = [["from", "to", "amount_units", "currency",
                                      "amount_money", "amount_money_minor"]]
    for t in data["settlement"]["transfers"]:
        transfers.append([t["from"], t["to"], t["amount_units"], currency,
                          _money(t["amount_money_minor"], currency),
                          "" if t["amount_money_minor"] is None else t["amount_money_minor"]])
    return {"players": players, "summary": summary, "transfers": transfers}


def _money(minor: int | None, currency: str) -> object:
    """A money cell: the amount in its currency ("0.50"), empty for a game for counters."""
    return "" if minor is None or not currency else money_cell(minor, currency)


def statement_csv(state: SessionState, log: dict[str, Any] | None = None,
                  table: str | None = None) -> str:
    """The statement as CSV: one of its tables (`table`), or all of them one after the
    other, a blank line between, as the statement sheet has always been written."""
    tables = statement_tables(state, log)
    buf = io.StringIO()
    w = _SafeWriter(buf)
    chosen = [tables[table]] if table else [tables[name] for name in STATEMENT_TABLES]
    for n, rows in enumerate(chosen):
        if n:
            w.writerow([])
        for row in rows:
            w.writerow(row)
    return buf.getvalue()
