"""A program written against the client that openapi-python-client generates from
/openapi.json (the package `lanterloo_client`), as a club's developer would write it: no
hand-written dicts for any route, every answer a typed model.

tests/e2e/test_generated_client.py generates the client, type-checks this file against it
with mypy (strict) and runs `evening` against the app. It opens a session, logs the turn-up
single with If-Match and an Idempotency-Key, deals the next hand in a batch, reads the
session as of an earlier version, declares as `expected` says, is refused out of turn (a
typed Problem), corrects the declaration, undoes back to between deals, reads the log and
the statement (JSON and CSV) and ends the session.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lanterloo_client import AuthenticatedClient
from lanterloo_client.api.corrections import correct_entries, undo_last_entry
from lanterloo_client.api.events import append_events, read_events
from lanterloo_client.api.sessions import get_session, open_session
from lanterloo_client.api.statement import get_statement, get_statement_csv
from lanterloo_client.models import (
    AppendResult,
    ClubSessionOpen,
    CorrectionIn,
    DealStartedIn,
    DealStartedInType,
    Declaration,
    DeclarationMadeAction,
    DeclarationMadeIn,
    DeclarationMadeInType,
    EndMethod,
    EventBatchIn,
    EventsPage,
    FaceUp,
    Problem,
    RecordedDealSettled,
    RecordedDealStarted,
    RecordedEntryCorrected,
    SessionEndedIn,
    SessionEndedInType,
    SessionView,
    Statement,
    UndoIn,
)
from lanterloo_client.types import Unset

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]


@dataclass
class Evening:
    """What the program saw, for the test to hold against the rules' worked values."""

    opened_version: int = 0
    single_types: list[str] = field(default_factory=list)
    single_trump: str = ""
    settled_outcome: str = ""
    replayed: bool = False
    batch_version: int = 0
    as_of_version: int = 0
    as_of_deal: int | None = None
    declarer: str = ""
    refusal_status: int = 0
    refusal_rule: str = ""
    refusal_version: int | None = None
    corrected_voids: list[int] = field(default_factory=list)
    undone_to_phase: str = ""
    log_types: list[str] = field(default_factory=list)
    ended_status: str = ""
    zero_sum: bool = False
    nets: dict[str, int] = field(default_factory=dict)
    csv_header: str = ""


def _appended(response: AppendResult | Problem | None) -> AppendResult:
    if not isinstance(response, AppendResult):
        raise AssertionError(f"expected an append, got {response!r}")
    return response


def _view(response: SessionView | Problem | None) -> SessionView:
    if not isinstance(response, SessionView):
        raise AssertionError(f"expected a session, got {response!r}")
    return response


def evening(client: AuthenticatedClient) -> Evening:
    """One evening at the table, through the generated client only."""
    seen = Evening()
    opened = _appended(open_session.sync(client=client, body=ClubSessionOpen(
        players=PLAYERS, guests=PLAYERS, name="Generated client")))
    sid = opened.session_id
    seen.opened_version = opened.version

    # the turn-up single, with If-Match and an Idempotency-Key; sent twice, answered once
    face_up = FaceUp.from_dict(
        {"Ann": "5C", "Ben": "9H", "Cat": "KS", "Dan": "QH", "Eve": "2H"})
    single = DealStartedIn(type_=DealStartedInType.DEALSTARTED, trump_card="7H",
                           face_up=face_up)
    first = append_events.sync_detailed(sid, client=client, body=single,
                                        if_match=f'"{opened.version}"',
                                        idempotency_key="single-1")
    again = append_events.sync_detailed(sid, client=client, body=single,
                                        if_match=f'"{opened.version}"',
                                        idempotency_key="single-1")
    dealt = _appended(first.parsed)
    seen.replayed = again.headers.get("Idempotent-Replayed") == "true"
    seen.single_types = [event.type_.value for event in dealt.appended]
    for event in dealt.appended:
        if isinstance(event, RecordedDealStarted) and not isinstance(event.payload, Unset):
            seen.single_trump = event.payload.trump_card
        if isinstance(event, RecordedDealSettled) and not isinstance(event.payload, Unset):
            seen.settled_outcome = event.payload.outcome.value

    # the next hand, dealt in a batch that names the version it builds on
    batch = _appended(append_events.sync(sid, client=client, body=EventBatchIn(
        events=[DealStartedIn(type_=DealStartedInType.DEALSTARTED, trump_card="8S")],
        expected_version=dealt.version)))
    seen.batch_version = batch.version

    # the session as it stood after the single
    then = _view(get_session.sync(sid, client=client, as_of=str(dealt.version)))
    if not isinstance(then.as_of, Unset):
        seen.as_of_version = then.as_of.version
    seen.as_of_deal = then.deal.deal_no if then.deal is not None else None

    # declare as `expected` says: whose turn, and the legal choices
    now = _view(get_session.sync(sid, client=client))
    action = next(a for a in now.expected.actions if isinstance(a, DeclarationMadeAction))
    seen.declarer = action.player
    choice: Declaration = action.choices[0]  # one enumeration per word of the game
    declared = _appended(append_events.sync(sid, client=client, if_match=f'"{now.version}"',
                                            body=DeclarationMadeIn(
        type_=DeclarationMadeInType.DECLARATIONMADE, player=action.player,
        declaration=choice)))

    # the same player again: out of turn, a typed problem, nothing appended
    refused = append_events.sync(sid, client=client, if_match=f'"{declared.version}"',
                                 body=DeclarationMadeIn(
        type_=DeclarationMadeInType.DECLARATIONMADE, player=action.player,
        declaration=choice))
    if isinstance(refused, Problem):
        seen.refusal_status = refused.status
        seen.refusal_rule = refused.rule if isinstance(refused.rule, str) else ""
        seen.refusal_version = refused.current_version if isinstance(
            refused.current_version, int) else None

    # a correction: the declaration voided, the same one put in its place
    corrected = _appended(correct_entries.sync(sid, client=client, body=CorrectionIn(
        voids=[declared.version], reason="misheard at the table",
        replacements=[DeclarationMadeIn(type_=DeclarationMadeInType.DECLARATIONMADE,
                                        player=action.player, declaration=choice)]),
        if_match=f'"{declared.version}"'))
    for event in corrected.appended:
        if isinstance(event, RecordedEntryCorrected) and not isinstance(event.payload, Unset):
            seen.corrected_voids = [void.version for void in event.payload.voids]

    # undo the declaration and the deal: back between deals
    version = corrected.version
    for _ in range(2):
        version = _appended(undo_last_entry.sync(sid, client=client, body=UndoIn(),
                                                 if_match=f'"{version}"')).version
    back = _view(get_session.sync(sid, client=client))
    seen.undone_to_phase = back.expected.phase.value

    ended = _appended(append_events.sync(sid, client=client, if_match=f'"{version}"',
                                         body=SessionEndedIn(
        type_=SessionEndedInType.SESSIONENDED, method=EndMethod.DIVIDE_POOL)))
    if not isinstance(ended.session, Unset):
        seen.ended_status = ended.session.status.value

    page = read_events.sync(sid, client=client, limit=1000)
    if isinstance(page, EventsPage):
        seen.log_types = [event.type_.value for event in page.events]
    statement = get_statement.sync(sid, client=client)
    if isinstance(statement, Statement):
        seen.zero_sum = statement.check.zero_sum
        seen.nets = {p.player: p.net_units for p in statement.players}
    csv = get_statement_csv.sync(sid, client=client)
    if isinstance(csv, str):
        seen.csv_header = csv.splitlines()[0]
    return seen
