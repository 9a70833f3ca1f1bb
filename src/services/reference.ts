// Exchanges and condition codes: reference lists read as stored.
import type { Store } from '../store/index.js';
import type { ConditionRecord, ExchangeRecord } from '../store/records.js';
import { CONDITION_SORT_FIELDS, type ConditionQuery } from '../store/repos/reference.js';
import type { KeysetRows, PageRequest } from './paging.js';

export { CONDITION_SORT_FIELDS };

export type ConditionListParams = Omit<ConditionQuery, 'limit' | 'after'>;

interface ConditionRow {
  pk: number;
  record: ConditionRecord;
  sortValue: string | number;
}

export const VENUE_MARKETS = ['stocks', 'options', 'forex', 'crypto'] as const;
export type VenueMarket = (typeof VENUE_MARKETS)[number];

/** A venue as a per-market list sends it. */
export interface Venue {
  id: string;
  type: string;
  name: string;
  acronym?: string;
  locale?: string;
  mic?: string;
  operating_mic?: string;
  participant_id?: string;
  url?: string;
}

interface VenueRow {
  id: number;
  ord: number;
  venue: Venue;
}

function venue(market: VenueMarket, e: ExchangeRecord): Venue {
  const head = { id: String(e.id), type: e.type, name: e.name };
  if (market === 'forex') return head;
  if (market === 'crypto') return { ...head, url: e.url };
  return {
    ...head, acronym: e.acronym, locale: e.locale.toUpperCase(), mic: e.mic, operating_mic: e.operating_mic,
    participant_id: e.participant_id, url: e.url,
  };
}

export class ReferenceService {
  constructor(private readonly store: Pick<Store, 'reference'>) {}

  exchanges(f: { asset_class?: string; locale?: string }): Promise<ExchangeRecord[]> {
    return this.store.reference.listExchanges(f);
  }

  /**
   * One market's venues ordered by id, for the per-market lists in upstream's newer shape: the id
   * as a string, the locale in capitals, and only the fields upstream gives that market (crypto
   * venues no MIC or locale, currency venues only an id, a type and a name). Keyset-paged on the id
   * and the venue's place among venues stored under the same id.
   */
  async marketVenues(market: VenueMarket, page: PageRequest): Promise<KeysetRows<VenueRow>> {
    const assetClass = market === 'forex' ? 'fx' : market;
    const all = (await this.store.reference.listExchanges({ asset_class: assetClass })).map((e, ord) => ({ id: e.id, ord, venue: venue(market, e) }));
    const after = page.after;
    const rest = after === undefined
      ? all
      : all.filter((r) => r.id > Number(after.value) || (r.id === Number(after.value) && r.ord > Number(after.id)));
    return { rows: rest.slice(0, page.limit), position: (r) => ({ value: r.id, id: r.ord }) };
  }

  async conditions(q: ConditionListParams, page: PageRequest): Promise<KeysetRows<ConditionRow>> {
    const rows = await this.store.reference.listConditions({
      asset_class: q.asset_class,
      data_type: q.data_type,
      id: q.id,
      sip: q.sip,
      sort: q.sort,
      order: q.order,
      limit: page.limit,
      after: page.after,
    });
    return { rows, position: (r) => ({ value: r.sortValue, id: r.pk }) };
  }
}
