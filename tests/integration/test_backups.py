"""`lanterloo backup` and `lanterloo restore`, and the restore drill of docs/operations.md,
on both databases: a backup restored into a new database verifies, and the checkpoints
signed after the backup read as newer than it (with what to do), never as tampering; a
checkpoint signed before it that the copy cannot hold still reads as entries removed."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from api.cli.audit import NEWER_THAN_BACKUP
from api.cli.main import main
from ledger.audit.checkpoints import Signer, forget_configuration, keep, read_log
from ledger.operations.backups import NAME, prune, taken_at
from ledger.store.db import make_engine
from ledger.writes import WriteRequest
from tests.clubs import club_ledger
from tests.support.databases import Databases
from tests.support.sessions import RandomChooser, SessionShape, play_session


@pytest.fixture
def signing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkpoint key made by `lanterloo keygen` in a folder it makes, and a checkpoint
    log; the log's path."""
    assert main(["keygen", str(tmp_path / "etc" / "checkpoint.key")]) == 0
    monkeypatch.setenv("LOO_CHECKPOINT_KEY_FILE", str(tmp_path / "etc" / "checkpoint.key"))
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", str(tmp_path / "checkpoints.jsonl"))
    forget_configuration()
    yield tmp_path / "checkpoints.jsonl"
    forget_configuration()


def _play(url: str, seed: int) -> str:
    """A random legal session, recorded through the ledger; its id."""
    engine = make_engine(url, operator=True)
    try:
        ledger = club_ledger(engine)
        played = play_session(RandomChooser(seed), shape=SessionShape(max_deals=3))
        sid = str(ledger.open_session(played.opening, WriteRequest("cli")).body["session_id"])
        for step in played.steps[1:]:
            if step.accepted:
                ledger.append(sid, [step.command], WriteRequest("cli"))
        return sid
    finally:
        engine.dispose()


def _new_database(backend: str, databases: Databases, tmp_path: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'restored' / 'lanterloo.db'}"
    return databases.empty_postgres()


def test_a_backup_restores_into_a_new_database_and_later_checkpoints_read_as_newer(
        backend, database_url, databases, signing, tmp_path, capsys):
    folder = tmp_path / "backups"
    folder.mkdir()
    (tmp_path / "restored").mkdir()
    assert main(["demo", "--database-url", database_url]) == 0
    _play(database_url, 1)
    assert main(["checkpoint", "--database-url", database_url]) == 0
    time.sleep(1.1)  # a backup's time is to the second
    capsys.readouterr()
    assert main(["backup", str(folder), "--database-url", database_url]) == 0
    said = capsys.readouterr().out
    first = Path(said.split("backed up to ", 1)[1].split(" ", 1)[0])
    assert first.parent == folder and NAME.match(first.name), said
    assert "the env file and the checkpoint key" in said
    assert first.stat().st_mode & 0o777 == 0o600

    time.sleep(1.1)
    later = _play(database_url, 2)  # recorded after the backup: not in it
    assert main(["club", "create", "Later Loo", "--database-url", database_url]) == 0
    assert main(["checkpoint", "--database-url", database_url]) == 0
    assert main(["backup", str(folder), "--database-url", database_url]) == 0
    assert main(["backup", str(folder), "--database-url", database_url]) == 0
    backups = sorted(folder.iterdir())
    assert len(backups) == 3 and first in backups  # never overwritten, even in one second

    target = _new_database(backend, databases, tmp_path)
    capsys.readouterr()
    assert main(["restore", str(first), "--to", target]) == 0
    assert "lanterloo verify --all" in capsys.readouterr().out
    # a second restore over it is refused, in one line
    assert main(["restore", str(first), "--to", target]) == 2
    assert capsys.readouterr().err.count("\n") == 1

    assert main(["verify", "--all", "--database-url", target, "--checkpoint", str(signing),
                 "--restored-from", str(first)]) == 0
    out = capsys.readouterr().out
    assert "is newer than this backup" in out and NEWER_THAN_BACKUP in out
    assert later in out
    assert "entries were removed" not in out and "rewritten" not in out

    # without saying which backup it is, the same copy reads as entries removed (exit 1)
    assert main(["verify", "--all", "--database-url", target, "--checkpoint",
                 str(signing)]) == 1
    assert "entries were removed" in capsys.readouterr().out

    # a checkpoint signed before the backup for what the copy lacks is still tampering
    signer = Signer.from_text((tmp_path / "etc" / "checkpoint.key").read_text())
    forged = tmp_path / "before.jsonl"
    keep([signer.sign(later, 1, "ab" * 32, at=taken_at(first) - timedelta(minutes=5))], forged)
    assert main(["verify", "--database-url", target, "--checkpoint", str(forged),
                 "--restored-from", str(first)]) == 1
    out = capsys.readouterr().out
    assert "entries were removed" in out and "newer than this backup" not in out
    assert len(read_log(signing)) > 0

    # the newest two kept: the first backup goes
    assert [p.name for p in prune(folder, 2)] == [first.name]


def test_backup_and_restore_say_in_one_line_what_is_missing(backend, database_url, tmp_path,
                                                            capsys):
    assert main(["backup", str(tmp_path / "nowhere"), "--database-url", database_url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the backup folder") and err.count("\n") == 1
    assert main(["restore", str(tmp_path / "lanterloo-x-20261129T010203Z.dump"),
                 "--to", database_url]) == 2
    assert "there is no backup file" in capsys.readouterr().err
    wrong = tmp_path / "lanterloo-x-20261129T010203Z.db"
    wrong.write_bytes(b"")
    if backend == "postgresql":
        assert main(["restore", str(wrong), "--to", database_url]) == 2
        assert "a .dump restores into PostgreSQL" in capsys.readouterr().err


def test_a_backup_is_named_by_its_time_in_utc():
    at = taken_at(Path("lanterloo-lanterloo-20261129T031700Z-2.dump"))
    assert at == datetime(2026, 11, 29, 3, 17, tzinfo=UTC)
