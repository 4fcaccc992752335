"""What an app holds for its requests: the engine, the operator's Ledger and the Clubs."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from sqlalchemy import Engine

from ledger.checkpoints import configured_signer
from ledger.clubs import Clubs
from ledger.service import Ledger

EXTENSION = "lanterloo"


@dataclass(frozen=True)
class Services:
    engine: Engine
    ledger: Ledger  # every session; a request works with its club's (api/context.py)
    clubs: Clubs


def install(app: object, engine: Engine, ledger: Ledger) -> None:
    # A checkpoint key that cannot be read stops the start-up, not the first statement.
    configured_signer()
    app.extensions[EXTENSION] = Services(engine, ledger, Clubs(engine))  # type: ignore[attr-defined]


def services() -> Services:
    """The services of the app handling this request."""
    found: Services = current_app.extensions[EXTENSION]
    return found
