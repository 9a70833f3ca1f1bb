// The reference repository contract: ticker versions (current and point in time), byte-order
// listing with keyset positions, and the ticker types, exchanges and conditions tables, which a
// load replaces whole.
import { describe, expect, it } from 'vitest';
import type { ConditionRecord, ExchangeRecord, TickerRecord, TickerTypeRecord } from '../../../src/store/records.js';
import type { KeysetPosition } from '../../../src/store/repos/keyset.js';
import type { ConditionQuery } from '../../../src/store/repos/reference.js';
import { countRows, useStore, type MakeStore } from './store-fixture.js';

function ticker(symbol: string, extra: Partial<TickerRecord> = {}): TickerRecord {
  return {
    ticker: symbol, name: `${symbol} Corp`, market: 'stocks', locale: 'us', active: true, type: 'CS',
    primary_exchange: 'XNAS', currency_name: 'usd', last_updated_utc: '2026-11-20T00:00:00Z', valid_from: '2000-01-01', ...extra,
  };
}

const TYPES: TickerTypeRecord[] = [
  { code: 'CS', description: 'Common Stock', asset_class: 'stocks', locale: 'us' },
  { code: 'ETF', description: 'Exchange Traded Fund', asset_class: 'stocks', locale: 'us' },
  { code: 'CCY', description: 'Currency', asset_class: 'fx', locale: 'global' },
];

const EXCHANGES: ExchangeRecord[] = [
  { id: 12, type: 'exchange', asset_class: 'stocks', locale: 'us', name: 'Nasdaq', mic: 'XNAS' },
  { id: 1, type: 'exchange', asset_class: 'stocks', locale: 'us', name: 'NYSE American', mic: 'XASE' },
  { id: 1, type: 'exchange', asset_class: 'crypto', locale: 'global', name: 'Coinbase' },
];

function condition(id: number, name: string, extra: Partial<ConditionRecord> = {}): ConditionRecord {
  return { id, type: 'sale_condition', name, asset_class: 'stocks', data_types: ['trade'], ...extra };
}

export function runReferenceRepoContract(makeStore: MakeStore): void {
  describe('reference repository: tickers', () => {
    const store = useStore(makeStore);
    const seeded = async () => {
      if ((await store().reference.countTickers()) > 0) return;
      await store().reference.upsertTickers([
        ticker('AAA'),
        ticker('BBB', { valid_from: '2000-01-01', valid_to: '2020-06-01', name: 'Old BBB' }),
        ticker('BBB', { valid_from: '2020-06-01', name: 'New BBB' }),
        ticker('CCC', { active: false, delisted_utc: '2019-03-01T00:00:00Z' }),
        ticker('a.b:c', { name: 'Odd symbol' }),
      ]);
    };

    it('answers the current version, or the one valid on a date', async () => {
      await seeded();
      expect((await store().reference.getTicker('BBB'))!.name).toBe('New BBB');
      expect((await store().reference.getTicker('BBB', '2010-01-01'))!.name).toBe('Old BBB');
      expect((await store().reference.getTicker('BBB', '2020-06-01'))!.name).toBe('New BBB');
      expect(await store().reference.getTicker('bbb')).toBeUndefined(); // case-sensitive
      expect((await store().reference.getTicker('a.b:c'))!.name).toBe('Odd symbol');
    });

    it('reads back a ticker field for field, optional fields omitted', async () => {
      await seeded();
      expect(await store().reference.getTicker('AAA')).toEqual(ticker('AAA'));
    });

    it('answers the current versions of many tickers at once, skipping closed and unknown ones', async () => {
      await seeded();
      const many = Array.from({ length: 1200 }, (_, i) => `ZZ${String(i).padStart(4, '0')}`);
      const found = await store().reference.currentTickers(['BBB', 'AAA', 'NOPE', ...many]);
      expect(found.map((t) => `${t.ticker}:${t.name}`).sort()).toEqual(['AAA:AAA Corp', 'BBB:New BBB']);
    });

    it('upserting the same versions again changes nothing; a changed version replaces the old', async () => {
      await seeded();
      const before = await countRows(store(), 'tickers');
      await store().reference.upsertTickers([ticker('AAA')]);
      expect(await countRows(store(), 'tickers')).toBe(before);
      await store().reference.upsertTickers([ticker('AAA', { name: 'AAA Renamed' })]);
      expect(await countRows(store(), 'tickers')).toBe(before);
      expect((await store().reference.getTicker('AAA'))!.name).toBe('AAA Renamed');
      await store().reference.upsertTickers([ticker('AAA')]);
    });

    it('lists in byte order with keyset positions, active by default', async () => {
      await seeded();
      const page = async (after?: KeysetPosition) => store().reference.listTickers({ active: true, sort: 'ticker', order: 'asc', limit: 2, after });
      const first = await page();
      expect(first.map((r) => r.record.ticker)).toEqual(['AAA', 'BBB']);
      const last = first[first.length - 1]!;
      const second = await page({ value: last.record.ticker, id: last.id });
      expect(second.map((r) => r.record.ticker)).toEqual(['a.b:c']);
      const inactive = await store().reference.listTickers({ active: false, sort: 'ticker', order: 'asc', limit: 10 });
      expect(inactive.map((r) => r.record.ticker)).toEqual(['CCC']);
      const desc = await store().reference.listTickers({ active: true, sort: 'ticker', order: 'desc', limit: 10 });
      expect(desc.map((r) => r.record.ticker)).toEqual(['a.b:c', 'BBB', 'AAA']);
    });

    it('joins a page of stored list items in list order, with the cursor position only when more follow', async () => {
      await seeded();
      const items = async (q: { order: 'asc' | 'desc'; limit: number; after?: KeysetPosition }) => {
        const page = (await store().reference.tickerItemsPage({ active: true, sort: 'ticker', ...q, limit: q.limit + 1 }))!;
        const tickers = (JSON.parse(`[${page.items.toString()}]`) as { ticker: string }[]).map((i) => i.ticker);
        expect(tickers.length).toBe(page.count);
        return { tickers, next: page.next };
      };
      const first = await items({ order: 'asc', limit: 2 });
      expect(first.tickers).toEqual(['AAA', 'BBB']);
      expect(first.next?.value).toBe('BBB');
      const second = await items({ order: 'asc', limit: 2, after: first.next });
      expect(second).toEqual({ tickers: ['a.b:c'], next: undefined });
      const desc = await items({ order: 'desc', limit: 2 });
      expect(desc.tickers).toEqual(['a.b:c', 'BBB']);
      expect(desc.next?.value).toBe('BBB');
      expect((await items({ order: 'desc', limit: 2, after: desc.next })).tickers).toEqual(['AAA']);
      expect(await items({ order: 'asc', limit: 3 })).toEqual({ tickers: ['AAA', 'BBB', 'a.b:c'], next: undefined });
    });

    it('searches ticker and name case-insensitively, with LIKE wildcards taken literally', async () => {
      await seeded();
      const search = async (s: string) => (await store().reference.listTickers({ active: true, sort: 'ticker', order: 'asc', limit: 10, search: s })).map((r) => r.record.ticker);
      expect(await search('odd')).toEqual(['a.b:c']);
      expect(await search('bb')).toEqual(['BBB']);
      expect(await search('%')).toEqual([]);
      expect(await search('_')).toEqual([]);
    });

    it('lists the versions valid on a date, active being listed and not yet delisted then', async () => {
      await seeded();
      const on = async (date: string, active: boolean) =>
        (await store().reference.listTickers({ active, date, sort: 'ticker', order: 'asc', limit: 10 })).map((r) => `${r.record.ticker}:${r.record.name}`);
      expect(await on('2010-01-01', true)).toEqual(['AAA:AAA Corp', 'BBB:Old BBB', 'CCC:CCC Corp', 'a.b:c:Odd symbol']);
      expect(await on('2020-07-01', true)).toEqual(['AAA:AAA Corp', 'BBB:New BBB', 'a.b:c:Odd symbol']);
      expect(await on('2020-07-01', false)).toEqual(['CCC:CCC Corp']);
    });
  });

  describe('reference repository: types, exchanges, conditions', () => {
    const store = useStore(makeStore);

    it('replaces ticker types whole and reads them back in load order, filtered', async () => {
      await store().reference.replaceTickerTypes(TYPES);
      await store().reference.replaceTickerTypes(TYPES);
      expect(await store().reference.listTickerTypes({})).toEqual(TYPES);
      expect(await store().reference.listTickerTypes({ asset_class: 'fx' })).toEqual([TYPES[2]]);
      await store().reference.replaceTickerTypes(TYPES.slice(0, 1));
      expect(await store().reference.listTickerTypes({})).toEqual(TYPES.slice(0, 1));
    });

    it('replaces exchanges whole; lists them by asset class then id', async () => {
      await store().reference.replaceExchanges(EXCHANGES);
      expect(await store().reference.listExchanges({})).toEqual([EXCHANGES[2], EXCHANGES[1], EXCHANGES[0]]);
      expect(await store().reference.listExchanges({ asset_class: 'stocks', locale: 'us' })).toEqual([EXCHANGES[1], EXCHANGES[0]]);
      await store().reference.replaceExchanges([]);
      expect(await store().reference.listExchanges({})).toEqual([]);
    });

    it('filters conditions by whole data type and SIP, sorts and pages them', async () => {
      const all = [
        condition(2, 'Average Price', { data_types: ['trade', 'bbo'], sip_mapping: { CTA: 'B', UTP: 'W' } }),
        condition(1, 'Acquisition', { sip_mapping: { UTP: 'A' }, legacy: true }),
        condition(3, 'Bunched', { data_types: ['trades_extended'], sip_mapping: { CTA: 'X' } }),
      ];
      await store().reference.replaceConditions(all);
      const list = async (q: Partial<ConditionQuery>) =>
        (await store().reference.listConditions({ sort: 'id', order: 'asc', limit: 10, ...q })).map((r) => r.record.id);
      expect(await list({})).toEqual([1, 2, 3]);
      expect(await list({ data_type: 'trade' })).toEqual([1, 2]);
      expect(await list({ sip: 'CTA' })).toEqual([2, 3]);
      expect(await list({ id: 3 })).toEqual([3]);
      expect(await list({ sort: 'name', order: 'desc' })).toEqual([3, 2, 1]);
      const first = await store().reference.listConditions({ sort: 'id', order: 'asc', limit: 2 });
      const next = await store().reference.listConditions({ sort: 'id', order: 'asc', limit: 2, after: { value: first[1]!.sortValue, id: first[1]!.pk } });
      expect(next.map((r) => r.record.id)).toEqual([3]);
      expect(first[0]!.record).toEqual(all[1]);
    });
  });
}
