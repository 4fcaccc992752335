"""The bearer token's lookup (ledger/store/clubstore.py): read afresh on every request, so a
revocation counts at once; under the client-side deadline; a lost connection or a database
error is a 503 and the connection is not handed out again.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.pool import NullPool

from api import create_app
from ledger.clubs.service import Clubs
from ledger.store import clubstore, db
from ledger.store.tables import tokens
from tests.clubs import make_club

from .conftest import assert_problem


def core_row(conn, token_id: str):
    return conn.execute(clubstore._AUTHENTICATION, {"token_id": token_id}).first()


def as_dict(row) -> dict:
    return row._asdict() if hasattr(row, "_asdict") else dict(row._mapping)


def test_a_revoked_or_expired_token_is_refused_on_the_next_request(engine):
    club = make_club(engine)
    clubs = Clubs(engine)
    assert clubs.authenticate(club.tokens["auditor"]) is not None
    clubs.revoke_token(club.token_ids["auditor"], club_id=club.club_id)
    with engine.begin() as conn:
        conn.execute(update(tokens).where(tokens.c.id == club.token_ids["dealer"])
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    assert clubs.authenticate(club.tokens["auditor"]) is None
    assert clubs.authenticate(club.tokens["dealer"]) is None
    assert clubs.authenticate(club.tokens["treasurer"]) is not None


def test_the_lookup_runs_under_the_client_deadline(fresh_engine, monkeypatch):
    """Every wait on the database while authenticating is under the client deadline (on a
    database of its own: the module's listens already for the token epoch)."""
    engine = fresh_engine
    club = make_club(engine)
    calls = {"arm": 0, "disarm": 0}
    arm, disarm = db.WATCHDOG.arm, db.WATCHDOG.disarm

    def counted_arm(*args):
        calls["arm"] += 1
        return arm(*args)

    def counted_disarm(*args):
        calls["disarm"] += 1
        return disarm(*args)

    monkeypatch.setattr(db.WATCHDOG, "arm", counted_arm)
    monkeypatch.setattr(db.WATCHDOG, "disarm", counted_disarm)
    clubs = Clubs(engine)
    assert clubs.authenticate(club.tokens["admin"]) is not None
    # PostgreSQL: the LISTEN, the epoch's round trip, then the lookup, and the ROLLBACK
    # that returns the connection to the pool; once known, the epoch's round trip alone
    expected = 4 if engine.dialect.name == "postgresql" else 0
    assert calls == {"arm": expected, "disarm": expected}
    assert clubs.authenticate(club.tokens["admin"]) is not None
    expected += 1 if engine.dialect.name == "postgresql" else 0
    assert calls == {"arm": expected, "disarm": expected}


def test_a_lost_connection_is_invalidated_and_not_used_again(engine):
    if engine.dialect.name != "postgresql":
        pytest.skip("a server-side disconnect needs PostgreSQL")
    club = make_club(engine)
    engine.dispose()  # then one connection in the pool: the one cut below
    clubs = Clubs(engine)
    assert clubs.authenticate(club.tokens["treasurer"]) is not None
    with clubs.store.reading() as conn:
        pid = conn.connection.driver_connection.info.backend_pid
    killer = create_engine(engine.url, poolclass=NullPool)
    with killer.connect() as other:
        other.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
    killer.dispose()
    with clubs.store.reading() as conn:
        if conn.connection.driver_connection.info.backend_pid != pid:
            pytest.skip("the pool handed out another connection")
        with pytest.raises(sa_exc.DBAPIError) as raised:
            clubstore.token_for_authentication(conn, club.token_ids["treasurer"])
    assert raised.value.connection_invalidated
    assert isinstance(raised.value, sa_exc.OperationalError)
    assert clubs.authenticate(club.tokens["treasurer"]) is not None  # a fresh connection


def test_a_database_error_in_the_lookup_is_a_503(engine, monkeypatch):
    club = make_club(engine)
    app = create_app({"ENGINE": engine, "TESTING": True})
    client = app.test_client()
    dbapi_error = engine.dialect.loaded_dbapi.OperationalError

    monkeypatch.setattr(clubstore, "token_for_authentication",
                        lambda conn, token_id: (_ for _ in ()).throw(
                            sa_exc.OperationalError("SELECT", {}, dbapi_error("gone"))))
    response = client.get("/sessions/no-such-session", headers=club.headers("treasurer"))
    problem = assert_problem(response, 503)
    assert problem["type"].endswith("database-unavailable"), problem
    assert response.headers.get("Retry-After")


def test_a_token_another_worker_revokes_is_refused_on_the_next_request(engine):
    """Two workers (two engines, each its own pool and what it knows of tokens): a token
    the first knows is refused by it as soon as the second's revocation has committed."""
    club = make_club(engine)
    here, there = Clubs(engine), Clubs(db.make_engine(engine.url))
    try:
        for _ in range(3):  # known now, without a query
            assert here.authenticate(club.tokens["dealer"]) is not None
        known = here.store.token_epoch()
        assert known is not None and here.store.token_epoch() == known
        there.revoke_token(club.token_ids["dealer"], club_id=club.club_id)
        assert here.store.token_epoch() != known
        assert here.authenticate(club.tokens["dealer"]) is None
        assert here.authenticate(club.tokens["treasurer"]) is not None
    finally:
        there.engine.dispose()


def test_a_known_token_is_still_refused_with_a_wrong_secret_or_once_expired(engine, monkeypatch):
    club = make_club(engine)
    clubs = Clubs(engine)
    issued = clubs.create_token(club.club_id, club.members["dealer"], "dealer", "phone",
                                expires_in_days=1)
    assert clubs.authenticate(issued["token"]) is not None
    token_id = issued["token_id"]
    wrong = f"loo_{token_id}_{'x' * 43}"
    assert clubs.authenticate(wrong) is None
    from ledger.clubs import service as clubs_module

    later = datetime.now(UTC) + timedelta(days=2)
    monkeypatch.setattr(clubs_module, "_now", lambda: later)
    assert clubs.authenticate(issued["token"]) is None


def _expire_and_revoke_directly(engine, expired: str, revoked: str) -> None:
    """What an operator's UPDATE does behind the service's back: no token epoch moves."""
    with engine.begin() as conn:
        conn.execute(update(tokens).where(tokens.c.id == expired)
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
        conn.execute(update(tokens).where(tokens.c.id == revoked)
                     .values(revoked_at=datetime.now(UTC)))


@pytest.mark.isolated
def test_an_expiry_or_revocation_made_in_the_database_counts_within_the_recheck_bound(
        engine):
    """LOO_TOKEN_RECHECK_S (here 0.3 s): a cached token is looked up again after it, so an
    UPDATE of its row made in the database directly is answered 401 within the bound."""
    club = make_club(engine)
    app = create_app({"ENGINE": engine, "TESTING": True, "TOKEN_RECHECK_S": 0.3})
    web = app.test_client()
    for role in ("dealer", "auditor", "treasurer"):  # cached now
        assert web.get("/club", headers=club.headers(role)).status_code == 200
    _expire_and_revoke_directly(engine, club.token_ids["dealer"], club.token_ids["auditor"])
    deadline = time.monotonic() + 0.3 + 1.0
    while web.get("/club", headers=club.headers("dealer")).status_code == 200 \
            or web.get("/club", headers=club.headers("auditor")).status_code == 200:
        assert time.monotonic() < deadline, "a changed token still answered after the bound"
        time.sleep(0.05)
    for role in ("dealer", "auditor"):
        assert_problem(web.get("/club", headers=club.headers(role)), 401)
    assert web.get("/club", headers=club.headers("treasurer")).status_code == 200


def test_without_the_recheck_bound_a_change_made_in_the_database_would_go_unseen(engine):
    """The counter-proof of the test above: a bound of an hour keeps the cached answer (the
    epoch alone does not see an UPDATE made behind the service's back)."""
    club = make_club(engine)
    clubs = Clubs(engine, recheck_s=3600)
    assert clubs.authenticate(club.tokens["dealer"]) is not None
    _expire_and_revoke_directly(engine, club.token_ids["auditor"], club.token_ids["dealer"])
    assert clubs.authenticate(club.tokens["dealer"]) is not None  # within the bound
    clubs.recheck_s = 0
    assert clubs.authenticate(club.tokens["dealer"]) is None


def test_a_cached_token_is_refused_by_its_own_expiry_without_a_lookup(engine, monkeypatch):
    club = make_club(engine)
    clubs = Clubs(engine, recheck_s=3600)
    issued = clubs.create_token(club.club_id, club.members["dealer"], "dealer", "phone",
                                expires_in_days=1)
    assert clubs.authenticate(issued["token"]) is not None
    from ledger.clubs import service as clubs_module

    lookups = _count(monkeypatch, clubstore, "token_for_authentication")
    later = datetime.now(UTC) + timedelta(days=2)
    monkeypatch.setattr(clubs_module, "_now", lambda: later)
    assert clubs.authenticate(issued["token"]) is None
    assert lookups == [], "the cached expiry, not a query, refused it"


def _count(monkeypatch, owner, name: str) -> list:
    calls: list = []
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        calls.append(args[1:])
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_an_unknown_token_id_costs_what_a_wrong_secret_costs(engine, monkeypatch):
    """Whether the id exists or not, authenticate hashes the secret, compares once in
    constant time and looks the id up once; a second try of either is answered from what
    the process found, without a query."""
    from ledger.clubs import service as clubs_module

    club = make_club(engine)
    clubs = Clubs(engine, recheck_s=3600)
    known_id = club.token_ids["dealer"]
    wrong_secret = f"loo_{known_id}_{'x' * 43}"
    unknown_id = f"loo_{'f' * 16}_{'x' * 43}"
    work: dict[str, tuple[int, int, int]] = {}
    for name, presented in (("wrong secret", wrong_secret), ("unknown id", unknown_id)):
        lookups = _count(monkeypatch, clubstore, "token_for_authentication")
        compares = _count(monkeypatch, clubs_module.hmac, "compare_digest")
        hashes = _count(monkeypatch, clubs_module, "hash_secret")
        for _ in range(3):
            assert clubs.authenticate(presented) is None
        work[name] = (len(lookups), len(compares), len(hashes))
        monkeypatch.undo()
    assert work["wrong secret"] == work["unknown id"] == (1, 3, 3), work
