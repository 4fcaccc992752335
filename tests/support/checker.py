"""The ledger's properties, checked after every command of a generated session.

`LedgerChecker` is an independent reading of the rules (docs/rules.md §2, §5, §7, §8, §11):
it keeps its own tally of every posting, its own idea of who is looed and what is owed, and
compares the ledger's state, views and statement with it after every command.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

from hypothesis import event as label_example

from ledger.domain import (
    LedgerError,
    deal_view,
    event_from_record,
    event_to_record,
    fold,
    statement,
    statement_csv,
)
from ledger.domain import events as ev
from ledger.domain.evolve import evolve
from ledger.domain.money import loo_depends_on_pool
from ledger.domain.offence_tables import TABLES
from ledger.domain.state import SessionState
from tests.support.sessions import (
    SessionShape,
    Step,
    flush_of,
    pam_of,
    play_session,
    rank,
    suit,
)

POOLS = ("pool", "next_pool")
PLAYED_OUTCOMES = ("divided", "pool-won", "pool-stays")
SLOW = bool(os.environ.get("LANTERLOO_SLOW"))


def roundtrip(event: ev.Event) -> ev.Event:
    """The event as the store gives it back: JSON in, upcast and rebuilt on the way out."""
    type_, version, payload = event_to_record(event)
    return event_from_record(type_, version, json.loads(json.dumps(payload)))


def frozen(view: Any) -> Any:
    return json.loads(json.dumps(view))


def loo_for(state: SessionState, base_units: int) -> int:
    """docs/rules.md §4, on the pool as it stood when play began (docs/rules.md §11.3)."""
    r = state.rules
    if r.loo == "limited":
        assert r.loo_amount is not None
        return min(r.loo_amount, base_units) if r.loo_capped_at_pool else r.loo_amount
    if r.loo == "unlimited":
        return base_units
    if r.loo == "mixed":
        assert r.loo_limit is not None
        return min(base_units, r.loo_limit)
    return 2 * r.deal_price  # all-or-nothing: double the price of the deal


def walk(value: Any, path: str = ""):
    """Every (path, leaf) of a JSON-like value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, f"{path}.{k}")
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            yield from walk(v, f"{path}[{i}]")
    else:
        yield path, value


class LedgerChecker:
    """Called after every command of a generated session; asserts the ledger's properties.

    `fold_every_command`: rebuild from the first event after every command (quadratic, for
    short sessions); otherwise a shadow state folded from the stored form of each event is
    compared after every command, and the whole stream is folded from zero at the end.
    """

    def __init__(self, *, fold_every_command: bool, session_id: str = "s"):
        self.bold_stand = False  # the next deal is a bold stand (Cassell)
        self.fold_every_command = fold_every_command
        self.session_id = session_id
        self.events: list[ev.Event] = []
        self.tally: Counter[str] = Counter()  # every account, from every posting so far
        self.categories: dict[str, Counter[str]] = {}  # per player, per category
        self.shadow: SessionState | None = None
        self.views: list[Any] = []  # deal_view after each deal's last event, incremental
        self.shadow_views: list[Any] = []  # the same, from the folded shadow
        self.loo_owed = False  # docs/rules.md §11.2, tracked from the postings alone
        self.loos: list[tuple[str, int, str]] = []  # (payer, units, reason) owed to next pool
        self.deferred: list[str] = []  # players whose penalty loo is fixed at settlement
        self.pool_at_play: int | None = None
        self.in_play_offenders: set[str] = set()
        self.forfeiting: set[str] = set()  # players whose winnings this deal stay in the pool
        self.fined_at_settlement: set[str] = set()  # Blenheim law 9, settled with the deal
        self.card_notes: list[tuple[str, int, bool]] = []  # this play-through's cards
        self.breaches: set[tuple[str, int]] = set()  # reported in this play-through
        self.left_play: set[str] = set()  # threw up after the lead in this play-through
        self.last_round_left = 0
        self.withdrawn: set[str] = set()
        self.checked_steps = 0
        self.flush: ev.FlushShown | None = None  # shown this deal (five-card loo)
        self.exchanges: dict[str, int] = {}  # this hand's exchanges: player -> cards drawn

    # ------------------------------------------------------------ per command

    def __call__(self, step: Step, state: SessionState) -> None:
        self.checked_steps += 1
        if not step.accepted:
            assert isinstance(step.error, LedgerError)
            assert state.version == step.version_before, "a refused command moved the version"
            return
        assert step.version_after == step.version_before + len(step.events)
        assert state.version == len(self.events) + len(step.events)
        if "card_legal" in step.note:
            self.card_notes.append((step.note["player"], step.note["trick"],
                                    step.note["card_legal"]))
        hand_over = False  # the last trick is in: its breaches follow it, then the rest
        for event in step.events:
            if hand_over and not isinstance(event, ev.BreachDetected | ev.PenaltyImposed):
                self.breaches_match_the_laws()
                hand_over = False
            self.before_event(event, state)
            if isinstance(event, ev.TrickWon) and event.trick == state.rules.cards_each \
                    and event.cards:
                hand_over = True
            self.apply_postings(event)
            self.events.append(event)
            self.shadow = evolve(self.shadow, roundtrip(event), session_id=self.session_id)
            if isinstance(event, ev.DealSettled):
                self.shadow_views.append(frozen(deal_view(self.shadow)))
        if hand_over:
            self.breaches_match_the_laws()
        if any(isinstance(e, ev.DealSettled) for e in step.events):
            self.views.append(frozen(deal_view(state)))
            assert self.views[-1] == self.shadow_views[-1], "deal view differs when folded"
        self.after_command(step, state)

    def breaches_match_the_laws(self) -> None:
        """The breaches the cards prove are exactly the cards the laws forbid (docs/rules.md §6),
        reported over the play-through as the cards proved them.

        A player who threw up after the lead never shows the rest of his hand, so what his
        unplayed cards would make illegal cannot be proven from the log: he is left out.
        """
        found = {(p, t) for p, t in self.breaches if p not in self.left_play}
        illegal = {(p, t) for p, t, legal in self.card_notes
                   if not legal and p not in self.left_play}
        assert len(self.card_notes) >= 3 + 2 * (not self.left_play), \
            "a play-through by cards has every card noted"
        assert found == illegal, f"breaches {found}, the laws of play forbid {illegal}"
        self.card_notes, self.breaches, self.left_play = [], set(), set()

    def before_event(self, e: ev.Event, state: SessionState) -> None:
        payload = e.payload()
        for path, leaf in walk(payload):
            assert not isinstance(leaf, float), f"{e.type}{path} is a float"
            if path.endswith("_units"):
                assert leaf is None or type(leaf) is int, f"{e.type}{path} = {leaf!r}"
        seats = set(state.seats)
        for p in e.postings_list:
            amount = p["amount_units"]
            assert type(amount) is int and amount > 0, f"{e.type} posting {p}"
            assert isinstance(p["reason"], str) and p["reason"], f"{e.type} posting {p}"
            assert p["from"] != p["to"] and {p["from"], p["to"]} <= seats | set(POOLS), p
        if isinstance(e, ev.DealStarted):
            self.deal_started(e, state)
        elif isinstance(e, ev.CardPlayed | ev.TrickWon) and self.pool_at_play is None:
            self.pool_at_play = self.tally["pool"]
        elif isinstance(e, ev.ReplayStarted):
            self.card_notes, self.breaches, self.left_play = [], set(), set()
        elif isinstance(e, ev.BreachDetected):
            assert (e.player, e.trick) not in self.breaches, "a breach reported twice"
            self.breaches.add((e.player, e.trick))
        elif isinstance(e, ev.PenaltyImposed):
            self.penalty(e, state)
        elif isinstance(e, ev.CardsExchanged):
            self.exchanged(e, state)
        elif isinstance(e, ev.FlushShown):
            self.flush_shown(e, state)
        elif isinstance(e, ev.DealSettled):
            self.deal_settled(e, state)
            self.bold_stand = e.next_forced is not None
        elif isinstance(e, ev.LastRoundStarted):
            self.last_round_left = e.deals
        elif isinstance(e, ev.PlayerWithdrew):
            self.withdrawn.add(e.player)
        elif isinstance(e, ev.SessionEnded):
            self.session_ended(e, state)

    def apply_postings(self, e: ev.Event) -> None:
        table = self.events[0].rules["penalties"] if self.events else None
        for p in e.postings_list:
            self.tally[p["from"]] -= p["amount_units"]
            self.tally[p["to"]] += p["amount_units"]
            category = f"penalty:{p['offence']}" if p.get("offence") else p["reason"]
            for account, signed in ((p["from"], -p["amount_units"]), (p["to"], p["amount_units"])):
                if account not in POOLS:
                    self.categories.setdefault(account, Counter())[category] += signed
            # docs/rules.md §11.2: loos for no trick and offence loos count; Blenheim's fines do not
            if p["to"] == "next_pool" and (
                    p["reason"] in ("loo", "single_loo")
                    or (p["reason"] == "penalty" and table != "blenheim")):
                self.loo_owed = True
                self.loos.append((p["from"], p["amount_units"], p["reason"]))

    # ------------------------------------------------------------ pools and deals

    def deal_started(self, e: ev.DealStarted, state: SessionState) -> None:
        r = state.rules
        # docs/rules.md §8: a player who withdraws deals, and takes no part in that or later hands
        assert not self.withdrawn & set(e.dealt), f"{self.withdrawn} withdrew but is dealt in"
        self.exchanges = {}
        if e.redeal:
            # The misdealt hand is void: only a Blenheim fine left to be settled with it is
            # charged now; its offences, forfeits and replay do not carry into the new hand.
            fines = sorted((p["from"], p["to"], p["amount_units"], p["reason"])
                           for p in e.postings)
            assert fines == sorted((p, "next_pool", 4 * r.stake, "penalty")
                                   for p in self.fined_at_settlement), "a redeal costs nothing more"
            self.in_play_offenders = set()
            self.forfeiting = set()
            self.fined_at_settlement = set()
            return
        # (7) a fresh pool if and only if no loo is owed (docs/rules.md §11.2)
        assert e.fresh == (not self.loo_owed), \
            f"deal {e.deal_no}: fresh={e.fresh} but a loo owed is {self.loo_owed}"
        self.loo_owed = False
        self.loos = []
        self.deferred = []
        self.pool_at_play = None
        self.in_play_offenders = set()
        self.forfeiting = set()
        self.fined_at_settlement = set()
        self.card_notes, self.breaches, self.left_play = [], set(), set()
        # Cassell: after an all-or-nothing pool is won, a bold stand, never the turn-up single
        # docs/rules.md §11.34: Irish and five-card loo have no turn-up single
        assert e.kind == ("single" if e.fresh and r.fresh_pool == "turn-up"
                          and r.variant == "three-card"
                          and self.last_round_left == 0 and not self.bold_stand else "hand")
        # Irish and five-card loo deal no miss (Baxter-Wray p. 27; Britannica)
        assert not (e.miss and r.variant != "three-card"), "a miss dealt at a variant"
        self.bold_stand = False
        if self.last_round_left:
            assert e.forced == "last-round" and not e.miss, "everyone stands in the last round"
            self.last_round_left -= 1
        # docs/rules.md §5.1: what is paid for a deal
        antes = e.fresh and e.kind == "hand" and r.fresh_pool == "antes"
        price = [p for p in e.postings if p["reason"] == "deal"]
        assert [(p["from"], p["amount_units"]) for p in price] == \
            [(e.dealer, r.fresh_deal_price if antes else r.deal_price)]
        paid_antes = sorted(p["from"] for p in e.postings if p["reason"] == "ante")
        expected_antes = sorted(p for p in state.active if p != e.dealer) if antes and r.ante \
            else []
        assert paid_antes == expected_antes
        assert all(p["amount_units"] == r.ante for p in e.postings if p["reason"] == "ante")
        carried = [p["amount_units"] for p in e.postings if p["reason"] == "brought_forward"]
        assert sum(carried) == self.tally["next_pool"], "what was owed is brought forward whole"
        assert self.tally["pool"] == 0, "the last deal left units in its pool"

    def penalty(self, e: ev.PenaltyImposed, state: SessionState) -> None:
        r = state.rules
        spec = TABLES[r.penalties][e.offence]
        # docs/rules.md §11.20: an offence committed at any time is in play once play began
        assert e.stage == spec.stage_now(self.pool_at_play is not None), \
            f"{e.offence} charged as {e.stage}"
        if e.leaves_play:
            self.left_play.add(e.player)
        first_in_play = e.stage == "in-play" and e.player not in self.in_play_offenders
        # docs/rules.md §7: whose winnings stay in the pool (Enquire Within, Cassell: he keeps them)
        standing = state.deal is not None and state.deal.hand_of(e.player) is not None
        forfeits = (r.penalties in ("baxter-wray", "blenheim") and e.stage == "in-play") or (
            r.penalties == "baxter-wray" and e.offence == "looked-at-another-hand" and standing)
        assert e.forfeits_winnings == forfeits, f"{e.offence}: forfeits {e.forfeits_winnings}"
        if e.forfeits_winnings:
            self.forfeiting.add(e.player)
        if e.destination == "settled-with-deal":
            self.fined_at_settlement.add(e.player)
        if e.stage == "in-play":
            self.in_play_offenders.add(e.player)
        if e.stage == "in-play" and not first_in_play:
            assert e.amount_units == 0 and not e.postings, "one penalty in play per deal"
            return
        base = self.pool_at_play if self.pool_at_play is not None else self.tally["pool"]
        # docs/rules.md §7, the amounts of each table
        if r.penalties == "blenheim":
            want = None if e.stage == "in-play" else r.stake
        elif r.penalties == "baxter-wray" and e.stage == "pre-play" \
                and e.offence != "looked-at-another-hand":
            want = r.single_loo
        elif spec.to == "next_pool" and self.pool_at_play is None and loo_depends_on_pool(r):
            # docs/rules.md §11.3: the loo is on the pool as it stood when play began: not yet known
            assert e.destination == "next_pool-at-settlement" and not e.postings
            self.deferred.append(e.player)
            want = None
        else:
            want = loo_for(state, base)
        assert e.amount_units == want, f"{e.offence}: {e.amount_units} units, RULES say {want}"
        assert sum(p["amount_units"] for p in e.postings) == (want or 0)

    def exchanged(self, e: ev.CardsExchanged, state: SessionState) -> None:
        """docs/rules.md §9.2: once per standing player, before play, from what is left."""
        deal = state.deal
        assert deal is not None and self.pool_at_play is None, "an exchange after play began"
        assert deal.hand_of(e.player) is not None and e.player not in self.exchanges
        r = state.rules
        left = r.pack - len(deal.dealt) * r.cards_each - 1 - sum(self.exchanges.values())
        assert 1 <= e.count <= min(r.cards_each, left) and e.stock_left == left - e.count
        if r.exchange_at == "turn-to-declare":
            # Baxter-Wray p. 27: "the player, whose turn it is to declare": nobody after him has
            # declared (but a throw-up forced by a penalty), or, all standing, exchanged
            after = deal.dealt[deal.dealt.index(e.player) + 1:]
            forced_out = {p["player"] for p in deal.penalties
                          if p["throw_up"] and p.get("hand", 0) == deal.redeals}
            if deal.forced:
                assert not set(after) & set(self.exchanges), "an exchange after his turn"
            else:
                assert not [p for p in after if p in deal.declarations and p not in forced_out], \
                    f"{e.player} exchanged after his turn to declare"
        assert len(e.cards_out) in (0, e.count) and len(e.cards_in) in (0, e.count)
        self.exchanges[e.player] = e.count

    def flush_shown(self, e: ev.FlushShown, state: SessionState) -> None:
        """docs/rules.md §9.3, read again: the winner by precedence, and who pays him."""
        deal = state.deal
        r = state.rules
        assert deal is not None and r.variant == "five-card" and self.pool_at_play is None
        trump = deal.trump_card[-1]
        pam = pam_of(r.pam, deal.trump_card)
        suits = {}
        for p, cards in e.flushes.items():
            suits[p] = flush_of(cards, pam)
            assert suits[p] is not None, f"{p}'s {cards} is no flush"
            assert deal.hand_of(p) is not None, "a flush shown by a player who did not stand"
        # a flush in trumps, then one with Pam, then the elder hand (Baxter-Wray p. 28); at
        # Britannica's order Pam gives no precedence: trumps, then the elder hand
        pam_counts = r.flush_precedence != "trumps-elder"
        best = sorted(e.flushes, key=lambda p: (suits[p] != trump,
                                                pam_counts and pam not in e.flushes[p],
                                                deal.dealt.index(p)))
        assert e.winner == best[0] and sorted(e.beaten) == sorted(best[1:])
        exempt = {e.winner, *e.beaten}
        if r.flush_payers != "all-but-beaten-flushes" and e.pam_held_by:
            exempt.add(e.pam_held_by)
        base = deal.standing_names() if r.flush_payers == "stood-but-pam-and-flushes" \
            else deal.dealt
        assert e.payers == [p for p in base if p not in exempt]
        self.flush = e

    def deal_settled(self, e: ev.DealSettled, state: SessionState) -> None:
        deal = state.deal
        assert deal is not None and deal.deal_no == e.deal_no
        assert e.pool_units == self.tally["pool"], "the settlement misreads the pool"
        # docs/rules.md §7: an offender's winnings stay in the pool, however the pool is won ...
        for p in e.postings:
            assert not (p["from"] == "pool" and p["to"] in self.forfeiting), \
                f"{p['to']} forfeited his winnings but receives {p['amount_units']} ({p['reason']})"
        # ... a penalty loo left to the settlement is charged on the pool when play began ...
        base = self.pool_at_play if self.pool_at_play is not None else self.tally["pool"]
        deferred = sorted((p["from"], p["amount_units"]) for p in e.postings
                          if p["reason"] == "penalty" and p.get("loo"))
        want_loo = loo_for(state, base)
        assert deferred == (sorted((p, want_loo) for p in self.deferred) if want_loo else [])
        # ... and a fine settled with the deal is settled: a loo, or four times the stake
        for player in self.fined_at_settlement:
            assert any(p["from"] == player and p["to"] == "next_pool" for p in e.postings), \
                f"{player}'s fine under Blenheim law 9 was never settled ({e.outcome})"
        looed = set(e.looed)
        loo_postings = [p for p in e.postings if p["reason"] in ("loo", "single_loo")]
        if deal.kind == "single":
            # docs/rules.md §5.2: a higher card of the turned-up suit wins; everyone else is looed
            better = [(rank(c), p) for p, c in deal.face_up.items()
                      if suit(c) == deal.trump and rank(c) > rank(deal.trump_card)]
            winner = max(better)[1] if better else None
            assert looed == set(deal.dealt) - {winner}
            assert e.outcome == ("single-won" if winner else "single-not-won")
            assert all(p["amount_units"] == state.rules.single_loo for p in loo_postings)
            return
        if e.outcome == "flush":
            # the pool to the holder, and the deal's loo from each payer, unless he forfeits
            flush, self.flush = self.flush, None
            assert flush is not None and flush.deal_no == e.deal_no
            loo = loo_for(state, self.tally["pool"])
            paid = sorted((p["from"], p["to"], p["amount_units"]) for p in e.postings
                          if p["reason"] == "flush")
            if flush.winner in self.forfeiting:
                assert not paid
            else:
                assert paid == (sorted((p, flush.winner, loo) for p in flush.payers)
                                if loo else [])
            assert not looed and not e.shares and e.loo_units == loo
            return
        if e.outcome not in PLAYED_OUTCOMES:
            assert not looed and not e.shares, f"{e.outcome}: nobody is looed without play"
            return
        # (4) remainder priority: the first tricks have the preference (docs/rules.md §5.7)
        if e.shares:
            amounts = [s["amount_units"] for s in e.shares]
            assert [s["trick"] for s in e.shares] == list(range(1, state.rules.cards_each + 1))
            assert sum(amounts) == e.pool_units
            assert amounts == sorted(amounts, reverse=True) and max(amounts) - min(amounts) <= 1
            for s in e.shares:
                paid = [p for p in e.postings if p["reason"] == "trick" and p["to"] == s["winner"]]
                if s["paid_to"] is None:
                    assert s["stays_in_pool"]
                elif s["amount_units"]:
                    assert s["paid_to"] == s["winner"] and paid
        # (6) loos: every looed player stood and took no trick; the miss for the pool never
        hands = {x["player"]: x["hand"] for x in deal.standing}
        won = Counter(t["winner"] for t in deal.tricks)
        assert len(deal.tricks) == state.rules.cards_each
        for p in looed:
            assert p in hands, f"{p} was looed without standing"
            assert won[p] == 0, f"{p} was looed with {won[p]} tricks"
            assert hands[p] != "miss-for-pool", "the miss played for the pool was looed"
        for p, hand in hands.items():
            if hand != "miss-for-pool" and won[p] == 0:
                assert p in looed or p in self.in_play_offenders, f"{p} took no trick, not looed"
            if hand == "miss-for-pool":
                assert all(s["stays_in_pool"] for s in e.shares if s["winner"] == p)
        assert self.pool_at_play is not None
        loo = loo_for(state, self.pool_at_play)
        assert e.loo_units == loo
        assert all(p["amount_units"] == loo for p in loo_postings)
        assert sorted(p["from"] for p in loo_postings) == (sorted(looed) if loo else [])

    def session_ended(self, e: ev.SessionEnded, state: SessionState) -> None:
        """docs/rules.md §8: divide the pool equally, remainder one unit each in seat order from the
        (last) dealer's left; releasing the last loos pays each loo back with its own entry."""
        assert self.tally["pool"] == 0
        if e.method == "single":
            assert not self.loo_owed, "a session ends on a single only with no loo owed"
        released = sorted((p["to"], p["amount_units"]) for p in e.postings
                          if p["reason"] == "loo_released")
        # Baxter-Wray p. 17: only loos for taking no trick are released (docs/rules.md §8)
        no_trick = sorted((payer, units) for payer, units, why in self.loos if why == "loo")
        assert released == (no_trick if e.method == "release-last-loos" else [])
        division = [p for p in e.postings if p["reason"] == "end_division"]
        assert len(division) + len(released) == len(e.postings)
        left = self.tally["next_pool"] - sum(units for _, units in released)
        assert sum(p["amount_units"] for p in division) == left
        i = state.seats.index(state.last_dealer or state.seats[0])
        order = [p for p in state.seats[i + 1:] + state.seats[:i + 1] if p in state.active]
        shares = {p["to"]: p["amount_units"] for p in division}
        amounts = [shares.get(p, 0) for p in order]
        assert set(shares) <= set(order) and len(shares) == len(division)
        assert amounts == sorted(amounts, reverse=True) and max(amounts) - min(amounts) <= 1

    # ------------------------------------------------------------ after each command

    def after_command(self, step: Step, state: SessionState) -> None:
        # (1) zero sum
        assert sum(state.balances.values()) == 0
        st_ = statement(state)
        assert st_["check"]["zero_sum"] and st_["check"]["nets_plus_pools_units"] == 0
        # (2) integers only
        for account, units in state.balances.items():
            assert type(units) is int, f"balance of {account} is {units!r}"
        # (3) no unexplained unit: the postings replayed from zero give the balances ...
        assert {k: v for k, v in self.tally.items() if v} == \
            {k: v for k, v in state.balances.items() if v}
        # ... and each player's categories add up to his net, category by category
        for row in st_["players"]:
            p = row["player"]
            assert sum(row["received_units"].values()) - sum(row["paid_units"].values()) \
                == row["net_units"] == state.balances[p]
            mine = {k: v for k, v in self.categories.get(p, Counter()).items() if v}
            theirs = {**{k: -v for k, v in row["paid_units"].items()}, **row["received_units"]}
            assert mine == theirs, f"{p}: categories {theirs} but the postings give {mine}"
        # (5) the rebuild equals the incremental state (field by field, and as JSON-ready dicts
        # whenever a deal is settled)
        assert self.shadow == state, "the stored events fold to another state"
        if self.fold_every_command:
            rebuilt = fold(self.events, session_id=self.session_id)
            assert rebuilt == state, "the events folded from zero give another state"
        if any(isinstance(e, ev.DealSettled | ev.SessionEnded) for e in step.events):
            assert self.shadow is not None and self.shadow.to_dict() == state.to_dict()
        # (8) after every event the transfers settle every party exactly: the players and,
        # while units are still on the table, the pool, owed them like a player (docs/rules.md §8)
        on_table = state.balances["pool"] + state.balances["next_pool"]
        nets = {row["player"]: row["net_units"] for row in st_["players"]}
        if on_table:
            nets["pool"] = on_table
        for t in st_["settlement"]["transfers"]:
            assert type(t["amount_units"]) is int and t["amount_units"] > 0
            assert nets[t["from"]] < 0 < nets[t["to"]]
            nets[t["from"]] += t["amount_units"]
            nets[t["to"]] -= t["amount_units"]
        assert not any(nets.values()), f"unsettled after the transfers: {nets}"
        assert st_["settlement"]["provisional"] == (state.status != "ended")
        if state.status == "ended":
            assert on_table == 0 and st_["settlement"]["final"]

    # ------------------------------------------------------------ at the end

    def finish(self, state: SessionState) -> None:
        """Fold the whole stream from zero, as stored, and compare everything once more."""
        replayed: SessionState | None = None
        views = []
        for event in self.events:
            replayed = evolve(replayed, roundtrip(event), session_id=self.session_id)
            if isinstance(event, ev.DealSettled):
                views.append(frozen(deal_view(replayed)))
        assert replayed is not None and replayed.to_dict() == state.to_dict()
        assert views == self.views
        rebuilt = fold(self.events, session_id=self.session_id)
        assert rebuilt is not None and rebuilt.to_dict() == state.to_dict()
        assert statement_csv(state).count("\n") >= len(state.seats) + 5


def check_session(chooser, shape: SessionShape, *, fold_every_command: bool,
                  deals: int | None = None, label: bool = False):
    checker = LedgerChecker(fold_every_command=fold_every_command)
    played = play_session(chooser, shape=shape, observer=checker, deals=deals)
    checker.finish(played.state)
    assert checker.checked_steps == len(played.steps)
    assert played.state.status == "ended"
    if label:  # shown by --hypothesis-show-statistics
        for feature in played.features:
            label_example(feature)
    return played


