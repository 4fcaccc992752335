// Month-end (the treasurer's; docs/books.md, "The treasurer's month-end"): for a calendar
// month (UTC, as the ledger closes it) the register with its filters, who pays whom, the
// evenings' tins, the standings, the month closed, and every export of the books as a file.
// Reopening a closed month is the admin's. Every figure is the API's; the ledger says
// whether a month may close (it has ended; once) and the desk shows its sentence.

import {
  call, clearRefusals, field, h, money, sentence, showRefusal, when,
} from "./api.js";
import { entryWords } from "./afterplay.js";
import { settleUpPanel } from "./books.js";
import { endedPanel } from "./tins.js";
import { amounts, day, downloadButton, paged } from "./lists.js";

const KINDS = {
  "": "Every kind", payment: "Payments", "write-off": "Write-offs", "cash-count": "Tins counted",
  float: "Floats", "cash-difference": "Shortages and surpluses", evening: "Tables joined to a tin",
  reversal: "Reversals", "opening-balance": "Opening balances", "period-closed": "Months closed",
  "period-reopened": "Months reopened", currencies: "Currencies",
};
const METHODS = { "": "Any way", cash: "Cash", transfer: "Transfer", other: "Other" };
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December"];

/** "2026-11" -> its first instant, the next month's, its last day, and its name. */
function bounds(period) {
  const [y, m] = period.split("-").map(Number);
  const start = new Date(Date.UTC(y, m - 1, 1));
  const end = new Date(Date.UTC(y, m, 1));
  const last = new Date(end.getTime() - 86400000);
  const iso = (d) => d.toISOString().replace(".000Z", "Z");
  return { since: iso(start), until: iso(end), from: iso(start).slice(0, 10),
    to: iso(last).slice(0, 10), name: `${MONTHS[m - 1]} ${y}`, ended: end <= new Date() };
}

function thisMonth() {
  const d = new Date();
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

export async function monthEndRoom(main) {
  const month = h("input", { type: "month", name: "period", value: thisMonth(),
    pattern: "\\d{4}-\\d{2}" });
  const picker = h("form", { class: "row", "data-testid": "month" },
    field("The month", month, "period"), h("button", { class: "btn", type: "submit" },
      "Show the month"));
  const register = h("section", { class: "panel", "aria-label": "The register" });
  const settle = h("section", { class: "panel", "aria-label": "Who pays whom" });
  const tins = h("section", { class: "panel", "aria-label": "The tins" });
  const tables = h("section", { class: "panel", "aria-label": "The month's tables" });
  const standings = h("section", { class: "panel", "aria-label": "The standings" });
  const closing = h("section", { class: "panel", "aria-label": "Close the month" });
  const exports = h("section", { class: "panel", "aria-label": "Downloads" });
  main.append(picker, h("div", { class: "columns" }, register, h("div", {}, settle, tins, tables)),
    h("div", { class: "columns" }, standings, h("div", {}, closing, exports)));
  let members = [];
  try {
    members = (await call("GET", "/members")).body.members;
  } catch (failure) {
    main.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }

  async function show() {
    clearRefusals(picker);
    if (!/^\d{4}-\d{2}$/.test(month.value)) {
      showRefusal(picker, { status: 422, problem: { field: "period",
        detail: "Choose a month, e.g. 2026-11." } });
      return;
    }
    const b = bounds(month.value);
    // the month's figures as they stood at its end, once it has ended; until then, now
    const asOf = b.ended ? b.until : null;
    await Promise.all([
      drawRegister(register, b, members),
      settleUpPanel(settle, { asOf, title: b.ended ? `Who paid whom at the end of ${b.name}`
        : `Who pays whom (${b.name} is not over)` }),
      drawTins(tins, b),
      endedPanel(tables, null, { since: b.since, until: b.until, title: `The tables ended in ` +
        `${b.name}`, empty: `No table ended in ${b.name}.` }),
      drawStandings(standings, b), drawClosing(closing, month.value, b),
    ]);
    drawExports(exports, b);
  }
  picker.addEventListener("submit", (event) => { event.preventDefault(); show(); });
  await show();
}

async function drawRegister(panel, b, members) {
  const kind = h("select", { name: "kind" }, Object.entries(KINDS).map(([v, w]) =>
    h("option", { value: v }, w)));
  const method = h("select", { name: "method" }, Object.entries(METHODS).map(([v, w]) =>
    h("option", { value: v }, w)));
  const member = h("select", { name: "member_id" }, h("option", { value: "" }, "Every member"),
    members.map((m) => h("option", { value: m.member_id }, m.name)));
  const filters = h("form", { "data-testid": "register-filters" },
    h("div", { class: "row" }, field("Kind", kind, "kind"), field("Paid by", method, "method"),
      field("Member", member, "member_id")),
    h("div", { class: "row", "data-field": "*" }, h("button", { class: "btn", type: "submit" },
      "Filter the register")));
  const list = h("div", {});
  panel.replaceChildren(h("h3", {}, `The register, ${b.name}`), filters, list);
  const query = () => {
    const q = new URLSearchParams({ since: b.since, until: b.until });
    for (const [k, el] of [["kind", kind], ["method", method], ["member_id", member]]) {
      if (el.value) q.set(k, el.value);
    }
    return q;
  };
  async function draw() {
    list.replaceChildren();
    clearRefusals(filters);
    const q = query();
    await paged(list, {
      read: async (after) => {
        q.set("after", String(after));
        q.set("limit", "10");
        const page = (await call("GET", `/book-entries?${q}`)).body;
        return { items: page.entries, next_after: page.next_after };
      },
      refused: (failure) => showRefusal(filters, failure),
      draw: (e) => h("li", { "data-seq": String(e.seq) }, h("span", { class: "grow" },
        h("strong", {}, `${e.seq}. `), entryWords(e), h("br", {}),
        h("span", { class: "muted" }, `${when(e.recorded_at)}, by ${e.actor}`))),
      empty: "No entry of the register in this month says so.", label: "entries",
      testid: "register",
    });
    const csv = new URLSearchParams(q);
    csv.delete("after");
    csv.delete("limit");
    csv.set("bom", "1");
    list.append(h("ul", { class: "list" },
      downloadButton("Download this register (CSV)", `/book-entries.csv?${csv}`)));
  }
  filters.addEventListener("submit", (event) => { event.preventDefault(); draw(); });
  await draw();
}

/** The evenings whose tin took an entry in the month, each reckoned as it stands, and the
 * tables counted on their own (their statement's cash check). */
async function drawTins(panel, b) {
  panel.replaceChildren(h("h3", {}, `The tins, ${b.name}`));
  const dates = new Set();
  const own = new Map();  // session id -> its name, for a table with a tin of its own
  try {
    for (const kind of ["float", "evening", "cash-count"]) {
      let after = 0;
      for (;;) {
        const q = new URLSearchParams({ since: b.since, until: b.until, kind,
          after: String(after), limit: "1000" });
        const page = (await call("GET", `/book-entries?${q}`)).body;
        page.entries.filter((e) => e.evening).forEach((e) => dates.add(e.evening));
        page.entries.filter((e) => !e.evening && e.session_id && !e.reversed_by)
          .forEach((e) => own.set(e.session_id, e.session_name));
        if (page.next_after === null || page.next_after === undefined) break;
        after = page.next_after;
      }
    }
  } catch (failure) {
    panel.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }
  if (!dates.size && !own.size) {
    panel.append(h("p", { class: "muted" }, "No tin took an entry this month."));
    return;
  }
  let tins;
  let tables;
  try {
    [tins, tables] = await Promise.all([
      Promise.all([...dates].sort().map((d) => call("GET", `/evenings/${d}`)
        .then((r) => r.body))),
      Promise.all([...own.keys()].map((sid) => call("GET", `/sessions/${sid}/statement`)
        .then((r) => r.body)))]);
  } catch (failure) {
    panel.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }
  const checked = (m, cash) => (cash ? `expected ${m(cash.expected_minor)}, counted ` +
    `${m(cash.counted_minor)}, difference ${m(cash.difference_minor)}, not yet booked ` +
    `${m(cash.unbooked_minor)}` : "not counted yet");
  panel.append(h("ul", { class: "list", "data-testid": "tins" }, ...tables.map((st) => {
    const m = (minor) => money(minor, st.currency || "GBP");
    return h("li", { "data-table": st.name }, h("span", { class: "grow" },
      h("strong", {}, `${st.name || "A table with no name"}'s own tin`), h("br", {}),
      h("span", { class: "muted" }, st.cash ? `float ${m(st.cash.float_minor)}; ` +
        checked(m, st.cash) : checked(m, null))));
  }), ...tins.map((t) => {
    const m = (minor) => money(minor, t.currency || "GBP");
    const check = checked(m, t.cash);
    return h("li", { "data-evening": t.evening }, h("span", { class: "grow" },
      h("strong", {}, `The evening of ${day(t.evening)}`), h("br", {}),
      h("span", { class: "muted" }, `float ${m(t.float_minor)}; ${t.sessions.length} ` +
        `${t.sessions.length === 1 ? "table" : "tables"}; ${check}`)));
  })));
}

async function drawStandings(panel, b) {
  panel.replaceChildren(h("h3", {}, `The standings, ${b.name}`),
    h("p", { class: "muted" }, "Each member's results of the tables of the month (a " +
      "correction counts on its own day), in money per currency."));
  await paged(panel, {
    read: async (after) => {
      const q = new URLSearchParams({ since: b.since, until: b.until, after: String(after),
        limit: "10" });
      const page = (await call("GET", `/standings?${q}`)).body;
      return { items: page.members.filter((m) => m.sessions), next_after: page.next_after };
    },
    draw: (m) => h("li", { "data-member": m.name }, h("span", { class: "grow" },
      h("strong", {}, m.name), h("br", {}), h("span", { class: "muted" },
        `${m.sessions} ${m.sessions === 1 ? "table" : "tables"}, ${m.loos} ` +
        `${m.loos === 1 ? "loo" : "loos"}, ${m.penalties} ` +
        `${m.penalties === 1 ? "penalty" : "penalties"}`)),
    h("strong", { "data-figure": "net" }, amounts(m.net_minor, money))),
    empty: "Nobody played this month.", label: "members", testid: "standings",
  });
}

async function drawClosing(panel, period, b) {
  panel.replaceChildren(h("h3", {}, `Close ${b.name}`));
  let periods;
  try {
    periods = (await call("GET", "/periods")).body.periods;
  } catch (failure) {
    panel.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }
  const this_ = periods.find((p) => p.period === period);
  const state = this_ && this_.closed
    ? `${b.name} is closed: by ${this_.closed_by}, ${when(this_.closed_at)}. Only the ` +
      "admin can reopen it."
    : `${b.name} is open.${this_ ? ` It was closed and reopened ${this_.reopenings.length} ` +
      `${this_.reopenings.length === 1 ? "time" : "times"}.` : ""}`;
  const closedNow = Boolean(this_ && this_.closed);
  const form = h("form", { "data-testid": "close-month" },
    h("p", { "data-testid": "month-state" }, state),
    closedNow ? "" : h("p", { class: "muted" }, "Closing keeps every balance as it stood at " +
      "the month's end: what comes later (a late correction, a reversal) is booked in the " +
      "open month."),
    closedNow ? "" : h("div", { class: "row", "data-field": "period" }, h("button", {
      class: "btn primary", type: "submit" }, `Close ${b.name}`)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearRefusals(form);
    try {
      await call("POST", `/periods/${period}/closing`, { body: {} });
      await drawClosing(panel, period, b);
      panel.querySelector("[data-testid=month-state]").setAttribute("role", "status");
    } catch (failure) {
      showRefusal(form, failure);
    }
  });
  const closed = periods.filter((p) => p.closed);
  panel.append(form, h("h4", {}, "Months closed"), closed.length
    ? h("ul", { class: "list", "data-testid": "periods" }, closed.map((p) =>
      h("li", { "data-period": p.period }, `${p.period}: closed by ${p.closed_by}, ` +
        `${when(p.closed_at)}`)))
    : h("p", { class: "muted" }, "None yet."));
}

function drawExports(panel, b) {
  const range = new URLSearchParams({ since: b.since, until: b.until, bom: "1" });
  panel.replaceChildren(h("h3", {}, "Downloads"),
    h("p", { class: "muted" }, "Each is saved as a file with the name the ledger gives it; " +
      "a CSV opens in a spreadsheet with every name intact."),
    h("ul", { class: "list", "data-testid": "exports" },
      downloadButton(`The register of ${b.name} (CSV)`, `/book-entries.csv?${range}`),
      downloadButton("The open debts (CSV)", "/debts.csv?bom=1"),
      downloadButton("What the club owes (CSV)", "/payables.csv?bom=1"),
      downloadButton("Who pays whom (CSV)", "/settle-up.csv?bom=1"),
      downloadButton(`The books of ${b.name} for the accountant (Beancount)`,
        `/books/export.beancount?from=${b.from}&to=${b.to}`),
      downloadButton(`The club's page of ${b.name} (HTML)`,
        `/standings.html?${new URLSearchParams({ since: b.since, until: b.until })}`)));
}
