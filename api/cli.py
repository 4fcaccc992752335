"""The `lanterloo` command: serve, migrate, demo, verify.

    lanterloo serve --demo          # migrate the SQLite default, load the demo, serve on :8000
    lanterloo migrate               # bring LOO_DATABASE_URL's schema to the latest revision
    lanterloo demo                  # load the demo session and print its statement
    lanterloo verify <session-id>   # re-fold the session's events and compare the projections
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from ledger.domain import LedgerError


def _database_url(args: argparse.Namespace) -> str | None:
    return args.database_url or os.environ.get("LOO_DATABASE_URL") or None


def _engine(args: argparse.Namespace) -> Any:
    from ledger.store.db import make_engine

    return make_engine(_database_url(args))


def _describe(engine: Any) -> str:
    return engine.url.render_as_string(hide_password=True)


def _migrate(engine: Any) -> str | None:
    from ledger.store.migrate import current, upgrade

    upgrade(engine)
    return current(engine)


def cmd_migrate(args: argparse.Namespace) -> int:
    engine = _engine(args)
    try:
        revision = _migrate(engine)
        print(f"{_describe(engine)} is at revision {revision}")
    finally:
        engine.dispose()
    return 0


def _load_demo(engine: Any, echo: Any = None) -> str:
    from ledger.service import Ledger

    from .demo import load_demo

    return load_demo(Ledger(engine), echo=echo)


def cmd_demo(args: argparse.Namespace) -> int:
    from ledger.service import Ledger

    from .demo import statement_table

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
    from ledger.service import Ledger

    engine = _engine(args)
    try:
        differences = Ledger(engine).verify(args.session)
    except LedgerError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    if differences:
        print(f"session {args.session}: the projections differ from a rebuild from the log:")
        for line in differences:
            print(f"  {line}")
        return 1
    print(f"session {args.session}: the projections agree with a rebuild from the log")
    return 0


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


def cmd_serve(args: argparse.Namespace) -> int:
    url = _database_url(args)
    engine = _engine(args)
    try:
        _migrate(engine)
        print(f"database: {_describe(engine)}")
        if args.demo:
            session_id = _load_demo(engine)
            host = "localhost" if args.host in ("0.0.0.0", "127.0.0.1", "::") else args.host
            base = f"http://{host}:{args.port}"
            print("demo session loaded:")
            for label, link in _urls(base, session_id):
                print(f"  {label:<17} {link}")
    finally:
        # The workers open their own connections after the fork.
        engine.dispose()
    config = {"DATABASE_URL": url} if url else {}
    if args.dev:
        from . import create_app

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
    from gunicorn.workers.sync import SyncWorker

    class GracefulWorker(SyncWorker):  # type: ignore[misc]
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
            from . import create_app

            return create_app(config)

        def run(self) -> None:
            GracefulArbiter(self).run()

    print(f"serving on http://{args.host}:{args.port} with gunicorn "
          f"({args.workers} worker{'s' if args.workers != 1 else ''}); Ctrl-C to stop",
          flush=True)
    Server().run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lanterloo", description="Lanterloo: an event-sourced ledger for clubs that "
                                      "play Loo.")
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
    serve.add_argument("--demo", action="store_true",
                       help="load the demo session if it is not there yet, print its URLs")
    serve.add_argument("--dev", action="store_true",
                       help="use Flask's development server instead of gunicorn")
    serve.set_defaults(func=cmd_serve)

    migrate = sub.add_parser("migrate", parents=[common],
                             help="upgrade the database schema to the latest revision")
    migrate.set_defaults(func=cmd_migrate)

    demo = sub.add_parser("demo", parents=[common],
                          help="load the demo session and print its statement")
    demo.set_defaults(func=cmd_demo)

    verify = sub.add_parser("verify", parents=[common],
                            help="check a session's projections against its event log")
    verify.add_argument("session", help="the session id")
    verify.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
