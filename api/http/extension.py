"""What an app holds for its requests: the engine, the operator's Ledger, the Clubs and the
read replica, if one is configured."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app
from sqlalchemy import Engine

from ledger.audit.checkpoints import configured_signer
from ledger.clubs.service import TOKEN_RECHECK_S, Clubs
from ledger.operations.database import ReadReplica
from ledger.sessions.service import Ledger

EXTENSION = "lanterloo"


@dataclass(frozen=True)
class Services:
    engine: Engine
    ledger: Ledger  # every session; a request works with its club's (api/http/context.py)
    clubs: Clubs
    # the hot standby that answers reads of the books, audit and statement (api/http/reading.py)
    replica: ReadReplica | None = None


def install(app: Flask, engine: Engine, ledger: Ledger,
            replica: ReadReplica | None = None) -> None:
    # A checkpoint key that cannot be read stops the start-up, not the first statement.
    configured_signer()
    clubs = Clubs(engine, recheck_s=float(app.config.get("TOKEN_RECHECK_S", TOKEN_RECHECK_S)))
    app.extensions[EXTENSION] = Services(engine, ledger, clubs, replica)


def services() -> Services:
    """The services of the app handling this request."""
    found: Services = current_app.extensions[EXTENSION]
    return found
