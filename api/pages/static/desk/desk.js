// The club's desk (docs/desk.md): signing in with a link, then the rooms of the role it gave
// (a member's link opens his own page, a dealer's the tablet).
//
// A sign-in link is /desk#signin=<code>: the code is in the fragment, which no browser sends
// to a server; the page takes it out of the address at once, exchanges it (POST /signin) for
// a token it keeps in this browser, and shows the rooms. Every figure and every choice comes
// from the API; every refusal is the ledger's own sentence.

import { saved } from "/table/static/api.js";
import { call, desk, h, sentence } from "./api.js";
import { adminRoom } from "./admin.js";
import { afterPlayRoom } from "./afterplay.js";
import { auditRoom } from "./auditor.js";
import { eveningRoom } from "./evening.js";
import { monthEndRoom } from "./monthend.js";

const app = document.getElementById("app");

// The rooms, in the order of the navigation, and the roles that have each.
const ROOMS = [
  { id: "admin", title: "The admin's room", roles: ["admin"], render: adminRoom },
  { id: "evening", title: "The evening", roles: ["treasurer"], render: eveningRoom },
  { id: "after", title: "After play", roles: ["treasurer"], render: afterPlayRoom },
  { id: "month", title: "Month-end", roles: ["treasurer"], render: monthEndRoom },
  { id: "links", title: "Members' links", roles: ["treasurer"], render: adminRoom },
  { id: "audit", title: "The auditor's room", roles: ["auditor"], render: auditRoom },
];

let me = null;

function roomsFor(role) {
  return ROOMS.filter((room) => room.roles.includes(role));
}

function codeFromAddress() {
  const match = /[#&]signin=([^&]+)/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

function clearAddress(hash = "") {
  history.replaceState(null, "", `${window.location.pathname}${hash}`);
}

/** A page with no rooms: signing in, signed out, a link that signs nobody in. */
function notice(title, lines, { tone = "", testid = "notice" } = {}) {
  app.replaceChildren(h("main", { class: "signin", "data-testid": testid },
    h("h1", {}, title),
    ...lines.map((line) => h("p", { class: tone }, line))));
}

async function signIn(code) {
  clearAddress();  // the code leaves the address before anything else happens
  notice("Signing in…", ["One moment: the ledger is checking your link."]);
  try {
    const signed = await call("POST", "/signin", { body: { code }, auth: false });
    desk.keep(signed.body.token);
    return true;
  } catch (failure) {
    notice("This link does not sign you in", [
      sentence(failure),
      desk.token() ? "You are still signed in with the access you had: open the desk." : "",
    ].filter(Boolean), { tone: "refusal", testid: "signin-refused" });
    if (desk.token()) {
      app.querySelector("main").append(h("p", {}, h("a", { class: "btn primary",
        href: "/desk" }, "Open the desk")));
    }
    return false;
  }
}

function signedOut(reason) {
  desk.forget();
  me = null;
  const lines = reason === "revoked" ? [
    "Your access to the desk has ended: it was revoked, or it has expired.",
    "Ask your club's admin (or, for your own account, the treasurer) for a new sign-in link.",
  ] : [
    "You are signed out: this browser keeps no access to the club's desk.",
    "To come back, open a new sign-in link from your club's admin (or, for your own " +
      "account, the treasurer). A link works once, within 30 minutes.",
  ];
  notice(reason === "revoked" ? "Signed out" : "You are signed out", lines,
    { testid: "signed-out" });
}

async function signOut() {
  try {
    await call("POST", "/signout");
  } catch {
    // revoked or expired already: signing out here is all that is left to do
  }
  signedOut("asked");
}

window.addEventListener("desk:401", () => { if (me) signedOut("revoked"); });

function currentRoom() {
  const rooms = roomsFor(me.role);
  const wanted = window.location.hash.replace(/^#/, "");
  return rooms.find((room) => room.id === wanted) || rooms[0];
}

function shell() {
  const rooms = roomsFor(me.role);
  const room = currentRoom();
  const main = h("main", { class: "room", id: "room", "data-room": room ? room.id : "none",
    tabindex: "-1" });
  const nav = h("nav", { "aria-label": "Rooms" }, h("ul", { class: "nav" },
    rooms.map((r) => h("li", {}, h("a", {
      href: `#${r.id}`, "aria-current": r === room ? "page" : false,
    }, r.title)))));
  app.replaceChildren(
    h("header", { class: "top" },
      h("div", { class: "who" }, h("h1", {}, me.club),
        h("p", { "data-testid": "who" }, `${me.member}, ${me.role}`)),
      h("button", { class: "btn", type: "button", onclick: signOut }, "Sign out")),
    nav, main);
  if (!room) {
    main.append(h("h2", {}, "Nothing here for this role"),
      h("p", {}, `The desk has no room for a ${me.role}.`));
    return;
  }
  main.append(h("h2", {}, room.title));
  room.render(main, { me, room: room.id });
}

async function start() {
  const code = codeFromAddress();
  if (code && !(await signIn(code))) return;
  if (!desk.token()) {
    notice("The club's desk", [
      "Sign in with the link your club's admin gave you (or, for your own account, the " +
        "treasurer). A link works once, within 30 minutes.",
      "A new club's first link is printed by `lanterloo club create`.",
    ], { testid: "signed-out" });
    return;
  }
  try {
    me = (await call("GET", "/club")).body;
  } catch (failure) {
    if (failure.status === 401) { signedOut("revoked"); return; }
    notice("The desk cannot open", [sentence(failure)], { tone: "refusal" });
    return;
  }
  if (handedOver()) return;
  shell();
}

/** A member's link opens his own page, a dealer's the tablet: each page keeps its token. */
function handedOver() {
  const token = desk.token();
  if (me.role === "member") {
    desk.forget();
    window.location.replace(`/table/member#token=${encodeURIComponent(token)}`);
    return true;
  }
  if (me.role === "dealer") {
    desk.forget();
    saved.set("token", token);
    window.location.replace("/table");
    return true;
  }
  return false;
}

window.addEventListener("hashchange", () => {
  if (codeFromAddress()) { start(); return; }
  if (me) shell();
});

start();
