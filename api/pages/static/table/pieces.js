// Pieces of the tablet's screen: buttons, the card picker, fixed slots, and what a deal shows
// (the settlement, a flush, the turn-up single's face-up cards, the notices).

import { h } from "./api.js";
import { SUITS, SUIT_NAME, SUIT_SYMBOL, handSize, label, ranksFor, suitClass } from "./cards.js";
import { breachWords, offenceName, penaltyWords, unitsText } from "./words.js";
import { state } from "./state.js";

export const OUTCOME = {
  divided: "The tricks divided the pool",
  "pool-won": "One player swept all three tricks and took the pool",
  "pool-stays": "The pool stays for the next deal",
  "dealer-took-pool": "Everyone threw up: the dealer takes the pool",
  "miss-holder-took-pool": "Only the miss stood: its holder takes the pool",
  "last-standing-took-pool": "The last player standing takes the pool",
  "nobody-stood": "Nobody stood: the pool is carried",
  "single-won": "The turn-up single was won",
  "single-not-won": "Nobody beat the turned-up card: the pool is carried",
  flush: "A flush was shown: the hand is not played",
};

export function button(text, onclick, attrs = {}) {
  return h("button", { type: "button", class: "btn", onclick, ...attrs }, text);
}

export const face = (card) => h("span", { class: `face ${suitClass(card)}` }, label(card));
export const money = (units) => unitsText(units, state.snapshot && state.snapshot.session);

export function cardPicker(m, { disabled = new Set(), onpick, heading, pam = null, chosen = null }) {
  const ranks = ranksFor(m.rules.pack);
  const cards = [];
  for (const suit of SUITS) {
    if (cards.length) {
      // on a narrow screen a suit takes two rows of seven: the place after its last card
      cards.push(h("span", { class: "suit-end", "aria-hidden": "true" }));
    }
    for (const rank of ranks) {
      const card = rank + suit;
      const seen = disabled.has(card);
      const isPam = card === pam;
      const picked = chosen ? chosen.has(card) : null;
      cards.push(h("button", {
        type: "button",
        class: `card ${suitClass(card)}${isPam ? " pam" : ""}${picked ? " chosen" : ""}`,
        disabled: seen, dataset: { card },
        "aria-label": `${rank} of ${SUIT_NAME[suit]}${isPam ? ", Pam, the highest trump" : ""}`
          + `${seen ? ", seen" : ""}`,
        "aria-pressed": picked === null ? null : String(picked),
        onclick: () => onpick(card),
      }, rank, h("span", { class: "pip", "aria-hidden": "true" }, SUIT_SYMBOL[suit]),
      isPam ? h("span", { class: "pam-mark", "aria-hidden": "true" }, "Pam") : null));
    }
  }
  return h("div", { class: `picker${ranks.length === 8 ? " pack-32" : ""}`, role: "group",
    "aria-label": heading, "data-testid": "picker" }, cards);
}

/** Fixed slots for choices: each choice keeps its slot whether it is offered or not. */
export function slots(items, { wide = false } = {}) {
  const count = items.length;
  const cols = wide ? Math.max(2, Math.ceil(count / 3)) : 2;
  return h("div", { class: "slots", style: { "grid-template-columns": `repeat(${cols}, minmax(0, 1fr))` } },
    items.map((item) => item || h("div", { class: "slot-empty", "aria-hidden": "true" })));
}

/** The card that is Pam in this deal (the deal view names it), else null. */
export function pamOf(m) {
  return m.deal && m.deal.phase !== "settled" ? m.deal.pam || null : null;
}

/** Cards `player` cannot hold: the trump card, the cards played, the cards put out in an
 * exchange, another player's cards drawn or flush shown. */
export function seenCards(m, player = null) {
  const seen = new Set();
  if (m.deal && m.deal.trump) seen.add(m.deal.trump);
  if (m.deal) {
    for (const trick of m.deal.tricks) for (const [, card] of trick.cards || []) seen.add(card);
    for (const [, card] of m.deal.current) seen.add(card);
    for (const [who, x] of Object.entries(m.deal.exchanges || {})) {
      for (const card of x.cards_out || []) seen.add(card);
      if (who !== player) for (const card of x.cards_in || []) seen.add(card);
    }
  }
  return seen;
}

export function payIn(m, action) {
  const r = m.rules;
  const price = action.fresh ? r.fresh_deal_price : r.deal_price;
  const antes = action.fresh && r.fresh_pool === "antes" && r.ante > 0
    ? r.ante * (m.active.length - 1) : 0;
  return { price, antes, pool: (m.pool || 0) + (m.nextPool || 0) + price + antes };
}

export function flushView(deal) {
  const f = deal.flush;
  if (!f) return [];
  const winner = f.winner || (deal.settlement && deal.settlement.winner);
  const items = [h("p", { class: "big-text", "data-testid": "flush-winner" },
    `${winner}'s flush: ${(f.flushes[winner] || []).map(label).join(" ")}`)];
  for (const p of f.beaten || []) {
    items.push(h("p", {}, `${p}'s flush is beaten: ${f.flushes[p].map(label).join(" ")} `
      + "(he pays nothing)"));
  }
  if (f.pam_held_by) items.push(h("p", {}, `${f.pam_held_by} holds Pam.`));
  return items;
}

/** The face-up cards of the turn-up single, and whose beat the card turned up (the ledger's
 * deal view says who took the pool; the device foresees it while the entry waits). */
export function faceUpView(deal) {
  const faceUp = deal.face_up || deal.faceUp || {};
  const names = Object.keys(faceUp);
  if (!names.length) return null;
  const known = state.snapshot && state.snapshot.deal;
  const postings = deal.postings
    || (known && known.deal_no === (deal.deal_no || deal.no) ? known.postings : []);
  const taker = (postings || []).find((p) => p.reason === "pool_taken");
  const winner = (deal.settlement && deal.settlement.winner) || (taker && taker.to);
  return h("p", { "data-testid": "face-up" }, "Face up: ", names.map((p, i) => [
    i ? " · " : "", `${p} `, face(faceUp[p]), p === winner ? " (beats it)" : ""]));
}

export function settlementView(deal, rules) {
  const s = deal.settlement;
  if (!s) return null;
  const tricks = handSize(rules);
  const outcome = s.outcome === "pool-won" && tricks !== 3
    ? `One player swept all ${tricks} tricks and took the pool` : OUTCOME[s.outcome] || s.outcome;
  const no = deal.deal_no || deal.no;
  const items = [h("p", { class: "outcome" }, outcome), ...flushView(deal)];
  if (s.predicted) {
    items.push(h("p", { class: "muted" }, "The amounts come when the entries are saved."));
    if (s.winner) items.push(h("p", {}, `${s.winner} takes the pool.`));
    if (s.looed && s.looed.length) items.push(h("p", {}, `Looed: ${s.looed.join(", ")}`));
    return h("section", { class: "summary", "data-testid": "summary" },
      h("h2", {}, `Deal ${no} ends`), items);
  }
  if (s.pool_units !== undefined) items.push(h("p", {}, `Pool ${money(s.pool_units)}`));
  const shares = (s.shares || []).map((x) => h("li", {},
    `Trick ${x.trick}: ${x.winner} ${x.stays_in_pool ? `— ${money(x.amount_units)} stays in the pool`
      : `+${money(x.amount_units)}`}`));
  if (shares.length) items.push(h("ul", { class: "shares list" }, shares));
  const taken = (deal.postings || []).filter((p) => p.reason === "pool_taken" && p.deal_no === no);
  for (const t of taken) items.push(h("p", {}, `${t.to} takes the pool: +${money(t.amount_units)}`));
  const flushPaid = (deal.postings || []).filter((p) => p.reason === "flush" && p.deal_no === no);
  if (flushPaid.length) {
    items.push(h("p", {}, `For the flush (a loo of ${s.loo_units} each):`),
      h("ul", { class: "shares list", "data-testid": "flush-payments" }, flushPaid.map(
        (p) => h("li", {}, `${p.from} pays ${p.to} ${p.amount_units}`))));
  }
  if (s.looed && s.looed.length) {
    items.push(h("p", {}, `Looed: ${s.looed.join(", ")}${s.loo_units ? ` (${s.loo_units} each)`
      : ""}`));
  }
  if (s.carried_units) items.push(h("p", {}, `Carried to the next deal: ${money(s.carried_units)}`));
  items.push(h("p", { class: "muted" }, s.next_fresh ? "The next deal is a fresh pool."
    : "Loos are owed: the next deal is not fresh."));
  return h("section", { class: "summary", "data-testid": "summary" },
    h("h2", {}, `Deal ${no} settled`), items);
}

/** What the table should know of the game itself (the session view's `warnings`: more than
 * six at five-card loo, a stock short of a hand, docs/rules.md §11.42), shown from the moment
 * the session is opened on the tablet; what the ledger found and charged in this deal, read
 * back from the deal view (so that a reload shows it too); and why a hand is replayed. */
export function dealNotices(m) {
  const session = state.snapshot && state.snapshot.session;
  const warnings = ((session && session.warnings) || []).map((w) => ({ kind: "info",
    text: w.detail, testid: "warning" }));
  const d = m.deal;
  if (!d || d.phase === "settled") return warnings;
  const out = warnings;
  for (const b of d.breaches || []) out.push({ kind: "breach", text: breachWords(b) });
  for (const p of d.penalties || []) {
    if (p.predicted) {
      out.push({ kind: "info", text: `Penalty logged: ${p.player}, ${offenceName(p.offence)} `
        + "(the ledger charges it when the entry is saved)." });
    } else out.push({ kind: p.detected ? "breach" : "info", text: penaltyWords(p, session) });
  }
  const reason = replayReason(d);
  if (reason) out.push({ kind: "info", text: reason });
  return out;
}

export function replayReason(d) {
  if (d.phase !== "replaying" && d.replay !== "required") return null;
  const offence = (d.penalties || []).find((p) => p.replay === "required");
  const why = offence ? `${offence.player}'s ${offenceName(offence.offence)}` : "an offence in play";
  if (d.phase === "replaying") return `The hand is replayed with the same cards (${why}).`;
  return `The hand will be replayed with the same cards when the tricks are done (${why}).`;
}
