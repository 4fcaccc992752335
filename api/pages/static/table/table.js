// The dealer's tablet: log a live game of Loo as it is played.
//
// Every tap that logs something becomes an entry saved on the device first (its own
// Idempotency-Key), then sent in order, each with If-Match: the version the ledger gave for the
// entry before it. The screen offers only what the ledger's `expected` allows next (or, while
// entries wait to be sent, what predict.js folds from them), and the penalty dialog only the
// offences `expected` says the ledger accepts for that player now.
//
// The play screen is laid out once per viewport (app.css): every box the dealer taps keeps
// its place between two taps; a control that is not offered leaves its place empty.

import {
  Failure, h, newKey, pairingFromAddress, registerServiceWorker, request, saved,
  sessionFromAddress, token,
} from "./api.js";
import {
  SUITS, SUIT_NAME, SUIT_SYMBOL, handSize, label, ranksFor, suitClass,
} from "./cards.js";
import { apply, expected, fromServer } from "./predict.js";
import {
  DECLARATION_LABEL, breachWords, describeAppend, describeEvent, moneyText, offenceName,
  penaltyWords, unitsText, whoLogged,
} from "./words.js";

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
const SEAT_DECLARED = { play: "plays", throw_up: "threw up", take_miss: "the miss",
  play_miss_for_pool: "miss for the pool" };
const RETRY_MS = 2000;
const POLL_MS = 2000;
const REFUSED_TEXT = {
  401: "This device's sign-in was refused (revoked or expired): sign in again. Entries not yet "
    + "saved stay on the device.",
};

const state = {
  sid: null,
  who: saved.get("who"),
  snapshot: null, // {session, deal, offences}: the ledger's last word
  outbox: [],
  lastSettled: null,
  conflict: null, // {entry, base, theirs: [appends] | null}
  refused: null, // {entry, problem, status}
  offline: false,
  syncing: false,
  syncAgain: false, // sync() was called while a sync ran: run once more when it ends
  picks: { trump: null, faceUp: {} },
  penalty: null, // {player, offence, redeal}
  exchange: null, // {player, out: [cards], in: [cards]}: an exchange being entered
  flush: null, // {player, flushes: {player: [cards]}, pam}: flushes being entered
  civil: null, // {player, card}: the ace of trumps tapped as a lead, "Pam, be civil" asked
  mode: saved.get("mode", "quick"),
  fourColour: saved.get("fourColour", false),
  loginMessage: null,
  confirm: null, // {text, kind}: the line after the last entry
  lastEntry: null, // {label, device, mine, version}: what an undo of a saved entry removes
  menu: false,
  askSignOut: false,
  sessions: null, // the club's open sessions, to pick one
};

const root = () => document.getElementById("app");
const outboxName = () => `outbox.${state.sid}`;
const snapshotName = () => `snapshot.${state.sid}`;
const lastEntryName = () => `last-entry.${state.sid}`;

function saveOutbox() { saved.set(outboxName(), state.outbox); }
function saveSnapshot() { saved.set(snapshotName(), state.snapshot); }

function model() {
  if (!state.snapshot || !state.snapshot.session) return null;
  let m = fromServer(state.snapshot.session, state.snapshot.deal);
  m.offences = state.snapshot.offences || [];
  m.session = state.snapshot.session;
  for (const entry of state.outbox) if (entry.kind === "event") m = apply(m, entry.body);
  return m;
}

// ------------------------------------------------------------------ signing in

async function adoptSignIn(tokenValue) {
  saved.set("token", tokenValue);
  const who = await request("GET", "/club");
  state.who = who.body;
  saved.set("who", who.body);
}

async function signInWithToken(raw, sid) {
  try {
    await adoptSignIn(raw.trim());
  } catch (failure) {
    saved.set("token", null);
    state.loginMessage = failure.status === 401
      ? "That token was refused: use a pairing code from the treasurer's screen, or a dealer "
        + "token the club issued."
      : "No connection to the ledger: try again.";
    return render();
  }
  state.loginMessage = null;
  if (sid && sid.trim()) openSession(sid.trim());
  await start();
}

async function pairWith(code) {
  state.loginMessage = "Signing in…";
  render();
  try {
    const paired = await request("POST", "/pairing", { body: { code }, auth: false });
    await adoptSignIn(paired.body.token);
    state.loginMessage = null;
    openSession(paired.body.session_id);
    if (window.location.hash.includes("pair=")) {
      // the code is spent; the address keeps only the session
      window.history.replaceState(null, "", `/table#s=${encodeURIComponent(state.sid)}`);
    }
  } catch (failure) {
    saved.set("token", null);
    state.loginMessage = failure.status === 0 ? "No connection to the ledger: try again."
      : (failure.problem && failure.problem.detail) || "That code was refused.";
    return render();
  }
  await start();
}

function signOut(message) {
  saved.set("token", null);
  saved.set("who", null);
  state.who = null;
  state.loginMessage = message;
  state.askSignOut = false;
  state.menu = false;
  state.sessions = null;
  render();
}

function openSession(sid) {
  state.sid = sid;
  saved.set("session", sid);
  state.outbox = saved.get(outboxName(), []);
  state.snapshot = saved.get(snapshotName(), null);
  state.lastEntry = saved.get(lastEntryName(), null);
  state.conflict = null;
  state.refused = null;
  state.confirm = null;
}

async function loadSessions() {
  try {
    state.sessions = (await request("GET", "/club/sessions")).body.sessions;
  } catch (failure) {
    if (failure.status === 401) return signOut(REFUSED_TEXT[401]);
    state.sessions = [];
    state.loginMessage = "No connection to the ledger: the sessions could not be listed.";
  }
  render();
}

// ------------------------------------------------------------------ talking to the ledger

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
  // The offence table's amounts follow the pool as it stood when play began: read again when
  // the deal or its phase changes (and when the penalty dialog opens), not at every entry.
  const known = state.snapshot;
  let offences = known ? known.offences : [];
  const phase = (d) => (d ? `${d.deal_no}:${d.phase}:${d.pool_at_play_units}` : "none");
  if (!known || !known.offences || !known.offences.length || phase(known.deal) !== phase(deal)) {
    offences = await readOffences(offences);
  }
  if (deal && deal.settlement) state.lastSettled = deal;
  state.snapshot = { session, deal, offences };
  saveSnapshot();
  if (!state.lastEntry || state.lastEntry.version !== session.version) learnLastEntry(session);
}

async function readOffences(fallback) {
  try {
    return (await request("GET", `/sessions/${encodeURIComponent(state.sid)}/offences`))
      .body.offences;
  } catch (failure) {
    if (failure.status === 0) throw failure;
    return fallback;
  }
}

/** Open the penalty dialog, with the amounts as the ledger says them now. */
async function openPenalty() {
  state.penalty = {};
  render();
  if (!state.snapshot || state.outbox.length) return;
  try {
    const offences = await readOffences(state.snapshot.offences);
    state.snapshot = { ...state.snapshot, offences };
    saveSnapshot();
    render();
  } catch { /* the amounts last read stay */ }
}

/** What an undo would now remove, when this device did not log the last entry itself: the
 * last append still standing, with the device it came from (GET /sessions/<id>/entries). */
async function learnLastEntry(session) {
  const version = session.version;
  try {
    const got = await request("GET", `/sessions/${encodeURIComponent(state.sid)}/entries`
      + `?after=${Math.max(0, version - 60)}`);
    const live = got.body.entries.filter((a) => a.superseded_by === null
      && a.events[0].type !== "EntryCorrected" && a.events[0].type !== "SessionOpened");
    const last = live[live.length - 1];
    state.lastEntry = last ? {
      label: describeAppend(last), device: whoLogged(last, state.who && state.who.token_id),
      mine: Boolean(state.who && last.token_id === state.who.token_id), version,
    } : { label: null, version };
    saved.set(lastEntryName(), state.lastEntry);
    render();
  } catch { /* the undo button then names no entry */ }
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
        const path = entry.kind === "undo" ? "undo" : "events";
        result = await request("POST", `/sessions/${sid}/${path}`, { body: entry.body, headers });
      } catch (failure) {
        if (failure.status === 0 || failure.status >= 500) throw failure;
        if (failure.status === 401) return signOut(REFUSED_TEXT[401]);
        if (failure.status === 409 && failure.problem.rule === "expected-version") {
          await startConflict(entry, base);
        } else {
          state.refused = { entry, problem: failure.problem, status: failure.status };
        }
        break;
      }
      // The entry leaves the outbox only once the ledger's new state is on the device: if
      // the connection drops in between, it is sent again with the same key and If-Match,
      // and the ledger answers with its first response (appending nothing twice).
      const version = result.body.session.version;
      if (entry.kind === "undo") {
        const corrected = (result.body.appended || []).find((e) => e.type === "EntryCorrected");
        state.lastEntry = null;
        saved.set(lastEntryName(), null);
        state.confirm = { text: `Undone: ${corrected
          ? describeEvent("EntryCorrected", corrected.payload).replace(/^undo of /, "") : "the last entry"}`,
        kind: "ok" };
      } else {
        state.lastEntry = { label: entry.label, device: "This tablet", mine: true, version };
        saved.set(lastEntryName(), state.lastEntry);
      }
      await adopt(result.body.session);
      state.outbox.shift();
      saveOutbox();
      state.offline = false;
      render();
    }
    if (!state.outbox.length) await refresh();
    state.offline = false;
  } catch (failure) {
    if (failure instanceof Failure && failure.status === 401) return signOut(REFUSED_TEXT[401]);
    state.offline = true;
    retryLater();
  } finally {
    state.syncing = false;
    render();
    if (state.syncAgain && !state.offline) sync();
  }
}

/** Another device logged first: read what it logged, so the dealer can choose. */
async function startConflict(entry, base) {
  state.conflict = { entry, base, theirs: null };
  render();
  try {
    await refresh({ full: true });
    const got = await request("GET", `/sessions/${encodeURIComponent(state.sid)}/entries`
      + `?after=${base}`);
    state.conflict.theirs = got.body.entries.filter((a) => a.superseded_by === null);
  } catch {
    state.conflict.theirs = [];
  }
}

function log(body, what) {
  logMany([[body, what]]);
}

/** Log entries, one after another (the shortcut logs several with one tap). */
function logMany(items) {
  for (const [body, what] of items) {
    state.outbox.push({ key: newKey(), kind: "event", body, label: what });
  }
  saveOutbox();
  state.confirm = { text: `${items.map(([, what]) => what).join(", ")} logged`, kind: "ok" };
  state.picks = { trump: null, faceUp: {} };
  state.penalty = null;
  state.exchange = null;
  state.flush = null;
  state.civil = null;
  render();
  sync();
}

function undo() {
  if (state.outbox.length) {
    const dropped = state.outbox.pop();
    saveOutbox();
    state.refused = null;
    state.confirm = { text: `Undone: ${dropped.label} (it had not been sent)`, kind: "ok" };
    render();
    return;
  }
  const target = state.lastEntry && state.lastEntry.label;
  state.outbox.push({ key: newKey(), kind: "undo", body: { reason: "undone at the table" },
    label: target ? `undo ${target}` : "undo the last entry" });
  saveOutbox();
  state.confirm = { text: `Undoing ${target || "the last entry"}…`, kind: "warn" };
  render();
  sync();
}

// ------------------------------------------------------------------ pieces of the screen

function button(text, onclick, attrs = {}) {
  return h("button", { type: "button", class: "btn", onclick, ...attrs }, text);
}

const face = (card) => h("span", { class: `face ${suitClass(card)}` }, label(card));
const money = (units) => unitsText(units, state.snapshot && state.snapshot.session);

function cardPicker(m, { disabled = new Set(), onpick, heading, pam = null, chosen = null }) {
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
function slots(items, { wide = false } = {}) {
  const count = items.length;
  const cols = wide ? Math.max(2, Math.ceil(count / 3)) : 2;
  return h("div", { class: "slots", style: { "grid-template-columns": `repeat(${cols}, minmax(0, 1fr))` } },
    items.map((item) => item || h("div", { class: "slot-empty", "aria-hidden": "true" })));
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

/** The face-up cards of the turn-up single, and whose beat the card turned up (the ledger's
 * deal view says who took the pool; the device foresees it while the entry waits). */
function faceUpView(deal) {
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

function settlementView(deal, rules) {
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
function dealNotices(m) {
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

function replayReason(d) {
  if (d.phase !== "replaying" && d.replay !== "required") return null;
  const offence = (d.penalties || []).find((p) => p.replay === "required");
  const why = offence ? `${offence.player}'s ${offenceName(offence.offence)}` : "an offence in play";
  if (d.phase === "replaying") return `The hand is replayed with the same cards (${why}).`;
  return `The hand will be replayed with the same cards when the tricks are done (${why}).`;
}

function offenceAmount(o) {
  const where = o.to === "pool" ? "into this pool" : "to the next pool";
  if (o.amount_units === null) {
    return o.when_fixed === "with-the-deal"
      ? `4 stakes ${where}, or a loo if he takes no trick` : `a loo ${where}, fixed at settlement`;
  }
  return `${money(o.amount_units)} ${where}`;
}

/** The offences the ledger accepts now, per player: from `expected` (its PenaltyImposed
 * action); with entries waiting, as the ledger last said, checked again when they reach it. */
function penaltyOffers(m, action) {
  if (action && action.by_player) return { byPlayer: action.by_player, redeal: action.redeal || {} };
  const session = state.snapshot.session;
  const server = (session.expected.actions || []).find((a) => a.type === "PenaltyImposed");
  if (server && session.deal && m.deal && session.deal.deal_no === m.deal.no) {
    return { byPlayer: server.by_player || {}, redeal: server.redeal || {}, stale: true };
  }
  // a deal dealt with no connection: the ledger has said nothing of it yet; the whole table,
  // for the players dealt in, checked when the entries reach the ledger
  const everyone = [...new Set([...(m.deal ? m.deal.dealt : m.active)])];
  const names = (m.offences || []).map((o) => o.offence);
  return { byPlayer: Object.fromEntries(everyone.map((p) => [p, names])), redeal: {},
    stale: true };
}

function penaltyDialog(m, action) {
  const p = state.penalty;
  const offers = penaltyOffers(m, action);
  const players = Object.keys(offers.byPlayer);
  const stale = offers.stale ? h("p", { class: "muted" }, "Entries are waiting: this is what "
    + "the ledger last accepted; it checks the penalty again when the entries reach it.") : null;
  // the head keeps its place from step to step: the question, Back (or its empty place), Cancel
  const head = (question, back) => h("div", { class: "dialog-head" }, h("h2", {}, question),
    back ? button("Back", back, { class: "btn ghost", "data-testid": "penalty-back" })
      : h("div", { class: "slot-empty back", "aria-hidden": "true" }),
    button("Cancel", () => { state.penalty = null; render(); },
      { class: "btn ghost", "data-testid": "penalty-cancel" }));
  let body;
  if (!p.player) {
    body = [head("Penalty: who offended?", null), stale,
      players.length ? h("div", { class: "players" }, players.map((name) => button(name, () => {
        state.penalty = { player: name };
        render();
      }, { class: "btn big", dataset: { offender: name } })))
        : h("p", {}, "The ledger accepts no penalty now.")];
  } else if (!p.offence) {
    const allowed = offers.byPlayer[p.player] || [];
    const rows = allowed.map((name) => (m.offences || []).find((o) => o.offence === name)
      || { offence: name });
    body = [head(`Penalty for ${p.player}: which offence?`, () => { state.penalty = {}; render(); }),
      stale,
      h("ul", { class: "offences", "data-testid": "offences" }, rows.map((o) => h("li", {}, button(
        [h("strong", {}, offenceName(o.offence)),
          o.to ? h("span", { class: "amount" }, offenceAmount(o)) : null],
        () => { state.penalty = { ...p, offence: o.offence, redeal: false }; render(); },
        { class: "btn offence", dataset: { offence: o.offence } }))))];
  } else {
    const o = (m.offences || []).find((x) => x.offence === p.offence) || { offence: p.offence };
    const effects = [];
    if (o.throw_up) effects.push("he must throw up if he has not declared");
    if (o.forfeits && o.forfeits !== "never") effects.push("his winnings stay in the pool");
    if (o.redeal === "always") effects.push("the same dealer deals again");
    if (o.replay === "required") effects.push("the hand is replayed");
    if (o.leaves_play) effects.push("he plays no further card");
    const redealAllowed = (offers.redeal[p.player] || []).includes(p.offence);
    body = [head(`Charge ${p.player} for ${offenceName(p.offence)}?`,
      () => { state.penalty = { player: p.player }; render(); }),
    h("p", { class: "big-text" }, o.amount_units === undefined ? "" : offenceAmount(o)),
    effects.length ? h("p", {}, `Also: ${effects.join("; ")}.`) : null,
    h("p", { class: "law" }, o.law || ""),
    redealAllowed ? h("label", { class: "check" }, h("input", {
      type: "checkbox", checked: p.redeal, onchange: (e) => { p.redeal = e.target.checked; },
    }), "The cards were mixed or exposed: deal again") : null,
    h("div", { class: "choices" }, button("Confirm the penalty", () => {
      const sent = { type: "PenaltyImposed", player: p.player, offence: p.offence };
      if (p.redeal && redealAllowed) sent.redeal = true;
      log(sent, `penalty: ${p.player}, ${offenceName(p.offence)}`);
    }, { class: "btn big primary", "data-testid": "penalty-confirm" }))];
  }
  return h("div", { class: "overlay" }, h("section", { class: "dialog penalty", role: "dialog",
    "aria-modal": "true", "aria-label": "Penalty", "data-testid": "penalty-dialog" }, body));
}

// ------------------------------------------------------------------ Irish and five-card loo
//
// The strip under the board has a note line and three fixed places (app.css `.extra`): the
// first (twice as wide) for the exchange, or the counts of an exchange, or the step's main
// choice; the second for the flush, or the step's next choice; the third for Cancel. A control
// not offered leaves its place empty, so nothing in the strip moves between two taps.

/** The strip: a one-line note and the three places (null leaves a place empty). */
function strip(note, first = null, second = null, third = null) {
  const place = (item, name) => h("div", { class: `place ${name}` }, item);
  return [h("p", { class: "note muted" }, note || "\u00a0"),
    h("div", { class: "row" }, place(first, "first"), place(second, "second"),
      place(third, "third"))];
}

const cardsLeft = (n) => `${n} card${n === 1 ? "" : "s"} left in the pack`;

/** Who may exchange now, in the dealer's words: at `turn-to-declare` the exchange is made at
 * the player's turn to declare, after his "play" and before the next player declares (the
 * dealer's until the first card); at `before-play` by any standing player until the first
 * card (docs/rules.md §11.40). */
function exchangeNote(exchange, nextDeclarer) {
  if (exchange.players.length === 1 && exchange.exchange_at === "turn-to-declare") {
    const who = exchange.players[0];
    return nextDeclarer ? `${who}'s exchange is now, before ${nextDeclarer} declares · `
      + `${cardsLeft(exchange.stock_left)}`
      : `${who} may exchange until the first card · ${cardsLeft(exchange.stock_left)}`;
  }
  return `Exchanges until the first card · ${cardsLeft(exchange.stock_left)}`;
}

/** The strip when no step is under way: the exchange (one player: his name; several: who,
 * asked on the board) and the flush, as `expected` offers them. */
function variantTools(exchange, flush, nextDeclarer) {
  let swap = null;
  if (exchange) {
    const one = exchange.players.length === 1 ? exchange.players[0] : null;
    swap = button(one ? `${one} exchanges…` : "An exchange…", () => {
      state.exchange = { player: one, out: [], in: [] };
      render();
    }, { class: "btn", "data-testid": "exchange", dataset: one ? { exchange: one } : {} });
  }
  const show = flush ? button("Show a flush…", () => {
    state.flush = { player: null, flushes: {}, pam: false };
    render();
  }, { class: "btn", "data-testid": "flush" }) : null;
  let note = exchange ? exchangeNote(exchange, nextDeclarer) : "";
  if (!exchange && flush) note = "A flush is shown before the first card";
  return strip(note, swap, show);
}

const cancel = (what) => button("Cancel", () => { state[what] = null; render(); },
  { class: "btn ghost", "data-testid": "cancel" });

/** Several may exchange: whose exchange, each player in his own place (the order dealt). */
function exchangeWhoParts(m, action) {
  return {
    prompt: "Who exchanges?",
    sub: cardsLeft(action.stock_left),
    board: slots(m.deal.dealt.map((p) => (action.players.includes(p) ? button(p, () => {
      state.exchange = { player: p, out: [], in: [] };
      render();
    }, { class: "btn big", dataset: { exchange: p } }) : null)), { wide: true }),
    extra: strip(exchangeNote(action, null), null, null, cancel("exchange")),
  };
}

function exchangeParts(m, action) {
  const x = state.exchange;
  const size = handSize(m.rules);
  const max = Math.min(size, action.stock_left);
  const send = (count, out, drawn) => {
    const body = { type: "CardsExchanged", player: x.player, count };
    if (out.length) { body.cards_out = out; body.cards_in = drawn; }
    log(body, `${x.player} exchanges ${count}`);
  };
  const counts = h("div", { class: "counts", role: "group", "aria-label": "How many cards" },
    Array.from({ length: size }, (_, i) => i + 1).map((n) => button(
      `${n}`, () => send(n, [], []),
      { class: "btn", dataset: { count: String(n) }, disabled: n > max,
        "aria-label": `${n} card${n === 1 ? "" : "s"}` })));
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
  return {
    prompt: `${x.player} exchanges: how many cards?`,
    sub: drawing ? `Out: ${x.out.map(label).join(" ")} · the ${x.out.length} drawn: `
      + `${x.in.map(label).join(" ")}`
      : `${cardsLeft(action.stock_left)} · tap a count, or the cards put out then drawn`
        + `${x.out.length ? ` · out: ${x.out.map(label).join(" ")}` : ""}`,
    board: cardPicker(m, { disabled, chosen, pam: pamOf(m), onpick: pickCard,
      heading: drawing ? "The cards drawn" : "The cards put out" }),
    extra: strip("How many cards (the count is enough), or the cards put out, then Next",
      counts,
      !drawing && x.out.length ? button(`Next: the ${x.out.length} drawn`, () => {
        x.outDone = true;
        render();
      }, { class: "btn primary", "data-testid": "exchange-next" }) : null,
      cancel("exchange")),
  };
}

/** The players who may be named as the holder of Pam: the ledger's candidates less those who
 * show a flush without Pam (a flush is a whole hand: the ledger refuses them), or null when
 * the ledger need not be told (it knows, or a flush shown holds Pam). */
function pamAsked(action, flushes) {
  if (!(action.needs || []).includes("pam_held_by")) return null;
  if (Object.values(flushes).some((cards) => cards.includes(action.pam))) return null;
  const left = (action.pam_candidates || []).filter((p) => !(p in flushes));
  return left.length ? left : null;
}

/** Who holds Pam, as the ledger already knows it from the cards logged (or null). */
function pamKnown(action) {
  if (!("pam_held_by" in action) || !action.pam) return null;
  return action.pam_held_by ? `${action.pam_held_by} holds Pam (${label(action.pam)}): the `
    + "cards logged show it" : `Nobody holds Pam (${label(action.pam)}): the cards logged show it`;
}

function flushParts(m, action) {
  const f = state.flush;
  const shown = Object.keys(f.flushes);
  const flushes = () => Object.fromEntries(shown.map((p) => [p, f.flushes[p].slice()]));
  const sendFlush = (holder) => {
    const body = { type: "FlushShown", flushes: flushes() };
    let what = `flush: ${shown.join(", ")}`;
    if (holder !== undefined) {
      body.pam_held_by = holder;
      what += holder ? ` (${holder} holds Pam)` : " (nobody holds Pam)";
    }
    log(body, what);
  };
  const asked = pamAsked(action, f.flushes);
  if (f.pam && asked) {
    // Blenheim and Enquire Within: the holder of Pam pays no flush; the ledger is told who
    const pam = label(action.pam);
    return {
      prompt: `Who holds Pam (${pam})?`,
      sub: `The holder of Pam pays nothing for the flush · ${shown.map((p) => `${p}: `
        + `${f.flushes[p].map(label).join(" ")}`).join(" · ")}`,
      board: slots([...asked.map((p) => button(`${p} holds ${pam}`, () => sendFlush(p),
        { class: "btn big", dataset: { pamHolder: p } })),
      button("None of them", () => sendFlush(null),
        { class: "btn big", dataset: { pamHolder: "none" } })], { wide: true }),
      extra: strip("None of them: Pam is in the pack, or in a hand thrown up",
        button("Back to the cards", () => { f.pam = false; render(); },
          { class: "btn", "data-testid": "pam-back" }), null, cancel("flush")),
    };
  }
  if (!f.player) {
    // each player keeps his place; one whose flush is entered leaves his place empty
    return {
      prompt: shown.length ? "Another flush: whose?" : "Who shows a flush?",
      sub: shown.map((p) => `${p}: ${f.flushes[p].map(label).join(" ")}`).join(" · "),
      board: slots(action.players.map((p) => (shown.includes(p) ? null : button(p, () => {
        f.player = p;
        f.flushes[p] = [];
        render();
      }, { class: "btn big", dataset: { flusher: p } }))), { wide: true }),
      extra: strip(pamKnown(action) || "", null, null, cancel("flush")),
    };
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
  const next = complete && pamAsked(action, f.flushes);
  return {
    prompt: `${f.player}'s flush: tap his five cards`,
    sub: h("span", { "data-testid": "flush-cards" },
      `${cards.length} of 5${cards.length ? `: ${cards.map(label).join(" ")}` : ""}`),
    board: cardPicker(m, { disabled, chosen: new Set(cards), pam: pamOf(m), onpick: pickCard,
      heading: `${f.player}'s flush` }),
    extra: strip(pamKnown(action) || "Five cards of a suit, or four with Pam. The ledger checks "
      + "them.",
    button(next ? "Next: who holds Pam?" : (shown.length > 1 ? "Log the flushes" : "Log the flush"),
      () => {
        if (next) {
          f.pam = true;
          render();
        } else sendFlush(undefined);
      }, { class: "btn primary", "data-testid": "flush-log", disabled: !complete }),
    complete && others.length ? button("Another flush", () => {
      f.player = null;
      render();
    }, { class: "btn", "data-testid": "flush-another" }) : null, cancel("flush")),
  };
}

/** Five-card loo: the ace of trumps tapped as a lead while Pam is out: whether "Pam, be civil"
 * was called, asked each time (`expected`'s `pam_call`; Baxter-Wray p. 28: "When the ace of
 * trumps is led it is usual for the player of it to say, 'Pam, be civil'"). */
function civilParts(m, call) {
  const { player, card } = state.civil;
  const words = { [PAM_BE_CIVIL]: "He said “Pam, be civil”", none: "He said nothing" };
  const logged = { [PAM_BE_CIVIL]: "“Pam, be civil”", none: "no call" };
  return {
    prompt: `${player} leads ${label(card)}: did he say “Pam, be civil”?`,
    sub: "If he did, Pam passes the ace when its holder has another trump",
    board: slots(call.choices.filter((c) => c in words).map((c) => button(words[c], () => log(
      { type: "CardPlayed", player, card, call: c }, `${player} ${label(card)}, ${logged[c]}`),
    { class: "btn big", dataset: { call: c } }))),
    extra: strip("", null, null, cancel("civil")),
  };
}

// ------------------------------------------------------------------ the step to log now

function rotateDealt(m, dealer) {
  const i = m.active.indexOf(dealer);
  return m.active.slice(i + 1).concat(m.active.slice(0, i + 1));
}

function setMode(mode) {
  state.mode = mode;
  saved.set("mode", mode);
  render();
}

/** The stage's four parts for what comes next: prompt, the line under it, the board and the
 * variants' strip. */
function stepParts(m, exp) {
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
    const dealt = single ? rotateDealt(m, action.dealer) : [];
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

// ------------------------------------------------------------------ the side column

function seatMap(m) {
  const d = m.deal;
  if (!d || d.phase === "settled") return null;
  const exp = expected(m);
  const cardAction = (exp.actions || []).find((a) => a.type === "CardPlayed");
  const declareAction = (exp.actions || []).find((a) => a.type === "DeclarationMade");
  const nextPlayer = cardAction ? cardAction.player : declareAction ? declareAction.player : null;
  const declaring = d.phase === "declaring";
  const leader = d.current.length ? d.current[0][0] : nextPlayer;
  const played = Object.fromEntries(d.current);
  const standing = new Set(d.standing.map((s) => s.player));
  const won = {};
  for (const t of d.tricks) won[t.winner] = (won[t.winner] || 0) + 1;
  const seats = d.dealt;
  const n = seats.length;
  return h("section", { class: "seatmap", "aria-label": "The table: this trick", "data-testid": "seatmap" },
    h("div", { class: "centre" }, declaring ? "Declaring"
      : `Trick ${Math.min(d.tricks.length + 1, handSize(m.rules))}`, h("br"), "Trumps ",
    face(d.trump)),
    seats.map((p, i) => {
      // the dealer at the bottom, the others round the table to his left
      const angle = (Math.PI / 2) + ((i + 1) * 2 * Math.PI) / n;
      const left = 50 + 34 * Math.cos(angle);
      const top = 50 + 36 * Math.sin(angle);
      const declared = d.declarations[p];
      const tags = [];
      if (p === d.dealer) tags.push("deals");
      if (declaring && declared) tags.push(SEAT_DECLARED[declared] || declared);
      if (p === leader && !declaring) tags.push("leads");
      if (won[p]) tags.push(`${won[p]} trick${won[p] === 1 ? "" : "s"}`);
      const out = !declaring && !standing.has(p);
      return h("div", {
        class: `seat${out ? " out" : ""}${p === nextPlayer ? " next" : ""}${p === leader ? " leads" : ""}`,
        style: { left: `${left.toFixed(1)}%`, top: `${top.toFixed(1)}%` }, dataset: { seat: p },
      }, h("span", { class: "name" }, p),
      h("span", { class: "tag" }, tags.join(" · ") || (out ? "out" : "")),
      played[p] ? h("span", { class: "played" }, face(played[p])) : null);
    }));
}

function dealView(m) {
  const d = m.deal;
  if (!d) return null;
  const decl = d.dealt.filter((p) => p in d.declarations).map((p) => h("li", {},
    `${p}: ${DECLARATION_LABEL[d.declarations[p]] || d.declarations[p]}`));
  const tricks = d.tricks.map((t) => h("li", {}, `Trick ${t.trick}: ${t.winner}`,
    t.cards && t.cards.length ? [" (", t.cards.map(([p, c], i) => [i ? ", " : "", `${p} `, face(c)]), ")"]
      : ""));
  const swaps = Object.entries(d.exchanges || {}).map(([p, x]) => h("li", {},
    `${p} exchanged ${x.count}`, x.cards_out && x.cards_out.length
      ? ` (out ${x.cards_out.map(label).join(" ")}, in ${x.cards_in.map(label).join(" ")})` : ""));
  return h("section", { class: "deal" },
    h("h2", {}, `Deal ${d.no}: ${d.dealer} dealt`),
    h("p", { class: "trump" }, "Trumps ", face(d.trump), d.pam ? h("span", { class: "pam-note",
      "data-testid": "pam" }, " · Pam ", face(d.pam)) : null),
    d.kind === "single" ? faceUpView(d) : null,
    decl.length ? h("ul", { class: "list" }, decl) : null,
    swaps.length ? h("ul", { class: "list", "aria-label": "Exchanges" }, swaps) : null,
    tricks.length ? h("ul", { class: "list" }, tricks) : null);
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function balancesView(m) {
  const session = state.snapshot.session;
  const rows = m.active.concat(m.seats.filter((p) => !m.active.includes(p))).map((p) => h("tr", {},
    h("th", { scope: "row" }, p), h("td", { class: "num" }, signed(m.balances[p] || 0)),
    session.currency && session.money_per_unit_minor ? h("td", { class: "num" },
      moneyText((m.balances[p] || 0) * session.money_per_unit_minor, session.currency)) : null));
  return h("section", { class: "balances" },
    h("p", { class: "pool" }, `Pool ${money(m.pool)} · owed to the next deal ${money(m.nextPool)}`),
    h("table", {}, h("caption", {}, m.predicted ? "Balances (as last saved)" : "Balances"),
      h("tbody", {}, rows)));
}

function syncBadge() {
  const waiting = state.outbox.length;
  let text = "All saved";
  let kind = "ok";
  if (state.conflict) { text = `Not saved: ${waiting} (another device)`; kind = "bad"; }
  else if (state.refused) { text = `Not saved: ${waiting} (refused)`; kind = "bad"; }
  else if (waiting && state.offline) {
    text = `No connection — ${waiting} not yet saved`; kind = "warn";
  } else if (waiting) { text = `Saving ${waiting}…`; kind = "warn"; }
  else if (state.offline) { text = "No connection — all saved"; kind = "warn"; }
  return h("div", { class: `pill ${kind}`, role: "status", "aria-live": "polite",
    "data-testid": "sync", dataset: { waiting: String(waiting) }, title: text }, text);
}

function undoTarget(m) {
  if (state.outbox.length) return state.outbox[state.outbox.length - 1].label;
  if (!m || state.offline || m.version <= 1) return null;
  const last = state.lastEntry;
  if (last && last.version === m.version && last.label) {
    return `${last.mine ? "" : `${last.device}'s `}${last.label}`;
  }
  return "the last entry";
}

function toolbar(m, exp) {
  const actions = exp.actions || [];
  const penalty = actions.find((a) => a.type === "PenaltyImposed");
  const cardAction = actions.find((a) => a.type === "CardPlayed");
  const trickAction = actions.find((a) => a.type === "TrickWon");
  const inDeal = exp.phase === "playing" || exp.phase === "replaying" || exp.phase === "declaring";
  const fixed = (exp.phase === "playing" || exp.phase === "replaying")
    && !(cardAction && trickAction) ? (cardAction ? "cards" : "quick") : null;
  const mode = fixed || state.mode;
  const target = undoTarget(m);
  const confirm = state.confirm;
  return h("nav", { class: "toolbar", "aria-label": "Undo, penalty and how tricks are logged" },
    h("p", { class: `confirm${confirm && confirm.kind === "warn" ? " muted" : ""}`,
      role: "status", "data-testid": "confirm" }, confirm ? confirm.text : "\u00a0"),
    button(h("span", { class: "label" }, target ? `Undo: ${target}` : "Undo"), undo, {
      class: "btn", "data-testid": "undo", disabled: !target,
      title: target ? `Undo ${target}` : "Nothing to undo",
    }),
    button("Penalty…", openPenalty, {
      class: "btn", "data-testid": "penalty", disabled: !penalty,
    }),
    h("div", { class: "segment", role: "group", "aria-label": "How to log the tricks" },
      button("Quick", () => setMode("quick"), {
        class: `btn${mode === "quick" ? " on" : ""}`, "aria-pressed": String(mode === "quick"),
        disabled: Boolean(fixed && fixed !== "quick") || (!inDeal && exp.phase !== "between-deals"),
        "data-testid": "mode-quick", title: "Quick: tap the winner of each trick",
      }),
      button("Card by card", () => setMode("cards"), {
        class: `btn${mode === "cards" ? " on" : ""}`, "aria-pressed": String(mode === "cards"),
        disabled: Boolean(fixed && fixed !== "cards") || (!inDeal && exp.phase !== "between-deals"),
        "data-testid": "mode-cards",
      })));
}

// ------------------------------------------------------------------ conflicts and refusals

function entryLabel(e) { return e.label || describeEvent(e.body.type, e.body); }

function conflictDialog() {
  const c = state.conflict;
  const mine = state.outbox;
  const theirs = c.theirs;
  const first = theirs && theirs[0];
  const device = first ? whoLogged(first, state.who && state.who.token_id) : "Another device";
  const same = first && mine[0] && describeAppend(first) === entryLabel(mine[0]);
  const heading = theirs === null ? "Another device logged first…"
    : first ? `${device} logged ${describeAppend(first)} first` : "Another device logged first";
  const list = (items) => h("ol", { class: "list" }, items.slice(0, 4).map((x) => h("li", {}, x)),
    items.length > 4 ? h("li", {}, `and ${items.length - 4} more`) : null);
  return h("div", { class: "overlay" }, h("section", { class: "dialog alert", role: "alertdialog",
    "aria-modal": "true", "aria-label": heading, "data-testid": "conflict" },
  h("h2", {}, heading),
  h("div", { class: "side-by-side" },
    h("div", { "data-testid": "theirs" }, h("h3", {}, `Theirs (${device})`),
      theirs ? list(theirs.map((a) => describeAppend(a))) : h("p", {}, "Reading…")),
    h("div", { "data-testid": "mine" }, h("h3", {}, "Mine (this tablet, not saved)"),
      list(mine.map(entryLabel)))),
  same ? h("p", {}, "Both tablets logged the same entry.") : null,
  h("div", { class: "choices" },
    button(mine.length > 1 ? `Keep theirs (drop my ${entryLabel(mine[0])}, send the rest)`
      : "Keep theirs (drop mine)", () => resolveConflict("theirs"),
    { class: `btn big${same ? " primary" : ""}`, "data-testid": "keep-theirs", disabled: theirs === null }),
    button("Log mine after theirs", () => resolveConflict("after"),
      { class: `btn big${same ? "" : " primary"}`, "data-testid": "mine-after", disabled: theirs === null }),
    button(`Drop mine (${mine.length})`, () => resolveConflict("drop"),
      { class: "btn big danger", "data-testid": "drop-mine", disabled: theirs === null }))));
}

async function resolveConflict(choice) {
  if (choice === "drop") state.outbox = [];
  else if (choice === "theirs") state.outbox = state.outbox.slice(1);
  // sent again on top of theirs: new keys, so the ledger decides them anew
  state.outbox = state.outbox.map((e) => ({ ...e, key: newKey() }));
  saveOutbox();
  state.conflict = null;
  state.confirm = { text: { drop: "Kept theirs; mine dropped", theirs: "Kept theirs",
    after: "Sending mine after theirs" }[choice], kind: "ok" };
  try {
    await refresh({ full: true });
  } catch { state.offline = true; }
  render();
  sync();
}

function refusedDialog() {
  const { entry, problem, status } = state.refused;
  const after = state.outbox.length - 1;
  const reason = status === 403 && problem.rule === "undo-own-entry"
    ? "The last entry was logged by someone else: only the treasurer can correct it."
    : (problem.detail || problem.title || "refused");
  const drop = (all) => {
    const dropped = all ? state.outbox.length : 1;
    state.outbox = all ? [] : state.outbox.slice(1);
    saveOutbox();
    state.refused = null;
    state.confirm = { text: `Dropped ${dropped} entr${dropped === 1 ? "y" : "ies"}`, kind: "ok" };
    render();
    sync();
  };
  return h("div", { class: "overlay" }, h("section", { class: "dialog alert", role: "alertdialog",
    "aria-modal": "true", "aria-label": "The ledger refused an entry", "data-testid": "refused" },
  h("h2", {}, "The ledger refused an entry"),
  h("p", { class: "big-text" }, entryLabel(entry)),
  h("p", { "data-testid": "reason" }, reason, problem.rule ? h("span", { class: "law" },
    ` (the ledger's rule: ${problem.rule})`) : null),
  after > 0 ? h("p", {}, `${after} more entr${after === 1 ? "y was" : "ies were"} logged after `
    + "it on this tablet.") : null,
  h("div", { class: "choices" },
    button(after > 0 ? `Drop it and the ${after} after it` : "Drop it and carry on",
      () => drop(true), { class: "btn big primary", "data-testid": "drop" }),
    after > 0 ? button("Drop only it, send the rest", () => drop(false),
      { class: "btn big", "data-testid": "drop-one" }) : null)));
}

// ------------------------------------------------------------------ signing in, the header

function loginView() {
  const codeInput = h("input", { id: "pair-code", class: "code", type: "text", autocomplete: "off",
    autocapitalize: "characters", spellcheck: "false", maxlength: "12",
    placeholder: "XXXX-XXXX", "aria-describedby": "pair-help" });
  const tokenInput = h("textarea", { id: "token", rows: "3", autocomplete: "off",
    spellcheck: "false", placeholder: "loo_…" });
  const sessionInput = h("input", { id: "session", type: "text", autocomplete: "off",
    value: state.sid || sessionFromAddress() || saved.get("session") || "" });
  return h("section", { class: "panel login", "aria-label": "Sign in" },
    h("h1", {}, "Sign this tablet in"),
    state.loginMessage ? h("p", { class: "alert-text", role: "alert" }, state.loginMessage) : null,
    h("label", { for: "pair-code" }, "Pairing code"),
    h("p", { id: "pair-help", class: "muted" }, "The treasurer's live view shows it (“Pair a "
      + "tablet”), with a QR code to scan instead. It is good for ten minutes, once."),
    codeInput,
    button("Sign in", () => pairWith(codeInput.value), { class: "btn big primary",
      "data-testid": "pair" }),
    h("details", {}, h("summary", {}, "Or use a dealer token"),
      h("label", { for: "token" }, "Dealer token (from the club)"), tokenInput,
      h("label", { for: "session" }, "Session id (optional: the list follows)"), sessionInput,
      button("Sign in with the token", () => signInWithToken(tokenInput.value, sessionInput.value),
        { class: "btn big", "data-testid": "sign-in" })));
}

function sessionChooser() {
  if (state.sessions === null) loadSessions();
  const input = h("input", { id: "session", type: "text", autocomplete: "off" });
  const list = state.sessions === null ? h("p", {}, "Loading the club's sessions…")
    : state.sessions.length ? h("div", { class: "session-list" }, state.sessions.map((s) => button(
      [h("strong", {}, s.name || "Session"), h("span", { class: "muted" },
        `${s.deal_no ? `deal ${s.deal_no}` : "not started"} · ${s.active.join(", ")}`)],
      async () => { openSession(s.session_id); await start(); },
      { class: "btn big", dataset: { session: s.session_id } })))
      : h("p", {}, "The club has no open session: the treasurer opens one.");
  return h("section", { class: "panel login", "aria-label": "Session" },
    h("h1", {}, "Which table?"),
    state.loginMessage ? h("p", { class: "alert-text", role: "alert" }, state.loginMessage) : null,
    list,
    h("details", { class: "more" }, h("summary", {}, "A session id instead"),
      h("label", { for: "session" }, "Session id (the treasurer has it)"), input,
      button("Open", async () => { openSession(input.value.trim()); await start(); },
        { class: "btn big" })));
}

function header(m, exp) {
  const who = state.who ? `${state.who.token_label || state.who.member}` : "";
  let deal = null;
  if (m && exp) {
    const next = (exp.phase === "between-deals") ? m.dealNo + 1 : (m.deal ? m.deal.no : null);
    const dealer = exp.phase === "between-deals"
      ? ((exp.actions || []).find((a) => a.type === "DealStarted") || {}).dealer
      : m.deal && m.deal.dealer;
    if (next) deal = ` · Deal ${next}${dealer ? ` (${dealer} deals)` : ""}`;
  }
  const signedIn = Boolean(token());
  return h("header", { class: "bar" },
    h("div", { class: "title", "data-testid": "title" },
      h("strong", { class: "name" }, m ? (m.name || "Session") : "Lanterloo — the table"),
      deal ? h("span", { class: "deal-no", "data-testid": "deal-no" }, deal) : null,
      who ? h("span", { class: "who muted" }, ` · ${who}`) : null),
    signedIn && state.sid ? syncBadge() : null,
    signedIn ? button("Menu", () => { state.menu = !state.menu; render(); }, {
      class: "btn ghost menu-button", "aria-expanded": String(state.menu),
      "data-testid": "menu",
    }) : null);
}

function menuView() {
  if (!state.menu) return null;
  return h("div", { class: "menu", role: "menu", "data-testid": "menu-items" },
    state.sid ? h("a", { class: "btn", role: "menuitem",
      href: `/table/live#s=${encodeURIComponent(state.sid)}` }, "Live view") : null,
    state.sid ? button("Another session", () => {
      state.sid = null;
      state.menu = false;
      state.sessions = null;
      saved.set("session", null);
      render();
    }, { class: "btn", role: "menuitem" }) : null,
    button(`Four-colour pack: ${state.fourColour ? "on" : "off"}`, () => {
      state.fourColour = !state.fourColour;
      saved.set("fourColour", state.fourColour);
      state.menu = false;
      render();
    }, { class: "btn", role: "menuitemcheckbox", "aria-checked": String(state.fourColour),
      "data-testid": "four-colour" }),
    button("Sign out…", () => { state.askSignOut = true; state.menu = false; render(); },
      { class: "btn danger", role: "menuitem", "data-testid": "sign-out" }));
}

function signOutDialog() {
  const waiting = state.outbox.length;
  return h("div", { class: "overlay" }, h("section", { class: "dialog", role: "alertdialog",
    "aria-modal": "true", "aria-label": "Sign out?", "data-testid": "sign-out-dialog" },
  h("h2", {}, "Sign this tablet out?"),
  h("p", {}, waiting ? `${waiting} entr${waiting === 1 ? "y is" : "ies are"} not yet saved: `
    + "they stay on this tablet and are sent after the next sign-in." : "Everything is saved."
    + " Signing in again needs a new pairing code from the treasurer."),
  h("div", { class: "choices" },
    button("Stay signed in", () => { state.askSignOut = false; render(); },
      { class: "btn big primary" }),
    button("Sign out", () => signOut(null), { class: "btn big danger",
      "data-testid": "sign-out-confirm" }))));
}

// ------------------------------------------------------------------ the whole screen

function render() {
  const app = root();
  if (!app) return;
  const put = (...children) => app.append(...children.filter(Boolean));
  document.documentElement.classList.toggle("four-colour", Boolean(state.fourColour));
  app.replaceChildren();
  app.className = "app";
  if (!token()) {
    put(header(null, null), h("main", { class: "page" }, loginView()));
    return;
  }
  if (!state.sid) {
    put(header(null, null), menuView(), h("main", { class: "page" }, sessionChooser()),
      state.askSignOut ? signOutDialog() : null);
    return;
  }
  const m = model();
  if (!m) {
    put(header(null, null), menuView(), h("main", { class: "page" },
      h("section", { class: "panel" },
        h("h2", {}, state.offline ? "No connection to the ledger yet" : "Loading…"))),
    state.askSignOut ? signOutDialog() : null);
    return;
  }
  const exp = expected(m);
  const variant = m.rules.variant === "irish" || m.rules.variant === "five-card";
  app.className = `app play${variant ? " variant" : ""}`;
  const parts = stepParts(m, exp);
  const penalty = (exp.actions || []).find((a) => a.type === "PenaltyImposed");
  const notices = dealNotices(m);
  const settled = m.deal && m.deal.phase === "settled"
    ? settlementView(m.predicted ? m.deal : (state.snapshot.deal || m.deal), m.rules)
    : null;
  const blocked = Boolean(state.conflict || state.refused || state.askSignOut
    || (state.penalty && penalty));
  const screen = h("main", { class: "screen", inert: blocked },
    h("section", { class: "stage", "aria-label": "What to log" },
      h("h2", { class: "prompt", "data-testid": "prompt" }, parts.prompt),
      h("p", { class: "subline", "data-testid": "subline" }, parts.sub || "\u00a0"),
      h("div", { class: "board", "data-testid": "board" }, parts.board),
      variant ? h("div", { class: "extra", role: "group",
        "aria-label": "Exchanges and flushes" }, parts.extra) : null),
    h("div", { class: "sidecol" },
      toolbar(m, exp),
      // it scrolls on its own: reachable from the keyboard too
      h("aside", { class: "side", "aria-label": "The table, the deal and the balances",
        tabindex: "0" },
        notices.length ? h("div", { class: "notices", "data-testid": "notices" },
          notices.map((n) => h("p", { class: `notice ${n.kind}`,
          "data-testid": n.testid || null }, n.text))) : null,
        settled, seatMap(m), dealView(m), balancesView(m),
        state.outbox.length ? h("details", { class: "pending" }, h("summary", {},
          "Not yet saved"), h("ol", {}, state.outbox.map((e) => h("li", {}, entryLabel(e)))))
          : null)));
  const top = header(m, exp);
  if (blocked) top.inert = true; // a dialog is open: only its own choices can be tapped
  put(top, menuView(), screen,
    state.conflict ? conflictDialog() : null,
    !state.conflict && state.refused ? refusedDialog() : null,
    state.penalty && penalty && !state.conflict && !state.refused ? penaltyDialog(m, penalty) : null,
    state.askSignOut ? signOutDialog() : null);
}

let pollTimer = null;
async function poll() {
  clearTimeout(pollTimer);
  if (state.sid && token() && !state.outbox.length && !state.syncing && !state.conflict) {
    try {
      if (await refresh()) render();
      if (state.offline) { state.offline = false; render(); }
    } catch (failure) {
      if (failure.status === 401) signOut(REFUSED_TEXT[401]);
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
window.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (state.menu || state.penalty || state.askSignOut)) {
    state.menu = false;
    state.penalty = null;
    state.askSignOut = false;
    render();
  }
});
window.addEventListener("DOMContentLoaded", () => {
  registerServiceWorker();
  const code = pairingFromAddress();
  if (code) {
    pairWith(code);
    return;
  }
  const sid = sessionFromAddress() || saved.get("session");
  if (sid) openSession(sid);
  start();
});
// For the browser tests and the curious: what the device holds.
window.lanterloo = { state, model, sync };
