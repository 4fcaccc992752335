// What the table expects next, while entries wait on the device to be sent.
//
// The ledger's own `expected` (GET /sessions/<id>) drives the screen whenever every entry is
// saved. While some are not (no connection), the screen still has to offer the next step:
// this module folds the entries not yet sent onto the last state the ledger gave, following
// docs/rules.md §5 for the ordinary run of a deal (who deals, who declares and his choices, who
// plays, who wins a trick, when a deal settles without play). It decides no money and detects
// no breach: the ledger does both when the entries reach it, and its answer replaces this guess.

import { handSize, pamFor, suitOf, trickWinnerIndex } from "./cards.js";

const clone = (x) => JSON.parse(JSON.stringify(x));

/** The model of the table from the ledger's session view and current deal view. */
export function fromServer(session, deal) {
  const next = (session.expected.actions || []).find((a) => a.type === "DealStarted");
  return {
    sessionId: session.session_id,
    name: session.name,
    version: session.version,
    status: session.status,
    rules: session.rules,
    seats: session.seats,
    active: session.active,
    dealNo: session.deal_no,
    nextDealer: session.next_dealer,
    pool: session.pool_units,
    nextPool: session.next_pool_units,
    balances: session.balances,
    loosOwed: session.loos_owed,
    serverExpected: session.expected,
    nextDeal: next && session.expected.phase === "between-deals" ? {
      dealer: next.dealer, kind: next.kind, fresh: next.fresh, forced: next.forced,
      club_law: next.club_law, dealt: next.dealt,
    } : null,
    deal: deal ? {
      no: deal.deal_no, dealer: deal.dealer, kind: deal.kind, trump: deal.trump_card,
      dealt: deal.dealt, phase: deal.phase, forced: deal.forced, miss: deal.miss,
      faceUp: deal.face_up || {}, declarations: { ...deal.declarations },
      standing: clone(deal.standing || []), entry: deal.entry,
      tricks: clone(deal.tricks || []), current: clone(deal.current_trick || []),
      penalties: clone(deal.penalties || []), breaches: clone(deal.breaches || []),
      settlement: deal.settlement, replay: deal.replay, firstPlay: deal.first_play,
      poolAtPlay: deal.pool_at_play_units, pam: deal.pam || null,
      exchanges: clone(deal.exchanges || {}), flush: deal.flush || null,
      redeals: deal.redeals || 0,
    } : null,
    predicted: false,
    guesses: [],
  };
}

const rotateFrom = (list, first) => {
  const i = list.indexOf(first);
  return i < 0 ? list.slice() : list.slice(i).concat(list.slice(0, i));
};
const leftOf = (active, player) => active[(active.indexOf(player) + 1) % active.length];
/** Seat order from the dealer's left, ending with the dealer (docs/rules.md §5.3). */
const dealtOrder = (active, dealer) => rotateFrom(active, leftOf(active, dealer));

function standingNames(deal) { return deal.standing.map((s) => s.player); }

/** Irish and five-card loo have no miss and no turn-up single (docs/rules.md §9.2, §9.3). */
const isVariant = (rules) => ["irish", "five-card"].includes(rules.variant);

/** The cards the pack has left for exchanges: not dealt nor turned up, less those drawn. */
function stockLeft(rules, deal) {
  const drawn = Object.values(deal.exchanges || {}).reduce((n, x) => n + x.count, 0);
  return (rules.pack || 52) - handSize(rules) * deal.dealt.length - 1 - drawn;
}

/** When the exchanges are made (docs/rules.md §11.40); a session opened before the rule
 * existed keeps `before-play`. */
const exchangeAt = (rules) => rules.exchange_at || "before-play";

/** `turn-to-declare`: a player's turn has passed once a player after him in the order dealt
 * has declared (not a throw-up a penalty forced on him), or, where nobody declares, once a
 * player after him has exchanged (ledger/domain/exchanging.py, exchange_turn_passed). */
function exchangeTurnPassed(deal, player) {
  const later = deal.dealt.slice(deal.dealt.indexOf(player) + 1);
  if (deal.forced) return later.some((p) => p in deal.exchanges);
  const forcedOut = new Set(deal.penalties.filter((p) => p.throw_up
    && (p.hand || 0) === (deal.redeals || 0)).map((p) => p.player));
  return later.some((p) => p in deal.declarations && !forcedOut.has(p));
}

/** docs/rules.md §9.3: whether the holder of Pam is exempt from paying a flush. */
const pamExempts = (rules) => Boolean(rules.flush_payers)
  && rules.flush_payers !== "all-but-beaten-flushes";

/** Whether the logged cards show where Pam is: turned up, or in an exchange's cards. */
function pamPlaceKnown(deal) {
  if (!deal.pam || deal.pam === deal.trump) return true;
  return Object.values(deal.exchanges).some((x) => (x.cards_out || []).includes(deal.pam)
    || (x.cards_in || []).includes(deal.pam));
}

/** Before the first card: who may still exchange, and whether a flush may be shown (and
 * whether the ledger must be told who holds Pam), as the ledger's `expected` says them. */
function variantActions(model, deal) {
  if (!isVariant(model.rules) || deal.tricks.length || deal.current.length
    || !["declaring", "playing"].includes(deal.phase)) return [];
  const out = [];
  const atTurn = exchangeAt(model.rules) === "turn-to-declare";
  const players = standingNames(deal).filter((p) => !(p in (deal.exchanges || {}))
    && !(atTurn && exchangeTurnPassed(deal, p)));
  if (players.length) {
    out.push({ type: "CardsExchanged", players, stock_left: stockLeft(model.rules, deal),
      exchange_at: exchangeAt(model.rules) });
  }
  if (model.rules.variant === "five-card" && deal.phase === "playing") {
    const flush = { type: "FlushShown", players: standingNames(deal), pam: deal.pam,
      needs: ["flushes"] };
    if (pamExempts(model.rules) && !pamPlaceKnown(deal)) {
      // the ledger asks who holds Pam: those whose payment it changes (exchanging.flush_base)
      flush.needs.push("pam_held_by");
      flush.pam_candidates = model.rules.flush_payers === "stood-but-pam-and-flushes"
        ? standingNames(deal) : deal.dealt.slice();
    }
    out.push(flush);
  }
  return out;
}

/** Five-card loo, a lead: the ace of trumps while Pam is out, which must say whether "Pam, be
 * civil" was called (playing.pam_call_card), else null. */
function pamCallCard(deal) {
  if (!deal.pam || deal.current.length) return null;
  const ace = `A${suitOf(deal.trump)}`;
  const gone = new Set([deal.trump]);
  for (const t of deal.tricks) for (const [, card] of t.cards || []) gone.add(card);
  for (const x of Object.values(deal.exchanges)) {
    for (const card of x.cards_out || []) gone.add(card);
  }
  return gone.has(ace) || gone.has(deal.pam) ? null : ace;
}

/** docs/rules.md §9.3: a flush in trumps, then one holding Pam, then the elder hand. */
function flushWinner(deal, flushes) {
  const trump = suitOf(deal.trump);
  const rank = (p) => {
    const cards = flushes[p];
    if (cards.every((c) => c === deal.pam || suitOf(c) === trump)) return 0;
    return cards.includes(deal.pam) ? 1 : 2;
  };
  const shown = deal.dealt.filter((p) => p in flushes);
  return shown.reduce((best, p) => (rank(p) < rank(best) ? p : best), shown[0]);
}

function leaderOfFirstTrick(deal, rules) {
  if (rules.miss_holder_leads) {
    const holder = deal.standing.find((s) => s.hand === "miss" || s.hand === "miss-for-pool");
    if (holder) return holder.player;
  }
  return deal.standing[0].player;
}

function trickOrder(deal, rules) {
  const leader = deal.tricks.length ? deal.tricks[deal.tricks.length - 1].winner
    : leaderOfFirstTrick(deal, rules);
  return rotateFrom(standingNames(deal), leader);
}

export function legalDeclarations(model, deal, player) {
  const order = deal.dealt;
  const earlier = order.slice(0, order.indexOf(player));
  const values = Object.values(deal.declarations);
  const missOpen = deal.miss && !values.includes("take_miss");
  let choices = ["play", "throw_up"].concat(missOpen ? ["take_miss"] : []);
  if (!deal.miss && player === order[order.length - 1]
      && earlier.filter((p) => deal.declarations[p] === "play").length === 1) {
    // docs/rules.md §11.36: no miss to play for the pool, so the dealer must stand
    return ["play"];
  }
  if (player === order[order.length - 1] && missOpen) {
    const own = earlier.filter((p) => deal.declarations[p] === "play");
    if (own.length === 1) choices = ["play", "take_miss", "play_miss_for_pool"];
  }
  if (model.rules.last_before_dealer_bound && order.length >= 2
      && player === order[order.length - 2]) {
    const standing = earlier.filter((p) => ["play", "take_miss"].includes(deal.declarations[p]));
    if (standing.length <= 1) choices = choices.filter((c) => c !== "throw_up");
  }
  return choices;
}

function settle(model, outcome, looed) {
  const deal = model.deal;
  deal.phase = "settled";
  deal.settlement = { outcome, looed, predicted: true };
  const penaltyLoo = deal.penalties.some((p) => p.kind === "loo");
  const fresh = looed.length === 0 && !penaltyLoo && deal.kind === "hand";
  model.nextDealer = leftOf(model.active, deal.dealer);
  model.nextDeal = {
    dealer: model.nextDealer,
    kind: fresh && model.rules.fresh_pool === "turn-up" && !isVariant(model.rules)
      ? "single" : "hand",
    fresh, forced: null, club_law: model.rules.club_law,
  };
}

function afterDeclaration(model) {
  const deal = model.deal;
  const order = deal.dealt;
  const dealer = order[order.length - 1];
  const before = order.slice(0, -1);
  const d = deal.declarations;
  if (before.every((p) => d[p] === "throw_up") && !(dealer in d)) {
    // Baxter-Wray p. 19: everyone before the dealer threw up: he takes the pool.
    deal.standing = [];
    settle(model, "dealer-took-pool", []);
    return;
  }
  if (!order.every((p) => p in d)) return;
  if (deal.standing.length === 1 && deal.standing[0].hand === "miss") {
    settle(model, "miss-holder-took-pool", []);
  } else if (deal.standing.length === 0) {
    settle(model, "nobody-stood", []);
  } else {
    deal.phase = "playing";
  }
}

function afterTrick(model) {
  const deal = model.deal;
  if (deal.tricks.length < handSize(model.rules)) return;
  const replayDue = deal.penalties.some((p) => p.replay === "required" && !p.covered)
    && !deal.firstPlay;
  if (replayDue) {
    deal.firstPlay = deal.tricks;
    deal.tricks = [];
    deal.current = [];
    deal.phase = "replaying";
    return;
  }
  const winners = new Set(deal.tricks.map((t) => t.winner));
  const looed = deal.standing
    .filter((s) => s.hand !== "miss-for-pool" && !winners.has(s.player))
    .map((s) => s.player);
  settle(model, "divided", looed);
}

/** The model after `body` (an event as the client sends it), folded on the device. */
export function apply(model, body) {
  const m = clone(model);
  m.predicted = true;
  const deal = m.deal;
  switch (body.type) {
    case "DealStarted": {
      if (deal && deal.phase === "redeal") {
        deal.trump = body.trump_card;
        deal.declarations = {};
        deal.standing = [];
        deal.phase = "declaring";
        deal.redeals = (deal.redeals || 0) + 1;
        deal.exchanges = {};
        deal.flush = null;
        break;
      }
      const next = m.nextDeal || { dealer: m.nextDealer, kind: "hand" };
      const dealer = body.dealer || next.dealer;
      m.dealNo += 1;
      const dealt = next.dealt || dealtOrder(m.active, dealer);
      m.deal = {
        no: m.dealNo, dealer, kind: next.kind, trump: body.trump_card, dealt,
        phase: "declaring", forced: next.forced, miss: !isVariant(m.rules),
        faceUp: body.face_up || {}, declarations: {}, standing: [], entry: null, tricks: [],
        current: [], penalties: [], breaches: [], settlement: null, replay: null,
        firstPlay: null, poolAtPlay: null, pam: pamFor(m.rules, body.trump_card),
        exchanges: {}, flush: null,
      };
      if (m.deal.pam === body.trump_card) m.deal.pam = null; // a Pam turned up is out of play
      m.nextDeal = null;
      if (next.kind === "single") {
        const trump = suitOf(body.trump_card);
        const beaters = dealt.filter((p) => {
          const card = (body.face_up || {})[p];
          return card && suitOf(card) === trump
            && trickWinnerIndex([body.trump_card, card], trump) === 1;
        });
        let winner = null;
        for (const p of beaters) {
          if (!winner || trickWinnerIndex([body.face_up[winner], body.face_up[p]], trump) === 1) {
            winner = p;
          }
        }
        m.deal.miss = false;
        settle(m, winner ? "single-won" : "single-not-won",
          dealt.filter((p) => p !== winner));
        m.deal.settlement.winner = winner;
      } else {
        const clubLaw = m.rules.club_law && suitOf(body.trump_card) === "C";
        if (next.forced || clubLaw) {
          m.deal.forced = next.forced || "club-law";
          m.deal.miss = false;
          m.deal.standing = dealt.map((p) => ({ player: p, hand: "own" }));
          m.deal.phase = "playing";
        }
      }
      break;
    }
    case "DeclarationMade": {
      deal.declarations[body.player] = body.declaration;
      const hand = { play: "own", take_miss: "miss", play_miss_for_pool: "miss-for-pool" }[
        body.declaration];
      if (hand) {
        deal.standing.push({ player: body.player, hand });
        deal.standing.sort((a, b) => deal.dealt.indexOf(a.player) - deal.dealt.indexOf(b.player));
      }
      afterDeclaration(m);
      break;
    }
    case "CardPlayed": {
      deal.entry = "cards";
      deal.current.push([body.player, body.card]);
      const order = trickOrder(deal, m.rules);
      if (deal.current.length === order.length) {
        const cards = deal.current.map(([, c]) => c);
        const winner = deal.current[trickWinnerIndex(cards, suitOf(deal.trump), deal.pam)][0];
        deal.tricks.push({ trick: deal.tricks.length + 1, winner, cards: deal.current });
        deal.current = [];
        afterTrick(m);
      }
      break;
    }
    case "CardsExchanged": {
      deal.exchanges[body.player] = { count: body.count, cards_out: body.cards_out || [],
        cards_in: body.cards_in || [] };
      break;
    }
    case "FlushShown": {
      // the ledger decides the payers and the amounts; the device foresees the winner only
      const winner = flushWinner(deal, body.flushes);
      deal.flush = { flushes: body.flushes, winner, predicted: true };
      settle(m, "flush", []);
      m.deal.settlement.winner = winner;
      break;
    }
    case "TrickWon": {
      deal.entry = "quick";
      deal.tricks.push({ trick: deal.tricks.length + 1, winner: body.winner, cards: [] });
      afterTrick(m);
      break;
    }
    case "PenaltyImposed": {
      const offence = (m.offences || []).find((o) => o.offence === body.offence) || {};
      const inPlay = offence.stage === "in-play";
      const covered = inPlay && deal.penalties.some(
        (p) => p.player === body.player && p.stage === "in-play");
      deal.penalties.push({
        player: body.player, offence: body.offence, stage: offence.stage, kind: offence.kind,
        replay: offence.replay, covered, predicted: true, hand: deal.redeals || 0,
        throw_up: Boolean(offence.throw_up) && deal.phase === "declaring"
          && !(body.player in deal.declarations),
      });
      if (offence.throw_up && deal.phase === "declaring" && !(body.player in deal.declarations)) {
        deal.declarations[body.player] = "throw_up";
        afterDeclaration(m);
      }
      if (offence.redeal === "always" || (offence.redeal === "optional" && body.redeal)) {
        deal.phase = "redeal";
      }
      break;
    }
    case "LastRoundStarted":
      break;
    default:
      m.guesses.push(`cannot foresee ${body.type}`);
  }
  return m;
}

/** What the table expects next, in the shape of the ledger's `expected`. */
export function expected(model) {
  if (!model.predicted) return model.serverExpected;
  const deal = model.deal;
  const penalty = { type: "PenaltyImposed", offences: (model.offences || []).map((o) => o.offence) };
  if (model.status === "ended") return { phase: "ended", actions: [] };
  if (!deal || deal.phase === "settled") {
    const next = model.nextDeal || { dealer: model.nextDealer, kind: "hand", fresh: false };
    return { phase: "between-deals", actions: [{
      type: "DealStarted", dealer: next.dealer, kind: next.kind, fresh: next.fresh,
      forced: next.forced, club_law: next.club_law, dealt: next.dealt,
      needs: next.kind === "single" ? ["trump_card", "face_up"] : ["trump_card"],
    }, { type: "LastRoundStarted" }] };
  }
  if (deal.phase === "redeal") {
    return { phase: "redeal", actions: [{ type: "DealStarted", dealer: deal.dealer,
      kind: deal.kind, needs: ["trump_card"] }] };
  }
  if (deal.phase === "declaring") {
    const player = deal.dealt.find((p) => !(p in deal.declarations));
    return { phase: "declaring", actions: [{ type: "DeclarationMade", player,
      choices: legalDeclarations(model, deal, player) }, ...variantActions(model, deal), penalty] };
  }
  if (deal.phase === "playing" || deal.phase === "replaying") {
    const trick = deal.tricks.length + 1;
    const actions = variantActions(model, deal);
    if (deal.entry !== "quick") {
      const order = trickOrder(deal, model.rules);
      const card = { type: "CardPlayed", player: order[deal.current.length], trick };
      if (model.rules.pam && !deal.current.length) {
        card.calls = ["pam-be-civil"];
        const ace = pamCallCard(deal);
        if (ace) card.pam_call = { card: ace, choices: ["pam-be-civil", "none"] };
      }
      actions.push(card);
    }
    if (deal.entry !== "cards") {
      actions.push({ type: "TrickWon", trick, winners: standingNames(deal) });
    }
    return { phase: deal.phase, actions: actions.concat([penalty]) };
  }
  return { phase: deal.phase, actions: [] };
}
