"""decide: a command against the state gives the events to record, or a refusal.

Nothing here changes the state. `follow_ups` gives the events the rules draw by themselves
from a state (a completed trick, the breaches it proves, the settlement of a deal).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import commands as cmd
from . import events as ev
from .cards import parse_card, rank_of, suit_of, trick_winner_index
from .errors import InvalidInput, InvariantBroken, LedgerError, OutOfTurn
from .events import NEXT_POOL, POOL, posting
from .limits import (
    CARDS_PER_HAND,
    CURRENCY_PATTERN,
    MAX_PLAYERS,
    MAX_UNITS,
    MIN_PLAYERS,
    PLAYER_NAME_MAX,
    PLAYER_NAME_PATTERN,
    SESSION_NAME_MAX,
    TRICKS_PER_HAND,
    UNIT_NAME_MAX,
)
from .money import equal_division, loo_depends_on_pool, loo_units, trick_shares
from .penalties import TABLES, Offence
from .play import OFFENCE_OF_RULE, detect_breaches, in_play, next_to_play, trick_complete
from .rules import Rules, build_rules
from .seating import from_left_of
from .state import DealState, SessionState
from .vocabulary import (
    DealKind,
    DealOutOfTurn,
    Declaration,
    Destination,
    EndMethod,
    Entry,
    Forced,
    Forfeits,
    FreshPool,
    Hand,
    KeptInPool,
    LooKind,
    Outcome,
    PenaltyAmount,
    PenaltyKind,
    Phase,
    Reason,
    RedealRule,
    Replay,
    Stage,
    Status,
)

DECLARATIONS = tuple(Declaration)
END_METHODS = tuple(EndMethod)
RESERVED_NAMES = {POOL, NEXT_POOL}
# A penalty loo owed to the next pool whose amount is fixed when the deal is settled.
DEFERRED_LOO = Destination.NEXT_POOL_AT_SETTLEMENT


# ---------------------------------------------------------------- opening a session


def decide_open(state: SessionState | None, c: cmd.OpenSession) -> list[ev.Event]:
    if state is not None:
        raise OutOfTurn("the session is already open", rule="open-once")
    players = c.players
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidInput(f"a session needs from {MIN_PLAYERS} to {MAX_PLAYERS} players in "
                           "seat order",
                           rule="players", field="players")
    for name in players:
        _check_name(name, "players")
    if len(set(players)) != len(players):
        raise InvalidInput("player names must be distinct", rule="players", field="players")
    rules = build_rules(c.preset, c.rules)
    _check_capacity(_hands_dealt(rules, len(players)), rules.pack, miss=True)
    first = c.first_dealer if c.first_dealer is not None else players[0]
    if first not in players:
        raise InvalidInput(f"first dealer {first!r} is not one of the players",
                           rule="known-player", field="first_dealer")
    if not isinstance(c.unit, str) or not 1 <= len(c.unit) <= UNIT_NAME_MAX:
        raise InvalidInput(f"unit must be a name of 1 to {UNIT_NAME_MAX} characters", rule="unit",
                           field="unit")
    if c.money_per_unit_minor is not None and (
            not isinstance(c.money_per_unit_minor, int) or isinstance(c.money_per_unit_minor, bool)
            or not 1 <= c.money_per_unit_minor <= MAX_UNITS):
        raise InvalidInput("money_per_unit_minor must be a whole number of minor units >= 1",
                           rule="unit", field="money_per_unit_minor")
    if (c.money_per_unit_minor is None) != (c.currency is None):
        raise InvalidInput("give both money_per_unit_minor and currency, or neither",
                           rule="unit", field="currency")
    if c.currency is not None and not CURRENCY_PATTERN.fullmatch(str(c.currency)):
        raise InvalidInput("currency must be an ISO 4217 code such as GBP", rule="unit",
                           field="currency")
    if not isinstance(c.name, str) or len(c.name) > SESSION_NAME_MAX or not _printable(c.name):
        raise InvalidInput(f"name must be at most {SESSION_NAME_MAX} printable characters",
                           rule="name",
                           field="name")
    if not _printable(c.unit):
        raise InvalidInput("unit must be printable", rule="unit", field="unit")
    return [ev.SessionOpened(name=c.name, players=list(players), first_dealer=first,
                             rules=rules.to_dict(), unit=c.unit,
                             money_per_unit_minor=c.money_per_unit_minor, currency=c.currency)]


def _printable(text: str) -> bool:
    return not any(unicodedata.category(ch).startswith("C") for ch in text)


def _check_name(name: object, field: str) -> None:
    if not isinstance(name, str) or not PLAYER_NAME_PATTERN.match(name) or name != name.strip() \
            or not _printable(name) or name.lower() in RESERVED_NAMES:
        raise InvalidInput(f"{name!r} is not a usable player name (1-{PLAYER_NAME_MAX} "
                           "characters, not "
                           f"starting with a space or '@', not 'pool' or 'next_pool')",
                           rule="player-name", field=field)


def _hands_dealt(rules: Rules, active: int) -> int:
    """How many hands a deal among `active` players needs (the dealer may stand out)."""
    stands_out = rules.dealer_stands_out_above is not None \
        and active > rules.dealer_stands_out_above
    return active - 1 if stands_out else active


def _check_capacity(dealt: int, pack: int, *, miss: bool,
                    cards_each: int = CARDS_PER_HAND) -> None:
    needed = dealt * cards_each + (cards_each if miss else 0) + 1
    if needed > pack:
        raise InvalidInput(f"{dealt} hands{' and a miss' if miss else ''} and a trump card need "
                           f"{needed} cards; the pack has {pack}", rule="pack-size")


# ---------------------------------------------------------------- dispatch


def decide(state: SessionState, c: cmd.Command) -> list[ev.Event]:
    if state.status == Status.ENDED:
        raise OutOfTurn("the session has ended; nothing more can be recorded",
                        rule="session-open")
    handler = _HANDLERS.get(type(c))
    if handler is None:
        raise InvalidInput(f"unknown command {type(c).__name__}", rule="event-type")
    return handler(state, c)


def _known(state: SessionState, player: object, field: str = "player") -> str:
    if not isinstance(player, str) or player not in state.seats:
        raise InvalidInput(f"unknown player {player!r}; the players are "
                           f"{', '.join(state.seats)}", rule="known-player", field=field)
    return player


def _open_deal(state: SessionState, what: str) -> DealState:
    deal = state.deal
    if deal is None or deal.phase == Phase.SETTLED:
        raise OutOfTurn(f"no deal is in progress: deal first ({what})", rule="deal-in-progress")
    return deal


def _between_deals(state: SessionState, what: str) -> None:
    if not state.between_deals():
        assert state.deal is not None
        raise OutOfTurn(f"{what} only between deals; deal {state.deal.deal_no} is in progress "
                        f"({state.deal.phase})", rule="between-deals")


# ---------------------------------------------------------------- deals


def _start_deal(s: SessionState, c: cmd.StartDeal) -> list[ev.Event]:
    r = s.rules
    deal = s.deal
    redeal = deal is not None and deal.phase == Phase.REDEAL
    if not redeal:
        _between_deals(s, "a new deal starts")
    trump_card = parse_card(c.trump_card, r.pack, field="trump_card")
    if redeal:
        assert deal is not None
        dealer = deal.dealer
        if c.dealer is not None and c.dealer != dealer:
            raise OutOfTurn(f"after a misdeal the same dealer, {dealer}, deals again",
                            rule="redeal-same-dealer", field="dealer")
        kind, dealt, fresh, deal_no = deal.kind, deal.dealt, deal.fresh, deal.deal_no
        base_forced = deal.forced if deal.forced != Forced.CLUB_LAW else None
        # The misdealt hand is void: a Blenheim fine left to be settled with it is charged now
        # (no trick can be made in it); its replay and forfeits do not carry into the new hand.
        redeal_postings = [_blenheim_fine(s, deal, pen) for pen in hand_penalties(deal)
                           if pen["destination"] == Destination.SETTLED_WITH_DEAL]
    else:
        expected = s.next_dealer
        assert expected is not None
        dealer = expected if c.dealer is None else _known(s, c.dealer, "dealer")
        if dealer not in s.active:
            raise OutOfTurn(f"{dealer} has withdrawn", rule="deal-in-turn", field="dealer")
        if dealer != expected and r.deal_out_of_turn != DealOutOfTurn.STANDS:
            raise OutOfTurn(f"it is {expected}'s turn to deal", rule="deal-in-turn",
                            field="dealer")
        if s.withdrawing and dealer != s.withdrawing:
            raise OutOfTurn(f"{s.withdrawing} withdraws at his deal and deals this one",
                            rule="withdraw-at-own-deal", field="dealer")
        # Blenheim law 6: a deal out of turn not stopped before the trump is turned "stands
        # good, and the player to his left deals next" (RULES.md §9.7).
        stands_out = dealer == s.withdrawing or (
            r.dealer_stands_out_above is not None and len(s.active) > r.dealer_stands_out_above)
        dealt = from_left_of(s.seats, dealer,
                             [p for p in s.active if not (stands_out and p == dealer)])
        plan = next_deal(s)
        kind, fresh, base_forced = plan.kind, plan.fresh, plan.forced
        deal_no = s.deal_no + 1
    forced = base_forced
    if kind == DealKind.HAND and forced is None and club_law_applies(r, trump_card):
        forced = Forced.CLUB_LAW
    miss = kind == DealKind.HAND and forced is None
    if len(dealt) < MIN_PLAYERS:
        raise InvalidInput("at least two players must be dealt in", rule="players")
    _check_capacity(len(dealt), r.pack, miss=miss,
                    cards_each=1 if kind == DealKind.SINGLE else CARDS_PER_HAND)
    face_up = _face_up(s, c, kind, dealt, trump_card)
    postings: list[ev.Posting] = redeal_postings if redeal else []
    if not redeal:
        antes = fresh and kind == DealKind.HAND and r.fresh_pool == FreshPool.ANTES
        price = r.fresh_deal_price if antes else r.deal_price
        postings.append(posting(dealer, POOL, price, Reason.DEAL, deal_no=deal_no))
        if antes and r.ante:
            for p in s.active:
                if p != dealer:
                    postings.append(posting(p, POOL, r.ante, Reason.ANTE, deal_no=deal_no))
        if s.next_pool_units() > 0:
            postings.append(posting(NEXT_POOL, POOL, s.next_pool_units(), Reason.BROUGHT_FORWARD,
                                    deal_no=deal_no))
    return [ev.DealStarted(deal_no=deal_no, dealer=dealer, kind=kind, trump_card=trump_card,
                           dealt=list(dealt), fresh=fresh, forced=forced, miss=miss,
                           redeal=redeal, face_up=face_up, postings=postings)]


@dataclass(frozen=True)
class NextDeal:
    """What the next deal will be, before its trump is turned (one place for this rule)."""

    kind: DealKind
    fresh: bool
    forced: Forced | None  # why everyone must stand, whatever the trump; club law aside


def next_deal(s: SessionState) -> NextDeal:
    r = s.rules
    fresh = s.next_fresh
    last_round = s.last_round_left > 0
    # Cassell: after the pool is won "the next hand then becomes Bold Stand": a forced hand,
    # never the turn-up single.
    kind = DealKind.SINGLE if (fresh and r.fresh_pool == FreshPool.TURN_UP and not last_round
                               and not s.next_forced) else DealKind.HAND
    forced = (Forced.LAST_ROUND if last_round else
              s.next_forced if s.next_forced else
              Forced.AFTER_SINGLE if (kind == DealKind.HAND and fresh and r.force_after_single)
              else None)
    return NextDeal(kind=kind, fresh=fresh, forced=forced)


def club_law_applies(r: Rules, trump_card: str) -> bool:
    """Baxter-Wray p. 26: with a club turned up all stand and the miss is withdrawn."""
    return r.club_law and suit_of(trump_card) == "C"


def _face_up(s: SessionState, c: cmd.StartDeal, kind: str, dealt: list[str],
             trump_card: str) -> dict[str, str]:
    if kind != DealKind.SINGLE:
        if c.face_up:
            raise InvalidInput("face_up cards belong to the turn-up single only; this deal is "
                               "a three-card hand", rule="deal-kind", field="face_up")
        return {}
    if not isinstance(c.face_up, dict) or not c.face_up:
        raise InvalidInput("this deal is the turn-up single: give face_up, the card dealt face "
                           f"up to each of {', '.join(dealt)}", rule="turn-up-single",
                           field="face_up")
    for p in c.face_up:
        _known(s, p, "face_up")
    missing = [p for p in dealt if p not in c.face_up]
    extra = [p for p in c.face_up if p not in dealt]
    if missing or extra:
        raise InvalidInput(f"face_up must name exactly the players dealt in ({', '.join(dealt)})"
                           + (f"; missing {', '.join(missing)}" if missing else "")
                           + (f"; not dealt in {', '.join(extra)}" if extra else ""),
                           rule="turn-up-single", field="face_up")
    seen = {trump_card}
    out: dict[str, str] = {}
    for p in dealt:
        card = parse_card(c.face_up[p], s.rules.pack, field=f"face_up.{p}")
        if card in seen:
            raise InvalidInput(f"{card} is already seen in this deal", rule="card-unseen",
                               field=f"face_up.{p}")
        seen.add(card)
        out[p] = card
    return out


# ---------------------------------------------------------------- declarations


def next_declarer(deal: DealState) -> str | None:
    for p in deal.dealt:
        if p not in deal.declarations:
            return p
    return None


def legal_declarations(s: SessionState, deal: DealState, player: str) -> list[str]:
    """The choices open to `player` at his turn to declare (RULES.md §3.3-3.4)."""
    order = deal.dealt
    earlier = order[:order.index(player)]
    miss_open = deal.miss and Declaration.TAKE_MISS not in deal.declarations.values()
    choices = [Declaration.PLAY, Declaration.THROW_UP] + (
        [Declaration.TAKE_MISS] if miss_open else [])
    if player == order[-1] and miss_open:
        own = [p for p in earlier if deal.declarations.get(p) == Declaration.PLAY]
        if len(own) == 1:
            # Baxter-Wray p. 19: "he must play the miss for the benefit of the pool";
            # Britannica: he declares before seeing miss that he does not play for himself.
            choices = [Declaration.PLAY, Declaration.TAKE_MISS, Declaration.PLAY_MISS_FOR_POOL]
    if s.rules.last_before_dealer_bound and len(order) >= 2 and player == order[-2]:
        # Cassell: "When only two players stand, the last before the dealer is bound to play
        # either his own hand or dumby".
        standing = [p for p in earlier
                    if deal.declarations.get(p) in (Declaration.PLAY, Declaration.TAKE_MISS)]
        if len(standing) <= 1:
            choices = [x for x in choices if x != Declaration.THROW_UP]
    return choices


def _declare(s: SessionState, c: cmd.Declare) -> list[ev.Event]:
    player = _known(s, c.player)
    deal = _open_deal(s, "declarations")
    if deal.phase != Phase.DECLARING:
        if deal.forced and deal.phase == Phase.PLAYING and not deal.tricks \
                and not deal.current_trick:
            raise OutOfTurn(f"everyone must stand this deal ({deal.forced}); nobody declares",
                            rule="forced-stand")
        raise OutOfTurn(f"the declarations are over (the deal is {deal.phase})",
                        rule="declarations-open")
    if player not in deal.dealt:
        raise OutOfTurn(f"{player} was not dealt in this deal", rule="dealt-in")
    if player in deal.declarations:
        raise OutOfTurn(f"{player} has already declared ({deal.declarations[player]}); no "
                        "declaration is ever changed", rule="one-declaration")
    turn = next_declarer(deal)
    if player != turn:
        raise OutOfTurn(f"it is {turn}'s turn to declare, not {player}'s", rule="declare-in-turn")
    if c.declaration not in DECLARATIONS:
        raise InvalidInput(f"declaration must be one of {', '.join(DECLARATIONS)}",
                           rule="declaration", field="declaration")
    choices = legal_declarations(s, deal, player)
    if c.declaration not in choices:
        raise OutOfTurn(_why_not(deal, c.declaration, choices), rule=_rule_not(deal, c.declaration),
                        field="declaration", choices=choices)
    return [ev.DeclarationMade(deal_no=deal.deal_no, player=player, declaration=c.declaration)]


def _rule_not(deal: DealState, declaration: str) -> str:
    if declaration == Declaration.TAKE_MISS:
        return "miss-taken" if deal.miss else "no-miss"
    if declaration == Declaration.PLAY_MISS_FOR_POOL:
        return "miss-for-pool"
    return "must-stand"


def _why_not(deal: DealState, declaration: str, choices: list[str]) -> str:
    open_ = f"; the choices are {', '.join(choices)}"
    if declaration == Declaration.TAKE_MISS:
        if not deal.miss:
            return "there is no miss this deal" + open_
        return "the miss is already taken" + open_
    if declaration == Declaration.PLAY_MISS_FOR_POOL:
        return ("only the dealer, when exactly one player before him stood on his own cards "
                "and the miss is untaken, may play the miss for the pool") + open_
    return "this player may not throw up here (the dealer when one player stood alone; "\
           "Cassell: the last before the dealer)" + open_


# ---------------------------------------------------------------- play


def _play_card(s: SessionState, c: cmd.PlayCard) -> list[ev.Event]:
    player = _known(s, c.player)
    deal = _playing(s, "cards")
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
        if card in seen:
            raise InvalidInput(f"{card} has already been seen in this deal", rule="card-unseen",
                               field="card")
    trick = len(deal.tricks) + 1
    return [ev.CardPlayed(deal_no=deal.deal_no, player=player, card=card, trick=trick,
                          replay=replay)]


def _playing(s: SessionState, what: str) -> DealState:
    deal = _open_deal(s, what)
    if deal.phase == Phase.DECLARING:
        raise OutOfTurn(f"the declarations are not over: {next_declarer(deal)} is to declare",
                        rule="declarations-over")
    if deal.phase not in (Phase.PLAYING, Phase.REPLAYING):
        raise OutOfTurn(f"no tricks are being played (the deal is {deal.phase})",
                        rule="tricks-in-play")
    return deal


def _record_trick(s: SessionState, c: cmd.RecordTrick) -> list[ev.Event]:
    winner = _known(s, c.winner, "winner")
    deal = _playing(s, "tricks")
    if deal.entry == Entry.CARDS:
        raise OutOfTurn("this deal is entered card by card; a trick is complete when each "
                        f"standing player has played ({len(deal.current_trick)} of "
                        f"{len(deal.standing)} cards so far)", rule="entry-mode")
    trick = len(deal.tricks) + 1
    if winner not in in_play(deal, trick):
        raise OutOfTurn(f"{winner} is not playing this trick; the players in play are "
                        f"{', '.join(in_play(deal, trick))}", rule="standing-player",
                        field="winner")
    return [ev.TrickWon(deal_no=deal.deal_no, trick=len(deal.tricks) + 1, winner=winner,
                        cards=[], replay=deal.phase == Phase.REPLAYING)]


# ---------------------------------------------------------------- penalties


def _offence(s: SessionState, name: object) -> Offence:
    table = TABLES[s.rules.penalties]
    if not isinstance(name, str) or name not in table:
        raise InvalidInput(f"{name!r} is not an offence in the {s.rules.penalties} laws; they "
                           f"list {', '.join(table)}", rule="offence", field="offence")
    return table[name]


def _penalty_base(s: SessionState, deal: DealState) -> int:
    """RULES.md §9.2: the pool as it stood when play began (or as it stands, before play)."""
    return deal.pool_at_play_units if deal.pool_at_play_units is not None else s.pool_units()


def _impose(s: SessionState, c: cmd.ImposePenalty) -> list[ev.Event]:
    player = _known(s, c.player)
    deal = _open_deal(s, "penalties")
    spec = _offence(s, c.offence)
    if deal.phase in (Phase.SINGLE, Phase.REDEAL):
        raise OutOfTurn(f"no penalty can be recorded while the deal is {deal.phase}",
                        rule="penalty-timing")
    if player not in deal.dealt and player != deal.dealer:
        raise OutOfTurn(f"{player} takes no part in this deal", rule="dealt-in")
    if not isinstance(c.redeal, bool):
        raise InvalidInput("redeal must be true or false", rule="redeal", field="redeal")
    if spec.dealer_only and player != deal.dealer:
        raise OutOfTurn(f"a misdeal is the dealer's ({deal.dealer})", rule="misdeal-dealer")
    if spec.redeals(c.redeal) and not _before_play(deal):
        raise OutOfTurn("a redeal is possible only before play begins", rule="penalty-timing",
                        field="redeal" if spec.redeal == RedealRule.OPTIONAL else "offence")
    standing = deal.hand_of(player) is not None \
        or deal.declarations.get(player) == Declaration.PLAY
    if spec.stage == Stage.IN_PLAY and not spec.anyone and not standing:
        raise OutOfTurn(f"{player} is not standing: this offence in play is a standing "
                        "player's", rule="standing-player")
    stage = spec.stage_now(play_begun(deal))
    if stage == Stage.IN_PLAY:
        charged = [p for p in hand_penalties(deal) if p["player"] == player
                   and p["offence"] == c.offence and p["stage"] == Stage.IN_PLAY]
        if charged:
            how = "detected from the cards and charged by the ledger" \
                if charged[0]["detected"] else "recorded already"
            raise LedgerError(f"{player}'s {c.offence} in this deal is {how}; an offence in "
                              "play is charged once", rule="one-penalty-in-play",
                              field="offence")
    if spec.leaves_play:
        _check_leaves_play(deal, player)
    return [penalty_event(s, deal, player, c.offence, spec, redeal_asked=c.redeal)]


def _check_leaves_play(deal: DealState, player: str) -> None:
    """Enquire Within §97 viii: throwing up after the lead: only a player still in play, once
    the first card is led, and never the last one left to play the tricks."""
    if deal.phase not in (Phase.PLAYING, Phase.REPLAYING) or not play_begun(deal):
        raise OutOfTurn("a player throws up after the lead only while the tricks are played",
                        rule="penalty-timing", field="offence")
    trick = len(deal.tricks) + 1
    players = in_play(deal, trick)
    if player not in players:
        raise OutOfTurn(f"{player} is not in play", rule="standing-player")
    if len(players) < 2:
        raise OutOfTurn(f"{player} is the last player in play and cannot throw up",
                        rule="standing-player")


def hand_penalties(deal: DealState) -> list[dict[str, Any]]:
    """The penalties of the hand now dealt (a redeal starts a new hand)."""
    return [p for p in deal.penalties if p.get("hand", 0) == deal.redeals]


def play_begun(deal: DealState) -> bool:
    """The first card (or the first trick, at quick entry) of the deal has been logged."""
    return deal.pool_at_play_units is not None


def _before_play(deal: DealState) -> bool:
    """Declaring, or a forced stand in which no card has been played yet."""
    return deal.phase == Phase.DECLARING or (
        deal.phase == Phase.PLAYING and not deal.tricks and not deal.current_trick)


def penalty_event(s: SessionState, deal: DealState, player: str, offence: str, spec: Offence, *,
                  redeal_asked: bool = False, evidence: dict[str, Any] | None = None,
                  extra_penalties: list[dict[str, Any]] | None = None) -> ev.PenaltyImposed:
    r = s.rules
    earlier = hand_penalties(deal) + (extra_penalties or [])
    standing = deal.hand_of(player) is not None
    redeal = spec.redeals(redeal_asked)
    throw_up = spec.throw_up and player not in deal.declarations \
        and deal.phase == Phase.DECLARING
    forfeits = spec.forfeits == Forfeits.ALWAYS or (
        spec.forfeits == Forfeits.IF_STANDING and standing)
    amount: int | None
    postings: list[ev.Posting] = []
    destination = spec.to
    stage = spec.stage_now(play_begun(deal))
    covered = stage == Stage.IN_PLAY and any(
        p["player"] == player and p["stage"] == Stage.IN_PLAY for p in earlier)
    if covered:
        # Baxter-Wray: "this is his one loo for the deal"; one penalty per offender per deal.
        amount, destination = 0, Destination.COVERED
    elif spec.looed_instead_if_no_trick:
        amount, destination = None, Destination.SETTLED_WITH_DEAL
    elif spec.amount == PenaltyAmount.LOO and spec.to == NEXT_POOL and not play_begun(deal) \
            and loo_depends_on_pool(r):
        # RULES.md §9.2: a penalty loo is computed on the pool as it stood when play began;
        # before play that pool is not yet known (a later fine may add to it), so a loo owed
        # to the next pool is fixed when the deal is settled.
        amount, destination = None, DEFERRED_LOO
    else:
        amount = {PenaltyAmount.SINGLE_LOO: r.single_loo, PenaltyAmount.STAKE: r.stake,
                  PenaltyAmount.LOO: loo_units(r, _penalty_base(s, deal)),
                  PenaltyAmount.FOUR_STAKES: 4 * r.stake}[spec.amount]
        if amount > 0:
            postings.append(posting(player, spec.to, amount, Reason.PENALTY, offence=offence,
                                    deal_no=deal.deal_no, loo=spec.kind == PenaltyKind.LOO))
    return ev.PenaltyImposed(
        deal_no=deal.deal_no, player=player, offence=offence, law=spec.law,
        amount_units=amount, destination=destination, kind=spec.kind,
        forfeits_winnings=forfeits, throw_up=throw_up, redeal=redeal,
        replay=spec.replay if not covered else Replay.NONE, detected=evidence is not None,
        evidence=evidence or {}, postings=postings, stage=stage,
        leaves_play=spec.leaves_play)


def _ask_replay(s: SessionState, c: cmd.AskReplay) -> list[ev.Event]:
    by = _known(s, c.by, "by")
    deal = _open_deal(s, "a replay")
    if deal.phase != Phase.REVIEW:
        raise OutOfTurn("a replay can be asked for only when the play is over and the laws "
                        "leave it to the players", rule="replay-on-request")
    offenders = {p["player"] for p in hand_penalties(deal) if p["stage"] == Stage.IN_PLAY}
    if by in offenders:
        # Blenheim law 11: "if so desired by any one except the offender".
        raise OutOfTurn(f"{by} is the offender and may not ask for the replay",
                        rule="replay-on-request", field="by")
    if by not in s.active:
        raise OutOfTurn(f"{by} has withdrawn", rule="replay-on-request", field="by")
    return [ev.ReplayStarted(deal_no=deal.deal_no, asked_by=by)]


def _waive_replay(s: SessionState, c: cmd.WaiveReplay) -> list[ev.Event]:
    deal = _open_deal(s, "a replay")
    if deal.phase != Phase.REVIEW:
        raise OutOfTurn("there is no replay to waive", rule="replay-on-request")
    return [ev.ReplayWaived(deal_no=deal.deal_no)]


# ---------------------------------------------------------------- seats and the end


def _join(s: SessionState, c: cmd.JoinPlayer) -> list[ev.Event]:
    _between_deals(s, "an aftercomer joins")
    _check_name(c.player, "player")
    if c.player in s.seats:
        raise InvalidInput(f"{c.player} is already seated", rule="players", field="player")
    after = _known(s, c.after, "after")
    if after not in s.active:
        raise InvalidInput(f"{after} has withdrawn; name an active player", rule="players",
                           field="after")
    if len(s.active) + 1 > MAX_PLAYERS:
        raise InvalidInput(f"at most {MAX_PLAYERS} players", rule="players")
    _check_capacity(_hands_dealt(s.rules, len(s.active) + 1), s.rules.pack, miss=True)
    return [ev.PlayerJoined(player=c.player, after=after)]


def _withdraw(s: SessionState, c: cmd.Withdraw) -> list[ev.Event]:
    player = _known(s, c.player)
    _between_deals(s, "a player withdraws")
    if player not in s.active:
        raise OutOfTurn(f"{player} has already withdrawn", rule="withdraw")
    if player != s.next_dealer:
        raise OutOfTurn(f"a player withdraws when it is his turn to deal; the next dealer is "
                        f"{s.next_dealer}", rule="withdraw-at-own-deal")
    if len(s.active) - 1 < MIN_PLAYERS:
        raise OutOfTurn("at least two players must remain", rule="withdraw")
    return [ev.PlayerWithdrew(player=player)]


def _last_round(s: SessionState, c: cmd.StartLastRound) -> list[ev.Event]:
    _between_deals(s, "the last round starts")
    if s.last_round_left:
        raise OutOfTurn("the last round has already started", rule="last-round")
    return [ev.LastRoundStarted(deals=len(s.active))]


def _end(s: SessionState, c: cmd.EndSession) -> list[ev.Event]:
    _between_deals(s, "the session ends")
    if c.method not in END_METHODS:
        raise InvalidInput(f"method must be one of {', '.join(END_METHODS)}", rule="end-method",
                           field="method")
    if s.withdrawing:
        raise OutOfTurn(f"{s.withdrawing} withdraws at his deal; deal it first",
                        rule="between-deals")
    postings: list[ev.Posting] = []
    left = s.next_pool_units()
    if c.method == EndMethod.SINGLE and s.loos_owed:
        # Britannica: "if there is a loo in the last deal of a round, the game continues till
        # there is a hand without a loo".
        raise OutOfTurn("a loo is owed to the next pool: play on until a hand without a loo, "
                        "divide the pool, or release the last loos", rule="end-after-single")
    if c.method == EndMethod.RELEASE_LAST_LOOS:
        # Baxter-Wray p. 17: "releasing those who failed to win a trick in the previous deal";
        # a loo owed for an offence is not released and goes to the last pool (RULES.md §7).
        for loo in s.loos_owed:
            if loo["reason"] != Reason.LOO:
                continue
            postings.append(posting(NEXT_POOL, loo["player"], loo["amount_units"],
                                    Reason.LOO_RELEASED, released=loo["reason"]))
            left -= loo["amount_units"]
    if left > 0:
        order = from_left_of(s.seats, s.last_dealer or s.seats[0], s.active)
        for p, share in equal_division(left, order):
            if share:
                postings.append(posting(NEXT_POOL, p, share, Reason.END_DIVISION))
    return [ev.SessionEnded(method=c.method, postings=postings)]


_HANDLERS: dict[type, Callable[[SessionState, Any], list[ev.Event]]] = {
    cmd.StartDeal: _start_deal,
    cmd.Declare: _declare,
    cmd.PlayCard: _play_card,
    cmd.RecordTrick: _record_trick,
    cmd.ImposePenalty: _impose,
    cmd.AskReplay: _ask_replay,
    cmd.WaiveReplay: _waive_replay,
    cmd.JoinPlayer: _join,
    cmd.Withdraw: _withdraw,
    cmd.StartLastRound: _last_round,
    cmd.EndSession: _end,
}


# ---------------------------------------------------------------- what follows by itself


def follow_ups(s: SessionState) -> list[ev.Event]:
    deal = s.deal
    if deal is None or s.status == Status.ENDED:
        return []
    if deal.phase == Phase.SINGLE:
        return [_settle_single(s, deal)]
    if deal.phase == Phase.DECLARING:
        return _after_declaration(s, deal)
    if deal.entry == Entry.CARDS and (found := _breaches_proven(s, deal)):
        return found
    if deal.phase in (Phase.PLAYING, Phase.REPLAYING) and trick_complete(deal, s.rules):
        return _trick_complete(s, deal)
    if deal.phase == Phase.PLAYED:
        if deal.replay == Replay.REQUIRED and deal.first_play is None:
            return [ev.ReplayStarted(deal_no=deal.deal_no, asked_by=None)]
        return [_settle_played(s, deal)]
    return []


def _after_declaration(s: SessionState, deal: DealState) -> list[ev.Event]:
    order, decl = deal.dealt, deal.declarations
    before_last, last = order[:-1], order[-1]
    if last not in decl and all(p in decl for p in before_last) and not any(
            decl[p] in (Declaration.PLAY, Declaration.TAKE_MISS) for p in before_last):
        # Baxter-Wray p. 19: "then the dealer is entitled to the amount in the pool, no matter
        # what his cards are".
        return [_settle_without_play(s, deal, last, Outcome.DEALER_TOOK_POOL)]
    if all(p in decl for p in order) and len(deal.standing) < 2:
        if not deal.standing:
            return [_settle_without_play(s, deal, None, Outcome.NOBODY_STOOD)]
        only = deal.standing[0]
        # Baxter-Wray p. 19: "the holder of miss, being the only standing hand, takes the whole
        # amount of the pool".
        outcome = Outcome.MISS_HOLDER_TOOK_POOL if only["hand"] == Hand.MISS \
            else Outcome.LAST_STANDING_TOOK_POOL
        return [_settle_without_play(s, deal, only["player"], outcome)]
    return []


def _trick_complete(s: SessionState, deal: DealState) -> list[ev.Event]:
    cards = [c for _, c in deal.current_trick]
    winner = deal.current_trick[trick_winner_index(cards, deal.trump)][0]
    return [ev.TrickWon(deal_no=deal.deal_no, trick=len(deal.tricks) + 1, winner=winner,
                        cards=[list(x) for x in deal.current_trick],
                        replay=deal.phase == Phase.REPLAYING)]


def _breaches_proven(s: SessionState, deal: DealState) -> list[ev.Event]:
    """The breaches the cards logged so far prove that are not reported yet, each with the
    preset's penalty for its offender (docs/rules.md: reported the moment they are proven)."""
    if deal.phase not in (Phase.PLAYING, Phase.REPLAYING, Phase.PLAYED, Phase.REVIEW):
        return []
    replay = deal.first_play is not None
    tricks = list(deal.tricks)
    if deal.current_trick:
        tricks.append({"trick": len(deal.tricks) + 1, "cards": deal.current_trick})
    over = len(deal.tricks) == TRICKS_PER_HAND
    played = Counter(p for t in tricks for p, _ in t["cards"])
    complete = {p for p in deal.standing_names()
                if over or p in deal.abandoned or played[p] == CARDS_PER_HAND}
    reported = [b for b in deal.breaches if b["replay"] == replay]
    seen = {(b["player"], b["trick"], b["card"]) for b in reported}
    found = [b for b in detect_breaches(tricks, deal.trump_card, s.rules, len(deal.standing),
                                        complete)
             if (b["player"], b["trick"], b["card"]) not in seen]
    table = TABLES[s.rules.penalties]
    # One penalty per offender for the breaches of a play-through; the others are reported.
    penalised = {b["player"] for b in reported if OFFENCE_OF_RULE[b["rule"]] in table}
    out: list[ev.Event] = []
    new_penalties: list[dict[str, Any]] = []
    for b in found:
        out.append(ev.BreachDetected(deal_no=deal.deal_no, replay=replay, **b))
        offence = OFFENCE_OF_RULE[b["rule"]]
        if offence not in table or b["player"] in penalised:
            continue  # not an offence in this preset's laws, or already charged
        # RULES.md §9.6: an offence made while playing the miss for the pool is the dealer's.
        penalised.add(b["player"])
        pen = penalty_event(s, deal, b["player"], offence, table[offence], evidence=b,
                            extra_penalties=new_penalties)
        new_penalties.append(pen.payload())
        out.append(pen)
    return out


def _loo_posting(player: str, amount: int, deal: DealState, reason: str) -> list[ev.Posting]:
    if amount <= 0:
        return []
    return [posting(player, NEXT_POOL, amount, reason, deal_no=deal.deal_no, loo=True)]


def _settled(s: SessionState, deal: DealState, outcome: str, postings: list[ev.Posting],
             shares: list[dict[str, Any]], looed: list[str], loo: int | None,
             next_forced: str | None = None) -> ev.DealSettled:
    pool = s.pool_units()
    base = _penalty_base(s, deal)
    for pen in deal.penalties:  # every hand of the deal: a void hand's loo stays owed
        if pen["destination"] == DEFERRED_LOO and (units := loo_units(s.rules, base)):
            postings.append(posting(pen["player"], NEXT_POOL, units, Reason.PENALTY,
                                    offence=pen["offence"], deal_no=deal.deal_no, loo=True))
    paid_out = sum(p["amount_units"] for p in postings if p["from"] == POOL)
    carried = pool - paid_out
    if carried < 0:
        raise InvariantBroken(f"deal {deal.deal_no} pays out more than its pool")
    if carried:
        postings.append(posting(POOL, NEXT_POOL, carried, Reason.CARRIED_FORWARD,
                                deal_no=deal.deal_no))
    new_loos = [p for p in postings if p.get("loo")]
    # RULES.md §9.1: a fresh pool if and only if no loo is owed to the next pool.
    next_fresh = not (s.loos_owed or new_loos)
    return ev.DealSettled(deal_no=deal.deal_no, outcome=outcome, pool_units=pool, loo_units=loo,
                          shares=shares, looed=looed, carried_units=carried,
                          next_fresh=next_fresh, next_forced=next_forced, postings=postings)


def _settle_without_play(s: SessionState, deal: DealState, taker: str | None,
                         outcome: str) -> ev.DealSettled:
    pool = s.pool_units()
    forfeit = {p["player"] for p in hand_penalties(deal) if p["forfeits_winnings"]}
    postings = []
    if taker and pool and taker not in forfeit:
        postings.append(posting(POOL, taker, pool, Reason.POOL_TAKEN, deal_no=deal.deal_no))
    # No trick was played, so a Blenheim offender cannot be "looed instead": he pays the fine.
    for pen in hand_penalties(deal):
        if pen["destination"] == Destination.SETTLED_WITH_DEAL:
            postings.append(_blenheim_fine(s, deal, pen))
    return _settled(s, deal, outcome, postings, [], [], None)


def _blenheim_fine(s: SessionState, deal: DealState, pen: dict[str, Any]) -> ev.Posting:
    """Blenheim law 9: "forfeit four times the amount of a single"; note 3: to the next pool."""
    return posting(pen["player"], NEXT_POOL, 4 * s.rules.stake, Reason.PENALTY,
                   offence=pen["offence"], deal_no=deal.deal_no, loo=False)


def _settle_single(s: SessionState, deal: DealState) -> ev.DealSettled:
    """Baxter-Wray p. 18: a higher card of the turned-up suit wins; the others are looed."""
    trump, floor = deal.trump, rank_of(deal.trump_card)
    better = [(rank_of(c), p) for p, c in deal.face_up.items()
              if suit_of(c) == trump and rank_of(c) > floor]
    winner = max(better)[1] if better else None
    pool = s.pool_units()
    postings: list[ev.Posting] = []
    if winner and pool:
        postings.append(posting(POOL, winner, pool, Reason.POOL_TAKEN, deal_no=deal.deal_no))
    looed = [p for p in deal.dealt if p != winner]
    for p in looed:
        postings += _loo_posting(p, s.rules.single_loo, deal, Reason.SINGLE_LOO)
    outcome = Outcome.SINGLE_WON if winner else Outcome.SINGLE_NOT_WON
    return _settled(s, deal, outcome, postings, [], looed,
                    s.rules.single_loo)


def _settle_played(s: SessionState, deal: DealState) -> ev.DealSettled:
    r = s.rules
    pool = s.pool_units()
    loo = loo_units(r, _penalty_base(s, deal))
    hands = {x["player"]: x["hand"] for x in deal.standing}
    in_play = [p for p in hand_penalties(deal) if p["stage"] == Stage.IN_PLAY]
    forfeit = {p["player"] for p in hand_penalties(deal) if p["forfeits_winnings"]}
    covered = {p["player"] for p in in_play if p["destination"] != Destination.SETTLED_WITH_DEAL}
    fined = {p["player"]: p for p in in_play if p["destination"] == Destination.SETTLED_WITH_DEAL}
    won = Counter(t["winner"] for t in deal.tricks)
    postings: list[ev.Posting] = []
    shares: list[dict[str, Any]] = []
    outcome, next_forced = Outcome.DIVIDED, None
    if r.loo == LooKind.ALL_OR_NOTHING:
        # Cassell, "Unlimited Loo": "a player must take all three tricks to win the pool ...
        # if the tricks are divided, the pool is left untouched"; then a bold stand.
        sweeper = deal.tricks[0]["winner"] if len(won) == 1 else None
        if sweeper and hands[sweeper] != Hand.MISS_FOR_POOL and sweeper not in forfeit and pool:
            postings.append(posting(POOL, sweeper, pool, Reason.POOL_TAKEN, deal_no=deal.deal_no))
            outcome, next_forced = Outcome.POOL_WON, Forced.BOLD_STAND
        else:
            outcome = Outcome.POOL_STAYS
    else:
        for t, share in zip(deal.tricks, trick_shares(pool, TRICKS_PER_HAND), strict=True):
            w = t["winner"]
            kept = KeptInPool.MISS_FOR_POOL if hands[w] == Hand.MISS_FOR_POOL else \
                KeptInPool.FORFEITED if w in forfeit else None
            shares.append({"trick": t["trick"], "winner": w, "amount_units": share,
                           "paid_to": None if kept else w, "stays_in_pool": kept})
            if not kept and share:
                postings.append(posting(POOL, w, share, Reason.TRICK, deal_no=deal.deal_no))
    looed = []
    for x in deal.standing:
        p = x["player"]
        if p in fined:
            pen = fined[p]
            if won[p] == 0 and x["hand"] != Hand.MISS_FOR_POOL:
                # Blenheim law 9: "If he makes no trick he is looed, and there is no further
                # penalty".
                looed.append(p)
                postings += _loo_posting(p, loo, deal, Reason.LOO)
            else:
                postings.append(_blenheim_fine(s, deal, pen))
            continue
        if x["hand"] == Hand.MISS_FOR_POOL or won[p] > 0 or p in covered:
            continue  # the miss is never looed; an offender in play has had his one loo
        looed.append(p)
        postings += _loo_posting(p, loo, deal, Reason.LOO)
    return _settled(s, deal, outcome, postings, shares, looed, loo, next_forced)
