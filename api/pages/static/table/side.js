// The side column and the header: the seat map, the deal, the balances, the toolbar (undo,
// penalty, how tricks are logged), the sync badge and the menu.

import { h, saved, token } from "./api.js";
import { handSize, label } from "./cards.js";
import { expected } from "./predict.js";
import { DECLARATION_LABEL, moneyText } from "./words.js";
import { render, state } from "./state.js";
import { openPenalty, undo } from "./transport.js";
import { button, face, faceUpView, money } from "./pieces.js";
import { betweenButton } from "./between.js";

export const SEAT_DECLARED = { play: "plays", throw_up: "threw up", take_miss: "the miss",
  play_miss_for_pool: "miss for the pool" };

export function setMode(mode) {
  state.mode = mode;
  saved.set("mode", mode);
  render();
}


export function seatMap(m) {
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

export function dealView(m) {
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

export const signed = (n) => (n > 0 ? `+${n}` : String(n));

export function balancesView(m) {
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

export function syncBadge() {
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

export function undoTarget(m) {
  if (state.outbox.length) return state.outbox[state.outbox.length - 1].label;
  if (!m || state.offline || m.version <= 1) return null;
  const last = state.lastEntry;
  if (last && last.version === m.version && last.label) {
    return `${last.mine ? "" : `${last.device}'s `}${last.label}`;
  }
  return "the last entry";
}

export function toolbar(m, exp) {
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
    // between deals no penalty is offered: its place holds the table's changes
    exp.phase === "between-deals" ? betweenButton(m) : button("Penalty…", openPenalty, {
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


export function header(m, exp) {
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
  return h("header", { class: "bar dealer-bar" },
    h("div", { class: "title", "data-testid": "title" },
      // on a phone the name has a line of its own; cut there, it is whole in the menu
      h("strong", { class: "name", "data-testid": "session-name",
        title: m ? (m.name || "Session") : null }, m ? (m.name || "Session")
        : "Lanterloo — the table"),
      deal ? h("span", { class: "deal-no", "data-testid": "deal-no" }, deal) : null,
      who ? h("span", { class: "who muted" }, ` · ${who}`) : null),
    signedIn && state.sid ? syncBadge() : null,
    signedIn ? button("Menu", () => { state.menu = !state.menu; render(); }, {
      class: "btn ghost menu-button", "aria-expanded": String(state.menu),
      "data-testid": "menu",
    }) : null);
}

/** The menu; `m` (the session's model, when one is open) gives its whole name first. */
export function menuView(m = null) {
  if (!state.menu) return null;
  return h("div", { class: "menu", role: "menu", "data-testid": "menu-items" },
    m ? h("p", { class: "menu-name", role: "presentation", "data-testid": "menu-name" },
      m.name || "Session") : null,
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
