// The demo's stored stock ticks carry what upstream's do: a participant time on every trade and
// quote, off-exchange (TRF) prints with their TRF id and time, corrected prints, and quote
// conditions in the regular session, so the fields clients read are there to see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoMarket } from '../../src/demo/market.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp, walkPages, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';

for (const engine of engines()) {
  describe(`demo stock trades and quotes (${engine.name})`, () => {
    let store: Store;
    let t: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      await loadDemoMarket(store, { asOf: AS_OF, scale: 0.1 }, ['AAPL']);
      t = await startTestApp(store, { envelope: 'native', now: () => Date.parse(`${AS_OF}T23:59:00Z`) });
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await store?.close();
    });

    it('every trade has a participant time; TRF prints have their id and time; some prints are corrected', async () => {
      const trades = (await walkPages(t, `/v3/trades/AAPL?timestamp=${AS_OF}&limit=50000`)).flatMap((p) => p.results) as Record<string, unknown>[];
      expect(trades.length).toBeGreaterThan(100);
      expect(trades.filter((r) => r.participant_timestamp === undefined)).toEqual([]);
      const trf = trades.filter((r) => r.trf_id !== undefined);
      expect(trf.length).toBeGreaterThan(0);
      expect(trf.every((r) => r.exchange === 4 && typeof r.trf_timestamp === 'number')).toBe(true);
      expect(trades.filter((r) => r.exchange !== 4).every((r) => r.trf_id === undefined && r.trf_timestamp === undefined)).toBe(true);
      const days = (await walkPages(t, `/v3/trades/AAPL?timestamp.gte=2026-10-01&timestamp.lte=${AS_OF}&limit=50000`)).flatMap((p) => p.results) as Record<string, unknown>[];
      expect(days.some((r) => r.correction === 1)).toBe(true);
    });

    it('every quote has a participant time, and regular-session quotes have conditions', async () => {
      const quotes = (await walkPages(t, `/v3/quotes/AAPL?timestamp=${AS_OF}&limit=50000`)).flatMap((p) => p.results) as Record<string, unknown>[];
      expect(quotes.length).toBeGreaterThan(100);
      expect(quotes.filter((r) => r.participant_timestamp === undefined)).toEqual([]);
      expect(quotes.some((r) => Array.isArray(r.conditions) && (r.conditions as number[]).length > 0)).toBe(true);
    });
  });
}
