"""Clubs and tokens for the tests: every HTTP test talks as a member of a club.

    client = club_client(app, engine)             # a treasurer of a fresh club
    client = club_client(app, engine, role="dealer", club=other)

`club_client` gives Flask's test client the token in `environ_base`, so every request sends
`Authorization: Bearer ...` without the tests saying so. The tests of the table seat
whatever names they like: the client lists the players of POST /sessions as `guests` (the
way a treasurer seats people who are not members yet) unless the body names its own
guests. The access tests use the plain test client and their own tokens.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine

from ledger.audit import checkpoint_log, checkpoints
from ledger.clubs.service import ROLES, Actor, Clubs
from ledger.domain import Command, OpenSession
from ledger.domain.commands import JoinPlayer
from ledger.projections import SNAPSHOT_EVERY
from ledger.sessions.service import Ledger
from ledger.writes import AppendResult, WriteRequest


@dataclass
class Club:
    """A club with one member per role and one token each (the secrets kept for the test)."""

    club_id: str
    name: str
    tokens: dict[str, str] = field(default_factory=dict)  # role -> bearer token
    token_ids: dict[str, str] = field(default_factory=dict)  # role -> token id
    members: dict[str, str] = field(default_factory=dict)  # role -> member id

    def headers(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"}


def make_club(engine: Engine, name: str = "club") -> Club:
    """A new club; its members admin, treasurer, dealer and auditor, each with a token of
    that role. Its name is `name` and a random suffix: a club's name is unique in its
    database, which the tests of a module share."""
    clubs = Clubs(engine)
    info, admin, token = clubs.create_club(f"{name} {secrets.token_hex(4)}",
                                           admin="admin", label="test admin")
    club = Club(info["club_id"], info["name"])
    club.tokens["admin"], club.token_ids["admin"] = token["token"], token["token_id"]
    club.members["admin"] = admin["member_id"]
    for role in ROLES:
        if role == "admin":
            continue
        member = clubs.add_member(club.club_id, role)
        issued = clubs.create_token(club.club_id, member["member_id"], role, f"test {role}")
        club.tokens[role], club.token_ids[role] = issued["token"], issued["token_id"]
        club.members[role] = member["member_id"]
    return club


def open_table(engine: Engine, club: Club, name: str, *, players: Sequence[str],
               by: str = "treasurer", end: str | None = None) -> str:
    """A table of `club` opened by its member `by` through the ledger's service (and ended
    `end`, a method such as "divide-pool", when given): its session id."""
    ledger = Ledger(engine).for_club(club.club_id)
    request = WriteRequest(Actor(by, club.members[by]))
    sid = str(ledger.open_session(OpenSession(players=list(players), name=name),
                                  request).body["session_id"])
    if end:
        from ledger.domain.commands import EndSession

        ledger.append(sid, [EndSession(method=end)], request)
    return sid


@contextlib.contextmanager
def own_signing_key(folder: str) -> Iterator[checkpoints.Signer]:
    """The service signs each end with a key of its own (LOO_CHECKPOINT_KEY), into a log in
    `folder` (the instance folder), until the block ends; read afresh on the way in and out."""
    signer, seed = checkpoints.Signer.generate()
    saved = {name: os.environ.get(name) for name in ("LOO_INSTANCE_DIR", checkpoints.ENV_KEY)}
    os.environ["LOO_INSTANCE_DIR"] = folder
    os.environ[checkpoints.ENV_KEY] = seed
    checkpoints.forget_configuration()
    checkpoint_log.forget_state()
    try:
        yield signer
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        checkpoints.forget_configuration()
        checkpoint_log.forget_state()


class ClubClient(FlaskClient):
    """Seats any player of POST /sessions as a guest, unless the body lists guests; and any
    aftercomer (a PlayerJoined sent, or put in place by a correction) unless it says
    `guest`."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        if path.split("?")[0].rstrip("/") == "/sessions" and isinstance(body, dict) \
                and "guests" not in body and isinstance(body.get("players"), list) \
                and all(isinstance(p, str) for p in body["players"]):
            kwargs["json"] = {**body, "guests": list(dict.fromkeys(body["players"]))}
        elif isinstance(body, dict) and path.startswith("/sessions/"):
            kwargs["json"] = {k: [_as_guest(e) for e in v]
                              if k in ("events", "replacements") and isinstance(v, list) else v
                              for k, v in body.items()}
        return super().open(*args, **kwargs)


def _as_guest(entry: Any) -> Any:
    if isinstance(entry, dict) and entry.get("type") == "PlayerJoined" \
            and "guest" not in entry:
        return {**entry, "guest": True}
    return entry


def club_client(app: Flask, engine: Engine, *, role: str = "treasurer",
                club: Club | None = None) -> FlaskClient:
    """A test client sending a token of `role` of `club` (a new club if None)."""
    club = club or make_club(engine)
    app.test_client_class = ClubClient
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {club.tokens[role]}"
    client.club = club  # type: ignore[attr-defined]
    return client


class GuestLedger(Ledger):
    """A club's ledger that seats any player it is not told about as a guest, as `ClubClient`
    does over HTTP: an opening's players are its guests unless `guests` is given, and an
    aftercomer joins as a guest unless he says `guest`. The tests that once opened sessions
    through the operator's ledger (every session is now a club's) open them through this."""

    def open_session(self, command: OpenSession, request: WriteRequest,
                     guests: Sequence[str] | None = None) -> AppendResult:
        if guests is None:
            guests = list(dict.fromkeys(p for p in command.players if isinstance(p, str)))
        return super().open_session(command, request, guests=guests)

    def append(self, session_id: str, commands: Sequence[Command],
               request: WriteRequest) -> AppendResult:
        return super().append(session_id, [_join_as_guest(c) for c in commands], request)

    def correct(self, session_id: str, *, voids: Sequence[int],
                replacements: Sequence[Command] = (), reason: str,
                request: WriteRequest) -> AppendResult:
        return super().correct(session_id, voids=voids,
                               replacements=[_join_as_guest(c) for c in replacements],
                               reason=reason, request=request)

    def for_club(self, club_id: str) -> Ledger:
        return GuestLedger(self.engine, club_id=club_id, snapshot_every=self.snapshot_every)


def _join_as_guest(command: Command) -> Command:
    if isinstance(command, JoinPlayer) and not command.guest and command.member is None:
        return dataclasses.replace(command, guest=True)
    return command


def club_ledger(engine: Engine, *, club: Club | None = None,
                snapshot_every: int = SNAPSHOT_EVERY) -> GuestLedger:
    """A ledger of `club` (a new club if None) seating unknown players as guests."""
    club = club or make_club(engine)
    return GuestLedger(engine, club_id=club.club_id, snapshot_every=snapshot_every)
