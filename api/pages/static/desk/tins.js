// The evening's tin (docs/books.md, "The cash check"): the tables that ended by name and
// date, a table joined to the tin of the evening, its float, what is left in the tables'
// pools; after play, the tin counted and its shortage or surplus booked.
//
// Every figure is GET /evenings/<date>'s; what the tin may take is the ledger's to say: a
// table in another evening's tin, a count before every table of it has ended, a difference
// beyond what the check leaves unbooked are refused with its sentence beside the field.

import {
  call, clearRefusals, field, h, money, sentence, showRefusal, toMinor, when,
} from "./api.js";
import { day, dayStart, endedTables, paged, statementLink, today } from "./lists.js";

/** The tables that ended since the evening began (`date`), by name and date, a page at a time,
 * each with a link to its statement. After play and month-end list another span: `since` (an
 * ISO time), `until` (the end, excluded), with their own `title` and `empty` words. */
export async function endedPanel(panel, date, { since, until, title, empty } = {}) {
  panel.replaceChildren(h("h3", {}, title || `Tables ended since ${day(date)}`));
  return paged(panel, {
    read: async (after) => {
      const page = await endedTables(since || dayStart(date), after);
      return until ? { ...page, items: page.items.filter((t) =>
        new Date(t.ended_at) < new Date(until)) } : page;
    },
    draw: (t) => h("li", { "data-table": t.name },
      h("span", { class: "grow" }, h("strong", {}, t.name || "A table with no name"),
        h("br", {}), h("span", { class: "muted" },
          `ended ${when(t.ended_at)}; ${t.view.seats.join(", ")}`)), statementLink(t)),
    empty: empty || "No table has ended since then.", label: "ended tables", testid: "ended",
  });
}

/** A form of a tin: `fields` under `title` and one button (`submit`). Sent, `send()` makes
 * the request and answers the sentence to show, and the panel is drawn again with it
 * (`redraw(note)`); a refusal is shown beside the field it names. */
function tinForm(testid, title, fields, submit, send, redraw) {
  const form = h("form", { "data-testid": testid }, h("h4", {}, title), ...fields,
    h("div", { class: "row", "data-field": "*" },
      h("button", { class: "btn primary", type: "submit" }, submit)));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearRefusals(form);
    try {
      const note = await send();
      await redraw(note);
    } catch (failure) {
      showRefusal(form, failure);
    }
  });
  return form;
}

function moneyInput(name) {
  return h("input", { type: "text", name, inputmode: "decimal", autocomplete: "off",
    placeholder: "5.00" });
}

/** The amount typed in `input` in minor units of `cur`, or a refusal beside field `name`. */
function minorOf(input, cur, name) {
  const minor = toMinor(input.value, cur);
  if (minor === null) {
    const failure = { status: 422, problem: { field: name,
      detail: `Write the amount in ${cur}, e.g. 5.00.` } };
    throw failure;
  }
  return minor;
}

/** The form booking what a count left unbooked (`left`, in minor units of `cur`: below nothing
 * a shortage, above a surplus) to the club or a member who bears it, sent to `path`. */
function differenceForm(testid, path, left, cur, members, redraw) {
  const kind = left < 0 ? "shortage" : "surplus";
  const amount = moneyInput("amount_minor");
  amount.value = money(Math.abs(left), cur).split(" ")[0];
  const account = h("select", { name: "account" },
    h("option", { value: "club" }, "The club"),
    members.map((m) => h("option", { value: m.name }, m.name)));
  const reason = h("input", { type: "text", name: "reason", maxlength: "200",
    autocomplete: "off" });
  return tinForm(testid, `Book the ${kind}: ${money(Math.abs(left), cur)} not yet booked`, [
    field("Amount", amount, "amount_minor"),
    field("Who bears it", account, "account"),
    field("Why", reason, "reason"),
  ], `Book the ${kind}`, async () => {
    const minor = minorOf(amount, cur, "amount_minor");
    await call("POST", path, { body: {
      difference: kind, amount_minor: minor, currency: cur, account: account.value,
      reason: reason.value } });
    return `A ${kind} of ${money(minor, cur)} is booked to ` +
      `${account.value === "club" ? "the club" : account.value}.`;
  }, redraw);
}

/** The tin of the evening whose date the treasurer picks. `mode` "evening": its float and
 * the tables joined to it; "after": its count and the difference booked. */
export function tinPanel(panel, { mode, members = [], tables = async () => [],
  onDraw = () => {} }) {
  const date = h("input", { type: "date", name: "evening", value: today() });
  const body = h("div", { "data-testid": "tin" });
  const picker = h("form", { class: "row", "data-testid": "tin-date" },
    field("The evening of", date, "evening"),
    h("button", { class: "btn", type: "submit" }, "Show the tin"));
  picker.addEventListener("submit", (event) => { event.preventDefault(); draw(); });
  panel.replaceChildren(h("h3", { id: `tin-h-${mode}` }, "The evening's tin"), picker, body);

  async function draw(note) {
    const evening = date.value;
    let tin;
    try {
      tin = (await call("GET", `/evenings/${evening}`)).body;
    } catch (failure) {
      body.replaceChildren();
      showRefusal(picker, failure);
      return;
    }
    clearRefusals(picker);
    onDraw(evening);
    const cur = tin.currency;
    const m = (minor) => money(minor, cur || "GBP");
    const rows = [h("li", { "data-line": "float" }, h("span", { class: "grow" },
      "Float", h("br", {}), h("span", { class: "muted" },
        `${tin.floats} ${tin.floats === 1 ? "float" : "floats"} put in`)),
    h("strong", {}, m(tin.float_minor)))];
    tin.sessions.forEach((s) => rows.push(h("li", { "data-session": s.session_name },
      h("span", { class: "grow" }, h("strong", {}, s.session_name || "A table with no name"),
        h("br", {}), h("span", { class: "muted" }, `cash in ${m(s.cash_paid_in_minor)}, ` +
          `cash out ${m(s.cash_paid_out_minor)}`)),
      h("span", { "data-figure": "pools" }, `left in the pools ${m(s.pools_minor)}`))));
    const check = tin.cash ? h("dl", { class: "figures", "data-testid": "tin-check" },
      ...[["Expected", "expected_minor"], ["Counted", "counted_minor"],
        ["Difference", "difference_minor"], ["Booked", "booked_minor"],
        ["Not yet booked", "unbooked_minor"]].flatMap(([words, key]) => [
        h("dt", {}, words), h("dd", { "data-figure": key }, m(tin.cash[key]))]))
      : h("p", { class: "muted" }, "Not counted yet.");
    body.replaceChildren(
      note ? h("p", { class: "done", role: "status" }, note) : "",
      h("p", {}, cur ? `The tin of ${day(evening)} holds ${cur}.`
        : `Nothing is in the tin of ${day(evening)} yet.`),
      h("ul", { class: "list", "data-testid": "tin-lines" }, rows), check);
    if (mode === "evening") {
      body.append(floatForm(evening, cur), await joinForm(evening, tin));
    } else if (!cur) {
      body.append(h("p", { class: "muted" }, "Nothing to count: put a float in the tin or " +
        "join a table to it in the evening's room."));
    } else {
      body.append(countForm(evening, cur));
      if (tin.cash && tin.cash.unbooked_minor !== 0) {
        body.append(differenceForm("difference-form", `/evenings/${evening}/cash-differences`,
          tin.cash.unbooked_minor, cur, members, draw));
      }
    }
  }

  function floatForm(evening, cur) {
    const amount = moneyInput("amount_minor");
    const currency = h("input", { type: "text", name: "currency", value: cur || "GBP",
      maxlength: "3", autocomplete: "off" });
    return tinForm("float-form", "Put a float in the tin", [h("div", { class: "row" },
      field("Float", amount, "amount_minor"), field("Currency", currency, "currency"))],
    "Put the float in", async () => {
      const c = currency.value.trim().toUpperCase();
      const minor = minorOf(amount, c, "amount_minor");
      await call("POST", `/evenings/${evening}/float`,
        { body: { amount_minor: minor, currency: c } });
      return `A float of ${money(minor, c)} is in the tin.`;
    }, draw);
  }

  async function joinForm(evening, tin) {
    const inTin = new Set(tin.sessions.map((s) => s.session_id));
    const choices = (await tables(evening)).filter((t) => !inTin.has(t.session_id));
    if (!choices.length) {
      return h("div", {}, h("h4", {}, "Join a table to the tin"),
        h("p", { class: "muted" }, choices.length === 0 && inTin.size
          ? "Every open table, and every table ended since this evening began, is in the tin."
          : "No table is open, and none has ended since this evening began."));
    }
    const table = h("select", { name: "session_id" }, choices.map((t) =>
      h("option", { value: t.session_id }, `${t.name || "A table with no name"} ` +
        `(${t.ended_at ? `ended ${when(t.ended_at)}` : "open"})`)));
    return tinForm("join-form", "Join a table to the tin",
      [field("Table", table, "session_id", "Its cash is in this tin: paid in, paid out, " +
        "and what is left in its pools.")],
      "Join it to the tin", async () => {
        const name = table.selectedOptions[0].textContent.replace(/ \(.*\)$/, "");
        await call("POST", `/evenings/${evening}/sessions`,
          { body: { session_id: table.value } });
        return `${name} is in the tin of ${day(evening)}.`;
      }, draw);
  }

  function countForm(evening, cur) {
    const counted = moneyInput("counted_minor");
    return tinForm("count-form", "Count the tin",
      [field(`Counted${cur ? ` (${cur})` : ""}`, counted, "counted_minor",
        "Every note and coin in the tin now.")],
      "Record the count", async () => {
        const c = cur || "GBP";
        const minor = minorOf(counted, c, "counted_minor");
        await call("POST", `/evenings/${evening}/cash`,
          { body: { counted_minor: minor, currency: c } });
        return `The tin is counted: ${money(minor, c)}.`;
      }, draw);
  }

  draw().catch((failure) => body.replaceChildren(h("p", { class: "refusal", role: "alert" },
    sentence(failure))));
  return { redraw: draw, date };
}

/** A table's own tin (one that joined no evening's): counted after it ended, its shortage or
 * surplus booked (POST /sessions/<id>/cash, /cash-differences); the check is its
 * statement's `cash`, null until counted. `tables`: the ended tables offered. */
export function ownTinPanel(panel, { tables, members = [] }) {
  const ended = tables.filter((t) => t.ended_at);
  panel.replaceChildren(h("h3", { id: "own-tin-h" }, "A table's own tin"));
  if (!ended.length) {
    panel.append(h("p", { class: "muted" }, "No table has ended in the last three months."));
    return;
  }
  const table = h("select", { name: "session_id" }, ended.map((t) => h("option",
    { value: t.session_id }, `${t.name || "A table with no name"}, ended ${day(t.ended_at)}`)));
  const picker = h("form", { class: "row", "data-testid": "own-tin-table" },
    field("Table", table, "session_id"),
    h("button", { class: "btn", type: "submit" }, "Show its tin"));
  const body = h("div", { "data-testid": "own-tin" });
  picker.addEventListener("submit", (event) => { event.preventDefault(); draw(); });
  panel.append(picker, body);

  async function draw(note) {
    const sid = table.value;
    const name = table.selectedOptions[0].textContent.replace(/, ended .*$/, "");
    let st;
    try {
      st = (await call("GET", `/sessions/${sid}/statement`)).body;
    } catch (failure) {
      body.replaceChildren(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
      return;
    }
    const cur = st.currency;
    const m = (minor) => money(minor, cur);
    body.replaceChildren(note ? h("p", { class: "done", role: "status" }, note) : "");
    if (st.evening) {
      body.append(h("p", {}, `${name}'s cash is in the tin of the evening of ` +
        `${day(st.evening)}: count that tin above.`));
      return;
    }
    if (!cur) {
      body.append(h("p", { class: "muted" }, `${name} was played for counters: it has no tin.`));
      return;
    }
    body.append(st.cash ? h("dl", { class: "figures", "data-testid": "own-tin-check" },
      ...[["Float", "float_minor"], ["Left in the pools", "pools_minor"],
        ["Cash in", "cash_paid_in_minor"], ["Cash out", "cash_paid_out_minor"],
        ["Expected", "expected_minor"], ["Counted", "counted_minor"],
        ["Difference", "difference_minor"], ["Booked", "booked_minor"],
        ["Not yet booked", "unbooked_minor"]].flatMap(([words, key]) => [
        h("dt", {}, words), h("dd", { "data-figure": key }, m(st.cash[key]))]))
      : h("p", { class: "muted" }, `${name}'s tin is not counted yet.`));
    const counted = moneyInput("counted_minor");
    body.append(tinForm("own-count-form", `Count ${name}'s tin`,
      [field(`Counted (${cur})`, counted, "counted_minor", "Every note and coin in it now.")],
      "Record the count", async () => {
        const minor = minorOf(counted, cur, "counted_minor");
        await call("POST", `/sessions/${sid}/cash`,
          { body: { counted_minor: minor, currency: cur } });
        return `${name}'s tin is counted: ${money(minor, cur)}.`;
      }, draw));
    const left = st.cash ? st.cash.unbooked_minor : 0;
    if (!left) return;
    body.append(differenceForm("own-difference-form", `/sessions/${sid}/cash-differences`,
      left, cur, members, draw));
  }

  draw();
}
