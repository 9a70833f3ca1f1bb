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

export class ReferenceService {
  constructor(private readonly store: Pick<Store, 'reference'>) {}

  exchanges(f: { asset_class?: string; locale?: string }): Promise<ExchangeRecord[]> {
    return this.store.reference.listExchanges(f);
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
