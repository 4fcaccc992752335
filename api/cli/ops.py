"""The host's commands: backup and restore; and what every command says when the host is
not as it should be (a wrong database URL, an unreadable key, a missing folder): one line
naming the problem and exit status 2, never a traceback.

    lanterloo backup /var/backups/lanterloo --keep 14   # a new timestamped backup
    lanterloo restore FILE --to URL                     # into a new, empty database

The backups themselves are ledger/operations/backups.py's.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _shown(url: str | None) -> str:
    """The URL without its password, or a placeholder when it cannot be read."""
    from sqlalchemy import make_url

    try:
        return make_url(url).render_as_string(hide_password=True) if url else "(none)"
    except Exception:
        return "(a value that is not a database URL)"


def run_reporting(command: Callable[[argparse.Namespace], int], args: argparse.Namespace,
                  url: str | None) -> int:
    """Run one command; a host problem is one line on stderr and exit status 2."""
    from sqlalchemy.exc import ArgumentError, InterfaceError, NoSuchModuleError, OperationalError

    from ledger.audit.checkpoints import KeyProblem
    from ledger.operations.backups import BackupFailed
    from ledger.operations.database import PartitionRefused, SessionsOutsideClubs

    try:
        return int(command(args))
    except (ArgumentError, NoSuchModuleError):
        problem = ("the database URL (--database-url or LOO_DATABASE_URL) is not one: "
                   "e.g. postgresql+psycopg://lanterloo:SECRET@127.0.0.1:5432/lanterloo or "
                   "sqlite:////var/lib/lanterloo/lanterloo.db")
    except (OperationalError, InterfaceError) as error:
        reason = str(error.orig or error).strip().splitlines()
        problem = (f"cannot use the database {_shown(url)}: "
                   f"{reason[0] if reason else type(error.orig).__name__}")
        if "unable to open database file" in problem:
            problem += " (does its folder exist, and may this user write it?)"
    except KeyProblem as error:
        problem = f"the checkpoint key cannot be used: {error}"
    except (BackupFailed, PartitionRefused, SessionsOutsideClubs) as error:
        problem = str(error)
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        problem = f"{where}{error.strerror or error}"
    print(f"error: {problem}", file=sys.stderr)
    return 2


def cmd_backup(args: argparse.Namespace, url: str | None) -> int:
    from ledger.operations.backups import backup, prune

    made = backup(url, Path(args.folder))
    print(f"backed up to {made.path} (taken {made.taken_at.isoformat()})")
    if args.keep:
        for path in prune(Path(args.folder), args.keep):
            print(f"deleted {path} (keeping the newest {args.keep})")
    print("keep elsewhere too: this file, the env file and the checkpoint key (neither is "
          "in a backup) and the checkpoint log")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from ledger.operations.backups import restore, taken_at

    path = Path(args.backup)
    restore(path, args.to)
    print(f"restored {path} (taken {taken_at(path).isoformat()}) into {_shown(args.to)}")
    print(f"check it: lanterloo verify --all --database-url '{_shown(args.to)}' "
          f"--restored-from {path} --checkpoint <the checkpoint log>")
    return 0


def add_commands(sub: Any, common: argparse.ArgumentParser,
                 url_of: Callable[[argparse.Namespace], str | None]) -> None:
    """The commands above, on the `lanterloo` parser (api/cli/main.py)."""
    made = sub.add_parser("backup", parents=[common],
                          help="a new timestamped backup of the database in FOLDER "
                               "(pg_dump, or SQLite's online backup)")
    made.add_argument("folder")
    made.add_argument("--keep", type=int, default=0, metavar="N",
                      help="then delete all but the N newest backups of this database")
    made.set_defaults(func=lambda args: cmd_backup(args, url_of(args)))

    back = sub.add_parser("restore", help="a backup into a new, empty database (PostgreSQL: "
                                          "made with createdb; SQLite: a file not there yet)")
    back.add_argument("backup", help="the backup file (.dump or .db)")
    back.add_argument("--to", required=True, metavar="URL", help="the new database's URL")
    back.set_defaults(func=cmd_restore)
