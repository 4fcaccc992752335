// Cards as the ledger writes them: a rank then a suit ("10H", "QS"); ace high, as at whist.
export const SUITS = ["C", "D", "H", "S"];
export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const RANKS_52 = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const RANKS_32 = ["7", "8", "9", "10", "J", "Q", "K", "A"];
const VALUE = Object.fromEntries(RANKS_52.map((r, i) => [r, i + 2]));

export const ranksFor = (pack) => (pack === 32 ? RANKS_32 : RANKS_52);
export const suitOf = (card) => card.slice(-1);
export const rankOf = (card) => card.slice(0, -1);
export const label = (card) => (card ? rankOf(card) + SUIT_SYMBOL[suitOf(card)] : "");
export const isRed = (card) => ["D", "H"].includes(suitOf(card));
/** The class that colours a card by its suit: red and black, or in the four-colour pack
 * (the app's `four-colour` setting) spades black, hearts red, diamonds blue, clubs green. */
export const suitClass = (card) => `suit-${suitOf(card)}`;

// At five-card loo Pam (the deal view's `pam`) is the highest trump, of no suit of its own.
const suitIn = (card, trump, pam) => (card === pam ? trump : suitOf(card));
const valueIn = (card, pam) => (card === pam ? 99 : VALUE[rankOf(card)]);

function beats(card, best, trump, pam) {
  if (suitIn(card, trump, pam) === suitIn(best, trump, pam)) {
    return valueIn(card, pam) > valueIn(best, pam);
  }
  return suitIn(card, trump, pam) === trump;
}

/** The index of the winning card: the highest trump (Pam first), else the highest of the
 * suit led. */
export function trickWinnerIndex(cards, trumpSuit, pam = null) {
  let best = 0;
  for (let i = 1; i < cards.length; i += 1) {
    if (beats(cards[i], cards[best], trumpSuit, pam)) best = i;
  }
  return best;
}

/** The card that is Pam at five-card loo with `trump` turned up, else null (docs/rules.md
 * §9.3: the knave of clubs, or the knave of trumps by agreement). */
export function pamFor(rules, trump) {
  if (!rules || !rules.pam) return null;
  if (rules.pam === "jack-of-trumps") return trump ? `J${suitOf(trump)}` : null;
  return "JC";
}

/** Cards in each hand, and so tricks in a deal: five at five-card loo, else three. */
export const handSize = (rules) => (rules && rules.variant === "five-card" ? 5 : 3);
