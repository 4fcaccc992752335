"""The auditor's commands: keygen, checkpoint, verify --checkpoint, export, verify-export.

    lanterloo keygen FILE                      # a new Ed25519 checkpoint key
    lanterloo checkpoint                       # sign the head of every chain that verifies
    lanterloo verify --checkpoint FILE         # the database against kept checkpoints
    lanterloo export SESSION [-o FILE]         # the session's events, chain and signed head
    lanterloo verify-export FILE --public-key K  # ... checked with no database at all
    lanterloo verify-receipt FILE --public-key K [--tree-head F]  # a member's receipt

What is signed is ledger/audit/checkpoints.py's, when and where it is kept
ledger/audit/checkpoint_log.py's; an export is ledger/audit/export.py's.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson


def _trusted(args: argparse.Namespace) -> set[str] | None:
    """The public keys a checkpoint must be signed by: --public-key, else the service's own
    key's (when one is configured), else None (any key; said so)."""
    from ledger.audit.checkpoints import configured_signer

    if args.public_key:
        return set(args.public_key)
    signer = configured_signer()
    if signer is not None:
        return {signer.public_hex}
    print("note: no --public-key given and no checkpoint key configured: a checkpoint's "
          "signature is checked against the key it names", file=sys.stderr)
    return None


def ensure_checkpoint_key() -> None:
    """The checkpoint key, made in the instance folder when none is configured; its public
    key printed (ledger/audit/checkpoints.py)."""
    from ledger.audit.checkpoint_log import log_path
    from ledger.audit.checkpoints import ensure_key, key_id

    signer, made = ensure_key()
    if made is not None:
        print(f"checkpoint key: made {made} (mode 600): back it up, away from the database "
              "(docs/operations.md, \"The checkpoint key\")")
    print(f"checkpoint public key: {signer.public_hex} (id {key_id(signer.public_hex)}); "
          f"signed heads kept in {log_path()}")


def cmd_keygen(args: argparse.Namespace) -> int:
    from ledger.audit.checkpoints import Signer, key_id

    path = Path(args.file)
    if path.exists():
        print(f"error: {path} exists: a key is never overwritten", file=sys.stderr)
        return 2
    folder = path.parent.resolve()
    if not folder.exists():
        if not folder.parent.is_dir():
            print(f"error: {folder.parent} does not exist: make it first, or name a key "
                  "file in a folder that does", file=sys.stderr)
            return 2
        folder.mkdir(mode=0o700)
        print(f"made the folder {folder} (mode 700)")
    signer, seed = Signer.generate()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(seed + "\n")
    print(f"wrote the private key to {path} (mode 600): set LOO_CHECKPOINT_KEY_FILE={path}")
    print(f"public key: {signer.public_hex}")
    print(f"key id: {key_id(signer.public_hex)} (give the public key to your auditor)")
    return 0


def cmd_checkpoint(args: argparse.Namespace, engine: Any) -> int:
    """Sign the head of every session, book log and club log that verifies, unless it
    contradicts a head signed before; keep them."""
    from ledger.audit.checkpoint_log import log_path, sign_heads
    from ledger.audit.checkpoints import configured_signer, stored_heads
    from ledger.audit.receipts import append_end
    from ledger.books.service import Books
    from ledger.operations.bulk import verify_all

    signer = configured_signer()
    if signer is None:
        print("error: no checkpoint key: set LOO_CHECKPOINT_KEY_FILE (lanterloo keygen "
              "makes one)", file=sys.stderr)
        return 2
    found = verify_all(engine)
    wanted: list[tuple[str, int]] = []
    refused = 0
    stored = stored_heads(engine)
    for sid, problems in found.items():
        version, head = stored.sessions[sid]
        if problems or head is None:
            print(f"session {sid}: not signed: it does not verify", file=sys.stderr)
            refused += 1
        else:
            wanted.append((sid, version))
    for club_id, streams in stored.clubs.items():
        if Books(engine, club_id).verify():
            print(f"club {club_id}: not signed: its logs do not verify", file=sys.stderr)
            refused += 1
            continue
        for stream in streams:
            if stored.logs[stream] >= 1:  # an empty log has no entry a head could pin
                wanted.append((stream, stored.logs[stream]))
    path = Path(args.log).resolve() if args.log else log_path()
    with engine.connect() as conn:
        done = sign_heads(conn, wanted, path)
    for stream, problems in sorted(done.refused.items()):
        for line in problems:
            print(f"REFUSED {stream}: it contradicts a head signed before: {line}",
                  file=sys.stderr)
    if done.unwritten:
        print(f"error: {done.unwritten}: no head was kept", file=sys.stderr)
        return 1
    signed = {c["stream"]: c for c in done.signed}
    try:  # every ended session's end in its club's log (one that waited in a stopped process)
        for sid, club_id in stored.ended.items():
            if sid in signed:
                append_end(club_id, signed[sid], path)
    except OSError as error:
        print(f"error: cannot append to the checkpoint log {path}: "
              f"{error.strerror or error}: the ends of sessions were not all added to their "
              "clubs' logs", file=sys.stderr)
        return 1
    print(f"signed {len(done.signed)} chain heads with key {signer.public_hex}; kept in {path}")
    return 1 if refused or done.refused else 0


def verify_own_log(engine: Any, wanted: list[str] | None) -> int:
    """The chains (`wanted`, or every one the log names) against the heads the service
    signed and kept in its own checkpoint log; how many contradict one (printed)."""
    from ledger.audit.checkpoint_log import contradictions, log_path, streams
    from ledger.audit.receipts import TREE, tree_problems

    path = log_path()
    if not path.exists():
        return 0
    try:
        named = streams(path)
    except OSError as error:
        print(f"error: cannot read the checkpoint log {path}: {error.strerror or error}")
        return 1
    chosen = [s for s in named if wanted is None or s in wanted]
    broken = 0
    with engine.connect() as conn:
        for stream in chosen:
            found = tree_problems(stream.removeprefix(TREE), path) \
                if stream.startswith(TREE) else contradictions(conn, stream, path)
            for line in found:
                broken += 1
                print(f"REWRITTEN {line} (the checkpoint log {path})")
    if chosen:
        print(f"the checkpoint log {path}: {len(chosen)} chains against their signed heads: "
              + ("all hold" if not broken else f"{broken} contradicted"))
    return broken


def verify_checkpoints(args: argparse.Namespace, engine: Any) -> int:
    """Each kept checkpoint against the database, and each chain it names verified; how
    many problems were found (printed)."""
    from ledger.audit.checkpoint_log import read_log
    from ledger.audit.checkpoints import check
    from ledger.books.service import Books
    from ledger.domain import LedgerError
    from ledger.sessions.service import Ledger

    trusted = _trusted(args)
    backup_at = _backup_time(args)
    kept: list[Any] = []
    for name in args.checkpoint:
        kept += read_log(Path(name))
    problems = newer = 0
    streams: set[str] = set()
    with engine.connect() as conn:
        for n, checkpoint in enumerate(kept, 1):
            found = check(conn, checkpoint, trusted)
            if found is not None and _newer_than(conn, checkpoint, trusted, backup_at):
                newer += 1
                print(f"checkpoint {n}: {checkpoint['stream']}: version "
                      f"{checkpoint['version']}, signed at {checkpoint['signed_at']}, is newer "
                      f"than this backup (taken {backup_at and backup_at.isoformat()}): "
                      "what it covers was recorded after the backup")
            elif found is not None:
                problems += 1
                print(f"checkpoint {n}: {found}")
            elif isinstance(checkpoint, dict) and isinstance(checkpoint.get("version"), int) \
                    and checkpoint["version"] >= 1:
                streams.add(str(checkpoint["stream"]))
    ledger = Ledger(engine)
    # A club's log of ends (tree:<club>) is in the checkpoint log, not the database.
    for stream in sorted(s for s in streams if not s.startswith("tree:")):
        kind, _, club_id = stream.partition(":")
        try:
            found_list = Books(engine, club_id).verify() if kind in ("books", "club") \
                else ledger.verify(stream)
        except LedgerError as error:
            found_list = [error.message]
        for line in found_list:
            problems += 1
            print(f"{stream}: {line}")
    print(f"{len(kept)} checkpoints checked, {len(streams)} chains verified: "
          + ("all hold" if not problems else f"{problems} problems")
          + (f"; {newer} newer than this backup" if newer else ""))
    if newer:
        print(NEWER_THAN_BACKUP)
    return problems


NEWER_THAN_BACKUP = (
    "Newer than this backup is not tampering: the entries those checkpoints cover were "
    "recorded after the backup was taken and are not in this copy. What to do: restore a "
    "later backup if there is one; otherwise re-enter what was played and paid since the "
    "backup's time (the tablets' and treasurer's paper records, the members' statements and "
    "receipts), then run `lanterloo checkpoint`. Keep the checkpoint log as it is: its lines "
    "remain the evidence of what had been recorded (docs/operations.md, \"Backup and restore\").")


def _backup_time(args: argparse.Namespace) -> datetime | None:
    from ledger.operations.backups import taken_at

    restored = getattr(args, "restored_from", None)
    return taken_at(Path(restored)) if restored else None


def _newer_than(conn: Any, checkpoint: Any, trusted: set[str] | None,
                backup_at: datetime | None) -> bool:
    """Whether a checkpoint that does not hold is one signed after the backup this database
    was restored from, for a version past what the backup holds: newer, not tampering (its
    signature must hold all the same)."""
    from ledger.audit.checkpoints import signature_problem, stored_hash

    if backup_at is None or signature_problem(checkpoint, trusted) is not None:
        return False
    stream, version = checkpoint.get("stream"), checkpoint.get("version")
    if not isinstance(stream, str) or type(version) is not int or not 1 <= version < 2**31:
        return False
    try:
        signed = datetime.fromisoformat(str(checkpoint.get("signed_at")))
    except ValueError:
        return False
    if signed.tzinfo is None:
        return False
    return signed > backup_at and stored_hash(conn, stream, version) is None


def cmd_export(args: argparse.Namespace, engine: Any) -> int:
    """The export, with the head of its last event signed now when it is not kept yet."""
    from ledger.audit.checkpoints import configured_signer
    from ledger.audit.export import ExportUnsigned, export_session
    from ledger.sessions.service import Ledger

    try:
        exported = export_session(Ledger(engine), args.session,
                                  sign=configured_signer() is not None)
    except ExportUnsigned as error:
        print(f"error: the export's head cannot be signed: {error}", file=sys.stderr)
        return 1
    data = orjson.dumps(exported, option=orjson.OPT_INDENT_2)
    if args.output:
        Path(args.output).write_bytes(data + b"\n")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(data.decode() + "\n")
    if exported["checkpoint"] is None:
        print("warning: no checkpoint key: the export carries no signed head, and "
              "verify-export refuses it", file=sys.stderr)
    return 0


def cmd_verify_export(args: argparse.Namespace) -> int:
    """An export checked without any database: every hash, the signature by a key the
    auditor names, every field of the statement folded again."""
    from ledger.audit.export import check_export

    try:
        data = orjson.loads(Path(args.file).read_bytes())
    except (OSError, orjson.JSONDecodeError) as error:
        print(f"error: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    # Only the keys the auditor names: a key the export brings proves nothing.
    checked = check_export(data, set(args.public_key) if args.public_key else None)
    for line in checked.problems:
        print(line)
    if checked.problems:
        print(f"REFUSED: {checked.summary()}: {len(checked.problems)} problems")
        return 1
    print(f"holds: {checked.summary()}: every hash recomputed from the genesis bound to "
          f"its club, the signed head is the last event's, every field of the statement "
          f"refolds from the events (the cash counted after the close is outside the log, "
          f"unchecked)")
    return 0


def cmd_verify_receipt(args: argparse.Namespace, engine: Any) -> int:
    """A member's receipt (or an export or statement carrying one) against the club's key,
    today's database and a later head of the club's log."""
    from ledger.audit.checkpoint_log import kept
    from ledger.audit.checkpoints import key_id
    from ledger.audit.receipts import check_database, check_later, check_receipt

    try:
        data = orjson.loads(Path(args.file).read_bytes())
        later = orjson.loads(Path(args.tree_head).read_bytes()) if args.tree_head else None
    except (OSError, orjson.JSONDecodeError) as error:
        print(f"error: cannot read a file: {error}", file=sys.stderr)
        return 2
    found: Any = data
    if isinstance(data, dict) and "leaf" not in data:  # a statement or an export
        found = data.get("receipt") or (data.get("log") or {}).get("receipt")
    if isinstance(later, dict) and "tree_head" in later:  # a later receipt: its head
        later = later["tree_head"]
    trusted = set(args.public_key) if args.public_key else None
    problems = check_receipt(found, trusted)
    if problems or trusted is None:
        for line in problems:
            print(line)
        print("REFUSED: the receipt does not hold")
        return 1
    assert isinstance(found, dict)  # check_receipt found it whole
    with engine.connect() as conn:
        problems += check_database(conn, found)
    head = found["tree_head"]
    if later is None:  # the latest head of the club's log this instance keeps
        heads = kept(head["stream"])
        later = max(reversed(heads), key=lambda c: c["version"]) if heads else head
    problems += check_later(found, later, trusted)
    for line in problems:
        print(line)
    leaf = found["leaf"]
    if problems:
        print(f"REFUSED: session {leaf['stream']}'s end: {len(problems)} problems")
        return 1
    print(f"holds: session {leaf['stream']}'s end (version {leaf['version']}) is leaf "
          f"{found['leaf_index']} of club {found['club_id']}'s log of {head['version']}, "
          f"signed by key {key_id(head['key'])}; the database still holds it; that log is a "
          f"prefix of the club's log of {later['version']} signed at {later['signed_at']}")
    return 0


def add_commands(sub: Any, common: argparse.ArgumentParser, engine_of: Any) -> None:
    """The commands above, on the `lanterloo` parser (api/cli/main.py)."""
    keygen = sub.add_parser("keygen", help="write a new Ed25519 checkpoint key to FILE")
    keygen.add_argument("file")
    keygen.set_defaults(func=cmd_keygen)

    def with_engine(command: Any) -> Any:
        def run(args: argparse.Namespace) -> int:
            engine = engine_of(args)
            try:
                return int(command(args, engine))
            finally:
                engine.dispose()
        return run

    checkpoint = sub.add_parser("checkpoint", parents=[common],
                                help="sign the head of every chain that verifies and append "
                                     "them to the checkpoint log")
    checkpoint.add_argument("--log", help="the checkpoint log (default $LOO_CHECKPOINT_LOG, "
                                          "else checkpoints.jsonl in the instance folder)")
    checkpoint.set_defaults(func=with_engine(cmd_checkpoint))

    export = sub.add_parser("export", parents=[common],
                            help="one JSON file: a session's events, chain and signed head")
    export.add_argument("session")
    export.add_argument("-o", "--output", help="the file (default: standard output)")
    export.set_defaults(func=with_engine(cmd_export))

    check = sub.add_parser("verify-export", help="check an export with no database: every "
                                                 "hash, the signature, the statement")
    check.add_argument("file")
    check.add_argument("--public-key", action="append", default=[],
                       help="the club's public key (hex), which the head must be signed by; "
                            "repeatable; without one the signature is unchecked and the "
                            "export refused")
    check.set_defaults(func=cmd_verify_export)

    receipt = sub.add_parser("verify-receipt", parents=[common],
                             help="check a session's receipt against the club's key, the "
                                  "database and a later head of the club's log")
    receipt.add_argument("file", help="a receipt, or a statement or export carrying one")
    receipt.add_argument("--public-key", action="append", default=[],
                         help="the club's public key (hex); repeatable")
    receipt.add_argument("--tree-head", help="a later signed head of the club's log (or a "
                                             "later receipt); default: the latest this "
                                             "instance keeps")
    receipt.set_defaults(func=with_engine(cmd_verify_receipt))
