// The tablet's state on the device: what the ledger last said (the snapshot), the entries
// waiting to be sent (the outbox), the choices under way on the screen, and the one render
// every module asks for (table.js registers it).

import { saved } from "./api.js";
import { apply, fromServer } from "./predict.js";

export const REFUSED_TEXT = {
  401: "This device's sign-in was refused (revoked or expired): sign in again. Entries not yet "
    + "saved stay on the device.",
};

export const state = {
  sid: null,
  who: saved.get("who"),
  snapshot: null, // {session, deal, offences}: the ledger's last word
  outbox: [],
  lastSettled: null,
  conflict: null, // {entry, base, theirs: [appends] | null}
  refused: null, // {entry, problem, status}
  offline: false,
  syncing: false,
  syncAgain: false, // sync() was called while a sync ran: run once more when it ends
  picks: { trump: null, faceUp: {} },
  penalty: null, // {player, offence, redeal}
  between: null, // {step, name, guest, after, members}: the dialog between deals (between.js)
  exchange: null, // {player, out: [cards], in: [cards]}: an exchange being entered
  flush: null, // {player, flushes: {player: [cards]}, pam}: flushes being entered
  civil: null, // {player, card}: the ace of trumps tapped as a lead, "Pam, be civil" asked
  mode: saved.get("mode", "quick"),
  fourColour: saved.get("fourColour", false),
  loginMessage: null,
  confirm: null, // {text, kind}: the line after the last entry
  lastEntry: null, // {label, device, mine, version}: what an undo of a saved entry removes
  menu: false,
  askSignOut: false,
  sessions: null, // the club's open sessions, to pick one
};

export const outboxName = () => `outbox.${state.sid}`;
export const snapshotName = () => `snapshot.${state.sid}`;
export const lastEntryName = () => `last-entry.${state.sid}`;

export function saveOutbox() { saved.set(outboxName(), state.outbox); }
export function saveSnapshot() { saved.set(snapshotName(), state.snapshot); }

export function model() {
  if (!state.snapshot || !state.snapshot.session) return null;
  let m = fromServer(state.snapshot.session, state.snapshot.deal);
  m.offences = state.snapshot.offences || [];
  m.session = state.snapshot.session;
  for (const entry of state.outbox) if (entry.kind === "event") m = apply(m, entry.body);
  return m;
}


let renderer = () => {};
/** Set the function that draws the whole screen (table.js). */
export function setRenderer(fn) { renderer = fn; }
/** Draw the screen again from the state. */
export function render() { renderer(); }
