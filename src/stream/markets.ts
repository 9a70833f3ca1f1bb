// The feed's markets: URL paths, the channels (event types) each market carries, where an event
// keeps its symbol, and the symbol spelling topics and events are matched on.

export const FEED_MARKETS = ['stocks', 'options', 'forex', 'crypto', 'indices', 'futures'] as const;
export type FeedMarket = (typeof FEED_MARKETS)[number];

export type Feed = 'realtime' | 'delayed' | 'replay';

/** Event types per market (the topic prefix equals the event's `ev`). */
export const CHANNELS: Record<FeedMarket, ReadonlySet<string>> = {
  stocks: new Set(['T', 'Q', 'A', 'AM', 'LULD', 'NOI', 'FMV', 'LV']),
  options: new Set(['T', 'Q', 'A', 'AM', 'FMV', 'LV']),
  forex: new Set(['C', 'CA', 'CAS', 'FMV', 'LV', 'AM']),
  crypto: new Set(['XT', 'XQ', 'XL2', 'XA', 'XAS', 'FMV', 'LV', 'AM']),
  indices: new Set(['A', 'AM', 'V']),
  futures: new Set(['T', 'Q', 'A', 'AM']),
};

/** Channels the delayed feed carries; the others are real-time only. */
export const DELAYED_CHANNELS: Record<FeedMarket, ReadonlySet<string>> = {
  stocks: new Set(['T', 'A', 'AM', 'FMV', 'LV']),
  options: new Set(['T', 'A', 'AM', 'FMV', 'LV']),
  forex: new Set(['FMV', 'LV', 'AM']),
  crypto: new Set(['FMV', 'LV', 'AM']),
  indices: new Set(['A', 'AM', 'V']),
  futures: new Set(['T', 'Q', 'A', 'AM']),
};

/** The plan data set a channel belongs to (channels not listed need only the market). */
export const CHANNEL_DATASET: Readonly<Record<string, string>> = {
  T: 'trades', XT: 'trades', Q: 'nbbo', XQ: 'nbbo', C: 'nbbo', XL2: 'nbbo',
  A: 'aggregates', AM: 'aggregates', CA: 'aggregates', CAS: 'aggregates', XA: 'aggregates', XAS: 'aggregates', V: 'aggregates',
  FMV: 'fmv',
};

/** The market name plans use for a feed market (plans say fx for forex). */
export function planMarketOf(market: FeedMarket): string {
  return market === 'forex' ? 'fx' : market;
}

export interface FeedPath {
  feed: Feed;
  market: FeedMarket;
  /** The replay session of a /replay/<id>/<market> path. */
  replayId?: string;
  /** The path as served, e.g. `/delayed/stocks` (repeated slashes collapsed). */
  path: string;
}

const FUTURES_VENUES = new Set(['cme', 'cbot', 'nymex', 'comex']);

/** The feed and market of an upgrade URL, or undefined for a path that is not a feed. */
export function parseFeedPath(url: string): FeedPath | undefined {
  const q = url.indexOf('?');
  const raw = (q < 0 ? url : url.slice(0, q)).replace(/\/{2,}/g, '/').replace(/\/$/, '');
  const parts = raw.split('/').slice(1);
  if (parts[0] === 'replay') {
    // /replay/<id>/<market>: the clients append the market (futures: and a venue) to the base they are given
    const id = parts[1];
    const market = (parts[2] ?? 'stocks') as FeedMarket;
    if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id) || !(FEED_MARKETS as readonly string[]).includes(market)) return undefined;
    if (parts.length > 4 || (parts.length === 4 && !(market === 'futures' && FUTURES_VENUES.has(parts[3]!)))) return undefined;
    return { feed: 'replay', market, replayId: id, path: raw };
  }
  let feed: Feed = 'realtime';
  if (parts[0] === 'delayed') {
    feed = 'delayed';
    parts.shift();
  }
  const name = parts[0] as FeedMarket;
  if (!(FEED_MARKETS as readonly string[]).includes(name)) return undefined;
  if (parts.length === 2 && !(name === 'futures' && FUTURES_VENUES.has(parts[1]!))) return undefined;
  if (parts.length > 2) return undefined;
  return { feed, market: name, path: raw };
}

/** Market of a published event, from its type and symbol prefix (stocks when nothing says otherwise). */
export function marketOfEvent(ev: string, symbol: string): FeedMarket {
  if (ev === 'C' || ev === 'CA' || ev === 'CAS') return 'forex';
  if (ev.startsWith('X')) return 'crypto';
  if (ev === 'V') return 'indices';
  if (symbol.length > 2 && symbol[1] === ':') {
    switch (symbol[0]) {
      case 'O': return 'options';
      case 'C': return 'forex';
      case 'X': return 'crypto';
      case 'I': return 'indices';
      default: break;
    }
  }
  return 'stocks';
}

/** The key holding an event's symbol. */
export function symbolKeyOf(ev: string): string {
  switch (ev) {
    case 'LULD':
    case 'NOI':
    case 'V':
      return 'T';
    case 'C':
      return 'p';
    case 'CA': case 'CAS': case 'XT': case 'XQ': case 'XL2': case 'XA': case 'XAS':
      return 'pair';
    default:
      return 'sym';
  }
}

/**
 * The spelling topics and events are matched on: forex and crypto pairs lose their `C:`/`X:`
 * prefix and separators (`EUR/USD`, `EUR-USD`, `C:EURUSD` are one pair); other symbols are kept.
 */
export function matchSymbol(market: FeedMarket, symbol: string): string {
  if (market !== 'forex' && market !== 'crypto') return symbol;
  let s = symbol.toUpperCase();
  if (s.length > 2 && s[1] === ':') s = s.slice(2);
  return s.replace(/[-/]/g, '');
}
