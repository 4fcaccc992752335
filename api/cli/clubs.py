"""The clubs' commands of `lanterloo`: a club made, the sessions from before clubs brought
into one, its members and their bearer tokens.

    lanterloo club create NAME      # a new club; prints its first admin and their token
    lanterloo club attach CLUB --all     # the sessions from before clubs into a club
    lanterloo member add --club C NAME | lanterloo member list --club C
    lanterloo token create --club C --member M --role dealer --label "tablet 2"
    lanterloo token list --club C | lanterloo token revoke TOKEN_ID

Each runs through the clubs' service (ledger/clubs/service.py) after the schema is migrated;
a refusal is one line on stderr and exit status 2 (`with_clubs`, api/cli/main.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from api.cli import links as cli_links
from ledger.domain import LedgerError
from ledger.domain.access import Role

# main's runner: migrate, then `work(clubs)`; a refusal is one line on stderr and status 2.
WithClubs = Callable[[argparse.Namespace, Callable[[Any], int]], int]


def _print_token(token: dict[str, Any]) -> None:
    expires = token["expires_at"] or "never"
    print(f"token {token['token_id']}: {token['role']} for {token['member']} "
          f"({token['label']}), expires {expires}")
    print(f"  {token['token']}")
    print("  shown this once only: it is stored as a hash and cannot be shown again")


def cmd_club_create(args: argparse.Namespace, with_clubs: WithClubs) -> int:
    def work(clubs: Any) -> int:
        club, member, token = clubs.create_club(args.name, admin=args.admin,
                                                label=args.label,
                                                expires_in_days=args.expires_in_days)
        print(f"club {club['club_id']}: {club['name']}")
        print(f"member {member['member_id']}: {member['name']} (admin)")
        _print_token(token)
        cli_links.print_link(clubs, club["club_id"], member["member_id"], Role.ADMIN, args.url)
        from api.cli.audit import ensure_checkpoint_key

        ensure_checkpoint_key()
        return 0

    return with_clubs(args, work)


def cmd_club_attach(args: argparse.Namespace, with_clubs: WithClubs) -> int:
    """Sessions recorded before clubs into a club, each seat its member of that name or a
    new guest member (docs/operations.md, "Upgrading"); each one an event of its log."""
    from ledger.sessions.service import Ledger
    from ledger.writes import WriteRequest

    if bool(args.session) == bool(args.all):
        print("error: name the sessions, or --all (not both)", file=sys.stderr)
        return 2

    def work(clubs: Any) -> int:
        club = clubs.club(args.club)
        ledger = Ledger(clubs.engine).for_club(club["club_id"])
        session_ids = ([row.id for row in ledger.sessions_before_clubs()] if args.all
                       else args.session)
        if not session_ids:
            print("no session is outside a club: nothing to attach")
        refused = 0
        for session_id in session_ids:
            try:
                done = ledger.attach(session_id, WriteRequest(args.actor))
            except LedgerError as error:
                print(f"session {session_id}: not attached: {error.message}",
                      file=sys.stderr)
                refused += 1
                continue
            members = done.body["appended"][-1]["payload"]["members"]
            print(f"session {session_id}: attached to {club['name']} at version "
                  f"{done.version}: " + ", ".join(f"{seat} as {member}"
                                                  for seat, member in members.items()))
        return 2 if refused else 0

    return with_clubs(args, work)


def cmd_member_add(args: argparse.Namespace, with_clubs: WithClubs) -> int:
    def work(clubs: Any) -> int:
        club_id = clubs.club(args.club)["club_id"]
        member = clubs.add_member(club_id, args.name, guest=args.guest)
        print(f"member {member['member_id']}: {member['name']}"
              f"{' (guest)' if member['guest'] else ''}")
        return 0

    return with_clubs(args, work)


def cmd_member_list(args: argparse.Namespace, with_clubs: WithClubs) -> int:
    def work(clubs: Any) -> int:
        for member in clubs.members(clubs.club(args.club)["club_id"], retired=True):
            retired = f"  (retired {member['retired_at'][:10]})" if member["retired_at"] else ""
            print(f"{member['member_id']}  {member['name']}"
                  f"{'  (guest)' if member['guest'] else ''}{retired}")
        return 0

    return with_clubs(args, work)


def cmd_token_create(args: argparse.Namespace, with_clubs: WithClubs) -> int:
    def work(clubs: Any) -> int:
        club_id = clubs.club(args.club)["club_id"]
        _print_token(clubs.create_token(club_id, args.member, args.role, args.label,
                                        expires_in_days=args.expires_in_days))
        return 0

    return with_clubs(args, work)


def cmd_token_revoke(args: argparse.Namespace, with_clubs: WithClubs) -> int:
    def work(clubs: Any) -> int:
        token = clubs.revoke_token(args.token_id)
        print(f"token {token['token_id']} ({token['role']} for {token['member']}, "
              f"{token['label']}) revoked at {token['revoked_at']}")
        return 0

    return with_clubs(args, work)


def cmd_token_list(args: argparse.Namespace, with_clubs: WithClubs) -> int:
    def work(clubs: Any) -> int:
        for t in clubs.tokens(clubs.club(args.club)["club_id"]):
            print(f"{t['token_id']}  {t['status']:<7}  {t['role']:<9}  {t['member']}  "
                  f"{t['label']!r}  expires {t['expires_at'] or 'never'}")
        return 0

    return with_clubs(args, work)


def add_commands(sub: Any, common: argparse.ArgumentParser, with_clubs: WithClubs) -> None:
    """The `club`, `member` and `token` commands, each run by `with_clubs(args, work)`."""
    from ledger.clubs.service import ROLES

    def run(command: Callable[[argparse.Namespace, WithClubs], int]) -> Any:
        return lambda args: command(args, with_clubs)
    club = sub.add_parser("club", help="clubs").add_subparsers(dest="club_command",
                                                              required=True)
    create = club.add_parser("create", parents=[common],
                             help="a new club, its first member (admin) and their token")
    create.add_argument("name")
    create.add_argument("--admin", default="admin", help="the first member's display name")
    create.add_argument("--label", default="first admin token", help="the token's device")
    create.add_argument("--expires-in-days", type=int, default=None)
    create.add_argument("--url", default=cli_links.DEFAULT_URL,
                        help="where the service is reached, for the admin's sign-in link")
    create.set_defaults(func=run(cmd_club_create))
    cli_links.add_parser(club, common, ROLES,
                         run=lambda args: with_clubs(args, cli_links.work(args)))
    attach = club.add_parser("attach", parents=[common],
                             help="sessions recorded before clubs into a club, each seat the "
                                  "member of that name or a new guest member")
    attach.add_argument("club", help="the club's name or id")
    attach.add_argument("session", nargs="*", help="session ids")
    attach.add_argument("--all", action="store_true",
                        help="every session no club holds")
    attach.add_argument("--actor", default="operator",
                        help="the name the attachment is recorded under")
    attach.set_defaults(func=run(cmd_club_attach))

    member = sub.add_parser("member", help="a club's members").add_subparsers(
        dest="member_command", required=True)
    add = member.add_parser("add", parents=[common], help="add a member to a club")
    add.add_argument("--club", required=True, help="the club's name or id")
    add.add_argument("name", help="the display name, unique in the club whatever its case")
    add.add_argument("--guest", action="store_true")
    add.set_defaults(func=run(cmd_member_add))
    members = member.add_parser("list", parents=[common], help="a club's members")
    members.add_argument("--club", required=True)
    members.set_defaults(func=run(cmd_member_list))

    token = sub.add_parser("token", help="bearer tokens").add_subparsers(
        dest="token_command", required=True)
    new = token.add_parser("create", parents=[common],
                           help="a token for a member, with a role; printed once")
    new.add_argument("--club", required=True, help="the club's name or id")
    new.add_argument("--member", required=True, help="the member's name or id")
    new.add_argument("--role", required=True, choices=ROLES)
    new.add_argument("--label", required=True, help='the device, e.g. "tablet 2"')
    new.add_argument("--expires-in-days", type=int, default=None)
    new.set_defaults(func=run(cmd_token_create))
    revoke = token.add_parser("revoke", parents=[common], help="revoke a token by its id")
    revoke.add_argument("token_id")
    revoke.set_defaults(func=run(cmd_token_revoke))
    listing = token.add_parser("list", parents=[common], help="a club's tokens, no secrets")
    listing.add_argument("--club", required=True)
    listing.set_defaults(func=run(cmd_token_list))
