// The admin's room: the club's members (added, renamed, a guest made a member, retired), who
// holds access and since when, sign-in links to give a person a role, the club's currencies
// and the checkpoint key. The treasurer's "Members' links" is the same room with what his
// role may do: member links only, no members changed, no other access listed.
//
// Nothing here decides a rule: the ledger refuses (a name taken, a member still seated or
// owing, a currency listed twice) and its sentence is shown beside the field it names.

import { call, clearRefusals, field, h, sentence, showRefusal, when } from "./api.js";

const ROLE_WORDS = {
  admin: "admin: members and access",
  treasurer: "treasurer: tables, payments and the books",
  dealer: "dealer: logs play at a table",
  auditor: "auditor: reads and verifies everything",
  member: "member: his own account only",
};
const STATUS_WORDS = { waiting: "waiting to be opened", used: "used", expired: "expired" };

export async function adminRoom(main, { me }) {
  const isAdmin = me.role === "admin";
  const members = h("section", { class: "panel", "aria-label": "Members" });
  const give = h("section", { class: "panel", "aria-label": "Sign-in links to give" });
  const links = h("section", { class: "panel", "aria-label": "Sign-in links" });
  const access = h("section", { class: "panel", "aria-label": "Who holds access" });
  const currencies = h("section", { class: "panel", "aria-label": "The club's currencies" });
  const key = h("section", { class: "panel", "aria-label": "The checkpoint key" });
  main.append(h("div", { class: "columns" }, h("div", {}, members, give),
    h("div", {}, links, isAdmin ? access : null, isAdmin ? currencies : null,
      isAdmin ? key : null)));

  const state = { members: [], retired: [], links: [], tokens: [] };

  async function load() {
    const asks = [call("GET", isAdmin ? "/members?retired=true" : "/members"),
      call("GET", "/signin-links")];
    if (isAdmin) asks.push(call("GET", "/tokens"));
    const [m, l, t] = await Promise.all(asks);
    state.members = m.body.members.filter((x) => !x.retired_at);
    state.retired = m.body.members.filter((x) => x.retired_at);
    state.links = l.body.links;
    state.tokens = t ? t.body.tokens : [];
  }

  function drawMembers() {
    const list = h("ul", { class: "list", "data-testid": "members" },
      state.members.map((m) => h("li", { "data-member": m.name },
        h("span", { class: "grow" }, h("strong", {}, m.name), m.guest ? " (guest)" : "",
          isAdmin ? h("br", {}) : " ", h("span", { class: "muted" }, `since ${when(m.created_at)}`)),
        isAdmin ? h("button", { class: "btn small", type: "button", "aria-expanded": "false",
          "aria-label": `Change ${m.name}`, onclick: (e) => toggleChange(e.currentTarget, m) },
        "Change") : null)));
    members.replaceChildren(h("h3", { id: "members-h" }, `Members (${state.members.length})`),
      list);
    if (!isAdmin) return;
    if (state.retired.length) {
      members.append(h("h3", {}, `Retired (${state.retired.length})`),
        h("ul", { class: "list", "data-testid": "retired" }, state.retired.map((m) =>
          h("li", { "data-member": m.name },
            h("span", { class: "grow" }, h("strong", {}, m.name)),
            h("span", { class: "muted" }, `retired ${when(m.retired_at)}`)))));
    }
    const name = h("input", { type: "text", name: "name", autocomplete: "off",
      maxlength: "40", required: true });
    const guest = h("input", { type: "checkbox", name: "guest" });
    const form = h("form", { "data-testid": "add-member" },
      field("Name", name, "name"),
      h("div", { class: "row", "data-field": "guest" },
        h("label", { class: "check" }, guest, "A guest (not a member yet)")),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn primary", type: "submit" }, "Add the member")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      try {
        const added = await call("POST", "/members",
          { body: { name: name.value.trim(), guest: guest.checked } });
        await refresh();
        members.append(h("p", { class: "done", role: "status" },
          `${added.body.name} is a member of the club.`));
      } catch (failure) {
        showRefusal(form, failure);
      }
    });
    members.append(h("h3", {}, "Add a member"), form);
  }

  /** A member's changes: a new name, a guest made a member, retiring him. */
  function toggleChange(button, member) {
    const item = button.closest("li");
    const open = item.querySelector(".member-change");
    button.setAttribute("aria-expanded", open ? "false" : "true");
    if (open) { open.remove(); return; }
    const name = h("input", { type: "text", name: "name", autocomplete: "off", maxlength: "40",
      value: member.name });
    const rename = h("form", { "data-testid": "rename" }, field("New name", name, "name"),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn", type: "submit" }, `Rename ${member.name}`)));
    rename.addEventListener("submit", (event) => {
      event.preventDefault();
      change(rename, `${member.name} is now ${name.value.trim()}.`,
        () => call("PATCH", `/members/${member.member_id}`, { body: { name: name.value.trim() } }));
    });
    const admit = h("form", { "data-testid": "admit" }, h("div", { class: "row",
      "data-field": "guest" }, h("button", { class: "btn", type: "submit" },
      `Make ${member.name} a member`)));
    admit.addEventListener("submit", (event) => {
      event.preventDefault();
      change(admit, `${member.name} is a member of the club.`,
        () => call("PATCH", `/members/${member.member_id}`, { body: { guest: false } }));
    });
    const retire = h("form", { "data-testid": "retire" },
      h("p", { class: "muted" }, "Retiring keeps his history and takes back every access " +
        "he holds; the ledger refuses while he sits at an open table or his account is " +
        "not settled."),
      h("div", { class: "row", "data-field": "member_id" },
        h("button", { class: "btn", type: "submit" }, `Retire ${member.name}`)));
    retire.addEventListener("submit", (event) => {
      event.preventDefault();
      change(retire, `${member.name} has retired.`,
        () => call("POST", `/members/${member.member_id}/retirement`));
    });
    item.append(h("div", { class: "member-change grow", "data-testid": "member-change" },
      rename, member.guest ? admit : null, retire));
    name.focus();
  }

  async function change(form, done, request) {
    clearRefusals(form);
    try {
      await request();
    } catch (failure) {
      showRefusal(form, failure);
      return;
    }
    await refresh();
    members.querySelector("[data-testid=members]")
      .after(h("p", { class: "done", role: "status" }, done));
  }

  async function drawCurrencies() {
    let kept;
    try {
      kept = (await call("GET", "/club/currencies")).body;
    } catch (failure) {
      currencies.replaceChildren(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
      return;
    }
    const own = h("input", { type: "text", name: "currency", autocomplete: "off",
      maxlength: "3", value: kept.currency, autocapitalize: "characters" });
    const others = h("input", { type: "text", name: "accepted", autocomplete: "off",
      value: kept.accepted.join(", "), autocapitalize: "characters" });
    const form = h("form", { "data-testid": "currencies" },
      field("The club's currency", own, "currency", "Its books are kept in it (ISO 4217: GBP)"),
      field("Also accepted", others, "accepted", "Payments may be taken in these, " +
        "separated by commas (EUR, USD); leave empty for none"),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn primary", type: "submit" }, "Keep these currencies")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      const accepted = others.value.split(/[\s,]+/).filter(Boolean)
        .map((c) => c.toUpperCase());
      try {
        await call("PUT", "/club/currencies",
          { body: { currency: own.value.trim().toUpperCase(), accepted } });
      } catch (failure) {
        showRefusal(form, failure);
        return;
      }
      await drawCurrencies();
      currencies.append(h("p", { class: "done", role: "status" }, "The club keeps these " +
        "currencies from now on; balances already held stay as they are."));
    });
    currencies.replaceChildren(h("h3", { id: "currencies-h" }, "The club's currencies"),
      h("p", { "data-testid": "currencies-now" }, `Books kept in ${kept.currency}` +
        (kept.accepted.length ? `; payments also in ${kept.accepted.join(", ")}.` : ".")),
      form);
  }

  async function drawKey() {
    let status;
    try {
      status = (await call("GET", "/club/checkpoint-key")).body;
    } catch (failure) {
      key.replaceChildren(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
      return;
    }
    const parts = [h("h3", { id: "key-h" }, "The checkpoint key")];
    if (!status.signed) {
      parts.push(h("p", { class: "refusal", "data-testid": "key-status" },
        status.signing === "off" ? "Heads are not signed: the service has no checkpoint " +
          "key. The operator makes one (docs/operations.md, \"The checkpoint key\")."
          : `Heads are not signed: ${status.signing}`));
    } else {
      const ok = status.signing === "ok";
      parts.push(h("p", { class: ok ? "done" : "refusal", "data-testid": "key-status" },
        ok ? `Heads are signed: every table's end and every export, with key ${status.key_id}.`
          : `Heads are signed with key ${status.key_id}, but: ${status.signing}`),
      h("p", { class: "muted" }, `The private key is kept in the ${status.source}, never ` +
          "in the database. An auditor copies the public key to check an export on his " +
          "own machine:"),
      h("code", { class: "link-out", "data-testid": "public-key" }, status.public_key),
      copyButton(status.public_key, "Copy the public key"),
      h("p", { class: "muted" }, "lanterloo verify-export FILE --public-key " +
          "<the public key above>"));
    }
    key.replaceChildren(...parts);
  }

  function drawGive() {
    const who = h("select", { name: "member" },
      h("option", { value: "" }, "Choose a member"),
      state.members.map((m) => h("option", { value: m.name }, m.name)));
    // what this role may give, and nothing else (the ledger refuses the rest: LINK_ISSUERS)
    const roles = isAdmin ? Object.keys(ROLE_WORDS) : ["member"];
    const role = h("select", { name: "role" },
      roles.map((r) => h("option", { value: r }, ROLE_WORDS[r])));
    const out = h("div", { "data-testid": "new-link", "aria-live": "polite" });
    const form = h("form", { "data-testid": "give-link" },
      field("Who", who, "member"), field("Role", role, "role"),
      h("div", { class: "row", "data-field": "*" },
        h("button", { class: "btn primary", type: "submit" }, "Make a sign-in link")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearRefusals(form);
      out.replaceChildren();
      try {
        const made = (await call("POST", "/signin-links",
          { body: { member: who.value, role: role.value } })).body;
        const copy = copyButton(made.url, "Copy the link");
        out.append(h("div", { class: "done" },
          h("p", {}, `Give this link to ${made.member} (${made.role}). It works once, until ` +
            `${when(made.expires_at)}; it is shown only now.`),
          h("output", { class: "link-out", "data-testid": "link-url" }, made.url), copy));
        await refresh();
      } catch (failure) {
        showRefusal(form, failure);
      }
    });
    give.replaceChildren(h("h3", { id: "give-h" },
      isAdmin ? "Give a person a role" : "Send a member his own link"),
    h("p", { class: "muted" }, "A sign-in link signs its member in once, within 30 minutes, " +
      "with the role chosen here."), form, out);
  }

  function drawLinks() {
    const rows = state.links.map((link) => {
      const actions = [];
      if (link.status === "waiting") {
        actions.push(h("button", { class: "btn small", type: "button",
          onclick: () => act(() => call("DELETE", `/signin-links/${link.link_id}`), links) },
        "Withdraw"));
      } else if (link.status === "used" && !isAdmin && link.token_id) {
        actions.push(h("button", { class: "btn small", type: "button",
          onclick: () => act(() => call("DELETE", `/tokens/${link.token_id}`), links) },
        "Revoke his access"));
      }
      return h("li", { "data-link": link.link_id, "data-status": link.status },
        h("span", { class: "grow" }, h("strong", {}, link.member), ` as ${link.role}: `,
          STATUS_WORDS[link.status] || link.status,
          h("br", {}), h("span", { class: "muted" },
            `made by ${link.created_by}, ${when(link.created_at)}`)), ...actions);
    });
    links.replaceChildren(h("h3", { id: "links-h" }, "Sign-in links"),
      rows.length ? h("ul", { class: "list", "data-testid": "links" }, rows)
        : h("p", { class: "muted" }, "No link made yet."));
  }

  function drawAccess() {
    if (!isAdmin) return;
    const active = state.tokens.filter((t) => t.status === "active");
    const rows = active.map((t) => h("li", { "data-token": t.token_id, "data-member": t.member },
      h("span", { class: "grow" }, h("strong", {}, t.member), ` as ${t.role} `,
        h("span", { class: "muted" }, `(${t.label})`), h("br", {}),
        h("span", { class: "muted" }, `since ${when(t.created_at)}` +
          (t.expires_at ? `, until ${when(t.expires_at)}` : ""))),
      t.token_id === me.token_id ? h("span", { class: "muted" }, "this browser")
        : h("button", { class: "btn small", type: "button",
          "aria-label": `Revoke ${t.member}'s ${t.role} access (${t.label})`,
          onclick: () => act(() => call("DELETE", `/tokens/${t.token_id}`), access) },
        "Revoke")));
    access.replaceChildren(h("h3", { id: "access-h" }, `Who holds access (${active.length})`),
      h("ul", { class: "list", "data-testid": "access" }, rows));
  }

  async function act(request, where) {
    try {
      await request();
      await refresh();
    } catch (failure) {
      where.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    }
  }

  async function refresh() {
    await load();
    drawMembers();
    drawLinks();
    drawAccess();
    // the "give" form keeps what was just shown; its member list follows the members
    const select = give.querySelector("select[name=member]");
    if (select) {
      const chosen = select.value;
      select.replaceChildren(h("option", { value: "" }, "Choose a member"),
        ...state.members.map((m) => h("option", { value: m.name }, m.name)));
      select.value = chosen;
    }
  }

  try {
    await load();
  } catch (failure) {
    main.append(h("p", { class: "refusal", role: "alert" }, sentence(failure)));
    return;
  }
  drawMembers();
  drawGive();
  drawLinks();
  drawAccess();
  if (isAdmin) await Promise.all([drawCurrencies(), drawKey()]);
}

function copyButton(text, label) {
  const copy = h("button", { class: "btn", type: "button" }, label);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      copy.textContent = "Copied";
    } catch {
      copy.textContent = "Select it above and copy it";
    }
  });
  return copy;
}
