"""The books' commands of `lanterloo` (docs/books.md, "Opening balances"):

    lanterloo books import-opening FILE --club C [--actor NAME]
    lanterloo books export-beancount --club C --from 2026-10-01 --to 2026-10-31 [-o FILE]

They go through the books' own service and its one write (ledger/books/closing.py), as the routes
do: an import is keyed by its file, so the same file twice is recorded once.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from typing import Any

from ledger.domain import LedgerError


def cmd_import_opening(args: argparse.Namespace, engine: Any) -> int:
    """Record a club's opening balances from a CSV file; every bad line on stderr."""
    from ledger.books.closing import Periods, import_key
    from ledger.books.service import Books
    from ledger.clubs.service import Clubs
    from ledger.writes import WriteRequest

    with open(args.file, "rb") as handle:
        content = handle.read()
    try:
        club_id = Clubs(engine).club(args.club)["club_id"]
        done = Periods(Books(engine, club_id)).import_opening(
            content, request=WriteRequest(args.actor, idempotency_key=import_key(content)))
    except LedgerError as error:
        print(f"error: {error.message}", file=sys.stderr)
        lines: Any = error.extra.get("lines", ())
        for line in lines:
            print(f"  line {line['line']}: {line['field']}: {line['detail']} "
                  f"({line['rule']})", file=sys.stderr)
        return 2
    entries = done.body["entries"]
    print(f"{'already recorded' if done.replayed else 'recorded'}: {len(entries)} opening "
          f"balance(s), book entries {entries[0]['seq']} to {entries[-1]['seq']}")
    return 0


def cmd_export_beancount(args: argparse.Namespace, engine: Any) -> int:
    """Write the club's books of a period as a Beancount file."""
    from ledger.books.beancount import beancount
    from ledger.clubs.service import Clubs

    try:
        club_id = Clubs(engine).club(args.club)["club_id"]
        text = beancount(engine, club_id, args.first, args.last)
    except LedgerError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a date, YYYY-MM-DD: {json.dumps(value)}") from None


def add_commands(sub: Any, common: argparse.ArgumentParser, engine_of: Any) -> None:
    """The commands above, on the `lanterloo` parser (api/cli/main.py)."""

    def with_engine(command: Any) -> Any:
        def run(args: argparse.Namespace) -> int:
            engine = engine_of(args)
            try:
                return int(command(args, engine))
            finally:
                engine.dispose()
        return run

    books = sub.add_parser("books", help="a club's books").add_subparsers(
        dest="books_command", required=True)
    opening = books.add_parser("import-opening", parents=[common],
                               help="record a club's opening balances from a CSV file "
                                    "(member,amount,currency,as_of,note): all or nothing")
    opening.add_argument("file")
    opening.add_argument("--club", required=True, help="the club's name or id")
    opening.add_argument("--actor", default="operator",
                         help="the name the entries are recorded under")
    opening.set_defaults(func=with_engine(cmd_import_opening))
    export = books.add_parser("export-beancount", parents=[common],
                              help="the club's books of a period as a Beancount file")
    export.add_argument("--club", required=True, help="the club's name or id")
    export.add_argument("--from", dest="first", required=True, type=_date)
    export.add_argument("--to", dest="last", required=True, type=_date)
    export.add_argument("-o", "--output", help="the file (default: standard output)")
    export.set_defaults(func=with_engine(cmd_export_beancount))
