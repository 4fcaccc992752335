"""The contract as its users meet it: a typed client generated from the live /openapi.json
with openapi-python-client (pinned in pyproject.toml's test extra), a program written against
it (tests/support/client_usage.py) type-checked with mypy --strict, then run against the app
over the client's own HTTP stack (httpx, through its WSGI transport).

The client is generated and the program checked once per document: both are kept in the
temporary directory under the document's hash (and the program's), so a second run, or a
second worker, reuses them. Generation needs no network: the generator is installed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from flask import Flask

from tests.clubs import make_club

pytestmark = pytest.mark.backends("sqlite")  # the document and the client: no database's

USAGE = Path(__file__).parents[1] / "support" / "client_usage.py"
BIN = Path(sys.executable).parent
PACKAGE = "lanterloo_client"


def _digest(*parts: bytes) -> str:
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # the generator formats its output with ruff, found on PATH beside this Python
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def generated_client(document: dict[str, Any]) -> Path:
    """The directory holding the package generated from `document` (made once)."""
    text = json.dumps(document, sort_keys=True).encode()
    home = Path(tempfile.gettempdir()) / f"lanterloo-client-{_digest(text)}"
    if (home / PACKAGE / "__init__.py").exists():
        return home
    work = Path(tempfile.mkdtemp(prefix="lanterloo-client-"))
    (work / "openapi.json").write_bytes(text)
    made = _run([str(BIN / "openapi-python-client"), "generate", "--path", "openapi.json",
                 "--output-path", PACKAGE, "--meta", "none"], work)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Warning" not in made.stdout + made.stderr, made.stdout + made.stderr
    try:
        work.rename(home)
    except OSError:  # another worker made it first
        shutil.rmtree(work, ignore_errors=True)
    return home


def type_check(home: Path) -> str:
    """mypy --strict on the usage program against the generated package ("" when clean);
    a clean result is remembered beside the package."""
    program = USAGE.read_bytes()
    passed = home / f"mypy-ok-{_digest(program)}"
    if passed.exists():
        return ""
    config = home / "mypy.ini"
    config.write_text("[mypy]\npython_version = 3.11\nstrict = True\n"
                      "follow_imports = silent\n")
    checked = _run([sys.executable, "-m", "mypy", "--config-file", str(config),
                    "--cache-dir", str(home / ".mypy_cache"), str(USAGE)], home)
    if checked.returncode == 0:
        passed.touch()
        return ""
    return checked.stdout + checked.stderr


@pytest.fixture
def client_home(client) -> Iterator[Path]:
    home = generated_client(client.get("/openapi.json").get_json())
    sys.path.insert(0, str(home))
    try:
        yield home
    finally:
        sys.path.remove(str(home))


def test_every_operation_of_the_generated_client_has_a_readable_name(client_home):
    names = {path.stem for path in (client_home / PACKAGE / "api").glob("*/*.py")} - {
        "__init__"}
    assert {"open_session", "append_events", "correct_entries", "undo_last_entry",
            "get_statement_csv", "revoke_token", "who_am_i"} <= names
    # no name made up from the method and the path
    assert not [n for n in names if n.startswith(("get_", "post_", "delete_"))
                and ("_session_id" in n or "_token_id" in n or "_member_id" in n)]


def test_no_model_is_a_class_made_up_for_a_member(client_home):
    # a nullable reference, enum or map written as generators read it gives `Ref | None`;
    # written otherwise, classes such as SessionViewDealType1Type0
    models = sorted(path.stem for path in (client_home / PACKAGE / "models").glob("*.py"))
    assert [m for m in models if re.search(r"_type_\d", m)] == []
    assert {"recorded_deal_started", "deal_started_action", "declaration", "forced",
            "face_up", "problem"} <= set(models)


def test_the_usage_program_type_checks_against_the_generated_client(client_home):
    assert type_check(client_home) == ""


def test_the_usage_program_runs_an_evening_through_the_generated_client(
        client_home, app: Flask, engine):
    from lanterloo_client import AuthenticatedClient

    from tests.support.client_usage import evening

    club = make_club(engine, "generated client")
    with AuthenticatedClient(base_url="http://lanterloo.test", token=club.tokens["treasurer"],
                             httpx_args={"transport": httpx.WSGITransport(app=app)}) as api:
        seen = evening(api)

    assert seen.opened_version == 1
    # docs/rules.md §10.1, example 1: the turn-up single dealt by Ann, 7H turned up; Dan's
    # QH is the best trump face up, and he wins the single
    assert seen.single_trump == "7H"
    assert seen.single_types == ["DealStarted", "DealSettled"]
    assert seen.settled_outcome == "single-won"
    assert seen.replayed  # the same Idempotency-Key: the first answer again
    assert seen.batch_version == 4
    assert (seen.as_of_version, seen.as_of_deal) == (3, 1)  # as it stood after the single
    assert seen.declarer == "Cat"  # Ben deals the hand: the elder hand, Cat, declares first
    assert (seen.refusal_status, seen.refusal_rule) == (409, "one-declaration")
    assert seen.corrected_voids == [5]
    assert seen.undone_to_phase == "between-deals"
    assert seen.ended_status == "ended"
    assert seen.log_types == [
        "SessionOpened", "DealStarted", "DealSettled",  # the single
        "DealStarted", "DeclarationMade",  # the hand, dealt and declared
        "EntryCorrected", "DeclarationMade",  # the declaration corrected
        "EntryCorrected", "EntryCorrected",  # two undos
        "SessionEnded"]
    assert seen.zero_sum
    assert seen.nets == {"Ann": -4, "Ben": 0, "Cat": 0, "Dan": 5, "Eve": -1}
    assert seen.csv_header.startswith("player,paid:deal,")
