// A member's own page. The link the treasurer sends is /table/member#token=loo_...: the token
// is in the fragment, which a browser never sends to a server (nor does it reach a log). This
// shell keeps it on the device (apart from a staff token the device may hold), takes it out
// of the address at once, asks who it belongs to (GET /club) and shows that member's page
// (GET /members/<id>/account?format=html: server-drawn, no script), parsed inert.

import { h } from "./api.js";

const KEY = "lanterloo.member-token";
const state = { sheet: null, error: null };

function kept() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

function keep(token) {
  try {
    if (token) localStorage.setItem(KEY, token);
    else localStorage.removeItem(KEY);
  } catch { /* private browsing: the token lives as long as the page */ }
}

function tokenFromAddress() {
  const match = /[#&]token=([^&]+)/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

async function get(path, token, accept) {
  const response = await fetch(path, {
    headers: { Authorization: `Bearer ${token}`, Accept: accept }, cache: "no-store" });
  if (!response.ok) throw response.status;
  return response;
}

async function load(token) {
  try {
    const me = await (await get("/club", token, "application/json")).json();
    const page = await get(`/members/${encodeURIComponent(me.member_id)}/account?format=html`,
      token, "text/html");
    // the page's inline stylesheet is statement.css, which this shell loads as a file
    const html = (await page.text()).replace(/<style>[\s\S]*?<\/style>/g, "");
    const doc = new DOMParser().parseFromString(html, "text/html");
    state.sheet = doc.querySelector("main.sheet");
    if (doc.title) document.title = doc.title;
    state.error = state.sheet ? null : "The ledger's answer holds no account.";
  } catch (status) {
    if (status === 401) keep(null);
    state.error = status === 401 ? "This link no longer works (revoked or expired): ask the treasurer for a new one."
      : status === 403 ? "This link is not a member's link."
        : typeof status === "number" ? `The ledger answered ${status}.` : "No connection to the ledger.";
  }
  render();
}

function render() {
  const app = document.getElementById("app");
  app.replaceChildren();
  if (state.sheet) {
    app.append(document.importNode(state.sheet, true));
    return;
  }
  app.append(h("main", { class: "main single" }, h("section", { class: "panel login" },
    h("h1", {}, "My account"),
    h("p", { role: state.error ? "alert" : "status" },
      state.error || (kept() ? "Loading…" : "Open the link the club's treasurer sent you.")))));
}

window.addEventListener("DOMContentLoaded", () => {
  const fresh = tokenFromAddress();
  if (fresh) {
    keep(fresh);
    // out of the address bar and the history at once
    window.history.replaceState(null, "", window.location.pathname);
  }
  const token = fresh || kept();
  render();
  if (token) load(token);
});
