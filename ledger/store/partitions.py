"""The layout partitioned by club, on PostgreSQL: chosen at install, on an empty database.

    lanterloo migrate --partition-by-club 8       # ledger.operations.database.partition_by_club

The big tables (PARTITIONED) are HASH-partitioned by `club_id` into N partitions, `<table>_p0`
... `<table>_p<N-1>`, so that a club's rows sit together and a club's query reads one
partition of each (docs/operations.md, "Partitioned by club"). It is one path with the
migrations: the database is migrated to the head as any other, and each big table, still
empty, is then made again as a partitioned table with what the migrations gave it (its
columns, defaults, storage and compression, keys, checks, foreign keys, indexes, triggers
and statistics, read back from PostgreSQL's catalog, so that nothing here repeats a
migration). Every primary and unique key already leads with the club (migration 0018), as
a partitioned table's keys must. A later migration's ALTER TABLE reaches the partitions
through their table.
"""

from __future__ import annotations

import re

from sqlalchemy import Connection, Engine, text

# The tables a club's play fills: the log, its projections, the stored answers, the results.
PARTITIONED = ("events", "deal_views", "snapshots", "idempotency_keys", "session_results")
# the rows whose presence makes a database not empty (a layout is chosen before any)
HOLDING = ("clubs", "sessions", "events")
MAX_PARTITIONS = 1024
_PARTITION = re.compile(rf"^({'|'.join(PARTITIONED)})_p\d+$")


class PartitionRefused(Exception):
    """The layout cannot be made here; the message says why, in the operator's words."""


def table_of(name: str) -> str:
    """The table a partition belongs to (`events_p3` -> `events`); any other name as it is:
    PostgreSQL names the partition in a unique violation."""
    found = _PARTITION.match(name)
    return found.group(1) if found else name


def partitions(conn: Connection) -> dict[str, int]:
    """{table: how many partitions} of the tables partitioned by club (empty: the plain
    layout, or SQLite)."""
    if conn.dialect.name != "postgresql":
        return {}
    rows = conn.execute(text(
        "SELECT c.relname, count(i.inhrelid) FROM pg_partitioned_table p "
        "JOIN pg_class c ON c.oid = p.partrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema() "
        "LEFT JOIN pg_inherits i ON i.inhparent = p.partrelid GROUP BY c.relname"))
    return {name: int(count) for name, count in rows}


def refusal(conn: Connection, count: int) -> str | None:
    """Why the layout cannot be made on this database, or None when it can."""
    if conn.dialect.name != "postgresql":
        return ("the layout partitioned by club is PostgreSQL's: SQLite keeps one file for "
                "one club's evenings (run `lanterloo migrate` without --partition-by-club)")
    if not 1 <= count <= MAX_PARTITIONS:
        return f"--partition-by-club takes a number of partitions from 1 to {MAX_PARTITIONS}"
    made = partitions(conn)
    if made:
        return (f"the database is partitioned by club already ({max(made.values())} "
                "partitions a table): run `lanterloo migrate` without --partition-by-club")
    held = {table: _rows(conn, table) for table in HOLDING if _exists(conn, table)}
    if any(held.values()):
        found = ", ".join(table for table, n in held.items() if n)
        return (f"the database already holds data (rows in {found}): the layout is chosen at "
                "install, on an empty database. Make a new database with `lanterloo migrate "
                "--partition-by-club N` and copy this one into it with `lanterloo copy`")
    return None


def partition_by_club(engine: Engine, count: int) -> None:
    """Make the big tables of a database at the head, still empty, partitioned by club into
    `count` partitions each, in one transaction. Raises PartitionRefused (nothing done)."""
    with engine.begin() as conn:
        why = refusal(conn, count)
        if why is not None:
            raise PartitionRefused(why)
        for table in PARTITIONED:
            _partition(conn, table, count)


def _exists(conn: Connection, table: str) -> bool:
    return conn.scalar(text("SELECT to_regclass(:t) IS NOT NULL"), {"t": table}) is True


def _rows(conn: Connection, table: str) -> int:
    """1 when `table` holds a row, else 0 (it stops at the first)."""
    return int(conn.scalar(text(f"SELECT count(*) FROM (SELECT 1 FROM {table} LIMIT 1) t"))
               or 0)


def _partition(conn: Connection, table: str, count: int) -> None:
    """`table` made again as a partitioned table with everything the migrations gave it."""
    oid = conn.scalar(text("SELECT CAST(:t AS regclass)::oid"), {"t": table})
    constraints = list(conn.execute(text(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = :o "
        "ORDER BY contype = 'f', conname"), {"o": oid}))  # keys and checks before references
    indexes = list(conn.scalars(text(
        "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i WHERE i.indrelid = :o AND NOT "
        "EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid) "
        "ORDER BY i.indexrelid"), {"o": oid}))
    triggers = list(conn.scalars(text(
        "SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = :o AND NOT tgisinternal "
        "ORDER BY tgname"), {"o": oid}))
    statistics = list(conn.scalars(text(
        "SELECT pg_get_statisticsobjdef(oid) FROM pg_statistic_ext WHERE stxrelid = :o "
        "ORDER BY stxname"), {"o": oid}))
    sequences = list(conn.execute(text(
        "SELECT a.attname, pg_get_serial_sequence(:t, a.attname) FROM pg_attribute a "
        "WHERE a.attrelid = :o AND a.attnum > 0 AND NOT a.attisdropped "
        "AND pg_get_serial_sequence(:t, a.attname) IS NOT NULL"), {"t": table, "o": oid}))
    old = f"{table}_unpartitioned"
    conn.execute(text(f"ALTER TABLE {table} RENAME TO {old}"))
    conn.execute(text(f"CREATE TABLE {table} (LIKE {old} INCLUDING DEFAULTS INCLUDING STORAGE "
                      "INCLUDING COMPRESSION) PARTITION BY HASH (club_id)"))
    for column, sequence in sequences:  # the log's numbering goes on with the new table
        conn.execute(text(f"ALTER SEQUENCE {sequence} OWNED BY {table}.{column}"))
    conn.execute(text(f"DROP TABLE {old}"))  # its keys, indexes, triggers and statistics
    for name, definition in constraints:
        conn.exec_driver_sql(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
    for statement in [*indexes, *triggers, *statistics]:  # PostgreSQL's own text of each
        conn.exec_driver_sql(statement)
    # A statement's trigger (the log's refusal of TRUNCATE) is not the partitions' as a
    # row's is: each partition gets its own, or a TRUNCATE of one would empty it.
    statements = [t for t in triggers if "FOR EACH STATEMENT" in t]
    for remainder in range(count):
        conn.execute(text(f"CREATE TABLE {table}_p{remainder} PARTITION OF {table} "
                          f"FOR VALUES WITH (MODULUS {count}, REMAINDER {remainder})"))
        for trigger in statements:
            on, found = re.subn(rf"( ON (?:\S+\.)?){table} ", rf"\g<1>{table}_p{remainder} ",
                                trigger, count=1)
            assert found == 1, trigger
            conn.exec_driver_sql(on)
