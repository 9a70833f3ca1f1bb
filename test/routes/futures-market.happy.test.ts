// Futures trades, quotes, aggregates and snapshot over the demo's futures data (reference rows and
// the front contracts' minute bars of the sessions ending 2026-11-19 and -20, with ticks in the
// last hour of each), on both engines, at /futures/vX and /futures/v1.
import { describe, expect, it } from 'vitest';
import { buildFuturesMarketDemo } from '../../src/demo/futures-market.js';
import { futuresDemoStep } from '../../src/demo/futures.js';
import type { FuturesMinuteBar } from '../../src/domain/futures-market.js';
import type { Store } from '../../src/store/index.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';
const SCALE = 0.2;
const DEMO = buildFuturesMarketDemo(AS_OF, SCALE);
/** 18:30 ET on the 20th: both sessions closed, the next opens on Sunday evening. */
const NOW = Date.parse('2026-11-20T23:30:00Z');
const NS = 1_000_000n;
const ns = (iso: string) => BigInt(Date.parse(iso)) * NS;

async function seed(store: Store): Promise<void> {
  await futuresDemoStep.run(store, { asOf: AS_OF, scale: SCALE, log: () => {} });
  await store.futures.insertMinuteBars(DEMO.bars);
  await store.futures.insertTrades(DEMO.trades);
  await store.futures.insertQuotes(DEMO.quotes);
}

const esBars = DEMO.bars.filter((b) => b.ticker === 'ESZ6');
const esTrades = DEMO.trades.filter((t) => t.ticker === 'ESZ6');
const esQuotes = DEMO.quotes.filter((t) => t.ticker === 'ESZ6');

/** What a candle of these minutes must hold: first open, last close, extremes, sums. */
function fold(minutes: FuturesMinuteBar[]) {
  return {
    open: minutes[0]!.open,
    high: Math.max(...minutes.map((m) => m.high)),
    low: Math.min(...minutes.map((m) => m.low)),
    close: minutes.at(-1)!.close,
    volume: minutes.reduce((s, m) => s + m.volume, 0),
    transactions: minutes.reduce((s, m) => s + m.transactions, 0),
  };
}

const inWindow = (from: string, to: string) => (b: FuturesMinuteBar) => b.window_start >= ns(from) && b.window_start < ns(to);

for (const engine of engines()) {
  describe(`futures market data (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seed, { envelope: 'native', now: () => NOW });
    const ok = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body;
    };
    const walk = async (url: string) => (await walkPages(t, url)).flatMap((p) => p.results);

    it('lists trades newest first with upstream\'s fields, 10 by default, exact to the nanosecond', async () => {
      const body = await ok('/futures/vX/trades/ESZ6');
      expect(body.status).toBe('OK');
      expect(body.results).toHaveLength(10);
      const newest = esTrades.at(-1)!;
      expect(body.results[0]).toEqual({
        ticker: 'ESZ6', price: newest.price, size: newest.size, session_end_date: '2026-11-20', channel: 310,
        sequence_number: Number(newest.sequence_number), report_sequence: Number(newest.report_sequence), timestamp: Number(newest.timestamp),
      });
      expect(body.next_url).toMatch(/^http:\/\/localhost\/futures\/vX\/trades\/ESZ6\?cursor=/);
      // JSON numbers are read as doubles by JSON.parse: the raw text carries every digit
      const raw = (await t.app.inject({ url: '/futures/vX/trades/ESZ6?limit=1', headers: { 'x-api-key': t.key } })).body;
      expect(raw).toContain(`"timestamp":${newest.timestamp}`);
    });

    it('pages trades and quotes through next_url to the end, in either order, at v1 and vX alike', async () => {
      const asc = await walk('/futures/vX/trades/ESZ6?sort=timestamp.asc&limit=50');
      expect(asc.map((r) => r.sequence_number)).toEqual(esTrades.map((r) => Number(r.sequence_number)));
      const desc = await walk('/futures/v1/trades/ESZ6?limit=37');
      expect(desc.map((r) => r.sequence_number)).toEqual(esTrades.map((r) => Number(r.sequence_number)).reverse());
      const quotes = await walk('/futures/v1/quotes/ESZ6?sort=timestamp.asc&limit=60');
      expect(quotes).toHaveLength(esQuotes.length);
      expect(quotes[0]).toMatchObject({ ticker: 'ESZ6', bid_price: esQuotes[0]!.bid_price, ask_price: esQuotes[0]!.ask_price, bid_size: esQuotes[0]!.bid_size, channel: 310 });
      expect((await ok('/futures/vX/quotes/ESZ6')).results).toHaveLength(100);
    });

    it('filters ticks on their time and on the trading date', async () => {
      const from = '2026-11-20T21:30:00Z';
      const to = '2026-11-20T21:45:00Z';
      const expected = esTrades.filter((r) => r.timestamp >= ns(from) && r.timestamp < ns(to));
      const got = await walk(`/futures/vX/trades/ESZ6?timestamp.gte=${from}&timestamp.lt=${to}&sort=timestamp.asc&limit=1000`);
      expect(got.map((r) => r.sequence_number)).toEqual(expected.map((r) => Number(r.sequence_number)));
      const byNs = await ok(`/futures/vX/trades/ESZ6?timestamp=${expected[0]!.timestamp}`);
      expect(byNs.results.map((r: any) => r.sequence_number)).toEqual([Number(expected[0]!.sequence_number)]);
      const of19 = (await ok('/futures/vX/quotes/ESZ6?session_end_date=2026-11-19&limit=50000')).results;
      expect(of19.map((r: any) => r.sequence_number)).toEqual(esQuotes.filter((q) => q.session_end_date === '2026-11-19').map((q) => Number(q.sequence_number)).reverse());
      expect((await ok('/futures/vX/trades/ESZ6?session_end_date=2026-11-18')).results).toEqual([]);
    });

    it('answers an unknown contract with no rows', async () => {
      for (const kind of ['trades', 'quotes', 'aggs']) {
        const body = await ok(`/futures/vX/${kind}/ZZZ9`);
        expect(body).toMatchObject({ status: 'OK', results: [] });
        expect(body.next_url).toBeUndefined();
      }
    });

    it('aggregates sessions by default, newest first, each starting at 00:00 UTC of its trading date with its settlement', async () => {
      const body = await ok('/futures/vX/aggs/ESZ6');
      const sessions = ['2026-11-20', '2026-11-19'];
      expect(body.results.map((c: any) => c.session_end_date)).toEqual(sessions);
      for (const [i, date] of sessions.entries()) {
        const minutes = esBars.filter((b) => b.session_end_date === date);
        const c = body.results[i];
        expect(c).toMatchObject({ ticker: 'ESZ6', window_start: Date.parse(`${date}T00:00:00Z`) * 1e6, ...fold(minutes), settlement_price: minutes.at(-1)!.close });
        expect(c.dollar_volume).toBeCloseTo(minutes.reduce((s, m) => s + m.dollar_volume, 0), 1);
      }
      expect((await ok('/futures/v1/aggs/ESZ6?resolution=1session&window_start=2026-11-19')).results.map((c: any) => c.session_end_date)).toEqual(['2026-11-19']);
      expect((await ok('/futures/vX/aggs/ESZ6?window_start.gt=2026-11-19&sort=window_start.asc')).results.map((c: any) => c.session_end_date)).toEqual(['2026-11-20']);
      const week = (await ok('/futures/vX/aggs/ESZ6?resolution=1week')).results;
      expect(week).toHaveLength(1);
      expect(week[0]).toMatchObject({ window_start: Date.parse('2026-11-15T00:00:00Z') * 1e6, session_end_date: '2026-11-20', ...fold(esBars) });
    });

    it('cuts intraday candles at the trading date\'s start (18:00 ET), across the session boundary', async () => {
      // 5-hour candles from 18:00 ET (23:00 UTC): the fifth starts 14:00 ET and holds the last three hours of its session only
      const candles = await walk('/futures/vX/aggs/ESZ6?resolution=5hour&window_start.gte=2026-11-19&window_start.lte=2026-11-20&sort=window_start.asc');
      const starts = ['2026-11-18T23:00Z', '2026-11-19T04:00Z', '2026-11-19T09:00Z', '2026-11-19T14:00Z', '2026-11-19T19:00Z',
        '2026-11-19T23:00Z', '2026-11-20T04:00Z', '2026-11-20T09:00Z', '2026-11-20T14:00Z', '2026-11-20T19:00Z'];
      expect(candles.map((c) => new Date(c.window_start / 1e6).toISOString().slice(0, 16) + 'Z')).toEqual(starts.map((s) => s.replace('Z', ':00.000Z').slice(0, 16) + 'Z'));
      const lastOf19 = candles[4];
      expect(lastOf19.session_end_date).toBe('2026-11-19');
      expect(lastOf19).toMatchObject(fold(esBars.filter(inWindow('2026-11-19T19:00:00Z', '2026-11-19T22:00:00Z'))));
      expect(candles[5]).toMatchObject({ session_end_date: '2026-11-20', ...fold(esBars.filter(inWindow('2026-11-19T23:00:00Z', '2026-11-20T04:00:00Z'))) });
      expect(candles[5].settlement_price).toBeUndefined();
    });

    it('serves minute candles as the stored minutes and second candles from the trades', async () => {
      const minutes = (await ok('/futures/vX/aggs/ESZ6?resolution=1min&limit=3')).results;
      expect(minutes.map((c: any) => c.window_start)).toEqual(esBars.slice(-3).reverse().map((b) => Number(b.window_start)));
      expect(minutes[0]).toMatchObject(fold([esBars.at(-1)!]));
      // the last hour's minutes are made from its trades: 30-second candles add up to them
      const lastMinute = esBars.at(-1)!;
      const halves = (await ok(`/futures/vX/aggs/ESZ6?resolution=30sec&window_start.gte=${lastMinute.window_start}&sort=window_start.asc`)).results;
      expect(halves.reduce((s: number, c: any) => s + c.volume, 0)).toBe(lastMinute.volume);
      expect(halves.reduce((s: number, c: any) => s + c.transactions, 0)).toBe(lastMinute.transactions);
      expect(halves.every((c: any) => BigInt(c.window_start) % 30_000_000_000n === 0n)).toBe(true);
    });

    it('pages candles through next_url, with window_start bounds in ns snapped to their candle', async () => {
      const whole = (await ok('/futures/vX/aggs/ESZ6?resolution=15min&limit=50000')).results;
      expect(whole).toHaveLength(2 * 92); // 23 hours a session
      const walked = await walk('/futures/vX/aggs/ESZ6?resolution=15min&limit=17');
      expect(walked).toEqual(whole);
      const at = BigInt(whole[10].window_start) + 123n;
      const snapped = (await ok(`/futures/vX/aggs/ESZ6?resolution=15min&window_start=${at}`)).results;
      expect(snapped).toEqual([whole[10]]);
    });

    it('snapshots every active contract: latest trade, quote and minute, and the session against the previous settlement', async () => {
      const all = await walk('/futures/vX/snapshot?limit=4');
      expect(all.map((r) => r.ticker)).toEqual([...all.map((r) => r.ticker)].sort());
      expect(all.length).toBeGreaterThanOrEqual(15);
      const es = all.find((r) => r.ticker === 'ESZ6');
      const trade = esTrades.at(-1)!;
      const quote = esQuotes.at(-1)!;
      const { transactions: _, ...s20 } = fold(esBars.filter((b) => b.session_end_date === '2026-11-20'));
      const settle19 = esBars.filter((b) => b.session_end_date === '2026-11-19').at(-1)!.close;
      expect(es).toMatchObject({
        ticker: 'ESZ6', product_code: 'ES', details: { ticker: 'ESZ6', product_code: 'ES', settlement_date: '2026-12-18' },
        last_trade: { price: trade.price, size: trade.size, last_updated: Number(trade.timestamp), timeframe: 'REAL-TIME' },
        last_quote: { bid: quote.bid_price, ask: quote.ask_price, bid_size: quote.bid_size, ask_size: quote.ask_size, last_updated: Number(quote.timestamp) },
        last_minute: { close: esBars.at(-1)!.close, last_updated: Number(esBars.at(-1)!.window_start / NS), volume: esBars.at(-1)!.volume },
        session: { ...s20, settlement_price: s20.close, previous_settlement: settle19 },
      });
      expect(es.session.change).toBeCloseTo(s20.close - settle19, 6);
      expect(es.session.change_percent).toBeCloseTo((s20.close - settle19) / settle19, 7);
      // a contract without market data is listed with its details only
      const esh7 = all.find((r) => r.ticker === 'ESH7');
      expect(Object.keys(esh7).sort()).toEqual(['details', 'product_code', 'ticker']);
    });

    it('filters and sorts the snapshot by product code and ticker', async () => {
      const tickers = async (q: string) => (await ok(`/futures/v1/snapshot?${q}`)).results.map((r: any) => r.ticker);
      expect(await tickers('product_code=ES')).toEqual(['ESH7', 'ESM7', 'ESU7', 'ESZ6']);
      expect((await ok('/futures/vX/snapshot?product_code=ES&limit=3')).count).toBe(3);
      expect(await tickers('product_code=ES&sort=ticker.desc')).toEqual(['ESZ6', 'ESU7', 'ESM7', 'ESH7']);
      expect(await tickers('ticker.any_of=ESZ6,CLF7,NOPE')).toEqual(['CLF7', 'ESZ6']);
      expect(await tickers('ticker.gte=NQ&ticker.lt=ZN')).toEqual(['NQH7', 'NQM7', 'NQU7', 'NQZ6']);
      const byProduct = await walk('/futures/vX/snapshot?product_code.any_of=GC,ZN,CL&sort=product_code.desc&limit=2');
      expect([...new Set(byProduct.map((r) => r.product_code))]).toEqual(['ZN', 'GC', 'CL']);
      expect(byProduct.filter((r) => r.product_code === 'GC').map((r) => r.ticker)).toEqual([...byProduct.filter((r) => r.product_code === 'GC').map((r) => r.ticker)].sort().reverse());
    });
  });

  describe(`futures market data on a delayed plan during the session (${engine.name})`, () => {
    // 16:50 ET on the 20th; the developer plan sees trades (not quotes) 15 minutes late
    const during = Date.parse('2026-11-20T21:50:00Z');
    const cutoff = BigInt(during - 15 * 60_000) * NS;
    const { t } = useSeededApp(engine, seed, { envelope: 'native', plan: 'developer', now: () => during });

    it('cuts ticks and candles at the delayed clock, and says so', async () => {
      const res = await t.get('/futures/vX/trades/ESZ6?limit=50000');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('DELAYED');
      expect(res.body.notice).toContain('15 minutes delayed');
      expect(res.body.results).toHaveLength(esTrades.filter((r) => r.timestamp < cutoff + NS).length);
      const walked = await walkPages(t, '/futures/vX/trades/ESZ6?limit=25');
      expect(walked.flatMap((p) => p.results)).toHaveLength(res.body.results.length);
      // whole minutes up to the delayed clock, and the session so far
      const minutes = (await t.get('/futures/vX/aggs/ESZ6?resolution=1min&limit=1')).body.results;
      expect(BigInt(minutes[0].window_start)).toBe(ns('2026-11-20T21:34:00Z'));
      const session = (await t.get('/futures/vX/aggs/ESZ6?limit=1')).body.results[0];
      expect(session).toMatchObject({ session_end_date: '2026-11-20', volume: fold(esBars.filter(inWindow('2026-11-19T23:00:00Z', '2026-11-20T21:35:00Z'))).volume });
      expect((await t.get('/futures/vX/quotes/ESZ6')).status).toBe(403);
    });

    it('snapshots as of the delayed clock, without the quotes the plan does not cover', async () => {
      const es = (await t.get('/futures/vX/snapshot?ticker=ESZ6')).body.results[0];
      const trade = esTrades.filter((r) => r.timestamp <= cutoff).at(-1)!;
      expect(es.last_trade).toEqual({ price: trade.price, size: trade.size, last_updated: Number(trade.timestamp), timeframe: 'DELAYED' });
      expect(es.last_quote).toBeUndefined();
      expect(es.last_minute.last_updated).toBe(Date.parse('2026-11-20T21:34:00Z'));
      expect(es.session.settlement_price).toBeUndefined(); // the session closes at 17:00 ET
      expect(es.session.change).toBeCloseTo(es.session.close - es.session.previous_settlement, 6);
    });
  });
}
