// The dealer's tablet: log a live game of Loo as it is played.
//
// Every tap that logs something becomes an entry saved on the device first (its own
// Idempotency-Key), then sent in order, each with If-Match: the version the ledger gave for the
// entry before it. The screen offers only what the ledger's `expected` allows next (or, while
// entries wait to be sent, what predict.js folds from them).

import {
  Failure, h, newKey, registerServiceWorker, request, saved, sessionFromAddress, token,
} from "./api.js";
import {
  SUITS, SUIT_NAME, SUIT_SYMBOL, handSize, isRed, label, ranksFor, suitOf,
} from "./cards.js";
import { apply, expected, fromServer } from "./predict.js";

const DECLARATION_LABEL = {
  play: "Play", throw_up: "Throw up", take_miss: "Take the miss",
  play_miss_for_pool: "Play the miss for the pool",
};
const OUTCOME = {
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
const PAM_BE_CIVIL = "pam-be-civil";
const RETRY_MS = 2000;
const POLL_MS = 2000;

const state = {
  sid: null,
  who: saved.get("who"),
  snapshot: null, // {session, deal, offences}: the ledger's last word
  outbox: [],
  notices: [],
  lastSettled: null,
  conflict: null,
  refused: null,
  offline: false,
  syncing: false,
  syncAgain: false, // sync() was called while a sync ran: run once more when it ends
  picks: { trump: null, faceUp: {} },
  penalty: null, // {player, offence, redeal}
  exchange: null, // {player, out: [cards], in: [cards]}: an exchange being entered
  flush: null, // {player, flushes: {player: [cards]}}: flushes being entered
  mode: saved.get("mode", "quick"),
  loginMessage: null,
  busy: false,
};

const root = () => document.getElementById("app");
const outboxName = () => `outbox.${state.sid}`;
const snapshotName = () => `snapshot.${state.sid}`;

function saveOutbox() { saved.set(outboxName(), state.outbox); }
function saveSnapshot() { saved.set(snapshotName(), state.snapshot); }

function model() {
  if (!state.snapshot || !state.snapshot.session) return null;
  let m = fromServer(state.snapshot.session, state.snapshot.deal);
  m.offences = state.snapshot.offences || [];
  for (const entry of state.outbox) if (entry.kind === "event") m = apply(m, entry.body);
  return m;
}

// ------------------------------------------------------------------ talking to the ledger

async function signIn(raw, sid) {
  saved.set("token", raw.trim());
  try {
    const who = await request("GET", "/club");
    state.who = who.body;
    saved.set("who", who.body);
  } catch (failure) {
    if (failure.status === 401) {
      saved.set("token", null);
      state.loginMessage = "That token was refused: paste a dealer token the club issued.";
      return render();
    }
  }
  state.loginMessage = null;
  if (sid) openSession(sid.trim());
  await start();
}

function signOut(message) {
  saved.set("token", null);
  saved.set("who", null);
  state.who = null;
  state.loginMessage = message;
  render();
}

function openSession(sid) {
  state.sid = sid;
  saved.set("session", sid);
  state.outbox = saved.get(outboxName(), []);
  state.snapshot = saved.get(snapshotName(), null);
  state.conflict = null;
  state.refused = null;
  state.notices = [];
}

async function refresh({ full = false } = {}) {
  const headers = {};
  const known = state.snapshot && state.snapshot.session;
  if (known && !full) headers["If-None-Match"] = `"${known.version}"`;
  const got = await request("GET", `/sessions/${encodeURIComponent(state.sid)}`, { headers });
  if (got.status === 304) return false;
  await adopt(got.body);
  return true;
}

async function adopt(session) {
  const sid = encodeURIComponent(state.sid);
  let deal = null;
  if (session.deal) deal = (await request("GET", `/sessions/${sid}/deals/${session.deal_no}`)).body;
  let offences = state.snapshot ? state.snapshot.offences : [];
  try {
    offences = (await request("GET", `/sessions/${sid}/offences`)).body.offences;
  } catch (failure) {
    if (failure.status === 0) throw failure;
  }
  if (deal && deal.settlement) state.lastSettled = deal;
  state.snapshot = { session, deal, offences };
  saveSnapshot();
}

function problemText(problem) {
  const parts = [problem.detail || problem.title || "refused"];
  if (problem.rule) parts.push(`(rule: ${problem.rule})`);
  return parts.join(" ");
}

function notesFrom(appended) {
  for (const event of appended || []) {
    const p = event.payload || {};
    if (event.type === "BreachDetected") {
      state.notices.push({ kind: "breach", text: `Breach: ${p.player} played ${label(p.card)} — `
        + `${p.rule}${p.held && p.held.length ? ` (held ${p.held.map(label).join(" ")})` : ""}` });
    } else if (event.type === "PenaltyImposed" && p.detected) {
      state.notices.push({ kind: "breach", text: `The ledger charges ${p.player} for ${p.offence}: `
        + `${p.amount_units === null ? "a loo fixed at settlement" : `${p.amount_units} units`}`
        + ` to ${p.destination}` });
    } else if (event.type === "ReplayStarted") {
      state.notices.push({ kind: "info", text: "The hand is replayed with the same cards." });
    } else if (event.type === "PenaltyImposed") {
      state.notices.push({ kind: "info", text: `${p.player} charged for ${p.offence}: `
        + `${p.amount_units === null ? "amount fixed later" : `${p.amount_units} units`}`
        + ` (${p.destination})` });
    }
  }
}

let retryTimer = null;
function retryLater() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => sync(), RETRY_MS);
}

async function sync() {
  if (state.syncing) {
    // An entry logged while a sync is between its last POST and its refresh would find no
    // sync to send it (and the poll waits for an empty outbox): the running one goes again.
    state.syncAgain = true;
    return;
  }
  if (!state.sid || !token()) return;
  state.syncing = true;
  state.syncAgain = false;
  try {
    if (!state.snapshot || !state.snapshot.session) await refresh({ full: true });
    while (state.outbox.length && !state.conflict && !state.refused) {
      const entry = state.outbox[0];
      const sid = encodeURIComponent(state.sid);
      const base = state.snapshot.session.version;
      const headers = { "If-Match": `"${base}"`, "Idempotency-Key": entry.key };
      let result;
      try {
        if (entry.kind === "undo") {
          result = await request("POST", `/sessions/${sid}/undo`, { body: entry.body, headers });
        } else {
          result = await request("POST", `/sessions/${sid}/events`, { body: entry.body, headers });
        }
      } catch (failure) {
        if (failure.status === 0 || failure.status >= 500) throw failure;
        if (failure.status === 401) {
          signOut("This device's token was refused (revoked or expired): paste a new one. "
            + "Entries not yet saved stay on the device.");
          return;
        }
        if (failure.status === 409 && failure.problem.rule === "expected-version") {
          state.conflict = { entry, problem: failure.problem };
        } else {
          state.refused = { entry, problem: failure.problem, status: failure.status };
        }
        break;
      }
      // The entry leaves the outbox only once the ledger's new state is on the device: if
      // the connection drops in between, it is sent again with the same key and If-Match,
      // and the ledger answers with its first response (appending nothing twice).
      await adopt(result.body.session);
      state.outbox.shift();
      saveOutbox();
      notesFrom(result.body.appended);
      state.offline = false;
      render();
    }
    if (!state.outbox.length) await refresh();
    state.offline = false;
  } catch (failure) {
    if (failure instanceof Failure && failure.status === 401) {
      signOut("This device's token was refused (revoked or expired): paste a new one.");
      return;
    }
    state.offline = true;
    retryLater();
  } finally {
    state.syncing = false;
    render();
    if (state.syncAgain && !state.offline) sync();
  }
}

function log(body, what) {
  state.outbox.push({ key: newKey(), kind: "event", body, label: what });
  saveOutbox();
  state.notices = state.notices.filter((n) => n.kind === "breach" && body.type === "CardPlayed");
  state.picks = { trump: null, faceUp: {} };
  state.penalty = null;
  state.exchange = null;
  state.flush = null;
  render();
  sync();
}

function undo() {
  if (state.outbox.length) {
    state.outbox.pop();
    saveOutbox();
    state.refused = null;
    render();
    return;
  }
  state.outbox.push({ key: newKey(), kind: "undo", body: { reason: "undone at the table" },
    label: "undo the last entry" });
  saveOutbox();
  state.notices = [];
  render();
  sync();
}

// ------------------------------------------------------------------ pieces of the screen

function button(text, onclick, attrs = {}) {
  return h("button", { type: "button", class: "btn", onclick, ...attrs }, text);
}

function cardPicker(m, { disabled = new Set(), onpick, heading, pam = null, chosen = null }) {
  const ranks = ranksFor(m.rules.pack);
  const rows = SUITS.map((suit) => h("div", { class: "suit-row", role: "group",
    "aria-label": SUIT_NAME[suit] },
  ranks.map((rank) => {
    const card = rank + suit;
    const seen = disabled.has(card);
    const isPam = card === pam;
    const picked = chosen ? chosen.has(card) : null;
    return h("button", {
      type: "button",
      class: `card${isRed(card) ? " red" : ""}${isPam ? " pam" : ""}${picked ? " chosen" : ""}`,
      disabled: seen, dataset: { card },
      "aria-label": `${rank} of ${SUIT_NAME[suit]}${isPam ? ", Pam, the highest trump" : ""}`
        + `${seen ? ", seen" : ""}`,
      "aria-pressed": picked === null ? null : String(picked),
      onclick: () => onpick(card),
    }, rank, h("span", { class: "pip", "aria-hidden": "true" }, SUIT_SYMBOL[suit]),
    isPam ? h("span", { class: "pam-mark", "aria-hidden": "true" }, "Pam") : null);
  })));
  return h("div", { class: "picker", role: "group", "aria-label": heading }, rows);
}

/** The card that is Pam in this deal (the deal view names it), else null. */
function pamOf(m) {
  return m.deal && m.deal.phase !== "settled" ? m.deal.pam || null : null;
}

/** Cards `player` cannot hold: the trump card, the cards played, the cards put out in an
 * exchange, another player's cards drawn or flush shown. */
function seenCards(m, player = null) {
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

function payIn(m, action) {
  const r = m.rules;
  const price = action.fresh ? r.fresh_deal_price : r.deal_price;
  const antes = action.fresh && r.fresh_pool === "antes" && r.ante > 0
    ? r.ante * (m.active.length - 1) : 0;
  return { price, antes, pool: (m.pool || 0) + (m.nextPool || 0) + price + antes };
}

function flushView(deal) {
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

function settlementView(deal, rules) {
  const s = deal.settlement;
  if (!s) return null;
  const tricks = handSize(rules);
  const outcome = s.outcome === "pool-won" && tricks !== 3
    ? `One player swept all ${tricks} tricks and took the pool` : OUTCOME[s.outcome] || s.outcome;
  const items = [h("p", { class: "outcome" }, outcome), ...flushView(deal)];
  if (s.predicted) {
    items.push(h("p", { class: "muted" }, "The amounts come when the entries are saved."));
    if (s.winner) items.push(h("p", {}, `${s.winner} takes the pool.`));
    if (s.looed && s.looed.length) items.push(h("p", {}, `Looed: ${s.looed.join(", ")}`));
    return h("div", { class: "summary", "data-testid": "summary" }, items);
  }
  if (s.pool_units !== undefined) items.push(h("p", {}, `Pool ${s.pool_units}`));
  const shares = (s.shares || []).map((x) => h("li", {},
    `Trick ${x.trick}: ${x.winner} ${x.stays_in_pool ? `— ${x.amount_units} stays in the pool`
      : `+${x.amount_units}`}`));
  if (shares.length) items.push(h("ul", { class: "shares" }, shares));
  const taken = (deal.postings || []).filter((p) => p.reason === "pool_taken"
    && p.deal_no === (deal.deal_no || deal.no));
  for (const t of taken) items.push(h("p", {}, `${t.to} takes the pool: +${t.amount_units}`));
  const flushPaid = (deal.postings || []).filter((p) => p.reason === "flush"
    && p.deal_no === (deal.deal_no || deal.no));
  if (flushPaid.length) {
    items.push(h("p", {}, `For the flush (a loo of ${s.loo_units} each):`),
      h("ul", { class: "shares", "data-testid": "flush-payments" }, flushPaid.map(
        (p) => h("li", {}, `${p.from} pays ${p.to} ${p.amount_units}`))));
  }
  if (s.looed && s.looed.length) {
    items.push(h("p", {}, `Looed: ${s.looed.join(", ")}${s.loo_units ? ` (${s.loo_units} each)`
      : ""}`));
  }
  if (s.carried_units) items.push(h("p", {}, `Carried to the next deal: ${s.carried_units}`));
  items.push(h("p", { class: "muted" }, s.next_fresh ? "The next deal is a fresh pool."
    : "Loos are owed: the next deal is not fresh."));
  return h("div", { class: "summary", "data-testid": "summary" },
    h("h2", {}, `Deal ${deal.deal_no || deal.no} settled`), items);
}

function offenceAmount(o) {
  const where = o.to === "pool" ? "into this pool" : "to the next pool";
  if (o.amount_units === null) {
    return o.when_fixed === "with-the-deal"
      ? `4 stakes ${where}, or a loo if he takes no trick` : `a loo ${where}, fixed at settlement`;
  }
  return `${o.amount_units} ${where}`;
}

function penaltyPanel(m, action) {
  const p = state.penalty;
  const close = button("Cancel", () => { state.penalty = null; render(); }, { class: "btn ghost" });
  const players = m.deal ? m.deal.dealt : m.active;
  if (!p.player) {
    return h("section", { class: "panel penalty", "aria-label": "Penalty" },
      h("h2", {}, "Penalty: who offended?"),
      h("div", { class: "choices" }, players.map((name) => button(name, () => {
        state.penalty = { player: name };
        render();
      }, { class: "btn big" }))), close);
  }
  const rows = (m.offences || []).filter((o) => action.offences.includes(o.offence));
  if (!p.offence) {
    return h("section", { class: "panel penalty", "aria-label": "Penalty" },
      h("h2", {}, `Penalty for ${p.player}: which offence?`),
      h("ul", { class: "offences" }, rows.map((o) => h("li", {}, button(
        [h("strong", {}, o.offence.replaceAll("-", " ")),
          h("span", { class: "amount" }, offenceAmount(o)),
          h("span", { class: "law" }, o.law)],
        () => { state.penalty = { ...p, offence: o.offence, redeal: false }; render(); },
        { class: "btn offence", dataset: { offence: o.offence } })))), close);
  }
  const o = rows.find((x) => x.offence === p.offence) || { offence: p.offence };
  const effects = [];
  if (o.throw_up) effects.push("he must throw up if he has not declared");
  if (o.forfeits && o.forfeits !== "never") effects.push("his winnings stay in the pool");
  if (o.redeal === "always") effects.push("the same dealer deals again");
  if (o.replay === "required") effects.push("the hand is replayed");
  if (o.leaves_play) effects.push("he plays no further card");
  return h("section", { class: "panel penalty", "aria-label": "Penalty" },
    h("h2", {}, `Charge ${p.player} for ${p.offence.replaceAll("-", " ")}?`),
    h("p", { class: "big-text" }, o.amount_units === undefined ? "" : offenceAmount(o)),
    effects.length ? h("p", {}, `Also: ${effects.join("; ")}.`) : null,
    h("p", { class: "law" }, o.law || ""),
    o.redeal === "optional" ? h("label", { class: "check" }, h("input", {
      type: "checkbox", checked: p.redeal, onchange: (e) => { p.redeal = e.target.checked; },
    }), "The cards were mixed or exposed: deal again") : null,
    h("div", { class: "choices" }, button("Confirm the penalty", () => {
      const body = { type: "PenaltyImposed", player: p.player, offence: p.offence };
      if (p.redeal) body.redeal = true;
      log(body, `penalty: ${p.player} ${p.offence}`);
    }, { class: "btn big primary" }), close));
}

// ------------------------------------------------------------------ Irish and five-card loo

/** Who may still exchange (a button each) and a flush, before the first card is played. */
function variantTools(m, exchange, flush) {
  if (!exchange && !flush) return null;
  const items = [];
  if (exchange) {
    items.push(h("p", { class: "muted" }, `Exchanges before the first card `
      + `(${exchange.stock_left} card${exchange.stock_left === 1 ? "" : "s"} left in the pack):`));
    items.push(h("div", { class: "choices" }, exchange.players.map((p) => button(
      `${p} exchanges…`, () => { state.exchange = { player: p, out: [], in: [] }; render(); },
      { class: "btn", dataset: { exchange: p } }))));
  }
  if (flush) {
    items.push(h("div", { class: "choices" }, button("Show a flush…", () => {
      state.flush = { player: null, flushes: {} };
      render();
    }, { class: "btn", "data-testid": "flush" })));
  }
  return h("div", { class: "variant-tools", role: "group", "aria-label": "Before the first card" },
    items);
}

function exchangePanel(m, action) {
  const x = state.exchange;
  const size = handSize(m.rules);
  const max = Math.min(size, action.stock_left);
  const close = button("Cancel", () => { state.exchange = null; render(); }, { class: "btn ghost" });
  const send = (count, out, drawn) => {
    const body = { type: "CardsExchanged", player: x.player, count };
    if (out.length) { body.cards_out = out; body.cards_in = drawn; }
    log(body, `${x.player} exchanges ${count}`);
  };
  const counts = Array.from({ length: size }, (_, i) => i + 1).map((n) => button(
    `${n} card${n === 1 ? "" : "s"}`, () => send(n, [], []),
    { class: "btn big", dataset: { count: String(n) }, disabled: n > max }));
  // the cards when known: first those put out, then as many drawn from the pack
  const drawing = x.out.length > 0 && x.outDone;
  const chosen = new Set(drawing ? x.in : x.out);
  const pickCard = (card) => {
    const list = drawing ? x.in : x.out;
    const at = list.indexOf(card);
    if (at >= 0) list.splice(at, 1);
    else if (list.length < size) list.push(card);
    if (drawing && x.in.length === x.out.length) { send(x.out.length, x.out, x.in); return; }
    render();
  };
  const disabled = seenCards(m, x.player);
  if (drawing) for (const card of x.out) disabled.add(card);
  return h("section", { class: "panel exchange", "aria-label": "Exchange" },
    h("h2", { class: "prompt" }, `${x.player} exchanges: how many cards?`),
    h("p", {}, `${action.stock_left} card${action.stock_left === 1 ? "" : "s"} left in the pack.`
      + " The count is enough; the cards may follow when they are known."),
    h("div", { class: "choices" }, counts),
    h("h3", { class: "ask" }, drawing
      ? `The ${x.out.length} card${x.out.length === 1 ? "" : "s"} drawn (${x.in.length} so far)`
      : "Or tap the cards put out, then the cards drawn"),
    x.out.length ? h("p", {}, `Out: ${x.out.map(label).join(" ")}`
      + (drawing ? ` · In: ${x.in.map(label).join(" ")}` : "")) : null,
    cardPicker(m, { disabled, chosen, pam: pamOf(m), onpick: pickCard,
      heading: drawing ? "The cards drawn" : "The cards put out" }),
    h("div", { class: "choices" },
      !drawing && x.out.length ? button(`Next: the ${x.out.length} drawn`, () => {
        x.outDone = true;
        render();
      }, { class: "btn big primary", "data-testid": "exchange-next" }) : null, close));
}

function flushPanel(m, action) {
  const f = state.flush;
  const close = button("Cancel", () => { state.flush = null; render(); }, { class: "btn ghost" });
  const shown = Object.keys(f.flushes);
  if (!f.player) {
    return h("section", { class: "panel flush", "aria-label": "Flush" },
      h("h2", { class: "prompt" }, shown.length ? "Another flush: whose?" : "Who shows a flush?"),
      shown.length ? h("p", {}, shown.map((p) => `${p}: ${f.flushes[p].map(label).join(" ")}`)
        .join(" · ")) : null,
      h("div", { class: "choices" }, action.players.filter((p) => !shown.includes(p)).map(
        (p) => button(p, () => { f.player = p; f.flushes[p] = []; render(); },
          { class: "btn big", dataset: { flusher: p } }))), close);
  }
  const cards = f.flushes[f.player];
  const complete = shown.every((p) => f.flushes[p].length === 5);
  const disabled = seenCards(m, f.player);
  for (const p of shown) if (p !== f.player) for (const card of f.flushes[p]) disabled.add(card);
  const pickCard = (card) => {
    const at = cards.indexOf(card);
    if (at >= 0) cards.splice(at, 1);
    else if (cards.length < 5) cards.push(card);
    render();
  };
  const others = action.players.filter((p) => !shown.includes(p));
  return h("section", { class: "panel flush", "aria-label": "Flush" },
    h("h2", { class: "prompt" }, `${f.player}'s flush: tap his five cards`),
    h("p", { class: "big-text", "data-testid": "flush-cards" },
      `${cards.length} of 5${cards.length ? `: ${cards.map(label).join(" ")}` : ""}`),
    h("p", { class: "muted" }, "Five cards of a suit, or four with Pam. The ledger checks them."),
    cardPicker(m, { disabled, chosen: new Set(cards), pam: pamOf(m), onpick: pickCard,
      heading: `${f.player}'s flush` }),
    h("div", { class: "choices" },
      button(shown.length > 1 ? "Log the flushes" : "Log the flush", () => {
        const flushes = Object.fromEntries(shown.map((p) => [p, f.flushes[p].slice()]));
        log({ type: "FlushShown", flushes }, `flush: ${shown.join(", ")}`);
      }, { class: "btn big primary", "data-testid": "flush-log", disabled: !complete }),
      complete && others.length ? button("Another player's flush too", () => {
        f.player = null;
        render();
      }, { class: "btn big" }) : null, close));
}

function stepView(m) {
  const exp = expected(m);
  const actions = exp.actions || [];
  const find = (type) => actions.find((a) => a.type === type);
  const penalty = find("PenaltyImposed");
  const penaltyButton = penalty ? button("Penalty…", () => { state.penalty = {}; render(); },
    { class: "btn ghost", "data-testid": "penalty" }) : null;
  if (state.penalty && penalty) return penaltyPanel(m, penalty);
  const exchange = find("CardsExchanged");
  const flush = find("FlushShown");
  if (state.exchange && exchange && exchange.players.includes(state.exchange.player)) {
    return exchangePanel(m, exchange);
  }
  if (state.flush && flush) return flushPanel(m, flush);
  const extras = variantTools(m, exchange, flush);

  if (exp.phase === "ended") {
    return h("section", { class: "panel" }, h("h2", {}, "The session has ended."),
      h("p", {}, "The treasurer has the statement."));
  }
  if (exp.phase === "between-deals" || exp.phase === "redeal") {
    const action = find("DealStarted");
    const money = payIn(m, action);
    const single = action.kind === "single";
    const picks = state.picks;
    const dealt = single ? rotateDealt(m, action.dealer) : [];
    let prompt;
    if (!picks.trump) prompt = single ? "Turn up the card (the turn-up single)" : "Turn-up card (trumps)";
    else {
      const next = dealt.find((p) => !(p in picks.faceUp));
      prompt = `Face-up card dealt to ${next}`;
    }
    const pick = (card) => {
      if (!picks.trump) {
        picks.trump = card;
        if (!single) {
          log({ type: "DealStarted", trump_card: card }, `${action.dealer} deals, ${label(card)}`);
          return;
        }
      } else {
        const next = dealt.find((p) => !(p in picks.faceUp));
        picks.faceUp[next] = card;
        if (dealt.every((p) => p in picks.faceUp)) {
          log({ type: "DealStarted", trump_card: picks.trump, face_up: { ...picks.faceUp } },
            `${action.dealer} deals the turn-up single`);
          return;
        }
      }
      render();
    };
    const taken = new Set([picks.trump, ...Object.values(picks.faceUp)].filter(Boolean));
    return h("section", { class: "panel", "aria-label": "The deal" },
      h("h2", { class: "prompt" }, exp.phase === "redeal"
        ? `${action.dealer} deals again (the hand is void)`
        : `${action.dealer} deals${single ? " the turn-up single" : ""}`),
      exp.phase === "redeal" ? null : h("p", { class: "big-text" },
        `Pays ${money.price}${money.antes ? `, antes ${money.antes}` : ""} — pool will be ${money.pool}`),
      action.forced ? h("p", {}, `Everyone stands this deal (${action.forced}).`) : null,
      action.club_law ? h("p", {}, "Club law: a club turned up and everyone stands.") : null,
      single && picks.trump ? h("p", {}, `Turned up ${label(picks.trump)}; `,
        dealt.map((p) => `${p} ${picks.faceUp[p] ? label(picks.faceUp[p]) : "…"}`).join(", ")) : null,
      h("h3", { class: "ask" }, prompt),
      cardPicker(m, { disabled: taken, onpick: pick, heading: prompt }));
  }
  if (exp.phase === "declaring") {
    const action = find("DeclarationMade");
    const who = action.player;
    return h("section", { class: "panel", "aria-label": "Declarations" },
      h("h2", { class: "prompt" }, `${who} declares`),
      h("div", { class: "choices" }, action.choices.map((choice) => button(
        DECLARATION_LABEL[choice] || choice,
        () => log({ type: "DeclarationMade", player: who, declaration: choice },
          `${who}: ${DECLARATION_LABEL[choice]}`),
        { class: `btn big decl-${choice}`, dataset: { declaration: choice } }))),
      extras, h("div", { class: "tools" }, penaltyButton));
  }
  if (exp.phase === "playing" || exp.phase === "replaying") {
    const cardAction = find("CardPlayed");
    const trickAction = find("TrickWon");
    const both = cardAction && trickAction;
    const mode = both ? state.mode : (cardAction ? "cards" : "quick");
    const trick = (cardAction || trickAction).trick;
    const modeSwitch = both ? h("div", { class: "segmented", role: "group",
      "aria-label": "How to log the tricks" },
    button("Quick: tap the winner", () => setMode("quick"),
      { class: `btn${mode === "quick" ? " on" : ""}`, "aria-pressed": String(mode === "quick") }),
    button("Card by card", () => setMode("cards"),
      { class: `btn${mode === "cards" ? " on" : ""}`, "aria-pressed": String(mode === "cards") }))
      : null;
    const title = exp.phase === "replaying" ? `Replay — trick ${trick}` : `Trick ${trick}`;
    if (mode === "quick") {
      return h("section", { class: "panel", "aria-label": "Tricks" },
        h("h2", { class: "prompt" }, `${title}: who won it?`), modeSwitch,
        h("div", { class: "choices" }, trickAction.winners.map((w) => button(
          m.deal && m.deal.standing.some((s) => s.player === w && s.hand === "miss-for-pool")
            ? `${w} (the miss, for the pool)` : w,
          () => log({ type: "TrickWon", winner: w }, `trick ${trick}: ${w}`),
          { class: "btn big", dataset: { winner: w } }))),
        extras, h("div", { class: "tools" }, penaltyButton));
    }
    const player = cardAction.player;
    const current = m.deal ? m.deal.current : [];
    const seen = seenCards(m, player);
    // five-card loo: the ace of trumps may be led with "Pam, be civil" (docs/rules.md §9.3)
    const ace = m.deal && m.deal.trump ? `A${suitOf(m.deal.trump)}` : null;
    const civil = (cardAction.calls || []).includes(PAM_BE_CIVIL) && ace && !seen.has(ace)
      ? button([`Leads ${label(ace)}: “Pam, be civil”`], () => log(
        { type: "CardPlayed", player, card: ace, call: PAM_BE_CIVIL },
        `${player} ${label(ace)}, Pam be civil`), { class: "btn big", "data-testid": "pam-be-civil" })
      : null;
    return h("section", { class: "panel", "aria-label": "Cards" },
      h("h2", { class: "prompt" }, `${title}: ${player} plays`), modeSwitch,
      h("p", { class: "current-trick", "aria-label": "This trick so far" },
        current.length ? current.map(([p, c]) => `${p} ${label(c)}`).join(" · ") : "Nothing played yet"),
      civil ? h("div", { class: "choices" }, civil) : null,
      cardPicker(m, { disabled: seen, heading: `${player}'s card`, pam: pamOf(m),
        onpick: (card) => log({ type: "CardPlayed", player, card }, `${player} ${label(card)}`) }),
      extras, h("div", { class: "tools" }, penaltyButton));
  }
  if (exp.phase === "review") {
    const asked = find("ReplayAsked");
    return h("section", { class: "panel", "aria-label": "Replay" },
      h("h2", { class: "prompt" }, "An offence in play: replay the hand?"),
      h("div", { class: "choices" },
        (asked ? asked.by : []).map((p) => button(`${p} asks for a replay`,
          () => log({ type: "ReplayAsked", by: p }, `${p} asks for a replay`), { class: "btn big" })),
        button("No replay", () => log({ type: "ReplayWaived" }, "no replay"), { class: "btn big" })),
      h("div", { class: "tools" }, penaltyButton));
  }
  return h("section", { class: "panel" }, h("h2", {}, `Waiting (${exp.phase})`));
}

function rotateDealt(m, dealer) {
  const i = m.active.indexOf(dealer);
  return m.active.slice(i + 1).concat(m.active.slice(0, i + 1));
}

function setMode(mode) {
  state.mode = mode;
  saved.set("mode", mode);
  render();
}

function dealView(m) {
  const d = m.deal;
  if (!d) return h("p", { class: "muted" }, "No deal yet.");
  const decl = d.dealt.filter((p) => p in d.declarations).map((p) => h("li", {},
    `${p}: ${DECLARATION_LABEL[d.declarations[p]] || d.declarations[p]}`));
  const tricks = d.tricks.map((t) => h("li", {}, `Trick ${t.trick}: ${t.winner}`,
    t.cards && t.cards.length ? ` (${t.cards.map(([p, c]) => `${p} ${label(c)}`).join(", ")})` : ""));
  const pens = (d.penalties || []).map((p) => h("li", {}, `${p.player}: ${p.offence}`
    + `${p.amount_units !== undefined && p.amount_units !== null ? ` (${p.amount_units})` : ""}`));
  const swaps = Object.entries(d.exchanges || {}).map(([p, x]) => h("li", {},
    `${p} exchanged ${x.count}`, x.cards_out && x.cards_out.length
      ? ` (out ${x.cards_out.map(label).join(" ")}, in ${x.cards_in.map(label).join(" ")})` : ""));
  return h("div", { class: "deal" },
    h("h2", {}, `Deal ${d.no}: ${d.dealer} dealt`),
    h("p", { class: "trump" }, "Trumps ", h("span", { class: `card-face${isRed(d.trump) ? " red" : ""}` },
      label(d.trump)), d.pam ? h("span", { class: "pam-note", "data-testid": "pam" }, " · Pam ",
      h("span", { class: `card-face${isRed(d.pam) ? " red" : ""}` }, label(d.pam))) : null),
    decl.length ? h("ul", { class: "list" }, decl) : null,
    swaps.length ? h("ul", { class: "list", "aria-label": "Exchanges" }, swaps) : null,
    tricks.length ? h("ul", { class: "list" }, tricks) : null,
    pens.length ? h("div", {}, h("h3", {}, "Penalties"), h("ul", { class: "list" }, pens)) : null);
}

function balancesView(m) {
  const rows = m.active.concat(m.seats.filter((p) => !m.active.includes(p))).map((p) => h("tr", {},
    h("th", { scope: "row" }, p), h("td", { class: "num" }, signed(m.balances[p] || 0))));
  return h("div", { class: "balances" },
    h("p", { class: "pool" }, `Pool ${m.pool} · owed to the next deal ${m.nextPool}`),
    h("table", {}, h("caption", {}, m.predicted ? "Balances (as last saved)" : "Balances"),
      h("tbody", {}, rows)));
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function syncBadge() {
  const waiting = state.outbox.length;
  let text = "All saved";
  let kind = "ok";
  if (state.conflict) { text = `Not saved: ${waiting} (another device logged first)`; kind = "bad"; }
  else if (state.refused) { text = `Not saved: ${waiting} (refused)`; kind = "bad"; }
  else if (waiting && state.offline) {
    text = `No connection — ${waiting} not yet saved`; kind = "warn";
  } else if (waiting) { text = `Saving ${waiting}…`; kind = "warn"; }
  else if (state.offline) { text = "No connection — all saved"; kind = "warn"; }
  return h("div", { class: `pill ${kind}`, role: "status", "aria-live": "polite",
    "data-testid": "sync", dataset: { waiting: String(waiting) } }, text);
}

function pendingView() {
  if (!state.outbox.length) return null;
  return h("details", { class: "pending" }, h("summary", {}, "Not yet saved"),
    h("ol", {}, state.outbox.map((e) => h("li", {}, e.label || e.body.type))));
}

function conflictView() {
  if (state.conflict) {
    return h("section", { class: "panel alert", role: "alert", "data-testid": "conflict" },
      h("h2", {}, "Another device logged first"),
      h("p", {}, `The ledger moved on (${problemText(state.conflict.problem)}). `
        + `${state.outbox.length} entr${state.outbox.length === 1 ? "y" : "ies"} of this device `
        + "are not saved."),
      h("div", { class: "choices" },
        button("Reload and carry on (drop mine)", () => resolveConflict(false),
          { class: "btn big primary", "data-testid": "reload" }),
        button("Reload and send mine after", () => resolveConflict(true), { class: "btn big" })));
  }
  if (state.refused) {
    const { entry, problem } = state.refused;
    return h("section", { class: "panel alert", role: "alert", "data-testid": "refused" },
      h("h2", {}, "The ledger refused an entry"),
      h("p", { class: "big-text" }, entry.label || entry.body.type),
      h("p", {}, problemText(problem)),
      h("div", { class: "choices" }, button("Drop it and carry on", () => {
        state.outbox.shift();
        saveOutbox();
        state.refused = null;
        render();
        sync();
      }, { class: "btn big primary", "data-testid": "drop" })));
  }
  return null;
}

async function resolveConflict(keepMine) {
  if (keepMine) state.outbox = state.outbox.map((e) => ({ ...e, key: newKey() }));
  else state.outbox = [];
  saveOutbox();
  state.conflict = null;
  try {
    await refresh({ full: true });
  } catch { state.offline = true; }
  render();
  sync();
}

function loginView() {
  const tokenInput = h("textarea", { id: "token", rows: "3", autocomplete: "off",
    spellcheck: "false", placeholder: "loo_…" });
  const sessionInput = h("input", { id: "session", type: "text", autocomplete: "off",
    value: state.sid || sessionFromAddress() || saved.get("session") || "" });
  return h("section", { class: "panel login", "aria-label": "Sign in" },
    h("h1", {}, "Lanterloo — the table"),
    state.loginMessage ? h("p", { class: "alert-text", role: "alert" }, state.loginMessage) : null,
    h("label", { for: "token" }, "Dealer token (from the club)"), tokenInput,
    h("label", { for: "session" }, "Session"), sessionInput,
    button("Sign in", () => signIn(tokenInput.value, sessionInput.value),
      { class: "btn big primary", "data-testid": "sign-in" }));
}

function sessionChooser() {
  const input = h("input", { id: "session", type: "text", autocomplete: "off" });
  return h("section", { class: "panel login", "aria-label": "Session" },
    h("h1", {}, "Which session?"),
    h("label", { for: "session" }, "Session id (the treasurer has it)"), input,
    button("Open", async () => { openSession(input.value.trim()); await start(); },
      { class: "btn big primary" }));
}

function header(m) {
  const who = state.who ? `${state.who.member} (${state.who.role}, ${state.who.token_label})` : "";
  return h("header", { class: "bar" },
    h("div", { class: "title" }, h("strong", {}, m ? (m.name || "Session") : "Lanterloo"),
      m && m.deal ? h("span", { class: "muted" }, ` · deal ${m.deal.no}`) : null,
      who ? h("span", { class: "muted" }, ` · ${who}`) : null),
    syncBadge(),
    button("Undo", undo, {
      class: "btn", "data-testid": "undo",
      disabled: !(state.outbox.length || (!state.offline && m && m.version > 1)),
      title: "Undo the last entry",
    }),
    m ? h("a", { class: "btn ghost", href: `/table/live#s=${encodeURIComponent(state.sid)}` },
      "Live view") : null,
    button("Sign out", () => signOut(null), { class: "btn ghost" }));
}

function render() {
  const app = root();
  if (!app) return;
  app.replaceChildren();
  if (!token()) {
    app.append(header(null), h("main", { class: "main single" }, loginView()));
    return;
  }
  if (!state.sid) {
    app.append(header(null), h("main", { class: "main single" }, sessionChooser()));
    return;
  }
  const m = model();
  if (!m) {
    app.append(header(null), h("main", { class: "main single" }, h("section", { class: "panel" },
      h("h2", {}, state.offline ? "No connection to the ledger yet" : "Loading…"))));
    return;
  }
  const notices = state.notices.length ? h("div", { class: "notices", role: "alert",
    "data-testid": "notices" }, state.notices.map((n) => h("p", { class: `notice ${n.kind}` },
    n.text))) : null;
  app.append(header(m), h("main", { class: "main" },
    h("div", { class: "work" }, conflictView(), notices, stepView(m), pendingView()),
    h("aside", { class: "side", "aria-label": "The deal and the balances" },
      m.deal && m.deal.phase === "settled" ? settlementView(
        m.predicted ? m.deal : (state.snapshot.deal || m.deal), m.rules) : null,
      dealView(m), balancesView(m))));
}

let pollTimer = null;
async function poll() {
  clearTimeout(pollTimer);
  if (state.sid && token() && !state.outbox.length && !state.syncing && !state.conflict) {
    try {
      if (await refresh()) render();
      if (state.offline) { state.offline = false; render(); }
    } catch (failure) {
      if (failure.status === 401) signOut("This device's token was refused (revoked or expired): paste a new one.");
      else if (!state.offline) { state.offline = true; render(); }
    }
  }
  pollTimer = setTimeout(poll, POLL_MS);
}

async function start() {
  render();
  if (!state.sid || !token()) return;
  await sync();
  poll();
}

window.addEventListener("online", () => sync());
window.addEventListener("DOMContentLoaded", () => {
  registerServiceWorker();
  const sid = sessionFromAddress() || saved.get("session");
  if (sid) openSession(sid);
  start();
});
// For the browser tests and the curious: what the device holds.
window.lanterloo = { state, model, sync };
