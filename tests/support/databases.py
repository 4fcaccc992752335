"""Fresh databases for the tests, made cheaply: the schema is migrated once per test process,
then copied for each test.

    databases = Databases(folder, server)     # one per pytest process (per xdist worker)
    url = databases.migrated("sqlite")        # a copy of a migrated template file
    url = databases.migrated("postgresql")    # CREATE DATABASE ... TEMPLATE a migrated one
    url = databases.blank("postgresql")       # an empty schema, for the migration tests
    databases.drop(url)                       # at the end of the test (or module)
    databases.close()                         # drops what is left, the templates last

Why copies: Alembic's upgrade to head costs about 75 ms on SQLite and 300 ms on PostgreSQL
(seven revisions, each its own DDL); copying the migrated SQLite file costs well under a
millisecond, and `CREATE DATABASE ... TEMPLATE` with its DROP about 150 ms on this machine's
PostgreSQL, against 340 ms for today's fresh schema migrated and dropped. TRUNCATE of every
table on a shared database would be cheaper still, but the events table refuses TRUNCATE and
DELETE (its append-only trigger, which the store tests prove): emptying it would mean
switching the trigger off, and then the tests would run against another schema than the
one production has.

A template database must have no other connection while it is copied: the template is
migrated through an engine disposed at once, and no test ever connects to it.

Commits without a flush to disk. A commit that waits for fsync costs 1-4 ms on this machine
(SQLite in WAL mode with synchronous=FULL, PostgreSQL with synchronous_commit=on) against
0.01-0.4 ms without, and the HTTP tests commit on every request (a club's four tokens are
seven commits). The tests' databases are therefore written with SQLite's synchronous=NORMAL
(`quick_commits`, on the engines the fixtures make) and PostgreSQL's synchronous_commit=off
(set on each database made here, so every connection to it has it, a CLI's or a server's
too). Both stay durable when a process dies; only a crash of the machine could lose the
last commits, which no test here survives or tests. The fault tests that restart PostgreSQL
as after a crash run on a cluster of their own (tests/faults/harness.py), untouched.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from api import create_app
from ledger.operations.bulk import migrate
from ledger.store.db import make_engine
from ledger.store.migrate import upgrade

POSTGRES_ENV = "LOO_TEST_POSTGRES_URL"
POSTGRES_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BACKENDS = ("sqlite", "postgresql")
# PostgreSQL with the big tables partitioned by club (`lanterloo migrate --partition-by-club
# N`): the store's own tests run on it too (tests/conftest.py, marker `partitioned`)
PARTITIONED = "postgresql-partitioned"
PARTITIONS = 4


def postgres_server() -> URL:
    """The PostgreSQL server the tests may create databases on (LOO_TEST_POSTGRES_URL)."""
    server = make_url(os.environ.get(POSTGRES_ENV, POSTGRES_DEFAULT))
    if server.drivername in ("postgresql", "postgres"):
        server = server.set(drivername="postgresql+psycopg")
    return server


def admin_engine(url: URL) -> Engine:
    """An engine for CREATE and DROP DATABASE: autocommit, no pool, a short connect timeout."""
    return create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool,
                         connect_args={"connect_timeout": 5})


def render(url: URL) -> str:
    return url.render_as_string(hide_password=False)


def worker_tag() -> str:
    """`gw0`, `gw1`... under pytest-xdist, `main` otherwise: in every database's name, so a
    stray one says which run left it."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def quick_commits(engine: Engine) -> Engine:
    """On SQLite, commit without waiting for the disk (synchronous=NORMAL; see above)."""
    if engine.url.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_normal_sync)
    return engine


def _sqlite_normal_sync(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


class PostgresUnreachable(Exception):
    """The server named by LOO_TEST_POSTGRES_URL cannot be reached."""


class Databases:
    """The databases of one test process; `close()` drops every one it made."""

    def __init__(self, folder: Path, server: URL | None = None) -> None:
        self.folder = folder
        self.server = server or postgres_server()
        self._sqlite_template: Path | None = None
        self._maintenance: Engine | None = None
        self._unreachable: str | None = None
        self._prefix = f"lanterloo_test_{worker_tag()}_{secrets.token_hex(4)}"
        self._template: str | None = None  # the migrated PostgreSQL database, copied per test
        self._partitioned: str | None = None  # ... and one partitioned by club
        self._schemas_host: str | None = None  # the database the blank schemas live in
        self._made: list[str] = []  # PostgreSQL databases made from the template, not dropped
        self._count = 0

    # -- SQLite ---------------------------------------------------------------------------

    def _new_sqlite_path(self, stem: str) -> Path:
        self._count += 1
        return self.folder / f"{stem}-{self._count}.db"

    def sqlite_template(self) -> Path:
        """The migrated SQLite file, made on first use."""
        if self._sqlite_template is None:
            path = self.folder / "template.db"
            upgrade(f"sqlite:///{path}")
            # Fold the write-ahead log into the file, so that the file alone is the database.
            with sqlite3.connect(path) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.close()
            for leftover in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
            self._sqlite_template = path
        return self._sqlite_template

    # -- PostgreSQL -----------------------------------------------------------------------

    def maintenance(self) -> Engine:
        """The server's `postgres` database, for CREATE and DROP DATABASE; raises
        PostgresUnreachable (with the reason) when the server cannot be reached."""
        if self._unreachable is not None:
            raise PostgresUnreachable(self._unreachable)
        if self._maintenance is None:
            engine = admin_engine(self.server.set(database="postgres"))
            try:
                with engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
            except OperationalError as error:
                engine.dispose()
                self._unreachable = (
                    f"PostgreSQL at {self.server.render_as_string()} is unreachable "
                    f"({type(error.orig).__name__}); set {POSTGRES_ENV}")
                raise PostgresUnreachable(self._unreachable) from error
            self._maintenance = engine
        return self._maintenance

    def _execute(self, statement: str) -> None:
        with self.maintenance().connect() as conn:
            conn.execute(text(statement))

    def _postgres_url(self, name: str) -> URL:
        return self.server.set(database=name)

    def _create_database(self, name: str, template: str | None = None) -> None:
        self._execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template
                                                     else ""))
        # not copied with a template: set on each database (see above)
        self._execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')

    def postgres_template(self) -> str:
        """The name of the migrated PostgreSQL database, made on first use."""
        if self._template is None:
            name = f"{self._prefix}_template"
            self._create_database(name)
            self._template = name
            upgrade(render(self._postgres_url(name)))  # its engine is disposed after
        return self._template

    def partitioned_template(self) -> str:
        """The name of a PostgreSQL database installed partitioned by club, as `lanterloo
        migrate --partition-by-club 4` makes it, made on first use."""
        if self._partitioned is None:
            name = f"{self._prefix}_partitioned"
            self._create_database(name)
            self._partitioned = name
            engine = make_engine(render(self._postgres_url(name)), operator=True)
            try:
                migrate(engine, partition_by_club=PARTITIONS)
            finally:
                engine.dispose()
        return self._partitioned

    def _schemas_database(self) -> URL:
        if self._schemas_host is None:
            name = f"{self._prefix}_blank"
            self._create_database(name)
            self._schemas_host = name
        return self._postgres_url(self._schemas_host)

    # -- what the fixtures ask for --------------------------------------------------------

    def migrated(self, backend: str) -> str:
        """A new database of `backend`, migrated to head (a copy of the template)."""
        if backend == "sqlite":
            path = self._new_sqlite_path("migrated")
            shutil.copyfile(self.sqlite_template(), path)
            return f"sqlite:///{path}"
        template = self.partitioned_template() if backend == PARTITIONED \
            else self.postgres_template()
        self._count += 1
        name = f"{self._prefix}_{self._count}"
        self._made.append(name)
        self._create_database(name, template)
        return render(self._postgres_url(name))

    def empty_postgres(self) -> str:
        """A new PostgreSQL database with nothing in it, not even a schema of ours: for a
        restored dump (a release's database in tests/upgrades)."""
        self._count += 1
        name = f"{self._prefix}_{self._count}"
        self._made.append(name)
        self._create_database(name)
        return render(self._postgres_url(name))

    def blank(self, backend: str) -> str:
        """A new, empty database of `backend`: nothing migrated. On PostgreSQL a schema of
        its own, reached through search_path, in a database kept for the run."""
        if backend == "sqlite":
            return f"sqlite:///{self._new_sqlite_path('blank')}"
        host = self._schemas_database()
        schema = f"blank_{secrets.token_hex(6)}"
        engine = admin_engine(host)
        try:
            with engine.connect() as conn:
                conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        finally:
            engine.dispose()
        return render(host.update_query_dict({"options": f"-csearch_path={schema}"}))

    def drop(self, url: str) -> None:
        """Drop a database `migrated` or `blank` made (a SQLite file is left to the
        temporary folder, which pytest cleans)."""
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            return
        if parsed.database == self._schemas_host:
            schema = str(parsed.query["options"]).removeprefix("-csearch_path=")
            engine = admin_engine(parsed.set(query={}))
            try:
                with engine.connect() as conn:
                    conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            finally:
                engine.dispose()
            return
        if parsed.database in self._made:
            self._made.remove(parsed.database)
            # FORCE: a test that left a connection open (an engine not disposed) must not
            # keep its database alive.
            self._execute(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)')

    def close(self) -> None:
        """Drop every PostgreSQL database this process made, the templates last."""
        if self._maintenance is None:
            return
        for name in [*self._made, self._schemas_host, self._template, self._partitioned]:
            if name is not None:
                self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._made.clear()
        self._maintenance.dispose()
        self._maintenance = None


class SharedDatabases:
    """A module's shared databases: one per backend, each with one engine, and the apps built
    on them (one per configuration), made on first use and dropped by `close()`."""

    def __init__(self, databases: Databases) -> None:
        self.databases = databases
        self._urls: dict[str, str] = {}
        self._engines: dict[str, Engine] = {}
        self._apps: dict[tuple[str, tuple[tuple[str, Any], ...]], Flask] = {}

    def engine(self, backend: str) -> Engine:
        if backend not in self._engines:
            url = self.databases.migrated(backend)
            self._urls[backend] = url
            self._engines[backend] = quick_commits(make_engine(url))
        return self._engines[backend]

    def app(self, backend: str, **config: Any) -> Flask:
        """create_app on the backend's shared engine, TESTING and `config` set."""
        key = (backend, tuple(sorted(config.items())))
        if key not in self._apps:
            self._apps[key] = create_app({"ENGINE": self.engine(backend), "TESTING": True,
                                          **config})
        return self._apps[key]

    def close(self) -> None:
        self._apps.clear()
        for backend, engine in self._engines.items():
            engine.dispose()
            self.databases.drop(self._urls[backend])
        self._engines.clear()
        self._urls.clear()
