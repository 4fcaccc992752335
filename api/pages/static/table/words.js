// The table's own words for what the ledger records: entries, offences, where a penalty goes,
// money. No internal name (an account, a rule's code) reaches the screen from here.

import { label } from "./cards.js";

export const DECLARATION_LABEL = {
  play: "Play", throw_up: "Throw up", take_miss: "Take the miss",
  play_miss_for_pool: "Play the miss for the pool",
};
const DECLARED = {
  play: "plays", throw_up: "throws up", take_miss: "takes the miss",
  play_miss_for_pool: "plays the miss for the pool",
};

/** "looked at miss" for "looked-at-miss". */
export const offenceName = (offence) => String(offence || "").replaceAll("-", " ");

/** Where a penalty goes, in words (PenaltyImposed.destination). */
export function destinationWords(destination) {
  return {
    pool: "into this pool",
    next_pool: "to the next pool",
    covered: "covered by his penalty already charged this deal",
    "settled-with-deal": "settled with the deal (a fine, or a loo if he takes no trick)",
    "next_pool-at-settlement": "a loo to the next pool, its amount fixed when the deal is settled",
  }[destination] || "as the rules say";
}

// ISO 4217 currencies whose minor unit is not a hundredth (as api/pages/printable.py DECIMALS).
const DECIMALS = { BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0,
  RWF: 0, UGX: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0, BHD: 3, IQD: 3, JOD: 3, KWD: 3,
  LYD: 3, OMR: 3, TND: 3 };

/** Minor units as the currency writes them, with integers only: 150 GBP -> "1.50 GBP". */
export function moneyText(minor, currency) {
  const code = String(currency || "").toUpperCase();
  const places = code in DECIMALS ? DECIMALS[code] : 2;
  const sign = minor < 0 ? "−" : "";
  const digits = String(Math.abs(minor)).padStart(places + 1, "0");
  const whole = places ? digits.slice(0, -places) : digits;
  const part = places ? `.${digits.slice(-places)}` : "";
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${part} ${code}`;
}

/** Units, and their money when the session is played for money: "15 (1.50 GBP)". */
export function unitsText(units, session) {
  const text = String(units);
  if (!session || !session.currency || !session.money_per_unit_minor) return text;
  return `${text} (${moneyText(units * session.money_per_unit_minor, session.currency)})`;
}

/** What one event records, as the table would say it. */
export function describeEvent(type, p = {}) {
  switch (type) {
    case "DealStarted":
      return p.kind === "single"
        ? `${p.dealer || "the dealer"} deals the turn-up single, ${label(p.trump_card)}`
        : `${p.dealer || "the dealer"} deals, ${label(p.trump_card)} turned up`;
    case "DeclarationMade":
      return `${p.player} ${DECLARED[p.declaration] || p.declaration}`;
    case "CardPlayed":
      return `${p.player} ${label(p.card)}${p.call === "pam-be-civil" ? " (“Pam, be civil”)"
        : ""}${p.call === "none" ? " (no call)" : ""}`;
    case "TrickWon":
      return `trick ${p.trick || ""} to ${p.winner}`.replace("trick  to", "a trick to");
    case "PenaltyImposed":
      return `penalty: ${p.player}, ${offenceName(p.offence)}`;
    case "CardsExchanged":
      return `${p.player} exchanges ${p.count}`;
    case "FlushShown":
      return `a flush shown (${Object.keys(p.flushes || {}).join(", ")})`;
    case "ReplayStarted":
    case "ReplayAsked":
      return p.asked_by || p.by ? `${p.asked_by || p.by} asks for a replay` : "the replay";
    case "ReplayWaived":
      return "no replay";
    case "LastRoundStarted":
      return "the last round";
    case "PlayerJoined":
      return `${p.player} joins`;
    case "PlayerWithdrew":
      return `${p.player} leaves`;
    case "SessionEnded":
      return "the end of the session";
    case "SessionAttached":
      return "brought into the club";
    case "LatecomersAttached":
      return `${Object.keys(p.members || {}).join(", ")} seated as members`;
    case "EntryCorrected": {
      const voided = (p.voids || [])[0];
      return voided && voided.entry ? `undo of ${describeEvent(voided.entry.type, voided.entry)}`
        : "an undo";
    }
    default:
      return "an entry";
  }
}

// The events a client logs (the rest the ledger draws by itself in the same append).
const LOGGED = new Set(["DealStarted", "DeclarationMade", "CardPlayed", "TrickWon",
  "PenaltyImposed", "CardsExchanged", "FlushShown", "ReplayStarted", "ReplayWaived",
  "LastRoundStarted", "PlayerJoined", "PlayerWithdrew", "SessionEnded", "EntryCorrected"]);

/** An append of GET /sessions/<id>/entries in words: its first logged event. */
export function describeAppend(append) {
  const events = append.events || [];
  const first = events.find((e) => LOGGED.has(e.type)
    && !(e.type === "PenaltyImposed" && e.payload.detected)) || events[0];
  return first ? describeEvent(first.type, first.payload) : "an entry";
}

/** Who logged an append: the device's label, or the member when it came from elsewhere. */
export function whoLogged(append, myTokenId) {
  if (append.token_id && append.token_id === myTokenId) return "This tablet";
  return append.device || append.actor || "Another device";
}

const BREACH = {
  revoke: "did not follow suit (a revoke)",
  "not-heading": "did not head the trick",
  "not-trumping-to-head": "did not trump to head the trick",
  "lead-ace-of-trumps": "did not lead the ace of trumps",
  "lead-highest-trump": "did not lead his highest trump",
  "lead-a-trump": "did not lead a trump",
  "lead-highest-card": "did not lead his highest card",
  "trump-after-trick": "did not lead a trump after winning a trick",
  "pam-be-civil": "played Pam on the ace led with “Pam, be civil”",
};

/** A breach the cards prove, in words. */
export function breachWords(b) {
  const held = b.held && b.held.length ? ` (he held ${b.held.map(label).join(" ")})` : "";
  return `${b.player} played ${label(b.card)} in trick ${b.trick}: ${BREACH[b.rule]
    || offenceName(b.rule)}${held}.`;
}

/** A penalty charged, in words, with its amount in units and money. */
export function penaltyWords(p, session) {
  const who = p.detected ? "The ledger charges" : "Charged:";
  let amount;
  if (p.amount_units === null || p.amount_units === undefined) {
    amount = p.destination === "settled-with-deal" ? "settled with the deal"
      : "a loo, fixed when the deal is settled";
  } else if (p.destination === "covered") {
    amount = "nothing more (his one penalty in play this deal)";
  } else {
    amount = `${unitsText(p.amount_units, session)} ${destinationWords(p.destination)}`;
  }
  return `${who} ${p.player} for ${offenceName(p.offence)}: ${amount}.`;
}

/** What every tablet and the live view show of the table's changes (the session view's
 * `withdrawing`, `withdrawn` and `last_round`). */
export function tableNotices(session) {
  if (!session) return [];
  const out = [];
  if (session.withdrawing) {
    out.push({ kind: "info", testid: "withdrawing", text: `${session.withdrawing} withdraws at `
      + "his deal: he deals, is not dealt in, and leaves the table after it." });
  }
  if (session.withdrawn && session.withdrawn.length) {
    out.push({ kind: "info", testid: "withdrawn", text: `Withdrawn: ${session.withdrawn.join(", ")}.` });
  }
  const round = session.last_round;
  if (round) {
    const n = round.deals_left;
    let text;
    if (round.over) text = "The last round is over: the table ends the session.";
    else if (n) text = `The last round is called: ${n} deal${n === 1 ? "" : "s"} to go, everyone stands, no miss.`;
    else text = "The last deal of the last round.";
    out.push({ kind: "info", testid: "last-round", text });
  }
  return out;
}
