// Talking to the ledger: the session read (polled, with If-None-Match), and the outbox.
//
// Every tap that logs something becomes an entry saved on the device first (its own
// Idempotency-Key), then sent in order, each with If-Match: the version the ledger gave for the
// entry before it. A 409 on the version opens the conflict; any other refusal the refused
// dialog, in the ledger's words; no connection keeps the entries and tries again.

import { Failure, newKey, request, saved, token } from "./api.js";
import { describeAppend, describeEvent, whoLogged } from "./words.js";
import { REFUSED_TEXT, lastEntryName, render, saveOutbox, saveSnapshot, state } from "./state.js";
import { signOut } from "./signin.js";

const RETRY_MS = 2000;
const POLL_MS = 2000;

export async function refresh({ full = false } = {}) {
  const headers = {};
  const known = state.snapshot && state.snapshot.session;
  if (known && !full) headers["If-None-Match"] = `"${known.version}"`;
  const got = await request("GET", `/sessions/${encodeURIComponent(state.sid)}`, { headers });
  if (got.status === 304) return false;
  await adopt(got.body);
  return true;
}

export async function adopt(session) {
  const sid = encodeURIComponent(state.sid);
  let deal = null;
  if (session.deal) deal = (await request("GET", `/sessions/${sid}/deals/${session.deal_no}`)).body;
  // The offence table's amounts follow the pool as it stood when play began: read again when
  // the deal or its phase changes (and when the penalty dialog opens), not at every entry.
  const known = state.snapshot;
  let offences = known ? known.offences : [];
  const phase = (d) => (d ? `${d.deal_no}:${d.phase}:${d.pool_at_play_units}` : "none");
  if (!known || !known.offences || !known.offences.length || phase(known.deal) !== phase(deal)) {
    offences = await readOffences(offences);
  }
  if (deal && deal.settlement) state.lastSettled = deal;
  state.snapshot = { session, deal, offences };
  saveSnapshot();
  if (!state.lastEntry || state.lastEntry.version !== session.version) learnLastEntry(session);
}

export async function readOffences(fallback) {
  try {
    return (await request("GET", `/sessions/${encodeURIComponent(state.sid)}/offences`))
      .body.offences;
  } catch (failure) {
    if (failure.status === 0) throw failure;
    return fallback;
  }
}

/** Open the penalty dialog, with the amounts as the ledger says them now. */
export async function openPenalty() {
  state.penalty = {};
  render();
  if (!state.snapshot || state.outbox.length) return;
  try {
    const offences = await readOffences(state.snapshot.offences);
    state.snapshot = { ...state.snapshot, offences };
    saveSnapshot();
    render();
  } catch { /* the amounts last read stay */ }
}

/** What an undo would now remove, when this device did not log the last entry itself: the
 * last append still standing, with the device it came from (GET /sessions/<id>/entries). */
export async function learnLastEntry(session) {
  const version = session.version;
  try {
    const got = await request("GET", `/sessions/${encodeURIComponent(state.sid)}/entries`
      + `?after=${Math.max(0, version - 60)}`);
    const live = got.body.entries.filter((a) => a.superseded_by === null
      && a.events[0].type !== "EntryCorrected" && a.events[0].type !== "SessionOpened");
    const last = live[live.length - 1];
    state.lastEntry = last ? {
      label: describeAppend(last), device: whoLogged(last, state.who && state.who.token_id),
      mine: Boolean(state.who && last.token_id === state.who.token_id), version,
    } : { label: null, version };
    saved.set(lastEntryName(), state.lastEntry);
    render();
  } catch { /* the undo button then names no entry */ }
}

let retryTimer = null;
export function retryLater() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => sync(), RETRY_MS);
}

export async function sync() {
  if (state.syncing) {
    // An entry logged while a sync is between its last POST and its refresh would find no
    // sync to send it (and the poll waits for an empty outbox): the running one goes again.
    state.syncAgain = true;
    return;
  }
  if (!state.sid || !token()) return;
  state.syncing = true;
  state.syncAgain = false;
  try {
    if (!state.snapshot || !state.snapshot.session) await refresh({ full: true });
    while (state.outbox.length && !state.conflict && !state.refused) {
      const entry = state.outbox[0];
      const sid = encodeURIComponent(state.sid);
      const base = state.snapshot.session.version;
      const headers = { "If-Match": `"${base}"`, "Idempotency-Key": entry.key };
      let result;
      try {
        const path = entry.kind === "undo" ? "undo" : "events";
        result = await request("POST", `/sessions/${sid}/${path}`, { body: entry.body, headers });
      } catch (failure) {
        if (failure.status === 0 || failure.status >= 500) throw failure;
        if (failure.status === 401) return signOut(REFUSED_TEXT[401]);
        if (failure.status === 409 && failure.problem.rule === "expected-version") {
          await startConflict(entry, base);
        } else {
          state.refused = { entry, problem: failure.problem, status: failure.status };
        }
        break;
      }
      // The entry leaves the outbox only once the ledger's new state is on the device: if
      // the connection drops in between, it is sent again with the same key and If-Match,
      // and the ledger answers with its first response (appending nothing twice).
      const version = result.body.session.version;
      if (entry.kind === "undo") {
        const corrected = (result.body.appended || []).find((e) => e.type === "EntryCorrected");
        state.lastEntry = null;
        saved.set(lastEntryName(), null);
        state.confirm = { text: `Undone: ${corrected
          ? describeEvent("EntryCorrected", corrected.payload).replace(/^undo of /, "") : "the last entry"}`,
        kind: "ok" };
      } else {
        state.lastEntry = { label: entry.label, device: "This tablet", mine: true, version };
        saved.set(lastEntryName(), state.lastEntry);
      }
      await adopt(result.body.session);
      state.outbox.shift();
      saveOutbox();
      state.offline = false;
      render();
    }
    if (!state.outbox.length) await refresh();
    state.offline = false;
  } catch (failure) {
    if (failure instanceof Failure && failure.status === 401) return signOut(REFUSED_TEXT[401]);
    state.offline = true;
    retryLater();
  } finally {
    state.syncing = false;
    render();
    if (state.syncAgain && !state.offline) sync();
  }
}

/** Another device logged first: read what it logged, so the dealer can choose. */
export async function startConflict(entry, base) {
  state.conflict = { entry, base, theirs: null };
  render();
  try {
    await refresh({ full: true });
    const got = await request("GET", `/sessions/${encodeURIComponent(state.sid)}/entries`
      + `?after=${base}`);
    state.conflict.theirs = got.body.entries.filter((a) => a.superseded_by === null);
  } catch {
    state.conflict.theirs = [];
  }
}

export function log(body, what) {
  logMany([[body, what]]);
}

/** Log entries, one after another (the shortcut logs several with one tap). */
export function logMany(items) {
  for (const [body, what] of items) {
    state.outbox.push({ key: newKey(), kind: "event", body, label: what });
  }
  saveOutbox();
  state.confirm = { text: `${items.map(([, what]) => what).join(", ")} logged`, kind: "ok" };
  state.picks = { trump: null, faceUp: {} };
  state.penalty = null;
  state.exchange = null;
  state.flush = null;
  state.civil = null;
  render();
  sync();
}

export function undo() {
  if (state.outbox.length) {
    const dropped = state.outbox.pop();
    saveOutbox();
    state.refused = null;
    state.confirm = { text: `Undone: ${dropped.label} (it had not been sent)`, kind: "ok" };
    render();
    return;
  }
  const target = state.lastEntry && state.lastEntry.label;
  state.outbox.push({ key: newKey(), kind: "undo", body: { reason: "undone at the table" },
    label: target ? `undo ${target}` : "undo the last entry" });
  saveOutbox();
  state.confirm = { text: `Undoing ${target || "the last entry"}…`, kind: "warn" };
  render();
  sync();
}

export async function resolveConflict(choice) {
  if (choice === "drop") state.outbox = [];
  else if (choice === "theirs") state.outbox = state.outbox.slice(1);
  // sent again on top of theirs: new keys, so the ledger decides them anew
  state.outbox = state.outbox.map((e) => ({ ...e, key: newKey() }));
  saveOutbox();
  state.conflict = null;
  state.confirm = { text: { drop: "Kept theirs; mine dropped", theirs: "Kept theirs",
    after: "Sending mine after theirs" }[choice], kind: "ok" };
  try {
    await refresh({ full: true });
  } catch { state.offline = true; }
  render();
  sync();
}

let pollTimer = null;
export async function poll() {
  clearTimeout(pollTimer);
  if (state.sid && token() && !state.outbox.length && !state.syncing && !state.conflict) {
    try {
      if (await refresh()) render();
      if (state.offline) { state.offline = false; render(); }
    } catch (failure) {
      if (failure.status === 401) signOut(REFUSED_TEXT[401]);
      else if (!state.offline) { state.offline = true; render(); }
    }
  }
  pollTimer = setTimeout(poll, POLL_MS);
}

export async function start() {
  render();
  if (!state.sid || !token()) return;
  await sync();
  poll();
}
