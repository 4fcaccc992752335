// The dialogs and the sign-in screens: a conflict with another device, an entry the ledger
// refused (in its words), signing out, signing in and choosing the session.

import { h, saved, sessionFromAddress } from "./api.js";
import { describeAppend, describeEvent, whoLogged } from "./words.js";
import { render, saveOutbox, state } from "./state.js";
import { loadSessions, openSession, pairWith, signInWithToken, signOut } from "./signin.js";
import { resolveConflict, start, sync } from "./transport.js";
import { button } from "./pieces.js";

export function entryLabel(e) { return e.label || describeEvent(e.body.type, e.body); }

export function conflictDialog() {
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

export function refusedDialog() {
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

export function loginView() {
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
    button("Sign in", async () => { if (await pairWith(codeInput.value)) await start(); }, { class: "btn big primary",
      "data-testid": "pair" }),
    h("details", {}, h("summary", {}, "Or use a dealer token"),
      h("label", { for: "token" }, "Dealer token (from the club)"), tokenInput,
      h("label", { for: "session" }, "Session id (optional: the list follows)"), sessionInput,
      button("Sign in with the token", async () => {
        if (await signInWithToken(tokenInput.value, sessionInput.value)) await start();
      },
        { class: "btn big", "data-testid": "sign-in" })));
}

export function sessionChooser() {
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

export function signOutDialog() {
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
