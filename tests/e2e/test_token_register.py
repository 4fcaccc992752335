"""GET /audit/tokens: the tokens a member issued that someone should review, with who issued
them, with which token, when and the role: an admin giving himself a treasurer's token is
listed; a token issued at the command line, or an auditor's token for someone else, is not."""

from __future__ import annotations

from ledger.clubs.service import Clubs
from tests.clubs import make_club


def _issue(http, token: str, member: str, role: str, label: str) -> dict:
    response = http.post("/tokens", json={"member": member, "role": role, "label": label},
                         headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_an_admin_who_issues_himself_a_treasurer_token_is_in_the_register(app, engine):
    club = make_club(engine, "Register")
    http = app.test_client()
    admin = club.tokens["admin"]
    mine = _issue(http, admin, club.members["admin"], "treasurer", "my laptop")
    tablet = _issue(http, admin, club.members["dealer"], "dealer", "tablet 1")
    _issue(http, admin, club.members["auditor"], "auditor", "auditor's laptop")  # not listed
    Clubs(engine).create_token(club.club_id, club.members["admin"], "treasurer", "cli")
    register = http.get("/audit/tokens", headers={"Authorization": f"Bearer "
                                                  f"{club.tokens['auditor']}"})
    assert register.status_code == 200
    listed = register.get_json()["tokens"]
    assert [t["token_id"] for t in listed] == [mine["token_id"], tablet["token_id"]]
    first = listed[0]
    assert first["issued_at"] == mine["created_at"]
    assert {k: v for k, v in first.items() if k != "issued_at"} == {
        "token_id": mine["token_id"], "member_id": club.members["admin"], "member": "admin",
        "role": "treasurer", "label": "my laptop", "revoked_at": None,
        "issued_by": club.members["admin"], "issued_by_name": "admin",
        "issued_with": club.token_ids["admin"], "issuer_role": "admin",
        "reasons": ["self-issued", "beyond-issuer-role"]}
    assert listed[1]["member"] == "dealer" and listed[1]["reasons"] == ["beyond-issuer-role"]
    # revoked, it stays listed, as revoked
    http.delete(f"/tokens/{mine['token_id']}", headers={"Authorization": f"Bearer {admin}"})
    again = http.get("/audit/tokens", headers={"Authorization": f"Bearer {admin}"})
    assert again.get_json()["tokens"][0]["revoked_at"] is not None
