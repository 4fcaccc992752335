// The penalty dialog: who offended, which offence, confirm; only the offences `expected` says
// the ledger accepts for that player now.

import { h } from "./api.js";
import { offenceName } from "./words.js";
import { render, state } from "./state.js";
import { log } from "./transport.js";
import { button, money } from "./pieces.js";

export function offenceAmount(o) {
  const where = o.to === "pool" ? "into this pool" : "to the next pool";
  if (o.amount_units === null) {
    return o.when_fixed === "with-the-deal"
      ? `4 stakes ${where}, or a loo if he takes no trick` : `a loo ${where}, fixed at settlement`;
  }
  return `${money(o.amount_units)} ${where}`;
}

/** The offences the ledger accepts now, per player: from `expected` (its PenaltyImposed
 * action); with entries waiting, as the ledger last said, checked again when they reach it. */
export function penaltyOffers(m, action) {
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

export function penaltyDialog(m, action) {
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
