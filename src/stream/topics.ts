// Topics of subscribe/unsubscribe: `<EV>.<SYMBOL>` items of a comma-separated list.
import { CHANNELS, matchSymbol, type FeedMarket } from './markets.js';

export interface Topic {
  /** The item as received, trimmed: echoed in the acknowledgement. */
  text: string;
  ev: string;
  /** Matching spelling of the symbol, or `*` for every symbol. */
  symbol: string;
}

export type ParsedItem = { ok: true; topic: Topic } | { ok: false; text: string };

/** Splits a params string into topics; items that are not a topic of the market come back as errors. */
export function parseTopics(params: string, market: FeedMarket): ParsedItem[] {
  const out: ParsedItem[] = [];
  for (const raw of params.split(',')) {
    const text = raw.trim();
    if (text === '') continue;
    const dot = text.indexOf('.');
    const ev = dot < 0 ? '' : text.slice(0, dot);
    const sym = dot < 0 ? '' : text.slice(dot + 1).trim();
    if (!CHANNELS[market].has(ev) || sym === '' || (sym.includes('*') && sym !== '*') || /\s/.test(sym)) {
      out.push({ ok: false, text });
      continue;
    }
    out.push({ ok: true, topic: { text, ev, symbol: sym === '*' ? '*' : matchSymbol(market, sym) } });
  }
  return out;
}
