// The auditor's room (docs/desk.md): the whole club verified with one verdict; the club's
// sessions by date and name, each verified, explained figure by figure, and exported as a
// signed file the ledger checks again; the book log by date and member; the corrections and
// the penalties. Everything is a read: the auditor is offered nothing that writes.
//
// Every verdict is the ledger's (GET /audit/verify, /sessions/<id>/verify, POST
// /audit/export-check); the page only says it in words.

import { call, clearRefusals, field, h, money, sentence, showRefusal, when } from "./api.js";
import { day } from "./lists.js";

const PAGE = 10;
const KIND_WORDS = {
  payment: "payment", "write-off": "write-off", "cash-count": "cash counted",
  reversal: "reversal", currencies: "currencies set", float: "float",
  "cash-difference": "cash difference", evening: "joined an evening",
};

function refusal(failure) {
  return h("p", { class: "refusal", role: "alert" }, sentence(failure));
}

/** A date input's day as the start of that day in this browser's time zone, ISO 8601. */
function dayStart(value, plusDays = 0) {
  if (!value) return null;
  const [y, m, d] = value.split("-").map(Number);
  return new Date(y, m - 1, d + plusDays).toISOString();
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, v);
  return q.toString();
}

function entries(n) {
  return `${n} ${n === 1 ? "entry" : "entries"}`;
}

export async function auditRoom(main) {
  const club = h("section", { class: "panel", "aria-label": "The whole club" });
  const sessions = h("section", { class: "panel", "aria-label": "Sessions" });
  const book = h("section", { class: "panel", "aria-label": "The book log" });
  const registers = h("section", { class: "panel", "aria-label": "Corrections and penalties" });
  const file = h("section", { class: "panel", "aria-label": "Check an export file" });
  main.append(h("div", { class: "columns" }, h("div", {}, club, sessions, file),
    h("div", {}, book, registers)));
  drawClub(club);
  drawSessions(sessions);
  drawFileCheck(file);
  await Promise.all([drawBook(book), drawRegisters(registers)]);
}

// -- the whole club ------------------------------------------------------------------------

function drawClub(panel) {
  const verdict = h("div", { "data-testid": "club-verdict", "aria-live": "polite" });
  const button = h("button", { class: "btn primary", type: "button" }, "Verify the whole club");
  button.addEventListener("click", async () => {
    button.disabled = true;
    verdict.replaceChildren(h("p", { class: "muted" }, "Verifying…"));
    const bad = [];
    let checked = 0;
    let total = 0;
    let books = null;
    try {
      for (let after = 0; after !== null;) {
        const page = (await call("GET", `/audit/verify?${query({ after, limit: 20 })}`)).body;
        total = page.total;
        checked += page.sessions.length;
        if (page.books) books = page.books;
        for (const s of page.sessions) {
          if (!s.ok) bad.push(`${s.name || "A table with no name"}: ${s.problems.join("; ")}`);
        }
        verdict.replaceChildren(h("p", { class: "muted" },
          `Verified ${checked} of ${total} sessions…`));
        after = page.next_after;
      }
    } catch (failure) {
      verdict.replaceChildren(refusal(failure));
      button.disabled = false;
      return;
    }
    if (books && !books.ok) bad.push(`The book log or the club log: ${books.problems.join("; ")}`);
    verdict.replaceChildren(bad.length
      ? h("div", { class: "refusal" }, h("p", {}, "The club does not verify:"),
        h("ul", {}, bad.map((line) => h("li", {}, line))))
      : h("p", { class: "done" }, `The club verifies: ${total} ${total === 1 ? "session" : "sessions"}, ` +
        "the book log and the club log each agree with their logs."));
    button.disabled = false;
  });
  panel.replaceChildren(h("h3", { id: "club-h" }, "The whole club"),
    h("p", { class: "muted" }, "The ledger folds every table's log again, checks every hash " +
      "of the book log and the club log, and compares them with every figure it shows."),
    h("div", { class: "row" }, button), verdict);
}

// -- the sessions --------------------------------------------------------------------------

function drawSessions(panel) {
  const named = h("input", { type: "text", name: "name", autocomplete: "off", maxlength: "200" });
  const from = h("input", { type: "date", name: "since" });
  const to = h("input", { type: "date", name: "until" });
  const list = h("div", { "aria-live": "polite" });
  const form = h("form", { "data-testid": "sessions-window", class: "window" },
    field("Name", named, "name", "All or part of it"),
    field("Opened from", from, "since"), field("Opened to", to, "until"),
    h("div", { class: "row", "data-field": "*" },
      h("button", { class: "btn", type: "submit" }, "Show the sessions")));
  let after = 0;

  async function load() {
    let page;
    try {
      page = (await call("GET", `/audit/sessions?${query({ name: named.value.trim(),
        since: dayStart(from.value), until: dayStart(to.value, 1), after, limit: PAGE })}`)).body;
    } catch (failure) {
      clearRefusals(form);
      if (failure.problem && failure.problem.field) showRefusal(form, failure);
      else list.replaceChildren(refusal(failure));
      return;
    }
    const shown = page.sessions.length;
    clearRefusals(form);
    list.replaceChildren(
      h("p", { class: "muted", "data-testid": "sessions-count" }, page.total
        ? `Sessions ${after + 1}–${after + shown} of ${page.total}, newest first.`
        : "No session was opened then."),
      shown ? h("ul", { class: "list", "data-testid": "sessions" },
        page.sessions.map(sessionItem)) : "",
      pager(after, page.next_after, (next) => { after = next; load(); }));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    after = 0;
    load();
  });
  panel.replaceChildren(h("h3", { id: "sessions-h" }, "Sessions"), form, list);
  load();
}

function pager(after, next, go) {
  const back = after > 0 ? h("button", { class: "btn", type: "button",
    onclick: () => go(Math.max(0, after - PAGE)) }, "Newer") : null;
  const on = next !== null ? h("button", { class: "btn", type: "button",
    onclick: () => go(next) }, "Older") : null;
  return back || on ? h("div", { class: "row" }, back, on) : "";
}

function sessionItem(s) {
  const name = s.name || "A table with no name";
  const out = h("div", { class: "grow session-out", "aria-live": "polite" });
  const button = (label, act) => h("button", { class: "btn small", type: "button",
    onclick: () => act(s, out) }, `${label} ${name}`);
  return h("li", { "data-session": name },
    h("span", { class: "grow" }, h("strong", {}, name), h("br", {}),
      h("span", { class: "muted" }, `opened ${when(s.opened_at)}, ` +
        `${s.status === "open" ? "still open" : "ended"}, ${entries(s.version)}; ` +
        `${s.players.join(", ")}`)),
    h("div", { class: "row" }, button("Verify", verifyOne), button("Explain", explainOne),
      button("Export", exportOne)),
    out);
}

async function verifyOne(s, out) {
  try {
    const v = (await call("GET", `/sessions/${s.session_id}/verify`)).body;
    out.replaceChildren(h("p", { class: v.ok ? "done" : "refusal", "data-testid": "verdict" },
      v.ok ? `Verified: the log of ${entries(v.version)} and every figure agree.`
        : `Does not verify: ${v.problems.join("; ")}`));
  } catch (failure) {
    out.replaceChildren(refusal(failure));
  }
}

async function explainOne(s, out) {
  let trail;
  let statement;
  try {
    [trail, statement] = (await Promise.all([call("GET", `/sessions/${s.session_id}/explain`),
      call("GET", `/sessions/${s.session_id}/statement`)])).map((r) => r.body);
  } catch (failure) {
    out.replaceChildren(refusal(failure));
    return;
  }
  const moneyOf = Object.fromEntries((statement.players || []).map((p) =>
    [p.player, p.net_money_minor]));
  const figures = trail.figures.filter((f) => f.kind === "player" || f.net_units);
  out.replaceChildren(h("ul", { class: "list figures", "data-testid": "figures" },
    figures.map((f) => {
      const who = f.kind === "player" ? f.account
        : f.kind === "pool" ? "The pool" : "The next pool";
      const inMoney = moneyOf[who] !== undefined && statement.currency
        ? ` (${money(moneyOf[who], statement.currency)})` : "";
      const why = h("div", { class: "grow" });
      return h("li", { "data-figure": who },
        h("span", { class: "grow" }, h("strong", {}, who), `: ${f.net_units} units${inMoney}`),
        h("button", { class: "btn small", type: "button", "aria-expanded": "false",
          onclick: (event) => {
            const open = why.childElementCount > 0;
            event.currentTarget.setAttribute("aria-expanded", open ? "false" : "true");
            why.replaceChildren(...(open ? [] : [postings(f)]));
          } }, `Why ${who}`), why);
    })));
}

function postings(figure) {
  const rows = figure.postings.slice(0, 50).map((p) => h("li", {},
    `${p.deal_no ? `Deal ${p.deal_no}, ` : ""}${p.event_type} by ${p.actor}: ` +
    `${p.signed_units > 0 ? "+" : ""}${p.signed_units} units` +
    (p.rule ? ` (${p.rule.law}; ${p.rule.source})` : "")));
  const more = figure.postings.length > 50
    ? h("p", { class: "muted" }, `and ${figure.postings.length - 50} more postings`) : null;
  return h("div", {}, h("ol", { class: "postings" }, rows), more);
}

function fileName(s) {
  const slug = (s.name || "session").toLowerCase().replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "session";
  return `${slug}-${s.opened_at.slice(0, 10)}.lanterloo.json`;
}

async function exportOne(s, out) {
  let data;
  try {
    data = (await call("GET", `/sessions/${s.session_id}/export`)).body;
  } catch (failure) {
    out.replaceChildren(refusal(failure));
    return;
  }
  const name = fileName(s);
  const text = JSON.stringify(data, null, 1);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const save = h("a", { class: "btn", href: url, download: name, "data-testid": "export-file" },
    `Save ${name} again`);
  out.replaceChildren(h("p", {}, `Exported ${entries(data.events.length)} as `,
    h("strong", {}, name), "."), save, h("div", { "data-testid": "export-verdict" },
    h("p", { class: "muted" }, "The ledger is checking the file…")));
  save.click();
  await checkFile(JSON.parse(text), name, out.querySelector("[data-testid=export-verdict]"));
}

async function checkFile(data, name, where) {
  try {
    const checked = (await call("POST", "/audit/export-check", { body: data })).body;
    where.replaceChildren(h("p", { class: checked.ok ? "done" : "refusal" },
      checked.ok ? `${name} is intact: its ${entries(checked.events)}, every hash, the ` +
        `signature by the club's key ${checked.key_id} and every figure hold.`
        : `${name} does not verify: ${checked.problems.join("; ")}`));
  } catch (failure) {
    where.replaceChildren(refusal(failure));
  }
}

function drawFileCheck(panel) {
  const input = h("input", { type: "file", name: "file", accept: ".json,application/json" });
  const out = h("div", { "data-testid": "file-verdict", "aria-live": "polite" });
  input.addEventListener("change", async () => {
    const chosen = input.files && input.files[0];
    if (!chosen) return;
    let data;
    try {
      data = JSON.parse(await chosen.text());
    } catch {
      out.replaceChildren(h("p", { class: "refusal" }, `${chosen.name} is not a JSON file.`));
      return;
    }
    await checkFile(data, chosen.name, out);
  });
  panel.replaceChildren(h("h3", { id: "file-h" }, "Check an export file"),
    h("p", { class: "muted" }, "A file exported here or by `lanterloo export`: the ledger " +
      "checks it as `lanterloo verify-export` does, and keeps nothing."),
    field("The file", input, "file"), out);
}

// -- the book log --------------------------------------------------------------------------

async function drawBook(panel) {
  let members = [];
  try {
    members = (await call("GET", "/members?retired=true")).body.members;
  } catch (failure) {
    panel.replaceChildren(refusal(failure));
    return;
  }
  const who = h("select", { name: "member_id" }, h("option", { value: "" }, "Every member"),
    members.map((m) => h("option", { value: m.member_id }, m.name)));
  const from = h("input", { type: "date", name: "since" });
  const to = h("input", { type: "date", name: "until" });
  const list = h("div", { "aria-live": "polite" });
  const form = h("form", { "data-testid": "book-window", class: "window" },
    field("Member", who, "member_id"), field("From", from, "since"), field("To", to, "until"),
    h("div", { class: "row", "data-field": "*" },
      h("button", { class: "btn", type: "submit" }, "Show the entries")));
  const seen = [0];

  async function load() {
    let page;
    try {
      page = (await call("GET", `/book-entries?${query({ member_id: who.value,
        since: dayStart(from.value), until: dayStart(to.value, 1), after: seen.at(-1),
        limit: PAGE })}`)).body;
    } catch (failure) {
      list.replaceChildren(refusal(failure));
      return;
    }
    const back = seen.length > 1 ? h("button", { class: "btn", type: "button",
      onclick: () => { seen.pop(); load(); } }, "Earlier") : null;
    const on = page.next_after !== null ? h("button", { class: "btn", type: "button",
      onclick: () => { seen.push(page.next_after); load(); } }, "Later") : null;
    list.replaceChildren(page.entries.length
      ? h("ul", { class: "list", "data-testid": "book" }, page.entries.map(bookItem))
      : h("p", { class: "muted" }, "No entry."), back || on ? h("div", { class: "row" }, back, on) : "");
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    seen.splice(1);
    load();
  });
  panel.replaceChildren(h("h3", { id: "book-h" }, "The book log"),
    h("p", { class: "muted" }, "Every payment, write-off, cash count and reversal, in the " +
      "order it was recorded."), form, list);
  await load();
}

function bookItem(e) {
  const party = (id, name) => (id === "club" || !name ? "the club" : name);
  const parties = e.payer || e.payee
    ? `${party(e.payer, e.payer_name)} to ${party(e.payee, e.payee_name)}` : e.member_name || "";
  const amount = e.amount_minor !== null ? money(e.amount_minor, e.currency)
    : e.counted_minor !== null ? `counted ${money(e.counted_minor, e.currency)}` : "";
  return h("li", { "data-seq": String(e.seq) },
    h("span", { class: "grow" }, h("strong", {}, `#${e.seq} ${KIND_WORDS[e.kind] || e.kind}`),
      parties ? `: ${parties}` : "", amount ? `, ${amount}` : "",
      e.reverses ? `, reverses #${e.reverses}` : "", e.reversed_by ? ` (reversed by #${e.reversed_by})` : "",
      h("br", {}), h("span", { class: "muted" }, `${when(e.recorded_at)}` +
        (e.session_name ? `, ${e.session_name}` : "") + (e.reason ? `: ${e.reason}` : ""))));
}

// -- the registers -------------------------------------------------------------------------

async function drawRegisters(panel) {
  const corrections = h("div", {});
  const penalties = h("div", {});
  panel.replaceChildren(h("h3", { id: "registers-h" }, "Corrections"), corrections,
    h("h3", {}, "Penalties and breaches"), penalties);
  await Promise.all([
    register(corrections, "/audit/corrections", "corrections", "corrections", (c) =>
      h("li", { "data-table": c.session_name || "" }, h("span", { class: "grow" },
        h("strong", {}, `${c.reason}`), h("br", {}), tableOf(c), h("br", {}),
        h("span", { class: "muted" }, `${when(c.recorded_at)}, ` +
          `${c.deal_no ? `deal ${c.deal_no}, ` : ""}voided ${c.voids.length} ` +
          `${c.voids.length === 1 ? "entry" : "entries"}, authorised by ${c.authorised_by}`)))),
    register(penalties, "/audit/penalties", "entries", "penalties", (p) =>
      h("li", { "data-table": p.session_name || "" }, h("span", { class: "grow" },
        h("strong", {}, `${p.player}: ${p.offence || p.breach}`),
        p.amount_units !== null ? `, ${p.amount_units} units` : "",
        p.live ? "" : " (voided by a correction)", h("br", {}), tableOf(p), h("br", {}),
        h("span", { class: "muted" }, `${when(p.recorded_at)}, deal ${p.deal_no}, ` +
          `${p.detected ? "found by the ledger" : `entered by ${p.actor}`}` +
          (p.law ? `; ${p.law}` : ""))))),
  ]);
}

/** The table a register's row is of, as people say it: "Thursday, opened Sat, 28 Nov 2026". */
function tableOf(row) {
  return h("span", { "data-testid": "table-of" }, `${row.session_name || "A table with no " +
    "name"}, opened ${day(row.session_opened_at)}`);
}

async function register(where, path, key, testid, item) {
  const pages = [0];
  async function load() {
    let page;
    try {
      page = (await call("GET", `${path}?${query({ after: pages.at(-1), limit: PAGE })}`)).body;
    } catch (failure) {
      where.replaceChildren(refusal(failure));
      return;
    }
    const rows = page[key];
    const on = page.next_after !== null && page.next_after !== undefined
      ? h("button", { class: "btn", type: "button",
        onclick: () => { pages.push(page.next_after); load(); } }, "More") : null;
    const back = pages.length > 1 ? h("button", { class: "btn", type: "button",
      onclick: () => { pages.pop(); load(); } }, "Back") : null;
    where.replaceChildren(rows.length
      ? h("ul", { class: "list", "data-testid": testid }, rows.map(item))
      : h("p", { class: "muted" }, "None."), back || on ? h("div", { class: "row" }, back, on) : "");
  }
  await load();
}
