"""Forged exports, each refused by `lanterloo verify-export` (ledger/audit/export.py), and the
untouched export accepted, on SQLite and PostgreSQL: the forger holds the export, the code
that computes hashes and statements, a key of his own and, for some, a head the club really
signed earlier; he lacks only the club's private key.

The session is signed when it ends, in the write path (ledger/audit/checkpoint_log.py), and its
export drawn as GET /sessions/<id>/export draws it (no signing on a read)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from api.cli.main import main
from ledger.audit import checkpoint_log
from ledger.audit.checkpoints import Signer, key_id
from ledger.audit.export import check_export, export_session
from ledger.domain import OpenSession, statement
from ledger.domain import commands as cmd
from ledger.projections import fold_log
from ledger.sessions.service import Ledger
from ledger.store.base import EventRow
from ledger.store.chain import CHAIN_FORMAT, link, session_genesis
from ledger.writes import WriteRequest
from tests.integration.test_chains import new_club, with_key

Export = dict[str, Any]


def ended_session(ledger: Ledger, actor: Any, *, name: str, sign_before_end: bool = False
                  ) -> tuple[str, dict[str, Any] | None]:
    """A session of three that ends after one deal, the pool divided (the end has postings);
    with `sign_before_end`, its head signed before it ended too (as `lanterloo checkpoint`
    run mid-session does): that earlier head."""
    sid = ledger.open_session(OpenSession(players=["Ann", "Bob", "Cal"], first_dealer="Ann",
                                          name=name, money_per_unit_minor=10,
                                          currency="GBP"),
                              WriteRequest(actor)).body["session_id"]
    ledger.append(sid, [cmd.StartDeal(trump_card="7H", face_up={"Ann": "5C", "Bob": "9H",
                                                                "Cal": "KS"})],
                  WriteRequest(actor))
    earlier = None
    if sign_before_end:
        with ledger.engine.connect() as conn:
            earlier = checkpoint_log.sign_heads(conn, [(sid, 3)]).signed[0]
    ended = ledger.append(sid, [cmd.EndSession(method="divide-pool")], WriteRequest(actor))
    assert ended.body["session"]["status"] == "ended"
    return sid, earlier


def rechained(data: Export) -> Export:
    """Every hash recomputed from the genesis of the club the export names."""
    prev = session_genesis(data["session_id"], data["club_id"])
    for event in data["events"]:
        event["hash"] = prev = link(event, prev)
    return data


def refolded(data: Export) -> Export:
    """The statement drawn again from the (forged) events, as the service would draw it."""
    rows = [EventRow(**e) for e in data["events"]]
    folded = fold_log(data["session_id"], rows, club_id=data["club_id"])
    assert folded.state is not None, folded.error
    pin: dict[str, Any] = {"version": len(rows), "chain_head": folded.head,
                           "chain_format": CHAIN_FORMAT}
    if data["checkpoint"] is not None:
        pin["checkpoint"] = data["checkpoint"]
    drawn = orjson.loads(orjson.dumps(statement(folded.state, pin),
                                      option=orjson.OPT_NON_STR_KEYS))
    data["statement"] = {**drawn, "cash": data["statement"]["cash"],
                         "evening": data["statement"]["evening"]}
    return data


def with_checkpoint(data: Export, checkpoint: dict[str, Any] | None) -> Export:
    data["checkpoint"] = checkpoint
    data["statement"]["log"].pop("checkpoint", None)
    if checkpoint is not None:
        data["statement"]["log"]["checkpoint"] = checkpoint
    return data


def nets(data: Export) -> list[int]:
    return [p["net_units"] for p in data["statement"]["players"]]


@pytest.fixture
def exports(engine, tmp_path, monkeypatch) -> dict[str, Any]:
    signer = with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    ledger = Ledger(engine).for_club(club_id)
    sid, earlier = ended_session(ledger, actor, name="Thursday", sign_before_end=True)
    other_club, other_actor, _ = new_club(engine)
    other_ledger = Ledger(engine).for_club(other_club)
    other_sid, _ = ended_session(other_ledger, other_actor, name="Thursday")
    return {"signer": signer, "club_id": club_id, "sid": sid, "earlier": earlier,
            "good": export_session(ledger, sid), "other": export_session(other_ledger,
                                                                         other_sid)}


def test_the_untouched_export_holds_its_head_signed_at_the_end_and_names_club_and_key(
        exports):
    good, signer = exports["good"], exports["signer"]
    assert (good["checkpoint"]["stream"], good["checkpoint"]["version"]) == (exports["sid"], 4)
    assert good["statement"]["log"]["checkpoint"] == good["checkpoint"]
    assert good["receipt"]["leaf"] == {"stream": exports["sid"], "version": 4,
                                       "head": good["checkpoint"]["head"]}
    checked = check_export(good, {signer.public_hex})
    assert checked.problems == []
    assert checked.summary() == (
        f"session {exports['sid']} of club {exports['club_id']}, 4 events, checked by key "
        f"{key_id(signer.public_hex)} ({signer.public_hex})")


def _forgeries(x: dict[str, Any]) -> dict[str, Callable[[Export], Export]]:
    """Each forgery, made from a deep copy of the untouched export."""
    sid, earlier = x["sid"], x["earlier"]
    attacker, _ = Signer.generate()

    def doubled_end(d: Export) -> Export:
        d["events"][-1]["payload"]["postings"][0]["amount_units"] *= 2
        d["events"][-1]["payload"]["postings"][1]["amount_units"] = 1
        d["events"][-1]["payload"]["postings"][2]["amount_units"] = 1
        return refolded(rechained(d))

    def resigned(d: Export) -> Export:
        d = doubled_end(d)
        return refolded(with_checkpoint(d, attacker.sign(sid, 4, d["events"][-1]["hash"])))

    def field(path: tuple[Any, ...], value: Any) -> Callable[[Export], Export]:
        def edit(d: Export) -> Export:
            target = d
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value(target[path[-1]]) if callable(value) else value
            return d
        return edit

    def relabelled(d: Export) -> Export:
        other = copy.deepcopy(x["other"])
        other["club_id"] = d["club_id"]
        return other

    def reauthored(d: Export) -> Export:
        d["events"][-1]["actor"] = "someone else"
        return refolded(with_checkpoint(rechained(d), earlier))

    def appended(d: Export) -> Export:  # the last event was never signed: the head is older
        return refolded(with_checkpoint(d, earlier))

    def truncated(d: Export) -> Export:
        d["events"] = d["events"][:-1]
        return refolded(d)

    def reordered(d: Export) -> Export:
        d["events"][1], d["events"][2] = d["events"][2], d["events"][1]
        return d

    def reordered_renumbered(d: Export) -> Export:
        d = reordered(d)
        for version, event in enumerate(d["events"], 1):
            event["version"] = version
        return rechained(d)

    def foreign_stream(d: Export) -> Export:
        return refolded(with_checkpoint(d, x["other"]["checkpoint"]))

    def flipped_signature(d: Export) -> Export:
        signature = d["checkpoint"]["signature"]
        bad = signature[:10] + ("0" if signature[10] != "0" else "1") + signature[11:]
        return with_checkpoint(d, {**d["checkpoint"], "signature": bad})

    def every_net(d: Export) -> Export:
        for player, moved in zip(d["statement"]["players"], (1, 1, -2), strict=True):
            player["net_units"] += moved
        return d

    def transfers(d: Export) -> Export:
        d["statement"]["settlement"]["transfers"][0]["amount_units"] += 1
        return d

    return {
        "the final SessionEnded's amount_units doubled, hashes and statement redone":
            doubled_end,
        "the nets altered": field(("statement", "players", 0, "net_units"), lambda n: n + 1),
        "every net altered, the zero sum kept": every_net,
        "the currency changed": field(("statement", "currency"), "EUR"),
        "the unit's value changed": field(("statement", "money_per_unit_minor"), 100),
        "the money of a player changed": field(("statement", "players", 0, "net_money_minor"),
                                               lambda n: n * 10),
        "the session's name changed": field(("statement", "name"), "Friday"),
        "the status changed": field(("statement", "status"), "open"),
        "the settlement edited": transfers,
        "the pool edited": field(("statement", "pool", "next_pool_units"), 5),
        "the deals counted changed": field(("statement", "deals"), 7),
        "a field added to the statement": field(("statement", "bonus_units"), 10),
        "the statement's pin edited": field(("statement", "log", "chain_head"), "0" * 64),
        "another club's export relabelled": relabelled,
        "the club named changed": field(("club_id",), None),
        "events re-authored after the signed head": reauthored,
        "an event after the signed head": appended,
        "signed with the forger's own key": resigned,
        "the signature altered": flipped_signature,
        "the checkpoint's version altered": field(("checkpoint", "version"), 3),
        "a checkpoint of another stream": foreign_stream,
        "no checkpoint": lambda d: with_checkpoint(d, None),
        "the chain cut short": truncated,
        "events reordered": reordered,
        "events reordered and renumbered, hashes redone": reordered_renumbered,
        "an event's payload edited": field(("events", 2, "payload", "trump_card"), "8H"),
        "the chain format changed": field(("chain_format",), "lanterloo/0"),
        "the receipt's inclusion proof altered": field(
            ("receipt", "inclusion"), lambda p: ["0" * 64, *p]),
    }


def test_each_forged_export_is_refused(exports):
    trusted = {exports["signer"].public_hex}
    forgeries = _forgeries(exports)
    assert len(forgeries) >= 15
    accepted = []
    for name, forge in forgeries.items():
        forged = forge(copy.deepcopy(exports["good"]))
        if forged == exports["good"]:
            accepted.append(f"{name}: the forgery changed nothing")
        elif not check_export(forged, trusted).problems:
            accepted.append(name)
    assert accepted == []


def test_a_doubled_end_refolded_is_refused_by_the_head_signed_for_the_last_event(exports):
    forged = _forgeries(exports)[
        "the final SessionEnded's amount_units doubled, hashes and statement redone"](
        copy.deepcopy(exports["good"]))
    assert nets(forged) != nets(exports["good"])
    assert check_export(forged, {exports["signer"].public_hex}).problems[0] == (
        f"checkpoint: it signs head {exports['good']['checkpoint']['head']} at version 4, "
        "which is not this chain's: the events were altered")


def test_an_export_whose_head_is_older_than_its_last_event_is_refused(exports):
    appended = _forgeries(exports)["an event after the signed head"](
        copy.deepcopy(exports["good"]))
    assert check_export(appended, {exports["signer"].public_hex}).problems == [
        "checkpoint: it signs version 3, the export runs to version 4: versions 4 to 4 are "
        "signed by no one"]


def test_verify_export_without_a_public_key_says_the_signature_is_unchecked_and_fails(
        exports, tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_bytes(orjson.dumps(exports["good"]))
    assert main(["verify-export", str(good)]) == 1
    out = capsys.readouterr().out
    assert "checkpoint: the signature is unchecked: no --public-key was given" in out
    assert f"REFUSED: session {exports['sid']} of club {exports['club_id']}, 4 events, " \
        "checked by no trusted key: 2 problems" in out  # the head's and the receipt's

    public = exports["signer"].public_hex
    assert main(["verify-export", str(good), "--public-key", public]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"holds: session {exports['sid']} of club {exports['club_id']}, "
                          f"4 events, checked by key {key_id(public)} ({public})")

    forged = tmp_path / "forged.json"
    forged.write_bytes(orjson.dumps(_forgeries(exports)["signed with the forger's own key"](
        copy.deepcopy(exports["good"]))))
    assert main(["verify-export", str(forged), "--public-key", public]) == 1
    assert "which is not a trusted key" in capsys.readouterr().out
