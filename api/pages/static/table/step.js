// The step to log now: the prompt, the line under it, the board and the variants' strip, from
// what the ledger's `expected` (or, while entries wait, predict.js) allows next.

import { h } from "./api.js";
import { label } from "./cards.js";
import { DECLARATION_LABEL, describeEvent } from "./words.js";
import { render, state } from "./state.js";
import { log, logMany } from "./transport.js";
import { button, cardPicker, face, money, pamOf, payIn, replayReason, seenCards, slots } from "./pieces.js";
import { civilParts, exchangeParts, exchangeWhoParts, flushParts, variantTools } from "./variants.js";

export function rotateDealt(m, dealer) {
  const i = m.active.indexOf(dealer);
  return m.active.slice(i + 1).concat(m.active.slice(0, i + 1));
}


/** The stage's four parts for what comes next: prompt, the line under it, the board and the
 * variants' strip. */
export function stepParts(m, exp) {
  const actions = exp.actions || [];
  const find = (type) => actions.find((a) => a.type === type);
  const exchange = find("CardsExchanged");
  const flush = find("FlushShown");
  const cardAction = find("CardPlayed");
  const declareAction = find("DeclarationMade");
  // a step the ledger no longer offers (another tablet logged meanwhile) is dropped
  if (state.exchange && !(exchange && (state.exchange.player === null
    ? exchange.players.length > 1 : exchange.players.includes(state.exchange.player)))) {
    state.exchange = null;
  }
  if (state.flush && !flush) state.flush = null;
  const call = cardAction && cardAction.pam_call;
  if (state.civil && !(call && call.card === state.civil.card
    && cardAction.player === state.civil.player)) state.civil = null;
  if (state.exchange) {
    return state.exchange.player === null ? exchangeWhoParts(m, exchange)
      : exchangeParts(m, exchange);
  }
  if (state.flush) return flushParts(m, flush);
  if (state.civil) return civilParts(m, call);
  const extra = variantTools(exchange, flush, declareAction ? declareAction.player : null);

  if (exp.phase === "ended") {
    return { prompt: "The session has ended.", sub: "The treasurer has the statement.",
      board: null, extra };
  }
  if (exp.phase === "between-deals" || exp.phase === "redeal") {
    const action = find("DealStarted");
    const pay = payIn(m, action);
    const single = action.kind === "single";
    const picks = state.picks;
    // who is dealt in is the ledger's word (a withdrawing dealer is not); foreseen offline
    const dealt = single ? (action.dealt || rotateDealt(m, action.dealer)) : [];
    const next = dealt.find((p) => !(p in picks.faceUp));
    let prompt;
    if (exp.phase === "redeal") prompt = `${action.dealer} deals again: tap the card turned up`;
    else if (!picks.trump) {
      prompt = single ? `${action.dealer} deals the turn-up single: tap the card turned up`
        : `${action.dealer} deals: tap the card turned up`;
    } else prompt = `Face-up card dealt to ${next}`;
    const pick = (card) => {
      if (!picks.trump) {
        picks.trump = card;
        if (!single) {
          log({ type: "DealStarted", trump_card: card }, describeEvent("DealStarted",
            { dealer: action.dealer, trump_card: card }));
          return;
        }
      } else {
        picks.faceUp[next] = card;
        if (dealt.every((p) => p in picks.faceUp)) {
          log({ type: "DealStarted", trump_card: picks.trump, face_up: { ...picks.faceUp } },
            describeEvent("DealStarted", { dealer: action.dealer, trump_card: picks.trump,
              kind: "single" }));
          return;
        }
      }
      render();
    };
    let sub;
    if (single && picks.trump) {
      sub = [`Turned up `, face(picks.trump), " · ",
        dealt.map((p, i) => [i ? ", " : "", `${p} `, picks.faceUp[p] ? face(picks.faceUp[p]) : "…"])];
    } else if (exp.phase === "redeal") sub = "The hand is void: the same dealer deals again";
    else {
      sub = `Pays ${money(pay.price)}${pay.antes ? `, antes ${money(pay.antes)}` : ""} · the pool `
        + `will be ${money(pay.pool)}${action.forced ? ` · everyone stands (${action.forced})` : ""}`
        + `${action.club_law ? " · club law: a club turned up and everyone stands" : ""}`;
    }
    const taken = new Set([picks.trump, ...Object.values(picks.faceUp)].filter(Boolean));
    return { prompt, sub, board: cardPicker(m, { disabled: taken, onpick: pick, heading: prompt }),
      extra };
  }
  if (exp.phase === "declaring") {
    const action = find("DeclarationMade");
    if (!action) return { prompt: "Declarations done", sub: "", board: null, extra };
    const who = action.player;
    const offer = (choice) => (action.choices.includes(choice) ? button(
      DECLARATION_LABEL[choice],
      () => log({ type: "DeclarationMade", player: who, declaration: choice },
        describeEvent("DeclarationMade", { player: who, declaration: choice })),
      { class: `btn big decl-${choice}`, dataset: { declaration: choice } }) : null);
    const rest = m.deal.dealt.filter((p) => !(p in m.deal.declarations));
    // the shortcut: everyone from here on plays (each declaration its own entry, in turn);
    // where each exchanges at his turn to declare, the shortcut passes every turn but the last
    const atTurn = m.rules.exchange_at === "turn-to-declare";
    const everyone = action.choices.includes("play") && rest.length > 1 ? button(
      `Everyone else plays (${rest.join(", ")})${atTurn
        ? `: no exchange but ${rest[rest.length - 1]}'s` : ""}`, () => logMany(rest.map((p) => [
        { type: "DeclarationMade", player: p, declaration: "play" },
        describeEvent("DeclarationMade", { player: p, declaration: "play" })])),
      { class: "btn big shortcut", "data-testid": "everyone-plays" }) : null;
    const standing = m.deal.standing.map((s) => s.player);
    return {
      prompt: `${who} declares`,
      sub: ["Trumps ", face(m.deal.trump), standing.length ? ` · standing: ${standing.join(", ")}`
        : " · nobody stands yet"],
      board: slots([offer("play"), offer("throw_up"), offer("take_miss"),
        offer("play_miss_for_pool"), everyone || h("div", { class: "slot-empty shortcut" })]),
      extra,
    };
  }
  if (exp.phase === "playing" || exp.phase === "replaying") {
    const trickAction = find("TrickWon");
    const mode = cardAction && trickAction ? state.mode : (cardAction ? "cards" : "quick");
    const trick = (cardAction || trickAction).trick;
    const title = exp.phase === "replaying" ? `Replay, trick ${trick}` : `Trick ${trick}`;
    const replay = exp.phase === "replaying" ? replayReason(m.deal) : null;
    if (mode === "quick") {
      const won = {};
      for (const t of m.deal.tricks) won[t.winner] = (won[t.winner] || 0) + 1;
      return {
        prompt: `${title}: who won it?`,
        sub: replay || (m.deal.tricks.length ? `Tricks so far: ${m.deal.tricks.map((t) => t.winner)
          .join(", ")}` : `Trumps ${label(m.deal.trump)}`),
        board: slots(trickAction.winners.map((w) => button(
          m.deal.standing.some((s) => s.player === w && s.hand === "miss-for-pool")
            ? `${w} (the miss, for the pool)` : w,
          () => log({ type: "TrickWon", winner: w }, `trick ${trick} to ${w}`),
          { class: "btn big", dataset: { winner: w } })), { wide: true }),
        extra,
      };
    }
    const player = cardAction.player;
    const current = m.deal.current;
    const seen = seenCards(m, player);
    const call = cardAction.pam_call;
    return {
      prompt: `${title}: ${player} plays`,
      sub: replay || (current.length ? current.map(([p, c], i) => [i ? " · " : "", `${p} `, face(c)])
        : `${player} leads · trumps ${label(m.deal.trump)}`),
      board: cardPicker(m, { disabled: seen, heading: `${player}'s card`, pam: pamOf(m),
        onpick: (card) => {
          if (call && call.card === card) {
            // the ace of trumps led while Pam is out: was Pam called on? (asked, never assumed)
            state.civil = { player, card };
            render();
            return;
          }
          log({ type: "CardPlayed", player, card }, `${player} ${label(card)}`);
        } }),
      extra,
    };
  }
  if (exp.phase === "review") {
    const asked = find("ReplayAsked");
    return {
      prompt: "An offence in play: replay the hand?",
      sub: "Any player but the offender may ask for the replay",
      board: slots([...(asked ? asked.by : []).map((p) => button(`${p} asks for a replay`,
        () => log({ type: "ReplayAsked", by: p }, `${p} asks for a replay`),
        { class: "btn big", dataset: { replay: p } })),
      button("No replay", () => log({ type: "ReplayWaived" }, "no replay"),
        { class: "btn big", dataset: { replay: "none" } })], { wide: true }),
      extra,
    };
  }
  return { prompt: `Waiting (${exp.phase})`, sub: "", board: null, extra };
}
