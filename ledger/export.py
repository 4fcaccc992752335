"""A session exported as one file an auditor checks without the service or its database.

    {"format": "lanterloo-export/1", "session_id": ..., "club_id": ..., "chain_format": ...,
     "events": [every stored event: the chain's fields, its position and hash],
     "statement": the statement as served, "checkpoint": its head signed, or null}

`verify_export` recomputes every hash from the session's genesis (ledger/store/chain.py),
checks that the chain binds the club the file names, that its head is the statement's, that
the checkpoint's signature holds (by a trusted key) and pins a hash of the chain, and folds
the events again with the pure domain to compare the money with the statement.
"""

from __future__ import annotations

from typing import Any

import orjson

from ledger.checkpoints import signature_problem
from ledger.domain import statement
from ledger.domain.events import SessionAttached
from ledger.projections import UNBOUND, fold_log
from ledger.store.base import EventRow
from ledger.store.chain import CHAIN_FORMAT, GENESIS, session_genesis, walk

FORMAT = "lanterloo-export/1"
MONEY = ("version", "deals", "players", "pool", "check", "settlement", "corrections")


def export_session(ledger: Any, session_id: str) -> dict[str, Any]:
    """The export of the session, as `ledger` (ledger.service.Ledger: a club's, or the
    operator's) sees it."""
    from ledger.store import queries

    drawn = ledger.statement(session_id)
    with ledger.store.consistent() as conn:
        row = queries.load_session(conn, session_id, club_id=None)
        rows = [r for _, stream in ledger.store.event_rows(conn, session_id, session_id)
                for r in stream]
    return {"format": FORMAT, "session_id": session_id, "club_id": row.club_id,
            "chain_format": CHAIN_FORMAT,
            "events": [r._asdict() for r in rows if r.version <= drawn["log"]["version"]],
            "statement": drawn, "checkpoint": drawn["log"].get("checkpoint")}


def verify_export(data: Any, trusted: set[str] | None) -> list[str]:
    """What is wrong with an export ([] when it holds)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return [f"not an export of format {FORMAT}"]
    sid, club = data.get("session_id"), data.get("club_id")
    try:
        rows = [EventRow(**r) for r in data["events"]]
        drawn = data["statement"]
    except (KeyError, TypeError) as error:
        return [f"the export is incomplete: {error}"]
    if not isinstance(sid, str) or not rows:
        return ["the export has no session id or no events"]
    starts = {GENESIS: UNBOUND, session_genesis(sid, None): None}
    if club is not None:
        starts[session_genesis(sid, club)] = club
    head, broken, start = walk([r._asdict() for r in rows], list(starts))
    if broken:
        return [f"chain: {broken}"]
    problems = []
    attached = [r.payload.get("club_id") for r in rows if r.type == SessionAttached.type]
    bound = attached[-1] if attached else starts.get(start or "", UNBOUND)
    if bound not in (club, UNBOUND):
        problems.append(f"club: the export names club {club}, the chain binds {bound}")
    pin = drawn.get("log") or {}
    if pin.get("chain_head") != head or pin.get("version") != len(rows):
        problems.append(f"statement: pinned to version {pin.get('version')} head "
                        f"{pin.get('chain_head')}, the chain's is {len(rows)} {head}")
    problems += _checkpoint(data.get("checkpoint"), sid, rows, trusted)
    folded = fold_log(sid, rows)
    if folded.state is None:
        return [*problems, f"fold: the events do not fold ({folded.error})"]
    again = orjson.loads(orjson.dumps(statement(folded.state, pin),
                                      option=orjson.OPT_NON_STR_KEYS))
    for key in MONEY:
        if again.get(key) != drawn.get(key):
            problems.append(f"statement.{key}: the export says {drawn.get(key)!r}, the "
                            f"events fold to {again.get(key)!r}")
    return problems


def _checkpoint(checkpoint: Any, sid: str, rows: list[EventRow],
                trusted: set[str] | None) -> list[str]:
    if checkpoint is None:
        return ["checkpoint: the export carries no signed head (the service had no key)"]
    problem = signature_problem(checkpoint, trusted)
    if problem is not None:
        return [f"checkpoint: {problem}"]
    version = checkpoint.get("version")
    if checkpoint.get("stream") != sid or not isinstance(version, int) \
            or not 1 <= version <= len(rows) or rows[version - 1].hash != checkpoint["head"]:
        return [f"checkpoint: it pins {checkpoint.get('stream')} version {version} head "
                f"{checkpoint.get('head')}, which is not this chain's"]
    return []
