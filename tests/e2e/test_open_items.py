"""The members' open items kept as written (`open_items`) and what is left in sessions
(`session_totals`), on SQLite and PostgreSQL (docs/books.md, "Open items"):
after a month of sessions ended at the table, payments, a reversal, a write-off, a cash
count, a late correction, a closing and a reversal in the closed month, the table is what
the walk of the books finds, /debts and /payables of now (read from it, a page at a time)
say what the walk as of the last entry says; verify names a kept open item (and a kept
total) that is not the walk's, and `lanterloo migrate` writes them again; the upgrade that
makes them fills them for a database with its books written already.
"""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import select, update

from api.cli.main import main
from ledger.books.service import Books
from ledger.store import openitems
from ledger.store.db import connection_for
from ledger.store.migrate import alembic_config, upgrade
from ledger.store.tables import open_items, session_totals

from .test_book_postings import a_month_closed


def kept(engine: Any, club_id: str) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return sorted(openitems._compared(r) for r in conn.execute(
            select(open_items).where(open_items.c.club_id == club_id)))


def test_the_open_items_are_the_walks_and_the_pages_of_now_what_it_lists(tess, club,
                                                                          monkeypatch, engine):
    a_month_closed(tess, monkeypatch)
    assert Books(engine, club.club_id).verify() == []
    with engine.connect() as conn:
        assert kept(engine, club.club_id) == sorted(
            openitems._compared(r) for r in openitems.walked(conn, club.club_id))
    last = tess.get("/accounts").get_json()["log"]["entries"]
    for side in ("debts", "payables"):
        now = tess.get(f"/{side}").get_json()
        then = tess.get(f"/{side}?as_of={last}").get_json()
        assert then.pop("as_of")["seq"] == last
        assert now == then and now[side], side
        pages, after = [], 0
        while after is not None:
            page = tess.get(f"/{side}?limit=1&after={after}").get_json()
            assert page["totals"] == now["totals"]
            pages += page[side]
            after = page["next_after"]
        assert pages == now[side]
        past = tess.get(f"/{side}?limit=1&after={len(pages)}").get_json()
        assert (past[side], past["next_after"]) == ([], None)
        assert tess.get(f"/{side}?limit=1&after=-1").status_code == 422


def test_verify_names_an_open_item_and_a_total_not_the_walks_and_migrate_writes_them_again(
        tess, club, monkeypatch, engine, capsys):
    a_month_closed(tess, monkeypatch)
    books = Books(engine, club.club_id)
    before = kept(engine, club.club_id)
    o, t = open_items.c, session_totals.c
    with engine.begin() as conn:
        line = conn.execute(select(o.member_id, o.line, o.open_minor)
                            .where(o.club_id == club.club_id)
                            .order_by(o.at, o.line)).first()
        assert line is not None
        conn.execute(update(open_items).where(o.club_id == club.club_id,
                                              o.member_id == line.member_id,
                                              o.line == line.line)
                     .values(open_minor=o.open_minor * 2))
        conn.execute(update(session_totals).where(t.club_id == club.club_id)
                     .values(amount_minor=t.amount_minor + 7))
    found = books.verify()
    assert any(f.startswith(f"open_items: member {line.member_id}'s line {line.line} (GBP) "
                            f"holds {2 * line.open_minor} open, the walk finds "
                            f"{line.open_minor}") for f in found), found
    assert any(f.startswith("session_totals: sessions GBP holds") for f in found), found
    url = engine.url.render_as_string(hide_password=False)
    assert main(["migrate", "--database-url", url]) == 0
    assert f"club {club.club_id}: its postings' table rebuilt" in capsys.readouterr().out
    assert books.verify() == []
    assert kept(engine, club.club_id) == before


@pytest.mark.isolated
def test_the_upgrade_to_the_open_items_fills_them_from_the_books(tess, club, monkeypatch,
                                                                  engine):
    a_month_closed(tess, monkeypatch)
    before = kept(engine, club.club_id)
    answers = {side: tess.get(f"/{side}").get_json() for side in ("debts", "payables")}
    assert before and all(answers[side][side] for side in answers)
    with connection_for(engine) as conn:  # back to before the tables, then up again
        config = alembic_config()
        config.attributes["connection"] = conn
        (ours,) = [r for r in ScriptDirectory.from_config(config).walk_revisions()
                   if r.path.endswith("_open_items.py")]
        command.downgrade(config, str(ours.down_revision))  # to before it
    upgrade(engine)
    assert kept(engine, club.club_id) == before
    assert Books(engine, club.club_id).verify() == []
    assert {side: tess.get(f"/{side}").get_json() for side in answers} == answers
