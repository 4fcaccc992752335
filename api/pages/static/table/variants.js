// Irish and five-card loo: exchanges, flushes, "Pam, be civil".
//

import { h } from "./api.js";
import { handSize, label } from "./cards.js";
import { render, state } from "./state.js";
import { log } from "./transport.js";
import { button, cardPicker, pamOf, seenCards, slots } from "./pieces.js";

export const PAM_BE_CIVIL = "pam-be-civil";

// The strip under the board has a note line and three fixed places (app.css `.extra`): the
// first (twice as wide) for the exchange, or the counts of an exchange, or the step's main
// choice; the second for the flush, or the step's next choice; the third for Cancel. A control
// not offered leaves its place empty, so nothing in the strip moves between two taps.

/** The strip: a one-line note and the three places (null leaves a place empty). */
export function strip(note, first = null, second = null, third = null) {
  const place = (item, name) => h("div", { class: `place ${name}` }, item);
  return [h("p", { class: "note muted" }, note || "\u00a0"),
    h("div", { class: "row" }, place(first, "first"), place(second, "second"),
      place(third, "third"))];
}

export const cardsLeft = (n) => `${n} card${n === 1 ? "" : "s"} left in the pack`;

/** Who may exchange now, in the dealer's words: at `turn-to-declare` the exchange is made at
 * the player's turn to declare, after his "play" and before the next player declares (the
 * dealer's until the first card); at `before-play` by any standing player until the first
 * card (docs/rules.md §11.40). */
export function exchangeNote(exchange, nextDeclarer) {
  if (exchange.players.length === 1 && exchange.exchange_at === "turn-to-declare") {
    const who = exchange.players[0];
    return nextDeclarer ? `${who}'s exchange is now, before ${nextDeclarer} declares · `
      + `${cardsLeft(exchange.stock_left)}`
      : `${who} may exchange until the first card · ${cardsLeft(exchange.stock_left)}`;
  }
  return `Exchanges until the first card · ${cardsLeft(exchange.stock_left)}`;
}

/** The strip when no step is under way: the exchange (one player: his name; several: who,
 * asked on the board) and the flush, as `expected` offers them. */
export function variantTools(exchange, flush, nextDeclarer) {
  let swap = null;
  if (exchange) {
    const one = exchange.players.length === 1 ? exchange.players[0] : null;
    swap = button(one ? `${one} exchanges…` : "An exchange…", () => {
      state.exchange = { player: one, out: [], in: [] };
      render();
    }, { class: "btn", "data-testid": "exchange", dataset: one ? { exchange: one } : {} });
  }
  const show = flush ? button("Show a flush…", () => {
    state.flush = { player: null, flushes: {}, pam: false };
    render();
  }, { class: "btn", "data-testid": "flush" }) : null;
  let note = exchange ? exchangeNote(exchange, nextDeclarer) : "";
  if (!exchange && flush) note = "A flush is shown before the first card";
  return strip(note, swap, show);
}

export const cancel = (what) => button("Cancel", () => { state[what] = null; render(); },
  { class: "btn ghost", "data-testid": "cancel" });

/** Several may exchange: whose exchange, each player in his own place (the order dealt). */
export function exchangeWhoParts(m, action) {
  return {
    prompt: "Who exchanges?",
    sub: cardsLeft(action.stock_left),
    board: slots(m.deal.dealt.map((p) => (action.players.includes(p) ? button(p, () => {
      state.exchange = { player: p, out: [], in: [] };
      render();
    }, { class: "btn big", dataset: { exchange: p } }) : null)), { wide: true }),
    extra: strip(exchangeNote(action, null), null, null, cancel("exchange")),
  };
}

export function exchangeParts(m, action) {
  const x = state.exchange;
  const size = handSize(m.rules);
  const max = Math.min(size, action.stock_left);
  const send = (count, out, drawn) => {
    const body = { type: "CardsExchanged", player: x.player, count };
    if (out.length) { body.cards_out = out; body.cards_in = drawn; }
    log(body, `${x.player} exchanges ${count}`);
  };
  const counts = h("div", { class: "counts", role: "group", "aria-label": "How many cards" },
    Array.from({ length: size }, (_, i) => i + 1).map((n) => button(
      `${n}`, () => send(n, [], []),
      { class: "btn", dataset: { count: String(n) }, disabled: n > max,
        "aria-label": `${n} card${n === 1 ? "" : "s"}` })));
  // the cards when known: first those put out, then as many drawn from the pack
  const drawing = x.out.length > 0 && x.outDone;
  const chosen = new Set(drawing ? x.in : x.out);
  const pickCard = (card) => {
    const list = drawing ? x.in : x.out;
    const at = list.indexOf(card);
    if (at >= 0) list.splice(at, 1);
    else if (list.length < size) list.push(card);
    if (drawing && x.in.length === x.out.length) { send(x.out.length, x.out, x.in); return; }
    render();
  };
  const disabled = seenCards(m, x.player);
  if (drawing) for (const card of x.out) disabled.add(card);
  return {
    prompt: `${x.player} exchanges: how many cards?`,
    sub: drawing ? `Out: ${x.out.map(label).join(" ")} · the ${x.out.length} drawn: `
      + `${x.in.map(label).join(" ")}`
      : `${cardsLeft(action.stock_left)} · tap a count, or the cards put out then drawn`
        + `${x.out.length ? ` · out: ${x.out.map(label).join(" ")}` : ""}`,
    board: cardPicker(m, { disabled, chosen, pam: pamOf(m), onpick: pickCard,
      heading: drawing ? "The cards drawn" : "The cards put out" }),
    extra: strip("How many cards (the count is enough), or the cards put out, then Next",
      counts,
      !drawing && x.out.length ? button(`Next: the ${x.out.length} drawn`, () => {
        x.outDone = true;
        render();
      }, { class: "btn primary", "data-testid": "exchange-next" }) : null,
      cancel("exchange")),
  };
}

/** The players who may be named as the holder of Pam: the ledger's candidates less those who
 * show a flush without Pam (a flush is a whole hand: the ledger refuses them), or null when
 * the ledger need not be told (it knows, or a flush shown holds Pam). */
export function pamAsked(action, flushes) {
  if (!(action.needs || []).includes("pam_held_by")) return null;
  if (Object.values(flushes).some((cards) => cards.includes(action.pam))) return null;
  const left = (action.pam_candidates || []).filter((p) => !(p in flushes));
  return left.length ? left : null;
}

/** Who holds Pam, as the ledger already knows it from the cards logged (or null). */
export function pamKnown(action) {
  if (!("pam_held_by" in action) || !action.pam) return null;
  return action.pam_held_by ? `${action.pam_held_by} holds Pam (${label(action.pam)}): the `
    + "cards logged show it" : `Nobody holds Pam (${label(action.pam)}): the cards logged show it`;
}

export function flushParts(m, action) {
  const f = state.flush;
  const shown = Object.keys(f.flushes);
  const flushes = () => Object.fromEntries(shown.map((p) => [p, f.flushes[p].slice()]));
  const sendFlush = (holder) => {
    const body = { type: "FlushShown", flushes: flushes() };
    let what = `flush: ${shown.join(", ")}`;
    if (holder !== undefined) {
      body.pam_held_by = holder;
      what += holder ? ` (${holder} holds Pam)` : " (nobody holds Pam)";
    }
    log(body, what);
  };
  const asked = pamAsked(action, f.flushes);
  if (f.pam && asked) {
    // Blenheim and Enquire Within: the holder of Pam pays no flush; the ledger is told who
    const pam = label(action.pam);
    return {
      prompt: `Who holds Pam (${pam})?`,
      sub: `The holder of Pam pays nothing for the flush · ${shown.map((p) => `${p}: `
        + `${f.flushes[p].map(label).join(" ")}`).join(" · ")}`,
      board: slots([...asked.map((p) => button(`${p} holds ${pam}`, () => sendFlush(p),
        { class: "btn big", dataset: { pamHolder: p } })),
      button("None of them", () => sendFlush(null),
        { class: "btn big", dataset: { pamHolder: "none" } })], { wide: true }),
      extra: strip("None of them: Pam is in the pack, or in a hand thrown up",
        button("Back to the cards", () => { f.pam = false; render(); },
          { class: "btn", "data-testid": "pam-back" }), null, cancel("flush")),
    };
  }
  if (!f.player) {
    // each player keeps his place; one whose flush is entered leaves his place empty
    return {
      prompt: shown.length ? "Another flush: whose?" : "Who shows a flush?",
      sub: shown.map((p) => `${p}: ${f.flushes[p].map(label).join(" ")}`).join(" · "),
      board: slots(action.players.map((p) => (shown.includes(p) ? null : button(p, () => {
        f.player = p;
        f.flushes[p] = [];
        render();
      }, { class: "btn big", dataset: { flusher: p } }))), { wide: true }),
      extra: strip(pamKnown(action) || "", null, null, cancel("flush")),
    };
  }
  const cards = f.flushes[f.player];
  const complete = shown.every((p) => f.flushes[p].length === 5);
  const disabled = seenCards(m, f.player);
  for (const p of shown) if (p !== f.player) for (const card of f.flushes[p]) disabled.add(card);
  const pickCard = (card) => {
    const at = cards.indexOf(card);
    if (at >= 0) cards.splice(at, 1);
    else if (cards.length < 5) cards.push(card);
    render();
  };
  const others = action.players.filter((p) => !shown.includes(p));
  const next = complete && pamAsked(action, f.flushes);
  return {
    prompt: `${f.player}'s flush: tap his five cards`,
    sub: h("span", { "data-testid": "flush-cards" },
      `${cards.length} of 5${cards.length ? `: ${cards.map(label).join(" ")}` : ""}`),
    board: cardPicker(m, { disabled, chosen: new Set(cards), pam: pamOf(m), onpick: pickCard,
      heading: `${f.player}'s flush` }),
    extra: strip(pamKnown(action) || "Five cards of a suit, or four with Pam. The ledger checks "
      + "them.",
    button(next ? "Next: who holds Pam?" : (shown.length > 1 ? "Log the flushes" : "Log the flush"),
      () => {
        if (next) {
          f.pam = true;
          render();
        } else sendFlush(undefined);
      }, { class: "btn primary", "data-testid": "flush-log", disabled: !complete }),
    complete && others.length ? button("Another flush", () => {
      f.player = null;
      render();
    }, { class: "btn", "data-testid": "flush-another" }) : null, cancel("flush")),
  };
}

/** Five-card loo: the ace of trumps tapped as a lead while Pam is out: whether "Pam, be civil"
 * was called, asked each time (`expected`'s `pam_call`; Baxter-Wray p. 28: "When the ace of
 * trumps is led it is usual for the player of it to say, 'Pam, be civil'"). */
export function civilParts(m, call) {
  const { player, card } = state.civil;
  const words = { [PAM_BE_CIVIL]: "He said “Pam, be civil”", none: "He said nothing" };
  const logged = { [PAM_BE_CIVIL]: "“Pam, be civil”", none: "no call" };
  return {
    prompt: `${player} leads ${label(card)}: did he say “Pam, be civil”?`,
    sub: "If he did, Pam passes the ace when its holder has another trump",
    board: slots(call.choices.filter((c) => c in words).map((c) => button(words[c], () => log(
      { type: "CardPlayed", player, card, call: c }, `${player} ${label(card)}, ${logged[c]}`),
    { class: "btn big", dataset: { call: c } }))),
    extra: strip("", null, null, cancel("civil")),
  };
}
