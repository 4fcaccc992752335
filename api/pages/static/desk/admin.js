// The admin's room: the club's members, who holds access and since when, and sign-in links
// to give a person a role. The treasurer's "Members' links" is the same room with what his
// role may do: member links only, no members added, no other access listed.

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
  main.append(h("div", { class: "columns" }, h("div", {}, members, give),
    h("div", {}, links, isAdmin ? access : null)));

  const state = { members: [], links: [], tokens: [] };

  async function load() {
    const asks = [call("GET", "/members"), call("GET", "/signin-links")];
    if (isAdmin) asks.push(call("GET", "/tokens"));
    const [m, l, t] = await Promise.all(asks);
    state.members = m.body.members;
    state.links = l.body.links;
    state.tokens = t ? t.body.tokens : [];
  }

  function drawMembers() {
    const list = h("ul", { class: "list", "data-testid": "members" },
      state.members.map((m) => h("li", { "data-member": m.name },
        h("span", { class: "grow" }, h("strong", {}, m.name), m.guest ? " (guest)" : ""),
        h("span", { class: "muted" }, `since ${when(m.created_at)}`))));
    members.replaceChildren(h("h3", { id: "members-h" }, `Members (${state.members.length})`),
      list);
    if (!isAdmin) return;
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
        const copy = h("button", { class: "btn", type: "button" }, "Copy the link");
        copy.addEventListener("click", async () => {
          try {
            await navigator.clipboard.writeText(made.url);
            copy.textContent = "Copied";
          } catch {
            copy.textContent = "Select the link above and copy it";
          }
        });
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
}
