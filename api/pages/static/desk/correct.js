// A late correction of an ended table (docs/books.md, "Corrections that keep the past";
// docs/api.md, "Corrections"): the treasurer finds the entry by the table, the deal and the
// trick, says what it should have said and why; the ledger voids that entry, puts the new
// one in its place and decides the rest of the table again, or refuses the whole correction
// naming the first entry that no longer fits. Nothing is edited: the correction is an entry.

import {
  call, clearRefusals, field, h, money, sentence, showRefusal,
} from "./api.js";
import { day, endedTables } from "./lists.js";

const DAYS_LISTED = 92;  // the tables offered: those ended in the last three months
const DECLARATIONS = {
  play: "plays", throw_up: "throws up", take_miss: "takes the miss",
  play_miss_for_pool: "plays the miss for the pool",
};

async function liveLog(sessionId) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = (await call("GET", `/sessions/${sessionId}/events?after=${after}&limit=1000`))
      .body;
    events.push(...page.events);
    if (page.next_after === null || page.next_after === undefined) break;
    after = page.next_after;
  }
  return events.filter((e) => e.superseded_by === null || e.superseded_by === undefined);
}

/** The entry in words: "Dan took trick 2", "Ann played the 9H". */
function words(e) {
  const p = e.payload;
  switch (e.type) {
    case "DealStarted":
      return `${p.dealer} dealt, the trump card the ${p.trump_card}` +
        (Object.keys(p.face_up || {}).length ? `; face up: ${Object.entries(p.face_up)
          .map(([who, card]) => `${who} ${card}`).join(", ")}` : "");
    case "DeclarationMade": return `${p.player} ${DECLARATIONS[p.declaration] || p.declaration}`;
    case "CardPlayed": return `${p.player} played the ${p.card}`;
    case "TrickWon": return `${p.winner} took trick ${p.trick}`;
    default: return e.type;
  }
}

/** Where an entry is in its deal: "the deal", "the declarations" or "trick n". */
function placeOf(e) {
  if (e.type === "DealStarted") return "deal";
  if (e.type === "DeclarationMade") return "declarations";
  if (e.type === "CardPlayed" || e.type === "TrickWon") return `trick ${e.payload.trick}`;
  return null;
}

export async function correctionPanel(panel, { done = async () => {} } = {}) {
  panel.replaceChildren(h("h3", { id: "correct-h" }, "Correct an ended table"),
    h("p", { class: "muted" }, "Find the entry by its deal and trick and say what it should " +
      "have said: the ledger decides the table again from there, and each member's account " +
      "shows the difference on the day of the correction."));
  const since = new Date(Date.now() - DAYS_LISTED * 86400000).toISOString();
  let tables;
  try {
    tables = (await endedTables(since, 0, 200)).items.reverse();
  } catch (failure) {
    panel.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }
  if (!tables.length) {
    panel.append(h("p", { class: "muted" }, "No table has ended in the last three months."));
    return;
  }
  const table = h("select", { name: "session_id" }, tables.map((t) => h("option",
    { value: t.session_id }, `${t.name || "A table with no name"}, ended ${day(t.ended_at)}`)));
  const deal = h("select", { name: "deal_no" });
  const place = h("select", { name: "trick" });
  const entries = h("div", { "data-testid": "entries" });
  const out = h("div", { "aria-live": "polite" });
  const finder = h("form", { "data-testid": "find-entry" },
    field("Table", table, "session_id"),
    h("div", { class: "row" }, field("Deal", deal, "deal_no"), field("Where", place, "trick")));
  panel.append(finder, entries, out);
  let log = [];

  async function loadTable() {
    entries.replaceChildren();
    try {
      log = await liveLog(table.value);
    } catch (failure) {
      showRefusal(finder, failure);
      return;
    }
    const deals = [...new Set(log.filter((e) => e.type === "DealStarted")
      .map((e) => e.payload.deal_no))];
    const kept = deal.value;
    deal.replaceChildren(...deals.map((n) => h("option", { value: String(n) }, `Deal ${n}`)));
    if (deals.map(String).includes(kept)) deal.value = kept;  // the deal just corrected
    loadDeal();
  }

  function loadDeal() {
    const n = Number(deal.value);
    const places = [...new Set(log.filter((e) => e.payload && e.payload.deal_no === n)
      .map(placeOf).filter(Boolean))];
    const named = { deal: "The deal: trump and cards dealt", declarations: "The declarations" };
    const kept = place.value;
    place.replaceChildren(...places.map((p) => h("option", { value: p },
      named[p] || p.replace("trick", "Trick"))));
    if (places.includes(kept)) place.value = kept;
    showEntries();
  }

  function showEntries() {
    const n = Number(deal.value);
    const found = log.filter((e) => e.payload && e.payload.deal_no === n
      && placeOf(e) === place.value);
    entries.replaceChildren(h("ul", { class: "list" }, found.map((e) =>
      h("li", { "data-version": String(e.version) },
        h("span", { class: "grow" }, words(e)),
        h("button", { class: "btn small", type: "button",
          "aria-label": `Correct: ${words(e)}`,
          onclick: () => correctForm(e) }, "Correct…")))));
  }

  function correctForm(e) {
    out.replaceChildren();
    const p = e.payload;
    const view = tables.find((t) => t.session_id === table.value).view;
    const inputs = [];
    let replacement;
    if (e.type === "TrickWon") {
      const winner = h("select", { name: "winner" }, view.seats.map((s) =>
        h("option", { value: s, selected: s === p.winner }, s)));
      inputs.push(field(`Who took trick ${p.trick}`, winner, "replacements"));
      replacement = () => ({ type: "TrickWon", winner: winner.value });
    } else if (e.type === "CardPlayed") {
      const card = h("input", { type: "text", name: "card", value: p.card, maxlength: "4",
        autocomplete: "off" });
      inputs.push(field(`The card ${p.player} played`, card, "replacements"));
      replacement = () => ({ type: "CardPlayed", player: p.player, card: card.value.trim() });
    } else if (e.type === "DeclarationMade") {
      const said = h("select", { name: "declaration" }, Object.entries(DECLARATIONS).map(
        ([v, w]) => h("option", { value: v, selected: v === p.declaration }, w)));
      inputs.push(field(`What ${p.player} declared`, said, "replacements"));
      replacement = () => ({ type: "DeclarationMade", player: p.player,
        declaration: said.value });
    } else {
      const trump = h("input", { type: "text", name: "trump_card", value: p.trump_card,
        maxlength: "4", autocomplete: "off" });
      const faces = Object.entries(p.face_up || {}).map(([who, card]) => [who,
        h("input", { type: "text", name: `face_up.${who}`, value: card, maxlength: "4",
          autocomplete: "off" })]);
      inputs.push(field("The trump card", trump, "replacements"),
        ...faces.map(([who, input]) => field(`Dealt face up to ${who}`, input,
          `replacements.0.face_up.${who}`)));
      replacement = () => {
        const event = { type: "DealStarted", trump_card: trump.value.trim(), dealer: p.dealer };
        if (faces.length) {
          event.face_up = Object.fromEntries(faces.map(([who, input]) => [who,
            input.value.trim()]));
        }
        return event;
      };
    }
    const reason = h("input", { type: "text", name: "reason", maxlength: "200",
      autocomplete: "off" });
    const name = tables.find((t) => t.session_id === table.value).name;
    const form = h("form", { "data-testid": "correction" },
      h("h4", {}, `${name}, deal ${deal.value}, ${place.selectedOptions[0].textContent
        .toLowerCase()}: ${words(e)}`),
      h("fieldset", { "data-field": "replacements" }, h("legend", {}, "What it should say"),
        ...inputs),
      field("Why", reason, "reason"),
      h("div", { class: "row", "data-field": "*" }, h("button", { class: "btn primary",
        type: "submit" }, "Correct the entry")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      try {
        const now = (await call("GET", `/sessions/${table.value}`)).body;
        const answer = (await call("POST", `/sessions/${table.value}/corrections`, {
          body: { voids: [e.version], replacements: [replacement()], reason: reason.value },
          headers: { "If-Match": `"${now.version}"` } })).body;
        const marker = (answer.appended || []).find((a) => a.type === "EntryCorrected");
        const statement = (await call("GET", `/sessions/${table.value}/statement`)).body;
        const nets = statement.players.map((line) => `${line.player} ` +
          (line.net_money_minor === null ? `${line.net_units} ${statement.unit}s`
            : money(line.net_money_minor, statement.currency)));
        out.replaceChildren(h("p", { class: "done", role: "status" },
          `${name} is corrected (version ${marker ? marker.version : answer.version}): deal ${deal.value}, ` +
          `"${words(e)}" no longer counts. The table now reads: ${nets.join(", ")}.`));
        await Promise.all([loadTable(), done()]);
      } catch (failure) {
        showRefusal(form, failure);
      }
    });
    out.append(form);
    form.querySelector("select, input").focus();
  }

  table.addEventListener("change", loadTable);
  deal.addEventListener("change", loadDeal);
  place.addEventListener("change", showEntries);
  await loadTable();
}
