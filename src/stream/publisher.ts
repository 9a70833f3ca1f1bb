// Turns events in the feed's wire shape into broker events: market and matching symbol for
// routing, and the JSON text every subscriber receives.
import type { BrokerEvent } from './broker.js';
import { encodeEvent, type WireEvent } from './json.js';
import { marketOfEvent, matchSymbol, symbolKeyOf, type FeedMarket } from './markets.js';

export function eventSymbol(e: WireEvent): string {
  const s = e[symbolKeyOf(e.ev)];
  return typeof s === 'string' ? s : '';
}

export function toBrokerEvent(e: WireEvent, market?: FeedMarket): BrokerEvent {
  const symbol = eventSymbol(e);
  const m = market ?? marketOfEvent(e.ev, symbol);
  return { market: m, ev: e.ev, symbol: matchSymbol(m, symbol), json: encodeEvent(e) };
}
