"""A session exported as one file an auditor checks without the service or its database.

    {"format": "lanterloo-export/1", "session_id": ..., "club_id": ..., "chain_format": ...,
     "events": [every stored event: the chain's fields, its position and hash],
     "statement": the statement as served, "checkpoint": the head signed for its last event}

`verify_export` believes nothing the file says that it cannot recompute: every hash from the
session's genesis (ledger/store/chain.py), which binds the club the file names; the
signature, by a key the auditor brings (never the one the file names: anyone can sign with
a key of their own), over the head of the LAST event (an event after the signed head is
signed by no one); the statement, every field the events determine (the name, the status,
the currency, the unit's value, each player's money, the pool, the settlement, the log's
pin), folded again from the events with the pure domain. Only the cash counted after the
close and the evening it belongs to are outside the log: they are named as unchecked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from ledger.audit import checkpoint_log, receipts
from ledger.audit.checkpoints import key_id, signature_problem
from ledger.domain import statement
from ledger.domain.events import SessionAttached
from ledger.domain.statement import Statement
from ledger.projections import UNBOUND, fold_log
from ledger.store.base import EventRow
from ledger.store.chain import CHAIN_FORMAT

FORMAT = "lanterloo-export/1"
# What a served statement holds beside the fold: the cash counted after the close, outside
# the session's log (ledger/books/service.py), and the evening that cash belongs to.
OUTSIDE_THE_LOG = ("cash", "evening")
PIN = ("version", "chain_head", "chain_format")


class ExportUnsigned(RuntimeError):
    """The head of the export's end could not be signed and kept."""


def export_session(ledger: Any, session_id: str, *, sign: bool = False) -> dict[str, Any]:
    """The export of the session, as `ledger` (ledger.sessions.service.Ledger: a club's, or the
    operator's) sees it, with the head kept for its last event (the latest kept when none
    is). `sign` (the command line's `lanterloo export`, never a GET): sign that head first
    when it is not kept yet; ExportUnsigned when it cannot be."""
    from ledger.store import queries

    drawn = ledger.statement(session_id)
    version = drawn["log"]["version"]
    with ledger.store.consistent() as conn:
        row = queries.load_session(conn, session_id, club_id=None)
        rows = [r for _, stream in ledger.store.event_rows(conn, session_id, session_id)
                for r in stream if r.version <= version]
        if sign:
            done = checkpoint_log.sign_heads(conn, [(session_id, version)])
            if done.key is None:
                raise ExportUnsigned("no checkpoint key is configured")
            if done.refused:
                raise ExportUnsigned("; ".join(done.refused[session_id]))
            if done.unwritten:
                raise ExportUnsigned(done.unwritten)
    checkpoint = checkpoint_log.latest(session_id,
                                       at=(version, rows[-1].hash if rows else None))
    drawn["log"].pop("checkpoint", None)
    if checkpoint is not None:
        drawn["log"]["checkpoint"] = checkpoint
    # the receipt of this end in the club's log (ledger/audit/receipts.py), when it is there
    found = receipts.receipt(row.club_id, session_id)
    end = {"stream": session_id, "version": version, "head": rows[-1].hash if rows else None}
    kept = found if found is not None and found["leaf"] == end else None
    drawn["log"].pop("receipt", None)
    if kept is not None:
        drawn["log"]["receipt"] = kept
    return {"format": FORMAT, "session_id": session_id, "club_id": row.club_id,
            "chain_format": CHAIN_FORMAT, "events": [r._asdict() for r in rows],
            "statement": drawn, "checkpoint": checkpoint, "receipt": kept}


@dataclass
class Checked:
    """What `verify_export` found, and what it checked the export against."""

    problems: list[str]
    session_id: Any = None
    club_id: Any = None
    events: int = 0
    key: str | None = None  # the public key the signature was checked by

    def summary(self) -> str:
        club = f"club {self.club_id}" if self.club_id is not None else "no club"
        key = f"key {key_id(self.key)} ({self.key})" if self.key else "no trusted key"
        return f"session {self.session_id} of {club}, {self.events} events, checked by {key}"


def verify_export(data: Any, trusted: set[str] | None) -> list[str]:
    """What is wrong with an export ([] when it holds); `trusted`: the public keys (hex)
    its head may be signed by (None: none given, and the signature is unchecked)."""
    return check_export(data, trusted).problems


def check_export(data: Any, trusted: set[str] | None) -> Checked:
    """`verify_export`, with what it checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return Checked([f"not an export of format {FORMAT}"])
    sid, club = data.get("session_id"), data.get("club_id")
    found = Checked([], sid, club)
    try:
        rows = [EventRow(**r) for r in data["events"]]
        drawn = data["statement"]
        if not isinstance(drawn, dict):
            raise TypeError("the statement is not an object")
    except (KeyError, TypeError) as error:
        return Checked([f"the export is incomplete: {error}"], sid, club)
    found.events = len(rows)
    if not isinstance(sid, str) or not rows:
        return Checked(["the export has no session id or no events"], sid, club)
    if club is not None and not isinstance(club, str):
        return Checked([f"club: {club!r} is not a club id"], sid, club)
    problems = found.problems
    if data.get("chain_format") != CHAIN_FORMAT:
        problems.append(f"chain_format: the export says {data.get('chain_format')!r}, its "
                        f"chain is {CHAIN_FORMAT}")
    others = sorted({str(r.stream_id) for r in rows if r.stream_id != sid})
    if others:
        problems.append(f"events: the export holds events of {', '.join(others)}, not of "
                        f"session {sid}")
    folded = fold_log(sid, rows, club_id=club)
    problems += folded.problems
    attached = [r.payload.get("club_id") for r in rows
                if r.type == SessionAttached.type and isinstance(r.payload, dict)]
    bound = attached[-1] if attached else folded.opened_in
    if not folded.chain_broken and bound not in (club, UNBOUND):
        problems.append(f"club: the export names club {club}, the chain binds {bound}")
    pin = {"version": len(rows), "chain_head": folded.head, "chain_format": CHAIN_FORMAT}
    checkpoint = data.get("checkpoint")
    problems += _checkpoint(checkpoint, sid, rows, trusted, found)
    problems += _receipt(data.get("receipt"), sid, rows, trusted)
    if folded.state is None:
        problems.append(f"fold: the events do not fold ({folded.error})")
        return found
    problems += _statement(drawn, statement(folded.state, pin), checkpoint,
                           data.get("receipt"))
    return found


def _statement(drawn: dict[str, Any], folded: Statement, checkpoint: Any,
               receipt: Any) -> list[str]:
    """Every field of the exported statement against the statement the events fold to."""
    again = orjson.loads(orjson.dumps(folded, option=orjson.OPT_NON_STR_KEYS))
    problems = []
    for key, value in again.items():
        if key == "log":
            continue
        if drawn.get(key, "(missing)") != value:
            problems.append(f"statement.{key}: the export says {drawn.get(key, '(missing)')!r}, "
                            f"the events fold to {value!r}")
    for key in sorted(set(drawn) - set(again) - set(OUTSIDE_THE_LOG)):
        problems.append(f"statement.{key}: not a field of a statement")
    log = drawn.get("log")
    if not isinstance(log, dict):
        return [*problems, "statement.log: the statement is pinned to no log"]
    for key in PIN:
        if log.get(key) != again["log"][key]:
            problems.append(f"statement.log.{key}: the export says {log.get(key)!r}, the "
                            f"events end at {again['log'][key]!r}")
    if "checkpoint" in log and log["checkpoint"] != checkpoint:
        problems.append("statement.log.checkpoint: not the export's signed head")
    if "receipt" in log and log["receipt"] != receipt:
        problems.append("statement.log.receipt: not the export's receipt")
    unknown = sorted(set(log) - {*PIN, "checkpoint", "receipt"})
    if unknown:
        problems.append(f"statement.log: fields {', '.join(unknown)} are not a pin's")
    return problems


def _receipt(found: Any, sid: str, rows: list[EventRow], trusted: set[str] | None
             ) -> list[str]:
    """The receipt, when the export carries one: its end in the club's signed log must be
    the export's end (ledger/audit/receipts.py)."""
    if found is None:
        return []
    problems = receipts.check_receipt(found, trusted)
    end = {"stream": sid, "version": len(rows), "head": rows[-1].hash}
    if not problems and found.get("leaf") != end:
        problems.append(f"receipt: its leaf {found.get('leaf')} is not the export's end {end}")
    return problems


def _checkpoint(checkpoint: Any, sid: str, rows: list[EventRow], trusted: set[str] | None,
                found: Checked) -> list[str]:
    if checkpoint is None:
        return ["checkpoint: the export carries no signed head (its session has not ended "
                "and it was not exported with `lanterloo export`, or nothing signs)"]
    if trusted is None:
        named = checkpoint.get("key") if isinstance(checkpoint, dict) else None
        return ["checkpoint: the signature is unchecked: no --public-key was given, and the "
                f"key the export names ({named!r:.20}) proves nothing (anyone can sign with a "
                "key of their own): pass the club's public key"]
    problem = signature_problem(checkpoint, trusted)
    if problem is not None:
        return [f"checkpoint: {problem}"]
    found.key = checkpoint["key"]
    version, last = checkpoint.get("version"), len(rows)
    if checkpoint.get("stream") != sid:
        return [f"checkpoint: it signs the head of {checkpoint.get('stream')!r}, not of "
                f"session {sid}"]
    if isinstance(version, bool) or not isinstance(version, int):
        return [f"checkpoint: its version {version!r} is not a number"]
    if version > last:
        return [f"checkpoint: it signs version {version}, the export ends at version {last}: "
                "events were cut from its end"]
    if version < 1 or rows[version - 1].hash != checkpoint["head"]:
        return [f"checkpoint: it signs head {checkpoint.get('head')} at version {version}, "
                "which is not this chain's: the events were altered"]
    if version < last:
        return [f"checkpoint: it signs version {version}, the export runs to version {last}: "
                f"versions {version + 1} to {last} are signed by no one"]
    return []
