"""A club's Ledger is made once per app and club (api/backend.py), and stays confined to it."""

from __future__ import annotations

from flask import g

from api import backend
from ledger.clubs import Principal
from ledger.service import Ledger


def as_member_of(club_id: str) -> Principal:
    return Principal(club_id=club_id, club_name=club_id, member_id="m", member_name="M",
                     role="treasurer", token_id="t", token_label="l")


def test_one_ledger_per_club_each_confined_to_its_club(app):
    with app.test_request_context():
        g.principal = as_member_of("club-a")
        first = backend.ledger()
        assert backend.ledger() is first
        assert first.club_id == "club-a"
        g.principal = as_member_of("club-b")
        other = backend.ledger()
        assert other is not first and other.club_id == "club-b"
        g.principal = as_member_of("club-a")
        assert backend.ledger() is first


def test_a_new_ledger_for_the_app_is_used_at_once(app, engine):
    with app.test_request_context():
        g.principal = as_member_of("club-a")
        before = backend.ledger()
        extension = app.extensions[backend.EXTENSION]
        extension["ledger"] = Ledger(engine, snapshot_every=7)
        after = backend.ledger()
        assert after is not before
        assert after.club_id == "club-a" and after.snapshot_every == 7


def test_the_kept_ledgers_are_bounded(app):
    with app.test_request_context():
        for n in range(backend._MAX_CLUB_LEDGERS + 5):
            g.principal = as_member_of(f"club-{n}")
            assert backend.ledger().club_id == f"club-{n}"
        kept = app.extensions[backend.EXTENSION][backend._CLUB_LEDGERS][1]
        assert len(kept) <= backend._MAX_CLUB_LEDGERS
