// The API of the same origin, with the device's bearer token; what the device keeps.

const KEY = "lanterloo.";

export const saved = {
  get(name, fallback = null) {
    try {
      const raw = localStorage.getItem(KEY + name);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(name, value) {
    if (value === null || value === undefined) localStorage.removeItem(KEY + name);
    else localStorage.setItem(KEY + name, JSON.stringify(value));
  },
};

export const token = () => saved.get("token");

/** A refusal or failure: `status` 0 when the server could not be reached. */
export class Failure extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || (status ? `HTTP ${status}`
      : "no connection to the ledger"));
    this.status = status;
    this.problem = problem || {};
  }
}

/** One request; resolves to {status, etag, body}; rejects with a Failure. */
export async function request(method, path, { body, headers = {}, auth = true } = {}) {
  const sent = { Accept: "application/json", ...headers };
  if (auth && token()) sent.Authorization = `Bearer ${token()}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers: sent, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Failure(0, null);
  }
  const etag = response.headers.get("ETag");
  if (response.status === 304) return { status: 304, etag, body: null };
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : null;
  if (!response.ok) throw new Failure(response.status, data);
  return { status: response.status, etag, body: data };
}

/** A fresh Idempotency-Key for one entry. */
export function newKey() {
  if (crypto.randomUUID) return `tablet-${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `tablet-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The session id from the page's address (#s=<id>), else the one the device remembers. */
export function sessionFromAddress() {
  const match = /[#&?]s=([^&]+)/.exec(window.location.hash || window.location.search);
  return match ? decodeURIComponent(match[1]) : null;
}

/** A pairing code in the page's address (#pair=<code>, the treasurer's QR code): only ever in
 * the fragment, which the browser does not send to any server. */
export function pairingFromAddress() {
  const match = /[#&]pair=([^&]+)/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    // custom properties through the CSSOM: the pages' CSP allows no style attribute
    else if (name === "style") for (const [k, v] of Object.entries(value)) el.style.setProperty(k, v);
    else el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function registerServiceWorker() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/table/sw.js", { scope: "/table" }).catch(() => {});
  }
}
