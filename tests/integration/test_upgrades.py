"""Upgrades: every earlier release's database to the head, nothing stranded.

Each folder of tests/upgrades holds a database made by an earlier release's own code
(tests/upgrades/build.py: its session generator and its Ledger), as SQL for SQLite and for
PostgreSQL, and the statements that release served. Here each is restored, upgraded as the
operator's guide says (`lanterloo migrate`: the schema, then the projections of an older form
rebuilt from the logs), and checked: every session verifies; every statement says what the
release said (the money, the transfers, the version); the old sessions take new entries.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, make_url, select, update
from sqlalchemy.exc import IntegrityError

from api.cli.main import main
from ledger.domain.commands import EndSession
from ledger.operations.bulk import verify_all
from ledger.operations.database import current, head_revision
from ledger.sessions.service import Ledger
from ledger.store.db import make_engine
from ledger.store.tables import events, sessions
from ledger.writes import WriteRequest
from tests.conftest import unreachable
from tests.support.before_clubs import ATTACHABLE
from tests.support.databases import PostgresUnreachable

RELEASES = Path(__file__).resolve().parents[1] / "upgrades"
FOLDERS = sorted(p.name for p in RELEASES.iterdir() if (p / "release.json").exists())
KINDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=FOLDERS)
def release(request: pytest.FixtureRequest) -> Path:
    return RELEASES / request.param


@pytest.fixture(params=KINDS)
def restored(request: pytest.FixtureRequest, release: Path, tmp_path: Path
             ) -> Iterator[tuple[str, str, Path]]:
    """(kind, a URL of the release's database restored, the release's folder)."""
    if request.param == "sqlite":
        path = tmp_path / "release.db"
        conn = sqlite3.connect(path)
        try:
            conn.executescript((release / "sqlite.sql").read_text())
        finally:
            conn.close()
        yield "sqlite", f"sqlite:///{path}", release
        return
    databases = request.getfixturevalue("databases")
    try:
        url = databases.empty_postgres()
    except PostgresUnreachable as error:
        unreachable(error)
    libpq = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-f",
                    str(release / "postgresql.sql"), libpq], check=True, capture_output=True)
    try:
        yield "postgresql", url, release
    finally:
        databases.drop(url)


def money(statement: dict[str, Any]) -> dict[str, Any]:
    """What a statement says of money, in every release's words."""
    return {
        "version": statement["version"], "status": statement["status"],
        "players": [{k: p[k] for k in ("player", "net_units", "net_money_minor",
                                        "paid_units", "received_units", "deals_dealt")}
                    for p in statement["players"]],
        "pool": {k: statement["pool"][k] for k in ("current_pool_units", "next_pool_units")},
        "transfers": statement["settlement"]["transfers"],
        "check": statement["check"],
    }


def upgraded(url: str, capsys: pytest.CaptureFixture[str], *, attach: bool = True
             ) -> Engine:
    """`lanterloo migrate`, as docs/operations.md says to upgrade. With sessions of no club
    (the first release's) it stops at 0017 and names the attach command, only then; with
    `attach`, the operator then makes a club, attaches them to it and migrates again (at the
    head), else the database is left at 0017."""
    code = main(["migrate", "--database-url", url])
    said = capsys.readouterr()
    engine = make_engine(url)
    with engine.connect() as conn:
        strays = conn.scalar(select(func.count()).where(sessions.c.club_id.is_(None)))
    told = f"error: {strays} sessions from before clubs belong to no club"
    assert (told in said.err) == bool(strays), said.err
    assert "then run `lanterloo migrate` again" in said.err or not strays
    assert code == (2 if strays else 0)
    assert current(url) == (ATTACHABLE if strays else head_revision())
    if strays and attach:
        from tests.clubs import make_club

        # (`lanterloo club create` would make the tests' shared checkpoint key)
        club = make_club(engine, "The Old Room")
        assert main(["club", "attach", club.club_id, "--all", "--database-url", url]) == 0
        assert main(["migrate", "--database-url", url]) == 0
        assert current(url) == head_revision()
        capsys.readouterr()
    return engine


def rows_not_of_their_club(engine: Engine) -> list[tuple[str, str]]:
    """(table, session id) of every row of a club's session that does not name its club
    (migration 0017 fills them; an attach fills a session's from before clubs)."""
    from sqlalchemy import text

    found = []
    with engine.connect() as conn:
        for table, column in (("events", "stream_id"), ("deal_views", "session_id"),
                              ("snapshots", "session_id"), ("session_results", "session_id")):
            found += [(table, sid) for sid in conn.scalars(text(
                f"SELECT DISTINCT t.{column} FROM {table} t JOIN sessions s "
                f"ON s.id = t.{column} WHERE s.club_id IS NOT NULL "
                "AND (t.club_id IS NULL OR t.club_id <> s.club_id)"))]
    return found


def test_a_release_database_upgraded_verifies_and_says_what_the_release_said(
        restored, capsys):
    kind, url, release = restored
    said = json.loads((release / "statements.json").read_text())[kind]
    engine = upgraded(url, capsys)
    try:
        assert verify_all(engine, workers=1) == {sid: [] for sid in sorted(said)}
        assert rows_not_of_their_club(engine) == []
        assert main(["verify", "--all", "--database-url", url]) == 0
        ledger = Ledger(engine)
        for sid, statement in said.items():
            now = ledger.statement(sid)
            # a club's session whose latecomer sat on no account has his seat attached; a
            # session from before clubs is attached to the operator's club
            attached = now["version"] == statement["version"] + 1
            assert money(now) == {**money(statement), "version": now["version"]}, sid
            assert [e["type"] for e in ledger.events(sid, limit=1000)["events"][
                statement["version"]:]] in ((["LatecomersAttached"], ["SessionAttached"])
                                            if attached else ([],)), sid
    finally:
        engine.dispose()


def test_the_old_sessions_take_new_entries_after_the_upgrade(restored, capsys):
    kind, url, release = restored
    said = json.loads((release / "statements.json").read_text())[kind]
    engine = upgraded(url, capsys)
    try:
        ledger = Ledger(engine)
        for sid, statement in said.items():
            if statement["status"] != "open":
                continue
            result = ledger.append(sid, [EndSession(method="divide-pool")],
                                   WriteRequest("treasurer"))
            assert result.version > statement["version"]
            assert ledger.statement(sid)["status"] == "ended"
        assert all(found == [] for found in verify_all(engine, workers=1).values())
    finally:
        engine.dispose()


def test_projections_of_an_older_form_are_read_from_the_log_until_rebuilt(
        restored, capsys):
    """An upgrade by the schema alone (alembic upgrade head): a read of a session of an
    older form answers from its log as it folds and writes nothing (issue 33); `rebuild`
    (or `lanterloo migrate`, or the session's next write) rebuilds it."""
    from ledger.projections import SHAPE
    from ledger.store.migrate import SessionsOutsideClubs, upgrade

    kind, url, release = restored
    said = json.loads((release / "statements.json").read_text())[kind]
    try:
        upgrade(url)
    except SessionsOutsideClubs as refused:  # the first release's: read and rebuilt there
        upgrade(url, refused.below)
    engine = make_engine(url)

    def shapes() -> dict[str, int]:
        with engine.connect() as conn:
            return dict(conn.execute(select(sessions.c.id, sessions.c.shape)).all())

    try:
        with engine.begin() as conn:  # as a database from before forms were recorded
            conn.execute(update(sessions).values(shape=0))
        ledger = Ledger(engine)
        sid = sorted(said)[0]
        assert money(ledger.statement(sid)) == money(said[sid])
        assert ledger.session(sid)["version"] == said[sid]["version"]
        assert set(shapes().values()) == {0}  # read, not rebuilt
        assert ledger.verify(sid)[0].startswith("projections: written in form 0")
        ledger.rebuild(sid)
        assert shapes()[sid] == SHAPE and money(ledger.statement(sid)) == money(said[sid])
        # rebuilt and whole; a latecomer's seat waits for `lanterloo migrate` to attach it
        found = ledger.verify(sid)
        assert [p for p in found if "names no member of the club" not in p] == []
    finally:
        engine.dispose()


def test_a_real_difference_still_fails_verify_after_the_upgrade(restored, capsys):
    kind, url, release = restored
    engine = upgraded(url, capsys)
    try:
        with engine.begin() as conn:
            sid = conn.scalar(select(sessions.c.id).order_by(sessions.c.id).limit(1))
            state = conn.scalar(select(sessions.c.state).where(sessions.c.id == sid))
            player = state["seats"][0]
            state["balances"][player] += 1
            conn.execute(update(sessions).where(sessions.c.id == sid).values(state=state))
        found = verify_all(engine, workers=1)[sid]
        assert f"state.balances.{player}: stored" in " ".join(found)
    finally:
        engine.dispose()


def test_the_release_folders_say_which_commit_made_them():
    for folder in FOLDERS:
        made = json.loads((RELEASES / folder / "release.json").read_text())
        assert len(made["commit"]) == 40 and made["sessions"] >= 1
        said = json.loads((RELEASES / folder / "statements.json").read_text())
        assert set(said) == {"sqlite", "postgresql"}
        assert all(len(found) == made["sessions"] for found in said.values())


@pytest.mark.parametrize("release", ["first-release"], indirect=True)  # before clubs
def test_one_attach_command_brings_the_history_from_before_clubs_into_a_club(
        restored, capsys):
    """The first release had no clubs: after `lanterloo club attach CLUB --all` every
    session of it is the club's, in its statements, explain trails, accounts, standings and
    audit queries, as if played there; attaching again, or to a second club, is refused."""
    from api import create_app
    from tests.clubs import make_club

    kind, url, release = restored
    said = json.loads((release / "statements.json").read_text())[kind]
    engine = upgraded(url, capsys, attach=False)  # at 0017, where attach works
    try:
        with engine.connect() as conn:
            strays = set(conn.scalars(select(sessions.c.id).where(
                sessions.c.club_id.is_(None))))
        assert len(strays) == len(said)
        club, other = make_club(engine, "The Bell"), make_club(engine, "The Crown")
        assert main(["club", "attach", club.club_id, "--all", "--database-url", url]) == 0
        out = capsys.readouterr().out
        assert all(f"session {sid}: attached to The Bell" in out for sid in strays)
        assert main(["club", "attach", other.club_id, *sorted(strays),
                     "--database-url", url]) == 2
        assert main(["club", "attach", club.club_id, *sorted(strays),
                     "--database-url", url]) == 2
        refused = capsys.readouterr().err
        assert refused.count("not attached: no session") == len(strays)  # another club's
        assert refused.count("not attached: session") == len(strays)  # the club's already
        assert main(["migrate", "--database-url", url]) == 0  # every session a club's
        assert current(url) == head_revision()
        assert all(v == [] for v in verify_all(engine, workers=1).values())
        assert rows_not_of_their_club(engine) == []
        with engine.connect() as conn:  # every row of the attached sessions: the club's
            assert set(conn.scalars(select(events.c.club_id).where(
                events.c.stream_id.in_(strays)))) == {club.club_id}

        app = create_app({"DATABASE_URL": url, "TESTING": True})
        web = app.test_client()
        as_treasurer = {"Authorization": f"Bearer {club.tokens['treasurer']}"}
        for sid in strays:
            statement = web.get(f"/sessions/{sid}/statement", headers=as_treasurer).get_json()
            assert money(statement) == {**money(said[sid]), "version": statement["version"]}
            assert statement["version"] == said[sid]["version"] + 1
            assert web.get(f"/sessions/{sid}/explain?player=Ada", headers=as_treasurer
                           ).status_code == 200
            assert web.get(f"/sessions/{sid}", headers={
                "Authorization": f"Bearer {other.tokens['treasurer']}"}).status_code == 404
        accounts = web.get("/accounts", headers=as_treasurer).get_json()
        ended = [said[sid] for sid in strays if said[sid]["status"] == "ended"]
        nets: dict[str, int] = {}
        for statement in ended:
            for p in statement["players"]:
                nets[p["player"]] = nets.get(p["player"], 0) + p["net_units"]
        names = {m["member_id"]: m["name"] for m in web.get(
            "/members", headers=as_treasurer).get_json()["members"]}
        assert nets and set(nets) <= set(names.values())
        standings = web.get("/standings", headers=as_treasurer).get_json()["members"]
        assert {m["name"]: m["net_units"] for m in standings if m["sessions"]} == nets
        held = {m["name"]: m["balances"] for m in accounts["members"]}
        assert all(held[name] for name in nets if nets[name])  # each owes or is owed
        ada = next(i for i, n in names.items() if n == next(iter(nets)))
        trail = web.get(f"/audit/events?member_id={ada}&limit=500",
                        headers=as_treasurer).get_json()
        assert "events" in trail, trail
        assert {e["session_id"] for e in trail["events"]} & strays
        with app.app_context():  # its pool and its LISTEN connection
            from api.http.extension import services

            services().engine.dispose()
    finally:
        engine.dispose()


@pytest.mark.parametrize("release", ["before-simplification"], indirect=True)  # in clubs
def test_an_old_club_session_moved_after_the_upgrade_is_caught(restored, capsys):
    """A session of an earlier release's club keeps its chain (from 64 zeros); the upgrade's
    ClubLogStarted binds it to its club, so moving it to another club fails verify, and the
    club's members and tokens as they were are the club log's."""
    from tests.clubs import make_club

    kind, url, _ = restored
    engine = upgraded(url, capsys)
    try:
        with engine.connect() as conn:
            sid, club_id = conn.execute(select(sessions.c.id, sessions.c.club_id).where(
                sessions.c.club_id.is_not(None)).limit(1)).one()
        assert main(["verify", "--all", "--database-url", url]) == 0
        assert f"club {club_id}: the book log and the club log are whole" \
            in capsys.readouterr().out
        other = make_club(engine, "The Crown")
        # the database refuses it: the session's rows name it with its club (0018)
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.id == sid)
                         .values(club_id=other.club_id))
        # ... but not one who switches the foreign keys off (SQLite's are off until asked)
        if kind == "sqlite":
            with closing(sqlite3.connect(str(make_url(url).database))) as raw, raw:
                raw.execute("UPDATE sessions SET club_id = ? WHERE id = ?",
                            (other.club_id, sid))
        else:
            with engine.begin() as conn:
                conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
                conn.execute(update(sessions).where(sessions.c.id == sid)
                             .values(club_id=other.club_id))
        assert f"club: sessions.club_id is {other.club_id}, but the club log that took it " \
            f"in at the upgrade binds the session to {club_id}: the session was moved" \
            in verify_all(engine, workers=1)[sid]
    finally:
        engine.dispose()


@pytest.mark.parametrize("release", ["first-release"], indirect=True)
@pytest.mark.parametrize("restored", ["sqlite"], indirect=True)
def test_the_club_administrator_attaches_over_the_api(restored, capsys, monkeypatch):
    """GET /club/sessions-before-clubs and POST /sessions/{id}/attach: the administrator of
    the database's one club, or of the club the operator names; nobody else."""
    from api import create_app
    from tests.clubs import make_club

    kind, url, release = restored
    said = json.loads((release / "statements.json").read_text())[kind]
    engine = upgraded(url, capsys, attach=False)  # at 0017: the web's attach works there
    try:
        club = make_club(engine, "The Bell")
        web = create_app({"DATABASE_URL": url, "TESTING": True}).test_client()
        admin = {"Authorization": f"Bearer {club.tokens['admin']}"}
        listed = web.get("/club/sessions-before-clubs", headers=admin)
        assert listed.status_code == 200, listed.get_json()
        strays = [s["session_id"] for s in listed.get_json()["sessions"]]
        assert sorted(strays) == sorted(said)
        assert {s["version"] for s in listed.get_json()["sessions"]} == {
            said[sid]["version"] for sid in strays}
        first, second = strays[0], strays[1]
        for role in ("treasurer", "dealer", "auditor"):
            refused = web.post(f"/sessions/{first}/attach",
                               headers={"Authorization": f"Bearer {club.tokens[role]}"})
            assert refused.status_code == 403, role
        done = web.post(f"/sessions/{first}/attach", headers=admin)
        assert done.status_code == 201, done.get_json()
        assert done.get_json()["version"] == said[first]["version"] + 1
        assert done.headers["ETag"] == f'"{said[first]["version"] + 1}"'
        assert done.get_json()["appended"][0]["type"] == "SessionAttached"
        again = web.post(f"/sessions/{first}/attach", headers=admin)
        assert again.status_code == 409 and again.get_json()["rule"] == "attached-once"
        statement = web.get(f"/sessions/{first}/statement", headers={
            "Authorization": f"Bearer {club.tokens['treasurer']}"}).get_json()
        assert money(statement) == {**money(said[first]), "version": statement["version"]}
        after = web.get("/club/sessions-before-clubs", headers=admin).get_json()["sessions"]
        assert first not in {s["session_id"] for s in after} and len(after) == len(strays) - 1

        # a second club: neither administrator may, until the operator names one
        other = make_club(engine, "The Crown")
        for who in (club, other):
            hidden = web.post(f"/sessions/{second}/attach", headers={
                "Authorization": f"Bearer {who.tokens['admin']}"})
            assert hidden.status_code == 403 and hidden.get_json()["rule"] == "attach-club"
        named = create_app({"DATABASE_URL": url, "TESTING": True,
                            "ATTACH_CLUB": other.name}).test_client()
        assert named.post(f"/sessions/{second}/attach", headers=admin).status_code == 403
        taken = named.post(f"/sessions/{second}/attach", headers={
            "Authorization": f"Bearer {other.tokens['admin']}"})
        assert taken.status_code == 201, taken.get_json()
        assert named.post(f"/sessions/{first}/attach", headers={  # The Bell's: not found
            "Authorization": f"Bearer {other.tokens['admin']}"}).status_code == 404
    finally:
        engine.dispose()


@pytest.mark.parametrize("release", ["before-simplification"], indirect=True)  # in clubs
def test_an_old_club_sessions_latecomer_is_on_a_members_account_after_the_upgrade(
        restored, capsys):
    """Hal joined a session of The Bell after it opened, when a join named no member: his
    result was on nobody's account. `lanterloo migrate` attaches his seat to a new guest
    member Hal (no member had his name), and the club's books square."""
    from ledger.books.service import Books
    from ledger.store.tables import members, session_results

    kind, url, release = restored
    said = json.loads((release / "statements.json").read_text())[kind]
    hals = next(sid for sid, st in said.items() if "Hal" in {p["player"] for p in st["players"]})
    assert main(["migrate", "--database-url", url]) == 0
    assert f"session {hals}: latecomers attached to members: Hal" in capsys.readouterr().out
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            lines = conn.execute(select(session_results.c.seat, members.c.name,
                                        members.c.guest, session_results.c.club_id)
                                 .join(members, members.c.id == session_results.c.member_id,
                                       isouter=True)
                                 .where(session_results.c.session_id == hals)).all()
        assert {(seat, name) for seat, name, _, _ in lines} == {
            (p["player"], p["player"]) for p in said[hals]["players"]}
        assert [guest for seat, _, guest, _ in lines if seat == "Hal"] == [True]
        club_id = lines[0].club_id
        standings = Books(engine, club_id).standings()["members"]
        assert next(m for m in standings if m["name"] == "Hal")["sessions"] == 1
        assert Books(engine, club_id).accounts()["check"]["zero_sum"] is True
        assert all(v == [] for v in verify_all(engine, workers=1).values())
    finally:
        engine.dispose()
