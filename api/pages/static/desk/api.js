// The desk's side of the API of the same origin: the token its sign-in link gave (kept in
// this browser, apart from a tablet's), requests, the ledger's refusals shown beside the
// field they name, money in the currency's own units.

import { Failure, h } from "/table/static/api.js";

export { Failure, h };

const KEY = "lanterloo.desk.token";

export const desk = {
  token() {
    try { return localStorage.getItem(KEY); } catch { return null; }
  },
  keep(token) { localStorage.setItem(KEY, token); },
  forget() { localStorage.removeItem(KEY); },
};

// The desk's requests in flight, shown on the page as <html data-requests="n">: 0 once every
// answer asked for so far is read and drawn (a room draws in the same turn as its answer
// comes), so whoever watches the page (the browser tests) waits for it, not for a quiet
// network.
let inFlight = 0;

function inFlightNow(change) {
  inFlight += change;
  document.documentElement.dataset.requests = String(inFlight);
}

inFlightNow(0);

/** `work()`'s requests counted in flight until it settles. */
export async function counted(work) {
  inFlightNow(1);
  try {
    return await work();
  } finally {
    inFlightNow(-1);
  }
}

/** One request with the desk's token; resolves to {status, etag, body}; rejects with a
 * Failure carrying the problem+json the ledger sent. */
export function call(method, path, options = {}) {
  return counted(() => request(method, path, options));
}

async function request(method, path, { body, headers = {}, auth = true } = {}) {
  const sent = { Accept: "application/json", ...headers };
  if (auth && desk.token()) sent.Authorization = `Bearer ${desk.token()}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "DELETE" && !sent["Idempotency-Key"]) {
    sent["Idempotency-Key"] = newKey();
  }
  let response;
  try {
    response = await fetch(path, {
      method, headers: sent, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Failure(0, null);
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    const failure = new Failure(response.status, data);
    if (response.status === 401 && auth) window.dispatchEvent(new CustomEvent("desk:401"));
    throw failure;
  }
  return { status: response.status, etag: response.headers.get("ETag"), body: data };
}

export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `desk-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The refusal's place: the element of `form` whose data-field is the problem's `field` (or
 * its head: "players.2" is "players"), else the form's own. */
export function showRefusal(form, failure) {
  clearRefusals(form);
  const field = (failure.problem && failure.problem.field) || "";
  const head = field.split(".")[0];
  const place = form.querySelector(`[data-field="${CSS.escape(field)}"]`)
    || form.querySelector(`[data-field="${CSS.escape(head)}"]`)
    || form.querySelector("[data-field='*']") || form;
  const id = `refusal-${Math.random().toString(36).slice(2)}`;
  const note = h("p", { class: "refusal", role: "alert", id, "data-testid": "refusal",
    "data-rule": (failure.problem && failure.problem.rule) || "" }, sentence(failure));
  place.append(note);
  const input = place.querySelector("input, select");
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", id);
  }
  return note;
}

export function clearRefusals(form) {
  form.querySelectorAll(".refusal").forEach((el) => el.remove());
  form.querySelectorAll("[aria-invalid]").forEach((el) => {
    el.removeAttribute("aria-invalid");
    el.removeAttribute("aria-describedby");
  });
}

/** The ledger's own sentence (problem+json `detail`), or what happened to the connection. */
export function sentence(failure) {
  if (failure.status === 0) return "The desk cannot reach the ledger: check the connection and try again.";
  const p = failure.problem || {};
  return p.detail || p.title || `The ledger answered ${failure.status}.`;
}

/** Digits after the point in `currency` (GBP 2, JPY 0). */
export function decimals(currency) {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency })
      .resolvedOptions().maximumFractionDigits;
  } catch {
    return 2;
  }
}

/** "0.10" in GBP -> 10 minor units; null when it is no amount. */
export function toMinor(text, currency) {
  const places = decimals(currency);
  const match = /^\s*(\d+)(?:[.,](\d*))?\s*$/.exec(text || "");
  if (!match || (match[2] || "").length > places) return null;
  return Number(match[1]) * 10 ** places + Number((match[2] || "").padEnd(places, "0") || 0);
}

/** 150 minor units of GBP -> "1.50 GBP". */
export function money(minor, currency) {
  if (minor === null || minor === undefined) return "";
  if (!currency || currency === "units") return `${minor} units`;
  const places = decimals(currency);
  const sign = minor < 0 ? "-" : "";
  const whole = Math.abs(minor);
  const text = places ? `${Math.floor(whole / 10 ** places)}.${String(whole % 10 ** places)
    .padStart(places, "0")}` : String(whole);
  return `${sign}${text} ${currency}`;
}

/** A moment as people say it: "Sat 28 Nov 2026, 21:05". */
export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return d.toLocaleString("en-GB", { weekday: "short", day: "numeric", month: "short",
    year: "numeric", hour: "2-digit", minute: "2-digit" });
}

export function field(label, control, name, hint) {
  const id = `f-${name}-${Math.random().toString(36).slice(2, 8)}`;
  control.id = id;
  return h("div", { class: "field", "data-field": name },
    h("label", { for: id }, label), hint ? h("span", { class: "muted" }, hint) : null, control);
}
