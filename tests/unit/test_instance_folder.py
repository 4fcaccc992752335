"""The instance folder (ledger/store/db.py) is one absolute place whatever the current
directory: the SQLite default, the checkpoint key and the checkpoint log live there."""

from __future__ import annotations

from pathlib import Path

from ledger.audit.checkpoint_log import log_path
from ledger.audit.checkpoints import instance_key_path
from ledger.store.db import default_url, instance_folder

CHECKOUT = Path(__file__).resolve().parents[2]


def test_the_checkpoint_log_and_key_are_in_the_checkouts_instance_folder_from_anywhere(
        tmp_path, monkeypatch):
    monkeypatch.delenv("LOO_INSTANCE_DIR", raising=False)
    monkeypatch.delenv("LOO_CHECKPOINT_LOG", raising=False)
    monkeypatch.delenv("LOO_DATABASE_URL", raising=False)
    monkeypatch.delenv("LOO_DATABASE_URL_FILE", raising=False)
    monkeypatch.chdir(tmp_path)
    assert instance_folder() == CHECKOUT / "instance"
    assert log_path() == CHECKOUT / "instance" / "checkpoints.jsonl"
    assert instance_key_path() == CHECKOUT / "instance" / "checkpoint.key"
    assert default_url() == f"sqlite:///{CHECKOUT / 'instance' / 'lanterloo.db'}"
    assert not (tmp_path / "instance").exists()


def test_loo_instance_dir_and_a_relative_log_are_made_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LOO_INSTANCE_DIR", "here")
    monkeypatch.setenv("LOO_CHECKPOINT_LOG", "kept/heads.jsonl")
    assert instance_folder() == tmp_path / "here"
    assert log_path() == tmp_path / "kept" / "heads.jsonl"
    assert log_path().is_absolute()
