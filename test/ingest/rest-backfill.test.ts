// `sync rest`'s back-fill against a fake upstream of generated bodies (no ../shared needed), on
// both engines: minute bars in the fewest calls and served back as upstream gave them; the ledger
// makes a re-run fetch only what is missing; an interrupted unit resumes at the page it reached;
// a page not of the promised shape stops that data set for that ticker and nothing of it is kept.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nyMidnight } from '../../src/domain/calendar.js';
import { fetchUnit, planBackfill, runBackfill } from '../../src/ingest/rest-backfill.js';
import type { Store } from '../../src/store/index.js';
import { UpstreamCallTally } from '../../src/upstream/call-tally.js';
import { UpstreamRestClient } from '../../src/upstream/rest-client.js';
import type { RestDatasetName } from '../../src/upstream/rest-datasets.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { FakeUpstream, serveGeneratedMarket } from '../helpers/fake-upstream-rest.js';

const KEY = 'operator-key-for-upstream';
const NOW = Date.parse('2026-12-01T12:00:00Z');
const now = () => NOW;

for (const engine of engines()) {
  describe(`sync rest back-fill (${engine.name})`, () => {
    let store: Store;
    let fake: FakeUpstream;
    let app: TestApp;
    let tally: UpstreamCallTally;
    let client: UpstreamRestClient;
    const log: string[] = [];

    beforeAll(async () => {
      store = await engine.open();
      app = await startTestApp(store, { envelope: 'native', now });
    });
    afterAll(async () => {
      await app.close();
      await store.close();
    });
    beforeEach(async () => {
      fake = await FakeUpstream.start();
      serveGeneratedMarket(fake);
      tally = new UpstreamCallTally();
      client = new UpstreamRestClient({ baseUrl: fake.baseUrl, key: KEY, retries: 0, sleep: async () => {}, onEvent: tally.onEvent });
      log.length = 0;
    });
    afterEach(async () => fake.close());

    const sync = async (datasets: RestDatasetName[], tickers: string[], from?: string, to?: string) => {
      const plan = await planBackfill(store, { datasets, tickers, allTickers: false, from, to, now });
      return { plan, summary: await runBackfill(store, client, plan, { now, tally, log: (l) => log.push(l) }) };
    };

    it('fetches a week of minute bars in one call, serves them as upstream did, and a re-run calls nothing', async () => {
      const { summary } = await sync(['aggs-minute'], ['AAPL'], '2026-11-02', '2026-11-06');
      expect(summary.failures).toEqual([]);
      // 5 days × 960 bars fit one page of 50,000: the fewest calls paging allows
      expect(fake.calls(/^\/v2\/aggs/)).toHaveLength(1);
      expect(fake.requests[0]!.query.get('limit')).toBe('50000');
      expect(fake.requests[0]!.query.get('adjusted')).toBe('false');

      const upstream = await client.get('/v2/aggs/ticker/AAPL/range/1/minute/2026-11-02/2026-11-06?adjusted=false&limit=50000&sort=asc');
      const local = await app.get('/v2/aggs/ticker/AAPL/range/1/minute/2026-11-02/2026-11-06?adjusted=false&limit=50000&sort=asc');
      expect(local.status).toBe(200);
      expect(local.body.results).toHaveLength(4800);
      expect(local.body.results).toEqual(upstream.body.results);

      const again = await planBackfill(store, { datasets: ['aggs-minute'], tickers: ['AAPL'], allTickers: false, from: '2026-11-02', to: '2026-11-06', now });
      expect(again.units).toEqual([]);
      expect(again.skipped).toBe(1);
      // a wider range fetches only the days the ledger lacks
      const wider = await planBackfill(store, { datasets: ['aggs-minute'], tickers: ['AAPL'], allTickers: false, from: '2026-10-30', to: '2026-11-10', now });
      expect(wider.units.map((u) => [u.from, u.to])).toEqual([['2026-10-30', '2026-11-01'], ['2026-11-07', '2026-11-10']]);
    });

    it('fetches day bars of every ticker one call per day, which then cover each ticker', async () => {
      fake.on(/^\/v2\/aggs\/grouped\/locale\/us\/market\/stocks\/(\d{4}-\d\d-\d\d)$/, (req) => {
        const t = nyMidnight(req.path.split('/').pop()!);
        return { body: { status: 'OK', request_id: 'r', adjusted: false, results: ['GRPA', 'GRPB', 'GRPC'].map((T, i) => ({ T, v: 1000 + i, vw: 10.5, o: 10 + i, c: 11 + i, h: 12 + i, l: 9 + i, t, n: 7 })) } };
      });
      const plan = await planBackfill(store, { datasets: ['aggs-day'], tickers: [], allTickers: true, from: '2026-10-05', to: '2026-10-11', now });
      expect(plan.units).toEqual([{ dataset: 'aggs-day', ticker: '*', from: '2026-10-05', to: '2026-10-11' }]);
      const summary = await runBackfill(store, client, plan, { now, tally, log: () => {} });
      expect(summary.failures).toEqual([]);
      expect(summary.rows).toBe(15);
      // five trading days, five calls, whatever the number of tickers
      expect(fake.calls(/^\/v2\/aggs\/grouped/)).toHaveLength(5);
      const res = await app.get('/v2/aggs/ticker/GRPB/range/1/day/2026-10-05/2026-10-09?adjusted=false');
      expect(res.body.results).toHaveLength(5);
      expect(res.body.results[0]).toEqual({ v: 1001, vw: 10.5, o: 11, c: 12, h: 13, l: 10, t: nyMidnight('2026-10-05'), n: 7 });
      // a ticker's own back-fill of those days has nothing left to fetch
      expect((await planBackfill(store, { datasets: ['aggs-day'], tickers: ['GRPB'], allTickers: false, from: '2026-10-05', to: '2026-10-09', now })).units).toEqual([]);
      // grouped daily bars are stocks': a crypto pair's days are still to fetch
      expect((await planBackfill(store, { datasets: ['aggs-day'], tickers: ['X:BTCUSD'], allTickers: false, from: '2026-10-05', to: '2026-10-09', now })).units).toHaveLength(1);
    });

    it('leaves out days that have not ended in New York', async () => {
      const plan = await planBackfill(store, { datasets: ['aggs-day'], tickers: ['MSFT'], allTickers: false, from: '2026-11-25', to: '2026-12-05', now });
      expect(plan.units.map((u) => [u.from, u.to])).toEqual([['2026-11-25', '2026-11-30']]);
      expect(plan.notes.join('\n')).toMatch(/days after 2026-11-30 are left out/);
    });

    it('resumes an interrupted day of trades at the page it reached, fetching no page twice and storing no duplicate', async () => {
      // the third page fails (no retries in this client): the unit stays partial at that page
      let n = 0;
      fake.on(/^\/v3\/trades\/NVDA$/, (req) => {
        if (++n === 3) return { status: 503, body: { status: 'ERROR', error: 'busy' } };
        return undefined;
      });
      const first = await sync(['trades'], ['NVDA'], '2026-11-02', '2026-11-02');
      expect(first.summary.failures).toHaveLength(1);
      expect(first.summary.failures[0]).toMatch(/trades NVDA 2026-11-02\.\.2026-11-02: .*HTTP 503/);
      const entry = await store.upstreamLedger.get({ dataset: 'trades', ticker: 'NVDA', from: '2026-11-02', to: '2026-11-02' });
      expect(entry?.status).toBe('partial');
      expect(entry?.nextUrl).toContain('cursor=2000');
      expect(entry?.nextUrl).not.toContain(KEY);

      const second = await sync(['trades'], ['NVDA'], '2026-11-02', '2026-11-02');
      expect(second.summary.failures).toEqual([]);
      const cursors = fake.calls(/^\/v3\/trades/).map((r) => r.query.get('cursor') ?? '0');
      expect(cursors).toEqual(['0', '1000', '2000', '2000', '3000']);
      const res = await app.get('/v3/trades/NVDA?timestamp=2026-11-02&limit=50000');
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(3500);
      expect(new Set(res.body.results.map((t: { id: string }) => t.id)).size).toBe(3500);
    });

    it('stops a data set for a ticker whose answer has a field of the wrong type, keeps nothing of that page, and goes on with the rest', async () => {
      fake.fail({ kind: 'wrong-type', field: 'o' }, { match: /^\/v2\/aggs\/ticker\/AMD\// });
      const { summary } = await sync(['aggs-day'], ['AMD', 'INTC'], '2026-11-02', '2026-11-06');
      expect(summary.completed).toBe(1);
      expect(summary.failures).toHaveLength(1);
      expect(summary.failures[0]).toContain(`${fake.baseUrl}/v2/aggs/ticker/AMD/range/1/day/2026-11-02/2026-11-06?adjusted=false&sort=asc&limit=50000`);
      expect(summary.failures[0]).toContain('results[0].o: must be a number, got "not-a-number"');
      expect((await app.get('/v2/aggs/ticker/AMD/range/1/day/2026-11-02/2026-11-06?adjusted=false')).body.resultsCount).toBe(0);
      expect((await app.get('/v2/aggs/ticker/INTC/range/1/day/2026-11-02/2026-11-06?adjusted=false')).body.resultsCount).toBe(5);
      expect((await store.upstreamLedger.get({ dataset: 'aggs-day', ticker: 'AMD', from: '2026-11-02', to: '2026-11-06' }))?.status).toBe('failed');
    });

    it('replaces reference lists with what upstream lists, and never with an empty answer', async () => {
      let list: unknown[] = [{ id: 1, type: 'exchange', asset_class: 'stocks', locale: 'us', name: 'NYSE American, LLC', mic: 'XASE' }];
      fake.on(/^\/v3\/reference\/exchanges$/, () => ({ body: { status: 'OK', request_id: 'r', results: list, count: list.length } }));
      expect((await sync(['exchanges'], [])).summary.failures).toEqual([]);
      expect((await app.get('/v3/reference/exchanges?asset_class=stocks')).body.results).toEqual(list);
      list = [];
      await fetchUnit(store, client, { dataset: 'exchanges', ticker: '*', from: '', to: '' }, { now, tally });
      expect((await app.get('/v3/reference/exchanges?asset_class=stocks')).body.results).toHaveLength(1);
    });

    it('syncs further listed data sets through their importers, paging with next_url, served back as upstream listed them', async () => {
      const yields = Array.from({ length: 2500 }, (_, i) => ({ date: new Date(Date.UTC(2016, 0, 1) + i * 86_400_000).toISOString().slice(0, 10), yield_1_year: 1 + i / 1000, yield_10_year: 2 + i / 1000 }));
      fake.paged(/^\/fed\/v1\/treasury-yields$/, () => yields, { maxLimit: 1000 });
      const { summary } = await sync(['treasury-yields'], []);
      expect(summary.failures).toEqual([]);
      expect(summary.rows).toBe(2500);
      expect(fake.calls(/treasury-yields/).map((r) => r.query.get('cursor') ?? '0')).toEqual(['0', '1000', '2000']);
      const local = await app.get('/fed/v1/treasury-yields?limit=50000&sort=date.asc');
      expect(local.status).toBe(200);
      expect(local.body.results).toEqual(yields);
    });

    it("syncs financials as upstream's three statements, asked for by ticker, and serves each back as listed", async () => {
      const head = { cik: '0000320193', tickers: ['AAPL'], period_end: '2026-06-27', filing_date: '2026-08-01', fiscal_year: 2026, fiscal_quarter: 3, timeframe: 'quarterly' };
      const statements: Record<string, Record<string, unknown>> = {
        'income-statements': { ...head, revenue: 94_040_000_000, gross_profit: 43_720_000_000 },
        'balance-sheets': { ...head, total_assets: 331_500_000_000 },
        'cash-flow-statements': { ...head, net_income: 23_430_000_000 },
      };
      fake.on(/^\/stocks\/financials\/v1\//, (req) => {
        const kind = req.path.split('/').pop()!;
        return { body: { status: 'OK', request_id: 'r', results: req.query.get('tickers') === 'AAPL' ? [statements[kind]] : [] } };
      });
      const { summary } = await sync(['financials'], ['AAPL']);
      expect(summary.failures).toEqual([]);
      expect(summary.rows).toBe(3);
      expect(fake.calls(/^\/stocks\/financials/).map((r) => r.query.get('limit'))).toEqual(['50000', '50000', '50000']);
      for (const [kind, record] of Object.entries(statements)) {
        const res = await app.get(`/stocks/financials/v1/${kind}?tickers=AAPL`);
        expect(res.status).toBe(200);
        expect(res.body.results).toEqual([record]);
      }
    });

    it('reports a ticker upstream does not know, and fetches it again on the next run', async () => {
      const { summary } = await sync(['tickers'], ['ZZZZ']);
      expect(summary.failures).toEqual([`tickers ZZZZ: ${fake.baseUrl}/v3/reference/tickers/ZZZZ: upstream has no ticker ZZZZ (HTTP 404)`]);
      expect((await planBackfill(store, { datasets: ['tickers'], tickers: ['ZZZZ'], allTickers: false, now })).units).toHaveLength(1);
    });

    it('waits out a 429 and counts it as refused; a refused key stops everything', async () => {
      const patient = new UpstreamRestClient({ baseUrl: fake.baseUrl, key: KEY, sleep: async () => {}, onEvent: tally.onEvent });
      fake.fail({ kind: 'status', status: 429, retryAfter: '1' });
      const before = await store.upstreamLedger.counters();
      const o = await fetchUnit(store, patient, { dataset: 'aggs-day', ticker: 'TSLA', from: '2026-11-02', to: '2026-11-03' }, { now, tally });
      expect(o.status).toBe('complete');
      expect(o.rows).toBe(2);
      const after = await store.upstreamLedger.counters();
      expect(after.calls - before.calls).toBe(2);
      expect(after.refused - before.refused).toBe(1);

      fake.fail({ kind: 'status', status: 401 }, { times: 5 });
      await expect(sync(['aggs-day'], ['TSLA', 'AMZN'], '2026-11-09', '2026-11-10')).rejects.toThrow(/upstream refused the key \(HTTP 401/);
      expect(fake.calls(/AMZN/)).toHaveLength(0);
    });
  });
}
