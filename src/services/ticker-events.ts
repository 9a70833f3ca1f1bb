// Ticker events (/vX/reference/tickers/{id}/events): the ticker changes of one entity, derived from
// the stored versions of tickers. An entity is the set of versions sharing a composite FIGI (or,
// without one, a CUSIP; without either, the versions of the one symbol). Each symbol the entity
// took is an event dated the first day a version under that symbol was valid, the first listing
// included; newest first.
import { badParameter, notFound } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import type { TickerRecord } from '../store/records.js';

export const TICKER_EVENT_TYPES = ['ticker_change'] as const;

export interface TickerEvent {
  type: 'ticker_change';
  /** The same as `type`: upstream's schema names the field event_type, its bodies type; both are written. */
  event_type: 'ticker_change';
  date: string;
  ticker_change: { ticker: string };
}

export interface TickerEvents {
  name: string;
  composite_figi?: string;
  cik?: string;
  events: TickerEvent[];
}

const FIGI = /^BBG[0-9A-Z]{9}$/;
const CUSIP = /^[0-9A-Z]{9}$/;

/** The event types asked for in `types` (comma-separated); a 400 naming the parameter for others. */
export function eventTypes(types: string | undefined): readonly string[] {
  const list = (types ?? '').split(',').map((t) => t.trim()).filter((t) => t.length > 0);
  const bad = list.filter((t) => !(TICKER_EVENT_TYPES as readonly string[]).includes(t));
  if (bad.length) throw badParameter(`types must be a comma-separated list of ${TICKER_EVENT_TYPES.join(', ')} (got ${bad.join(', ')})`);
  return list.length ? list : TICKER_EVENT_TYPES;
}

export class TickerEventService {
  constructor(private readonly store: Pick<Store, 'reference'>) {}

  async events(id: string, types: readonly string[]): Promise<TickerEvents> {
    const versions = await this.entityVersions(id);
    if (versions.length === 0) throw notFound('Ticker not found.');
    const latest = versions[versions.length - 1]!;
    const events: TickerEvent[] = [];
    if (types.includes('ticker_change')) {
      let previous: string | undefined;
      for (const v of versions) {
        if (v.ticker !== previous) events.push({ type: 'ticker_change', event_type: 'ticker_change', date: v.valid_from, ticker_change: { ticker: v.ticker } });
        previous = v.ticker;
      }
    }
    return { name: latest.name, composite_figi: latest.composite_figi, cik: latest.cik, events: events.reverse() };
  }

  /**
   * The versions of the entity `id` names, oldest first: a ticker names the entity it represents
   * now (its current version, else its latest one); a composite FIGI or CUSIP names its own.
   */
  private async entityVersions(id: string): Promise<TickerRecord[]> {
    const repo = this.store.reference;
    const own = await repo.tickerVersions('ticker', id);
    if (own.length > 0) {
      const now = own.find((v) => v.valid_to === undefined) ?? own[own.length - 1]!;
      if (now.composite_figi) return repo.tickerVersions('composite_figi', now.composite_figi);
      if (now.cusip) return repo.tickerVersions('cusip', now.cusip);
      return own;
    }
    if (FIGI.test(id)) return repo.tickerVersions('composite_figi', id);
    if (CUSIP.test(id)) return repo.tickerVersions('cusip', id);
    return [];
  }
}
