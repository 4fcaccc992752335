"""The database as the web and the command line ask for it: an engine, a setting read from the
environment (or the file a container's secret is in), the instance folder (the default SQLite
file, the checkpoint key and log), the schema's revision and the one this code ships. The
store's own modules stay behind it.

    engine = make_engine(url)                 # LOO_DATABASE_URL's database when url is None
    current(engine) == head_revision()        # the schema is at the latest revision
    read_replica(engine, read_url)            # LOO_READ_DATABASE_URL's standby, or None
"""

from __future__ import annotations

from sqlalchemy import Engine

from ledger.store.db import env_number, env_or_file, instance_folder, make_engine
from ledger.store.migrate import SessionsOutsideClubs, current, shipped_head
from ledger.store.partitions import PartitionRefused
from ledger.store.replica import UNREACHED, Choice, ReadReplica, format_lsn, parse_lsn

__all__ = ["UNREACHED", "Choice", "PartitionRefused", "ReadReplica", "SessionsOutsideClubs",
           "current",
           "env_number", "env_or_file", "format_lsn", "head_revision", "instance_folder",
           "make_engine", "parse_lsn", "read_replica"]


def head_revision() -> str | None:
    """The latest Alembic revision shipped with this code, read from the migrations' files
    without loading Alembic (ledger/store/migrate.py `shipped_head`)."""
    return shipped_head()


def read_replica(primary: Engine, read_url: str | None) -> ReadReplica | None:
    """The hot standby at `read_url` (LOO_READ_DATABASE_URL) beside `primary`, or None
    without one; both must be PostgreSQL."""
    if not read_url:
        return None
    standby = make_engine(read_url)
    if standby.dialect.name != "postgresql" or primary.dialect.name != "postgresql":
        standby.dispose()
        raise SystemExit("LOO_READ_DATABASE_URL needs PostgreSQL, for the primary "
                         "(LOO_DATABASE_URL) and for the standby")
    return ReadReplica.from_env(primary, standby)
