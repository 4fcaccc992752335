"""Sessions from before clubs, for the tests of what becomes of them.

    engine = first_release(tmp_path)          # the first release's SQLite, `lanterloo migrate`d
    sid = a_session_before_clubs(engine)

Every session is opened in a club now (`Ledger.open_session` refuses one without), so the
only sessions outside clubs are those of a database made before clubs: the first release's
SQLite database of tests/upgrades/first-release, restored and migrated.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import Engine, select

from api.cli.main import main
from ledger.store.db import make_engine
from ledger.store.tables import sessions

FIRST_RELEASE = Path(__file__).resolve().parents[1] / "upgrades" / "first-release"
# The last revision a database with sessions of no club reaches (the down revision of
# migration 0018, which refuses them): where `lanterloo club attach` gives them one.
ATTACHABLE = "0017"


def first_release(folder: Path) -> Engine:
    """The first release's SQLite database restored into `folder`, migrated as far as its
    sessions of no club let it (ATTACHABLE: `lanterloo migrate` refuses the rest, exit
    status 2, until they are attached)."""
    path = folder / "first-release.db"
    conn = sqlite3.connect(path)
    try:
        conn.executescript((FIRST_RELEASE / "sqlite.sql").read_text())
    finally:
        conn.close()
    url = f"sqlite:///{path}"
    assert main(["migrate", "--database-url", url]) == 2  # as operators upgrade
    return make_engine(url)


def a_session_before_clubs(engine: Engine) -> str:
    """The id of one session of no club."""
    with engine.connect() as conn:
        found = conn.scalar(select(sessions.c.id).where(sessions.c.club_id.is_(None))
                            .order_by(sessions.c.id).limit(1))
    assert found is not None, "the database holds no session from before clubs"
    return str(found)
