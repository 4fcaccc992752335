"""The auditor's commands: keygen, checkpoint, verify --checkpoint, export, verify-export.

    lanterloo keygen FILE                      # a new Ed25519 checkpoint key
    lanterloo checkpoint                       # sign the head of every chain that verifies
    lanterloo verify --checkpoint FILE         # the database against kept checkpoints
    lanterloo export SESSION [-o FILE]         # the session's events, chain and signed head
    lanterloo verify-export FILE               # ... checked with no database at all

What is signed and kept is ledger/checkpoints.py's; an export is ledger/export.py's.
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
    from ledger.checkpoints import configured_signer

    if args.public_key:
        return set(args.public_key)
    signer = configured_signer()
    if signer is not None:
        return {signer.public_hex}
    print("note: no --public-key given and no checkpoint key configured: a checkpoint's "
          "signature is checked against the key it names", file=sys.stderr)
    return None


def cmd_keygen(args: argparse.Namespace) -> int:
    from ledger.checkpoints import Signer, key_id

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
    """Sign the head of every session, book log and club log that verifies; keep them."""
    from sqlalchemy import select

    from ledger.bulk import verify_all
    from ledger.checkpoints import configured_signer, keep, log_path
    from ledger.store import clublog
    from ledger.store.tables import log_heads, sessions
    from ledger.treasury import Books

    signer = configured_signer()
    if signer is None:
        print("error: no checkpoint key: set LOO_CHECKPOINT_KEY_FILE (lanterloo keygen "
              "makes one)", file=sys.stderr)
        return 2
    found = verify_all(engine)
    signed, refused = [], 0
    with engine.connect() as conn:
        heads = {sid: (int(v), h) for sid, v, h in conn.execute(
            select(sessions.c.id, sessions.c.version, sessions.c.head_hash))}
        club_ids = clublog.club_ids(conn)
        logs = {s: (int(q), h) for s, q, h in conn.execute(
            select(log_heads.c.stream_id, log_heads.c.seq, log_heads.c.hash))}
    for sid, problems in found.items():
        if problems or heads[sid][1] is None:
            print(f"session {sid}: not signed: it does not verify", file=sys.stderr)
            refused += 1
        else:
            signed.append(signer.sign(sid, *heads[sid]))
    for club_id in club_ids:
        if Books(engine, club_id).verify():
            print(f"club {club_id}: not signed: its logs do not verify", file=sys.stderr)
            refused += 1
            continue
        for stream in (clublog.books_stream(club_id), clublog.stream(club_id)):
            signed.append(signer.sign(stream, *logs[stream]))
    path = Path(args.log) if args.log else log_path()
    keep(signed, path)
    print(f"signed {len(signed)} chain heads with key {signer.public_hex}; appended to {path}")
    return 1 if refused else 0


def verify_checkpoints(args: argparse.Namespace, engine: Any) -> int:
    """Each kept checkpoint against the database, and each chain it names verified; how
    many problems were found (printed)."""
    from ledger.checkpoints import check, read_log
    from ledger.domain import LedgerError
    from ledger.service import Ledger
    from ledger.treasury import Books

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
    for stream in sorted(streams):
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
    from ledger.backups import taken_at

    restored = getattr(args, "restored_from", None)
    return taken_at(Path(restored)) if restored else None


def _newer_than(conn: Any, checkpoint: Any, trusted: set[str] | None,
                backup_at: datetime | None) -> bool:
    """Whether a checkpoint that does not hold is one signed after the backup this database
    was restored from, for a version past what the backup holds: newer, not tampering (its
    signature must hold all the same)."""
    from ledger.checkpoints import signature_problem, stored_hash

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
    from ledger.export import export_session
    from ledger.service import Ledger

    data = orjson.dumps(export_session(Ledger(engine), args.session),
                        option=orjson.OPT_INDENT_2)
    if args.output:
        Path(args.output).write_bytes(data + b"\n")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(data.decode() + "\n")
    return 0


def cmd_verify_export(args: argparse.Namespace) -> int:
    """An export checked without any database: every hash, the signature, the money."""
    from ledger.export import verify_export

    try:
        data = orjson.loads(Path(args.file).read_bytes())
    except (OSError, orjson.JSONDecodeError) as error:
        print(f"error: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    problems = verify_export(data, _trusted(args))
    for line in problems:
        print(line)
    if not problems:
        print(f"session {data.get('session_id')}: {len(data.get('events', []))} events, every "
              "hash recomputed, the signed head holds, the money refolds to the statement")
    return 1 if problems else 0


def add_commands(sub: Any, common: argparse.ArgumentParser, engine_of: Any) -> None:
    """The commands above, on the `lanterloo` parser (api/cli.py)."""
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
                                          "else instance/checkpoints.jsonl)")
    checkpoint.set_defaults(func=with_engine(cmd_checkpoint))

    export = sub.add_parser("export", parents=[common],
                            help="one JSON file: a session's events, chain and signed head")
    export.add_argument("session")
    export.add_argument("-o", "--output", help="the file (default: standard output)")
    export.set_defaults(func=with_engine(cmd_export))

    check = sub.add_parser("verify-export", help="check an export with no database: every "
                                                 "hash, the signature, the money")
    check.add_argument("file")
    check.add_argument("--public-key", action="append", default=[],
                       help="a trusted public key (hex); repeatable")
    check.set_defaults(func=cmd_verify_export)
