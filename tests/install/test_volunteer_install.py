"""The install of deploy/README.md as a club's volunteer meets it: the project copied as a
clone holds it, installed into a fresh venv (pip's own configuration and cache: no other
network), a database and a role of its own on the machine's PostgreSQL, the settings folder,
env file and key made as the steps say, two app instances started by the shipped
deploy/lanterloo-env, and Debian's nginx (started here, on free ports, with a folder of its
own: never the system's service) running the shipped site over TLS with a certificate made
by openssl as the README says. Then what a club does: /healthz, /readyz, /metrics (refused
through the proxy), /table, an append, a token revoked; the nightly commands; and no token
in any log of the app or the proxy.

The paths of the README (/opt/lanterloo, /etc/lanterloo, /var/lib/lanterloo,
/var/log/lanterloo, /var/backups/lanterloo) are folders of the same names under the test's
own folder; deploy/lanterloo-env is told so through its LOO_PREFIX, LOO_ENV_FILE,
LOO_DATA_DIR and LOO_LOG_DIR.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from ledger.__version__ import __version__
from tests.faults.harness import free_port, http
from tests.faults.table import FIRST_DEAL, OPEN, bearer
from tests.support.databases import admin_engine, postgres_server
from tests.support.nginx import Proxy, nginx_or_skip, self_signed

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "deploy" / "README.md").read_text()


@dataclass
class Host:
    """The machine as the README leaves it, under `root`."""

    root: Path
    env: dict[str, str]
    database: str
    instances: list[int] = field(default_factory=list)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    proxy: Proxy | None = None
    said: list[str] = field(default_factory=list)  # everything the commands printed

    @property
    def prefix(self) -> Path:
        return self.root / "opt" / "lanterloo"

    def run(self, *args: str, check: bool = True, timeout: float = 300
            ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout,
                              env=self.env, cwd=self.root)
        self.said.append(done.stdout + done.stderr)
        if check:
            assert done.returncode == 0, f"{args}: {done.stdout}{done.stderr}"
        return done

    def lanterloo(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """A command as the cron lines run it: through deploy/lanterloo-env."""
        return self.run(str(self.prefix / "src" / "deploy" / "lanterloo-env"), "lanterloo",
                        *args, check=check)

    def serve(self, port: int) -> None:
        out = open(self.root / f"instance-{port}.out", "wb")  # noqa: SIM115 (closed below)
        self.processes.append(subprocess.Popen(
            [str(self.prefix / "src" / "deploy" / "lanterloo-env"), "serve", str(port)],
            env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
        out.close()
        self.instances.append(port)

    def logs(self) -> str:
        """Every log the app instances and the proxy wrote."""
        texts = [p.read_text(errors="replace")
                 for p in sorted((self.root / "var" / "log" / "lanterloo").glob("*.log"))]
        texts += [p.read_text(errors="replace") for p in sorted(self.root.glob("instance-*"))]
        return "".join(texts) + (self.proxy.logs() if self.proxy else "")


def _copy_of_the_clone(target: Path) -> None:
    """What `git clone` of this tree holds: its tracked files (and new ones not ignored), as
    they are in the working tree."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _ready(port: int, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if http(port, "GET", "/healthz", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the instance on {port} did not answer")


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Host]:
    nginx_or_skip()
    server = postgres_server()
    try:
        admin = admin_engine(server)
        with admin.connect():
            pass
    except OperationalError as error:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI is set and PostgreSQL cannot be reached: {error}", pytrace=False)
        pytest.skip(f"PostgreSQL cannot be reached: {error}")
    root = tmp_path_factory.mktemp("host")
    name = f"lanterloo_install_{secrets.token_hex(4)}"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LOO_", "PROMETHEUS_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(LOO_ENV_FILE=str(root / "etc" / "lanterloo" / "env"),
               LOO_PREFIX=str(root / "opt" / "lanterloo"),
               LOO_DATA_DIR=str(root / "var" / "lib" / "lanterloo"),
               LOO_LOG_DIR=str(root / "var" / "log" / "lanterloo"),
               PATH=f"/usr/sbin:/usr/bin:/sbin:/bin:{os.environ.get('PATH', '')}")
    made = Host(root, env, name)
    try:
        yield made
    finally:
        if made.proxy:
            made.proxy.stop()
        for process in made.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in made.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'DROP ROLE IF EXISTS "{name}"'))
        admin.dispose()


def test_the_documented_install_serves_the_club_over_tls_behind_the_shipped_proxy(host):
    root, prefix = host.root, host.prefix
    server = postgres_server()

    # 1. the code: a clone, a venv, the package installed into it (a wheel pip builds)
    for folder in ("etc", "opt/lanterloo", "var/lib/lanterloo", "var/log/lanterloo",
                   "var/backups"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    _copy_of_the_clone(prefix / "src")
    started = time.monotonic()
    host.run(sys.executable, "-m", "venv", str(prefix / "venv"))
    host.run(str(prefix / "venv" / "bin" / "pip"), "install", "--quiet", str(prefix / "src"))
    install_s = time.monotonic() - started
    version = host.run(str(prefix / "venv" / "bin" / "lanterloo"), "--version").stdout
    assert version.strip() == f"lanterloo {__version__}"
    where = host.run(str(prefix / "venv" / "bin" / "python"), "-c",
                     "import api; print(api.__file__)").stdout
    assert where.startswith(str(prefix / "venv")), where  # installed, not the checkout

    # 2. the database: a role and a database of its own (`sudo -u postgres createuser ...`)
    password = secrets.token_hex(12)
    pg = ["-h", server.host or "127.0.0.1", "-p", str(server.port or 5432), "-U",
          server.username or "postgres"]
    host.run("psql", *pg, "-d", "postgres", "-qc",
             f"CREATE ROLE \"{host.database}\" LOGIN PASSWORD '{password}'")
    host.run("createdb", *pg, "--owner", host.database, host.database)

    # 3. the settings: the folder first (mode 700), the env file (600), the key (600)
    etc = root / "etc" / "lanterloo"
    host.run("install", "-d", "-m", "700", str(etc))
    # the README's env file, with this database and these folders
    env_file = README.split("/etc/lanterloo/env <<'EOF'\n", 1)[1].split("EOF\n", 1)[0]
    for old, new in (("lanterloo:SECRET@127.0.0.1:5432/lanterloo",
                      f"{host.database}:{password}@{server.host or '127.0.0.1'}:"
                      f"{server.port or 5432}/{host.database}"),
                     ("/etc/lanterloo/", f"{etc}/"),
                     ("/var/lib/lanterloo/", f"{root / 'var/lib/lanterloo'}/"),
                     ("LOO_WORKERS=3", "LOO_WORKERS=2")):
        assert old in env_file, old
        env_file = env_file.replace(old, new)
    env_file += f"LOO_METRICS_DIR={root / 'run'}\n"
    subprocess.run(["install", "-m", "600", "/dev/stdin", str(etc / "env")], input=env_file,
                   text=True, check=True)
    keygen = host.lanterloo("keygen", str(etc / "checkpoint.key"))
    assert "public key:" in keygen.stdout
    assert (etc.stat().st_mode & 0o777, (etc / "env").stat().st_mode & 0o777,
            (etc / "checkpoint.key").stat().st_mode & 0o777) == (0o700, 0o600, 0o600)
    host.lanterloo("migrate")
    created = host.lanterloo("club", "create", "Thursday Loo", "--admin", "Mrs Bell").stdout
    admin_token = re.search(r"^\s+(loo_\S+)$", created, re.MULTILINE).group(1)
    desk = host.lanterloo("token", "create", "--club", "Thursday Loo", "--member", "Mrs Bell",
                          "--role", "treasurer", "--label", "desk").stdout
    desk_id, desk_token = (re.search(r"^token (\S+):", desk, re.MULTILINE).group(1),
                           re.search(r"^\s+(loo_\S+)$", desk, re.MULTILINE).group(1))

    # 4. two instances, then the proxy over TLS with a self-signed certificate
    for port in (free_port(), free_port()):
        host.serve(port)
    for port in host.instances:
        _ready(port)
    proxy = Proxy(root / "nginx", https=free_port(), http=free_port(),
                  tls=self_signed(root / "nginx-tls"))
    (root / "nginx").mkdir()
    host.proxy = proxy.start(host.instances, lambda: http(
        proxy.https, "GET", "/healthz", timeout=2, tls=proxy.context)[0] == 200)

    def through(method: str, path: str, body=None, **headers: str):
        return http(proxy.https, method, path, body, headers=headers, tls=proxy.context)

    # 5. what the club does
    assert through("GET", "/healthz")[0] == 200
    status, _, ready = through("GET", "/readyz")
    assert status == 200, ready
    status, headers, problem = through("GET", "/metrics")
    assert status == 404 and headers["content-type"] == "application/problem+json"
    for port in host.instances:  # each instance's own, on its own port, from this machine
        status, _, page = http(port, "GET", "/metrics")
        assert status == 200 and b"lanterloo_requests_total" in page
    status, headers, page = through("GET", "/table")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert http(proxy.http, "GET", "/table")[0] == 301
    status, _, opened = through("POST", "/sessions", OPEN, **bearer(desk_token))
    assert status == 201, opened
    sid = opened["session_id"]
    status, _, appended = through("POST", f"/sessions/{sid}/events", FIRST_DEAL,
                                  **bearer(desk_token), **{"If-Match": f'"{opened["version"]}"'})
    assert status == 201, appended
    for _ in range(4):  # both instances see it
        assert through("GET", f"/sessions/{sid}", **bearer(desk_token))[0] == 200
    host.lanterloo("token", "revoke", desk_id)
    for _ in range(4):  # refused at once by every instance
        status, _, problem = through("GET", f"/sessions/{sid}", **bearer(desk_token))
        assert status == 401, problem

    # 6. the nightly lines (deploy/lanterloo.cron): sign the heads, then back up
    host.lanterloo("checkpoint")
    assert (root / "var/lib/lanterloo/checkpoints.jsonl").stat().st_size > 0
    backups = root / "var" / "backups" / "lanterloo"
    host.run("install", "-d", "-m", "700", str(backups))
    host.lanterloo("backup", str(backups), "--keep", "14")
    assert len(list(backups.glob(f"lanterloo-{host.database}-*.dump"))) == 1

    # 7. the instances' logs are JSON lines, gunicorn's own and the app's in the error log;
    # no token, nor its secret, in any log of the app or the proxy
    for path in sorted((root / "var/log/lanterloo").glob("*.log")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        loggers = {line.get("logger") for line in lines}
        expected = {"gunicorn.access"} if path.name.startswith("access-") else \
            {"gunicorn.error", "lanterloo.request"}
        assert expected <= loggers, (path.name, loggers)
    logs = host.logs()
    assert len(list((root / "var/log/lanterloo").glob("access-*.log"))) == 2
    assert f'"uri":"/sessions/{sid}"' in logs  # the proxy logged the requests
    for token in (admin_token, desk_token):
        # the secret is all after the token's id: it may hold "_" itself (token_urlsafe)
        for piece in (token, token.split("_", 2)[2]):
            assert piece not in logs
    assert password not in logs and "Bearer" not in logs
    print(f"installed into a fresh venv in {install_s:.0f} s")
