// Bars of a ticker the feed is not trading, over a range reaching today, asked again and again
// while other tickers trade: the repeated request is answered before Fastify's pipeline
// (cached-hits.ts), until that ticker's own live data (a stored minute bar for minute ranges, a
// trade for second ranges), an import or the day changes the answer; then the next answer shows
// it. Both engines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { nyTime } from '../../src/domain/calendar.js';
import type { BarRow, TradeRow } from '../../src/domain/market-records.js';
import type { CachedHits } from '../../src/server/cached-hits.js';
import { loadPlanFile } from '../../src/server/plans.js';
import { storeLiveMinuteBars, storeTicks } from '../../src/services/live-ticks.js';
import type { Store } from '../../src/store/index.js';
import { settledDataVersion } from '../helpers/data-version.js';
import { engines } from '../helpers/engines.js';
import { rawGet } from '../helpers/raw-get.js';

const bar = (ticker: string, t: number, c: number): BarRow => ({ ticker, t, o: c, h: c, l: c, c, v: 100, vw: c, n: 1 });
const trade = (ticker: string, ms: number, price: number, seq: bigint): TradeRow => ({ ticker, sip_timestamp: BigInt(ms) * 1_000_000n, price, size: 10, exchange: 4, sequence_number: seq });
const minutes = (ticker: string) => `/v2/aggs/ticker/${ticker}/range/1/minute/2024-03-03/2024-03-08`;
const seconds = (ticker: string) => `/v2/aggs/ticker/${ticker}/range/1/second/2024-03-08/2024-03-08`;
const closes = (body: Buffer) => ((JSON.parse(String(body)) as { results: { c?: number }[] }).results ?? []).map((b) => b.c);

for (const engine of engines()) {
  describe(`bars of an untraded ticker up to today, answered before the pipeline (${engine.name})`, () => {
    let store: Store;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let hits: CachedHits;
    let url: string;
    let key: string;
    let clock = nyTime('2024-03-08', '12:00');
    let seq = 10n;
    const dir = mkdtempSync(join(tmpdir(), 'tb-untraded-'));

    beforeAll(async () => {
      store = await engine.open();
      const today = nyTime('2024-03-08', '10:00');
      const before = nyTime('2024-03-07', '10:00');
      await store.market.insertBars('minute', [bar('KO', before, 60), bar('KO', today, 61), bar('AAA', before, 10), bar('AAA', today, 11)]);
      await store.market.insertTrades([trade('KO', today, 61, 1n), trade('AAA', today, 11, 1n)]);
      await settledDataVersion(store, engine.name);
      const plans = join(dir, 'plans.json');
      writeFileSync(plans, JSON.stringify({ plans: { late: { extends: 'business', timeframe: 'delayed', delay_minutes: 15 } } }));
      app = await buildApp({ store, config: { envelope: 'native' }, now: () => clock, production: { plans: loadPlanFile(plans) } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      hits = app.ctx.hits as CachedHits;
      key = (await store.keys.create({ plan: 'business', label: 'untraded' })).key;
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await store?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    afterEach(() => vi.restoreAllMocks());

    const get = (path: string) => rawGet(url + path, { 'x-api-key': key });
    /** Asks `path` and tells whether it was answered before the pipeline. */
    const ask = async (path: string) => {
      const served = hits.served;
      const res = await get(path);
      expect(res.status).toBe(200);
      return { here: hits.served - served === 1, closes: closes(res.body), body: res.body };
    };

    it("answers KO's minute bars to today here while AAA trades, and anew once KO's bar is stored", async () => {
      await settledDataVersion(store, engine.name);
      const made = vi.spyOn(app.ctx.services.aggregates, 'rangeJson');
      await ask(minutes('KO'));
      expect(await ask(minutes('KO'))).toMatchObject({ here: true, closes: [60, 61] });
      // AAA's trades and bars leave KO's answer as it is
      await storeTicks(store, [trade('AAA', clock - 1000, 12, seq++)], []);
      await storeLiveMinuteBars(store, [bar('AAA', nyTime('2024-03-08', '11:59'), 12)]);
      expect(await ask(minutes('KO'))).toMatchObject({ here: true, closes: [60, 61] });
      // a trade of KO: its minute bars wait for the aggregator's stored bar
      await storeTicks(store, [trade('KO', clock - 1000, 62, seq++)], []);
      expect(await ask(minutes('KO'))).toMatchObject({ here: true, closes: [60, 61] });
      expect(made).toHaveBeenCalledTimes(1);
      await storeLiveMinuteBars(store, [bar('KO', nyTime('2024-03-08', '11:59'), 62)]);
      expect((await ask(minutes('KO'))).closes).toEqual([60, 61, 62]);
      expect(await ask(minutes('KO'))).toMatchObject({ here: true, closes: [60, 61, 62] });
      expect(made).toHaveBeenCalledTimes(2);
      // what the full path answers to the same request
      const full = await app.inject({ method: 'GET', url: minutes('KO'), headers: { 'x-api-key': key } });
      expect({ ...full.json(), request_id: '' }).toEqual({ ...JSON.parse(String((await ask(minutes('KO'))).body)), request_id: '' });
    });

    it("sends a delayed plan's key the full path's answer, not the real-time plan's", async () => {
      await settledDataVersion(store, engine.name);
      const late = (await store.keys.create({ plan: 'late' })).key;
      const path = seconds('KO');
      await ask(path);
      expect((await ask(path)).here).toBe(true);
      await rawGet(url + path, { 'x-api-key': late }); // a key's first use reads the store
      const served = hits.served;
      const res = await rawGet(url + path, { 'x-api-key': late });
      expect(hits.served).toBe(served);
      const full = await app.inject({ method: 'GET', url: path, headers: { 'x-api-key': late } });
      expect({ ...JSON.parse(String(res.body)), request_id: '' }).toEqual({ ...full.json(), request_id: '' });
      expect(JSON.parse(String(res.body)).status).toBe('DELAYED');
    });

    it("answers KO's second bars of today anew after a trade of KO, and here after AAA's", async () => {
      await settledDataVersion(store, engine.name);
      await ask(seconds('KO'));
      expect(await ask(seconds('KO'))).toMatchObject({ here: true });
      const before = (await ask(seconds('KO'))).closes;
      await storeTicks(store, [trade('AAA', clock - 500, 13, seq++)], []);
      expect(await ask(seconds('KO'))).toMatchObject({ here: true, closes: before });
      await storeTicks(store, [trade('KO', clock - 500, 63, seq++)], []);
      expect((await ask(seconds('KO'))).closes.at(-1)).toBe(63);
      expect(await ask(seconds('KO'))).toMatchObject({ here: true });
    });

    it("answers KO's latest trades here while AAA trades, and anew with KO's trade", async () => {
      await settledDataVersion(store, engine.name);
      const prices = (body: Buffer) => (JSON.parse(String(body)) as { results: { price: number }[] }).results.map((r) => r.price);
      const path = '/v3/trades/KO?limit=5';
      await ask(path);
      const before = await ask(path);
      expect(before.here).toBe(true);
      await storeTicks(store, [trade('AAA', clock - 200, 14, seq++)], []);
      const still = await ask(path);
      expect([still.here, prices(still.body)]).toEqual([true, prices(before.body)]);
      await storeTicks(store, [trade('KO', clock - 200, 64, seq++)], []);
      const after = await ask(path);
      expect(prices(after.body)[0]).toBe(64);
      expect((await ask(path)).here).toBe(true);
    });

    it('answers anew after an import, and once the day rolls', async () => {
      await settledDataVersion(store, engine.name);
      await ask(minutes('KO'));
      expect((await ask(minutes('KO'))).here).toBe(true);
      await store.market.insertBars('minute', [bar('KO', nyTime('2024-03-06', '10:00'), 59)]); // not live: an import's write
      await settledDataVersion(store, engine.name);
      expect(await ask(minutes('KO'))).toMatchObject({ here: false });
      expect((await ask(minutes('KO'))).closes[0]).toBe(59);
      clock = nyTime('2024-03-09', '00:00') + 5_000;
      expect((await ask(minutes('KO'))).here).toBe(false);
    });
  });
}
