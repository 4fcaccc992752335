"""The shipped proxy as Debian runs it, in a folder of a test's own.

Debian's own /etc/nginx/nginx.conf with deploy/nginx.conf as its one enabled site, started
with `nginx -p FOLDER` (never the system service): only the addresses, the certificate's and
the logs' folders, the pid file and the temporary folders are changed, so a directive that
Debian's nginx refuses in a site file fails here as it would on a club's machine.
"""

from __future__ import annotations

import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NGINX = os.environ.get("LOO_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
DEBIAN_MAIN = Path("/etc/nginx/nginx.conf")
SITE = ROOT / "deploy" / "nginx.conf"


def nginx_or_skip() -> None:
    """Skip (fail under CI=true) where Debian's nginx is not installed (`make proxy`)."""
    if Path(NGINX).exists() and DEBIAN_MAIN.exists():
        return
    reason = "Debian's nginx is not installed (make proxy installs it)"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI is set and {reason}", pytrace=False)
    pytest.skip(reason)


def self_signed(folder: Path, name: str = "loo.local") -> Path:
    """A self-signed certificate for `name` and 127.0.0.1, made with openssl as
    deploy/README.md says; the folder holding fullchain.pem and privkey.pem."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825",
                    "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name},IP:127.0.0.1",
                    "-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem")],
                   check=True, capture_output=True, timeout=60)
    return folder


def client_context(tls: Path) -> ssl.SSLContext:
    """A client that trusts the self-signed certificate only (and checks it)."""
    return ssl.create_default_context(cafile=str(tls / "fullchain.pem"))


def site_for(folder: Path, *, https: int, http: int, apps: Sequence[int], tls: Path) -> str:
    """deploy/nginx.conf with the test's ports, app instances, certificate and log folder."""
    site = SITE.read_text()
    shipped = re.findall(r"^    server 127\.0\.0\.1:\d+ max_fails=0;\n", site, re.MULTILINE)
    assert shipped, "no app instance in the upstream"
    site = site.replace("".join(shipped), "".join(
        f"    server 127.0.0.1:{port} max_fails=0;\n" for port in apps))
    for old, new in (("listen 80 default_server;", f"listen 127.0.0.1:{http} default_server;"),
                     ("listen 443 ssl default_server;",
                      f"listen 127.0.0.1:{https} ssl default_server;"),
                     ("/etc/nginx/lanterloo-tls/", f"{tls}/"),
                     ("/var/log/nginx/", f"{folder}/log/")):
        assert old in site, old
        site = site.replace(old, new)
    return site


def debian_main(folder: Path) -> Path:
    """Debian's main file with this folder's pid, logs, sites and temporary folders."""
    main = DEBIAN_MAIN.read_text()
    user = "user root root;" if os.geteuid() == 0 else ""
    temp = "".join(f"\n    {kind}_temp_path {folder}/{kind};"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    for old, new in (("user www-data;", user), ("pid /run/nginx.pid;", f"pid {folder}/nginx.pid;"),
                     ("/var/log/nginx/", f"{folder}/log/"),
                     ("include /etc/nginx/conf.d/*.conf;", f"include {folder}/conf.d/*.conf;"),
                     ("include /etc/nginx/sites-enabled/*;",
                      f"include {folder}/sites-enabled/*;"),
                     ("http {", "http {" + temp)):
        assert old in main, old
        main = main.replace(old, new, 1)
    (folder / "conf.d").mkdir(exist_ok=True)
    (folder / "sites-enabled").mkdir(exist_ok=True)
    (folder / "log").mkdir(exist_ok=True)
    (folder / "nginx.conf").write_text(main)
    return folder / "nginx.conf"


@dataclass
class Proxy:
    """nginx running the shipped site in `folder`."""

    folder: Path
    https: int
    http: int
    tls: Path
    process: subprocess.Popen[bytes] | None = None
    context: ssl.SSLContext = field(init=False)

    def __post_init__(self) -> None:
        self.context = client_context(self.tls)

    def start(self, apps: Sequence[int], ready: Callable[[], bool]) -> Proxy:
        main = debian_main(self.folder)
        (self.folder / "sites-enabled" / "lanterloo").write_text(
            site_for(self.folder, https=self.https, http=self.http, apps=apps, tls=self.tls))
        test = subprocess.run([NGINX, "-t", "-p", str(self.folder), "-c", str(main),
                               "-e", str(self.folder / "log" / "startup.log")],
                              capture_output=True, text=True, timeout=30)
        assert test.returncode == 0, test.stderr
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(main), "-e",
             str(self.folder / "log" / "startup.log"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            try:
                if ready():
                    return self
            except OSError:
                pass
            assert self.process.poll() is None, self.logs()
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.05)

    def logs(self) -> str:
        """Every log file nginx wrote, one after the other."""
        return "".join(path.read_text(errors="replace")
                       for path in sorted((self.folder / "log").glob("*.log")))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
