// What the relay subscribes upstream: the topics local clients hold on a market (real-time and
// delayed feeds alike, both fed from the same events), spelled as upstream reads them, plus the
// bars of what is recorded.
import type { FeedMarket } from '../markets.js';
import type { DemandChange } from '../registry.js';

/** A topic as upstream reads it: `X:`/`C:` prefixes of pairs dropped (`XT.X:BTC-USD` → `XT.BTC-USD`). */
export function upstreamTopic(market: FeedMarket, ev: string, text: string): string {
  const dot = text.indexOf('.');
  let sym = text.slice(dot + 1).trim();
  if ((market === 'crypto' || market === 'forex') && sym.length > 2 && sym[1] === ':') sym = sym.slice(2);
  return `${ev}.${sym}`;
}

/**
 * The minute-bar channel recorded beside a trade or quote channel: upstream's own minute bars are
 * what the relay stores as minute bars (its trades are not aggregated again, see docs/relay.md).
 */
const BARS_OF: Partial<Record<FeedMarket, Readonly<Record<string, string>>>> = {
  stocks: { T: 'AM', Q: 'AM' },
  options: { T: 'AM', Q: 'AM' },
  crypto: { XT: 'XA', XQ: 'XA' },
  forex: { C: 'CA' },
};

/** The bar topic recorded with `topic` (`T.AAPL` → `AM.AAPL`), or undefined. */
export function barTopicOf(market: FeedMarket, topic: string): string | undefined {
  const dot = topic.indexOf('.');
  const bars = BARS_OF[market]?.[topic.slice(0, dot)];
  return bars ? `${bars}${topic.slice(dot)}` : undefined;
}

/** Local demand of one market: topics held by at least one feed's subscribers, with the spelling of the first. */
export class MarketDemand {
  /** `ev\0symbol` → upstream topic and how many feeds (real-time, delayed) hold it. */
  private readonly held = new Map<string, { topic: string; feeds: number }>();

  constructor(private readonly market: FeedMarket) {}

  /** Applies a change; true when the set of topics changed. */
  apply(change: DemandChange): boolean {
    const key = `${change.ev}\0${change.symbol}`;
    const entry = this.held.get(key);
    if (change.held) {
      if (entry) {
        entry.feeds++;
        return false;
      }
      this.held.set(key, { topic: upstreamTopic(this.market, change.ev, change.text), feeds: 1 });
      return true;
    }
    if (!entry) return false;
    if (--entry.feeds > 0) return false;
    this.held.delete(key);
    return true;
  }

  topics(): string[] {
    return [...this.held.values()].map((e) => e.topic);
  }
}
