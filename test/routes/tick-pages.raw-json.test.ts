// Trades, quotes and range bars are written as JSON text straight from the rows the store reads
// (services/tick-json.ts). Every list of ticks and bars must answer exactly what the object path
// (readTrades/readQuotes + tradeToWire/quoteToWire, rangeBars) gives for the same rows: compared
// value by value after parsing, with nanosecond times and sequence numbers parsed exactly, in both
// envelopes, on fixture rows (times above 2^53, absent optional fields, forex, crypto, options,
// index bars, an OTC ticker, a split) and on a sample of demo rows.
import { describe, expect, it } from 'vitest';
import { demoMarketPlan, stockRows } from '../../src/demo/market.js';
import { marketOfTicker } from '../../src/domain/ticker-market.js';
import type { Timespan } from '../../src/domain/bars.js';
import { groupedDaily, previousClose, rangeBars } from '../../src/services/aggregates.js';
import { quoteToWire, tradeToWire } from '../../src/services/trades-quotes.js';
import type { Store } from '../../src/store/index.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import type { TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { ns, OPTION, seedMarket, utc } from '../helpers/market-fixture.js';

const NOW = utc('2026-11-25T12:00:00Z');
const LATE = BigInt(NOW) * 1_000_000n - 1n; // 19 digits, above 2^53 and not a double
const DEMO = 'NVDA';

/** Edge rows beyond the fixture: every optional field absent, or all present, on one ticker. */
const EDGE = 'EDGE';
async function seed(store: Store): Promise<void> {
  await seedMarket(store);
  const demo = stockRows(DEMO, demoMarketPlan('2026-11-20', 0.05));
  await store.market.insertBars('day', demo.day);
  await store.market.insertBars('minute', demo.minute);
  await store.market.insertTrades(demo.trades);
  await store.market.insertQuotes(demo.quotes);
  const t = ns('2024-03-11T14:00:00Z');
  await store.market.insertTrades([
    { ticker: EDGE, sip_timestamp: t + 1n, price: 10.125, size: 0.001, exchange: 1 },
    // the latest 19-digit time a real-time plan sees at the apps' clock (NOW): a plan's window ends at now
    { ticker: EDGE, sip_timestamp: LATE, participant_timestamp: LATE - 1n, trf_timestamp: LATE - 2n,
      price: 0.1 + 0.2, size: 1e21, exchange: 2, id: 'a "quoted"\\id', conditions: [0, 1, 255], correction: 12, sequence_number: 9_007_199_254_740_993n, tape: 1, trf_id: 0 },
  ]);
  await store.market.insertQuotes([
    { ticker: EDGE, sip_timestamp: t + 2n, ask_price: 1.5, bid_price: 1.25 },
    { ticker: EDGE, sip_timestamp: t + 3n, participant_timestamp: t, trf_timestamp: t + 1n, ask_price: 0.1 + 0.2, ask_size: 0, ask_exchange: 0,
      bid_price: 1e-7, bid_size: 2.5, bid_exchange: 3, conditions: [1, 2], indicators: [604, 607], sequence_number: 9_007_199_254_740_995n, tape: 2 },
  ]);
}

/** JSON with the nanosecond fields parsed exactly, as decimal text. */
const NS_FIELDS = /"(sip_timestamp|participant_timestamp|trf_timestamp|sequence_number)":(-?\d+)/g;
const parseExact = (text: string): any => JSON.parse(text.replace(NS_FIELDS, '"$1":"$2"'));
/** A value of the object path with its bigints as the same decimal text. */
const exact = (v: unknown): any => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)));

async function getExact(t: TestApp, url: string): Promise<any> {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
  if (res.statusCode !== 200) throw new Error(`${url}: HTTP ${res.statusCode} ${res.body}`);
  return t.data({ body: parseExact(res.body) });
}

/** Every page of a list, following next_url; the inner bodies. */
async function walk(t: TestApp, first: string): Promise<any[]> {
  const pages: any[] = [];
  for (let url: string | undefined = first; url; ) {
    const page = await getExact(t, url);
    pages.push(page);
    url = page.next_url ? new URL(page.next_url).pathname + new URL(page.next_url).search : undefined;
  }
  return pages;
}

const TICK_TICKERS = ['AAPL', 'X:BTCUSD', OPTION, DEMO, EDGE];
const QUOTE_TICKERS = ['AAPL', 'C:EURUSD', DEMO, EDGE];

for (const engine of engines()) {
  describe(`tick and bar pages written from raw rows (${engine.name})`, () => {
    const { store, apps } = useSeededApps(engine, seed, { envelope: 'wrapped', now: () => NOW }, { envelope: 'native', now: () => NOW });
    const both = () => [['wrapped', apps[0]!], ['native', apps[1]!]] as const;

    it('v3 trades: every page equals the object path, ns exact, declared keys only', async () => {
      for (const [envelope, t] of both()) {
        for (const ticker of TICK_TICKERS) {
          for (const order of ['asc', 'desc'] as const) {
            const want = exact((await store.market.readTrades({ ticker, order, limit: 100_000 })).map((p) => tradeToWire(p.row, marketOfTicker(ticker))));
            expect(want.length, ticker).toBeGreaterThan(0);
            const pages = await walk(t, `/v3/trades/${encodeURIComponent(ticker)}?order=${order}&limit=7`);
            expect(pages.flatMap((p) => p.results), `${envelope} ${ticker} ${order}`).toEqual(want);
            expect(pages.length).toBe(Math.ceil(want.length / 7));
            for (const p of pages) expect(Object.keys(p).sort()).toEqual(p.next_url ? ['next_url', 'request_id', 'results', 'status'] : ['request_id', 'results', 'status']);
            const whole = await getExact(t, `/v3/trades/${encodeURIComponent(ticker)}?order=${order}&limit=50000`);
            expect(whole.results).toEqual(want);
          }
        }
      }
    });

    it('v3 trades keep times and sequence numbers above 2^53 exact and write absent fields as absent', async () => {
      const body = await getExact(apps[1]!, `/v3/trades/${EDGE}?order=asc`);
      expect(body.results).toEqual([
        { decimal_size: '0.001', exchange: 1, price: 10.125, sip_timestamp: String(ns('2024-03-11T14:00:00Z') + 1n), size: 0.001 },
        {
          conditions: [0, 1, 255], correction: 12, decimal_size: '1e+21', exchange: 2, id: 'a "quoted"\\id', participant_timestamp: String(LATE - 1n),
          price: 0.30000000000000004, sequence_number: '9007199254740993', sip_timestamp: String(LATE), size: 1e21, tape: 1, trf_id: 0,
          trf_timestamp: String(LATE - 2n),
        },
      ]);
    });

    it('v3 quotes: every page equals the object path, ns exact, declared keys only', async () => {
      for (const [envelope, t] of both()) {
        for (const ticker of QUOTE_TICKERS) {
          for (const order of ['asc', 'desc'] as const) {
            const want = exact((await store.market.readQuotes({ ticker, order, limit: 100_000 })).map((p) => quoteToWire(p.row)));
            expect(want.length, ticker).toBeGreaterThan(0);
            const pages = await walk(t, `/v3/quotes/${encodeURIComponent(ticker)}?order=${order}&limit=3`);
            expect(pages.flatMap((p) => p.results), `${envelope} ${ticker} ${order}`).toEqual(want);
            for (const p of pages) expect(p.count).toBeUndefined();
          }
        }
      }
      const edge = await getExact(apps[0]!, `/v3/quotes/${EDGE}?order=asc`);
      expect(edge.results[0]).toEqual({ ask_price: 1.5, bid_price: 1.25, sip_timestamp: String(ns('2024-03-11T14:00:00Z') + 2n) });
      expect(edge.results[1]).toMatchObject({ ask_price: 0.30000000000000004, ask_size: 0, ask_exchange: 0, bid_price: 1e-7, sequence_number: '9007199254740995', indicators: [604, 607] });
      const forex = await getExact(apps[1]!, '/v3/quotes/C:EURUSD?order=asc');
      for (const q of forex.results) expect(q.sip_timestamp).toBeUndefined();
    });

    it('range aggregates equal rangeBars, aggregated and split-adjusted on the way, every page', async () => {
      const d = (iso: string) => utc(iso);
      const cases: { ticker: string; multiplier: number; timespan: Timespan; from: number; to: number; limit: number; extra?: string }[] = [
        { ticker: 'AAPL', multiplier: 1, timespan: 'minute', from: d('2024-03-08T00:00:00Z'), to: d('2024-03-12T23:59:59Z'), limit: 50_000 },
        { ticker: 'AAPL', multiplier: 1, timespan: 'minute', from: d('2024-03-08T00:00:00Z'), to: d('2024-03-12T23:59:59Z'), limit: 700 },
        { ticker: 'AAPL', multiplier: 7, timespan: 'minute', from: d('2024-03-08T13:03:00Z'), to: d('2024-03-11T23:59:59Z'), limit: 500 },
        { ticker: 'AAPL', multiplier: 1, timespan: 'hour', from: d('2024-03-08T00:00:00Z'), to: d('2024-03-12T00:00:00Z'), limit: 50_000 },
        { ticker: 'AAPL', multiplier: 1, timespan: 'day', from: d('2024-02-20T00:00:00Z'), to: d('2024-03-20T00:00:00Z'), limit: 5 },
        { ticker: 'AAPL', multiplier: 1, timespan: 'week', from: d('2024-02-20T00:00:00Z'), to: d('2024-03-20T00:00:00Z'), limit: 50_000 },
        { ticker: 'AAPL', multiplier: 2, timespan: 'day', from: d('2024-02-20T00:00:00Z'), to: d('2024-03-20T00:00:00Z'), limit: 50_000, extra: '&dividends=true' },
        { ticker: 'AAPL', multiplier: 1, timespan: 'second', from: d('2024-03-11T13:30:00Z'), to: d('2024-03-11T13:31:00Z'), limit: 50_000 },
        { ticker: 'OTCX', multiplier: 1, timespan: 'day', from: d('2024-02-20T00:00:00Z'), to: d('2024-03-20T00:00:00Z'), limit: 50_000 },
        { ticker: 'I:SPX', multiplier: 2, timespan: 'day', from: d('2024-03-01T00:00:00Z'), to: d('2024-03-09T00:00:00Z'), limit: 50_000 },
        { ticker: 'X:BTCUSD', multiplier: 15, timespan: 'minute', from: d('2024-03-09T00:00:00Z'), to: d('2024-03-11T00:00:00Z'), limit: 100 },
        { ticker: 'C:EURUSD', multiplier: 1, timespan: 'day', from: d('2024-03-01T00:00:00Z'), to: d('2024-03-09T00:00:00Z'), limit: 50_000 },
        { ticker: DEMO, multiplier: 1, timespan: 'minute', from: d('2026-01-01T00:00:00Z'), to: d('2026-11-21T00:00:00Z'), limit: 50_000 },
        { ticker: DEMO, multiplier: 1, timespan: 'month', from: d('2022-01-01T00:00:00Z'), to: d('2026-11-21T00:00:00Z'), limit: 50_000 },
      ];
      for (const [envelope, t] of both()) {
        for (const c of cases) {
          for (const sort of ['asc', 'desc'] as const) {
            for (const adjusted of [true, false]) {
              const label = `${envelope} ${c.ticker} ${c.multiplier}/${c.timespan} limit ${c.limit} ${sort} adjusted=${adjusted}${c.extra ?? ''}`;
              const first = `/v2/aggs/ticker/${encodeURIComponent(c.ticker)}/range/${c.multiplier}/${c.timespan}/${c.from}/${c.to}?sort=${sort}&adjusted=${adjusted}&limit=${c.limit}${c.extra ?? ''}`;
              const pages = await walk(t, first);
              // the object path, page by page, from the bounds each next_url carried
              let req = { ticker: c.ticker, multiplier: c.multiplier, timespan: c.timespan, fromMs: c.from, toMs: c.to, adjusted, dividends: c.extra !== undefined, sort, limit: c.limit };
              for (const page of pages) {
                const want = await rangeBars(store, req);
                expect(page.results, label).toEqual(exact(want.bars));
                expect([page.resultsCount, page.count, page.queryCount], label).toEqual([want.bars.length, want.bars.length, want.queryCount]);
                expect(page.next_url !== undefined, label).toBe(want.next !== undefined);
                if (want.next) req = { ...req, ...want.next };
              }
              expect(pages.flatMap((p) => p.results).length, label).toBeGreaterThan(0);
            }
          }
        }
      }
    });

    it('previous close and grouped daily equal the object path', async () => {
      // their schema serializer writes only the declared keys of a daily bar
      const KEYS = ['T', 'v', 'vw', 'o', 'c', 'h', 'l', 't', 'n', 'otc'];
      const daily = (bars: object[]) => exact(bars.map((b) => Object.fromEntries(Object.entries(b).filter(([k]) => KEYS.includes(k)))));
      for (const [, t] of both()) {
        for (const ticker of ['AAPL', 'OTCX', 'I:SPX', 'C:EURUSD', DEMO]) {
          const body = await getExact(t, `/v2/aggs/ticker/${encodeURIComponent(ticker)}/prev`);
          const want = await previousClose(store, ticker, true, NOW);
          expect(body.results).toEqual(daily(want ? [want] : []));
        }
        const grouped = await getExact(t, '/v2/aggs/grouped/locale/us/market/stocks/2024-03-08?include_otc=true');
        expect(grouped.results).toEqual(daily(await groupedDaily(store, 'stocks', Date.parse('2024-03-08') / 86_400_000, { adjusted: true, includeOtc: true })));
        expect(grouped.results.length).toBeGreaterThan(1);
      }
    });
  });
}
