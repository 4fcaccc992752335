"""The `lanterloo` command: serve, migrate, demo, verify, and clubs, members and tokens.

    lanterloo serve --demo          # migrate the SQLite default, load the demo, serve on :8000
    lanterloo migrate               # bring LOO_DATABASE_URL's schema to the latest revision
    lanterloo migrate --partition-by-club N   # ... an empty PostgreSQL one, partitioned by club
    lanterloo demo                  # load the demo session and print its statement
    lanterloo verify <session-id>   # re-fold the session's events and compare the projections
    lanterloo verify --all          # ... every session, and every club's logs
    lanterloo verify --checkpoint F # ... against kept signed heads (api/cli/audit.py)
    lanterloo checkpoint | export S | verify-export F | keygen F   (api/cli/audit.py)
    lanterloo rebuild --all         # rebuild every session's projections from its log
    lanterloo copy --from URL --to URL   # the whole ledger to an empty database, verified
    lanterloo club create NAME      # a new club; prints its first admin, their token and
                                    # their sign-in link (--url: where the service is reached)
    lanterloo club link CLUB --member M --role R   # another sign-in link
    lanterloo club attach CLUB --all     # the sessions from before clubs into a club
    lanterloo member add --club C NAME             # ... and tokens (api/cli/clubs.py)
    lanterloo token create --club C --member M --role dealer --label "tablet 2"
    lanterloo token list --club C | lanterloo token revoke TOKEN_ID
    lanterloo books import-opening FILE --club C    # opening balances (api/cli/books.py)

The command line is the operator's: it needs the database, not a token, and it is the only
way to reach sessions that belong to no club (opened before clubs existed).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from api.cli import audit as cli_audit
from api.cli import books as cli_books
from api.cli import clubs as cli_clubs
from api.cli import links as cli_links
from api.cli import ops as cli_ops
from ledger.domain import LedgerError
from ledger.domain.access import Role


def _database_url(args: argparse.Namespace) -> str | None:
    from ledger.operations.database import env_or_file

    return args.database_url or env_or_file("LOO_DATABASE_URL")


def _engine(args: argparse.Namespace) -> Any:
    """The operator's engine: no statement or lock timeout (a migration, a copy or a rebuild
    may run long), the connect timeout of the environment."""
    from ledger.operations.database import make_engine

    return make_engine(_database_url(args), operator=True)


def _describe(engine: Any) -> str:
    return engine.url.difference_update_query(["options"]).render_as_string(
        hide_password=True)


def _migrate(engine: Any, partition_by_club: int | None = None) -> str | None:
    from ledger.books import postings
    from ledger.operations.bulk import migrate
    from ledger.operations.database import current
    from ledger.operations.upgrades import attach_latecomers

    rebuilt = migrate(engine, partition_by_club=partition_by_club)
    if partition_by_club is not None:
        print(f"the events, deal views, snapshots, stored answers and results are "
              f"partitioned by club, {partition_by_club} partitions each")
    if rebuilt:
        print(f"rebuilt the projections of {len(rebuilt)} sessions written by an earlier "
              "release, from their logs")
    for club_id in postings.rebuild_clubs(engine, differing=True):
        print(f"club {club_id}: its postings' table rebuilt from its book log")
    for session_id, seats in attach_latecomers(engine):
        if isinstance(seats, str):
            print(f"session {session_id}: its latecomers are not attached: {seats}",
                  file=sys.stderr)
        else:
            print(f"session {session_id}: latecomers attached to members: {', '.join(seats)}")
    return current(engine)


def cmd_migrate(args: argparse.Namespace) -> int:
    """Migrate to the head; with sessions from before clubs, as far as their attachment
    (SessionsOutsideClubs says how, in ops.run_reporting: exit status 2)."""
    engine = _engine(args)
    try:
        revision = _migrate(engine, args.partition_by_club)
        print(f"{_describe(engine)} is at revision {revision}")
    finally:
        engine.dispose()
    return 0


def _load_demo(engine: Any, echo: Any = None) -> str:
    from api.cli.demo import load_demo
    from ledger.sessions.service import Ledger

    return load_demo(Ledger(engine), echo=echo)


def cmd_demo(args: argparse.Namespace) -> int:
    from api.cli.demo import statement_table
    from ledger.sessions.service import Ledger

    engine = _engine(args)
    try:
        _migrate(engine)
        print("Recording the demo session:")
        session_id = _load_demo(engine, echo=print)
        print(f"\nsession {session_id}\n")
        print(statement_table(Ledger(engine).statement(session_id)))
    finally:
        engine.dispose()
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from api.cli.progress import watching
    from ledger.operations.bulk import verify_all
    from ledger.sessions.service import Ledger

    if not args.session and not args.all and not args.checkpoint:
        print("error: name a session, or --all, or --checkpoint FILE", file=sys.stderr)
        return 2
    engine = _engine(args)
    broken = 0
    try:
        if args.checkpoint:
            from api.cli.audit import verify_checkpoints

            broken += verify_checkpoints(args, engine)
        ledger = Ledger(engine)
        found: dict[str, list[str]] = {}
        if args.all:
            # One pass over the whole log, in parallel (ledger/operations/bulk.py); the same
            # findings. Its progress on a terminal (api/cli/progress.py).
            try:
                with watching() as watch:
                    found = verify_all(engine, progress=watch("verifying"))
            except LedgerError as error:
                print(f"error: {error.message}", file=sys.stderr)
                return 2
        for session_id in (found if args.all else args.session):
            try:
                differences = found[session_id] if args.all else ledger.verify(session_id)
            except LedgerError as error:
                print(f"error: {error.message}", file=sys.stderr)
                return 2
            if differences:
                broken += 1
                print(f"session {session_id}: the projections differ from a rebuild from "
                      "the log:")
                for line in differences:
                    print(f"  {line}")
            else:
                print(f"session {session_id}: the projections agree with a rebuild from the "
                      "log")
        if args.all:
            broken += _verify_book_logs(engine)
        if (args.all or args.session) and not args.checkpoint:
            from api.cli.audit import verify_own_log

            # Against the heads the service signed: a rewrite the database agrees with
            # (the logs named with --checkpoint are checked instead, when there are some).
            broken += verify_own_log(engine, None if args.all else list(args.session))
    finally:
        engine.dispose()
    return 1 if broken else 0


def _verify_book_logs(engine: Any) -> int:
    """Each club's book log (payments, write-offs, cash counts: docs/books.md) and club log
    (members and tokens: ledger/store/clublog.py) against their hash chains and stored
    heads, the club log replayed against the members and tokens stored; how many clubs are
    not right."""
    from ledger.books.service import Books
    from ledger.clubs.service import Clubs

    broken = 0
    for club_id in Clubs(engine).club_ids():
        problems = Books(engine, club_id).verify()
        if problems:
            broken += 1
            print(f"club {club_id}: its logs are not right:")
            for line in problems:
                print(f"  {line}")
        else:
            print(f"club {club_id}: the book log and the club log are whole and at their "
                  "stored heads; the members and tokens are the club log's")
    return broken


def cmd_rebuild(args: argparse.Namespace) -> int:
    from api.cli.progress import watching
    from ledger.books import postings
    from ledger.operations.bulk import rebuild_all, verify_all
    from ledger.sessions.service import Ledger

    if not args.session and not args.all:
        print("error: name a session, or --all", file=sys.stderr)
        return 2
    engine = _engine(args)
    clubs: list[str] = []
    try:
        ledger = Ledger(engine)
        found: dict[str, list[str]] = {}
        if args.all:
            # Every session rewritten in one parallel pass, then verified in another
            # (ledger/operations/bulk.py); reported session by session as below.
            with watching() as watch:
                rebuild_all(engine, progress=watch("rebuilding"))
                clubs = postings.rebuild_clubs(engine)
                found = verify_all(engine, progress=watch("verifying"))
        for session_id in (found if args.all else args.session):
            if not args.all and not ledger.session_exists(session_id):
                print(f"error: no session {session_id}", file=sys.stderr)
                return 2
            if not args.all:
                ledger.rebuild(session_id)
            problems = found[session_id] if args.all else ledger.verify(session_id)
            if problems:
                print(f"session {session_id}: rebuilt, but the log does not verify:")
                for line in problems:
                    print(f"  {line}")
                return 1
            print(f"session {session_id}: projections rebuilt from the log")
        if args.all and clubs:
            print(f"the book postings and kept sums of {len(clubs)} clubs rebuilt from "
                  "their logs")
    finally:
        engine.dispose()
    return 0


def cmd_copy(args: argparse.Namespace) -> int:
    from api.cli.progress import watching
    from ledger.operations.database import make_engine
    from ledger.operations.database_copy import CopyFailed, copy_database

    source = make_engine(args.source, operator=True)
    target = make_engine(args.target, operator=True)
    try:
        print(f"copying {_describe(source)} to {_describe(target)}")
        with watching() as watch:
            report = copy_database(source, target, echo=print, watch=watch)
    except CopyFailed as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        source.dispose()
        target.dispose()
    print(f"done: {report.sessions} sessions, {report.rows.get('events', 0)} events; every "
          "session's chain and projections verify on the target")
    return 0


def _clubs(engine: Any) -> Any:
    from ledger.clubs.service import Clubs

    return Clubs(engine)


def _with_clubs(args: argparse.Namespace, work: Any) -> int:
    """Migrate, run `work(clubs)`; a refusal is one line on stderr and exit status 2. With
    sessions from before clubs the schema stays where they can be attached (0017), and the
    clubs' commands (`club create`, `club attach`) work there."""
    from ledger.operations.database import SessionsOutsideClubs

    engine = _engine(args)
    try:
        try:
            _migrate(engine)
        except SessionsOutsideClubs as held:
            print(f"note: the schema is at revision {held.below} while {held.count} "
                  "sessions from before clubs have no club; once they are attached, run "
                  "`lanterloo migrate`", file=sys.stderr)
        return int(work(_clubs(engine)))
    except LedgerError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()


def _urls(base: str, session_id: str) -> list[tuple[str, str]]:
    return [
        ("session", f"{base}/sessions/{session_id}"),
        ("a deal", f"{base}/sessions/{session_id}/deals/2"),
        ("events", f"{base}/sessions/{session_id}/events"),
        ("statement (JSON)", f"{base}/sessions/{session_id}/statement"),
        ("statement (CSV)", f"{base}/sessions/{session_id}/statement?format=csv"),
        ("API docs", f"{base}/docs"),
        ("OpenAPI", f"{base}/openapi.json"),
    ]


def exposure_warning(host: str) -> str | None:
    """What `serve` says when it listens beyond this machine: on its own it does not bound
    how long a client takes to send a request, so it must sit behind the proxy."""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return None
    return (f"WARNING: listening on {host}, beyond this machine. Lanterloo must sit behind the "
            "reverse proxy of deploy/nginx.conf there: on its own it does not cut a client "
            "that sends its request slowly (each one holds a worker thread), nor limit "
            "request rates. Listen on 127.0.0.1 behind the proxy (deploy/README.md).")


def cmd_serve(args: argparse.Namespace) -> int:
    url = _database_url(args)
    engine = _engine(args)
    warning = exposure_warning(args.host)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    try:
        _migrate(engine)
        print(f"database: {_describe(engine)}")
        if args.demo:
            from api.cli.audit import ensure_checkpoint_key
            from api.cli.demo import DEMO_CLUB, DEMO_STAFF, demo_tokens

            ensure_checkpoint_key()  # before the demo: its ended session is signed
            session_id = _load_demo(engine)
            host = "localhost" if args.host in ("0.0.0.0", "127.0.0.1", "::") else args.host
            base = f"http://{host}:{args.port}"
            print("demo session loaded:")
            for label, link in _urls(base, session_id):
                print(f"  {label:<17} {link}")
            print(f"tokens of the {DEMO_CLUB} (new each start; the previous ones are "
                  "revoked):")
            for role, token in demo_tokens(_clubs(engine)).items():
                print(f"  {role.upper()}={token}  # {DEMO_STAFF[role]}")
            print(f'  e.g. curl -H "Authorization: Bearer $AUDITOR" '
                  f"{base}/sessions/{session_id}/statement")
            clubs = _clubs(engine)
            club_id = clubs.club(DEMO_CLUB)["club_id"]
            for role in (Role.ADMIN, Role.TREASURER, Role.AUDITOR):  # the desk's, in a browser
                member_id = clubs.member(club_id, DEMO_STAFF[role])["member_id"]
                cli_links.print_link(clubs, club_id, member_id, role, base)
    finally:
        # The workers open their own connections after the fork.
        engine.dispose()
    config = {"DATABASE_URL": url} if url else {}
    if args.dev:
        from api import create_app

        create_app(config).run(host=args.host, port=args.port, debug=False)
        return 0
    return _gunicorn(config, args)


def _gunicorn(config: dict[str, Any], args: argparse.Namespace) -> int:
    """Serve with gunicorn, the production server.

    Ctrl-C stops it gracefully: the terminal sends SIGINT to the arbiter and to its workers
    (one process group); gunicorn's default for SIGINT is a quick stop that can cut a request
    (and its access-log line) short, so here both treat it like SIGTERM: finish, then exit.
    """
    from gunicorn.app.base import BaseApplication
    from gunicorn.arbiter import Arbiter

    from api.http.serving import JsonAccessLogger, ProblemThreadWorker

    class GracefulWorker(ProblemThreadWorker):
        def init_signals(self) -> None:
            super().init_signals()
            signal.signal(signal.SIGINT, self.handle_exit)

    class GracefulArbiter(Arbiter):  # type: ignore[misc]
        def handle_int(self) -> None:
            self.handle_term()

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            options = {
                "bind": f"{args.host}:{args.port}",
                "workers": args.workers,
                "worker_class": GracefulWorker,
                "threads": args.threads,
                "logger_class": JsonAccessLogger,
                "accesslog": "-",
                "errorlog": "-",
                "graceful_timeout": 5,
                "proc_name": "lanterloo",
                # gunicorn >= 25 opens a control socket at one fixed path per user; two
                # servers on one machine would share it, so the CLI does without.
                "control_socket_disable": True,
            }
            for key, value in options.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self) -> Any:
            # Called in each worker after the fork: one engine (and pool) per process.
            from api import create_app

            return create_app(config)

        def run(self) -> None:
            GracefulArbiter(self).run()

    print(f"serving on http://{args.host}:{args.port} with gunicorn "
          f"({args.workers} worker{'s' if args.workers != 1 else ''}); Ctrl-C to stop",
          flush=True)
    Server().run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    from ledger.__version__ import __version__

    parser = argparse.ArgumentParser(
        prog="lanterloo", description="Lanterloo: an event-sourced ledger for clubs that "
                                      "play Loo.")
    parser.add_argument("--version", action="version", version=f"lanterloo {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL (default: $LOO_DATABASE_URL, else the SQLite "
                             "file instance/lanterloo.db)")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", parents=[common], help="migrate, then serve the API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int,
                       default=int(os.environ.get("LOO_WORKERS", "2") or 2))
    serve.add_argument("--threads", type=int,
                       default=int(os.environ.get("LOO_THREADS", "4") or 4))
    serve.add_argument("--demo", action="store_true",
                       help="load the demo session if it is not there yet, print its URLs")
    serve.add_argument("--dev", action="store_true",
                       help="use Flask's development server instead of gunicorn")
    serve.set_defaults(func=cmd_serve)

    migrate = sub.add_parser("migrate", parents=[common],
                             help="upgrade the database schema to the latest revision")
    migrate.add_argument("--partition-by-club", type=int, metavar="N", default=None,
                         help="at install, on an empty PostgreSQL database: the events and "
                              "the other big tables partitioned by club, N partitions each "
                              "(docs/operations.md)")
    migrate.set_defaults(func=cmd_migrate)

    demo = sub.add_parser("demo", parents=[common],
                          help="load the demo session and print its statement")
    demo.set_defaults(func=cmd_demo)

    verify = sub.add_parser("verify", parents=[common],
                            help="check a session's projections against its event log")
    verify.add_argument("session", nargs="*", help="session ids")
    verify.add_argument("--all", action="store_true", help="every session of the database")
    verify.add_argument("--checkpoint", action="append", default=[], metavar="FILE",
                        help="a kept checkpoint log: every signed head in it must hold, and "
                             "every chain it names verify (repeatable)")
    verify.add_argument("--public-key", action="append", default=[],
                        help="a public key (hex) the checkpoints must be signed by "
                             "(default: the configured key's); repeatable")
    verify.add_argument("--restored-from", metavar="BACKUP",
                        help="the backup this database was restored from: a checkpoint "
                             "signed after it, past the log's end, is newer, not tampering")
    verify.set_defaults(func=cmd_verify)
    cli_audit.add_commands(sub, common, _engine)
    cli_ops.add_commands(sub, common, _database_url)
    cli_books.add_commands(sub, common, _engine)

    rebuild = sub.add_parser("rebuild", parents=[common],
                             help="rebuild sessions' projections from their event logs")
    rebuild.add_argument("session", nargs="*", help="session ids")
    rebuild.add_argument("--all", action="store_true", help="every session of the database")
    rebuild.set_defaults(func=cmd_rebuild)

    copy = sub.add_parser("copy", help="copy a whole ledger to another (empty) database, "
                                       "rebuild its projections there and verify it")
    copy.add_argument("--from", dest="source", required=True, help="the source's URL")
    copy.add_argument("--to", dest="target", required=True, help="the target's URL")
    copy.set_defaults(func=cmd_copy)

    cli_clubs.add_commands(sub, common, _with_clubs)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    url = getattr(args, "database_url", None) or os.environ.get("LOO_DATABASE_URL")
    return cli_ops.run_reporting(args.func, args, url)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
