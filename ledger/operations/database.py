"""The database as the web and the command line ask for it: an engine, a setting read from the
environment (or the file a container's secret is in), the instance folder (the default SQLite
file, the checkpoint key and log), the schema's revision and the one this code ships. The
store's own modules stay behind it.

    engine = make_engine(url)                 # LOO_DATABASE_URL's database when url is None
    current(engine) == head_revision()        # the schema is at the latest revision
"""

from __future__ import annotations

from functools import cache

from ledger.store.db import env_or_file, instance_folder, make_engine
from ledger.store.migrate import alembic_config, current

__all__ = ["current", "env_or_file", "head_revision", "instance_folder", "make_engine"]


@cache
def head_revision() -> str | None:
    """The latest Alembic revision shipped with this code."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()
