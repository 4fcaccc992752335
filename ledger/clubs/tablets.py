"""What the dealer's tablet needs beyond the ledger: signing a tablet in with a pairing code,
the club's open sessions to pick from, and who logged the last entries of a session.

    tablets = Tablets(engine)
    code = tablets.create_code(club_id, session_id, created_by=treasurer_id,
                               member=dealer_id)                          # code["code"]
    paired = tablets.exchange(code["code"])    # paired["token"]: a dealer token, shown once

A pairing code is eight symbols of an alphabet with no 0/O or 1/I (40 bits), shown as
"K7QM-3XPD" and in a QR code on the treasurer's screen (api/routes/tablets.py), made and
spent as every code exchanged for a token is (ledger/clubs/codes.py). It is good for
CODE_LIFETIME, once: exchanged for a dealer token of the club that lasts TOKEN_LIFETIME (an
evening), for the session it was made for. Only its SHA-256 is stored. Its first symbols find
its row, so a wrong guess at the rest counts against that code, which dies after a few
failures; the API limits failed exchanges per address as well. Unknown, expired, used, dead
or wrong: one answer, so that none can be told from another.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from ledger.clubs import codes
from ledger.clubs.codes import ALPHABET
from ledger.clubs.service import (
    Actor,
    NotFound,
    check_current,
    create_short_lived_token,
    name_key,
)
from ledger.domain import InvalidInput, LedgerError, event_from_record, event_to_record
from ledger.domain.access import Role
from ledger.domain.vocabulary import Status
from ledger.store import clubstore, open_store
from ledger.store import tabletstore as store
from ledger.store.chain import utc_iso
from ledger.store.queries import load_session

__all__ = ["Tablets", "PairingRefused", "CODE_LIFETIME", "TOKEN_LIFETIME", "ALPHABET",
           "normalise_code"]

CODE_LENGTH = 8
CODE_LIFETIME = timedelta(minutes=10)
TOKEN_LIFETIME = timedelta(hours=12)
ROLE = Role.DEALER
MAX_SESSIONS = 20  # the open sessions among the club's most recently written
MAX_ENTRIES = 200


class PairingRefused(LedgerError):
    """A code that signs nothing in: unknown, expired, used, dead or mistyped."""

    code = "pairing-refused"


def normalise_code(raw: object) -> str:
    """The code as stored: capitals, without the spaces or dashes it was shown or typed with."""
    if not isinstance(raw, str):
        raise InvalidInput("a pairing code is 8 letters and digits", rule="pairing-code",
                           field="code")
    return codes.normalise(raw, CODE_LENGTH, "a pairing code is 8 letters and digits (no 0, "
                           "1, I or O), as the treasurer's screen shows it",
                           rule="pairing-code")


def shown(code: str) -> str:
    """How the screen shows a code: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


class Tablets:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.store = open_store(engine)

    # -- pairing ----------------------------------------------------------------------------

    def create_code(self, club_id: str, session_id: str, *, created_by: str,
                    member: str, label: str | None = None,
                    now: datetime | None = None) -> dict[str, Any]:
        """A code that signs a tablet in to `session_id` (open, of the club) as a dealer:
        the token is `member`'s (an id or a name: the person who will log at that tablet, so
        that the log names him, never the one who showed the code), labelled `label` (by
        default "Tablet <n>", n counting the tablets paired to the session). Its expiry is
        set and judged by the database's clock (`Tx.now`), so every host agrees on it."""
        if label is not None and (not isinstance(label, str) or not 1 <= len(label) <= 100
                                  or not label.isprintable()):
            raise InvalidInput("label must be 1 to 100 printable characters",
                               rule="token-label", field="label")
        with self.store.transaction() as tx:
            conn = tx.conn
            now = now or tx.now()
            row = load_session(conn, session_id, club_id=club_id)
            if row is None:
                raise NotFound(f"no session {session_id}", rule="session-exists",
                               field="session_id")
            if row.state.get("status") != Status.OPEN:
                raise InvalidInput("the session has ended: a tablet can be paired to an open "
                                   "session only", rule="session-open", field="session_id")
            if not isinstance(member, str) or not member.strip():
                raise InvalidInput("name the member who will log at the tablet: its entries "
                                   "are recorded in his name", rule="pairing-member",
                                   field="member")
            found = clubstore.find_member(conn, club_id, member_id=member) \
                or clubstore.find_member(conn, club_id, name_key=name_key(member))
            if found is None:
                raise NotFound(f"no member {member} in the club", rule="member-exists",
                               field="member")
            check_current(found)
            member_id = found.id
            expires = now + CODE_LIFETIME
            code_id, code = codes.make(conn, length=CODE_LENGTH, club_id=club_id,
                                       member_id=member_id, role=ROLE, created_by=created_by,
                                       expires_at=expires, now=now, session_id=session_id,
                                       label=label or "")
            who = clubstore.find_member(conn, club_id, member_id=member_id)
        return {"pairing_id": code_id, "code": shown(code), "session_id": session_id,
                "session_name": row.state.get("name", ""), "member": who.name,
                "role": ROLE, "label": label, "expires_at": expires.isoformat(),
                "expires_in_seconds": int(CODE_LIFETIME.total_seconds())}

    def exchange(self, raw: object, *, now: datetime | None = None) -> dict[str, Any]:
        """The dealer token a code signs in (its secret shown this once), and the session it
        is for; the code is spent. Refused alike whatever is wrong with the code."""
        code = normalise_code(raw)
        refused = PairingRefused("that pairing code is unknown, used or expired: ask the "
                                 "treasurer's screen for a new one", rule="pairing-code",
                                 field="code")
        with self.store.transaction() as tx:
            conn = tx.conn
            now = now or tx.now()  # the clock that set the code's expiry
            self.store.tokens_changed(tx)  # a token is made

            def issue(match: Any) -> dict[str, Any]:
                label = match.label \
                    or f"Tablet {store.codes_used_for(conn, match.session_id) + 1}"
                # issued on the word of the member who showed the code
                return create_short_lived_token(conn, match.club_id, match.member_id, ROLE,
                                                label, lifetime=TOKEN_LIFETIME, now=now,
                                                by=Actor("pairing code", match.created_by))

            spent = codes.spend(conn, code, now, for_session=True, issue=issue,
                                refused=refused)
            if spent is not None:
                match, token = spent
                club = clubstore.find_club(conn, match.club_id)
                return {**token, "session_id": match.session_id, "club_id": match.club_id,
                        "club": club.name if club is not None else ""}
        raise refused  # once the failures are committed

    # -- what the tablet lists and reads --------------------------------------------------

    def open_sessions(self, club_id: str, *, limit: int = MAX_SESSIONS) -> list[dict[str, Any]]:
        """The club's open sessions among the `limit` it wrote to last, newest first."""
        with self.store.reading() as conn:
            rows = store.recent_sessions(conn, club_id, limit)
        out = []
        for row in rows:
            state = row.state or {}
            if state.get("status") != Status.OPEN:
                continue
            out.append({"session_id": row.id, "name": state.get("name", ""),
                        "version": row.version, "deal_no": state.get("deal_no", 0),
                        "active": list(state.get("active", [])),
                        "next_dealer": state.get("next_dealer"),
                        "updated_at": utc_iso(row.updated_at)})
        return out

    def entries(self, club_id: str, session_id: str, *, after_version: int,
                limit: int = MAX_ENTRIES) -> dict[str, Any]:
        """The appends after `after_version`, oldest first, each with its events, who made it
        and from which device (its token's label), and the version of the correction that
        superseded it, if one did: what another tablet logged meanwhile, or what an undo
        would take back."""
        if isinstance(after_version, bool) or not isinstance(after_version, int) \
                or after_version < 0:
            raise InvalidInput("after must be a version >= 0", rule="page-after", field="after")
        with self.store.reading() as conn:
            row = load_session(conn, session_id, club_id=club_id)
            if row is None:
                raise NotFound(f"no session {session_id}", rule="session-exists",
                               field="session_id")
            rows = store.events_after(conn, session_id, after_version, limit)
            corrected = store.corrections(conn, session_id) if rows else []
        appends: list[dict[str, Any]] = []
        for r in rows:
            type_, _, payload = event_to_record(
                event_from_record(r.type, r.schema_version, r.payload))
            event = {"version": r.version, "type": type_, "payload": payload}
            last = appends[-1] if appends else None
            if last is not None and last["recorded_at"] == utc_iso(r.recorded_at) \
                    and last["token_id"] == r.token_id and last["actor"] == r.actor:
                last["events"].append(event)
                last["to_version"] = r.version
                continue
            appends.append({
                "from_version": r.version, "to_version": r.version,
                "recorded_at": utc_iso(r.recorded_at), "actor": r.actor, "token_id": r.token_id,
                "device": r.device, "events": [event]})
        for a in appends:
            a["superseded_by"] = next((version for kept, version in corrected
                                       if kept < a["from_version"] < version), None)
        return {"session_id": session_id, "version": row.version, "entries": appends,
                "complete": not rows or rows[-1].version >= row.version}
