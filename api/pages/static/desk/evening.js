// The evening (the treasurer's): the club's open tables by name, a table opened under the
// laws of a source, a tablet paired for a named dealer, a table ended as the laws allow now.
// And the auditor's room: the open tables, each verified with a clear verdict.
//
// What is offered is what the ledger says is allowed: the endings are the session's
// `expected` SessionEnded methods; a refusal is shown beside the field it names.

import {
  call, clearRefusals, field, h, money, sentence, showRefusal, toMinor, when,
} from "./api.js";
import { endedTables, dayStart, statementLink } from "./lists.js";
import { endedPanel, tinPanel } from "./tins.js";

// The presets by their source's name (docs/rules.md §3).
const LAWS = [
  ["baxter-wray", "Baxter-Wray, Round Games with Cards"],
  ["blenheim", "The Blenheim Club (Britannica)"],
  ["enquire-within", "Enquire Within"],
  ["cassell", "Cassell's Book of In-door Amusements"],
];
// docs/rules.md, "Ending a session"
const ENDINGS = {
  "single": "The usual end, after a hand nobody was looed in: what is carried is divided equally",
  "divide-pool": "Divide the pool: everything owed to the next pool is divided equally",
  "release-last-loos": "Release the last loos: those looed in the last deal are paid back, " +
    "the rest is divided equally",
};

async function openTables() {
  return (await call("GET", "/club/sessions")).body.sessions;
}

export async function eveningRoom(main, { me }) {
  const tables = h("section", { class: "panel", "aria-label": "Open tables" });
  const opener = h("section", { class: "panel", "aria-label": "Open a table" });
  main.append(h("div", { class: "columns" }, tables, opener));
  let members = [];
  let currency = "GBP";
  let tin = null;  // the evening's tin: drawn again when a table opens or ends

  async function drawTables(note) {
    let list;
    try {
      list = await openTables();
    } catch (failure) {
      tables.replaceChildren(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
      return;
    }
    tables.replaceChildren(h("h3", { id: "tables-h" }, `Open tables (${list.length})`),
      note || "",
      list.length ? h("ul", { class: "list", "data-testid": "tables" }, list.map((s) =>
        h("li", { "data-table": s.name },
          h("span", { class: "grow" }, h("strong", {}, s.name || "A table with no name"),
            h("br", {}), h("span", { class: "muted" },
              `deal ${s.deal_no}, last entry ${when(s.updated_at)}`)),
          h("button", { class: "btn", type: "button", "aria-expanded": "false",
            onclick: (event) => toggleTable(event.currentTarget, s) }, "Tablets and end"))))
        : h("p", { class: "muted" }, "No table is open. Open one here."));
    if (tin) await tin.redraw();
  }

  async function toggleTable(button, summary) {
    const item = button.closest("li");
    const open = item.querySelector(".table-detail");
    if (open) {
      open.remove();
      button.setAttribute("aria-expanded", "false");
      return;
    }
    button.setAttribute("aria-expanded", "true");
    const detail = h("div", { class: "table-detail grow", "data-testid": "table-detail" });
    item.append(detail);
    await drawDetail(detail, summary);
  }

  async function drawDetail(detail, summary) {
    let view;
    try {
      view = (await call("GET", `/sessions/${summary.session_id}`)).body;
    } catch (failure) {
      detail.replaceChildren(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
      return;
    }
    const stake = view.money_per_unit_minor
      ? `one ${view.unit} is ${money(view.money_per_unit_minor, view.currency)}`
      : `played for ${view.unit}s`;
    detail.replaceChildren(
      h("p", {}, `${view.seats.join(", ")}; ${stake}; next to deal: ${view.next_dealer || "—"}.`),
      h("p", { "data-testid": "pools" }, `Left in the pools: ${view.pool_units} in the pool, ` +
        `${view.next_pool_units} for the next (${view.unit}s).`),
      pairForm(view), endForm(view, detail, summary));
  }

  function pairForm(view) {
    const dealer = h("select", { name: "member" },
      view.seats.filter((seat) => view.members[seat]).map((seat) =>
        h("option", { value: view.members[seat], selected: seat === view.next_dealer }, seat)));
    const out = h("div", { "aria-live": "polite", "data-testid": "pairing" });
    const form = h("form", { "data-testid": "pair-form" },
      h("h4", {}, "Pair a tablet"),
      field("For the dealer", dealer, "member",
        "The tablet logs as this person: the log names who dealt."),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn primary", type: "submit" }, "Show a pairing code")), out);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      out.replaceChildren();
      try {
        const code = (await call("POST", `/sessions/${view.session_id}/pairing-codes`,
          { body: { member: dealer.value } })).body;
        out.append(h("div", { class: "done" },
          h("p", {}, `On the tablet, open ${window.location.origin}/table and type this code ` +
            `for ${code.member}, or scan it. It works once, until ${when(code.expires_at)}.`),
          h("p", { class: "code", "data-testid": "pairing-code" }, code.code),
          h("img", { class: "qr", src: code.qr_svg,
            alt: `QR code that pairs a tablet for ${code.member}` })));
      } catch (failure) {
        showRefusal(form, failure);
      }
    });
    return form;
  }

  function endForm(view, detail, summary) {
    const allowed = (view.expected.actions || []).find((a) => a.type === "SessionEnded");
    if (!allowed || !(allowed.methods || []).length) {
      return h("div", {}, h("h4", {}, "End the table"),
        h("p", { class: "muted" }, "The laws allow no end now: a table ends between deals."));
    }
    const choices = allowed.methods.map((method, i) => h("label", { class: "check end-choice" },
      h("input", { type: "radio", name: "method", value: method, checked: i === 0 }),
      ENDINGS[method] || method));
    const form = h("form", { "data-testid": "end-form" },
      h("fieldset", { "data-field": "method" }, h("legend", {}, "End the table"), ...choices),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn primary", type: "submit" }, `End ${view.name || "the table"}`)));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      const method = form.querySelector("input[name=method]:checked").value;
      try {
        await call("POST", `/sessions/${view.session_id}/events`, {
          body: { type: "SessionEnded", method }, headers: { "If-Match": `"${view.version}"` },
        });
        await drawTables(h("div", { class: "row" }, h("p", { class: "done", role: "status" },
          `${view.name || "The table"} has ended: its statement is ready.`),
        statementLink(view)));
      } catch (failure) {
        showRefusal(form, failure);
        if (failure.status === 409) await drawDetail(detail, summary);
      }
    });
    return form;
  }

  function drawOpener() {
    const name = h("input", { type: "text", name: "name", maxlength: "200", autocomplete: "off" });
    const laws = h("select", { name: "preset" },
      LAWS.map(([value, words]) => h("option", { value }, words)));
    const stake = h("input", { type: "text", name: "stake", inputmode: "decimal",
      autocomplete: "off", placeholder: "0.10" });
    const cur = h("input", { type: "text", name: "currency", value: currency, maxlength: "3",
      autocomplete: "off" });
    const seated = [];  // names in seat order
    const seats = h("ol", { class: "chips", "data-testid": "seats", "aria-live": "polite" });
    const first = h("select", { name: "first_dealer" });
    const guestName = h("input", { type: "text", name: "guest", maxlength: "40",
      autocomplete: "off" });
    const guests = new Set();

    function drawSeats() {
      seats.replaceChildren(...seated.map((player) => h("li", {},
        h("button", { class: "btn small", type: "button", "aria-label": `Unseat ${player}`,
          onclick: () => { seated.splice(seated.indexOf(player), 1); guests.delete(player);
            sync(); } }, `${seated.indexOf(player) + 1}. ${player}${guests.has(player)
          ? " (guest)" : ""} ✕`))));
      const chosen = first.value;
      first.replaceChildren(...seated.map((p) => h("option", { value: p }, p)));
      if (seated.includes(chosen)) first.value = chosen;
    }
    const memberBoxes = h("div", { class: "row", "data-field": "players" });
    function sync() {
      memberBoxes.querySelectorAll("input").forEach((box) => {
        box.checked = seated.includes(box.value);
      });
      drawSeats();
    }
    members.filter((m) => !m.guest).forEach((m) => {
      const box = h("input", { type: "checkbox", value: m.name });
      box.addEventListener("change", () => {
        if (box.checked && !seated.includes(m.name)) seated.push(m.name);
        if (!box.checked && seated.includes(m.name)) seated.splice(seated.indexOf(m.name), 1);
        drawSeats();
      });
      memberBoxes.append(h("label", { class: "check" }, box, m.name));
    });
    const addGuest = h("button", { class: "btn", type: "button" }, "Seat the guest");
    addGuest.addEventListener("click", () => {
      const typed = guestName.value.trim();
      if (!typed || seated.includes(typed)) return;
      const known = members.find((m) => m.name.toLowerCase() === typed.toLowerCase());
      if (!known || known.guest) guests.add(known ? known.name : typed);
      seated.push(known ? known.name : typed);
      guestName.value = "";
      sync();
    });
    const form = h("form", { "data-testid": "open-table" },
      field("Name of the table", name, "name", "e.g. Thursday, first table"),
      field("Laws", laws, "preset"),
      h("div", { class: "row" }, field("One counter is worth", stake, "money_per_unit_minor"),
        field("Currency", cur, "currency")),
      h("fieldset", { "data-field": "players" }, h("legend", {}, "Players, in seat order"),
        memberBoxes,
        h("div", { class: "row", "data-field": "guests" },
          field("A guest's name", guestName, "guest"), addGuest),
        h("p", { class: "muted", id: "seats-h" }, "Seated:"), seats),
      field("First dealer", first, "first_dealer"),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn primary", type: "submit" }, "Open the table")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      const code = cur.value.trim().toUpperCase();
      const minor = stake.value.trim() ? toMinor(stake.value, code) : null;
      if (stake.value.trim() && minor === null) {
        showRefusal(form, { status: 422, problem: { field: "money_per_unit_minor",
          detail: `Write the stake as an amount of ${code}, e.g. 0.10.` } });
        return;
      }
      const body = { name: name.value.trim(), preset: laws.value, players: [...seated],
        guests: [...guests].filter((g) => seated.includes(g)),
        first_dealer: first.value || null };
      if (minor !== null) Object.assign(body, { money_per_unit_minor: minor, currency: code });
      try {
        await call("POST", "/sessions", { body });
        const opened = body.name || "The table";
        seated.splice(0);
        guests.clear();
        name.value = "";
        sync();
        members = (await call("GET", "/members")).body.members;
        await drawTables(h("p", { class: "done", role: "status" }, `${opened} is open.`));
      } catch (failure) {
        showRefusal(form, failure);
      }
    });
    opener.replaceChildren(h("h3", { id: "open-h" }, "Open a table"), form);
  }

  try {
    const [m, c] = await Promise.all([call("GET", "/members"), call("GET", "/club/currencies")]);
    members = m.body.members;
    currency = c.body.currency && c.body.currency !== "units" ? c.body.currency : "GBP";
  } catch (failure) {
    main.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }
  drawOpener();
  await drawTables();
  tin = drawTin(main, members);
}

/** The evening's tin and the tables ended since the evening began (./tins.js); the tin's
 * handle, to draw it again. */
function drawTin(main, members) {
  const tin = h("section", { class: "panel", "aria-label": "The evening's tin" });
  const ended = h("section", { class: "panel", "aria-label": "Ended tables" });
  main.append(h("div", { class: "columns" }, tin, ended));
  return tinPanel(tin, {
    mode: "evening", members,
    // the tables a tin may take: the open ones and those ended since the evening began
    tables: async (evening) => [
      ...(await openTables()),
      ...(await endedTables(dayStart(evening), 0, 100)).items,
    ],
    onDraw: (evening) => { endedPanel(ended, evening); },
  });
}
