// The statement page shell: a browser cannot send a bearer token when it navigates, so this
// page (public, holding no data) fetches the printable statement with the token the device
// keeps and shows it in place. The statement is server-drawn HTML with an SVG chart and no
// script (GET /sessions/<id>/statement?format=html); it is parsed inert (DOMParser) and its
// sheet is moved into this page, styled by statement.css. Print prints the sheet alone.

import { h, registerServiceWorker, saved, sessionFromAddress, token as deviceToken } from "./api.js";

/** The token the statement is read with: the one pasted or paired on this device, else the
 * desk's (the desk links each ended table's statement here; the desk keeps its own). */
function token() {
  let fromDesk = null;
  try { fromDesk = localStorage.getItem("lanterloo.desk.token"); } catch { /* private */ }
  return deviceToken() || fromDesk;
}

// The same shell shows the club's books (/table/club: GET /standings?format=html), which
// need no session.
const club = document.body.dataset.page === "club";
const state = { sid: null, error: null, sheet: null, title: null, loading: false };

function source() {
  return club ? "/standings?format=html"
    : `/sessions/${encodeURIComponent(state.sid)}/statement?format=html`;
}

function messageFor(status) {
  if (status === 401) return "This token was refused (revoked or expired): paste another.";
  if (status === 403) return `The ${club ? "club's books need" : "statement needs"} an admin's, treasurer's or auditor's token.`;
  if (status === 404) return "This club has no such session.";
  if (status === 0) return "No connection to the ledger.";
  return `The ledger answered ${status}.`;
}

async function load() {
  if ((!club && !state.sid) || !token()) return render();
  state.loading = true;
  render();
  let response;
  try {
    response = await fetch(source(), {
      headers: { Authorization: `Bearer ${token()}`, Accept: "text/html" }, cache: "no-store" });
  } catch {
    response = null;
  }
  state.loading = false;
  if (!response || !response.ok) {
    const status = response ? response.status : 0;
    state.error = messageFor(status);
    if (status === 401 && deviceToken()) saved.set("token", null);
    state.sheet = null;
    return render();
  }
  // The page's inline stylesheet is the statement.css this shell loads as a file: dropped
  // before parsing, so this page's policy (style-src 'self') has nothing to refuse.
  const html = (await response.text()).replace(/<style>[\s\S]*?<\/style>/g, "");
  const doc = new DOMParser().parseFromString(html, "text/html");
  state.sheet = doc.querySelector("main.sheet");
  state.title = doc.title;
  state.error = state.sheet ? null : "The ledger's answer holds no statement.";
  render();
}

/** The session the address names now: a change of `#s=` (or Refresh after one) shows that
 * session, never the one shown before. */
function follow() {
  const sid = club ? null : sessionFromAddress();
  if (sid && sid !== state.sid) {
    state.sid = sid;
    saved.set("session", sid);
    state.sheet = null;
    state.error = null;
  }
  load();
}

function signIn() {
  const t = h("textarea", { id: "token", rows: "3", autocomplete: "off" });
  const s = club ? null : h("input", { id: "session", type: "text", value: state.sid || "" });
  return h("main", { class: "main single" }, h("section", { class: "panel login" },
    h("h1", {}, club ? "The club's books" : "Statement"),
    state.error ? h("p", { class: "alert-text", role: "alert" }, state.error) : null,
    h("label", { for: "token" }, "Token (treasurer, admin or auditor)"), t,
    club ? null : h("label", { for: "session" }, "Session"), s,
    h("button", { type: "button", class: "btn big primary", "data-testid": "show", onclick: () => {
      if (t.value.trim()) saved.set("token", t.value.trim());
      if (!club) {
        state.sid = s.value.trim();
        saved.set("session", state.sid);
      }
      state.error = null;
      load();
    } }, club ? "Show the books" : "Show the statement")));
}

function render() {
  const app = document.getElementById("app");
  app.replaceChildren();
  const sid = encodeURIComponent(state.sid || "");
  const bar = h("header", { class: "bar no-print" },
    h("div", { class: "title" }, h("strong", {}, club ? "The club's books" : "Statement"),
      state.sid ? h("span", { class: "muted" }, ` · ${state.sid}`) : null),
    state.sheet ? h("button", { type: "button", class: "btn primary", "data-testid": "print",
      onclick: () => window.print() }, "Print") : null,
    state.sheet ? h("button", { type: "button", class: "btn", onclick: follow }, "Refresh") : null,
    club ? null : h("a", { class: "btn ghost", href: `/table/live#s=${sid}` }, "Live table"),
    deviceToken() ? h("button", { type: "button", class: "btn ghost", onclick: () => {
      saved.set("token", null);
      state.sheet = null;
      render();
    } }, "Change token") : null);
  if (!token() || (!club && !state.sid) || (!state.sheet && state.error)) {
    app.append(bar, signIn());
    return;
  }
  if (!state.sheet) {
    app.append(bar, h("main", { class: "main single" }, h("p", { role: "status" }, "Loading…")));
    return;
  }
  if (state.title) document.title = state.title;
  app.append(bar, document.importNode(state.sheet, true));
}

window.addEventListener("DOMContentLoaded", () => {
  registerServiceWorker();
  if (!club) {
    state.sid = sessionFromAddress() || saved.get("session");
    if (state.sid) saved.set("session", state.sid);
  }
  window.addEventListener("hashchange", follow);
  load();
});
