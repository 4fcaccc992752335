"""Backups of the whole ledger, and their restore into a new database.

PostgreSQL: `pg_dump -Fc` (one consistent snapshot), restored with `pg_restore` into an
empty database. SQLite: the file copied with SQLite's online backup API (safe while the
service writes), restored by the same API into a file that does not exist yet.

A backup's name says when it was taken, to the second and in UTC
(`lanterloo-<database>-20261129T031700Z.dump`); a name is never reused, so no backup
overwrites another. The time in the name is what `lanterloo verify --restored-from` holds
kept checkpoints against (docs/operations.md, "Backup and restore").
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import URL, inspect, make_url

from ledger.store.db import default_url, make_engine

STAMP = "%Y%m%dT%H%M%SZ"
NAME = re.compile(r"^lanterloo-(?P<database>[A-Za-z0-9_.-]+?)-(?P<at>\d{8}T\d{6}Z)"
                  r"(?:-(?P<n>\d+))?\.(?P<kind>dump|db)$")


class BackupFailed(Exception):
    """A backup or a restore that could not be made; the message says why, in one line."""


@dataclass(frozen=True)
class Backup:
    path: Path
    taken_at: datetime


def taken_at(path: Path) -> datetime:
    """When the backup at `path` was taken, from its name."""
    found = NAME.match(path.name)
    if not found:
        raise BackupFailed(f"{path.name} is not named as lanterloo backup names its files "
                           "(lanterloo-<database>-<YYYYmmddTHHMMSSZ>.dump or .db)")
    return datetime.strptime(found["at"], STAMP).replace(tzinfo=UTC)


def _postgres(url: URL) -> bool:
    return url.get_backend_name() in ("postgresql", "postgres")


def _sqlite_file(url: URL) -> Path:
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        raise BackupFailed("only a PostgreSQL database or an SQLite file can be backed up")
    return Path(url.database)


def _libpq(url: URL) -> tuple[list[str], dict[str, str]]:
    """pg_dump's and pg_restore's connection options for `url`; the password goes in the
    environment (PGPASSWORD), never on the command line."""
    args = []
    if url.host:
        args += ["-h", url.host]
    if url.port:
        args += ["-p", str(url.port)]
    if url.username:
        args += ["-U", url.username]
    env = {**os.environ}
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    return args, env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupFailed(f"{name} is not installed (Debian: apt-get install "
                           "postgresql-client)")
    return found


def _new_name(folder: Path, database: str, kind: str, at: datetime) -> Path:
    stem = f"lanterloo-{re.sub(r'[^A-Za-z0-9_.-]', '_', database)}-{at.strftime(STAMP)}"
    path, n = folder / f"{stem}.{kind}", 1
    while path.exists() or path.with_name(path.name + ".partial").exists():
        path, n = folder / f"{stem}-{n}.{kind}", n + 1
    return path


def backup(url: str | None, folder: Path, *, now: datetime | None = None) -> Backup:
    """A backup of the database at `url` (default: the configured one), as a new file in
    `folder`."""
    parsed = make_url(url or default_url())
    if not folder.is_dir():
        raise BackupFailed(f"the backup folder {folder} does not exist (make it first: "
                           f"install -d -m 700 {folder})")
    at = (now or datetime.now(UTC)).replace(microsecond=0)
    if _postgres(parsed):
        path = _new_name(folder, parsed.database or "postgres", "dump", at)
        partial = path.with_name(path.name + ".partial")
        args, env = _libpq(parsed)
        done = subprocess.run([_tool("pg_dump"), "-Fc", *args, "-f", str(partial),
                               parsed.database or "postgres"], env=env, capture_output=True,
                              text=True)
        if done.returncode != 0:
            partial.unlink(missing_ok=True)
            raise BackupFailed(f"pg_dump failed: {_first_line(done.stderr)}")
    else:
        source = _sqlite_file(parsed)
        if not source.is_file():
            raise BackupFailed(f"there is no database file {source}")
        path = _new_name(folder, source.stem, "db", at)
        partial = path.with_name(path.name + ".partial")
        _sqlite_copy(source, partial)
    os.chmod(partial, 0o600)
    os.link(partial, path)  # fails rather than overwrite
    partial.unlink()
    return Backup(path, at)


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup API: a consistent copy while others write."""
    reader = sqlite3.connect(source)
    writer = sqlite3.connect(target)
    try:
        reader.backup(writer)
    except sqlite3.Error as error:
        target.unlink(missing_ok=True)
        raise BackupFailed(f"the SQLite backup failed: {error}") from None
    finally:
        writer.close()
        reader.close()


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else "no message"


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the `keep` newest backups of each database in `folder` (files named as
    `backup` names them; nothing else is touched); the deleted paths."""
    groups: dict[tuple[str, str], list[tuple[datetime, int, Path]]] = {}
    for path in folder.iterdir():
        found = NAME.match(path.name)
        if found and path.is_file():
            groups.setdefault((found["database"], found["kind"]), []).append(
                (taken_at(path), int(found["n"] or 0), path))
    deleted = []
    for backups in groups.values():
        for _, _, path in sorted(backups, reverse=True)[max(keep, 1):]:
            path.unlink()
            deleted.append(path)
    return sorted(deleted)


def restore(path: Path, url: str) -> None:
    """The backup at `path` into the new database at `url` (an empty PostgreSQL database, or
    an SQLite file that does not exist yet)."""
    parsed = make_url(url)
    if not path.is_file():
        raise BackupFailed(f"there is no backup file {path}")
    taken_at(path)
    dump = path.suffix == ".dump"
    if dump != _postgres(parsed):
        raise BackupFailed("a .dump restores into PostgreSQL and a .db into an SQLite file "
                           "(lanterloo copy moves a ledger from one to the other)")
    if dump:
        engine = make_engine(url, operator=True)
        try:
            with engine.connect() as conn:
                tables = inspect(conn).get_table_names()
        finally:
            engine.dispose()
        if tables:
            raise BackupFailed(f"the database {parsed.database} is not empty: restore into a "
                               "new one (createdb), never over a ledger")
        args, env = _libpq(parsed)
        done = subprocess.run([_tool("pg_restore"), "--no-owner", "--exit-on-error", *args,
                               "-d", parsed.database or "postgres", str(path)], env=env,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupFailed(f"pg_restore failed: {_first_line(done.stderr)}")
        return
    target = _sqlite_file(parsed)
    if target.exists():
        raise BackupFailed(f"{target} exists: restore into a new file, never over a ledger")
    if not target.parent.is_dir():
        raise BackupFailed(f"the folder {target.parent} does not exist")
    _sqlite_copy(path, target)
