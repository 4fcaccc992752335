// What the treasurer's rooms share: a list read a page at a time from the API (its
// `next_after`), a file downloaded with the name the ledger gives it, the ended tables by
// name and date, a member's name for an id. Every figure is the API's.

import { call, counted, desk, Failure, h, sentence } from "./api.js";

export const PAGE = 10;  // the items of a list shown at a time

/** A list the API pages: `read(after)` resolves to {items, next_after}; each item drawn by
 * `draw(item)` into `list`; *Show more* reads the next page; a refusal goes to `refused`
 * if given. Resolves to the items read. */
export async function paged(place, { read, draw, empty, label, testid, refused }) {
  const list = h("ul", { class: "list", "data-testid": testid });
  const more = h("button", { class: "btn", type: "button", hidden: true },
    `Show more ${label}`);
  const status = h("p", { class: "muted", "aria-live": "polite" });
  const seen = [];
  let after = 0;
  async function next() {
    more.disabled = true;
    let page;
    try {
      page = await read(after);
    } catch (failure) {
      more.disabled = false;
      // beside the field the ledger names, when the caller has a form for it; else here
      if (refused) refused(failure);
      else status.replaceChildren(h("span", { class: "refusal", role: "alert" },
        sentence(failure)));
      return;
    }
    seen.push(...page.items);
    list.append(...page.items.map(draw));
    after = page.next_after;
    more.disabled = false;
    more.hidden = after === null || after === undefined;
    status.textContent = seen.length ? "" : empty;
  }
  more.addEventListener("click", next);
  place.append(list, status, more);
  await next();
  return seen;
}

/** GET `path` with the desk's token and save what it answers under the file name its
 * Content-Disposition gives. Resolves to that name. */
export async function download(path) {
  const [response, blob] = await counted(async () => {
    const answer = await fetch(path, { headers: { Authorization: `Bearer ${desk.token()}` },
      cache: "no-store" });
    if (!answer.ok) {
      const problem = await answer.json().catch(() => null);
      throw new Failure(answer.status, problem);
    }
    return [answer, await answer.blob()];
  });
  const disposition = response.headers.get("Content-Disposition") || "";
  const match = /filename="?([^";]+)"?/.exec(disposition);
  const name = match ? match[1] : path.split("/").pop().split("?")[0];
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return name;
}

/** A button that downloads `path` and says which file it saved. */
export function downloadButton(words, path) {
  const said = h("span", { class: "muted", "aria-live": "polite" });
  const button = h("button", { class: "btn", type: "button", onclick: async () => {
    said.replaceChildren();
    try {
      const name = await download(typeof path === "function" ? path() : path);
      said.replaceChildren(h("span", { "data-testid": "saved" }, `Saved ${name}`));
    } catch (failure) {
      said.replaceChildren(h("span", { class: "refusal", role: "alert" }, sentence(failure)));
    }
  } }, words);
  return h("li", {}, button, said);
}

/** The tables that ended at or after `since` (an ISO time), a page at a time, each with its
 * view: [{session_id, name, ended_at, view}], and where the next page starts. */
export async function endedTables(since, after = 0, limit = PAGE) {
  const query = new URLSearchParams({ type: "SessionEnded", after: String(after),
    limit: String(limit) });
  if (since) query.set("since", since);
  const page = (await call("GET", `/audit/events?${query}`)).body;
  const ends = page.events.filter((e) => e.live);
  const views = await Promise.all(ends.map((e) => call("GET", `/sessions/${e.session_id}`)));
  return {
    items: ends.map((e, i) => ({ session_id: e.session_id, name: views[i].body.name,
      ended_at: e.recorded_at, view: views[i].body })),
    next_after: page.next_after,
  };
}

/** A link to an ended table's statement page (/table/statement#s=<id>, which reads it with
 * the desk's token), named by the table's name. */
export function statementLink(t) {
  const name = t.name || "the table with no name";
  return h("a", { class: "btn small", href: `/table/statement#s=${encodeURIComponent(t.session_id)}`,
    "data-testid": "statement-link" }, `Statement of ${name}`);
}

/** Today's date where the desk is, YYYY-MM-DD: the evening's date as the treasurer says it. */
export function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-` +
    `${String(d.getDate()).padStart(2, "0")}`;
}

/** The start of a day (YYYY-MM-DD) where the desk is, as an ISO time with its offset. */
export function dayStart(date) {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(y, m - 1, d).toISOString();
}

/** A date as people say it: "Sat 28 Nov 2026". */
export function day(iso) {
  if (!iso) return "";
  const d = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00`) : new Date(iso);
  return d.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short",
    year: "numeric" });
}

/** Amounts per currency ({GBP: 40}) as "0.40 GBP, 5 JPY". */
export function amounts(byCurrency, money) {
  const parts = Object.entries(byCurrency || {}).map(([c, v]) => money(v, c));
  return parts.length ? parts.join(", ") : "nothing";
}
