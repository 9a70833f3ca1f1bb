// Pages of trades and quotes written as JSON by the engine must hold what the JavaScript writers
// (tradesJson, quotesJson) write from the raw rows of the same page: the same items after JSON.parse, in the same order,
// with the same cursor position, for every market's form, in both orders, page after page, with
// awkward values (prices that need 17 digits, fractional and tiny sizes, times above 2^53, ids
// that need escaping, absent optional fields), on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import { marketOfTicker } from '../../src/domain/ticker-market.js';
import { quotesJson, tradesJson } from '../../src/services/tick-json.js';
import type { Store } from '../../src/store/index.js';
import { rawTickPosition, type TickPosition } from '../../src/store/repos/market-port.js';
import { engines } from '../helpers/engines.js';
import { quote, trade } from './contracts/market-rows.js';

const BASE = 1_795_510_824_905_855_123n; // above 2^53: any rounding through a double shows
const PRICES = [189.27, 0.1 + 0.2, 1e21, 123456.789012345, 5e-7, 100, 0.0001];
const SIZES = [100, 0.25, 1e-6, 12.3456789, 1_000_000, 7.5, 0.5000005];
// Stocks write decimal_size too; the engine writes it for sizes whose shortest text has no
// exponent and at most six decimals (the others are in their own test below).
const STOCK_SIZES = [100, 0.25, 123.456789, 1_000_000, 7.5, 0.001, 999_999_999.5];
const IDS = ['19586', 'a"b\\c', 'Société—株', '', 'x\u0001y', '42'];

function rowsOf(ticker: string, n: number): TradeRow[] {
  const rows: TradeRow[] = [];
  for (let i = 0; i < n; i++) {
    const ts = BASE + BigInt(Math.floor(i / 3)) * 1_000n; // three rows per timestamp: ties broken by sequence, then store key
    rows.push(trade(ticker, ts, i % 11 === 5 ? undefined : BigInt(i), {
      price: PRICES[i % PRICES.length]!,
      size: marketOfTicker(ticker) === 'stocks' ? STOCK_SIZES[i % STOCK_SIZES.length]! : SIZES[i % SIZES.length]!,
      id: IDS[i % IDS.length] || undefined,
      exchange: i % 20,
      participant_timestamp: i % 4 === 0 ? undefined : ts - 777n,
      trf_timestamp: i % 5 === 0 ? ts - 123n : undefined,
      trf_id: i % 5 === 0 ? 202 : undefined,
      conditions: i % 3 === 0 ? [] : i % 3 === 1 ? [12] : [12, 37, 41],
      correction: i % 7 === 0 ? 1 : undefined,
      tape: i % 6 === 0 ? undefined : 3,
    }));
  }
  return rows;
}

function quotesOf(ticker: string, n: number): QuoteRow[] {
  const rows: QuoteRow[] = [];
  for (let i = 0; i < n; i++) {
    const fx = ticker.startsWith('C:');
    // forex quotes are one per time (their key has no sequence number); others three per time
    const ts = BASE + BigInt(fx ? i : Math.floor(i / 3)) * 1_000n;
    // forex quotes have no SIP time: they are keyed on their participant time
    rows.push(quote(ticker, ts, i % 11 === 5 || fx ? undefined : BigInt(i), {
      sip_timestamp: fx ? undefined : ts,
      participant_timestamp: fx || i % 4 !== 0 ? ts - 333n : undefined,
      ask_price: PRICES[i % PRICES.length]!,
      bid_price: PRICES[(i + 3) % PRICES.length]!,
      ask_size: i % 5 === 0 ? undefined : SIZES[i % SIZES.length]!,
      bid_size: i % 6 === 0 ? undefined : SIZES[(i + 2) % SIZES.length]!,
      ask_exchange: i % 7 === 0 ? undefined : i % 20,
      bid_exchange: i % 8 === 0 ? undefined : (i + 1) % 20,
      conditions: i % 3 === 0 ? [] : [1, i % 50],
      indicators: i % 4 === 1 ? [604, 607] : undefined,
      tape: i % 6 === 0 ? undefined : 1,
      trf_timestamp: i % 5 === 0 ? ts - 99n : undefined,
    }));
  }
  return rows;
}

const TICKERS = ['AAPL', 'X:BTCUSD', 'O:SPY260123C00687000'];
const QUOTE_TICKERS = ['MSFT', 'C:EURUSD', 'O:SPY260123P00600000'];

for (const engine of engines()) {
  describe(`tick pages written as JSON by the engine (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
      for (const t of TICKERS) await store.market.insertTrades(rowsOf(t, 157));
      for (const t of QUOTE_TICKERS) await store.market.insertQuotes(quotesOf(t, 157));
    }, 60_000);
    afterAll(async () => store?.close());

    for (const ticker of TICKERS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`${ticker} ${order}: every page as tradesJson writes it, with the same cursor`, async () => {
          const market = marketOfTicker(ticker);
          const form = { crypto: market === 'crypto', decimalSize: market === 'stocks' };
          // pages of 40, and of 150 (PostgreSQL joins a page in chunks of 100 rows)
          for (const size of [40, 150]) {
            let after: TickPosition | undefined;
            let seen = 0;
            for (let pages = 0; pages < 20; pages++) {
              const range = { ticker, order, limit: size + 1, after, gte: BASE, lt: BASE + 1_000_000n };
              const raw = await store.market.readTradesRaw(range);
              const page = (await store.market.readTradesJsonPage(range, form))!;
              const want = raw.slice(0, size);
              expect(JSON.parse(`[${page.items.toString()}]`)).toEqual(JSON.parse(tradesJson(want, market)));
              expect(page.count).toBe(want.length);
              expect(page.next).toEqual(raw.length > size ? rawTickPosition(want[want.length - 1]!) : undefined);
              seen += page.count;
              if (!page.next) break;
              after = page.next;
            }
            expect(seen).toBe(157);
          }
        });
      }
    }

    for (const ticker of QUOTE_TICKERS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`quotes of ${ticker} ${order}: every page as quotesJson writes it, with the same cursor`, async () => {
          for (const size of [40, 150]) {
            let after: TickPosition | undefined;
            let seen = 0;
            for (let pages = 0; pages < 20; pages++) {
              const range = { ticker, order, limit: size + 1, after };
              const raw = await store.market.readQuotesRaw(range);
              const page = await store.market.readQuotesJsonPage(range);
              const want = raw.slice(0, size);
              expect(JSON.parse(`[${page.items.toString()}]`)).toEqual(JSON.parse(quotesJson(want)));
              expect(page.next).toEqual(raw.length > size ? rawTickPosition(want[want.length - 1]!) : undefined);
              seen += page.count;
              if (!page.next) break;
              after = page.next;
            }
            expect(seen).toBe(157);
          }
        });
      }
    }

    it('writes times above 2^53 up to the 64-bit limit and 17-digit prices exactly, as the text a parser reads back', async () => {
      const page = (await store.market.readTradesJsonPage({ ticker: 'AAPL', order: 'asc', limit: 3 }, { crypto: false, decimalSize: true }))!;
      const text = page.items.toString();
      expect(text).toContain(`"sip_timestamp":${BASE}`);
      expect((JSON.parse(`[${text}]`) as { price: number }[])[1]!.price).toBe(0.1 + 0.2);
      await store.market.insertTrades([trade('MAXT', 9_223_372_036_854_775_000n, 9_007_199_254_740_993n, { participant_timestamp: 9_223_372_036_854_774_999n })]);
      const max = (await store.market.readTradesJsonPage({ ticker: 'MAXT', order: 'asc', limit: 2 }, { crypto: false, decimalSize: true }))!.items.toString();
      expect(max).toContain('"sip_timestamp":9223372036854775000');
      expect(max).toContain('"participant_timestamp":9223372036854774999');
      expect(max).toContain('"sequence_number":9007199254740993');
    });

    it('leaves a stock page to JavaScript when a size\'s decimal_size is not its shortest text', async () => {
      for (const [i, size] of [1e-6, 12.3456789, 1e9, 1e21].entries()) {
        const ticker = `ODD${i}`;
        await store.market.insertTrades([trade(ticker, BASE, 1n, { size: 100 }), trade(ticker, BASE + 1n, 2n, { size })]);
        expect(await store.market.readTradesJsonPage({ ticker, order: 'asc', limit: 3 }, { crypto: false, decimalSize: true }), String(size)).toBeUndefined();
        // the first row alone is written by the engine; crypto and option pages write no decimal_size
        expect((await store.market.readTradesJsonPage({ ticker, order: 'asc', limit: 2 }, { crypto: false, decimalSize: true }))?.count).toBe(1);
        expect((await store.market.readTradesJsonPage({ ticker, order: 'asc', limit: 3 }, { crypto: true, decimalSize: false }))?.count).toBe(2);
      }
    });

    it('answers an empty page with no items and no cursor', async () => {
      const page = (await store.market.readTradesJsonPage({ ticker: 'NONE', order: 'asc', limit: 11 }, { crypto: false, decimalSize: true }))!;
      expect(page).toEqual({ items: expect.anything(), count: 0 });
      expect(page.items.length).toBe(0);
    });
  });
}
