"""Every chain anchored, bound and covered, on SQLite and PostgreSQL: an edit made behind the
ledger's back by whoever owns the database (the append-only triggers lifted) is caught by
`/accounts`' chain_ok and `lanterloo verify --all` (exit 1): the book log's last entry
deleted or a forged one appended with a correctly computed hash (its stored head), a session
moved to another club (its chain's genesis, or its SessionAttached event), a member or token
row forged or edited (the club log)."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from api.cli.main import main
from ledger.books.service import Books
from ledger.clubs.service import Actor, Clubs, hash_secret
from ledger.domain import OpenSession
from ledger.domain import commands as cmd
from ledger.sessions.service import Ledger
from ledger.store import booklog, clublog, open_store
from ledger.store.chain import link
from ledger.store.tables import book_entries, club_log, members, sessions, tokens
from ledger.writes import WriteRequest
from tests.support.before_clubs import a_session_before_clubs, first_release

TABLES = ("events", "book_entries", "club_log")


def as_dba(engine: Any, work: Callable[[Connection], None]) -> None:
    """Run `work` with the append-only triggers out of the way, as the tables' owner can."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            for table in TABLES:
                conn.execute(text(f"DROP TRIGGER IF EXISTS {table}_no_update"))
                conn.execute(text(f"DROP TRIGGER IF EXISTS {table}_no_delete"))
        else:
            for table in TABLES:
                conn.execute(text(f"ALTER TABLE {table} DISABLE TRIGGER USER"))
        work(conn)


def new_club(engine: Any) -> tuple[str, Actor, Clubs]:
    clubs = Clubs(engine)
    info, admin, token = clubs.create_club(f"club {secrets.token_hex(4)}", admin="Tess")
    for name in ("Ann", "Bob", "Cal"):
        clubs.add_member(info["club_id"], name)
    return info["club_id"], Actor("Tess", admin["member_id"], token["token_id"]), clubs


def paid(engine: Any, club_id: str, actor: Actor, *amounts: int) -> Books:
    books = Books(engine, club_id)
    for amount in amounts:
        books.record_payment(payer="club", payee="Ann", amount_minor=amount, currency="GBP",
                             method="cash", request=WriteRequest(actor))
    return books


def verify_all_exit(engine: Any, capsys: Any) -> tuple[int, str]:
    code = main(["verify", "--all", "--database-url",
                 engine.url.render_as_string(hide_password=False)])
    return code, capsys.readouterr().out


def play(ledger: Ledger, actor: Actor | str) -> str:
    sid = ledger.open_session(OpenSession(players=["Ann", "Bob", "Cal"], first_dealer="Ann"),
                              WriteRequest(actor)).body["session_id"]
    ledger.append(sid, [cmd.StartDeal(trump_card="7H", face_up={"Ann": "5C", "Bob": "9H",
                                                                "Cal": "KS"})],
                  WriteRequest(actor))
    assert ledger.verify(sid) == []
    return sid


# -- the book log's stored head -----------------------------------------------------------

def test_the_book_logs_last_entry_deleted_is_caught_by_its_stored_head(engine, capsys):
    club_id, actor, _ = new_club(engine)
    books = paid(engine, club_id, actor, 100, 40)
    assert books.accounts()["log"]["chain_ok"] is True
    assert verify_all_exit(engine, capsys)[0] == 0

    as_dba(engine, lambda conn: conn.execute(text(
        "DELETE FROM book_entries WHERE club_id = :c AND seq = 2"), {"c": club_id}))

    log = books.accounts()["log"]
    assert log["entries"] == 1 and log["chain_ok"] is False
    assert log["problem"] == ("head: the stored head is at seq 2, the log ends at seq 1: "
                              "entries were deleted from its end, or added behind the "
                              "ledger's back")
    code, out = verify_all_exit(engine, capsys)
    assert code == 1
    assert f"club {club_id}: its logs are not right:" in out
    assert "  book log: head: the stored head is at seq 2, the log ends at seq 1" in out


def test_a_forged_book_entry_with_a_correct_hash_is_caught_by_its_stored_head(engine, capsys):
    club_id, actor, _ = new_club(engine)
    books = paid(engine, club_id, actor, 100)

    def forge(conn: Connection) -> None:
        last = conn.execute(select(book_entries).where(book_entries.c.club_id == club_id)
                            .order_by(book_entries.c.seq.desc()).limit(1)).one()
        forged = {**last._mapping, "seq": 2, "payload": {**last.payload, "amount_minor": 9999}}
        forged.pop("position")
        forged["hash"] = link(booklog.hashed_row(forged), last.hash)  # knows the format
        conn.execute(insert(book_entries).values(**forged))

    as_dba(engine, forge)
    with open_store(engine).consistent() as conn:  # the chain is whole: only the head tells
        rows = booklog.entries(conn, club_id)
        assert len(rows) == 2
        assert clublog.head_problems(conn, clublog.books_stream(club_id), "head", 2,
                                     rows[-1].hash) != []
    log = books.accounts()["log"]
    assert log["chain_ok"] is False
    assert log["problem"].startswith("head: the stored head is at seq 1, the log ends at "
                                     "seq 2")
    assert verify_all_exit(engine, capsys)[0] == 1


def test_an_append_after_a_deleted_head_is_refused(engine):
    club_id, actor, _ = new_club(engine)
    books = paid(engine, club_id, actor, 100)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM log_heads WHERE stream_id = :s"),
                     {"s": clublog.books_stream(club_id)})
    try:
        paid(engine, club_id, actor, 5)
    except clublog.HeadMissing as error:
        assert "has no stored head" in str(error)
    else:
        raise AssertionError("an append to a log without its head was accepted")
    assert books.accounts()["log"]["problem"] == \
        f"head: no stored head (log_heads has no row books:{club_id})"


# -- a session bound to its club -----------------------------------------------------------

def test_a_club_sessions_chain_starts_from_its_clubs_genesis_and_rebuilds_clean(engine):
    from ledger.store.chain import GENESIS, session_genesis
    from ledger.store.tables import events

    club_id, actor, _ = new_club(engine)
    sid = play(Ledger(engine).for_club(club_id), actor)
    with engine.connect() as conn:
        first = conn.execute(select(events).where(events.c.stream_id == sid,
                                                  events.c.version == 1)).one()
    assert first.hash == link(first._mapping, session_genesis(sid, club_id))
    assert first.hash != link(first._mapping, GENESIS)
    assert Ledger(engine).rebuild(sid) == [] and Ledger(engine).verify(sid) == []


def test_a_session_moved_to_another_club_breaks_its_first_link(engine, capsys):
    club_id, actor, _ = new_club(engine)
    other, _, _ = new_club(engine)
    sid = play(Ledger(engine).for_club(club_id), actor)
    with pytest.raises(IntegrityError), engine.begin() as conn:  # its rows name its club
        conn.execute(update(sessions).where(sessions.c.id == sid).values(club_id=other))
    moved_behind_the_ledgers_back(engine, sid, other)

    problems = Ledger(engine).verify(sid)
    assert problems[0].startswith("chain: version 1 ")
    assert "does not follow from the chain's genesis (its stream and owner)" in problems[0]
    code, out = verify_all_exit(engine, capsys)
    assert code == 1 and f"session {sid}: the projections differ" in out


def moved_behind_the_ledgers_back(engine: Engine, sid: str, club_id: str) -> None:
    """The session's row given another club with the foreign keys off (SQLite's are off
    until a connection asks; PostgreSQL's replica role fires no trigger), its rows left."""
    if engine.dialect.name == "sqlite":
        with closing(sqlite3.connect(str(engine.url.database))) as raw, raw:
            raw.execute("UPDATE sessions SET club_id = ? WHERE id = ?", (club_id, sid))
        return
    with engine.begin() as conn:
        conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
        conn.execute(update(sessions).where(sessions.c.id == sid).values(club_id=club_id))


@pytest.mark.backends("sqlite")
def test_a_session_attached_to_a_club_is_bound_there_and_the_club_log_says_who(tmp_path):
    engine = first_release(tmp_path)
    club_id, actor, _ = new_club(engine)
    other, _, _ = new_club(engine)
    sid = a_session_before_clubs(engine)  # every session is a club's since; not the first's
    Ledger(engine).for_club(club_id).attach(sid, WriteRequest(actor))
    assert Ledger(engine).verify(sid) == []
    with engine.connect() as conn:
        entry = clublog.entries(conn, club_id)[-1]
    assert (entry.type, entry.actor, entry.member_id, entry.payload["session_id"]) == \
        ("SessionAttached", "Tess", actor.member_id, sid)

    with engine.begin() as conn:
        conn.execute(update(sessions).where(sessions.c.id == sid).values(club_id=other))
    assert f"club: sessions.club_id is {other}, but its SessionAttached event binds the " \
        f"session to {club_id}: the session was moved" in Ledger(engine).verify(sid)


@pytest.mark.backends("sqlite")
def test_a_session_outside_clubs_pulled_into_one_is_caught(tmp_path):
    engine = first_release(tmp_path)
    club_id, _, _ = new_club(engine)
    sid = a_session_before_clubs(engine)
    assert Ledger(engine).verify(sid) == []
    with engine.begin() as conn:
        conn.execute(update(sessions).where(sessions.c.id == sid).values(club_id=club_id))
    assert f"club: sessions.club_id is {club_id}, but the club log that took it in at the " \
        "upgrade binds the session to no club: the session was moved" in Ledger(engine).verify(sid)


# -- the club log: who could act -----------------------------------------------------------

def test_members_and_tokens_are_recorded_in_the_club_log_with_who_changed_them(engine):
    club_id, actor, clubs = new_club(engine)
    token = clubs.create_token(club_id, "Ann", "dealer", "tablet 1", by=actor)
    clubs.revoke_token(token["token_id"], club_id=club_id, by=actor)
    with engine.connect() as conn:
        log = clublog.entries(conn, club_id)
    assert [(e.seq, e.type) for e in log] == [
        (1, "ClubCreated"), (2, "MemberAdded"), (3, "TokenIssued"), (4, "MemberAdded"),
        (5, "MemberAdded"), (6, "MemberAdded"), (7, "TokenIssued"), (8, "TokenRevoked")]
    issued, revoked = log[6], log[7]
    assert issued.payload["role"] == "dealer" and issued.payload["token_id"] == token["token_id"]
    assert "token" not in issued.payload  # the secret itself is never kept
    assert (issued.actor, issued.member_id, revoked.actor) == ("Tess", actor.member_id, "Tess")
    assert log[0].actor == "operator"  # the command line made the club
    assert Books(engine, club_id).verify() == []


def test_a_forged_token_and_member_and_an_edited_role_are_caught(engine, capsys):
    club_id, actor, clubs = new_club(engine)
    dealer = clubs.create_token(club_id, "Ann", "dealer", "tablet 1", by=actor)
    now = datetime.now(UTC)
    with engine.begin() as conn:  # no trigger guards these tables: an owner's plain SQL
        conn.execute(insert(members).values(id="m-forged", club_id=club_id, name="Mallory",
                                            name_key="mallory", guest=False, created_at=now))
        conn.execute(insert(tokens).values(
            id="forged0000000000", club_id=club_id, member_id="m-forged", role="admin",
            label="laptop", secret_hash=hash_secret("known"), created_at=now,
            expires_at=None, revoked_at=None))
        conn.execute(update(tokens).where(tokens.c.id == dealer["token_id"])
                     .values(role="treasurer", secret_hash=hash_secret("mine")))

    problems = Books(engine, club_id).verify()
    assert sorted(problems) == sorted([
        "members.m-forged: stored, but the club log never added it (written behind the "
        "ledger's back)",
        "tokens.forged0000000000: stored, but the club log never added it (written behind "
        "the ledger's back)",
        f"tokens.{dealer['token_id']}.role: stored 'treasurer', the club log's 'dealer'",
        f"tokens.{dealer['token_id']}.secret_hash: not the hash the club log issued"])
    code, out = verify_all_exit(engine, capsys)
    assert code == 1 and "tokens.forged0000000000: stored, but" in out


def test_a_club_log_entry_forged_with_its_hash_is_caught_by_the_stored_head(engine):
    club_id, actor, _ = new_club(engine)

    def forge(conn: Connection) -> None:
        last = conn.execute(select(club_log).where(club_log.c.club_id == club_id)
                            .order_by(club_log.c.seq.desc()).limit(1)).one()
        row = {**last._mapping, "seq": last.seq + 1, "type": "MemberAdded",
               "payload": {"member_id": "m-x", "name": "Mallory", "guest": False}}
        row.pop("position")
        row["hash"] = link(clublog.hashed_row(row), last.hash)
        conn.execute(insert(club_log).values(**row))
        conn.execute(insert(members).values(id="m-x", club_id=club_id, name="Mallory",
                                            name_key="mallory", guest=False,
                                            created_at=datetime.now(UTC)))

    as_dba(engine, forge)
    problems = Books(engine, club_id).verify()
    assert problems == ["club log: the stored head is at seq 6, the log ends at seq 7: "
                        "entries were deleted from its end, or added behind the ledger's "
                        "back"]


# -- signed checkpoints kept outside the database -------------------------------------------

def with_key(monkeypatch: Any, tmp_path: Any) -> Any:
    """The service's checkpoint key and log, in files outside the database."""
    from ledger.audit import checkpoint_log, checkpoints

    signer, seed = checkpoints.Signer.generate()
    (tmp_path / "key").write_text(seed + "\n")
    monkeypatch.setenv("LOO_CHECKPOINT_KEY_FILE", str(tmp_path / "key"))
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", str(tmp_path / "checkpoints.jsonl"))
    checkpoints.forget_configuration()
    monkeypatch.setattr(checkpoints, "_configured", {})
    checkpoint_log.forget_state()
    return signer


def rewrite_whole_chain(engine: Any, sid: str, club_id: str) -> None:
    """An owner's full rewrite: a payload changed, every later hash recomputed, the head
    stored anew (the chain and verify alone then hold)."""
    from ledger.store.chain import session_genesis
    from ledger.store.tables import events

    def work(conn: Connection) -> None:
        prev = session_genesis(sid, club_id)
        for stored in conn.execute(select(events).where(events.c.stream_id == sid)
                                   .order_by(events.c.version)).all():
            data = dict(stored._mapping)
            if data["type"] == "SessionOpened":
                data["actor"] = "someone else"
            data["hash"] = prev = link(data, prev)
            conn.execute(update(events).where(events.c.position == stored.position)
                         .values(actor=data["actor"], hash=data["hash"]))
        conn.execute(update(sessions).where(sessions.c.id == sid).values(head_hash=prev))

    as_dba(engine, work)


def test_a_full_rewrite_passes_the_databases_own_checks_but_not_a_kept_signed_head(
        engine, capsys, tmp_path, monkeypatch):
    signer = with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    ledger = Ledger(engine).for_club(club_id)
    sid = play(ledger, actor)
    assert "checkpoint" not in ledger.statement(sid)["log"]  # a read signs nothing
    assert not (tmp_path / "checkpoints.jsonl").exists()
    assert main(["checkpoint", "--database-url", engine.url.render_as_string(
        hide_password=False)]) == 0
    kept = (tmp_path / "checkpoints.jsonl").read_text().splitlines()
    assert len(kept) == 1 + 1  # the session's and the club log's (its books are empty)
    printed = ledger.statement(sid)["log"]
    checkpoint = printed["checkpoint"]  # the statement carries the head kept for it
    assert (checkpoint["stream"], checkpoint["version"], checkpoint["head"],
            checkpoint["key"]) == (sid, 3, printed["chain_head"], signer.public_hex)
    assert f"checkpoint,signed_at,{checkpoint['signed_at'][:19]}" in ledger.statement_csv(sid)
    auditors_copy = tmp_path / "auditor.jsonl"
    auditors_copy.write_text("\n".join(kept) + "\n")
    capsys.readouterr()

    rewrite_whole_chain(engine, sid, club_id)
    assert Ledger(engine).verify(sid) == []  # the database agrees with itself
    url = engine.url.render_as_string(hide_password=False)
    code, out = verify_all_exit(engine, capsys)  # ... but not with the signer's own log
    assert code == 1
    assert f"REWRITTEN {sid}: version 3's hash is " in out

    code = main(["verify", "--checkpoint", str(auditors_copy), "--public-key",
                 signer.public_hex, "--database-url", url])
    out = capsys.readouterr().out
    assert code == 1
    assert f"{sid}: version 3's hash is " in out and ": the chain was rewritten" in out
    assert out.count("the chain was rewritten") == 1


def test_a_checkpoint_by_another_key_or_altered_is_refused(engine, capsys, tmp_path,
                                                           monkeypatch):
    from ledger.audit import checkpoint_log, checkpoints

    with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    sid = play(Ledger(engine).for_club(club_id), actor)
    with engine.connect() as conn:
        signed = checkpoint_log.sign_heads(conn, [(sid, 3)]).signed[0]
    stranger, _ = checkpoints.Signer.generate()
    with engine.connect() as conn:
        assert checkpoints.check(conn, signed, None) is None
        assert checkpoints.check(conn, {**signed, "version": 1}, None) == \
            "checkpoint: the signature does not match the checkpoint: it was altered or forged"
        forged = stranger.sign(sid, 2, "f" * 64)
        assert checkpoints.check(conn, forged, {signed["key"]}) == \
            f"checkpoint: signed by key {checkpoints.key_id(stranger.public_hex)}, which is " \
            "not a trusted key"


# -- an export checked with no database ---------------------------------------------------

def test_an_export_verifies_on_a_copy_with_no_database_and_an_edit_to_it_does_not(
        engine, capsys, tmp_path, monkeypatch):
    signer = with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    sid = play(Ledger(engine).for_club(club_id), actor)
    url = engine.url.render_as_string(hide_password=False)
    out_file = tmp_path / "export.json"
    assert main(["export", sid, "-o", str(out_file), "--database-url", url]) == 0
    copied = tmp_path / "elsewhere.json"
    copied.write_bytes(out_file.read_bytes())
    monkeypatch.setenv("LOO_DATABASE_URL", "postgresql+psycopg://nobody@192.0.2.1:1/none")
    capsys.readouterr()

    assert main(["verify-export", str(copied), "--public-key", signer.public_hex]) == 0
    assert f"holds: session {sid} of club {club_id}, 3 events, checked by key " \
        in capsys.readouterr().out

    import orjson

    data = orjson.loads(copied.read_bytes())
    data["statement"]["players"][0]["net_units"] += 3  # the money edited
    copied.write_bytes(orjson.dumps(data))
    assert main(["verify-export", str(copied), "--public-key", signer.public_hex]) == 1
    assert "statement.players: the export says" in capsys.readouterr().out

    data = orjson.loads(out_file.read_bytes())
    data["events"][1]["actor"] = "someone else"  # an event edited
    copied.write_bytes(orjson.dumps(data))
    assert main(["verify-export", str(copied), "--public-key", signer.public_hex]) == 1
    assert "chain: version 2 " in capsys.readouterr().out


def test_a_cut_short_chain_and_a_garbled_checkpoint_log_are_reported_not_crashed_on(
        engine, capsys, tmp_path, monkeypatch):
    signer = with_key(monkeypatch, tmp_path)
    club_id, actor, _ = new_club(engine)
    sid = play(Ledger(engine).for_club(club_id), actor)
    kept = tmp_path / "kept.jsonl"
    import orjson

    kept.write_bytes(b"not json\n" + orjson.dumps(signer.sign(sid, 9, "a" * 64)) + b"\n"
                     + orjson.dumps({"format": "lanterloo-checkpoint/1"}) + b"\n")
    code = main(["verify", "--checkpoint", str(kept), "--public-key", signer.public_hex,
                 "--database-url", engine.url.render_as_string(hide_password=False)])
    out = capsys.readouterr().out
    assert code == 1
    assert "checkpoint 1: checkpoint: not a checkpoint of format lanterloo-checkpoint/1" in out
    assert f"checkpoint 2: {sid}: the log no longer has version 9, which a checkpoint " \
        "signed at" in out
    assert "checkpoint 3: checkpoint: the checkpoint has no key or no signature" in out
    assert "3 checkpoints checked, 0 chains verified: 3 problems" in out
