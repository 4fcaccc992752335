"""docs/rules.md §11.43 over HTTP on both databases: an unlimited-loo session driven to the
amount limit is refused with a 422 naming the rule, and stays usable: every read answers, the
amounts near the limit are stored and read back exactly, and the session ends with its pool
divided. (Past 2**63 units every append of such a session was a 500, for good.)"""

from __future__ import annotations

from ledger.domain.limits import MAX_AMOUNT_UNITS
from tests.rules.driver import Refused, RestTable
from tests.unit.test_amount_limit import open_unlimited, play_deal


def test_an_unlimited_loo_session_at_the_limit_reads_and_ends(client):
    table = RestTable(client)
    open_unlimited(table, 4, 10**8, None)
    deals = 0
    while True:
        try:
            play_deal(table, [0, 1, 0])  # the pool doubles or more at each deal
        except Refused as refused:
            status, problem = refused.status, refused.problem
            break
        deals += 1
        assert deals < 40, "40 deals and the limit was never reached"
    assert status == 422 and problem["rule"] == "amount-limit"
    assert problem["limit_units"] == MAX_AMOUNT_UNITS
    assert deals == 20
    view = table.session()
    assert view["deal_no"] == deals and view["expected"]["phase"] == "between-deals"
    # the largest amounts of the session, as stored and read back (a fifth of the limit)
    assert view["next_pool_units"] == 209715000000000
    assert max(abs(units) for units in view["balances"].values()) == 209713500000000
    assert client.get(f"/sessions/{table.sid}/statement").status_code == 200
    events = client.get(f"/sessions/{table.sid}/events?after={view['version'] - 3}")
    assert [e["version"] for e in events.get_json()["events"]] == \
        list(range(view["version"] - 2, view["version"] + 1))
    assert client.get(f"/sessions/{table.sid}/verify").get_json()["ok"] is True
    table.send("SessionEnded", method="divide-pool")
    final = table.session()
    assert final["status"] == "ended" and final["next_pool_units"] == 0
    assert sum(final["balances"].values()) == 0
