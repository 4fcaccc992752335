"""Build a database the way an earlier release made it, with that release's own code.

    .venv/bin/python tests/upgrades/build.py d8958b5 tests/upgrades/first-release
    .venv/bin/python tests/upgrades/build.py 6130a6f tests/upgrades/before-simplification

Checks the release out into a temporary worktree (git must have the commit), then, with that
code first on the path, plays a few seeded sessions with the release's own session generator
and sends every accepted entry through the release's own `Ledger`, into a fresh SQLite file
and a fresh PostgreSQL database (LOO_TEST_POSTGRES_URL's server). Writes, into the folder:

    sqlite.sql           the SQLite database as SQL (sqlite3's iterdump)
    postgresql.sql       the PostgreSQL database as plain SQL (pg_dump --no-owner)
    statements.json      {"sqlite": {session id: statement}, "postgresql": {...}}: what the
                         release served for each session, to compare after the upgrade
    release.json         which commit, when, and how many sessions and events

tests/integration/test_upgrades.py upgrades each folder's databases to the head and checks
them. Each release adds its folder; a folder is never rebuilt once checked in.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = os.environ.get("LOO_TEST_POSTGRES_URL",
                        "postgresql+psycopg://postgres@127.0.0.1:5432/test")
SESSIONS = 4
DEALS = (3, 6)

# Run inside the release's tree: only what every release since the first offers.
PLAY = r'''
import json, sys
from pathlib import Path
from ledger.service import Ledger
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade
try:
    from tests.support.sessions import RandomChooser, SessionShape, play_session
except ImportError:  # the first release kept its generator in tests/unit
    from tests.unit.sessions import RandomChooser, SessionShape, play_session

url, out, count, low, high = sys.argv[1], Path(sys.argv[2]), *map(int, sys.argv[3:6])
upgrade(url)
engine = make_engine(url)
ledger = Ledger(engine)
club = None
try:  # releases with clubs: the sessions are a club's, a payment and a count in its books
    from ledger.clubs import Actor, Clubs
    clubs = Clubs(engine)
    info, admin, _ = clubs.create_club("The Bell", admin="Tess")
    club = info["club_id"]
    ledger = ledger.for_club(club)
    actor = Actor("Tess", admin["member_id"])
except ImportError:
    actor = "treasurer"
statements, events = {}, 0
for seed in range(count):
    shape = SessionShape(min_deals=low, max_deals=high, p_illegal_try=0.0,
                         unlimited_loos=False, preset=("baxter-wray", "blenheim",
                         "enquire-within", "cassell")[seed % 4])
    played = play_session(RandomChooser(1000 + seed), shape=shape)
    kwargs = {"guests": list(played.opening.players)} if club else {}
    opening = played.opening
    if club:
        import dataclasses
        opening = dataclasses.replace(opening, members={})
    sid = ledger.open_session(opening, actor=actor, **kwargs)["session_id"]
    for step in played.steps[1:]:
        if step.accepted:
            ledger.append(sid, [step.command], actor=actor)
    statements[sid] = ledger.statement(sid)
    events += len(ledger.events(sid, limit=1000)["events"])
if club:
    from ledger.books import Books
    books = Books(engine, club)
    member = clubs.members(club)[1]
    books.record_payment(payer=member["member_id"], payee="club", amount_minor=30,
                         currency="units", method="cash", actor=actor)
out.write_text(json.dumps({"statements": statements, "events": events}, default=str))
engine.dispose()
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit")
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "release"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree),
                        args.commit], check=True, capture_output=True)
        try:
            made = {}
            sqlite_file = Path(tmp) / "release.db"
            made["sqlite"] = play(tree, f"sqlite:///{sqlite_file}", Path(tmp) / "s.json")
            dump_sqlite(sqlite_file, args.folder / "sqlite.sql")
            database = f"lanterloo_release_{os.getpid()}"
            admin(f'CREATE DATABASE "{database}"')
            try:
                url = SERVER.rsplit("/", 1)[0] + "/" + database
                made["postgresql"] = play(tree, url, Path(tmp) / "p.json")
                dump_postgresql(url, args.folder / "postgresql.sql")
            finally:
                admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=False, capture_output=True)
    (args.folder / "statements.json").write_text(json.dumps(
        {kind: found["statements"] for kind, found in made.items()}, indent=1,
        sort_keys=True) + "\n")
    stamp = subprocess.run(["git", "-C", str(ROOT), "show", "-s", "--format=%H %cI",
                            args.commit], check=True, capture_output=True, text=True)
    commit, when = stamp.stdout.split()
    (args.folder / "release.json").write_text(json.dumps({
        "commit": commit, "committed": when, "sessions": SESSIONS,
        "events": {kind: found["events"] for kind, found in made.items()}}, indent=1) + "\n")
    print(f"wrote {args.folder}: {made['sqlite']['events']} events on SQLite, "
          f"{made['postgresql']['events']} on PostgreSQL")
    return 0


def play(tree: Path, url: str, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-c", PLAY, url, str(out), str(SESSIONS), *map(str, DEALS)],
                   check=True, cwd=tree, env=env)
    found: dict = json.loads(out.read_text())
    return found


def dump_sqlite(path: Path, to: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        to.write_text("\n".join(conn.iterdump()) + "\n")
    finally:
        conn.close()


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def dump_postgresql(url: str, to: Path) -> None:
    dumped = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", "--no-comments",
                             _libpq(url)], check=True, capture_output=True, text=True)
    # the dump's first lines set the server's own options; the restore sets its own
    to.write_text(dumped.stdout)


def admin(sql: str) -> None:
    subprocess.run(["psql", _libpq(SERVER.rsplit("/", 1)[0] + "/postgres"), "-q", "-c", sql],
                   check=True, capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
