// The treasurer's books at the desk: a debt written off with a reason, who pays whom (the
// settle-up), a member's account page by page with its running balance, and a member's own
// link to send him. Every figure is the API's; every refusal the ledger's sentence.

import {
  call, clearRefusals, field, h, money, sentence, showRefusal, toMinor, when,
} from "./api.js";
import { downloadButton, paged } from "./lists.js";

/** A form under a debt: write off up to what he owes, with a reason (POST /write-offs). */
export function writeOffForm(debt, done) {
  const amount = h("input", { type: "text", name: "amount_minor", inputmode: "decimal",
    autocomplete: "off", value: money(debt.amount_minor, debt.currency).split(" ")[0] });
  const reason = h("input", { type: "text", name: "reason", maxlength: "200",
    autocomplete: "off" });
  const form = h("form", { class: "grow", "data-testid": "write-off" },
    h("div", { class: "row" }, field(`Write off (${debt.currency})`, amount, "amount_minor"),
      field("Why it will not be paid", reason, "reason")),
    h("div", { class: "row", "data-field": "*" }, h("button", { class: "btn primary",
      type: "submit" }, `Write off ${debt.name}'s debt`)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearRefusals(form);
    const minor = toMinor(amount.value, debt.currency);
    if (minor === null) {
      showRefusal(form, { status: 422, problem: { field: "amount_minor",
        detail: `Write the amount in ${debt.currency}, e.g. 0.40.` } });
      return;
    }
    try {
      await call("POST", "/write-offs", { body: { member: debt.name,
        amount_minor: minor, currency: debt.currency, reason: reason.value } });
      await done(`${money(minor, debt.currency)} of ${debt.name}'s debt is written off.`);
    } catch (failure) {
      if (failure.problem && failure.problem.field === "member") {
        failure.problem.field = "*";
      }
      showRefusal(form, failure);
    }
  });
  return form;
}

function party(p, m) {
  return h("li", { "data-member": p.name }, h("span", { class: "grow" }, p.name),
    h("strong", {}, m(p.amount_minor)));
}

/** Who pays the club and whom it pays, per currency, with its cash, bank and position
 * (GET /settle-up, as of `asOf` if given). */
export async function settleUpPanel(panel, { asOf, title = "Who pays whom" } = {}) {
  const query = asOf ? `?as_of=${encodeURIComponent(asOf)}` : "";
  panel.replaceChildren(h("h3", {}, title));
  let answer;
  try {
    answer = (await call("GET", `/settle-up${query}`)).body;
  } catch (failure) {
    panel.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return null;
  }
  const sides = answer.currencies.map((c) => {
    const m = (minor) => money(minor, c.currency);
    return h("div", { "data-currency": c.currency, "data-testid": "settle-up" },
      h("h4", {}, `In ${c.currency}`),
      h("p", {}, "Pay the club:"),
      c.pays_club.length ? h("ul", { class: "list", "data-side": "pays_club" },
        c.pays_club.map((p) => party(p, m))) : h("p", { class: "muted" }, "nobody"),
      h("p", {}, "The club pays:"),
      c.club_pays.length ? h("ul", { class: "list", "data-side": "club_pays" },
        c.club_pays.map((p) => party(p, m))) : h("p", { class: "muted" }, "nobody"),
      h("dl", { class: "figures" }, ...[
        ["Cash", "cash_minor"], ["Bank", "bank_minor"], ["Owed to the club", "receivable_minor"],
        ["The club owes", "payable_minor"], ["Written off", "written_off_minor"],
        ["Left in the tables' pools", "left_in_sessions_minor"],
        ["The club's position", "position_minor"]].flatMap(([words, key]) => [
        h("dt", {}, words), h("dd", { "data-figure": key }, m(c[key]))])),
      h("p", { class: c.balanced ? "done" : "refusal" }, c.balanced
        ? "It adds up: cash, bank and what is owed each way make the club's position."
        : "It does not add up: ask the auditor to verify the books."));
  });
  panel.append(...(sides.length ? sides : [h("p", { class: "muted" }, "Nothing to settle.")]));
  return answer;
}

/** A member's account: his balances, then his lines with their running balance, a page at
 * a time; his account as a CSV; his own link to send him. Its handle draws it again. */
export function accountPanel(panel, members) {
  const who = h("select", { name: "member" }, members.map((m) =>
    h("option", { value: m.member_id }, m.guest ? `${m.name} (guest)` : m.name)));
  const body = h("div", { "data-testid": "account" });
  const form = h("form", { class: "row", "data-testid": "account-form" },
    field("Member", who, "member"), h("button", { class: "btn", type: "submit" },
      "Show his account"));
  form.addEventListener("submit", (event) => { event.preventDefault(); draw(); });
  panel.replaceChildren(h("h3", { id: "account-h" }, "A member's account"), form, body);

  // two draws may overlap (a payment and a tin count, each drawing it again): only the last
  // one started draws, else the account would be shown twice
  let drawing = 0;
  async function draw() {
    const mine = ++drawing;
    const id = who.value;
    const name = members.find((m) => m.member_id === id).name;
    let first;
    try {
      first = (await call("GET", `/members/${id}/account?limit=10`)).body;
    } catch (failure) {
      if (mine === drawing) {
        body.replaceChildren(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
      }
      return;
    }
    if (mine !== drawing) return;
    body.replaceChildren();
    const balances = Object.entries(first.balances || {});
    const square = first.total_entries ? `${name} is square with the club.`
      : `${name}'s account has no line yet.`;
    const owing = balances.filter(([, v]) => v !== 0);
    body.append(h("p", { "data-testid": "balance" }, owing.length
      ? `${name}'s balance: ${owing.map(([c, v]) => money(v, c)).join(", ")} ` +
        "(below zero: owed to the club)" : square));
    let firstPage = first;
    await paged(body, {
      read: async (after) => {
        const page = firstPage || (await call("GET",
          `/members/${id}/account?after=${after}&limit=10`)).body;
        firstPage = null;
        return { items: page.entries, next_after: page.next_after };
      },
      draw: (e) => h("li", { "data-n": String(e.n) },
        h("span", { class: "grow" }, e.description, h("br", {}),
          h("span", { class: "muted" }, when(e.at))),
        h("span", {}, h("strong", { "data-figure": "amount" }, money(e.amount_minor, e.currency)),
          h("br", {}), h("span", { class: "muted", "data-figure": "balance" },
            `balance ${money(e.balance_minor, e.currency)}`))),
      empty: "No line yet.", label: "lines", testid: "account-lines",
    });
    if (mine !== drawing) return;
    body.append(h("ul", { class: "list" }, downloadButton(`Download ${name}'s account (CSV)`,
      `/members/${id}/account.csv?bom=1`)), linkForm(name));
  }

  function linkForm(name) {
    const out = h("div", { "aria-live": "polite" });
    const form = h("form", { "data-testid": "member-link" },
      h("h4", {}, `${name}'s own link`),
      h("p", { class: "muted" }, "It opens his own account, statements and debts, nothing " +
        "else of the club's; it works once, within 30 minutes."),
      h("div", { class: "row", "data-field": "*" }, h("button", { class: "btn primary",
        type: "submit" }, `Make ${name}'s link`)), out);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      out.replaceChildren();
      try {
        const made = (await call("POST", "/signin-links",
          { body: { member: name, role: "member" } })).body;
        const url = new URL(made.url, window.location.origin).href;
        const copy = h("button", { class: "btn", type: "button" }, "Copy the link");
        const copied = h("span", { class: "muted", "aria-live": "polite" });
        copy.addEventListener("click", async () => {
          try {
            await navigator.clipboard.writeText(url);
            copied.textContent = "Copied.";
          } catch {
            copied.textContent = "Select the link and copy it.";
          }
        });
        out.append(h("div", { class: "done" },
          h("p", {}, `Send this link to ${made.member}. It works once, until ` +
            `${when(made.expires_at)}.`),
          h("p", { class: "link-out", "data-testid": "member-url" }, url),
          h("div", { class: "row" }, copy, copied)));
      } catch (failure) {
        showRefusal(form, failure);
      }
    });
    return form;
  }

  if (members.length) draw();
  return { redraw: () => (members.length ? draw() : null) };
}
