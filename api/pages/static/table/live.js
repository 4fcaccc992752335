// The treasurer's live view of a table: the pool, the balances, the loos owed and the last
// deal, polled every second with If-None-Match (a 304 costs nothing), and the statement as
// JSON or CSV (a treasurer's, admin's or auditor's token).

import { Failure, h, registerServiceWorker, request, saved, sessionFromAddress, token } from "./api.js";
import { label } from "./cards.js";
import { moneyText, tableNotices, unitsText } from "./words.js";

const POLL_MS = 1000;
const state = { sid: null, session: null, lastDeal: null, error: null, updated: null,
  pairing: null, pairingError: null, members: null, dealer: "" };

const signed = (n) => (n > 0 ? `+${n}` : String(n));

async function poll() {
  if (!state.sid || !token()) return render();
  const sid = encodeURIComponent(state.sid);
  const headers = state.session ? { "If-None-Match": `"${state.session.version}"` } : {};
  const before = state.error;
  let changed = !state.session;
  try {
    const got = await request("GET", `/sessions/${sid}`, { headers });
    if (got.status === 200) {
      changed = true;
      state.session = got.body;
      const s = got.body;
      let last = null;
      if (s.deal) {
        const current = (await request("GET", `/sessions/${sid}/deals/${s.deal_no}`)).body;
        last = current.settlement || s.deal_no < 2 ? current
          : (await request("GET", `/sessions/${sid}/deals/${s.deal_no - 1}`)).body;
        state.current = current;
      }
      state.lastDeal = last;
      state.updated = new Date();
    }
    state.error = null;
  } catch (failure) {
    state.error = failure.status === 401 ? "This token was refused (revoked or expired)."
      : failure.status === 0 ? "No connection to the ledger: showing the last figures."
        : failure.message;
    if (failure.status === 401) saved.set("token", null);
  }
  // drawn again only when something changed: a dealer being chosen keeps his list open
  if (changed || state.error !== before) render();
  setTimeout(poll, POLL_MS);
}

/** The club's members, once: whoever will log at a tablet is one of them. */
async function loadMembers() {
  if (state.members) return;
  try {
    const got = await request("GET", "/members");
    state.members = got.body.members.slice().sort((a, b) => a.name.localeCompare(b.name));
  } catch (failure) {
    state.members = [];
    state.pairingError = (failure.problem && failure.problem.detail) || failure.message;
  }
  render();
}

/** A code (and its QR code) that signs a tablet in to this session: POST .../pairing-codes. */
async function pairTablet() {
  state.pairingError = null;
  try {
    const made = await request("POST", `/sessions/${encodeURIComponent(state.sid)}/pairing-codes`,
      { body: { member: state.dealer } });
    state.pairing = { ...made.body, until: Date.now() + made.body.expires_in_seconds * 1000 };
  } catch (failure) {
    state.pairing = null;
    state.pairingError = failure.status === 403
      ? "Pairing a tablet needs a treasurer's (or admin's) token."
      : (failure.problem && failure.problem.detail) || failure.message;
  }
  render();
}

const secondsLeft = (p) => (p ? Math.max(0, Math.round((p.until - Date.now()) / 1000)) : 0);
const leftText = (left, p) => `Good once, for ${Math.floor(left / 60)} min ${left % 60} s more: `
  + `the tablet signs in as ${p.member}, a dealer, for this evening; what it logs is in `
  + `${p.member}'s name.`;

function pairingPanel() {
  const p = state.pairing;
  const items = [h("h2", {}, "Pair a tablet")];
  if (state.session.status !== "open") {
    items.push(h("p", { class: "muted", "data-testid": "pairing-closed" }, "This session has "
      + "ended: a tablet can be paired to an open session only."));
    return h("section", { class: "panel", "aria-label": "Pair a tablet" }, items);
  }
  if (state.pairingError) items.push(h("p", { class: "alert-text", role: "alert" }, state.pairingError));
  const left = secondsLeft(p);
  if (p && left > 0) {
    items.push(
      h("p", {}, "On the tablet, open the table page and type this code, or scan the QR code:"),
      h("p", { class: "pairing-code", "data-testid": "pairing-code" }, p.code),
      h("img", { class: "qr", src: p.qr_svg, alt: `QR code to sign a tablet in with ${p.code}`,
        "data-testid": "pairing-qr" }),
      h("p", { class: "muted", "data-testid": "pairing-left" }, leftText(left, p)));
  } else if (p) {
    items.push(h("p", { class: "muted" }, "That code has expired."));
  } else {
    items.push(h("p", { class: "muted" }, "A short code signs a dealer's tablet in to this "
      + "session: no token to copy. The tablet logs in the name of the member you choose."));
  }
  if (!state.members) {
    loadMembers();
    items.push(h("p", { class: "muted" }, "Loading the members…"));
    return h("section", { class: "panel", "aria-label": "Pair a tablet" }, items);
  }
  const select = h("select", { id: "pair-dealer", "data-testid": "pair-dealer",
    onchange: (e) => { state.dealer = e.target.value; render(); } },
  h("option", { value: "" }, "Choose a member…"),
  state.members.map((m) => h("option", { value: m.member_id,
    ...(m.member_id === state.dealer ? { selected: "" } : {}) }, m.name)));
  items.push(h("label", { for: "pair-dealer" }, "Who logs at the tablet"), select,
    h("button", { type: "button", class: "btn", onclick: pairTablet, "data-testid": "pair-tablet",
      ...(state.dealer ? {} : { disabled: "", title: "Choose who logs at the tablet first" }) },
    p ? "A new code" : "Show a pairing code"));
  return h("section", { class: "panel", "aria-label": "Pair a tablet" }, items);
}

/** The code's time left, counted down without drawing the page again. */
function tick() {
  const p = state.pairing;
  const shown = document.querySelector("[data-testid=pairing-left]");
  if (p && shown) {
    const left = secondsLeft(p);
    if (left > 0) shown.textContent = leftText(left, p);
    else render();
  }
}

async function download(format) {
  const sid = encodeURIComponent(state.sid);
  try {
    const accept = format === "csv" ? "text/csv" : "application/json";
    const response = await fetch(`/sessions/${sid}/statement${format === "csv" ? "?format=csv" : ""}`,
      { headers: { Authorization: `Bearer ${token()}`, Accept: accept }, cache: "no-store" });
    if (!response.ok) throw new Failure(response.status, await response.json().catch(() => null));
    const blob = await response.blob();
    const a = h("a", { href: URL.createObjectURL(blob),
      download: `lanterloo-${state.sid}-statement.${format}` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (failure) {
    state.error = failure.status === 403
      ? "The statement needs a treasurer's (or auditor's) token." : failure.message;
    render();
  }
}

function settlement(deal) {
  if (!deal || !deal.settlement) return h("p", { class: "muted" }, "No deal settled yet.");
  const s = deal.settlement;
  return h("div", {},
    h("p", { class: "big-text" }, `Deal ${deal.deal_no}, ${deal.dealer} dealt, trumps `
      + `${label(deal.trump_card)}: ${s.outcome}`),
    (s.shares || []).length ? h("ul", { class: "list" }, s.shares.map((x) => h("li", {},
      `Trick ${x.trick}: ${x.winner} ${x.stays_in_pool ? "(stays in the pool)" : `+${x.amount_units}`}`))) : null,
    s.looed && s.looed.length ? h("p", {}, `Looed: ${s.looed.join(", ")}`) : null,
    s.carried_units ? h("p", {}, `Carried: ${s.carried_units}`) : null);
}

function render() {
  const app = document.getElementById("app");
  app.replaceChildren();
  app.classList.add("live");
  const header = h("header", { class: "bar" }, h("div", { class: "title" },
    h("strong", {}, state.session ? (state.session.name || "Session") : "Live table"),
    state.session ? h("span", { class: "muted" }, ` · version ${state.session.version}`) : null),
  h("a", { class: "btn ghost", href: `/table#s=${encodeURIComponent(state.sid || "")}` }, "The dealer's screen"));
  if (!token() || !state.sid) {
    const t = h("textarea", { id: "token", rows: "3", autocomplete: "off" });
    const s = h("input", { id: "session", type: "text", value: state.sid || "" });
    app.append(header, h("main", { class: "main single" }, h("section", { class: "panel login" },
      h("h1", {}, "Live table"), state.error ? h("p", { class: "alert-text", role: "alert" }, state.error) : null,
      h("label", { for: "token" }, "Token (treasurer)"), t,
      h("label", { for: "session" }, "Session"), s,
      h("button", { type: "button", class: "btn big primary", onclick: () => {
        saved.set("token", t.value.trim());
        state.sid = s.value.trim();
        saved.set("session", state.sid);
        poll();
      } }, "Show the table"))));
    return;
  }
  const s = state.session;
  if (!s) {
    app.append(header, h("main", { class: "main single" }, h("section", { class: "panel" },
      h("h2", {}, state.error || "Loading…"))));
    return;
  }
  const units = (n) => unitsText(n, s);
  const owed = {};
  for (const loo of s.loos_owed) owed[loo.player] = (owed[loo.player] || 0) + loo.amount_units;
  const gone = new Set(s.withdrawn || []);
  const rows = s.seats.map((p) => h("tr", { "data-player": p }, h("th", { scope: "row" }, p,
    gone.has(p) ? h("span", { class: "muted" }, " (withdrawn)")
      : p === s.withdrawing ? h("span", { class: "muted" }, " (withdraws at his deal)") : null),
    h("td", { class: "num" }, signed(s.balances[p] || 0)),
    s.currency && s.money_per_unit_minor ? h("td", { class: "num" },
      moneyText((s.balances[p] || 0) * s.money_per_unit_minor, s.currency)) : null,
    h("td", { class: "num" }, owed[p] ? units(owed[p]) : "—")));
  const pool = h("section", { class: "panel", "aria-label": "Pool" }, h("h2", {}, "Pool"),
    h("p", { class: "big-number", "data-testid": "pool" }, String(s.pool_units)),
    s.currency && s.money_per_unit_minor ? h("p", { class: "big-text", "data-testid": "pool-money" },
      moneyText(s.pool_units * s.money_per_unit_minor, s.currency)) : null,
    h("p", {}, `Owed to the next deal: ${units(s.next_pool_units)}`),
    h("p", { class: "muted" }, `Deal ${s.deal_no} · ${s.status}`
      + `${s.next_dealer && s.status === "open" ? ` · next dealer ${s.next_dealer}` : ""}`));
  const balances = h("section", { class: "panel balances", "aria-label": "Balances" },
    h("h2", {}, "Balances"),
    h("table", { "data-testid": "balances" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col", class: "num" }, "Net"),
        s.currency && s.money_per_unit_minor ? h("th", { scope: "col", class: "num" }, s.currency)
          : null,
        h("th", { scope: "col", class: "num" }, "Loo owed"))),
      h("tbody", {}, rows)));
  const last = h("section", { class: "panel", "aria-label": "The last deal" },
    h("h2", {}, "The last deal"), settlement(state.lastDeal));
  const links = h("section", { class: "panel", "aria-label": "Statement" }, h("h2", {}, "Statement"),
    h("div", { class: "links" },
      h("button", { type: "button", class: "btn", onclick: () => download("json") },
        "Statement (JSON)"),
      h("button", { type: "button", class: "btn", onclick: () => download("csv") },
        "Statement (CSV)"),
      h("a", { class: "btn", href: `/table/statement#s=${encodeURIComponent(state.sid)}` },
        "Statement to print")),
    h("p", { class: "muted", "data-testid": "updated" },
      state.updated ? `Updated ${state.updated.toLocaleTimeString()}` : ""));
  // what the sources advise against in this game (docs/rules.md §11.42), for as long as it holds
  const warnings = (s.warnings || []).map((w) => h("p", { class: "notice info",
    "data-testid": "warning" }, w.detail));
  // the table's changes as every tablet shows them: who withdraws, who has withdrawn, the
  // last round
  const changes = tableNotices(s).map((n) => h("p", { class: `notice ${n.kind}`,
    "data-testid": n.testid }, n.text));
  app.append(header, h("main", { class: "main single" },
    state.error ? h("p", { class: "alert-text", role: "alert" }, state.error) : null,
    changes.length || warnings.length ? h("div", { class: "notices", "data-testid": "notices",
      role: "status" }, changes, warnings) : null,
    h("div", { class: "grid" }, pool, balances, pairingPanel(), last, links)));
}

window.addEventListener("DOMContentLoaded", () => {
  registerServiceWorker();
  state.sid = sessionFromAddress() || saved.get("session");
  setInterval(tick, 1000);
  poll();
});
