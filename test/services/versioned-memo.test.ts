// Reads kept per data version: asked again at the same version they are not read again; a new
// version reads anew; a failed read is not kept. Through the aggregates service on both engines, a
// split or a listing written after a range was answered shows in the next answer.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AggregateService } from '../../src/services/market-data.js';
import { VersionedMemo } from '../../src/services/versioned-memo.js';
import type { Store } from '../../src/store/index.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';

describe('VersionedMemo', () => {
  it('reads once per key and version, again after the version moves, and never keeps a failure', async () => {
    let version = 'a';
    const memo = new VersionedMemo(() => version);
    let reads = 0;
    const load = async () => ++reads;
    expect(await memo.get('k', load)).toBe(1);
    expect(await memo.get('k', load)).toBe(1);
    expect(await memo.get('other', load)).toBe(2);
    version = 'b';
    expect(await memo.get('k', load)).toBe(3);
    await expect(memo.get('bad', async () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await memo.get('bad', load)).toBe(4);
  });
});

const T0 = Date.UTC(2026, 2, 10, 14, 30); // a Tuesday, 09:30 ET

for (const engine of engines()) {
  describe(`ranges read a ticker's splits and listing once per data version (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
      await store.market.insertBars('minute', Array.from({ length: 10 }, (_, i) => ({ ticker: 'MEMO', t: T0 + i * 60_000, o: 10, h: 10, l: 10, c: 10, v: 100 })));
    });
    afterAll(async () => store?.close());

    it('answers a repeat without those reads, and a split written meanwhile in the next answer', async () => {
      const service = new AggregateService(store, () => T0 + 86_400_000);
      const req = { ticker: 'MEMO', multiplier: 5, timespan: 'minute' as const, fromMs: T0, toMs: T0 + 3_600_000, adjusted: true, sort: 'asc' as const, limit: 50_000 };
      const closes = async () => {
        const r = await service.rangeJson(req);
        return (JSON.parse('json' in r.results ? r.results.json : `[${r.results.joined.toString()}]`) as { c: number }[]).map((b) => b.c);
      };
      await settledDataVersion(store, engine.name);
      expect(await closes()).toEqual([10, 10]);
      const splits = vi.spyOn(store.corporateActions, 'splitsFor');
      const tickers = vi.spyOn(store.reference, 'getTicker');
      expect(await closes()).toEqual([10, 10]);
      expect(splits).not.toHaveBeenCalled();
      expect(tickers).not.toHaveBeenCalled();
      await store.corporateActions.upsertSplits([{ ticker: 'MEMO', execution_date: '2026-03-11', split_from: 1, split_to: 2, adjustment_type: 'forward_split' }]);
      expect(await closes()).toEqual([5, 5]);
      expect(splits).toHaveBeenCalledTimes(1);
      vi.restoreAllMocks();
    });
  });
}
