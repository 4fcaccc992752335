"""What the fault tests drive: a private PostgreSQL cluster, gunicorn servers, plain HTTP.

- `PrivateCluster`: a PostgreSQL 15 cluster of its own (initdb in a temporary directory, run
  as the `postgres` user, on a free loopback port), so that the tests may stop, freeze
  (SIGSTOP) and restart it without touching the machine's shared server. It needs root (to
  run initdb as `postgres`) and PostgreSQL's binaries; without them the tests skip.
- `StandbyCluster`: a hot standby of a private cluster (pg_basebackup -R: it streams the
  primary's WAL and answers reads), on a port of its own.
- `Server`: `gunicorn -c deploy/gunicorn.conf.py 'api:create_app()'` as production runs it,
  on a free loopback port, with the environment given; its output goes to a file the tests
  read (the JSON access and request logs).
- `http(...)`: one request with http.client, answering (status, headers, parsed body).
"""

from __future__ import annotations

import http.client as httpclient
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")
# What the long runs went through, one line each; printed at the end of the run.
EXERCISED: list[str] = []


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def why_no_cluster() -> str | None:
    if not (PG_BIN / "initdb").exists():
        return f"no PostgreSQL binaries in {PG_BIN}"
    if os.geteuid() != 0:
        return "a private PostgreSQL cluster needs root (initdb runs as the postgres user)"
    if shutil.which("runuser") is None:
        return "no runuser"
    return None


class PrivateCluster:
    """A throwaway PostgreSQL cluster the tests may stop, freeze and restart."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="lanterloo-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.log = self.dir / "server.log"
        shutil.chown(self.dir, "postgres", "postgres")
        self._pg("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                 "--no-sync", "-E", "UTF8")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                       f"unix_socket_directories = '{self.dir}'\nmax_connections = 200\n"
                       "fsync = off\nfull_page_writes = off\n")
        self.start()

    def _pg(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["runuser", "-u", "postgres", "--", str(PG_BIN / tool), *args],
                              check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> None:
        self._pg("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                 "start")

    def stop(self, mode: str = "fast") -> None:
        self._pg("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self, mode: str = "immediate") -> None:
        """`immediate`: the server dies without a checkpoint, as in a crash, and replays its
        WAL when it starts again."""
        self._pg("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "restart",
                 "-l", str(self.log))

    def pids(self) -> list[int]:
        """The postmaster and every process it started."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True,
                                  text=True).stdout.split()
        return [postmaster, *(int(p) for p in children)]

    def freeze(self) -> list[int]:
        pids = self.pids()
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        return pids

    @staticmethod
    def thaw(pids: list[int]) -> None:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        self._pg("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-q",
                 "-c", f'CREATE DATABASE "{name}"')
        return self.url(name)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class StandbyCluster(PrivateCluster):
    """A hot standby of `primary`: its base backup with the settings to stream from it
    (pg_basebackup -R; initdb's trust lines allow replication from loopback)."""

    def __init__(self, primary: PrivateCluster) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="lanterloo-pg-standby-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.log = self.dir / "server.log"
        shutil.chown(self.dir, "postgres", "postgres")
        self._pg("pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U",
                 "postgres", "-D", str(self.data), "-R", "-X", "stream", "-c", "fast",
                 "--no-sync")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nport = {self.port}\nunix_socket_directories = '{self.dir}'\n"
                       "hot_standby = on\n")
        self.start()


@dataclass
class Server:
    """gunicorn with deploy/gunicorn.conf.py, as production runs it."""

    database_url: str
    env: dict[str, str] = field(default_factory=dict)
    workers: int = 2
    threads: int = 8
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    def start(self) -> Server:
        self.log_path = Path(tempfile.mkstemp(prefix="lanterloo-gunicorn-", suffix=".log")[1])
        env = {**os.environ, "LOO_DATABASE_URL": self.database_url,
               "LOO_BIND": f"127.0.0.1:{self.port}", "LOO_WORKERS": str(self.workers),
               "LOO_THREADS": str(self.threads), "LOO_LOG_LEVEL": "info",
               "LOO_MAX_REQUESTS": "0", **self.env}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None) if "PROMETHEUS_MULTIPROC_DIR" not in \
            self.env else None
        gunicorn = Path(sys.executable).parent / "gunicorn"
        with open(self.log_path, "wb") as out:
            self.process = subprocess.Popen(
                [str(gunicorn), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
                 "api:create_app()"], cwd=ROOT, env=env, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.output()[-3000:]}")
            try:
                if http(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer: {self.output()[-3000:]}")

    def worker_pids(self) -> list[int]:
        assert self.process is not None
        out = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True,
                             text=True).stdout.split()
        return [int(p) for p in out]

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log_path is not None:
            self.log_path.unlink(missing_ok=True)


def http(port: int, method: str, path: str, body: Any = None, *,
         headers: dict[str, str] | None = None, timeout: float = 30,
         tls: ssl.SSLContext | None = None) -> tuple[int, dict[str, str], Any]:
    """One request (over TLS with `tls`); the body is sent as JSON (bytes as they are); JSON
    answers are parsed."""
    conn = (httpclient.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=tls)
            if tls is not None else httpclient.HTTPConnection("127.0.0.1", port,
                                                               timeout=timeout))
    try:
        data = body if isinstance(body, bytes | None) else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers={**sent, **(headers or {})})
        response = conn.getresponse()
        raw = response.read()
        found = {k.lower(): v for k, v in response.getheaders()}
        kind = found.get("content-type", "")
        parsed: Any = json.loads(raw) if "json" in kind and raw else raw
        return response.status, found, parsed
    finally:
        conn.close()
