// Orders the explorer's ticker search results as people expect of a type-ahead: the exact symbol
// first, then symbols starting with the text, then names whose words start with it, then the rest.
// The REST API answers a search in ticker order, so the page asks for a wide page and ranks it here.

export interface Searchable {
  ticker: string;
  name: string;
}

/** The symbol without its market prefix: X:BTCUSD → BTCUSD, C:EURUSD → EURUSD, I:SPX → SPX. */
function bareSymbol(ticker: string): string {
  const colon = ticker.indexOf(':');
  return colon >= 0 && colon <= 2 ? ticker.slice(colon + 1) : ticker;
}

/** 0 exact symbol, 1 symbol prefix, 2 name starts with the text, 3 a word of the name does, 4 the rest. */
export function searchTier(hit: Searchable, text: string): number {
  const q = text.trim().toUpperCase();
  const full = hit.ticker.toUpperCase();
  const bare = bareSymbol(full);
  if (q === full || q === bare) return 0;
  if (full.startsWith(q) || bare.startsWith(q)) return 1;
  const name = hit.name.toUpperCase();
  if (name.startsWith(q)) return 2;
  if (name.split(/[^A-Z0-9.&]+/).some((w) => w.startsWith(q))) return 3;
  return 4;
}

/**
 * The hits in rank order. Within a tier: shorter symbols first (the plain listing before its
 * variants), US-dollar pairs before other quote currencies, shorter names (closer matches:
 * "Bitcoin" before "Bitcoin Cash"), then alphabetical.
 */
export function rankSearch<T extends Searchable>(hits: readonly T[], text: string): T[] {
  const keyed = hits.map((h) => ({ h, tier: searchTier(h, text), bare: bareSymbol(h.ticker) }));
  keyed.sort(
    (a, b) =>
      a.tier - b.tier ||
      a.bare.length - b.bare.length ||
      Number(!a.bare.endsWith('USD')) - Number(!b.bare.endsWith('USD')) ||
      a.h.name.length - b.h.name.length ||
      (a.h.ticker < b.h.ticker ? -1 : a.h.ticker > b.h.ticker ? 1 : 0),
  );
  return keyed.map((k) => k.h);
}
