// What the table expects next, while entries wait on the device to be sent.
//
// The ledger's own `expected` (GET /sessions/<id>) drives the screen whenever every entry is
// saved. While some are not (no connection), the screen still has to offer the next step:
// this module folds the entries not yet sent onto the last state the ledger gave, following
// docs/rules.md §5 for the ordinary run of a deal (who deals, who declares and his choices, who
// plays, who wins a trick, when a deal settles without play). It decides no money and detects
// no breach: the ledger does both when the entries reach it, and its answer replaces this guess.

import { suitOf, trickWinnerIndex } from "./cards.js";

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
      club_law: next.club_law,
    } : null,
    deal: deal ? {
      no: deal.deal_no, dealer: deal.dealer, kind: deal.kind, trump: deal.trump_card,
      dealt: deal.dealt, phase: deal.phase, forced: deal.forced, miss: deal.miss,
      faceUp: deal.face_up || {}, declarations: { ...deal.declarations },
      standing: clone(deal.standing || []), entry: deal.entry,
      tricks: clone(deal.tricks || []), current: clone(deal.current_trick || []),
      penalties: clone(deal.penalties || []), breaches: clone(deal.breaches || []),
      settlement: deal.settlement, replay: deal.replay, firstPlay: deal.first_play,
      poolAtPlay: deal.pool_at_play_units,
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
    kind: fresh && model.rules.fresh_pool === "turn-up" ? "single" : "hand",
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
  if (deal.tricks.length < 3) return;
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
        break;
      }
      const next = m.nextDeal || { dealer: m.nextDealer, kind: "hand" };
      const dealer = body.dealer || next.dealer;
      m.dealNo += 1;
      const dealt = dealtOrder(m.active, dealer);
      m.deal = {
        no: m.dealNo, dealer, kind: next.kind, trump: body.trump_card, dealt,
        phase: "declaring", forced: next.forced, miss: true, faceUp: body.face_up || {},
        declarations: {}, standing: [], entry: null, tricks: [], current: [], penalties: [],
        breaches: [], settlement: null, replay: null, firstPlay: null, poolAtPlay: null,
      };
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
        const winner = deal.current[trickWinnerIndex(cards, suitOf(deal.trump))][0];
        deal.tricks.push({ trick: deal.tricks.length + 1, winner, cards: deal.current });
        deal.current = [];
        afterTrick(m);
      }
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
        replay: offence.replay, covered, predicted: true,
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
      forced: next.forced, club_law: next.club_law,
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
      choices: legalDeclarations(model, deal, player) }, penalty] };
  }
  if (deal.phase === "playing" || deal.phase === "replaying") {
    const trick = deal.tricks.length + 1;
    const actions = [];
    if (deal.entry !== "quick") {
      const order = trickOrder(deal, model.rules);
      actions.push({ type: "CardPlayed", player: order[deal.current.length], trick });
    }
    if (deal.entry !== "cards") {
      actions.push({ type: "TrickWon", trick, winners: standingNames(deal) });
    }
    return { phase: deal.phase, actions: actions.concat([penalty]) };
  }
  return { phase: deal.phase, actions: [] };
}
