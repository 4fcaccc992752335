"""The command line where a host is not as it should be: a wrong database URL, an unreadable
key, a missing folder are one line naming the problem and exit status 2, never a traceback;
`keygen` makes the key's folder (mode 700) and the key (600); `--version` is the release of
CHANGELOG.md."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli.main import main
from ledger.__version__ import __version__

LANTERLOO = str(Path(sys.executable).parent / "lanterloo")
ROOT = Path(__file__).resolve().parents[2]


def lanterloo(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([LANTERLOO, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LOO_DATABASE_URL": "", **env})


def one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("error: ")
    for word in words:
        assert word in done.stderr, done.stderr


def test_the_version_is_the_changelogs_top_release_and_the_installed_ones():
    # the top release: changes not yet released are listed above it, under "Unreleased"
    top = re.search(r"^## (?!Unreleased)(\S+)", (ROOT / "CHANGELOG.md").read_text(),
                    re.MULTILINE)
    assert top and top.group(1) == __version__
    assert importlib.metadata.version("lanterloo") == __version__
    done = lanterloo("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"lanterloo {__version__}"


@pytest.mark.parametrize(("url", "words"), [
    ("postgresql+psycopg://lanterloo:hunter2@127.0.0.1:1/lanterloo",
     ["cannot use the database", "127.0.0.1:1", "Connection refused"]),
    ("postgres-ish://what", ["is not one"]),
    ("not a url at all", ["is not one"]),
    ("sqlite:////nonexistent/folder/lanterloo.db",
     ["cannot use the database", "does its folder exist"]),
])
def test_a_wrong_database_url_is_one_line_and_exit_2(url, words, capsys, monkeypatch):
    monkeypatch.delenv("LOO_DATABASE_URL", raising=False)
    for command in (["migrate"], ["verify", "--all"], ["token", "list", "--club", "x"],
                    ["backup", "/tmp"]):
        assert main([*command, "--database-url", url]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1, err
        if command[0] != "backup":  # (backup says it its own way, in one line too)
            for word in words:
                assert word in err, err
        assert "hunter2" not in err


def test_the_command_itself_prints_no_traceback():
    one_line(lanterloo("migrate", "--database-url", "sqlite:////nonexistent/x/l.db"),
             "cannot use the database")


def test_an_unreadable_or_broken_key_is_one_line_and_exit_2(tmp_path):
    url = f"sqlite:///{tmp_path / 'l.db'}"
    one_line(lanterloo("checkpoint", "--database-url", url,
                       LOO_CHECKPOINT_KEY_FILE=str(tmp_path / "missing.key")),
             "missing.key", "No such file")
    (tmp_path / "bad.key").write_text("not a key\n")
    one_line(lanterloo("checkpoint", "--database-url", url,
                       LOO_CHECKPOINT_KEY_FILE=str(tmp_path / "bad.key")),
             "the checkpoint key cannot be used")


def test_keygen_makes_its_folder_private_or_says_what_is_missing(tmp_path):
    done = lanterloo("keygen", str(tmp_path / "etc" / "lanterloo" / "checkpoint.key"))
    one_line(done, str(tmp_path / "etc"), "does not exist")
    (tmp_path / "etc").mkdir()
    done = lanterloo("keygen", str(tmp_path / "etc" / "lanterloo" / "checkpoint.key"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "etc" / "lanterloo").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "etc" / "lanterloo" / "checkpoint.key").stat().st_mode & 0o777 == 0o600
    assert re.search(r"public key: [0-9a-f]{64}", done.stdout)
    one_line(lanterloo("keygen", str(tmp_path / "etc" / "lanterloo" / "checkpoint.key")),
             "exists")
