// Signing the tablet in: a pairing code (typed, or from a QR code), or a dealer token; signing
// out; choosing the session. The caller starts the tablet once a sign-in succeeds.

import { request, saved } from "./api.js";
import { REFUSED_TEXT, lastEntryName, outboxName, render, snapshotName, state } from "./state.js";

export async function adoptSignIn(tokenValue) {
  saved.set("token", tokenValue);
  const who = await request("GET", "/club");
  state.who = who.body;
  saved.set("who", who.body);
}

/** Sign in with a dealer token (and open `sid`, when given): true when it was accepted. */
export async function signInWithToken(raw, sid) {
  try {
    await adoptSignIn(raw.trim());
  } catch (failure) {
    saved.set("token", null);
    state.loginMessage = failure.status === 401
      ? "That token was refused: use a pairing code from the treasurer's screen, or a dealer "
        + "token the club issued."
      : "No connection to the ledger: try again.";
    render();
    return false;
  }
  state.loginMessage = null;
  if (sid && sid.trim()) openSession(sid.trim());
  return true;
}

/** Sign in with a pairing code: true when the ledger gave a token for it. */
export async function pairWith(code) {
  state.loginMessage = "Signing in…";
  render();
  try {
    const paired = await request("POST", "/pairing", { body: { code }, auth: false });
    await adoptSignIn(paired.body.token);
    state.loginMessage = null;
    openSession(paired.body.session_id);
    if (window.location.hash.includes("pair=")) {
      // the code is spent; the address keeps only the session
      window.history.replaceState(null, "", `/table#s=${encodeURIComponent(state.sid)}`);
    }
  } catch (failure) {
    saved.set("token", null);
    state.loginMessage = failure.status === 0 ? "No connection to the ledger: try again."
      : (failure.problem && failure.problem.detail) || "That code was refused.";
    render();
    return false;
  }
  return true;
}

export function signOut(message) {
  saved.set("token", null);
  saved.set("who", null);
  state.who = null;
  state.loginMessage = message;
  state.askSignOut = false;
  state.menu = false;
  state.sessions = null;
  render();
}

export function openSession(sid) {
  state.sid = sid;
  saved.set("session", sid);
  state.outbox = saved.get(outboxName(), []);
  state.snapshot = saved.get(snapshotName(), null);
  state.lastEntry = saved.get(lastEntryName(), null);
  state.conflict = null;
  state.refused = null;
  state.confirm = null;
  state.between = null; // the dialog between deals was another session's
}

export async function loadSessions() {
  try {
    state.sessions = (await request("GET", "/club/sessions")).body.sessions;
  } catch (failure) {
    if (failure.status === 401) return signOut(REFUSED_TEXT[401]);
    state.sessions = [];
    state.loginMessage = "No connection to the ledger: the sessions could not be listed.";
  }
  render();
}
