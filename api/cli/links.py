"""`lanterloo club link`: a sign-in link for a member and a role, and the admin's first one
printed by `lanterloo club create` (ledger/clubs/signin.py; docs/desk.md)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

DEFAULT_URL = "http://localhost:8000"


def print_link(clubs: Any, club_id: str, member_id: str, role: str, base: str) -> None:
    """A sign-in link for the member and role: the desk with its code in the fragment."""
    from ledger.clubs.signin import SignIn

    made = SignIn(clubs.engine).create_link(club_id, member=member_id, role=role,
                                            created_by=member_id, at_command_line=True)
    minutes = made["expires_in_seconds"] // 60
    print(f"sign-in link for {made['member']} ({role}), good once within {minutes} minutes:")
    print(f"  {base.rstrip('/')}/desk#signin={made['code']}")


def work(args: argparse.Namespace) -> Callable[[Any], int]:
    def run(clubs: Any) -> int:
        club = clubs.club(args.club)
        member = clubs.member(club["club_id"], args.member)
        print_link(clubs, club["club_id"], member["member_id"], args.role, args.url)
        return 0

    return run


def add_parser(club: Any, common: argparse.ArgumentParser, roles: Sequence[str], *,
               run: Callable[[argparse.Namespace], int]) -> None:
    link = club.add_parser("link", parents=[common],
                           help="a sign-in link for a member and a role (the desk, once, "
                                "within 30 minutes)")
    link.add_argument("club", help="the club's name or id")
    link.add_argument("--member", required=True, help="the member's name or id")
    link.add_argument("--role", required=True, choices=roles)
    link.add_argument("--url", default=DEFAULT_URL, help="where the service is reached")
    link.set_defaults(func=run)
