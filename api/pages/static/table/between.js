// Between deals: a latecomer joins, a player withdraws at his deal, the last round is called,
// the session ends. Each is offered only when the ledger's own `expected` offers it now (never
// foreseen on the device: nothing may wait to be sent), is logged through the outbox like any
// entry, and a refusal comes back in the ledger's words (the refused dialog). Whether this
// tablet's role may end the session is the ledger's answer too (GET /club `refused_events`),
// read again each time the dialog opens, as the penalty dialog reads the offences.
//
// What every tablet of the table (and the live view) shows of them, from the session view, is
// words.js tableNotices.

import { h, request, saved } from "./api.js";
import { render, state } from "./state.js";
import { log } from "./transport.js";
import { button } from "./pieces.js";

const TABLE_CHANGES = ["PlayerJoined", "PlayerWithdrew", "LastRoundStarted", "SessionEnded"];

// docs/rules.md §8.6: the three endings, in the table's words
const ENDING = {
  single: "End the session: what was carried is divided equally",
  "divide-pool": "Divide the pool equally and end",
  "release-last-loos": "Release the last loos, divide the rest and end",
};

/** The changes of the table the ledger offers now, by type: only from its own word. */
export function tableOffers(m) {
  if (!m || m.predicted || state.outbox.length) return {};
  const exp = m.serverExpected;
  if (!exp || exp.phase !== "between-deals") return {};
  return Object.fromEntries((exp.actions || []).filter((a) => TABLE_CHANGES.includes(a.type))
    .map((a) => [a.type, a]));
}

/** Open the dialog; ask the ledger what this tablet's role may not send, and (where the role
 * may read them) the club's members, to choose a latecomer from. */
export async function openBetween() {
  state.between = { step: null, name: "", guest: false, after: null, members: null };
  render();
  try {
    const who = (await request("GET", "/club")).body;
    state.who = { ...state.who, ...who };
    saved.set("who", state.who);
    if (state.between) render();
  } catch { /* the answer last read stays */ }
  try {
    const members = (await request("GET", "/members")).body.members;
    if (state.between) {
      state.between.members = members;
      render();
    }
  } catch { /* a dealer's role does not list the members: his name is typed */ }
}

/** The toolbar's button in the penalty's place between deals (a penalty is never offered
 * then): opens the dialog when the ledger offers any change of the table. */
export function betweenButton(m) {
  const offers = tableOffers(m);
  return button("Table…", openBetween, {
    class: "btn", "data-testid": "table-changes", disabled: !Object.keys(offers).length,
    title: "A latecomer, a withdrawal, the last round, the end",
  });
}

const close = () => { state.between = null; render(); };

function head(title, back) {
  return h("div", { class: "dialog-head" }, h("h2", {}, title),
    back ? button("Back", back, { class: "btn ghost", "data-testid": "between-back" })
      : h("div", { class: "slot-empty back", "aria-hidden": "true" }),
    button("Cancel", close, { class: "btn ghost", "data-testid": "between-cancel" }));
}

function send(body, what) {
  state.between = null;
  log(body, what);
}

function joinStep(m, offers) {
  const b = state.between;
  const seated = new Set(m.seats.map((p) => p.toLowerCase()));
  const members = (b.members || []).filter((x) => !seated.has(x.name.toLowerCase()));
  const name = h("input", { id: "join-name", type: "text", autocomplete: "off",
    value: b.name, list: members.length ? "join-members" : null,
    oninput: (e) => { b.name = e.target.value; } });
  return [head("A latecomer joins", () => { b.step = null; render(); }),
    h("label", { for: "join-name", class: "field" }, members.length
      ? "His name (a member of the club, or a new guest)" : "His name (as the club knows him, or a new guest's)"),
    name,
    members.length ? h("datalist", { id: "join-members" },
      members.map((x) => h("option", { value: x.name }))) : null,
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "join-guest",
      checked: b.guest, onchange: (e) => { b.guest = e.target.checked; } }),
    "A guest, new to the club"),
    h("p", { class: "field", id: "join-after" }, "He sits to the left of"),
    h("div", { class: "players", role: "group", "aria-labelledby": "join-after" },
      m.active.map((p) => button(p, () => { b.after = p; render(); }, {
        class: `btn${b.after === p ? " on" : ""}`, "aria-pressed": String(b.after === p),
        dataset: { after: p } }))),
    h("div", { class: "choices" }, button("Seat him", () => {
      const player = b.name.trim();
      const body = { type: "PlayerJoined", player, after: b.after };
      if (b.guest) body.guest = true;
      send(body, `${player || "a latecomer"} joins, to the left of ${b.after}`
        + `${b.guest ? " (a guest)" : ""}`);
    }, { class: "btn big primary", "data-testid": "join-confirm",
      disabled: !b.after || !offers.PlayerJoined }))];
}

function endStep(offers) {
  const methods = offers.SessionEnded.methods || [];
  return [head("End the session?", () => { state.between.step = null; render(); }),
    h("p", {}, "Whatever is left on the table is paid out; nothing can be logged after."),
    h("div", { class: "choices column" }, methods.map((method) => button(
      ENDING[method] || method, () => send({ type: "SessionEnded", method },
        `the end: ${method.replaceAll("-", " ")}`),
      { class: "btn big", dataset: { end: method } })))];
}

/** The dialog: its first step lists what the ledger offers now, nothing else. */
export function betweenDialog(m) {
  const b = state.between;
  const offers = tableOffers(m);
  let body;
  if (b.step === "join" && offers.PlayerJoined) body = joinStep(m, offers);
  else if (b.step === "end" && offers.SessionEnded) body = endStep(offers);
  else {
    const refused = ((state.who && state.who.refused_events) || {}).SessionEnded;
    const withdraw = offers.PlayerWithdrew;
    body = [head("Between deals", null),
      Object.keys(offers).length ? null : h("p", {}, "The ledger offers no change of the table now."),
      h("div", { class: "choices column" },
        offers.PlayerJoined ? button("A latecomer joins…", () => { b.step = "join"; render(); },
          { class: "btn big", "data-testid": "join" }) : null,
        withdraw ? button(`${withdraw.player} withdraws (at his deal)`, () => send(
          { type: "PlayerWithdrew", player: withdraw.player }, `${withdraw.player} withdraws`),
        { class: "btn big", "data-testid": "withdraw" }) : null,
        offers.LastRoundStarted ? button("Call the last round", () => send(
          { type: "LastRoundStarted" }, "the last round called"),
        { class: "btn big", "data-testid": "last-round" }) : null,
        offers.SessionEnded ? button("End the session…", () => { b.step = "end"; render(); },
          { class: "btn big danger", "data-testid": "end-session", disabled: Boolean(refused),
            "aria-describedby": refused ? "end-refused" : null }) : null),
      offers.SessionEnded && refused ? h("p", { id: "end-refused",
        "data-testid": "end-refused" }, `The ledger says: ${refused}.`) : null];
  }
  return h("div", { class: "overlay" }, h("section", { class: "dialog between", role: "dialog",
    "aria-modal": "true", "aria-label": "Between deals", "data-testid": "between-dialog" }, body));
}
