"""Corrections over HTTP on SQLite and PostgreSQL: void, replace, undo; never an edit."""

from __future__ import annotations

from typing import Any

from ledger.sessions.service import Ledger

from .conftest import EXAMPLE_1, Table, assert_problem, open_table

# Deal 2 of the worked examples (B deals, spades trumps): C, D and E stand, by quick entry.
DEAL_2 = [{"type": "DealStarted", "trump_card": "2S"},
          *({"type": "DeclarationMade", "player": p, "declaration": d}
            for p, d in (("C", "play"), ("D", "play"), ("E", "play"), ("A", "throw_up"),
                         ("B", "throw_up")))]


def deal(winners: list[str], trump: str = "3H") -> list[dict[str, Any]]:
    """A hand in which everyone stands (after a loo it is no fresh pool), by quick entry."""
    order = {"3H": ("D", "E", "A", "B", "C"), "4C": ("E", "A", "B", "C", "D")}[trump]
    return [{"type": "DealStarted", "trump_card": trump},
            *({"type": "DeclarationMade", "player": p, "declaration": "play"} for p in order),
            *({"type": "TrickWon", "winner": w} for w in winners)]


def log(table: Table, entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        table.append(entry)


def events(table: Table) -> list[dict[str, Any]]:
    response = table.client.get(f"{table.url}/events?limit=1000")
    assert response.status_code == 200
    return response.get_json()["events"]


def books(table: Table) -> dict[str, Any]:
    """The statement's figures (what a session logged right must equal)."""
    st = table.client.get(f"{table.url}/statement").get_json()
    return {"players": [{k: row[k] for k in ("player", "paid_units", "received_units",
                                             "net_units")} for row in st["players"]],
            "pool": {k: st["pool"][k] for k in ("current_pool_units", "next_pool_units")},
            "transfers": st["settlement"]["transfers"], "deals": st["deals"],
            "outcomes": st["outcomes"]}


def correct(table: Table, body: dict[str, Any], status: int = 201) -> Any:
    response = table.client.post(f"{table.url}/corrections", json=body,
                                 headers={"If-Match": f'"{table.version()}"'})
    assert response.status_code == status, response.get_json()
    return response


def test_a_wrong_trick_winner_corrected_two_deals_later_reads_as_if_logged_right(client):
    right = open_table(client, preset="baxter-wray", first_dealer="A")
    wrong = open_table(client, preset="baxter-wray", first_dealer="A")
    for table, second in ((right, "D"), (wrong, "C")):
        log(table, [EXAMPLE_1, *DEAL_2, {"type": "TrickWon", "winner": "C"},
                    {"type": "TrickWon", "winner": second},
                    {"type": "TrickWon", "winner": "C"}])
        log(table, deal(["D", "D", "E"], "3H") + deal(["A", "B", "A"], "4C"))
    mistaken = [e for e in events(wrong) if e["type"] == "TrickWon"][1]
    assert mistaken["payload"]["winner"] == "C"
    before = len(events(wrong))
    response = correct(wrong, {"voids": [mistaken["version"]],
                               "replacements": [{"type": "TrickWon", "winner": "D"}],
                               "reason": "trick 2 of deal 2 was D's"})
    appended = response.get_json()["appended"]
    assert appended[0]["type"] == "EntryCorrected"
    marker = appended[0]["payload"]
    assert marker["voids"][0]["version"] == mistaken["version"]
    assert marker["changes"]  # C won one share less, D one more: later deals moved too
    assert books(wrong) == books(right)
    # the log keeps both: the mistaken entry is still there, and the correction after it
    after = events(wrong)
    assert after[:before] == events(wrong)[:before]
    assert any(e["version"] == mistaken["version"] and e["payload"]["winner"] == "C"
               for e in after)
    # ... marked superseded by the correction, as is every event of the tail as first logged
    marker_version = appended[0]["version"]
    assert {e["version"]: e["superseded_by"] for e in after if e["superseded_by"]} == {
        v: marker_version for v in range(mistaken["version"], marker_version)}
    assert all(e["superseded_by"] is None for e in after if e["version"] >= marker_version)
    deal_2 = wrong.client.get(f"{wrong.url}/deals/2").get_json()
    assert [c["reason"] for c in deal_2["corrections"]] == ["trick 2 of deal 2 was D's"]
    statement = wrong.client.get(f"{wrong.url}/statement").get_json()
    assert statement["corrections"][0]["authorised_by"] == "treasurer"


def test_the_projections_of_a_corrected_session_equal_a_rebuild_from_its_log(client, engine):
    table = open_table(client, preset="baxter-wray", first_dealer="A")
    log(table, [EXAMPLE_1, *DEAL_2, *({"type": "TrickWon", "winner": w} for w in "CDC")])
    log(table, deal(["D", "D", "E"], "3H"))
    first_trick = next(e for e in events(table) if e["type"] == "TrickWon")
    # E won the first trick, not C: then nobody is looed in deal 2 and deal 3 would be a
    # turn-up single, which deal 3 as logged is not: refused, naming that entry
    response = correct(table, {"voids": [first_trick["version"]], "reason": "E",
                               "replacements": [{"type": "TrickWon", "winner": "E"}]}, 422)
    assert "turn-up single" in response.get_json()["detail"]
    correct(table, {"voids": [first_trick["version"]],
                    "replacements": [{"type": "TrickWon", "winner": "D"}], "reason": "D"})
    table.client.post(f"{table.url}/undo", json={"reason": "last trick was wrong"},
                      headers={"If-Match": f'"{table.version()}"'})
    assert Ledger(engine).verify(table.sid) == []


def test_undo_voids_the_last_entry_with_an_event_and_nothing_is_deleted(client):
    table = open_table(client, preset="baxter-wray", first_dealer="A")
    log(table, [EXAMPLE_1, *DEAL_2])
    table.send("TrickWon", winner="E")
    before = events(table)
    response = table.client.post(f"{table.url}/undo", json={},
                                 headers={"If-Match": f'"{table.version()}"'})
    assert response.status_code == 201, response.get_json()
    after = events(table)
    unmarked = [{**e, "superseded_by": None} for e in after[:len(before)]]
    assert unmarked == before  # nothing deleted or changed ...
    assert after[len(before) - 1]["superseded_by"] == after[len(before)]["version"]  # ... marked
    assert after[len(before)]["type"] == "EntryCorrected"
    view = table.view()
    assert view["expected"]["actions"][0]["type"] in ("CardPlayed", "TrickWon")
    assert view["expected"]["actions"][1]["trick"] == 1  # trick 1 is to be entered again


def test_a_correction_the_rest_of_the_session_cannot_follow_is_refused(client):
    table = open_table(client, preset="baxter-wray", first_dealer="A")
    log(table, [EXAMPLE_1, *DEAL_2])
    table.play(("C", "AH"), ("D", "5H"), ("E", "2H"))
    declared = next(e for e in events(table) if e["type"] == "DeclarationMade"
                    and e["payload"]["player"] == "E")
    before = table.version()
    response = table.client.post(f"{table.url}/corrections", json={
        "voids": [declared["version"]],
        "replacements": [{"type": "DeclarationMade", "player": "E", "declaration": "throw_up"}],
        "reason": "E threw up"}, headers={"If-Match": f'"{before}"'})
    problem = assert_problem(response, 422, rule="correction-consistent",
                             mentions=("no longer fits", "CardPlayed"))
    assert problem["refused_by"] == "standing-player"
    assert table.version() == before


def test_entries_the_rules_drew_cannot_be_voided_and_the_version_is_checked(client):
    table = open_table(client, preset="baxter-wray", first_dealer="A")
    log(table, [EXAMPLE_1])
    settled = next(e for e in events(table) if e["type"] == "DealSettled")
    response = table.client.post(f"{table.url}/corrections", json={
        "voids": [settled["version"]], "reason": "no"},
        headers={"If-Match": f'"{table.version()}"'})
    assert_problem(response, 422, rule="correction-voids", mentions=("drawn by the rules",))
    response = table.client.post(f"{table.url}/corrections", json={
        "voids": [2], "reason": "stale"}, headers={"If-Match": '"1"'})
    assert_problem(response, 409, rule="expected-version")
    response = table.client.post(f"{table.url}/corrections", json={"voids": [2]})
    assert_problem(response, 422, mentions=("reason",))


def test_a_dealer_undoes_only_his_own_entry(app, engine):
    from tests.clubs import club_client, make_club

    club = make_club(engine)
    treasurer = club_client(app, engine, club=club)
    dealer = club_client(app, engine, role="dealer", club=club)
    table = open_table(treasurer, preset="baxter-wray", first_dealer="A")
    log(table, [EXAMPLE_1])
    as_dealer = Table(dealer, table.sid)
    response = dealer.post(f"{table.url}/undo", json={},
                           headers={"If-Match": f'"{table.version()}"'})
    assert_problem(response, 403, rule="undo-own-entry")
    as_dealer.send("DealStarted", trump_card="2S")
    response = dealer.post(f"{table.url}/undo", json={},
                           headers={"If-Match": f'"{table.version()}"'})
    assert response.status_code == 201, response.get_json()
    assert table.view()["deal_no"] == 1
