// After play (the treasurer's): a payment taken in or paid out, the open debts oldest first,
// the book's last entries, each not yet reversed offered for reversal with a reason.
// The currencies offered are the club's (GET /club/currencies); every refusal is the
// ledger's sentence beside the field it names.

import {
  call, clearRefusals, field, h, money, sentence, showRefusal, toMinor, when,
} from "./api.js";
import { accountPanel, settleUpPanel, writeOffForm } from "./books.js";
import { correctionPanel } from "./correct.js";
import { day, endedTables, PAGE, paged } from "./lists.js";
import { endedPanel, ownTinPanel, tinPanel } from "./tins.js";

const KIND_WORDS = {
  payment: "Payment", "write-off": "Write-off", reversal: "Reversal", float: "Float",
  cash: "Cash counted", "cash-count": "Tin counted", "cash-difference": "Cash difference",
  evening: "Joined the tin", "opening-balance": "Opening balance",
  "period-closed": "Month closed", "period-reopened": "Month reopened",
  currencies: "Currencies",
};
const SHOWN = 25;  // the book's last entries listed
const DAYS_LISTED = 92;  // the ended tables offered: those of the last three months

/** A book entry in words: "Payment: Ann paid the club, 1.00 GBP (cash)". */
export function entryWords(e) {
  const what = KIND_WORDS[e.kind] || e.type;
  const party = (name) => (name === "club" ? "the club" : name);
  const tin = e.evening ? `the tin of ${e.evening}` : "";
  const parties = e.kind === "payment" ? `${party(e.payer_name)} paid ${party(e.payee_name)}`
    : [e.member_name, e.session_name, tin].filter(Boolean).join(", ");
  const minor = e.amount_minor ?? e.counted_minor;
  const amount = minor !== null && minor !== undefined ? money(minor, e.currency) : "";
  const how = e.method ? ` (${e.method})` : "";
  const more = e.kind === "reversal" ? `reverses entry ${e.reverses}: ${e.reason}` : "";
  return `${what}: ${[parties, amount].filter(Boolean).join(", ")}${how}${more ? ` — ${more}` : ""}`;
}

async function allEntries() {
  const entries = [];
  let after = 0;
  for (;;) {
    const page = (await call("GET", `/book-entries?after=${after}&limit=1000`)).body;
    entries.push(...page.entries);
    if (page.next_after === null || page.next_after === undefined) return entries;
    after = page.next_after;
  }
}

export async function afterPlayRoom(main) {
  const pay = h("section", { class: "panel", "aria-label": "Take or pay out a payment" });
  const debts = h("section", { class: "panel", "aria-label": "Open debts" });
  const book = h("section", { class: "panel", "aria-label": "The book's last entries" });
  main.append(h("div", { class: "columns" }, h("div", {}, pay, debts), book));
  let members = [];
  let currencies = ["GBP"];

  async function drawDebts() {
    // oldest first, as the ledger lists them, ten at a time; the totals are over them all
    const totals = h("p", {});
    debts.replaceChildren(h("h3", { id: "debts-h" }, "Open debts, oldest first"), totals);
    await paged(debts, {
      read: async (after) => {
        const page = (await call("GET", `/debts?after=${after}&limit=${PAGE}`)).body;
        const sums = Object.entries(page.totals || {}).map(([c, v]) => money(v, c));
        totals.textContent = sums.length ? `Owed to the club: ${sums.join(", ")}.` : "";
        return { items: page.debts, next_after: page.next_after };
      },
      draw: (d) => h("li", { "data-member": d.name },
        h("span", { class: "grow" }, h("strong", {}, d.name), " owes ",
          h("strong", {}, money(d.amount_minor, d.currency)), h("br", {}),
          h("span", { class: "muted" }, `${d.session_name ? `from ${d.session_name}, `
            : ""}since ${when(d.since)}`)), writeOffButton(d)),
      empty: "Nobody owes the club anything.", label: "debts", testid: "debts",
    });
  }

  function writeOffButton(d) {
    const open = h("button", { class: "btn small", type: "button",
      "aria-label": `Write off ${d.name}'s debt of ${money(d.amount_minor, d.currency)}` },
    "Write off…");
    open.addEventListener("click", () => {
      const item = open.closest("li");
      open.remove();
      item.append(writeOffForm(d, refresh));
      item.querySelector("input[name=reason]").focus();
    });
    return open;
  }

  function reverseForm(e, item) {
    const reason = h("input", { type: "text", name: "reason", maxlength: "200",
      autocomplete: "off" });
    const form = h("form", { class: "grow", "data-testid": "reverse-form" },
      field(`Why entry ${e.seq} is wrong`, reason, "reason"),
      h("div", { class: "row", "data-field": "seq" },
        h("button", { class: "btn primary", type: "submit" }, `Reverse entry ${e.seq}`)));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      try {
        await call("POST", `/book-entries/${e.seq}/reversal`, { body: { reason: reason.value } });
        await refresh(`Entry ${e.seq} is reversed.`);
      } catch (failure) {
        showRefusal(form, failure);
      }
    });
    item.append(form);
    reason.focus();
  }

  async function drawBook(note) {
    let entries;
    try {
      entries = await allEntries();
    } catch (failure) {
      book.replaceChildren(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
      return;
    }
    const last = entries.slice(-SHOWN).reverse();
    book.replaceChildren(h("h3", { id: "book-h" }, "The book's last entries"),
      note ? h("p", { class: "done", role: "status" }, note) : "",
      last.length ? h("ul", { class: "list", "data-testid": "book" }, last.map((e) => {
        const item = h("li", { "data-seq": String(e.seq) },
          h("span", { class: "grow" }, h("strong", {}, `${e.seq}. `), entryWords(e), h("br", {}),
            h("span", { class: "muted" }, `${when(e.recorded_at)}, by ${e.actor}` +
              (e.reversed_by ? `; reversed by entry ${e.reversed_by}` : ""))));
        // an entry not reversed yet, and not a reversal itself, may be reversed
        if (!e.reversed_by && e.kind !== "reversal") {
          const open = h("button", { class: "btn small", type: "button",
            "aria-label": `Reverse entry ${e.seq}` }, "Reverse…");
          open.addEventListener("click", () => { open.remove(); reverseForm(e, item); });
          item.append(open);
        }
        return item;
      })) : h("p", { class: "muted" }, "The book has no entry yet."));
  }

  function drawPay() {
    const direction = h("select", { name: "direction" },
      h("option", { value: "in" }, "A member pays the club"),
      h("option", { value: "out" }, "The club pays a member"));
    const who = h("select", { name: "member" }, members.map((m) =>
      h("option", { value: m.name }, m.name)));
    const amount = h("input", { type: "text", name: "amount", inputmode: "decimal",
      autocomplete: "off", placeholder: "5.00" });
    const currency = h("select", { name: "currency" },
      currencies.map((c) => h("option", { value: c }, c)));
    const method = h("select", { name: "method" },
      h("option", { value: "cash" }, "Cash"), h("option", { value: "transfer" }, "Transfer"));
    // the table it is paid for: its cash then counts in that table's tin
    const table = h("select", { name: "session_id" }, h("option", { value: "" }, "No table"),
      tables.map((t) => h("option", { value: t.session_id }, `${t.name || "A table with no " +
        "name"} (${t.ended_at ? `ended ${day(t.ended_at)}` : "open"})`)));
    const form = h("form", { "data-testid": "payment" },
      field("Which way", direction, "direction"),
      field("Member", who, "member"),
      h("div", { class: "row" }, field("Amount", amount, "amount_minor"),
        field("Currency", currency, "currency")),
      field("Paid by", method, "method"),
      field("For the table", table, "session_id", "Cash paid for a table is counted in its " +
        "tin."),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn primary", type: "submit" }, "Record the payment")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      const minor = toMinor(amount.value, currency.value);
      if (minor === null) {
        showRefusal(form, { status: 422, problem: { field: "amount_minor",
          detail: `Write the amount in ${currency.value}, e.g. 5.00.` } });
        return;
      }
      const inward = direction.value === "in";
      const body = { payer: inward ? who.value : "club", payee: inward ? "club" : who.value,
        amount_minor: minor, currency: currency.value, method: method.value };
      if (table.value) body.session_id = table.value;
      try {
        await call("POST", "/payments", { body });
        amount.value = "";
        await refresh(`${inward ? `${who.value} paid the club` : `The club paid ${who.value}`} ` +
          `${money(minor, currency.value)} (${method.value}).`);
      } catch (failure) {
        // the payer or payee the ledger names is the member chosen here
        if (failure.problem && ["payer", "payee"].includes(failure.problem.field)) {
          failure.problem.field = "member";
        }
        showRefusal(form, failure);
      }
    });
    pay.replaceChildren(h("h3", { id: "pay-h" }, "Take or pay out a payment"), form);
  }

  const tin = h("section", { class: "panel", "aria-label": "Count the evening's tin" });
  const ownTin = h("section", { class: "panel", "aria-label": "A table's own tin" });
  const settle = h("section", { class: "panel", "aria-label": "Who pays whom" });
  const statements = h("section", { class: "panel", "aria-label": "The tables' statements" });
  const account = h("section", { class: "panel", "aria-label": "A member's account" });
  const correct = h("section", { class: "panel", "aria-label": "Correct an ended table" });
  main.append(h("div", { class: "columns" }, h("div", {}, tin, ownTin, statements), settle),
    h("div", { class: "columns" }, account, correct));

  let tinShown = null;
  let accountShown = null;

  async function refresh(note) {
    // the tin and the account shown too, once drawn: a payment is in both
    await Promise.all([drawDebts(), drawBook(note), settleUpPanel(settle),
      tinShown ? tinShown.redraw() : null, accountShown ? accountShown.redraw() : null]);
  }

  let tables = [];  // the open tables, then those ended in the last three months, newest first
  const since = new Date(Date.now() - DAYS_LISTED * 86400000).toISOString();
  try {
    const [m, c, open, ended] = await Promise.all([call("GET", "/members"),
      call("GET", "/club/currencies"), call("GET", "/club/sessions"),
      endedTables(since, 0, 200)]);
    tables = [...open.body.sessions, ...ended.items.reverse()];
    members = m.body.members;
    const kept = c.body.currency && c.body.currency !== "units" ? [c.body.currency] : [];
    currencies = [...kept, ...(c.body.accepted || [])];
    if (!currencies.length) currencies = ["GBP"];
  } catch (failure) {
    main.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }
  drawPay();
  const drawnTin = tinPanel(tin, { mode: "after", members });
  ownTinPanel(ownTin, { tables, members });
  endedPanel(statements, null, { since, title: "The statements of the tables ended in the " +
    "last three months", empty: "No table has ended in the last three months." });
  const drawnAccount = accountPanel(account, members);
  correctionPanel(correct, { done: () => refresh() });
  await refresh();
  tinShown = drawnTin;
  accountShown = drawnAccount;
}
