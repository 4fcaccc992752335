"""The capacity benchmark's tables log what a tablet would: every entry of its evening (quick
deals and card-by-card deals, played in memory by bench/capacity.py) is taken by the ledger
over HTTP, in order, each at the version the one before it left, and the deals settle."""

from __future__ import annotations

from bench import capacity


def test_a_benchmark_tables_evening_is_logged_whole_over_http(database_url):
    [club] = capacity._prepare(database_url, 1)
    evening = capacity.script(seed=3, deals=6)
    assert {entry for entry, _ in evening[1:]} == {"quick", "cards"}
    assert any(len(bodies) >= 21 for entry, bodies in evening if entry == "cards")

    from api import create_app

    app = create_app({"DATABASE_URL": database_url})
    client = app.test_client()
    opened = client.post("/sessions", json={"name": "capacity", "players": capacity.PLAYERS,
                                            "preset": "baxter-wray", "first_dealer": "A"},
                         headers={"Authorization": f"Bearer {club['treasurer']}"})
    assert opened.status_code == 201, opened.get_json()
    sid, version = opened.get_json()["session_id"], opened.get_json()["version"]
    for _, bodies in evening:
        for body in bodies:
            resp = client.post(f"/sessions/{sid}/events", data=body, headers={
                "Authorization": f"Bearer {club['dealer']}", "If-Match": f'"{version}"',
                "Content-Type": "application/json"})
            assert resp.status_code == 201, (body, resp.get_json())
            version = resp.get_json()["session"]["version"]
    session = client.get(f"/sessions/{sid}",
                         headers={"Authorization": f"Bearer {club['dealer']}"}).get_json()
    app.extensions["lanterloo"].engine.dispose()
    assert session["deal_no"] == len(evening)
    assert session["deal"]["phase"] == "settled"
