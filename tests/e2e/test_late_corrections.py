"""A late correction keeps the past, over HTTP on SQLite and PostgreSQL (docs/books.md,
"Corrections that keep the past").

The month (test_books_api's night, 10p a unit):

    Thursday  Ann -40, Bob +50, Cal -10        (Bob's 9H takes the single)
    entry 1   Cal pays the club 10 in cash
    entry 2   the club pays Bob 50 by transfer
    Friday    Ann -40, Bob +50, Cal -10
    then      Thursday is corrected: Cal held the KH, which beats Bob's 9H (docs/rules.md
              §10.1): Thursday is Ann -40, Bob -10, Cal +50

Thursday's lines stay where they were posted; the correction posts its difference at its
own time: Bob -60, Cal +60 (Ann unchanged: no line). Bob now owes 10, a new debt since the
correction (Friday's 50 paid the rest of it, FIFO); Cal's +60 pays off his Friday debt of
10 first and leaves the club owing him 50, since the correction; Ann's Thursday debt keeps
its age.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from .conftest import session_accounts
from .test_book_register import pay, reads
from .test_books_api import a_night

REASON = "Cal's card misread: the KH, not the KS"
CAL_HELD_KH = {"type": "DealStarted", "trump_card": "7H",
               "face_up": {"Ann": "5C", "Bob": "9H", "Cal": "KH"}}


def correct_thursday(client: Any, sid: str) -> int:
    """Void Thursday's deal and put the deal as it was in its place; the correction's
    version."""
    events = client.get(f"/sessions/{sid}/events").get_json()["events"]
    (dealt,) = [e["version"] for e in events if e["type"] == "DealStarted"]
    current = client.get(f"/sessions/{sid}").get_json()["version"]
    response = client.post(f"/sessions/{sid}/corrections", json={
        "voids": [dealt], "replacements": [CAL_HELD_KH], "reason": REASON},
        headers={"If-Match": f'"{current}"'})
    assert response.status_code == 201, response.get_json()
    (marker,) = [e for e in response.get_json()["appended"] if e["type"] == "EntryCorrected"]
    return int(marker["version"])


def month(client: Any) -> tuple[str, str]:
    thursday = a_night(client, "Thursday")
    pay(client, "Cal", "club", 10)
    pay(client, "club", "Bob", 50, method="transfer")
    friday = a_night(client, "Friday")
    return thursday, friday


def account(client: Any, member_id: str, **query: Any) -> dict[str, Any]:
    response = client.get(f"/members/{member_id}/account", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def reported(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines as reported, less what of each is still open (later lines settle it)."""
    return [{k: v for k, v in e.items() if k != "open_minor"} for e in entries]


def csv_rows(client: Any, url: str) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def test_a_late_correction_is_booked_as_an_adjustment_dated_when_it_was_made(tess, club):
    thursday, friday = month(tess)
    bob_id, cal_id, ann_id = (club.members[n] for n in ("Bob", "Cal", "Ann"))
    before = {m: account(tess, club.members[m], limit=100) for m in ("Ann", "Bob", "Cal")}
    bob_csv = csv_rows(tess, f"/members/{bob_id}/account?format=csv")
    debts_then = tess.get("/debts").get_json()["debts"]
    version = correct_thursday(tess, thursday)
    bob = account(tess, bob_id, limit=100)
    # what was reported before the correction is every line of it, running balances too
    assert reported(bob["entries"][:3]) == reported(before["Bob"]["entries"])
    assert [(e["kind"], e["amount_minor"], e["balance_minor"]) for e in bob["entries"]] == [
        ("session", 50, 50), ("payment", -50, 0), ("session", 50, 50),
        ("adjustment", -60, -10)]
    adjustment = bob["entries"][3]
    assert (adjustment["session_id"], adjustment["corrected_by"], adjustment["seq"]) == (
        thursday, version, None)
    assert adjustment["detail"]["reason"] == REASON
    assert adjustment["description"] == \
        f"correction of session Thursday (Bob), version {version}: {REASON}"
    assert adjustment["at"] > before["Bob"]["entries"][2]["at"]
    assert bob["balances"] == {"GBP": -10}
    # the current balance is the corrected result: Thursday -10, paid 50, Friday +50
    assert bob["balances"]["GBP"] == -10 - 50 + 50
    # the CSV of before is the head of the CSV of now
    now_csv = csv_rows(tess, f"/members/{bob_id}/account?format=csv")
    kept = [i for i, name in enumerate(bob_csv[0]) if name not in ("open", "open_minor")]
    assert [[r[i] for i in kept] for r in now_csv[:len(bob_csv)]] == \
        [[r[i] for i in kept] for r in bob_csv] and len(now_csv) == len(bob_csv) + 1
    assert now_csv[-1][2:4] == ["adjustment", adjustment["description"]]
    assert now_csv[-1][now_csv[0].index("corrected_by")] == str(version)
    # Cal: Thursday -10 paid; Friday -10 paid off by the +60; 50 owed to him since then
    cal = account(tess, cal_id, limit=100)
    assert reported(cal["entries"][:3]) == reported(before["Cal"]["entries"])
    assert [(e["kind"], e["amount_minor"], e["open_minor"]) for e in cal["entries"]] == [
        ("session", -10, 0), ("payment", 10, 0), ("session", -10, 0),
        ("adjustment", 60, 50)]
    assert account(tess, ann_id, limit=100)["entries"] == before["Ann"]["entries"]
    # the debts: Ann's keep their ages; Bob's 10 is new, since the correction, and links it
    debts = tess.get("/debts").get_json()["debts"]
    assert [d for d in debts if d["member_id"] == ann_id] == \
        [d for d in debts_then if d["member_id"] == ann_id]
    assert [(d["name"], d["amount_minor"], d["session_id"], d["kind"], d["corrected_by"],
             d["since"]) for d in debts] == [
        ("Ann", 40, thursday, "session", None, before["Ann"]["entries"][0]["at"]),
        ("Ann", 40, friday, "session", None, before["Ann"]["entries"][1]["at"]),
        ("Bob", 10, thursday, "adjustment", version, adjustment["at"])]
    payables = tess.get("/payables").get_json()["payables"]
    assert [(p["name"], p["amount_minor"], p["kind"], p["corrected_by"]) for p in payables] \
        == [("Cal", 50, "adjustment", version)]
    debts_csv = csv_rows(tess, "/debts?format=csv")
    assert debts_csv[-1][debts_csv[0].index("corrected_by")] == str(version)
    accounts = tess.get("/accounts").get_json()
    assert accounts["check"]["zero_sum"]
    assert {m["name"]: m["balances"] for m in accounts["members"] if m["balances"]} == {
        "Ann": {"GBP": -80}, "Bob": {"GBP": -10}, "Cal": {"GBP": 50}}
    # the session account of Thursday is still square: the adjustment balances
    assert f"session:{thursday}" not in accounts["accounts"]  # paged apart:
    assert session_accounts(tess)[f"session:{thursday}"] == {"GBP": 0}


def test_every_earlier_read_says_what_it_said_and_the_session_stays_in_its_month(tess, club):
    thursday, friday = month(tess)
    bob_id = club.members["Bob"]
    then = reads(tess, bob_id)
    at_entry_2 = reads(tess, bob_id, as_of="2")
    friday_end = account(tess, bob_id)["entries"][2]["at"]
    standings_then = tess.get("/standings", query_string={"until": friday_end}).get_json()
    page = f"/members/{bob_id}/account.html"
    page_then = tess.get(page, query_string={"as_of": friday_end}).get_data(as_text=True)
    ended = tess.get(f"/sessions/{thursday}").get_json()["version"]
    printed = f"/sessions/{thursday}/statement.html?as_of={ended}"
    printed_then = tess.get(printed).get_data(as_text=True)
    correct_thursday(tess, thursday)
    # Thursday's statement as printed at its end, chart and trail included, unchanged
    assert tess.get(printed).get_data(as_text=True) == printed_then
    assert tess.get(f"/sessions/{thursday}/statement.html").get_data(as_text=True) \
        != printed_then
    # his page as of Friday's end too, his line of Thursday read from its log as it was
    assert tess.get(page, query_string={"as_of": friday_end}).get_data(as_text=True) \
        == page_then
    assert _thursday_net(page_then, thursday) == "5"
    page_now = tess.get(page).get_data(as_text=True)
    assert _thursday_net(page_now, thursday) == "-1"
    assert page_now.count(f'id="s-{thursday}"') == 1
    # the sessions he played: Thursday once, its net the sum of its result and adjustment
    played = f"/members/{bob_id}/statements"
    assert [(s["session_id"], s["net_units"], s["net_minor"])
            for s in tess.get(played).get_json()["sessions"]] == [
        (friday, 5, 50), (thursday, -1, -10)]
    assert [(s["session_id"], s["net_units"], s["net_minor"]) for s in tess.get(
        played, query_string={"as_of": friday_end}).get_json()["sessions"]] == [
        (friday, 5, 50), (thursday, 5, 50)]
    # as of the last entry and as of Friday's end, every books read is what it was
    assert reads(tess, bob_id, as_of="2") == at_entry_2
    assert reads(tess, bob_id, as_of=friday_end) == then
    # a season read up to Friday keeps Thursday in it, as it was then
    standings = tess.get("/standings", query_string={"until": friday_end}).get_json()
    assert standings == standings_then
    assert [(s["name"], s["sessions"], s["net_minor"]) for s in standings["members"]] == [
        ("Ann", 2, {"GBP": -80}), ("Bob", 2, {"GBP": 100}), ("Cal", 2, {"GBP": -20})]
    # up to now, the correction's change is in: two sessions each, nets corrected
    now = tess.get("/standings").get_json()["members"]
    assert [(s["name"], s["sessions"], s["net_minor"]) for s in now] == [
        ("Ann", 2, {"GBP": -80}), ("Bob", 2, {"GBP": 40}), ("Cal", 2, {"GBP": 40})]


def test_explain_shows_the_corrected_posting_beside_its_correction(tess, club):
    thursday, _ = month(tess)
    version = correct_thursday(tess, thursday)
    trail = tess.get(f"/sessions/{thursday}/explain").get_json()
    (correction,) = trail["corrections"]
    assert (correction["version"], correction["reason"], correction["authorised_by"]) == (
        version, REASON, correction["actor"])
    events = tess.get(f"/sessions/{thursday}/events").get_json()["events"]
    (logged,) = [e for e in events if e["version"] == version]
    assert (correction["recorded_at"], correction["actor"]) == (logged["recorded_at"],
                                                                logged["actor"])
    postings = {f["account"]: f["postings"] for f in trail["figures"]}
    cal_corrected = [(p["from"], p["amount_units"], p["correction"]["version"])
                     for p in postings["Cal"] if p["correction"]]
    bob_corrected = [(p["to"], p["amount_units"], p["correction"]["reason"])
                     for p in postings["Bob"] if p["correction"]]
    # Cal now takes Thursday's pool of 3; Bob is looed 3 for the next pool
    assert cal_corrected == [("pool", 3, version)]
    assert bob_corrected == [("next_pool", 3, REASON)]
    # Ann's deal price, her loo and the division at the end were logged so
    assert all(p["correction"] is None for p in postings["Ann"])
    rows = csv_rows(tess, f"/sessions/{thursday}/explain?format=csv&table=postings")
    header = rows[0]
    marked = [r for r in rows[1:] if r[header.index("corrected_by")]]
    assert {r[header.index("correction_reason")] for r in marked} == {REASON}
    assert {r[header.index("corrected_by")] for r in marked} == {str(version)}


def _thursday_net(html: str, thursday: str) -> str:
    """The net in units the member's page gives his line of Thursday."""
    part = html[html.index(f'id="s-{thursday}"'):]
    return part[part.index('data-net-units="') + 16:].split('"', 1)[0]
