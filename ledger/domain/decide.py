"""decide: a command against the state gives the events to record, or a refusal.

Nothing here changes the state. Each command is decided by the module of its phase of the
game (dealing, declaring, playing, penalising, seating, ending); `follow_ups` gives the events
the rules draw by themselves from a state (a completed trick, the breaches it proves, a
required replay, the settlement of a deal).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import commands as cmd
from . import events as ev
from .dealing import open_session, start_deal
from .declaring import declare
from .ending import end_session
from .errors import InvalidInput, OutOfTurn
from .exchanging import exchange_cards, show_flush
from .legality import trick_complete
from .penalising import ask_replay, impose_penalty, replay_required, waive_replay
from .playing import breaches_proven, play_card, record_trick, trick_completed
from .seating import attach, attach_latecomers, join, start_last_round, withdraw
from .settling import outcome_before_play, settle_flush, settle_played, settle_single
from .state import SessionState
from .vocabulary import Entry, Phase, Status

_HANDLERS: dict[type[cmd.Command], Callable[[SessionState, Any], list[ev.Event]]] = {
    cmd.StartDeal: start_deal,
    cmd.Declare: declare,
    cmd.PlayCard: play_card,
    cmd.ExchangeCards: exchange_cards,
    cmd.ShowFlush: show_flush,
    cmd.RecordTrick: record_trick,
    cmd.ImposePenalty: impose_penalty,
    cmd.AskReplay: ask_replay,
    cmd.WaiveReplay: waive_replay,
    cmd.JoinPlayer: join,
    cmd.AttachToClub: attach,
    cmd.AttachLatecomers: attach_latecomers,
    cmd.Withdraw: withdraw,
    cmd.StartLastRound: start_last_round,
    cmd.EndSession: end_session,
}


# The commands that record who sits for the club, not what the table did.
CLUB_RECORDS = (cmd.AttachToClub, cmd.AttachLatecomers)


def decide_open(state: SessionState | None, c: cmd.OpenSession) -> list[ev.Event]:
    return open_session(state, c)


def decide(state: SessionState, c: cmd.Command) -> list[ev.Event]:
    # A session that ended may still be brought into a club, its seats attached to members
    # (its record, not its play).
    if state.status == Status.ENDED and not isinstance(c, CLUB_RECORDS):
        raise OutOfTurn("the session has ended; nothing more can be recorded",
                        rule="session-open")
    handler = _HANDLERS.get(type(c))
    if handler is None:
        raise InvalidInput(f"unknown command {type(c).__name__}", rule="event-type")
    return handler(state, c)


def follow_ups(s: SessionState) -> list[ev.Event]:
    """What the rules draw by themselves from the state, one step at a time (engine.execute
    folds them in and asks again until there is nothing more)."""
    deal = s.deal
    if deal is None or s.status == Status.ENDED:
        return []
    if deal.phase == Phase.SINGLE:
        return [settle_single(s, deal)]
    if deal.phase == Phase.DECLARING:
        return outcome_before_play(s, deal)
    if deal.phase == Phase.FLUSH:
        return [settle_flush(s, deal)]
    if deal.entry == Entry.CARDS and (found := breaches_proven(s, deal)):
        return found
    if deal.phase in (Phase.PLAYING, Phase.REPLAYING) and trick_complete(deal, s.rules):
        return trick_completed(s, deal)
    if deal.phase == Phase.PLAYED:
        if replay_required(deal):
            return [ev.ReplayStarted(deal_no=deal.deal_no, asked_by=None)]
        return [settle_played(s, deal)]
    return []
