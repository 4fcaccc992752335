"""Playing the tricks (docs/rules.md §6): cards one by one, or only each trick's winner (quick
entry); a trick completed when each player in play has played to it; and the breaches the
logged cards prove, reported the moment they are proven with the preset's penalty.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from . import commands as cmd
from . import events as ev
from .cards import pam_card, parse_card, trick_winner_index
from .declaring import next_declarer
from .errors import InvalidInput, OutOfTurn
from .guards import known_player, open_deal
from .legality import OFFENCE_OF_RULE, detect_breaches, in_play, next_to_play
from .offence_tables import offences_for
from .penalising import penalty_event
from .records import PenaltyRecord, TrickCards
from .state import DealState, SessionState
from .vocabulary import Call, Entry, Phase


def _tricks_open(s: SessionState, what: str) -> DealState:
    deal = open_deal(s, what)
    if deal.phase == Phase.DECLARING:
        raise OutOfTurn(f"the declarations are not over: {next_declarer(deal)} is to declare",
                        rule="declarations-over")
    if deal.phase not in (Phase.PLAYING, Phase.REPLAYING):
        raise OutOfTurn(f"no tricks are being played (the deal is {deal.phase})",
                        rule="tricks-in-play")
    return deal


def play_card(s: SessionState, c: cmd.PlayCard) -> list[ev.Event]:
    player = known_player(s, c.player)
    deal = _tricks_open(s, "cards")
    card = parse_card(c.card, s.rules.pack)
    if deal.entry == Entry.QUICK:
        raise OutOfTurn("this deal is entered trick by trick (quick entry); cards cannot be "
                        "added", rule="entry-mode")
    if player not in deal.standing_names():
        raise OutOfTurn(f"{player} is not standing in this deal", rule="standing-player")
    turn = next_to_play(deal, s.rules)
    if player != turn:
        raise OutOfTurn(f"it is {turn}'s turn to play, not {player}'s", rule="play-in-turn")
    replay = deal.phase == Phase.REPLAYING
    call = _call(s, deal, c.call, card)
    in_trick = {x for _, x in deal.current_trick}
    if replay and deal.hands:
        played_again = [x for t in deal.tricks for p, x in t["cards"] if p == player]
        played_again += [x for p, x in deal.current_trick if p == player]
        if card not in deal.hands.get(player, []) or card in played_again:
            raise InvalidInput(f"in the replay {player} plays the cards he held: "
                               f"{', '.join(deal.hands.get(player, []))}",
                               rule="replay-same-cards", field="card")
    else:
        seen = {deal.trump_card} | in_trick | {x for t in deal.tricks for _, x in t["cards"]}
        if not replay:
            seen |= {x for cards in deal.hands.values() for x in cards}
        # Irish and five-card loo: a card put out in an exchange is out of play ("nor can a card
        # once put out be taken back into the hand", Baxter-Wray p. 27), and a card another
        # player drew is his.
        seen |= {x for p, e in deal.exchanges.items() for x in e["cards_out"]
                 + (e["cards_in"] if p != player else [])}
        if card in seen:
            raise InvalidInput(f"{card} has already been seen in this deal", rule="card-unseen",
                               field="card")
    trick = len(deal.tricks) + 1
    return [ev.CardPlayed(deal_no=deal.deal_no, player=player, card=card, trick=trick,
                          replay=replay, call=call)]


def pam_call_card(s: SessionState, deal: DealState) -> str | None:
    """Five-card loo: the ace of trumps, when the card to be played now is a lead, the ace may
    still be led and Pam is live (not turned up, not put out in an exchange, not played in this
    play-through): the lead of that card must say whether "Pam, be civil" was called
    (docs/rules.md §9.3, §11.30). None otherwise."""
    pam = pam_card(s.rules.pam, deal.trump)
    if pam is None or deal.current_trick:
        return None
    ace = "A" + deal.trump
    gone = {deal.trump_card} | {x for t in deal.tricks for _, x in t["cards"]} \
        | {x for e in deal.exchanges.values() for x in e["cards_out"]}
    return None if ace in gone or pam in gone else ace


def _call(s: SessionState, deal: DealState, call: object, card: str) -> Call | None:
    """Five-card loo: "Pam be civil" is said as the ace of trumps is led (Baxter-Wray p. 28:
    "When the ace of trumps is led it is usual for the player of it to say, 'Pam, be
    civil'"); docs/rules.md §9.3. While Pam is live the table says whether it was called, and
    the answer is logged ("none": no call); the ledger never assumes it."""
    asked = pam_call_card(s, deal) == card
    if call is None:
        if asked:
            raise InvalidInput(
                f"{card}, the ace of trumps, is led while Pam is out: say whether \"Pam, be "
                "civil\" was called (call: \"pam-be-civil\", or \"none\"); with the call the "
                "holder of Pam must pass the ace if he holds another trump (Baxter-Wray p. 28)",
                rule="pam-call", field="call", choices=list(Call))
        return None
    if not isinstance(call, str) or call not in tuple(Call):
        raise InvalidInput(f"call must be one of {', '.join(Call)}", rule="call", field="call")
    if call == Call.NONE:
        # no call: logged where the question is asked, a plain card elsewhere
        return Call.NONE if asked else None
    if s.rules.pam is None:
        raise InvalidInput("'Pam be civil' is said at five-card loo only: this game has no Pam",
                           rule="pam-be-civil", field="call")
    if deal.current_trick or card != "A" + deal.trump:
        raise InvalidInput(f"'Pam be civil' is said as the ace of trumps (A{deal.trump}) is led",
                           rule="pam-be-civil", field="call")
    return Call(call)


def record_trick(s: SessionState, c: cmd.RecordTrick) -> list[ev.Event]:
    """Quick entry: the winner of the trick only; nothing can be checked."""
    winner = known_player(s, c.winner, "winner")
    deal = _tricks_open(s, "tricks")
    if deal.entry == Entry.CARDS:
        raise OutOfTurn("this deal is entered card by card; a trick is complete when each "
                        f"standing player has played ({len(deal.current_trick)} of "
                        f"{len(deal.standing)} cards so far)", rule="entry-mode")
    trick = len(deal.tricks) + 1
    if winner not in in_play(deal, trick):
        raise OutOfTurn(f"{winner} is not playing this trick; the players in play are "
                        f"{', '.join(in_play(deal, trick))}", rule="standing-player",
                        field="winner")
    return [ev.TrickWon(deal_no=deal.deal_no, trick=trick, winner=winner, cards=[],
                        replay=deal.phase == Phase.REPLAYING)]


def trick_completed(s: SessionState, deal: DealState) -> list[ev.Event]:
    """The trick each player in play has played to: the highest trump, else the highest card
    of the suit led, wins it."""
    cards = [c for _, c in deal.current_trick]
    pam = pam_card(s.rules.pam, deal.trump)
    winner = deal.current_trick[trick_winner_index(cards, deal.trump, pam)][0]
    return [ev.TrickWon(deal_no=deal.deal_no, trick=len(deal.tricks) + 1, winner=winner,
                        cards=[list(x) for x in deal.current_trick],
                        replay=deal.phase == Phase.REPLAYING)]


def breaches_proven(s: SessionState, deal: DealState) -> list[ev.Event]:
    """The breaches the cards logged so far prove that are not reported yet, each with the
    preset's penalty for its offender (docs/rules.md §6.4: reported the moment they are proven)."""
    if deal.phase not in (Phase.PLAYING, Phase.REPLAYING, Phase.PLAYED, Phase.REVIEW):
        return []
    replay = deal.first_play is not None
    tricks: list[TrickCards] = list(deal.tricks)
    if deal.current_trick:
        tricks.append({"trick": len(deal.tricks) + 1, "cards": deal.current_trick})
    over = len(deal.tricks) == s.rules.cards_each
    played = Counter(p for t in tricks for p, _ in t["cards"])
    complete = {p for p in deal.standing_names()
                if over or p in deal.abandoned or played[p] == s.rules.cards_each}
    reported = [b for b in deal.breaches if b["replay"] == replay]
    seen = {(b["player"], b["trick"], b["card"]) for b in reported}
    found = [b for b in detect_breaches(tricks, deal.trump_card, s.rules, len(deal.standing),
                                        complete, deal.civil)
             if (b["player"], b["trick"], b["card"]) not in seen]
    table = offences_for(s.rules)
    # One penalty per offender for the breaches of a play-through; the others are reported.
    penalised = {b["player"] for b in reported if OFFENCE_OF_RULE[b["rule"]] in table}
    out: list[ev.Event] = []
    new_penalties: list[PenaltyRecord] = []
    for b in found:
        out.append(ev.BreachDetected.of(deal.deal_no, replay, b))
        offence = OFFENCE_OF_RULE[b["rule"]]
        if offence not in table or b["player"] in penalised:
            continue  # not an offence in this preset's laws, or already charged
        # docs/rules.md §11.18: an offence made while playing the miss for the pool is the dealer's.
        penalised.add(b["player"])
        pen = penalty_event(s, deal, b["player"], offence, table[offence], evidence=dict(b),
                            extra_penalties=new_penalties)
        new_penalties.append(cast(PenaltyRecord, pen.payload()))
        out.append(pen)
    return out
