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

function beats(card, best, trump) {
  if (suitOf(card) === suitOf(best)) return VALUE[rankOf(card)] > VALUE[rankOf(best)];
  return suitOf(card) === trump;
}

/** The index of the winning card: the highest trump, else the highest of the suit led. */
export function trickWinnerIndex(cards, trumpSuit) {
  let best = 0;
  for (let i = 1; i < cards.length; i += 1) if (beats(cards[i], cards[best], trumpSuit)) best = i;
  return best;
}
