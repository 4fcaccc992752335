"""Corrections as events: a mistaken entry is voided, and perhaps replaced, never edited.

The log keeps everything. A correction appends `EntryCorrected`, naming the entries it voids
(by version), the entries put in their place, why, and who authorised it; then the ledger
appends the session's tail again, decided anew from the client's own entries as corrected,
with everything the rules draw from them (tricks, breaches, settlements, later pools and
loos). The *live* events, the log less the tails that corrections superseded, fold to the
state: the projections read exactly as if the session had been logged right from the start
(docs/rules.md §12).

    state, events = correct(log, voids=[41], replacements=[RecordTrick(winner="C")],
                            reason="trick 2 was C's", authorised_by="treasurer")
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from . import commands as cmd
from . import events as ev
from .cards import pam_card
from .errors import InvalidInput, LedgerError
from .evolve import evolve
from .execution import execute
from .playing import pam_call_card
from .state import SessionState
from .vocabulary import Call

Versioned = tuple[int, ev.Event]

WIRE_NAMES: dict[type[cmd.Command], str] = {c: name for name, c in cmd.CLIENT_TYPES.items()}
MAX_REASON_LENGTH = 500
# The events that record who sits for the club, not what the table did: never voided, kept
# in the tail a correction decides again.
CLUB_RECORDS = (ev.SessionAttached, ev.LatecomersAttached)


class CorrectionRefused(LedgerError):
    """The correction would leave the session impossible, or names no entry it can void."""

    code = "correction-refused"


def live_events(log: Iterable[Versioned]) -> list[Versioned]:
    """The events that count: every correction drops the tail it superseded."""
    live: list[Versioned] = []
    for version, event in log:
        if isinstance(event, ev.EntryCorrected):
            live = [(v, e) for v, e in live if v <= event.rewound_to]
        live.append((version, event))
    return live


def client_command(event: ev.Event, before: SessionState | None) -> cmd.Command | None:
    """The entry a client made that this event records; None for what the rules drew."""
    if isinstance(event, ev.DealStarted):
        assert before is not None
        # A dealer is named only where the deal was out of turn (Blenheim law 6): otherwise
        # the deal goes to whoever's turn it is once the entries before it are corrected.
        named = not event.redeal and event.dealer != before.next_dealer
        return cmd.StartDeal(trump_card=event.trump_card,
                             dealer=event.dealer if named else None,
                             face_up=dict(event.face_up) or None)
    if isinstance(event, ev.DeclarationMade):
        return cmd.Declare(player=event.player, declaration=event.declaration)
    if isinstance(event, ev.CardPlayed):
        call = event.call
        if call is None and before is not None and before.deal is not None \
                and pam_call_card(before, before.deal) == event.card:
            # logged before the table was asked: the ace of trumps led without the call
            call = Call.NONE
        return cmd.PlayCard(player=event.player, card=event.card, call=call)
    if isinstance(event, ev.CardsExchanged):
        return cmd.ExchangeCards(player=event.player, count=event.count,
                                 cards_out=list(event.cards_out) or None,
                                 cards_in=list(event.cards_in) or None)
    if isinstance(event, ev.FlushShown):
        # the holder of Pam as the table said it (a player, or null for nobody); left unsaid
        # where the cards told it or nothing was said. Before `pam_named` was logged, a holder
        # whose shown flush does not hold Pam was the table's word.
        holder = event.pam_held_by
        assert before is not None and before.deal is not None
        pam = pam_card(before.rules.pam, before.deal.trump)
        said = event.pam_named or (
            holder is not None and pam not in event.flushes.get(holder, []))
        return cmd.ShowFlush(flushes={p: list(c) for p, c in event.flushes.items()},
                             pam_held_by=holder if said else cmd.UNSAID)
    if isinstance(event, ev.TrickWon):
        return None if event.cards else cmd.RecordTrick(winner=event.winner)
    if isinstance(event, ev.PenaltyImposed):
        if event.detected:
            return None
        return cmd.ImposePenalty(player=event.player, offence=event.offence,
                                 redeal=event.redeal)
    if isinstance(event, ev.ReplayStarted):
        return cmd.AskReplay(by=event.asked_by) if event.asked_by else None
    if isinstance(event, ev.ReplayWaived):
        return cmd.WaiveReplay()
    if isinstance(event, ev.PlayerJoined):
        return cmd.JoinPlayer(player=event.player, after=event.after, member=event.member)
    if isinstance(event, ev.SessionAttached):  # kept in the tail a correction decides again
        return cmd.AttachToClub(club_id=event.club_id, members=dict(event.members))
    if isinstance(event, ev.LatecomersAttached):  # likewise
        return cmd.AttachLatecomers(members=dict(event.members))
    if isinstance(event, ev.PlayerWithdrew):
        return cmd.Withdraw(player=event.player)
    if isinstance(event, ev.LastRoundStarted):
        return cmd.StartLastRound()
    if isinstance(event, ev.SessionEnded):
        return cmd.EndSession(method=event.method)
    return None  # SessionOpened, BreachDetected, DealSettled, EntryCorrected


def wire(command: cmd.Command) -> dict[str, Any]:
    """A command as a client sends it: {"type": "CardPlayed", "player": ..., "card": ...}.
    A field left out is not written; a null that says something (FlushShown's pam_held_by:
    nobody holds Pam) is."""
    body = {k: v for k, v in asdict(command).items() if v is not None and v is not cmd.UNSAID}
    if isinstance(command, cmd.ShowFlush) and command.pam_held_by is None:
        body["pam_held_by"] = None
    if isinstance(command, cmd.JoinPlayer):  # the member is the join event's, not the entry's
        body.pop("member", None)
        if not command.guest:
            del body["guest"]
    return {"type": WIRE_NAMES[type(command)], **body}


def last_entry(log: Iterable[Versioned]) -> int | None:
    """The version of the last live entry a client made (what "undo" voids), or None."""
    state: SessionState | None = None
    last = None
    for version, event in live_events(log):
        if client_command(event, state) is not None and not isinstance(
                event, CLUB_RECORDS):  # the club's record, no entry of the table
            last = version
        state = evolve(state, event)
    return last


def correct(log: Sequence[Versioned], *, voids: Sequence[int],
            replacements: Sequence[cmd.Command] = (), reason: str, authorised_by: str,
            session_id: str = "") -> tuple[SessionState, list[ev.Event]]:
    """The state after the correction, and the events to append: `EntryCorrected`, then the
    session's tail decided anew. Refuses (CorrectionRefused) a correction the rest of the
    session cannot follow, naming the first entry that no longer fits."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON_LENGTH:
        raise InvalidInput(f"a correction needs a reason of 1 to {MAX_REASON_LENGTH} "
                           "characters", rule="correction-reason", field="reason")
    wanted = sorted(set(voids))
    if not wanted:
        raise InvalidInput("name at least one entry to void, by its version",
                           rule="correction-voids", field="voids")
    live = live_events(log)
    versions = {v for v, _ in live}
    current = log[-1][0]
    for v in wanted:
        if v not in versions:
            raise CorrectionRefused(f"version {v} is no live entry of this session (never "
                                    "logged, or superseded by an earlier correction)",
                                    rule="correction-voids", field="voids")
    first = wanted[0]
    prefix = [e for v, e in live if v < first]
    if not prefix:
        raise CorrectionRefused("the opening of the session cannot be voided; open another "
                                "session", rule="correction-voids", field="voids")
    start = _fold(prefix, session_id)
    original = copy.deepcopy(start)  # the session as logged, walked along the tail
    tail: list[tuple[int | None, cmd.Command]] = []
    voided: list[dict[str, Any]] = []
    deal_no: int | None = None
    for version, event in live[len(prefix):]:
        command = client_command(event, original)
        if version in wanted:
            if isinstance(event, CLUB_RECORDS):
                raise CorrectionRefused(
                    f"version {version} ({event.type}) is the club's record of who sits, no "
                    "entry of the table: it is not voided", rule="correction-voids",
                    field="voids")
            if command is None:
                raise CorrectionRefused(
                    f"version {version} ({event.type}) was drawn by the rules, not entered; "
                    "void the entry that caused it", rule="correction-voids", field="voids")
            voided.append({"version": version, "type": event.type, "entry": wire(command)})
            if version == first:
                deal_no = getattr(event, "deal_no", None)
                tail += [(None, c) for c in replacements]
        elif command is not None:
            tail.append((version, command))
        original = evolve(original, event, session_id=session_id)
    changed = _decide_tail(copy.deepcopy(start), tail)
    changes = {account: changed.balances.get(account, 0) - original.balances.get(account, 0)
               for account in sorted(set(changed.balances) | set(original.balances))}
    marker = ev.EntryCorrected(
        voids=voided, replacements=[wire(c) for c in replacements], reason=reason.strip(),
        authorised_by=authorised_by, rewound_to=first - 1, logged_as_version=current + 1,
        deal_no=deal_no, changes={k: v for k, v in changes.items() if v})
    state = evolve(start, marker, session_id=session_id)
    out: list[ev.Event] = [marker]
    for _, command in tail:
        state, produced = execute(state, command, session_id=session_id)
        out += produced
    return state, out


def _fold(events: Iterable[ev.Event], session_id: str) -> SessionState:
    state: SessionState | None = None
    for event in events:
        state = evolve(state, event, session_id=session_id)
    assert state is not None
    return state


def _decide_tail(state: SessionState,
                 tail: Sequence[tuple[int | None, cmd.Command]]) -> SessionState:
    """Decide the corrected entries in order; refuse at the first that no longer fits."""
    for version, command in tail:
        try:
            state, _ = execute(state, command)
        except LedgerError as error:
            where = f"the entry at version {version}" if version is not None \
                else "a replacement entry"
            raise CorrectionRefused(
                f"after the correction {where} ({wire(command)['type']}) no longer fits: "
                f"{error.message}", rule="correction-consistent",
                refused_by=error.rule, version=version) from error
    return state
