"""deploy/README.md and what ships beside it agree: every file of deploy/ is named in it,
every `lanterloo` command its steps give is one the command line takes, each setting of its
env file is one the code reads, and the certificate it makes is the one the install test
makes (tests/support/nginx.py)."""

from __future__ import annotations

import inspect
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from api.cli.main import build_parser
from tests.support import nginx

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "deploy" / "README.md").read_text()
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()


def _shell_lines(text: str) -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
    lines = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #", 1)[0].strip()
            if line:
                lines.append(line)
    return lines


def _lanterloo_commands(text: str) -> list[list[str]]:
    commands = []
    for line in _shell_lines(text):
        words = shlex.split(re.sub(r"<[^<>]+>", "PLACEHOLDER", line))
        for i, word in enumerate(words):
            if word.endswith("bin/lanterloo") or (word == "lanterloo" and (
                    i == 0 or words[i - 1].endswith("lanterloo-env"))):
                commands.append(words[i + 1:])
                break
    return commands


def test_every_file_of_deploy_is_named_in_its_readme():
    for path in sorted((ROOT / "deploy").iterdir()):
        if path.name != "README.md":
            assert f"deploy/{path.name}" in README, path.name


@pytest.mark.parametrize("text", [README, OPERATIONS], ids=["deploy/README.md",
                                                            "docs/operations.md"])
def test_every_lanterloo_command_of_the_steps_is_one_the_command_line_takes(text):
    commands = _lanterloo_commands(text)
    assert len(commands) >= 4
    parser = build_parser()
    for words in commands:
        if words == ["--version"]:
            continue
        parser.parse_args(words)  # exits (and fails the test) on an unknown command


def test_each_setting_of_the_env_file_is_read_by_the_code():
    block = README.split("/etc/lanterloo/env <<'EOF'\n", 1)[1].split("\nEOF", 1)[0]
    code = "".join(p.read_text() for p in [*ROOT.glob("api/*.py"), *ROOT.glob("ledger/**/*.py"),
                                           ROOT / "deploy" / "gunicorn.conf.py"])
    for line in block.splitlines():
        key = line.split("=", 1)[0]
        assert re.fullmatch(r"LOO_[A-Z_]+", key), line
        base = key.removesuffix("_FILE")
        assert f'"{key}"' in code or f'"{base}"' in code, key


def test_the_readmes_certificate_is_the_one_the_install_test_makes():
    (line,) = [line for line in _shell_lines(README) if "openssl req" in line]
    documented = [w for w in shlex.split(line) if w.startswith("-")]
    made = re.findall(r'"(-[a-z0-9]+)"', inspect.getsource(nginx.self_signed))
    assert documented == made
    assert "rsa:2048" in line and "825" in line
    for step in ("sudo rm -f /etc/nginx/sites-enabled/default",
                 "sudo install -d -m 700 -o lanterloo -g lanterloo /etc/lanterloo",
                 "sudo -u postgres createuser --pwprompt lanterloo"):
        assert step in README, step


@pytest.mark.parametrize("path", ["deploy/README.md", "docs/operations.md", "README.md"])
def test_every_shell_block_of_the_docs_is_valid_shell(path, tmp_path):
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / path).read_text(), re.DOTALL)
    assert blocks
    for n, block in enumerate(blocks):
        script = tmp_path / f"block-{n}.sh"
        script.write_text(re.sub(r"<[^<>\n]+>", "PLACEHOLDER", block))  # <old token id>
        checked = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert checked.returncode == 0, f"{path}, block {n + 1}: {checked.stderr}\n{block}"


def test_the_shipped_scripts_are_valid_shell_and_executable():
    script = ROOT / "deploy" / "lanterloo-env"
    assert script.stat().st_mode & 0o111
    assert subprocess.run(["sh", "-n", str(script)]).returncode == 0
