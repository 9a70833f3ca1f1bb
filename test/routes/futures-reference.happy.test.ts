import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFuturesReferenceDemo } from '../../src/demo/futures.js';
import { upsertSets } from '../../src/demo/partner.js';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { FUTURES_CONTRACTS } from '../../src/store/repos/futures-catalog.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-26';

async function seed(store: Store): Promise<void> {
  await upsertSets(store, buildFuturesReferenceDemo(AS_OF));
  // ESZ6 again after its last trading day (2026-12-18): stored with the same fields, no longer active
  const esz6 = buildFuturesReferenceDemo(AS_OF)['futures-contracts']!.find((c) => c.ticker === 'ESZ6')!;
  await store.datasets.upsert(FUTURES_CONTRACTS, [{ ...esz6, date: '2026-12-21' }]);
}

for (const engine of engines()) {
  describe(`futures products, contracts and exchanges (${engine.name})`, () => {
    const { store, apps: [t] } = useSeededApps(engine, seed, {});
    const rejects = wrappedRejection(t);
    const results = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results as any[];
    };
    const field = async (url: string, name: string) => (await results(url)).map((r) => r[name]);
    const dir = mkdtempSync(join(tmpdir(), 'tb-futures-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    for (const v of ['v1', 'vX']) {
      it(`${v}: lists products by date then code, filtered by sector, class, venue, code and name`, async () => {
        expect(await field(`/futures/${v}/products`, 'product_code')).toEqual(['CL', 'ES', 'GC', 'NQ', 'ZN']);
        const es = (await results(`/futures/${v}/products?product_code=ES`))[0];
        expect(es).toMatchObject({ date: AS_OF, name: 'E-mini S&P 500 Futures', trading_venue: 'XCME', asset_class: 'financials', sector: 'us_index', unit_of_measure_qty: 50, type: 'single' });
        expect(await field(`/futures/${v}/products?sector=us_index`, 'product_code')).toEqual(['ES', 'NQ']);
        expect(await field(`/futures/${v}/products?asset_class.any_of=commodity`, 'product_code')).toEqual(['CL', 'GC']);
        expect(await field(`/futures/${v}/products?asset_sub_class=interest_rate`, 'product_code')).toEqual(['ZN']);
        expect(await field(`/futures/${v}/products?trading_venue.any_of=XNYM,XCEC&sort=product_code.desc`, 'product_code')).toEqual(['GC', 'CL']);
        expect(await field(`/futures/${v}/products?product_code.gte=GC&product_code.lt=ZN`, 'product_code')).toEqual(['GC', 'NQ']);
        expect(await field(`/futures/${v}/products?name=Gold%20Futures`, 'product_code')).toEqual(['GC']);
        expect(await field(`/futures/${v}/products?date=2026-11-25`, 'product_code')).toEqual([]);
        expect(await field(`/futures/${v}/products?date.lte=${AS_OF}&type=single&limit=2`, 'product_code')).toEqual(['CL', 'ES']);
      });

      it(`${v}: lists contracts with their expiry, activity on the date and days to maturity`, async () => {
        const es = await results(`/futures/${v}/contracts?product_code=ES&date=${AS_OF}`);
        expect(es.map((c) => c.ticker)).toEqual(['ESH7', 'ESM7', 'ESU7', 'ESZ6']);
        expect(es.find((c) => c.ticker === 'ESZ6')).toMatchObject({
          active: true, date: AS_OF, last_trade_date: '2026-12-18', settlement_date: '2026-12-18', days_to_maturity: 22, trade_tick_size: 0.25, trading_venue: 'XCME', name: 'ESZ6 Future',
        });
        expect(await results(`/futures/${v}/contracts?ticker=ESZ6&sort=date.desc`)).toMatchObject([
          { date: '2026-12-21', active: false, days_to_maturity: -3 },
          { date: AS_OF, active: true, days_to_maturity: 22 },
        ]);
        expect(await field(`/futures/${v}/contracts?active=false`, 'ticker')).toEqual(['ESZ6']);
        expect(await field(`/futures/${v}/contracts?product_code=CL&last_trade_date.lt=2027-01-01`, 'last_trade_date')).toEqual(['2026-12-22']);
        expect(await field(`/futures/${v}/contracts?ticker.any_of=GCG7,ZNH7`, 'ticker')).toEqual(['GCG7', 'ZNH7']);
        expect(await field(`/futures/${v}/contracts?ticker=ESZ9`, 'ticker')).toEqual([]);
      });

      it(`${v}: pages through every contract and exchange to the end`, async () => {
        const pages = await walkPages(t, `/futures/${v}/contracts?date=${AS_OF}&limit=3&sort=ticker.asc`);
        expect(pages).toHaveLength(7);
        const tickers = pages.flatMap((p) => p.results.map((r: any) => r.ticker));
        // four contracts of each product but ZN, whose September 2027 contract lists after ZNZ6 expires
        expect(tickers).toHaveLength(19);
        expect(tickers).toEqual([...tickers].sort());
        expect(new Set(tickers).size).toBe(19);
        expect(tickers.filter((x: string) => x.startsWith('ZN'))).toEqual(['ZNH7', 'ZNM7', 'ZNZ6']);
        expect(pages.at(-1).next_url).toBeUndefined();
        const ex = await walkPages(t, `/futures/${v}/exchanges?limit=3`);
        expect(ex.flatMap((p) => p.results.map((r: any) => r.acronym))).toEqual(['CME', 'CBOT', 'NYMEX', 'COMEX']);
        expect(ex).toHaveLength(2);
      });

      it(`${v}: lists session schedules per product and trading date, holidays shortening them`, async () => {
        const url = `/futures/${v}/schedules?product_code=ES&session_end_date.gte=${AS_OF}&session_end_date.lte=2026-11-30&limit=100`;
        expect((await results(url)).map((r) => `${r.session_end_date} ${r.event} ${r.timestamp}`)).toEqual([
          // Thanksgiving: halted at 13:00 ET; the Friday after: 13:15 ET; Monday opens Sunday 18:00 ET
          '2026-11-26 pre_open 2026-11-25T22:00:00+00:00', '2026-11-26 open 2026-11-25T23:00:00+00:00', '2026-11-26 close 2026-11-26T18:00:00+00:00',
          '2026-11-27 pre_open 2026-11-26T22:00:00+00:00', '2026-11-27 open 2026-11-26T23:00:00+00:00', '2026-11-27 close 2026-11-27T18:15:00+00:00',
          '2026-11-30 pre_open 2026-11-29T22:00:00+00:00', '2026-11-30 open 2026-11-29T23:00:00+00:00', '2026-11-30 close 2026-11-30T22:00:00+00:00',
        ]);
        expect((await results(url))[0]).toEqual({
          event: 'pre_open', product_code: 'ES', product_name: 'E-mini S&P 500 Futures', session_end_date: AS_OF, timestamp: '2026-11-25T22:00:00+00:00', trading_venue: 'XCME',
        });
        // upstream's default page is 10 rows, product code first
        const first = await results(`/futures/${v}/schedules`);
        expect(first).toHaveLength(10);
        expect(first.every((r) => r.product_code === 'CL')).toBe(true);
        expect(await field(`/futures/${v}/schedules?trading_venue=XCBT&session_end_date=2026-11-27`, 'product_code')).toEqual(['ZN', 'ZN', 'ZN']);
        expect(await field(`/futures/${v}/schedules?product_code.any_of=GC,NQ&session_end_date=2026-11-28`, 'event')).toEqual([]);
        const pages = await walkPages(t, `/futures/${v}/schedules?product_code=NQ&limit=7`);
        const rows = pages.flatMap((p) => p.results);
        // 19 Nov to 3 Dec: eleven weekday sessions (Thanksgiving shortened, not closed) of three events
        expect(rows).toHaveLength(33);
        expect(rows.map((r: any) => r.timestamp)).toEqual(rows.map((r: any) => r.timestamp).sort());
        expect(pages.at(-1).next_url).toBeUndefined();
      });

      it(`${v}: refuses bad parameters naming them`, async () => {
        await rejects(`/futures/${v}/contracts?limit=1002`, 'limit must be an integer from 1 to 1001');
        await rejects(`/futures/${v}/exchanges?limit=1001`, 'limit must be an integer from 1 to 1000');
        await rejects(`/futures/${v}/products?limit=50002`, 'limit must be an integer from 1 to 50001');
        await rejects(`/futures/${v}/products?sector=oil`, /^sector /);
        await rejects(`/futures/${v}/products?asset_class.any_of=commodity,stocks`, /^asset_class\.any_of /);
        await rejects(`/futures/${v}/contracts?active=maybe`, /^active /);
        await rejects(`/futures/${v}/contracts?date=2026-13-01`, /^date /);
        await rejects(`/futures/${v}/contracts?first_trade_date.gt=soon`, /^first_trade_date\.gt /);
        await rejects(`/futures/${v}/contracts?sort=colour.asc`, /sort/);
        await rejects(`/futures/${v}/schedules?limit=1002`, 'limit must be an integer from 1 to 1001');
        await rejects(`/futures/${v}/schedules?session_end_date.gt=tomorrow`, /^session_end_date\.gt /);
      });
    }

    it('imports contracts from CSV, deriving active and days to maturity', async () => {
      const file = join(dir, 'contracts.csv');
      writeFileSync(file, 'ticker,product_code,date,first_trade_date,last_trade_date,settlement_date,trade_tick_size,trading_venue\nNQZ7,NQ,2026-11-26,2026-01-01,2027-12-17,2027-12-17,0.25,XCME\n');
      expect(await importFile(store, file, { dataset: 'futures-contracts' })).toMatchObject({ rows: 1, rejected: 0 });
      expect(await results('/futures/vX/contracts?ticker=NQZ7')).toEqual([
        expect.objectContaining({ active: true, days_to_maturity: 386, trade_tick_size: 0.25, last_trade_date: '2027-12-17' }),
      ]);
      const bad = join(dir, 'bad-contracts.csv');
      writeFileSync(bad, 'ticker,product_code,date,trade_tick_size\nNQH8,NQ,2026-11-26,0.25\nNQM8,NQ,2026-11-31,0.25\n');
      await expect(importFile(store, bad, { dataset: 'futures-contracts' })).rejects.toThrow(/bad-contracts\.csv:3: date/);
      expect(await results('/futures/vX/contracts?ticker=NQH8')).toEqual([]);
    });
  });
}
