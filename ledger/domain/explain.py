"""Every unit explained (docs/rules.md §2.4): the postings behind each figure of a session.

From the session's live events (corrections.live_events: a superseded tail does not count),
each with where the log keeps it (version, position, time, actor), `explain` lists for every
account (each player, `pool`, `next_pool`) the postings that make up its net and each of its
categories (the statement's: the reason, or `penalty:<offence>`), and names for every posting
the rule that decided its amount: the preset, the parameter and its value, the law in words,
the period source and the section of docs/rules.md. The signed postings of a figure sum to
its net, and per category to the category, exactly.

    trail = explain(session_id, logged, version=57)          # every account
    trail = explain(session_id, logged, version=57, player="B")

`logged` is the log's trail events, superseded ones too: a posting that a correction put in
place of what its superseded tail held names that correction (`correction`: its version,
who, when, why), and the trail lists the corrections (`corrections`).

The rules are in one table, `RULES`: one entry per posting reason (vocabulary.Reason).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from . import events as ev
from .corrections import live_events
from .errors import InvalidInput, InvariantBroken
from .events import NEXT_POOL, POOL
from .offence_tables import TABLES
from .records import Posting
from .rules import Rules
from .statement import safe_cell
from .vocabulary import (
    DealKind,
    EndMethod,
    FreshPool,
    LooKind,
    Outcome,
    PenaltyAmount,
    Preset,
    Reason,
    Variant,
)

PLAYER, POOL_KIND, NEXT_POOL_KIND = "player", "pool", "next_pool"
# The events a trail reads: those that post, and those that seat players, deal, charge a
# penalty or correct (live_events reads any part of a log that keeps every correction).
TRAIL_TYPES = ("SessionOpened", "PlayerJoined", "DealStarted", "PenaltyImposed",
               "DealSettled", "SessionEnded", "EntryCorrected")


@dataclass(frozen=True)
class Logged:
    """An event as the log keeps it: its version and global position, when and by whom."""

    version: int
    position: int
    recorded_at: str
    actor: str
    event: ev.Event


@dataclass(frozen=True)
class Rule:
    """What decided a posting's amount."""

    preset: str
    parameter: str  # the parameter(s) with their values: "ante = 3"
    law: str  # the law in words
    source: str  # the period source, page or law: "Baxter-Wray p. 16"
    docs: str  # the section of docs/rules.md: "docs/rules.md §5.1"

    def to_dict(self) -> dict[str, str]:
        return {"preset": self.preset, "parameter": self.parameter, "law": self.law,
                "source": self.source, "docs": self.docs}


@dataclass
class Context:
    """What a rule of the table may read about one posting."""

    rules: Rules
    posting: Posting
    event: ev.Event
    started: ev.DealStarted | None  # the posting's deal as dealt (None: at the end)
    penalties: list[ev.PenaltyImposed] = field(default_factory=list)  # of the deal so far

    @property
    def preset(self) -> str:
        return str(self.rules.preset)

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    def five_card(self, docs: str) -> str:
        """The section, and §11.35 where the preset's amounts were scaled to five-card loo."""
        return f"{docs}, §11.35" if self.variant == Variant.FIVE_CARD else docs


# ---------------------------------------------------------------- the sources of the stakes

# Where each preset's amounts come from (ledger/domain/rules.py PRESETS cites the same).
STAKES_SOURCE: dict[str, str] = {
    Preset.BAXTER_WRAY: "Baxter-Wray p. 16",
    Preset.BLENHEIM: "Britannica, laws of the Blenheim Club",
    Preset.ENQUIRE_WITHIN: "Enquire Within §97-98",
    Preset.CASSELL: "Cassell, Loo",
}
PENALTY_DOCS: dict[str, str] = {
    Preset.BAXTER_WRAY: "docs/rules.md §7.3",
    Preset.BLENHEIM: "docs/rules.md §7.4",
    Preset.ENQUIRE_WITHIN: "docs/rules.md §7.5",
    Preset.CASSELL: "docs/rules.md §7.6",
}


def _loo_parameter(r: Rules, pool_at_play: int | None) -> tuple[str, str, str, str]:
    """(parameter, law, source, docs) of the deal's loo, by the loo kind (money.loo_units)."""
    pool = "" if pool_at_play is None else f"; the pool held {pool_at_play} when play began"
    if r.loo == LooKind.LIMITED:
        if r.loo_capped_at_pool:
            return (f"loo = limited, loo_amount = {r.loo_amount}, loo_capped_at_pool{pool}",
                    "a looed player pays the fixed loo, never more than the pool",
                    "Cassell, Loo", "docs/rules.md §4.1")
        source = {Preset.BAXTER_WRAY: "Baxter-Wray p. 16",
                  Preset.ENQUIRE_WITHIN: "Enquire Within §98 iv"}.get(r.preset, "Cassell, Loo")
        return (f"loo = limited, loo_amount = {r.loo_amount}",
                "a looed player pays the fixed loo into the next pool", source,
                "docs/rules.md §4.1")
    if r.loo == LooKind.UNLIMITED:
        return (f"loo = unlimited{pool}",
                "a looed player pays what the pool held when play began", "Britannica",
                "docs/rules.md §4.2")
    if r.loo == LooKind.MIXED:
        return (f"loo = mixed, loo_limit = {r.loo_limit}{pool}",
                "a looed player pays what the pool held, up to the limit", "Britannica",
                "docs/rules.md §4.3")
    return (f"loo = all-or-nothing, deal_price = {r.deal_price} (twice: {2 * r.deal_price})",
            "a looed player pays double the price of the deal", "Cassell, Unlimited Loo",
            "docs/rules.md §4.4")


def _pool_at_play(c: Context) -> int | None:
    return c.event.pool_units if isinstance(c.event, ev.DealSettled) else None


# ---------------------------------------------------------------- one rule per reason

def _deal(c: Context) -> Rule:
    r, started = c.rules, c.started
    fresh_antes = started is not None and started.fresh and started.kind == DealKind.HAND \
        and r.fresh_pool == FreshPool.ANTES
    if fresh_antes:
        source = "Britannica, laws of the Blenheim Club: the dealer contributing double" \
            if r.preset == Preset.BLENHEIM else STAKES_SOURCE[r.preset]
        return Rule(c.preset, f"fresh_deal_price = {r.fresh_deal_price}",
                    "the dealer of a fresh pool of antes pays the fresh deal price", source,
                    c.five_card("docs/rules.md §5.1"))
    if started is not None and started.fresh and r.variant != Variant.THREE_CARD \
            and r.fresh_pool == FreshPool.TURN_UP:
        return Rule(c.preset, f"deal_price = {r.deal_price}",
                    "a fresh pool is a hand played for the dealer's price alone",
                    "Baxter-Wray p. 28", c.five_card("docs/rules.md §11.34"))
    return Rule(c.preset, f"deal_price = {r.deal_price}",
                "every dealer pays the deal price into the pool", STAKES_SOURCE[r.preset],
                c.five_card("docs/rules.md §5.1"))


def _ante(c: Context) -> Rule:
    r = c.rules
    source = "Cassell, Loo (docs/rules.md §11.4)" if r.preset == Preset.CASSELL \
        else STAKES_SOURCE[r.preset]
    return Rule(c.preset, f"ante = {r.ante}",
                "on a fresh pool of antes every other active player puts in the ante", source,
                c.five_card("docs/rules.md §5.1"))


def _brought_forward(c: Context) -> Rule:
    return Rule(c.preset, "everything in next_pool",
                "what was owed to the next pool (loos, fines, amounts carried) joins the new "
                "deal's pool", "Enquire Within §98 iii: the looed player \"pays into the next "
                "pool\"", "docs/rules.md §5.1")


def _loo(c: Context) -> Rule:
    parameter, law, source, docs = _loo_parameter(c.rules, _pool_at_play(c))
    return Rule(c.preset, parameter, f"a standing player who took no trick is looed: {law}",
                source, c.five_card(f"docs/rules.md §5.8, {docs.removeprefix('docs/rules.md ')}"))


def _single_loo(c: Context) -> Rule:
    return Rule(c.preset, f"single_loo = {c.rules.single_loo}",
                "at the turn-up single everyone whose card did not win is looed the single loo",
                "Baxter-Wray p. 18", "docs/rules.md §5.2, §4.5")


def _penalty(c: Context) -> Rule:
    r, p = c.rules, c.posting
    offence = p.get("offence", "")
    imposed = next((e for e in reversed(c.penalties)
                    if e.offence == offence and e.player == p["from"]), None)
    if isinstance(c.event, ev.PenaltyImposed):
        imposed = c.event
    spec = TABLES[r.penalties].get(offence)
    if spec is None:
        raise InvariantBroken(f"offence {offence!r} is not in the {r.penalties} table")
    law = imposed.law if imposed is not None else spec.law
    if isinstance(c.event, ev.DealSettled) and spec.looed_instead_if_no_trick:
        # Blenheim law 9: the fine, settled with the deal, unless he is looed for no trick
        parameter = f"4 × stake = {4 * r.stake} (stake = {r.stake}), settled with the deal"
    elif spec.amount == PenaltyAmount.SINGLE_LOO:
        parameter = f"single_loo = {r.single_loo}"
    elif spec.amount == PenaltyAmount.STAKE:
        parameter = f"stake = {r.stake}"
    elif spec.amount == PenaltyAmount.FOUR_STAKES:
        parameter = f"4 × stake = {4 * r.stake} (stake = {r.stake})"
    else:
        parameter = "the deal's loo: " + _loo_parameter(r, _pool_at_play(c))[0]
    source = law.split(":", 1)[0] if ":" in law else STAKES_SOURCE[r.penalties]
    return Rule(c.preset, f"penalties = {r.penalties}, offence = {offence}, {parameter}", law,
                source, c.five_card(PENALTY_DOCS[r.penalties]))


def _trick(c: Context) -> Rule:
    tricks = c.rules.cards_each
    part = "a fifth" if tricks == 5 else "a third"
    pool = f"; the pool held {c.event.pool_units}" if isinstance(c.event, ev.DealSettled) else ""
    if tricks == 5:
        return Rule(c.preset, f"variant = five-card, {tricks} tricks{pool}",
                    f"each trick earns {part} of the pool; the odd units go to the first tricks",
                    "Britannica: a single stake should be divisible by five",
                    "docs/rules.md §9.3, §5.7")
    return Rule(c.preset, f"{tricks} tricks{pool}",
                f"each trick earns {part} of the pool; the winners of the first and second "
                "tricks have the preference", "Baxter-Wray p. 22", "docs/rules.md §5.7")


POOL_TAKEN: dict[str, tuple[str, str, str]] = {
    Outcome.DEALER_TOOK_POOL: ("everyone before the dealer threw up: the dealer takes the pool",
                               "Baxter-Wray p. 19", "docs/rules.md §5.5"),
    Outcome.MISS_HOLDER_TOOK_POOL: ("the holder of the miss, the only standing hand, takes "
                                    "the pool", "Baxter-Wray p. 19", "docs/rules.md §5.5"),
    Outcome.LAST_STANDING_TOOK_POOL: ("a penalty made the dealer throw up: the one player "
                                      "standing takes the pool", "Baxter-Wray p. 19",
                                      "docs/rules.md §11.21"),
    Outcome.SINGLE_WON: ("turn-up single: a higher card of the turned-up suit takes the pool",
                         "Baxter-Wray p. 18", "docs/rules.md §5.2"),
    Outcome.POOL_WON: ("all-or-nothing loo: a player who takes every trick takes the pool",
                       "Cassell, Unlimited Loo", "docs/rules.md §4.4"),
    Outcome.FLUSH: ("five-card loo: the holder of the winning flush takes the pool",
                    "Baxter-Wray p. 28", "docs/rules.md §9.3"),
}


def _pool_taken(c: Context) -> Rule:
    outcome = c.event.outcome if isinstance(c.event, ev.DealSettled) else None
    law, source, docs = POOL_TAKEN.get(str(outcome), ("the pool is taken whole",
                                                      "Baxter-Wray p. 19", "docs/rules.md §5.5"))
    return Rule(c.preset, f"outcome = {outcome}", law, source, docs)


def _carried_forward(c: Context) -> Rule:
    outcome = c.event.outcome if isinstance(c.event, ev.DealSettled) else None
    source = "Cassell, Unlimited Loo: \"added on to the next pool\"" \
        if c.rules.loo == LooKind.ALL_OR_NOTHING \
        else "Britannica: \"remain there as an addition to the next pool\""
    return Rule(c.preset, f"outcome = {outcome}",
                "what stays in the pool when the deal is settled is carried to the next pool",
                source, "docs/rules.md §5.8")


def _loo_released(c: Context) -> Rule:
    return Rule(c.preset, "method = release-last-loos",
                "at the end, a loo owed for taking no trick in the last deal is paid back",
                "Baxter-Wray p. 17", "docs/rules.md §8.6")


def _end_division(c: Context) -> Rule:
    method = c.event.method if isinstance(c.event, ev.SessionEnded) else EndMethod.SINGLE
    return Rule(c.preset, f"method = {method}",
                "at the end what is left for the next pool is divided equally among the active "
                "players, the odd units one each from the last dealer's left",
                "Baxter-Wray p. 17", "docs/rules.md §8.6")


def _flush(c: Context) -> Rule:
    parameter, _, _, _ = _loo_parameter(c.rules, _pool_at_play(c))
    return Rule(c.preset, f"flush_payers = {c.rules.flush_payers}, {parameter}",
                "five-card loo: each player who pays a flush pays its holder the deal's loo",
                "Baxter-Wray p. 28", "docs/rules.md §9.3, §11.38")


# The rule table: one entry per posting reason.
RULES: dict[Reason, Callable[[Context], Rule]] = {
    Reason.DEAL: _deal,
    Reason.ANTE: _ante,
    Reason.BROUGHT_FORWARD: _brought_forward,
    Reason.LOO: _loo,
    Reason.SINGLE_LOO: _single_loo,
    Reason.PENALTY: _penalty,
    Reason.TRICK: _trick,
    Reason.POOL_TAKEN: _pool_taken,
    Reason.CARRIED_FORWARD: _carried_forward,
    Reason.LOO_RELEASED: _loo_released,
    Reason.END_DIVISION: _end_division,
    Reason.FLUSH: _flush,
}


def category(p: Posting) -> str:
    """The statement's category of a posting (evolve._category)."""
    return f"penalty:{p['offence']}" if p.get("offence") else str(p["reason"])


# ---------------------------------------------------------------- the trail

def _posting_key(p: Posting) -> tuple[Any, ...]:
    return (p["from"], p["to"], p["amount_units"], str(p["reason"]), p.get("offence"),
            p.get("deal_no"))


def corrections_of(logged: Sequence[Logged]
                   ) -> tuple[list[dict[str, Any]], dict[tuple[int, int], dict[str, Any]]]:
    """The log's corrections (version, when, who appended it, who authorised it, why, the
    versions it voided, what it changed), and the postings each changed: {(event version,
    index of the posting in its event): the correction}. A posting a correction's own write
    made (the tail decided anew, at the correction's time) changed something when the tail
    it superseded held no posting like it (the same accounts, amount, reason and deal)."""
    out: list[dict[str, Any]] = []
    changed: dict[tuple[int, int], dict[str, Any]] = {}
    live: list[Logged] = []
    for n, item in enumerate(logged):
        e = item.event
        if isinstance(e, ev.EntryCorrected):
            correction = {"version": item.version, "recorded_at": item.recorded_at,
                          "actor": item.actor, "authorised_by": e.authorised_by,
                          "reason": e.reason, "voids": [v["version"] for v in e.voids],
                          "changes": dict(e.changes)}
            out.append(correction)
            before = Counter(_posting_key(p) for old in live if old.version > e.rewound_to
                             for p in old.event.postings_list)
            for new in logged[n + 1:]:
                if new.recorded_at != item.recorded_at:
                    break  # the correction's write ends here
                for index, p in enumerate(new.event.postings_list):
                    key = _posting_key(p)
                    if before[key]:
                        before[key] -= 1
                    else:
                        changed[(new.version, index)] = correction
            live = [old for old in live if old.version <= e.rewound_to]
        live.append(item)
    return out, changed


def explain(session_id: str, logged: Sequence[Logged], *, version: int,
            player: str | None = None, as_of: dict[str, Any] | None = None) -> dict[str, Any]:
    """The figures of the session whose trail events are `logged` (in log order, superseded
    ones too): per account its net, its categories and the postings of the live events
    behind them, each naming the correction that changed it, if one did. `player` keeps that
    player's figure only (refused, naming `player`, if he never sat in the session)."""
    corrections, changed = corrections_of(logged)
    live = {v for v, _ in live_events((i.version, i.event) for i in logged)}
    rules: Rules | None = None
    seats: list[str] = []
    started: dict[int, ev.DealStarted] = {}
    penalties: dict[int, list[ev.PenaltyImposed]] = {}
    trails: dict[str, list[dict[str, Any]]] = {}
    for item in logged:
        e = item.event
        if item.version not in live:
            continue
        if isinstance(e, ev.SessionOpened):
            rules = Rules.from_dict(e.rules)
            seats = list(e.players)
        elif isinstance(e, ev.PlayerJoined):
            seats.insert(seats.index(e.after) + 1, e.player)
        elif isinstance(e, ev.DealStarted) and not e.redeal:
            started[e.deal_no] = e
            penalties[e.deal_no] = []
        elif isinstance(e, ev.PenaltyImposed):
            penalties.setdefault(e.deal_no, []).append(e)
        if not e.postings_list:
            continue
        if rules is None:
            raise InvariantBroken(f"{e.type} before SessionOpened")
        decided: dict[tuple[str, str | None, str | None, int | None], dict[str, str]] = {}
        for index, p in enumerate(e.postings_list):
            deal_no = p.get("deal_no")
            if player is not None and player not in (p["from"], p["to"]):
                continue
            # the postings of one event for one reason share a rule (a penalty's is its
            # offender's)
            key = (p["reason"], p.get("offence"),
                   p["from"] if p["reason"] == Reason.PENALTY else None, deal_no)
            rule = decided.get(key)
            if rule is None:
                context = Context(rules=rules, posting=p, event=e,
                                  started=started.get(deal_no) if deal_no is not None
                                  else None,
                                  penalties=penalties.get(deal_no, []) if deal_no is not None
                                  else [])
                rule = decided[key] = RULES[p["reason"]](context).to_dict()
            for account, signed in ((p["from"], -p["amount_units"]),
                                    (p["to"], p["amount_units"])):
                trails.setdefault(account, []).append({
                    "version": item.version, "position": item.position,
                    "event_type": e.type, "recorded_at": item.recorded_at,
                    "actor": item.actor, "deal_no": deal_no, "from": p["from"], "to": p["to"],
                    "amount_units": p["amount_units"], "signed_units": signed,
                    "category": category(p), "reason": str(p["reason"]),
                    "offence": p.get("offence"), "rule": rule,
                    "correction": changed.get((item.version, index))})
    if player is not None and player not in seats:
        raise InvalidInput(f"{player!r} is not a player of this session; its players are "
                           f"{', '.join(seats)}", rule="player-in-session", field="player")
    accounts = [player] if player is not None else [*seats, str(POOL), str(NEXT_POOL)]
    return {"session_id": session_id, "version": version, "as_of": as_of,
            "figures": [figure(a, trails.get(a, []), seats) for a in accounts],
            "corrections": corrections}


def figure(account: str, postings: Sequence[dict[str, Any]], seats: Sequence[str]
           ) -> dict[str, Any]:
    """One account's figure: the net and each category, summed from its postings."""
    categories: dict[str, int] = {}
    for p in postings:
        categories[p["category"]] = categories.get(p["category"], 0) + p["signed_units"]
    kind = PLAYER if account in seats else POOL_KIND if account == POOL else NEXT_POOL_KIND
    return {"account": account, "kind": kind,
            "net_units": sum(p["signed_units"] for p in postings),
            "categories": dict(sorted(categories.items())), "postings": list(postings)}


CSV_COLUMNS = ("account", "kind", "version", "position", "event_type", "recorded_at", "actor",
               "deal_no", "from", "to", "amount_units", "signed_units", "category", "reason",
               "offence", "preset", "parameter", "law", "source", "docs", "corrected_by",
               "correction_reason")


EXPLAIN_TABLES = ("postings", "figures")


def explain_csv(trail: dict[str, Any], table: str | None = None) -> str:
    """The trail as CSV: one row per posting of each figure (`table` "postings"), each
    figure's net (`table` "figures", with the version it was read at), or both one after the
    other as the trail has always been written."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")

    def cells(values: Iterable[object]) -> list[object]:
        return ["" if v is None else safe_cell(v) for v in values]

    def row(values: Sequence[object]) -> None:
        out.writerow(cells(values))

    as_of = trail.get("as_of")
    if table in (None, "postings"):
        row(CSV_COLUMNS)
        # A long session's trail is thousands of rows: each row's cells are picked by
        # itemgetter, and a rule's cells (shared by many postings) made safe once.
        posting_values = itemgetter(*CSV_COLUMNS[2:15])
        rule_values = itemgetter(*CSV_COLUMNS[15:20])
        rule_cells: dict[tuple[object, ...], list[object]] = {}
        for fig in trail["figures"]:
            account = cells((fig["account"], fig["kind"]))
            for p in fig["postings"]:
                rule = rule_values(p["rule"])
                tail = rule_cells.get(rule)
                if tail is None:
                    tail = rule_cells[rule] = cells(rule)
                correction = p["correction"] or {}
                out.writerow(account + cells(posting_values(p)) + tail
                             + cells((correction.get("version"), correction.get("reason"))))
    if table == "figures":
        row(["account", "kind", "net_units", "categories", "version", "as_of"])
        for fig in trail["figures"]:
            row([fig["account"], fig["kind"], fig["net_units"],
                 "; ".join(f"{k} {v}" for k, v in fig["categories"].items()),
                 trail["version"], "" if as_of is None else as_of["version"]])
    if table is None:
        row([])
        row(["account", "kind", "net_units", "categories"])
        for fig in trail["figures"]:
            row([fig["account"], fig["kind"], fig["net_units"],
                 "; ".join(f"{k} {v}" for k, v in fig["categories"].items())])
        row(["version", trail["version"], "as_of", "" if as_of is None else as_of["version"]])
    return buf.getvalue()
