"""Random legal Loo sessions, played through `execute` from the opening to the end.

A reusable generator for property tests, REST tests and benchmarks:

    from tests.support.sessions import play_session, sessions, DrawChooser, RandomChooser

    @given(st.data())
    def test_x(data):
        played = play_session(DrawChooser(data.draw), observer=check_step)

    @given(sessions(max_deals=8))        # or a PlayedSession without an observer
    def test_y(played): ...

    played = play_session(RandomChooser(seed=7), shape=SessionShape(max_deals=300))  # benchmark

Every move is picked from what `expected(state)` offers, with the cards of a real shuffled pack:
each standing player plays from his real hand (the miss's cards when he took it, or when the
dealer plays it for the pool), now legally by the laws of docs/rules.md §6 and now not, so that the
ledger has breaches to detect. Now and then the generator also tries something the rules forbid
and asserts the ledger refuses it (a `LedgerError`) without appending anything.
Each command is recorded as a `Step` (with its wire form, `to_wire`) so a REST test can send the
same session over HTTP and compare.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, TypeVar

from hypothesis import strategies as st

from ledger.domain import CLIENT_TYPES, PRESETS, LedgerError, execute, expected
from ledger.domain import commands as cmd
from ledger.domain.cards import RANK_VALUE, SUITS, ranks_for
from ledger.domain.events import BreachDetected, DealSettled, DealStarted, Event, PenaltyImposed
from ledger.domain.offence_tables import offences_for
from ledger.domain.state import SessionState

T = TypeVar("T")

PRESET_NAMES = ("baxter-wray", "blenheim", "enquire-within", "cassell")
VARIANT_NAMES = ("three-card", "irish", "five-card")
PLAYER_NAMES = ("Ada", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
JOINER_NAMES = ("Hal", "Ivy", "Jem", "Kit", "Lou", "Max", "Ned", "Oto")
MAX_SEATED = 9  # 9 hands, a miss and a trump card fit the 32-card pack
# offences in play that no logged card can show; the ledger detects the others itself
UNSEEN_OFFENCES = ("played-out-of-turn", "exposed-card-in-play", "named-card", "detached-card",
                   "threw-up-after-lead", "played-before-all-declared")
WIRE_TYPES = {command: name for name, command in CLIENT_TYPES.items()}


# ---------------------------------------------------------------- where the choices come from


class Chooser:
    """The source of every random choice; `chance` and `weighted` shrink to the plain option."""

    def choice(self, options: Sequence[T]) -> T:
        raise NotImplementedError

    def integer(self, low: int, high: int) -> int:
        raise NotImplementedError

    def permutation(self, items: Sequence[T]) -> list[T]:
        raise NotImplementedError

    def chance(self, p: float) -> bool:
        """True with probability about `p`; False is the simple (shrunk) answer."""
        if p <= 0:
            return False
        return self.integer(0, 999) >= 1000 - round(p * 1000)

    def weighted(self, options: Sequence[tuple[T, int]]) -> T:
        """One of the options by integer weight; the first option is the simple answer."""
        total = sum(w for _, w in options)
        roll = self.integer(0, total - 1)
        for value, weight in options:
            if roll < weight:
                return value
            roll -= weight
        raise AssertionError("unreachable")


class DrawChooser(Chooser):
    """Every choice drawn by Hypothesis (`data.draw` or a composite's `draw`): best shrinking.

    Good for sessions of a few dozen deals; a long session outgrows Hypothesis' buffer.
    """

    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]):
        self.draw = draw

    def choice(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(list(options)))

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def permutation(self, items: Sequence[T]) -> list[T]:
        return self.draw(st.permutations(list(items)))


class RandomChooser(Chooser):
    """Every choice from a seeded `random.Random`: sessions of any length, reproducible."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choice(self, options: Sequence[T]) -> T:
        return self.rng.choice(list(options))

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def permutation(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.rng.shuffle(out)
        return out


# ---------------------------------------------------------------- the shape of a session


@dataclass(frozen=True)
class SessionShape:
    """How long and how eventful a session is; probabilities are per opportunity."""

    min_deals: int = 1
    max_deals: int = 10
    p_overrides: float = 0.6  # the club overrides some rule parameters
    p_quick_entry: float = 0.3  # a play-through is entered trick by trick
    p_illegal_card: float = 0.1  # a card is picked from the whole hand, not the legal ones
    p_penalty: float = 0.05  # an offence is charged at an opportunity
    p_in_play_penalty: float = 0.02  # an undetectable offence in play is charged
    p_illegal_try: float = 0.06  # the generator tries something the rules forbid
    p_join: float = 0.04
    p_withdraw: float = 0.04
    p_last_round: float = 0.03
    p_deal_out_of_turn: float = 0.05  # where the rules let such a deal stand
    p_odd_spelling: float = 0.1  # '7♥', 'th', ... instead of the canonical '7H', '10H'
    max_penalties_per_deal: int = 3
    unlimited_loos: bool = True  # `unlimited` loos grow geometrically (big ints) in long runs
    preset: str | None = None  # a fixed preset instead of a random one
    rules: dict[str, Any] = field(default_factory=dict)  # fixed overrides, before random ones
    # the variants drawn from (one: no draw, so three-card sessions stay as they always were)
    variants: tuple[str, ...] = ("three-card",)
    p_exchange: float = 0.4  # Irish and five-card loo: a standing player exchanges
    p_stacked_flush: float = 0.15  # five-card loo: a deal is stacked to give someone a flush
    p_stacked_civil: float = 0.35  # five-card loo: stacked for "Pam be civil" to bite


@dataclass
class Step:
    """One command sent to the ledger and what became of it."""

    command: cmd.Command
    accepted: bool
    events: list[Event]
    error: LedgerError | None
    version_before: int
    version_after: int
    # what the generator meant: {"card_legal": bool, "illegal_try": str, ...}
    note: dict[str, Any] = field(default_factory=dict)

    def wire(self) -> dict[str, Any]:
        return to_wire(self.command)


@dataclass
class PlayedSession:
    session_id: str
    opening: cmd.OpenSession
    state: SessionState
    events: list[Event]
    steps: list[Step]
    deals: int
    features: dict[str, int]  # what the session exercised, for coverage checks


def to_wire(command: cmd.Command) -> dict[str, Any]:
    """The JSON a client sends for `command` (POST /sessions, or an event for a session)."""
    data = {k: v for k, v in asdict(command).items() if v is not None and v is not cmd.UNSAID}
    if isinstance(command, cmd.ShowFlush) and command.pam_held_by is None:
        data["pam_held_by"] = None  # null says nobody holds Pam; left out, it is not said
    if isinstance(command, cmd.OpenSession):
        data.pop("members", None)  # the service fills them in from the club's members
        return data
    if isinstance(command, cmd.ImposePenalty) and not command.redeal:
        data.pop("redeal")
    return {"type": WIRE_TYPES[type(command)], **data}


Observer = Callable[[Step, SessionState], None]


# -------------------------------------------------------- the laws of play (docs/rules.md §6)


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> int:
    return RANK_VALUE[card[:-1]]


def pam_of(pam: str | None, trump_card: str) -> str | None:
    """Five-card loo: the knave of clubs, or of trumps (Baxter-Wray p. 27)."""
    if pam is None:
        return None
    return "JC" if pam == "jack-of-clubs" else "J" + suit(trump_card)


def flush_of(cards: Sequence[str], pam: str | None) -> str | None:
    """The suit of a flush: five of a suit, or four of a suit with Pam; else None."""
    suits = {suit(c) for c in cards if c != pam}
    return next(iter(suits)) if len(cards) == 5 and len(suits) == 1 else None


def pack_of(size: int) -> list[str]:
    return [r + s for s in SUITS for r in ranks_for(size)]


def heads(card: str, best: str, trump: str, pam: str | None = None) -> bool:
    """Whether `card` would win a trick that `best` is winning so far; Pam is the highest
    trump."""
    if card == pam:
        return True
    if best == pam:
        return False
    if suit(card) == suit(best):
        return rank(card) > rank(best)
    return suit(card) == trump


def trick_winner(cards: Sequence[str], trump: str, pam: str | None = None) -> int:
    best = 0
    for i, card in enumerate(cards):
        if heads(card, cards[best], trump, pam):
            best = i
    return best


def _top_trump(trump_card: str, king_when_ace_turned: bool) -> str:
    """The ace of trumps; the king when the ace is turned up (Baxter-Wray, Blenheim)."""
    return ("K" if king_when_ace_turned and trump_card[:-1] == "A" else "A") + suit(trump_card)


def _sequence(low: str, high: str, hand: Sequence[str], out: Sequence[str],
              pam: str | None = None) -> bool:
    """Blenheim law 10: cards in sequence or "of equal value" (a card out of play, turned up
    or played in an earlier trick, counts as a gap filled). Pam ranks just above the ace."""
    trump = suit(low)
    order = [r for r in RANK_VALUE if r + trump != pam]  # the trump suit without Pam
    ranks = [r + trump for r in order] + ([pam] if pam else [])
    gap = ranks[ranks.index(low) + 1:ranks.index(high)]
    return all(c in hand or c in out for c in gap)


def _one_of_two(hand: list[str], trumps: list[str], out: Sequence[str],
                declared: int, pam: str | None = None) -> list[str]:
    if declared == 2:
        return [t for t in trumps if t == trumps[0] or _sequence(t, trumps[0], hand, out, pam)]
    return trumps


def legal_cards(hand: Sequence[str], *, trick: int, so_far: Sequence[str], trump_card: str,
                lead_rule: str, trump_after_trick: str, king_when_ace_turned: bool,
                declared: int, played: Sequence[str] = (), pam: str | None = None,
                civil: bool = False, irish: bool = False) -> list[str]:
    """The cards of `hand` a player may play by docs/rules.md §6 and §9 (an independent
    reading); `played` are the cards of the earlier tricks. Five-card loo: `pam` is the card
    that is Pam (a trump, the highest), `civil` that the ace of trumps was led with "Pam be
    civil"; `irish`: the two-trump lead rules hold only with two declared players."""
    hand = list(hand)
    out = [trump_card, *played]
    trump = suit(trump_card)

    def in_suit(c: str) -> str:
        return trump if c == pam else suit(c)

    def strength(c: str) -> int:
        return 99 if c == pam else rank(c)

    trumps = sorted((c for c in hand if in_suit(c) == trump), key=strength, reverse=True)
    if so_far:
        led = in_suit(so_far[0])
        best = so_far[trick_winner(so_far, trump, pam)]
        of_suit = [c for c in hand if in_suit(c) == led]
        if civil and pam in of_suit and len(of_suit) > 1:
            # Baxter-Wray p. 28: "the holder of Pam must pass the trick, if he can do so
            # without revoking"
            of_suit.remove(pam)
        if of_suit:  # follow suit, and head if able
            return [c for c in of_suit if heads(c, best, trump, pam)] or of_suit
        # none of the suit led: trump if a trump would head the trick, otherwise any card
        return [c for c in trumps if heads(c, best, trump, pam)] or hand
    if trick == 1:
        top = _top_trump(trump_card, king_when_ace_turned)
        if top in hand:
            return [top]
        if irish and declared != 2:
            return hand  # Britannica: Irish loo
        if lead_rule == "highest-of-two" and len(trumps) >= 2:
            return [trumps[0]]
        if lead_rule == "one-of-two" and len(trumps) >= 2:
            return _one_of_two(hand, trumps, out, declared, pam)
        if lead_rule == "highest-card":
            if trumps:
                return [trumps[0]]
            high = max(rank(c) for c in hand)
            return [c for c in hand if rank(c) == high]
        return hand
    if trick == 2 and trumps and trump_after_trick != "none":
        if trump_after_trick in ("higher-of-two", "highest"):
            return [trumps[0]]
        # by-lead-rules (Blenheim): a trump, chosen by the lead rules
        top = _top_trump(trump_card, king_when_ace_turned)
        if top in hand:
            return [top]
        if len(trumps) >= 2:
            return _one_of_two(hand, trumps, out, declared, pam)
        return trumps
    return hand


# ---------------------------------------------------------------- the generator


def before_any_card(deal: Any) -> bool:
    """Declaring, or a deal where all must stand and no card is played yet."""
    return deal.phase == "declaring" or (
        deal.phase == "playing" and not deal.tricks and not deal.current_trick)


class IllegalMoveAccepted(AssertionError):
    """The ledger recorded a move the rules forbid."""


class LegalMoveRefused(AssertionError):
    """The ledger refused a move that expected() offered as legal."""


class _Player:
    def __init__(self, chooser: Chooser, shape: SessionShape, observer: Observer | None,
                 session_id: str):
        self.c = chooser
        self.shape = shape
        self.observer = observer
        self.session_id = session_id
        self.state: SessionState | None = None
        self.events: list[Event] = []
        self.steps: list[Step] = []
        self.features: dict[str, int] = {}
        self.joiners = list(JOINER_NAMES)
        self.opening: cmd.OpenSession | None = None
        self.deals_done = 0
        # the current deal as the table knows it
        self.hands: dict[str, list[str]] = {}
        self.miss: list[str] = []
        self.played: dict[str, list[str]] = {}  # cards played in this play-through
        self.penalties_this_deal = 0
        self.entry: str | None = None
        self.stock: list[str] = []  # Irish and five-card loo: the undealt pack, top first
        self.civil = 0  # the trick led by the ace of trumps with "Pam be civil" (0: none)
        self.variant = "three-card"

    # ------------------------------------------------------------ bookkeeping

    def seen(self, feature: str) -> None:
        self.features[feature] = self.features.get(feature, 0) + 1

    def send(self, command: cmd.Command, **note: Any) -> list[Event]:
        """Send a command the generator believes legal; a refusal is a failure."""
        before = self.state.version if self.state is not None else 0
        try:
            state, events = execute(self.state, command, session_id=self.session_id)
        except LedgerError as err:
            raise LegalMoveRefused(f"{command!r} was refused ({err.rule}: {err.message}); "
                                   f"expected() offered {self._offered()}") from err
        self.state = state
        self.events.extend(events)
        step = Step(command, True, events, None, before, state.version, note)
        self.steps.append(step)
        for e in events:
            self.seen(e.type)
            if isinstance(e, DealSettled):
                self.seen(f"outcome:{e.outcome}")
            if isinstance(e, BreachDetected):
                self.seen(f"breach:{e.rule}")
            if isinstance(e, PenaltyImposed) and e.detected:
                self.seen(f"detected:{e.offence}")
        if self.observer is not None:
            self.observer(step, state)
        return events

    def attempt(self, command: cmd.Command, why: str) -> None:
        """Send a command the rules forbid; the ledger must refuse it and change nothing."""
        state = self.state
        assert state is not None
        before_version = state.version
        before = state.to_dict()
        try:
            _, events = execute(state, command, session_id=self.session_id)
        except LedgerError as err:
            if state.version != before_version or state.to_dict() != before:
                raise AssertionError(f"refused {command!r} but the state changed") from err
            self.seen(f"refused:{why}")
            step = Step(command, False, [], err, before_version, state.version,
                        {"illegal_try": why})
            self.steps.append(step)
            if self.observer is not None:
                self.observer(step, state)
            return
        raise IllegalMoveAccepted(f"{why}: {command!r} was accepted with "
                                  f"{[e.type for e in events]}")

    def _offered(self) -> Any:
        return expected(self.state) if self.state is not None else None

    def action(self, type_: str) -> dict[str, Any] | None:
        assert self.state is not None
        for a in expected(self.state)["actions"]:
            if a["type"] == type_:
                return a
        return None

    def spell(self, card: str) -> str:
        """The card as a table might write it."""
        if not self.c.chance(self.shape.p_odd_spelling):
            return card
        style = self.c.choice(("symbol", "lower", "ten"))
        symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
        if style == "symbol":
            return card[:-1] + symbols[suit(card)]
        if style == "lower":
            return card.lower()
        return card.replace("10", "T") if card.startswith("10") else card

    # ------------------------------------------------------------ opening

    def open(self) -> None:
        c = self.c
        preset = self.shape.preset or c.choice(PRESET_NAMES)
        n = c.integer(3, 7)
        players = list(PLAYER_NAMES[:n])
        rules: dict[str, Any] = dict(self.shape.rules)
        variants = self.shape.variants
        self.variant = variants[0] if len(variants) == 1 else c.choice(variants)
        if self.variant != "three-card":
            rules["variant"] = self.variant
            self.seen(f"variant:{self.variant}")
            self.seen(f"variant:{self.variant}:{preset}")
        if c.chance(self.shape.p_overrides):
            rules.update(self.overrides(preset))
        if self.variant == "five-card" and rules.get("stake", 5) % 5:
            rules["stake"] = 5  # a fixed override made for three cards
        if self.variant == "five-card" and rules.get("pack") == 32 and 5 * n + 1 > 32:
            del rules["pack"]  # six hands of five and a trump card fill the piquet pack
        first = c.choice(players) if c.chance(0.5) else None
        money = c.chance(0.3)
        opening = cmd.OpenSession(players=players, preset=preset, rules=rules,
                                  first_dealer=first, name="generated",
                                  money_per_unit_minor=c.integer(1, 100) if money else None,
                                  currency="GBP" if money else None)
        self.opening = opening
        self.seen(f"preset:{preset}")
        for key in rules:
            self.seen(f"override:{key}")
        self.send(opening)

    def overrides(self, preset: str) -> dict[str, Any]:
        c = self.c
        out: dict[str, Any] = {}
        if c.chance(0.5):
            kinds = ["limited", "mixed", "all-or-nothing"]
            if self.shape.unlimited_loos:
                kinds.append("unlimited")
            kind = c.choice(kinds)
            out["loo"] = kind
            self.seen(f"loo:{kind}")
            if kind == "limited":
                out["loo_amount"] = c.integer(1, 12)
            elif kind == "mixed":
                out["loo_limit"] = c.integer(1, 30)
        if c.chance(0.25):
            out["loo_capped_at_pool"] = c.choice((True, False))
        if c.chance(0.25):
            out["club_law"] = True
        if c.chance(0.3):
            out["fresh_pool"] = c.choice(("turn-up", "antes"))
            if out["fresh_pool"] == "antes" and c.chance(0.5):
                out["ante"] = c.integer(0, 6)
        if c.chance(0.25):
            out["force_after_single"] = True
        if c.chance(0.2):
            out["dealer_stands_out_above"] = c.integer(2, 6)
        if c.chance(0.2):
            out["pack"] = 32
        if c.chance(0.2):
            out["miss_holder_leads"] = True
        if c.chance(0.2):
            out["stake"] = c.choice((5, 10, 15) if self.variant == "five-card" else (3, 6, 9))
        if c.chance(0.2):
            out["deal_price"] = c.integer(1, 6)
        if c.chance(0.2):
            out["fresh_deal_price"] = c.integer(1, 9)
        if c.chance(0.1):
            out["last_before_dealer_bound"] = c.choice((True, False))
        if c.chance(0.1):
            out["deal_out_of_turn"] = c.choice(("refuse", "stands"))
        if out.get("fresh_pool", PRESETS[preset]["fresh_pool"]) == "turn-up":
            out.pop("force_after_single", None)  # a forced stand needs a fresh pool of antes
        if self.variant == "five-card":
            # the parameters the sources leave to agreement (docs/rules.md §9.3)
            if c.chance(0.4):
                out["pam"] = c.choice(("jack-of-clubs", "jack-of-trumps"))
                self.seen(f"pam:{out['pam']}")
            if c.chance(0.4):
                out["flush_payers"] = c.choice(("all-but-beaten-flushes",
                                                "all-but-pam-and-flushes",
                                                "stood-but-pam-and-flushes"))
            out.pop("miss_holder_leads", None)
        return out

    # ------------------------------------------------------------ the loop

    def run(self, target: int, max_steps: int) -> None:
        self.open()
        for _ in range(max_steps):
            s = self.state
            assert s is not None
            if s.status == "ended":
                self.after_the_end()
                return
            phase = expected(s)["phase"]
            if self.c.chance(self.shape.p_illegal_try):
                self.illegal(phase)
                continue
            if phase == "between-deals":
                self.between_deals(target)
            elif phase == "redeal":
                self.deal(redeal=True)
            elif phase == "declaring":
                self.declaring()
            elif phase in ("playing", "replaying"):
                self.playing()
            elif phase == "review":
                self.review()
            else:
                raise AssertionError(f"expected() offers nothing in phase {phase!r}")
        raise AssertionError(f"the session did not end within {max_steps} commands")

    def between_deals(self, target: int) -> None:
        s = self.state
        assert s is not None
        if self.deals_done >= target or self.action("DealStarted") is None:
            # docs/rules.md §11.43: past the amount limit no deal is offered
            if self.action("DealStarted") is None:
                self.seen("amount-limit")
                self.attempt(cmd.StartDeal(trump_card="7H"), "amount-limit")
            end = self.action("SessionEnded")
            if end is not None:
                if "single" not in end["methods"] and self.c.chance(0.3):
                    self.attempt(cmd.EndSession(method="single"), "end-with-a-loo-owed")
                method = self.c.choice(end["methods"])
                self.seen(f"end:{method}")
                self.send(cmd.EndSession(method=method))
                return
            # a player withdrawing deals his last deal first
            self.deal()
            return
        c, shape = self.c, self.shape
        if c.chance(shape.p_join) and self.joiners and len(s.active) < self.capacity():
            name = self.joiners.pop(0)
            self.send(cmd.JoinPlayer(player=name, after=c.choice(s.active), guest=True))
            return
        withdraw = self.action("PlayerWithdrew")
        if withdraw is not None and c.chance(shape.p_withdraw):
            self.send(cmd.Withdraw(player=withdraw["player"]))
            return
        if self.action("LastRoundStarted") is not None and c.chance(shape.p_last_round):
            self.send(cmd.StartLastRound())
            return
        self.deal()

    def capacity(self) -> int:
        assert self.state is not None
        r = self.state.rules
        return min(MAX_SEATED, (r.pack - 1 - (r.cards_each if r.has_miss else 0))
                   // r.cards_each)

    # ------------------------------------------------------------ dealing

    def who_is_dealt(self, dealer: str) -> list[str]:
        """docs/rules.md §5.3, §9.1: from the dealer's left; a dealer standing out gets none."""
        s = self.state
        assert s is not None
        above = s.rules.dealer_stands_out_above
        out = dealer == s.withdrawing or (above is not None and len(s.active) > above)
        i = s.seats.index(dealer)
        order = s.seats[i + 1:] + s.seats[:i + 1]
        return [p for p in order if p in s.active and not (out and p == dealer)]

    def deal(self, *, redeal: bool = False) -> None:
        s = self.state
        assert s is not None
        offer = self.action("DealStarted")
        assert offer is not None
        dealer, kind = offer["dealer"], offer["kind"]
        named: str | None = dealer if self.c.chance(0.3) else None
        # never while a player withdraws: he deals his own last deal (docs/rules.md §8)
        if not redeal and s.rules.deal_out_of_turn == "stands" and not s.withdrawing \
                and self.c.chance(self.shape.p_deal_out_of_turn):
            # Blenheim law 6: a deal out of turn not stopped before the trump is turned stands
            dealer = named = self.c.choice([p for p in s.active if p != offer["dealer"]])
            self.seen("deal-out-of-turn")
        if redeal:
            dealer = s.deal.dealer if s.deal is not None else dealer
        dealt = self.who_is_dealt(dealer) if not redeal else list(s.deal.dealt)  # type: ignore
        cards = self.c.permutation(pack_of(s.rules.pack))
        trump_card, rest = cards[0], cards[1:]
        face_up = None
        each = s.rules.cards_each
        flush = kind == "hand" and self.variant == "five-card" \
            and self.c.chance(self.shape.p_stacked_flush)
        if flush:
            rest = self.stack_flush(rest, trump_card, len(dealt))
        # (not over a stacked flush: the ace and Pam would be swapped into its hand)
        if kind == "hand" and self.variant == "five-card" and len(dealt) >= 2 and not flush \
                and self.c.chance(self.shape.p_stacked_civil):
            rest = self.stack_civil(rest, trump_card, len(dealt))
        if kind == "single":
            face_up = {p: self.spell(rest[i]) for i, p in enumerate(dealt)}
            self.hands, self.miss = {}, []
        else:
            self.hands = {p: list(rest[each * i:each * i + each]) for i, p in enumerate(dealt)}
            miss = 3 if self.variant == "three-card" else 0
            self.miss = rest[each * len(dealt):each * len(dealt) + miss]
            self.stock = list(rest[each * len(dealt) + miss:])
        self.played, self.entry = {}, None
        if not redeal:
            self.penalties_this_deal = 0
        events = self.send(cmd.StartDeal(trump_card=self.spell(trump_card), dealer=named,
                                         face_up=face_up))
        started = events[0]
        assert isinstance(started, DealStarted)
        if started.dealt != dealt:
            raise AssertionError(f"dealt {started.dealt}, the rules deal {dealt}")
        if started.redeal:
            self.seen("redeal")
        else:
            self.deals_done += 1
        if started.forced:
            self.seen(f"forced:{started.forced}")
        self.seen(f"kind:{started.kind}")

    def stack_flush(self, rest: list[str], trump_card: str, hands: int) -> list[str]:
        """Five-card loo: a pack stacked so that one or two hands hold a flush, now and then
        with the knave of clubs (a flush from a shuffled pack is too rare for a session to
        meet one)."""
        rest = list(rest)
        stacked: set[int] = set()  # the hands given a flush
        for _ in range(self.c.choice((1, 1, 2))):
            i = self.c.integer(0, hands - 1)
            stacked.add(i)
            colour = self.c.choice(SUITS)
            wanted = [x for x in rest if suit(x) == colour][:5]
            if colour != "C" and "JC" in rest and self.c.chance(0.3):
                wanted = wanted[:4] + ["JC"]
            for slot, card in zip(range(5 * i, 5 * i + 5), wanted, strict=False):
                j = rest.index(card)
                rest[slot], rest[j] = rest[j], rest[slot]
        assert self.state is not None
        pam = pam_of(self.state.rules.pam, trump_card)
        if pam in rest and rest.index(pam) < 5 * hands \
                and rest.index(pam) // 5 not in stacked and self.c.chance(0.5):
            # Pam left in the pack, so that nobody holds it (it is dealt in about half the deals)
            j, k = rest.index(pam), len(rest) - 1
            rest[j], rest[k] = rest[k], rest[j]
        assert trump_card not in rest
        return rest

    def stack_civil(self, rest: list[str], trump_card: str, hands: int) -> list[str]:
        """Five-card loo: a pack stacked so that one hand holds the ace of trumps and another
        Pam and a second trump, for "Pam be civil" to bite."""
        assert self.state is not None
        trump = suit(trump_card)
        pam = pam_of(self.state.rules.pam, trump_card)
        ace = "A" + trump
        other = next((x for x in rest if suit(x) == trump and x not in (ace, pam)), None)
        if pam not in rest or ace not in rest or other is None:
            return rest
        rest = list(rest)
        j = self.c.integer(1, hands - 1)  # the ace to the elder hand, Pam to another
        for slot, card in ((0, ace), (5 * j, pam), (5 * j + 1, other)):
            k = rest.index(card)
            rest[slot], rest[k] = rest[k], rest[slot]
        return rest

    # ------------------------------------------------------------ declarations and penalties

    def declaring(self) -> None:
        if self.maybe_penalty():
            return
        if self.maybe_exchange():
            return
        offer = self.action("DeclarationMade")
        assert offer is not None
        weights = {"play": 35, "throw_up": 40, "take_miss": 20, "play_miss_for_pool": 30}
        s = self.state
        assert s is not None and s.deal is not None
        pam = pam_of(s.rules.pam, s.deal.trump_card)
        hand = self.hands.get(offer["player"], [])
        if pam is not None and ({pam, "A" + suit(s.deal.trump_card)} & set(hand)
                                or flush_of(hand, pam)) and "play" in offer["choices"] \
                and self.c.chance(0.9):
            # Britannica: "play on an honour in trumps"; a flush stands to show itself
            choice = "play"
        else:
            choice = self.c.weighted([(x, weights[x]) for x in offer["choices"]])
        self.seen(f"declare:{choice}")
        self.send(cmd.Declare(player=offer["player"], declaration=choice))

    def maybe_exchange(self) -> bool:
        """Irish and five-card loo: a standing player exchanges, once, before play, drawing from
        the top of the pack (Baxter-Wray p. 27); the cards are logged or not."""
        offer = self.action("CardsExchanged")
        if offer is None or not self.c.chance(self.shape.p_exchange):
            return False
        assert offer["stock_left"] == len(self.stock), "the ledger miscounts the pack"
        s = self.state
        assert s is not None and s.deal is not None
        pam = pam_of(s.rules.pam, s.deal.trump_card)
        player = self.c.choice(offer["players"])
        hand = self.hands[player]
        if self.variant == "five-card" and flush_of(hand, pam) and self.c.chance(0.8):
            return False  # a flush is kept to be shown
        most = min(len(hand), len(self.stock))
        if most == 0:
            self.attempt(cmd.ExchangeCards(player=player, count=1), "exchange-from-empty-pack")
            return True
        count = self.c.integer(1, most)
        if self.c.chance(0.1) and count < len(hand) and count + 1 > len(self.stock):
            self.attempt(cmd.ExchangeCards(player=player, count=count + 1), "pack-short")
        order = self.c.permutation(hand)
        honours = {"A" + suit(s.deal.trump_card), pam}
        if self.c.chance(0.8):  # the ace of trumps and Pam are kept, mostly
            order = [x for x in order if x not in honours] + [x for x in order if x in honours]
        out = order[:count]
        drawn, self.stock = self.stock[:count], self.stock[count:]
        self.hands[player] = [x for x in hand if x not in out] + drawn
        known = self.c.chance(0.5)
        self.seen("exchange" + (":cards" if known else ":count"))
        self.send(cmd.ExchangeCards(player=player, count=count,
                                    cards_out=[self.spell(x) for x in out] if known else None,
                                    cards_in=[self.spell(x) for x in drawn] if known else None))
        if self.c.chance(0.2):
            self.attempt(cmd.ExchangeCards(player=player, count=1), "second-exchange")
        return True

    def maybe_flush(self) -> bool:
        """Five-card loo, before the first card: every standing player holding a flush shows it
        and, where the ledger asks (`needs`), the table says who holds Pam: the player, or None
        for nobody; elsewhere now and then the holder, or nothing (docs/rules.md §11.38)."""
        s = self.state
        assert s is not None and s.deal is not None
        offer = self.action("FlushShown")
        if offer is None:
            return False
        deal = s.deal
        pam = pam_of(s.rules.pam, deal.trump_card)
        flushes = {p: self.hands[p] for p in deal.standing_names()
                   if flush_of(self.hands[p], pam)}
        if not flushes:
            if self.c.chance(0.05):
                p = self.c.choice(deal.standing_names())
                self.attempt(cmd.ShowFlush(flushes={p: self.hands[p]}), "not-a-flush")
                return True
            return False
        holder = next((p for p in deal.dealt if pam in self.hands.get(p, [])), None)
        named: str | None | cmd.Unsaid
        shown = {p: [self.spell(x) for x in cards] for p, cards in flushes.items()}
        if "pam_held_by" in offer["needs"]:
            assert offer["pam_candidates"], "the holder of Pam asked among nobody"
            named = holder  # the truth: the holder, or None for nobody
            self.seen("pam-held-by:asked" + ("" if holder is not None else ":nobody"))
            concerned = [p for p in offer["pam_candidates"] if p not in flushes]
            if pam not in {x for cards in flushes.values() for x in cards} and concerned \
                    and self.c.chance(0.3):
                self.attempt(cmd.ShowFlush(flushes=shown), "flush-without-pam-held-by")
        else:
            named = holder if holder is not None and self.c.chance(0.7) else cmd.UNSAID
        plain = [p for p, cards in flushes.items() if pam not in cards]
        if plain and self.c.chance(0.1):
            # his five cards are shown without Pam: he cannot be its holder
            self.attempt(cmd.ShowFlush(flushes=shown, pam_held_by=plain[0]), "pam-holder")
        self.seen("flush" + (":several" if len(flushes) > 1 else ""))
        if any(pam in cards for cards in flushes.values()):
            self.seen("flush:with-pam")
        self.send(cmd.ShowFlush(flushes=shown, pam_held_by=named))
        return True

    def maybe_penalty(self, in_play: bool = False) -> bool:
        s = self.state
        assert s is not None and s.deal is not None
        if self.penalties_this_deal >= self.shape.max_penalties_per_deal:
            return False
        deal = s.deal
        p = self.shape.p_in_play_penalty if in_play and not before_any_card(deal) \
            else self.shape.p_penalty
        if not self.c.chance(p):
            return False
        # the preset's table less what the game cannot have (no miss at Irish and five-card
        # loo, no Pam but at five-card loo)
        table = offences_for(s.rules)
        offer = self.action("PenaltyImposed")
        assert offer is not None and sorted(offer["offences"]) == sorted(table)
        standing = [p for p in deal.dealt
                    if deal.hand_of(p) is not None or deal.declarations.get(p) == "play"]
        everyone = sorted(set(deal.dealt) | {deal.dealer})
        before_play = before_any_card(deal)
        begun = deal.pool_at_play_units is not None
        trick = len(deal.tricks) + 1
        in_play_now = [p for p in standing if deal.abandoned.get(p, trick + 1) > trick]
        charged = {(p["player"], p["offence"]) for p in deal.penalties
                   if p.get("hand", 0) == deal.redeals and p["stage"] == "in-play"}
        options = []
        for name, spec in table.items():
            if spec.stage_now(begun) == "in-play":
                # an offence in play is charged once; the ledger refuses it again
                free = [p for p in (everyone if spec.stage != "in-play" or spec.anyone
                                    else standing) if (p, name) not in charged]
            if spec.leaves_play:
                # throwing up after the lead: a player in play, once a card is led, never the
                # last one
                if begun and len(in_play_now) >= 2 and deal.phase in ("playing", "replaying"):
                    options.append((name, [p for p in in_play_now if (p, name) not in charged]))
            elif spec.dealer_only:
                if before_play:  # a misdeal means a redeal: only before any card is played
                    options.append((name, [deal.dealer]))
            elif spec.stage_now(begun) == "pre-play":
                options.append((name, everyone))
            elif spec.stage == "when-committed":
                options.append((name, free))
            elif not standing:
                continue
            elif deal.phase == "declaring":
                if name == "played-before-all-declared":
                    options.append((name, free))
            elif name in UNSEEN_OFFENCES or self.entry == "quick":
                # the cards show the other breaches, and the ledger charges those itself
                options.append((name, free))
        options = [(name, players) for name, players in options if players]
        if not options:
            return False
        offence, players = self.c.choice(options)
        player = self.c.choice(players)
        # Baxter-Wray p. 24: interference means a redeal "if cards were mixed or exposed";
        # a redeal is for the deal itself, so only before play (in play the ledger refuses it)
        redeal = table[offence].redeal == "optional" and before_play and self.c.chance(0.5)
        self.penalties_this_deal += 1
        self.seen(f"penalty:{offence}")
        if deal.phase != "declaring" and before_play:
            self.seen(f"penalty-in-a-forced-stand:{offence}")
        events = self.send(cmd.ImposePenalty(player=player, offence=offence, redeal=redeal))
        for e in events:
            if isinstance(e, PenaltyImposed):
                if e.destination == "next_pool-at-settlement":
                    self.seen("penalty:loo-fixed-at-settlement")
                if e.leaves_play and self.entry == "cards":
                    self.seen("penalty:left-play-card-by-card")
                if e.stage == "in-play" and table[offence].stage == "when-committed":
                    self.seen("penalty:in-play-by-when-committed")
                if e.stage == "in-play" and player not in standing:
                    self.seen("penalty:in-play-by-a-sitter")
        return True

    # ------------------------------------------------------------ play

    def hand_of(self, player: str) -> list[str]:
        s = self.state
        assert s is not None and s.deal is not None
        kind = s.deal.hand_of(player)
        full = self.hands[player] if kind == "own" else self.miss
        return [x for x in full if x not in self.played.get(player, [])]

    def playing(self) -> None:
        s = self.state
        assert s is not None and s.deal is not None
        deal = s.deal
        if not deal.tricks and not deal.current_trick:
            self.played, self.entry, self.civil = {}, None, 0
        if self.maybe_penalty(in_play=True):
            return
        if before_any_card(deal) and deal.phase == "playing" and (
                self.maybe_flush() or self.maybe_exchange()):
            return
        card_offer, trick_offer = self.action("CardPlayed"), self.action("TrickWon")
        if self.entry is None:
            quick = trick_offer is not None and (
                card_offer is None or self.c.chance(self.shape.p_quick_entry))
            self.entry = "quick" if quick else "cards"
            self.seen(f"entry:{self.entry}" + (":replay" if deal.phase == "replaying" else ""))
        if self.entry == "quick":
            assert trick_offer is not None
            self.send(cmd.RecordTrick(winner=self.c.choice(trick_offer["winners"])))
            return
        assert card_offer is not None
        player = card_offer["player"]
        hand = self.hand_of(player)
        r = s.rules
        pam = pam_of(r.pam, deal.trump_card)
        trick = len(deal.tricks) + 1
        legal = legal_cards(hand, trick=trick,
                            so_far=[x for _, x in deal.current_trick], trump_card=deal.trump_card,
                            lead_rule=r.lead_rule, trump_after_trick=r.trump_after_trick,
                            king_when_ace_turned=r.ace_turned_up_king_leads,
                            declared=len(deal.standing),
                            played=[x for t in deal.tricks for _, x in t["cards"]],
                            pam=pam, civil=self.civil == trick,
                            irish=self.variant == "irish")
        pool = hand if self.c.chance(self.shape.p_illegal_card) else legal
        card = self.c.choice(pool)
        if pam in hand and pam not in legal and self.civil == trick and self.c.chance(0.5):
            card = pam  # Pam played on the ace with the call: not civil
        if card not in legal:
            self.seen("card:illegal")
        call = None
        asked = card_offer.get("pam_call")
        if pam is not None and not deal.current_trick and card == "A" + suit(deal.trump_card) \
                and self.c.chance(0.8):
            call = "pam-be-civil"  # Baxter-Wray p. 28
            self.civil = trick
            self.seen("call:pam-be-civil")
            if any(pam in self.hand_of(p) for p in deal.standing_names() if p != player):
                self.seen("call:pam-out")
        elif asked is not None and card == asked["card"]:
            call = "none"  # asked while Pam is out: no call, said (docs/rules.md §9.3)
            self.seen("call:none")
        if asked is not None and card == asked["card"] and self.c.chance(0.3):
            # the ace of trumps led while Pam is out, without saying whether it was called
            self.attempt(cmd.PlayCard(player=player, card=card), "ace-led-unsaid")
        if pam is not None and card == pam:
            self.seen("card:pam")
        self.played.setdefault(player, []).append(card)
        self.send(cmd.PlayCard(player=player, card=self.spell(card), call=call),
                  card_legal=card in legal, card=card, player=player,
                  trick=trick, replay=deal.phase == "replaying")

    def review(self) -> None:
        if self.maybe_penalty(in_play=True):
            return
        ask = self.action("ReplayAsked")
        assert ask is not None
        if ask["by"] and self.c.chance(0.5):
            self.send(cmd.AskReplay(by=self.c.choice(ask["by"])))
            self.played, self.entry = {}, None
        else:
            self.send(cmd.WaiveReplay())

    # ------------------------------------------------------------ what the rules forbid

    def illegal(self, phase: str) -> None:
        s = self.state
        assert s is not None
        c = self.c
        tries: list[tuple[str, cmd.Command]] = []
        someone = c.choice(s.active)
        if phase not in ("between-deals", "redeal"):
            tries.append(("start-deal-in-a-deal", cmd.StartDeal(trump_card="AS")))
        if phase != "between-deals":
            tries += [("end-in-a-deal", cmd.EndSession(method="divide-pool")),
                      ("join-in-a-deal",
                       cmd.JoinPlayer(player="Zed", after=someone, guest=True)),
                      ("withdraw-in-a-deal", cmd.Withdraw(player=someone))]
        if phase not in ("playing", "replaying"):
            tries += [("card-out-of-play", cmd.PlayCard(player=someone, card="2C")),
                      ("trick-out-of-play", cmd.RecordTrick(winner=someone))]
        if phase != "review":
            tries += [("replay-unasked", cmd.AskReplay(by=someone)),
                      ("waive-unasked", cmd.WaiveReplay())]
        if phase != "declaring":
            tries.append(("declare-out-of-time", cmd.Declare(player=someone, declaration="play")))
        tries.append(("unknown-player", cmd.Declare(player="Nobody", declaration="play")))
        offer = self.action("DealStarted")
        if phase == "between-deals" and offer is not None:
            if offer["kind"] == "single":
                tries.append(("single-without-face-up", cmd.StartDeal(trump_card="7H")))
            else:
                tries.append(("face-up-at-a-hand",
                              cmd.StartDeal(trump_card="7H", face_up={p: "8H" for p in s.active})))
            other = [p for p in s.active if p != offer["dealer"]]
            if s.rules.deal_out_of_turn == "refuse":
                tries.append(("deal-out-of-turn",
                              cmd.StartDeal(trump_card="7H", dealer=c.choice(other))))
            elif s.withdrawing:
                tries.append(("deal-out-of-turn-while-withdrawing",
                              cmd.StartDeal(trump_card="7H", dealer=c.choice(other))))
            not_dealer = [p for p in s.active if p != s.next_dealer]
            tries.append(("withdraw-out-of-turn", cmd.Withdraw(player=c.choice(not_dealer))))
            tries.append(("join-twice",
                          cmd.JoinPlayer(player=someone, after=someone, guest=True)))
            if s.loos_owed:
                tries.append(("end-with-a-loo-owed", cmd.EndSession(method="single")))
        deal = s.deal
        if phase == "declaring" and deal is not None:
            offer = self.action("DeclarationMade")
            assert offer is not None
            others = [p for p in deal.dealt if p != offer["player"]]
            if others:
                tries.append(("declare-out-of-turn",
                              cmd.Declare(player=c.choice(others), declaration="throw_up")))
            barred = [d for d in ("play", "throw_up", "take_miss", "play_miss_for_pool")
                      if d not in offer["choices"]]
            if barred:
                tries.append(("declaration-not-open",
                              cmd.Declare(player=offer["player"], declaration=c.choice(barred))))
            if deal.dealer != someone:
                tries.append(("misdeal-by-another",
                              cmd.ImposePenalty(player=someone, offence="misdeal")))
        if phase in ("playing", "replaying") and deal is not None:
            card_offer = self.action("CardPlayed")
            standing = deal.standing_names()
            sitting = [p for p in s.active if p not in standing]
            if card_offer is not None:
                turn = card_offer["player"]
                others = [p for p in standing if p != turn]
                if others and self.entry == "cards":
                    who = c.choice(others)
                    left = self.hand_of(who)
                    if left:
                        tries.append(("card-out-of-turn",
                                      cmd.PlayCard(player=who, card=c.choice(left))))
                tries.append(("trump-card-played", cmd.PlayCard(player=turn,
                                                                card=deal.trump_card)))
                gone = [x for t in deal.tricks for _, x in t["cards"]]
                gone += [x for _, x in deal.current_trick]
                if gone:
                    tries.append(("card-played-twice", cmd.PlayCard(player=turn,
                                                                    card=c.choice(gone))))
            if deal.entry == "cards":
                tries.append(("trick-in-card-entry", cmd.RecordTrick(winner=c.choice(standing))))
            if deal.entry == "quick":
                tries.append(("card-in-quick-entry", cmd.PlayCard(player=standing[0], card="2C")))
            if sitting:
                if deal.entry != "cards":
                    tries.append(("trick-to-a-sitter", cmd.RecordTrick(winner=c.choice(sitting))))
                table = offences_for(s.rules)
                in_play = [n for n, spec in table.items()
                           if spec.stage == "in-play" and not spec.anyone]
                not_playing = [p for p in sitting if p in deal.dealt]
                if in_play and not_playing:
                    tries.append(("in-play-offence-by-a-sitter",
                                  cmd.ImposePenalty(player=c.choice(not_playing),
                                                    offence=c.choice(in_play))))
        if deal is not None and s.rules.exchanges and phase in ("declaring", "playing"):
            tries += self.variant_tries(deal)
        if phase in ("playing", "replaying", "review") and deal is not None \
                and not before_any_card(deal):
            tries.append(("misdeal-after-play-began",
                          cmd.ImposePenalty(player=deal.dealer, offence="misdeal")))
        if phase == "review" and deal is not None:
            offenders = sorted({p["player"] for p in deal.penalties if p["stage"] == "in-play"})
            if offenders:
                tries.append(("replay-asked-by-offender", cmd.AskReplay(by=c.choice(offenders))))
        why, command = c.choice(tries)
        self.attempt(command, why)

    def variant_tries(self, deal: Any) -> list[tuple[str, cmd.Command]]:
        """Irish and five-card loo: what the variants forbid (docs/rules.md §9.2, §9.3)."""
        s = self.state
        assert s is not None
        tries: list[tuple[str, cmd.Command]] = []
        dealt = [p for p in deal.dealt if p != deal.dealer] or deal.dealt
        # "There is no miss" (Baxter-Wray p. 27)
        tries.append(("looked-at-missing-miss",
                      cmd.ImposePenalty(player=dealt[0], offence="looked-at-miss")))
        offer = self.action("CardsExchanged")
        if before_any_card(deal) and s.rules.exchange_turn == "turn-to-declare":
            # Baxter-Wray p. 27: "the player, whose turn it is to declare": a turn passed
            may = offer["players"] if offer is not None else []
            passed = [p for p in deal.standing_names() if p not in deal.exchanges
                      and p not in may]
            if passed:
                tries.append(("exchange-out-of-turn",
                              cmd.ExchangeCards(player=passed[0], count=1)))
        return tries

    def after_the_end(self) -> None:
        s = self.state
        assert s is not None
        if self.c.chance(0.5):
            self.attempt(self.c.choice([cmd.StartDeal(trump_card="7H"),
                                        cmd.EndSession(method="divide-pool"),
                                        cmd.JoinPlayer(player="Zed", after=s.active[0],
                                                       guest=True)]),
                         "after-the-end")


def play_session(chooser: Chooser, *, shape: SessionShape = SessionShape(),
                 observer: Observer | None = None, session_id: str = "s",
                 deals: int | None = None) -> PlayedSession:
    """Play one whole random legal session through `execute` and return it.

    `observer(step, state)` is called after every command (accepted or refused), with the state
    as it stands then; the state is folded in place, so copy what you keep.
    """
    target = deals if deals is not None else chooser.integer(shape.min_deals, shape.max_deals)
    player = _Player(chooser, shape, observer, session_id)
    # a deal takes at most ~60 commands (declarations, 3 x 7 cards twice, penalties, redeals)
    player.run(target, max_steps=200 + 80 * (target + 1))
    assert player.state is not None and player.opening is not None
    return PlayedSession(session_id=session_id, opening=player.opening, state=player.state,
                         events=player.events, steps=player.steps, deals=player.deals_done,
                         features=dict(player.features))


@st.composite
def sessions(draw: Callable[[st.SearchStrategy[Any]], Any], *, min_deals: int = 1,
             max_deals: int = 8, shape: SessionShape | None = None,
             seeded: bool = False) -> PlayedSession:
    """A whole played session; `seeded` draws one seed instead of every choice (long runs)."""
    shape = replace(shape or SessionShape(), min_deals=min_deals, max_deals=max_deals)
    if seeded:
        deals = draw(st.integers(min_deals, max_deals))
        return play_session(RandomChooser(draw(st.integers(0, 2**32 - 1))), shape=shape,
                            deals=deals)
    return play_session(DrawChooser(draw), shape=shape)
