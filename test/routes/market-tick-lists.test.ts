// The per-market tick lists the official client calls beyond v3: /options/v3/trades/{ticker},
// /options/v3/quotes/{ticker} (filtered on `timestamp`) and /stocks/dev/trades/{ticker}
// (filtered on `sip_timestamp`, with whole-share `size` and exact `size_fraction`).
import { describe, expect, it } from 'vitest';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';
import { AAPL_TRADES, FIXTURE_NOW, ns, OPTION, seedMarket } from '../helpers/market-fixture.js';

const T0 = '2024-03-08T15:00:00Z';
/** Besides the fixture's one trade of OPTION (at T0 + 17 ns): three more, two sharing a time. */
const OPTION_TRADES: TradeRow[] = [
  { ticker: OPTION, sip_timestamp: ns(T0, 500n), participant_timestamp: ns(T0, 400n), price: 6.25, size: 1, exchange: 302, sequence_number: 40n },
  { ticker: OPTION, sip_timestamp: ns(T0, 500n), participant_timestamp: ns(T0, 450n), price: 6.3, size: 2, exchange: 303, sequence_number: 41n, id: 'x', tape: 1 },
  { ticker: OPTION, sip_timestamp: ns('2024-03-11T14:00:00Z'), price: 6.5, size: 5, exchange: 312, sequence_number: 7n, conditions: [219] },
];
const OPTION_QUOTES: QuoteRow[] = [
  { ticker: OPTION, sip_timestamp: ns(T0, 1n), participant_timestamp: ns(T0), ask_price: 6.3, ask_size: 10, ask_exchange: 302, bid_price: 6.1, bid_size: 12, bid_exchange: 303, sequence_number: 90n, conditions: [1], indicators: [604] },
  { ticker: OPTION, sip_timestamp: ns(T0, 2n), ask_price: 6.35, ask_size: 11, ask_exchange: 302, bid_price: 6.15, bid_size: 9, bid_exchange: 312, sequence_number: 91n },
  { ticker: OPTION, sip_timestamp: ns(T0, 2n), ask_price: 6.4, ask_size: 1, ask_exchange: 313, bid_price: 6.2, bid_size: 2, bid_exchange: 312, sequence_number: 92n },
  { ticker: OPTION, sip_timestamp: ns('2024-03-11T14:00:00Z'), ask_price: 6.6, ask_size: 3, ask_exchange: 302, bid_price: 6.4, bid_size: 3, bid_exchange: 302, sequence_number: 93n },
];

async function seed(store: Store): Promise<void> {
  await seedMarket(store);
  await store.market.insertTrades([...OPTION_TRADES, { ticker: 'AAPL', sip_timestamp: ns('2024-03-11T15:00:00Z'), price: 171.5, size: 0.25, exchange: 4, id: 'frac', sequence_number: 12n, tape: 3 }]);
  await store.market.insertQuotes(OPTION_QUOTES);
}

const TIME_RULE = 'must be a Unix timestamp in nanoseconds, an RFC 3339 time or a date in the form YYYY-MM-DD';
const prices = (body: any) => body.results.map((r: any) => r.price);
/** AAPL's trades in time order: the fractional one (11:00 EDT) comes before t11 (20:30 EDT). */
const AAPL_ASC = [...AAPL_TRADES.slice(0, -1).map((r) => r.id), 'frac', 't11'];

for (const engine of engines()) {
  describe(`options v3 trades and quotes, stocks dev trades (${engine.name})`, () => {
    const { t } = useSeededApp(engine, seed, { envelope: 'native', now: () => FIXTURE_NOW });

    it('an option trade carries the fields upstream declares for it and its ticker, newest first', async () => {
      const body = (await t.get(`/options/v3/trades/${OPTION}`)).body;
      expect(body.status).toBe('OK');
      expect(body.count).toBeUndefined();
      expect(prices(body)).toEqual([6.5, 6.3, 6.25, 6.2]);
      expect(body.results[0]).toEqual({ conditions: [219], exchange: 312, price: 6.5, sequence_number: 7, sip_timestamp: Number(ns('2024-03-11T14:00:00Z')), size: 5, ticker: OPTION });
      // id and tape are stored for the second one, but are not fields of an option trade
      expect(body.results[1]).toEqual({ exchange: 303, participant_timestamp: Number(ns(T0, 450n)), price: 6.3, sequence_number: 41, sip_timestamp: Number(ns(T0, 500n)), size: 2, ticker: OPTION });
      const raw = (await t.app.inject({ url: `/options/v3/trades/${OPTION}?sort=timestamp.asc&limit=1`, headers: { 'x-api-key': t.key } })).body;
      expect(raw).toContain(`"sip_timestamp":${ns(T0, 17n)}`);
    });

    it('an option quote carries both sides, sequence, SIP time and the ticker, without conditions or indicators', async () => {
      const body = (await t.get(`/options/v3/quotes/${OPTION}?sort=timestamp.asc`)).body;
      expect(body.results.map((r: any) => r.sequence_number)).toEqual([90, 91, 92, 93]);
      expect(body.results[0]).toEqual({
        ask_exchange: 302, ask_price: 6.3, ask_size: 10, bid_exchange: 303, bid_price: 6.1, bid_size: 12, sequence_number: 90,
        sip_timestamp: Number(ns(T0, 1n)), ticker: OPTION,
      });
    });

    it('filters on timestamp (ns, RFC 3339, the ET day) and sorts as sort says', async () => {
      const q = async (qs: string) => prices((await t.get(`/options/v3/trades/${OPTION}?${qs}`)).body);
      expect(await q('timestamp=2024-03-08')).toEqual([6.3, 6.25, 6.2]);
      expect(await q('timestamp=2024-03-11&sort=timestamp')).toEqual([6.5]);
      expect(await q(`timestamp.gt=${ns(T0, 17n)}&sort=timestamp.asc`)).toEqual([6.25, 6.3, 6.5]);
      expect(await q(`timestamp.gte=${ns(T0, 17n)}&timestamp.lt=2024-03-08T15:00:00.0000005Z&sort=timestamp.asc`)).toEqual([6.2]);
      expect(await q(`timestamp.lte=${ns(T0, 500n)}&sort=timestamp.asc`)).toEqual([6.2, 6.25, 6.3]);
      expect(await q('timestamp.gt=2024-03-11')).toEqual([]);
      const quotes = (await t.get(`/options/v3/quotes/${OPTION}?timestamp.gte=${ns(T0, 2n)}&timestamp.lte=2024-03-08`)).body;
      expect(quotes.results.map((r: any) => r.sequence_number)).toEqual([92, 91]);
    });

    for (const [path, sort, limit, all] of [
      [`/options/v3/trades/${OPTION}`, 'timestamp.asc', 1, 4],
      [`/options/v3/quotes/${OPTION}`, 'timestamp.desc', 3, 4],
      ['/stocks/dev/trades/AAPL', 'sip_timestamp.asc', 2, AAPL_ASC.length],
    ] as const) {
      it(`walking ${path} (sort=${sort}, limit=${limit}) returns every row once, ties included, to the end`, async () => {
        const whole = (await t.get(`${path}?sort=${sort}&limit=50000`)).body.results;
        expect(whole).toHaveLength(all);
        const pages = await walkPages(t, `${path}?sort=${sort}&limit=${limit}`);
        expect(pages).toHaveLength(Math.ceil(all / limit));
        expect(pages.at(-1).next_url).toBeUndefined();
        expect(pages.flatMap((p) => p.results)).toEqual(whole);
      });
    }

    it('a dev trade has whole-share size and the exact size in size_fraction, with the stock fields and its ticker', async () => {
      const body = (await t.get('/stocks/dev/trades/AAPL?sip_timestamp=2024-03-11&sort=sip_timestamp.asc&limit=1000')).body;
      expect(body.results.map((r: any) => r.id)).toEqual(AAPL_ASC);
      const first = body.results[0];
      expect(first).toEqual({
        conditions: [12, 37], exchange: 4, id: 't1', participant_timestamp: Number(AAPL_TRADES[0]!.participant_timestamp), price: 170.01, sequence_number: 1,
        sip_timestamp: Number(AAPL_TRADES[0]!.sip_timestamp), size: 100, size_fraction: 100, tape: 3, ticker: 'AAPL', trf_id: 202, trf_timestamp: Number(AAPL_TRADES[0]!.trf_timestamp),
      });
      expect(body.results.find((r: any) => r.id === 't2')).toMatchObject({ size: 5, size_fraction: 5.5 });
      expect(body.results.find((r: any) => r.id === 'frac')).toMatchObject({ size: 0, size_fraction: 0.25 });
      expect(body.results.find((r: any) => r.id === 't11')).toMatchObject({ correction: 1 });
    });

    it('dev trades: limit defaults to 100, newest first; sip_timestamp filters bound the rows', async () => {
      const ids = async (qs: string) => (await t.get(`/stocks/dev/trades/AAPL?${qs}`)).body.results.map((r: any) => r.id);
      expect(await ids('')).toEqual([...AAPL_ASC].reverse());
      const t5 = AAPL_TRADES[2]!.sip_timestamp;
      expect(await ids(`sip_timestamp=${t5}&sort=sip_timestamp.asc`)).toEqual(['t5', 't6', 't7']);
      expect(await ids(`sip_timestamp.gt=${t5}&sip_timestamp.lt=2024-03-11T13:30:02Z&sort=sip_timestamp.asc`)).toEqual(['t8a', 't8b', 't9']);
      expect(await ids(`sip_timestamp.lte=${t5}&sip_timestamp.gte=2024-03-11T13:30:00.2Z`)).toEqual(['t7', 't6', 't5', 't2']);
      expect(await ids('sip_timestamp.gte=2024-03-12')).toEqual([]);
    });

    const badRequests: [url: string, message: string][] = [
      [`/options/v3/trades/${OPTION}?timestamp=yesterday`, `timestamp ${TIME_RULE}`],
      [`/options/v3/trades/${OPTION}?timestamp.gte=2024-13-01`, `timestamp.gte ${TIME_RULE}`],
      [`/options/v3/quotes/${OPTION}?timestamp.lt=-5`, `timestamp.lt ${TIME_RULE}`],
      [`/options/v3/quotes/${OPTION}?timestamp.lte=2024-03-11T13:30:00`, `timestamp.lte ${TIME_RULE}`],
      ['/stocks/dev/trades/AAPL?sip_timestamp.gt=soon', `sip_timestamp.gt ${TIME_RULE}`],
      ['/stocks/dev/trades/AAPL?sip_timestamp=99999999999999999999', `sip_timestamp ${TIME_RULE}`],
      [`/options/v3/trades/${OPTION}?limit=0`, 'limit must be an integer from 1 to 50000'],
      [`/options/v3/quotes/${OPTION}?limit=50001`, 'limit must be an integer from 1 to 50000'],
      ['/stocks/dev/trades/AAPL?limit=50001', 'limit must be an integer from 1 to 50000'],
      [`/options/v3/trades/${OPTION}?sort=price.asc`, 'sort must be one of: timestamp, timestamp.asc, timestamp.desc'],
      ['/stocks/dev/trades/AAPL?sort=timestamp.desc', 'sort must be one of: sip_timestamp, sip_timestamp.asc, sip_timestamp.desc'],
      ['/options/v3/trades/AAPL', 'ticker must be an options contract ticker'],
      ['/options/v3/quotes/X:BTCUSD', 'ticker must be an options contract ticker'],
      [`/stocks/dev/trades/${OPTION}`, 'ticker must be a stock ticker'],
      [`/options/v3/trades/${OPTION}?cursor=x.y`, 'cursor is invalid'],
    ];
    for (const [url, message] of badRequests) {
      it(`400 for ${url}`, () => expectNativeRejection(t, url, message, 'contains'));
    }

    it('refuses a cursor of another list or another contract', async () => {
      const next = (await t.get(`/options/v3/trades/${OPTION}?limit=1`)).body.next_url as string;
      const cursor = new URL(next).searchParams.get('cursor')!;
      for (const url of [`/options/v3/quotes/${OPTION}?cursor=${cursor}`, `/v3/trades/${OPTION}?cursor=${cursor}`, `/options/v3/trades/O:SPY240315P00500000?cursor=${cursor}`]) {
        const res = await t.get(url);
        expect(res.status, url).toBe(400);
        expect(res.body.error).toContain('cursor');
      }
    });
  });
}
