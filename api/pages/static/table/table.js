// The dealer's tablet: log a live game of Loo as it is played. This module draws the whole
// screen and starts the tablet; the jobs are modules of their own: signing in (signin.js), the
// ledger and the outbox (transport.js), the device's state (state.js), the step to log now
// (step.js), Irish and five-card loo (variants.js), the penalty dialog (penalty.js), the side
// column and the header (side.js), the dialogs and sign-in screens (dialogs.js).
//
// The screen offers only what the ledger's `expected` allows next (or, while
// entries wait to be sent, what predict.js folds from them), and the penalty dialog only the
// offences `expected` says the ledger accepts for that player now.
//
// The play screen is laid out once per viewport (app.css): every box the dealer taps keeps
// its place between two taps; a control that is not offered leaves its place empty.

import { h, pairingFromAddress, registerServiceWorker, saved, sessionFromAddress, token } from "./api.js";
import { expected } from "./predict.js";
import { model, render, setRenderer, state } from "./state.js";
import { openSession, pairWith } from "./signin.js";
import { start, sync } from "./transport.js";
import { dealNotices, settlementView } from "./pieces.js";
import { penaltyDialog } from "./penalty.js";
import { betweenDialog } from "./between.js";
import { tableNotices } from "./words.js";
import { stepParts } from "./step.js";
import { balancesView, dealView, header, menuView, seatMap, toolbar } from "./side.js";
import { conflictDialog, entryLabel, loginView, refusedDialog, sessionChooser, signOutDialog } from "./dialogs.js";

const root = () => document.getElementById("app");

/** Draw the whole screen from the state. */
function draw() {
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
  const notices = [...tableNotices(state.snapshot.session), ...dealNotices(m)];
  const settled = m.deal && m.deal.phase === "settled"
    ? settlementView(m.predicted ? m.deal : (state.snapshot.deal || m.deal), m.rules)
    : null;
  const between = state.between && exp.phase === "between-deals";
  if (state.between && !between) state.between = null; // another tablet dealt meanwhile
  const blocked = Boolean(state.conflict || state.refused || state.askSignOut
    || (state.penalty && penalty) || between);
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
  put(top, menuView(m), screen,
    state.conflict ? conflictDialog() : null,
    !state.conflict && state.refused ? refusedDialog() : null,
    state.penalty && penalty && !state.conflict && !state.refused ? penaltyDialog(m, penalty) : null,
    between && !state.conflict && !state.refused ? betweenDialog(m) : null,
    state.askSignOut ? signOutDialog() : null);
}

setRenderer(draw);
window.addEventListener("online", () => sync());
window.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (state.menu || state.penalty || state.between || state.askSignOut)) {
    state.menu = false;
    state.penalty = null;
    state.between = null;
    state.askSignOut = false;
    render();
  }
});
window.addEventListener("DOMContentLoaded", () => {
  registerServiceWorker();
  const code = pairingFromAddress();
  if (code) {
    pairWith(code).then((paired) => { if (paired) start(); });
    return;
  }
  const sid = sessionFromAddress() || saved.get("session");
  if (sid) openSession(sid);
  start();
});
// For the browser tests and the curious: what the device holds.
window.lanterloo = { state, model, sync };
