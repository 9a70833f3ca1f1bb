// Upstream's events passed on as upstream wrote them. A frame is parsed once, which checks that it
// is JSON and gives each event's channel and symbol for routing; each event's text is then cut out
// of the frame as it stands (a slice of the frame's text, not a copy) instead of being written
// anew, so what subscribers receive is upstream's own bytes, exact integers and all, at no cost
// per event beyond the slice. Status objects are left out (the feed client reads them).
import type { BrokerEvent } from '../broker.js';
import { matchSymbol, symbolKeyOf, type FeedMarket } from '../markets.js';

/**
 * The texts of a JSON array's elements, in order, without the whitespace around them. `text` must
 * be JSON whose top level is an array (JSON.parse accepted it): only strings and nesting are tracked.
 */
export function elementTexts(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let last = -1; // index after the element's last non-blank character
  const cut = () => {
    if (start >= 0) out.push(text.slice(start, last));
    start = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 32) continue; // JSON's whitespace: space, tab, CR, LF
    if (depth === 1 && start < 0 && c !== 44 /* , */ && c !== 93 /* ] */) start = i;
    if (c === 34 /* " */) i = stringEnd(text, i);
    else if (c === 91 /* [ */ || c === 123 /* { */) depth++;
    else if (c === 93 /* ] */ || c === 125 /* } */) {
      if (--depth === 0) {
        cut();
        break;
      }
    } else if (c === 44 && depth === 1) {
      cut();
      continue;
    }
    last = i + 1;
  }
  return out;
}

/** The index of the quote closing the string that opens at `open` (a native search, then a count of the backslashes before it). */
function stringEnd(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  for (;;) {
    if (q < 0) return text.length; // unterminated: not JSON, which callers rule out first
    let k = q - 1;
    while (text.charCodeAt(k) === 92 /* \ */) k--;
    if ((q - 1 - k) % 2 === 0) return q; // an even run of backslashes escapes nothing
    q = text.indexOf('"', q + 1);
  }
}

/**
 * The data events of an upstream frame, ready for the broker with upstream's text; undefined when
 * the frame is not JSON. Anything that is not an event object (`ev` a string) is skipped.
 */
export function relayedEvents(text: string, market: FeedMarket): BrokerEvent[] | undefined {
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(items)) return [];
  const out: BrokerEvent[] = [];
  let texts: string[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const e = items[i] as { ev?: unknown } | null;
    if (e === null || typeof e !== 'object' || Array.isArray(e) || typeof e.ev !== 'string' || e.ev === 'status') continue;
    texts ??= elementTexts(text);
    const symbol = (e as Record<string, unknown>)[symbolKeyOf(e.ev)];
    out.push({ market, ev: e.ev, symbol: matchSymbol(market, typeof symbol === 'string' ? symbol : ''), json: texts[i]! });
  }
  return out;
}
