"""A club's opening balances imported from a CSV file, over HTTP and the command line, on
SQLite and PostgreSQL (docs/books.md, "Opening balances"): all or nothing, every bad line
named, the same file twice recorded once."""

from __future__ import annotations

import argparse
import io
from typing import Any

from api.cli import books as cli_books
from api.cli.main import main

from .clock import past_month
from .conftest import assert_problem

GOOD = ("member,amount,currency,as_of,note\n"
        "Ann,-12.50,GBP,2026-09-30,the old book p. 4\n"
        "Bob,3.20,GBP,2026-09-30,\n")
BAD = ("member,amount,currency,as_of,note\n"
       "Ann,-12.50,GBP,2026-09-30,the old book p. 4\n"
       "Zed,1.00,GBP,2026-09-30,\n"
       "Bob,3.205,GBP,2026-09-30,\n"
       "Cal,2.00,GBP,2999-01-01,\n"
       "Cal,2.00,XXX,2026-09-30\n")


def send(client: Any, text: str, key: str | None = None) -> Any:
    headers = {"Idempotency-Key": key} if key else {}
    return client.post("/opening-balances", data=text.encode(), content_type="text/csv",
                       headers=headers)


def entries(client: Any) -> list[dict[str, Any]]:
    return client.get("/book-entries").get_json()["entries"]


def test_a_file_with_bad_lines_is_refused_whole_naming_every_bad_line(tess, club):
    problem = assert_problem(send(tess, BAD), 422, rule="opening-balances")
    assert [(line["line"], line["field"], line["rule"]) for line in problem["lines"]] == [
        (3, "member", "member-exists"), (4, "amount", "amount-decimals"),
        (5, "as_of", "as-of-future"), (6, "line", "csv-columns")]
    assert entries(tess) == []
    assert_problem(send(tess, "name,amount\nAnn,1\n"), 422, rule="csv-columns")
    assert_problem(send(tess, "member,amount,currency,as_of,note\n"), 422,
                   rule="opening-balances-empty")
    assert_problem(tess.post("/opening-balances", json={"member": "Ann"}), 415)
    assert entries(tess) == []


def test_opening_balances_are_dated_entries_on_the_members_accounts(tess, club):
    done = send(tess, GOOD)
    assert done.status_code == 201, done.get_json()
    recorded = done.get_json()["entries"]
    assert [(e["type"], e["payload"]["amount_minor"], e["payload"]["as_of"],
             e["payload"]["line"]) for e in recorded] == [
        ("OpeningBalance", -1250, "2026-09-30", 2), ("OpeningBalance", 320, "2026-09-30", 3)]
    accounts = tess.get("/accounts").get_json()
    balances = {m["name"]: m["balances"] for m in accounts["members"] if m["balances"]}
    assert balances == {"Ann": {"GBP": -1250}, "Bob": {"GBP": 320}}
    assert accounts["accounts"]["club:opening-balances"] == {"GBP": 930}
    assert accounts["check"]["zero_sum"] and accounts["log"]["chain_ok"]
    ann = tess.get(f"/members/{club.members['Ann']}/account").get_json()
    (line,) = ann["entries"]
    assert (line["kind"], line["description"]) == (
        "opening-balance", "opening balance as of 2026-09-30: the old book p. 4")
    assert [(d["name"], d["amount_minor"], d["kind"]) for d in
            tess.get("/debts").get_json()["debts"]] == [("Ann", 1250, "opening-balance")]
    # the pages show them as any line: the member's own and the club's
    page = tess.get(f"/members/{club.members['Ann']}/account.html")
    assert page.status_code == 200 and "12.50" in page.get_data(as_text=True)
    assert tess.get("/standings.html").status_code == 200


def test_the_same_file_twice_is_recorded_once(tess, club):
    first = send(tess, GOOD)
    assert first.status_code == 201
    again = send(tess, GOOD)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    form = tess.post("/opening-balances", data={"file": (io.BytesIO(GOOD.encode()), "o.csv")},
                     content_type="multipart/form-data")
    assert form.status_code == 201 and form.headers["Idempotent-Replayed"] == "true"
    # under a key of its own, or from the command line, the file is known by its content
    assert_problem(send(tess, GOOD, key="another"), 409, rule="opening-balances-imported")
    assert len(entries(tess)) == 2
    # a reversed import may be imported again (corrected, or as it was)
    for seq in (1, 2):
        assert tess.post(f"/book-entries/{seq}/reversal",
                         json={"reason": "wrong book"}).status_code == 201
    assert send(tess, GOOD, key="again").status_code == 201
    assert len(entries(tess)) == 6


def test_the_command_line_imports_through_the_same_service(tess, club, engine, tmp_path,
                                                           capsys):
    path = tmp_path / "opening.csv"
    path.write_text(GOOD, encoding="utf-8")
    url = engine.url.render_as_string(hide_password=False)
    assert main(["books", "import-opening", str(path), "--club", club.club_id,
                 "--database-url", url]) == 0
    assert "recorded: 2 opening balance(s), book entries 1 to 2" in capsys.readouterr().out
    args = argparse.Namespace(file=str(path), club=club.club_id, actor="operator")
    assert cli_books.cmd_import_opening(args, engine) == 0
    assert "already recorded" in capsys.readouterr().out
    assert_problem(send(tess, GOOD), 409, rule="opening-balances-imported")
    path.write_text(BAD, encoding="utf-8")
    assert cli_books.cmd_import_opening(args, engine) == 2
    err = capsys.readouterr().err
    assert "line 3: member: no member Zed" in err and "line 6:" in err
    assert [e["actor"] for e in entries(tess)] == ["operator", "operator"]


def test_a_balance_dated_in_a_closed_month_is_refused(tess, club):
    month = past_month()
    assert tess.post(f"/periods/{month}/closing", json={}).status_code == 201
    dated = GOOD.replace("2026-09-30", f"{month}-15")
    problem = assert_problem(send(tess, dated), 422, rule="opening-balances")
    assert {(line["line"], line["rule"]) for line in problem["lines"]} == {
        (2, "period-closed"), (3, "period-closed")}
    assert [e["kind"] for e in entries(tess)] == ["period-closed"]
