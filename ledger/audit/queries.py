"""The auditor's questions across a club's sessions: the event search, the penalty and breach
register and the corrections, filtered and paged by global position.

    audit = Audit(engine, club_id=club_id)          # or Audit.of(ledger.for_club(club_id))
    page = audit.penalties(Filters(offence="revoke"), after=0, limit=100)
    page["entries"], page["next_after"]             # follow next_after until it is None

Every query sees only the club's sessions (`sessions.club_id`): a filter naming another
club's session, member or token finds nothing, exactly like one naming nothing at all. Each
row says whether it is live or `superseded_by` a correction (the correction's version), by
the rule of `Ledger.events` (docs/rules.md §12.3): an event after a correction's `rewound_to`
and before the correction itself no longer counts.

A member is found by his seat: a club session seats each member under his display name
(ledger/clubs/service.py `resolve_players`), and the session's opening records seat -> member id
(`SessionOpened.members`; an aftercomer's join records his, `PlayerJoined.member`). The
query selects by the name, then keeps only the rows whose session maps that seat to the
member. The indexes these queries use are migration 0006's (docs/audit.md).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    ColumnElement,
    Engine,
    String,
    and_,
    func,
    literal_column,
    or_,
    select,
)

from ledger.clubs.service import name_key
from ledger.domain import InvalidInput, event_from_record, event_to_record
from ledger.domain.events import EVENT_TYPES
from ledger.domain.offence_tables import TABLES
from ledger.domain.statement import safe_cell
from ledger.domain.vocabulary import Breach
from ledger.store import open_store
from ledger.store.chain import utc_iso
from ledger.store.tables import events, members, sessions, tokens

if TYPE_CHECKING:
    from ledger.sessions.service import Ledger

__all__ = ["Audit", "Filters", "MAX_AUDIT_LIMIT", "OFFENCES", "BREACHES", "REGISTER_TYPES",
           "to_csv", "EVENT_COLUMNS", "REGISTER_COLUMNS", "CORRECTION_COLUMNS"]

MAX_AUDIT_LIMIT = 500
PENALTY, BREACH, CORRECTION, OPENING = ("PenaltyImposed", "BreachDetected", "EntryCorrected",
                                        "SessionOpened")
REGISTER_TYPES = (PENALTY, BREACH)
# the events after the opening that seat a member: his join, the club's attachments
SEATING_TYPES = ("SessionAttached", "PlayerJoined", "LatecomersAttached")
OFFENCES = sorted({name for table in TABLES.values() for name in table})
BREACHES = sorted(b.value for b in Breach)
# The types and the payload's fields are written as literal SQL, the same text on both
# databases (SQLite 3.38+ reads `->>` as PostgreSQL does), so that PostgreSQL matches them to
# the partial and expression indexes of migration 0006: a bound parameter in their place
# would hide those indexes from a generic plan. Only known type names are ever written.


def _of_types(types: Sequence[str]) -> ColumnElement[bool]:
    """One condition on the type: PostgreSQL takes two conditions on one column for
    independent ones and then underestimates the rows (and picks a bitmap scan and a sort
    over the ordered index scan that a first page wants)."""
    assert all(t in EVENT_TYPES for t in types)
    if len(types) == 1:
        return literal_column(f"events.type = '{types[0]}'", Boolean)
    return literal_column(f"events.type IN ({', '.join(repr(t) for t in types)})", Boolean)


def _field(name: str) -> ColumnElement[Any]:
    return literal_column(f"events.payload ->> '{name}'", String)


PLAYER, WINNER, DEALER = _field("player"), _field("winner"), _field("dealer")
OFFENCE, BREACH_RULE, REWOUND_TO = _field("offence"), _field("rule"), _field("rewound_to")


@dataclass(frozen=True)
class Filters:
    """What an audit query keeps; every filter given must hold (None: not filtered).

    `member_id`: the member the event is about (his seat is its player, or the winner of a
    trick or flush, or the dealer; the offender in the register; a seat whose balance a
    correction changed). `actor`: who logged it (a member's id or display name, or the name
    the command line wrote). `token_id`: the device. `since` <= recorded_at < `until`.
    """

    session_id: str | None = None
    member_id: str | None = None
    type: str | None = None
    offence: str | None = None
    breach: str | None = None
    actor: str | None = None
    token_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None

    def check(self) -> None:
        """Refuse a filter no event could ever match for the wrong reason (a typo)."""
        if self.type is not None and self.type not in EVENT_TYPES:
            raise InvalidInput(f"type must be one of {', '.join(sorted(EVENT_TYPES))}",
                               rule="audit-filter", field="type")
        if self.offence is not None and self.offence not in OFFENCES:
            raise InvalidInput(f"offence must be one of {', '.join(OFFENCES)}",
                               rule="audit-filter", field="offence")
        if self.breach is not None and self.breach not in BREACHES:
            raise InvalidInput(f"breach must be one of {', '.join(BREACHES)}",
                               rule="audit-filter", field="breach")
        for name in ("since", "until"):
            moment = getattr(self, name)
            if moment is not None and moment.utcoffset() is None:
                raise InvalidInput(f"{name} needs a UTC offset (2026-11-22T18:00:00+00:00)",
                                   rule="audit-filter", field=name)
        if self.since is not None and self.until is not None and self.until <= self.since:
            raise InvalidInput("until must be after since", rule="audit-filter",
                               field="until")

    def given(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None}


def check_page(after: int, limit: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) \
            or not 1 <= limit <= MAX_AUDIT_LIMIT:
        raise InvalidInput(f"limit must be from 1 to {MAX_AUDIT_LIMIT}", rule="page-limit",
                           field="limit")
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise InvalidInput("after must be a position, 0 or more", rule="page-after",
                           field="after")


@dataclass
class _Member:
    member_id: str
    name: str


class Audit:
    """The audit queries over one database; `club_id` confines them to one club's sessions
    (None: every session, the operator's view from the command line)."""

    def __init__(self, engine: Engine, *, club_id: str | None = None):
        self.engine = engine
        self.club_id = club_id
        self.store = open_store(engine)

    @classmethod
    def of(cls, ledger: Ledger) -> Audit:
        """The audit queries of the sessions `ledger` sees (Ledger.for_club)."""
        return cls(ledger.engine, club_id=ledger.club_id)

    # -- the three queries ------------------------------------------------------------------

    def events(self, filters: Filters = Filters(), *, after: int = 0,
               limit: int = 100) -> dict[str, Any]:
        """{"events": [each as Ledger.events gives it, with its session_id], "next_after"}."""
        return self._page(filters, after, limit, key="events", types=None, row=_event_row,
                          about=(PLAYER, WINNER, DEALER))

    def penalties(self, filters: Filters = Filters(), *, after: int = 0,
                  limit: int = 100) -> dict[str, Any]:
        """The penalty and breach register: {"entries": [...], "next_after"}."""
        if filters.type is not None and filters.type not in REGISTER_TYPES:
            raise InvalidInput(f"type must be {PENALTY} or {BREACH} in the register",
                               rule="audit-filter", field="type")
        page = self._page(filters, after, limit, key="entries", types=REGISTER_TYPES,
                          row=_register_row, about=(PLAYER,))
        later = [e for e in page["entries"] if e["kind"] == "penalty"
                 and e["destination"] in LATER and e["amount_units"] is None]
        if later:
            with self.store.reading() as conn:
                _charged_with_deal(conn, later)
        return page

    def corrections(self, filters: Filters = Filters(), *, after: int = 0,
                    limit: int = 100) -> dict[str, Any]:
        """Every correction, what it voided and put in place, the balances it changed:
        {"corrections": [...], "next_after"}."""
        if filters.type not in (None, CORRECTION):
            raise InvalidInput(f"type must be {CORRECTION} among the corrections",
                               rule="audit-filter", field="type")
        for name in ("offence", "breach"):
            if getattr(filters, name) is not None:
                raise InvalidInput(f"corrections are not filtered by {name}",
                                   rule="audit-filter", field=name)
        return self._page(filters, after, limit, key="corrections",
                          types=(CORRECTION,), row=_correction_row, about=())

    # -- the paging and the filters -----------------------------------------------------------

    def _page(self, filters: Filters, after: int, limit: int, *, key: str,
              types: Sequence[str] | None, row: Callable[..., dict[str, Any]],
              about: Sequence[ColumnElement[Any]]) -> dict[str, Any]:
        filters.check()
        check_page(after, limit)
        with self.store.reading() as conn:
            member = self._member(conn, filters.member_id) if filters.member_id else None
            if filters.member_id and member is None:
                return {key: [], "next_after": None}
            types = _narrowed(types, filters)
            if types == ():
                return {key: [], "next_after": None}
            where = self._conditions(conn, filters, member, about)
            if types is not None:
                where.append(_of_types(types))
            start = after
            timed = filters.since is not None or filters.until is not None
            if timed:
                # The positions of the first and last event of the time range bound the scan
                # (read from the (recorded_at, position) indexes): the pages walk the log in
                # position order, and a range in mid-season would else be reached only after
                # every earlier row of the index had been read and passed over. (`position + 0`:
                # PostgreSQL would else read min() and max() off the position index, row by
                # row from either end until one falls in the range.)
                shifted = literal_column("events.position + 0", BigInteger)
                first, last = conn.execute(
                    select(func.min(shifted), func.max(shifted))
                    .where(*_between(filters), *([_of_types(REGISTER_TYPES)]
                                                 if types and set(types) <= set(REGISTER_TYPES)
                                                 else []))).one()
                if first is None:
                    return {key: [], "next_after": None}
                start = max(after, first - 1)
                # As literals: a prepared statement's generic plan, blind to the range's
                # width, would read the whole time range off its index and sort it.
                where.append(literal_column(f"events.position <= {int(last)}", Boolean))
            query = (select(events, tokens.c.label.label("device"))
                     .outerjoin(tokens, tokens.c.id == events.c.token_id)
                     .where(*where).order_by(events.c.position))
            kept: list[Any] = []
            openings: dict[str, dict[str, str]] = {}
            tables: dict[str, dict[str, Any]] = {}
            position, more = start, False
            while True:
                rows = list(conn.execute(query.where(
                    literal_column(f"events.position > {int(position)}", Boolean)
                    if timed else events.c.position > position).limit(limit + 1)))
                if not rows:
                    break
                self._openings(conn, {r.stream_id for r in rows} - set(openings), openings,
                               tables)
                for r in rows:
                    position = r.position
                    if member is None or _is_member(r, openings, member, about):
                        if len(kept) == limit:
                            more = True
                            break
                        kept.append(r)
                if more or len(rows) <= limit:
                    break
            superseded = self._corrections_of(conn, {r.stream_id for r in kept})
        # each row names its table as people do: by its name and when it was opened
        out = [{**row(r, superseded=_superseded(r, superseded), members=openings.get(
            r.stream_id, {})), **tables.get(r.stream_id, _NO_TABLE)} for r in kept]
        return {key: out, "next_after": kept[-1].position if more else None}

    def _conditions(self, conn: Any, filters: Filters, member: _Member | None,
                    about: Sequence[ColumnElement[Any]]) -> list[ColumnElement[bool]]:
        where: list[ColumnElement[bool]] = []
        club = select(sessions.c.id)
        if self.club_id is not None:
            club = club.where(sessions.c.club_id == self.club_id)
        if filters.session_id is not None:
            club = club.where(sessions.c.id == filters.session_id)
        if self.club_id is not None or filters.session_id is not None:
            where.append(events.c.stream_id.in_(club.scalar_subquery()))
        if filters.offence is not None:
            where.append(OFFENCE == literal_column(_quoted(filters.offence)))
        if filters.breach is not None:
            where.append(BREACH_RULE == literal_column(_quoted(filters.breach)))
        if member is not None and about:
            where.append(or_(*(f == member.name for f in about)))
        if filters.actor is not None:
            actor = self._member(conn, filters.actor, by_name=True)
            where.append(events.c.member_id == actor.member_id if actor is not None
                         else and_(events.c.actor == filters.actor,
                                   events.c.member_id.is_(None)))
        if filters.token_id is not None:
            where.append(events.c.token_id == filters.token_id)
        return where + _between(filters)

    def _member(self, conn: Any, id_or_name: str, *, by_name: bool = False) -> _Member | None:
        """The club's member with this id (or display name, any case), else None."""
        query = select(members.c.id, members.c.name)
        if self.club_id is not None:
            query = query.where(members.c.club_id == self.club_id)
        found = conn.execute(query.where(members.c.id == id_or_name)).first()
        if found is None and by_name:
            found = conn.execute(query.where(members.c.name_key == name_key(id_or_name))
                                 ).first()
        return _Member(found.id, found.name) if found is not None else None

    def _openings(self, conn: Any, stream_ids: set[str],
                  into: dict[str, dict[str, str]],
                  tables: dict[str, dict[str, Any]]) -> None:
        """Each session's seats -> member ids, from its opening (version 1) or, for a
        session from before clubs, from its attachment to the club; an aftercomer's from his
        join, or from the attachment of the latecomers' seats at an upgrade. Into `tables`,
        each session's name and when it was opened (its opening's time)."""
        for chunk in _chunks(sorted(stream_ids)):
            for stream_id, version, recorded_at, payload in conn.execute(
                    select(events.c.stream_id, events.c.version, events.c.recorded_at,
                           events.c.payload)
                    .where(events.c.stream_id.in_(chunk),
                           or_(events.c.version == 1, events.c.type.in_(SEATING_TYPES)))
                    .order_by(events.c.stream_id, events.c.version)):
                if version == 1:
                    tables[stream_id] = {"session_name": payload.get("name"),
                                         "session_opened_at": utc_iso(recorded_at)}
                joined = {payload["player"]: payload["member"]} if payload.get("member") \
                    else {}
                into[stream_id] = {**into.get(stream_id, {}),
                                   **dict(payload.get("members") or {}), **joined}
        for stream_id in stream_ids:
            into.setdefault(stream_id, {})

    def _corrections_of(self, conn: Any, stream_ids: set[str]
                        ) -> dict[str, list[tuple[int, int]]]:
        """{session: [(rewound_to, the correction's version)]} for the sessions given."""
        out: dict[str, list[tuple[int, int]]] = {}
        for chunk in _chunks(sorted(stream_ids)):
            for stream_id, version, rewound_to in conn.execute(
                    select(events.c.stream_id, events.c.version, REWOUND_TO)
                    .where(events.c.type == CORRECTION, events.c.stream_id.in_(chunk))):
                out.setdefault(stream_id, []).append((int(rewound_to), version))
        return out


_NO_TABLE: dict[str, Any] = {"session_name": None, "session_opened_at": None}


def _narrowed(types: Sequence[str] | None, filters: Filters) -> tuple[str, ...] | None:
    """The types a query can find under the filters (None: any); () finds nothing."""
    allowed = set(types) if types is not None else None
    for narrower in ((filters.type,) if filters.type else None,
                     (PENALTY,) if filters.offence else None,
                     (BREACH,) if filters.breach else None):
        if narrower is not None:
            allowed = set(narrower) if allowed is None else allowed & set(narrower)
    if allowed is None:
        return None
    # in the order the index predicates name them (REGISTER_TYPES)
    return tuple(dict.fromkeys(t for t in (*(types or ()), *EVENT_TYPES) if t in allowed))


def _between(filters: Filters) -> list[ColumnElement[bool]]:
    """since <= recorded_at < until, in UTC: SQLite keeps the time as naive UTC text and
    would compare another offset's wall-clock time as if it were UTC."""
    where = []
    if filters.since is not None:
        where.append(events.c.recorded_at >= filters.since.astimezone(UTC))
    if filters.until is not None:
        where.append(events.c.recorded_at < filters.until.astimezone(UTC))
    return where


def _quoted(value: str) -> str:
    """A known offence or breach name as an SQL literal (Filters.check admits no other)."""
    assert value in OFFENCES or value in BREACHES
    return "'" + value.replace("'", "''") + "'"


def _chunks(items: list[str], size: int = 500) -> Iterable[list[str]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


def _is_member(row: Any, openings: dict[str, dict[str, str]], member: _Member,
               about: Sequence[ColumnElement[Any]]) -> bool:
    seats = openings.get(row.stream_id, {})
    if seats.get(member.name) != member.member_id:
        return False
    if not about:  # corrections: a balance of his that the correction changed
        return member.name in (row.payload.get("changes") or {})
    return True


def _superseded(row: Any, corrections: dict[str, list[tuple[int, int]]]) -> int | None:
    """The version of the correction that superseded the event, if one did (§12.3)."""
    return next((version for kept, version in corrections.get(row.stream_id, ())
                 if kept < row.version < version), None)


def _common(row: Any, superseded: int | None) -> dict[str, Any]:
    return {"position": row.position, "session_id": row.stream_id, "version": row.version,
            "recorded_at": utc_iso(row.recorded_at), "actor": row.actor,
            "member_id": row.member_id, "token_id": row.token_id, "device": row.device,
            "superseded_by": superseded, "live": superseded is None}


def _current(row: Any) -> tuple[str, int, dict[str, Any]]:
    """(type, schema_version, payload) of a stored event in the current shape of its type.

    A payload stored in the current shape is what event_to_record wrote: it is given as read
    (no round trip through the dataclass); an older one is upcast (events.UPCASTERS)."""
    if row.schema_version == EVENT_TYPES[row.type].schema_version:
        return row.type, row.schema_version, row.payload
    return event_to_record(event_from_record(row.type, row.schema_version, row.payload))


def _event_row(row: Any, *, superseded: int | None, members: dict[str, str]
               ) -> dict[str, Any]:
    type_, schema_version, payload = _current(row)
    return {**_common(row, superseded), "type": type_, "schema_version": schema_version,
            "payload": payload, "hash": row.hash}


def _register_row(row: Any, *, superseded: int | None, members: dict[str, str]
                  ) -> dict[str, Any]:
    p = _current(row)[2]
    penalty = row.type == PENALTY
    return {**_common(row, superseded), "type": row.type,
            "kind": "penalty" if penalty else "breach", "deal_no": p["deal_no"],
            "player": p["player"], "player_member_id": members.get(p["player"]),
            "offence": p["offence"] if penalty else None,
            "breach": None if penalty else p["rule"],
            "amount_units": p["amount_units"] if penalty else None,
            "paid_units": sum(x["amount_units"] for x in p.get("postings") or []) if penalty
            else 0,
            "destination": p["destination"] if penalty else None,
            "law": p["law"] if penalty else None,
            "detail": None if penalty else p["detail"],
            "detected": p.get("detected", False) if penalty else True,
            "charged_as": None}


# The penalties whose amount the deal's settlement fixes (vocabulary.Destination).
LATER = ("settled-with-deal", "next_pool-at-settlement")


def _charged_with_deal(conn: Any, entries: list[dict[str, Any]]) -> None:
    """Fill in, for penalties charged when their deal was settled, what the settlement
    charged (the last DealSettled of the deal): the offender's posting for the offence, or
    the loo he paid instead (Blenheim law 9: "if he makes no trick he is looed"), with
    `charged_as` "fine" or "loo". Left null while the deal is not settled."""
    wanted = {(e["session_id"], e["deal_no"]) for e in entries}
    settled: dict[tuple[str, int], dict[str, Any]] = {}
    for row in conn.execute(select(events.c.stream_id, events.c.payload)
                            .where(events.c.type == "DealSettled",
                                   events.c.stream_id.in_({s for s, _ in wanted}))
                            .order_by(events.c.position)):
        key = (row.stream_id, row.payload["deal_no"])
        if key in wanted:
            settled[key] = row.payload
    for e in entries:
        deal = settled.get((e["session_id"], e["deal_no"]))
        if deal is None:
            continue
        mine = [p for p in deal.get("postings") or [] if p["from"] == e["player"]]
        fine = [p for p in mine if p.get("offence") == e["offence"]]
        loo = [p for p in mine if p["reason"] == "loo"] if e["player"] in deal["looed"] \
            and e["destination"] == "settled-with-deal" else []
        charged = fine or loo
        if charged:
            e["amount_units"] = e["paid_units"] = sum(p["amount_units"] for p in charged)
            e["charged_as"] = "fine" if fine else "loo"


def _correction_row(row: Any, *, superseded: int | None, members: dict[str, str]
                    ) -> dict[str, Any]:
    p = _current(row)[2]
    return {**_common(row, superseded), "deal_no": p["deal_no"], "voids": p["voids"],
            "replacements": p["replacements"], "changes": p["changes"],
            "reason": p["reason"], "authorised_by": p["authorised_by"],
            "rewound_to": p["rewound_to"],
            "changed_members": {seat: members.get(seat) for seat in p["changes"]
                                if seat in members}}


# -- CSV -----------------------------------------------------------------------------------

_COMMON = ["position", "session_id", "version", "recorded_at", "actor", "member_id",
           "token_id", "device", "live", "superseded_by"]
EVENT_COLUMNS = [*_COMMON, "type", "schema_version", "payload", "hash"]
REGISTER_COLUMNS = [*_COMMON, "type", "kind", "deal_no", "player", "player_member_id",
                    "offence", "breach", "amount_units", "paid_units", "destination", "law",
                    "detail", "detected", "charged_as"]
CORRECTION_COLUMNS = [*_COMMON, "deal_no", "voids", "replacements", "changes", "reason",
                      "authorised_by", "rewound_to"]


def to_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """One line per row, a header first; nested values as JSON; text that a spreadsheet
    would run as a formula is quoted (statement.safe_cell)."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(columns)
    for row in rows:
        cells = []
        for name in columns:
            value = row.get(name)
            if isinstance(value, dict | list):
                value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            elif value is None:
                value = ""
            elif isinstance(value, bool):
                value = "true" if value else "false"
            cells.append(safe_cell(value))
        out.writerow(cells)
    return buf.getvalue()

