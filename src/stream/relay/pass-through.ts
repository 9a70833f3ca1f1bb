// Upstream's events passed on as upstream wrote them. A frame is read once (frame-scan.ts), which
// checks that it is JSON and gives each event's bounds, channel and symbol; each event's text is
// then cut out of the frame as it stands (a slice of the frame's text, not a copy) instead of
// being written anew, so what subscribers receive is upstream's own bytes, exact integers and
// all, at no cost per event beyond the slice. Status objects are left out (the feed client reads
// them), as is anything that is not an event object.
import type { BrokerEvent } from '../broker.js';
import { matchSymbol, symbolKeyOf, type FeedMarket } from '../markets.js';
import { scanFrame, type RoutingFields } from './frame-scan.js';

/** The data events of an upstream frame, ready for the broker with upstream's text; undefined when the frame is not JSON. */
export function relayedEvents(text: string, market: FeedMarket): BrokerEvent[] | undefined {
  const elements = scanFrame(text);
  if (elements === undefined) return undefined;
  if (elements === 'not an array') return [];
  const out: BrokerEvent[] = [];
  for (const { start, end, fields } of elements) {
    const ev = fields?.ev;
    if (ev === undefined || ev === 'status') continue;
    const symbol = fields![symbolKeyOf(ev) as keyof RoutingFields] ?? '';
    out.push({ market, ev, symbol: matchSymbol(market, symbol), json: text.slice(start, end) });
  }
  return out;
}
