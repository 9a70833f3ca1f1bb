import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCryptoBook } from '../../src/demo/crypto-book.js';
import '../../src/ingest/crypto-book.js';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { conformanceCheck } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'tb-book-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = join(dir, `${Math.random().toString(36).slice(2)}-${name}`);
  writeFileSync(p, content);
  return p;
};

/** 2026-11-20T20:00:00.123456789Z: ns beyond a double's precision, to see them kept exactly. */
const UPDATED = '1795204800123456789';

// Two exchanges at the best bid, the pair spelt with a dash once (stored as X:BTCUSD).
const BOOK_CSV = [
  'ticker,side,price,size,exchange,updated',
  `X:BTCUSD,bid,57000.5,0.5,1,${UPDATED}`,
  `X:BTCUSD,bid,57000.5,0.25,6,${UPDATED}`,
  `X:BTC-USD,bid,56999,1.1,23,${UPDATED}`,
  `X:BTCUSD,ask,57002,0.75,2,${UPDATED}`,
  `X:BTCUSD,ask,57010.25,2,1,${UPDATED}`,
].join('\n');

async function seed(store: Store): Promise<void> {
  // X:BTCUSD is in the fixture; X:ETHUSD is a known pair without a stored book
  const btc = FIXTURE_TICKERS.find((x) => x.ticker === 'X:BTCUSD')!;
  await store.reference.upsertTickers([...FIXTURE_TICKERS, { ...btc, ticker: 'X:ETHUSD', name: 'Ethereum - United States Dollar', base_currency_symbol: 'ETH', base_currency_name: 'Ethereum' }]);
  const r = await importFile(store, file('book.csv', BOOK_CSV));
  expect(r).toMatchObject({ kind: 'crypto-book', rows: 5 });
}

for (const engine of engines()) {
  describe(`crypto level-2 book (${engine.name})`, () => {
    const { store, apps: [native] } = useSeededApps(engine, seed, { envelope: 'native' });
    const book = async (ticker: string) => {
      const res = await native.get(`/v2/snapshot/locale/global/markets/crypto/tickers/${ticker}/book`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };

    it('merges the levels per price across exchanges, best first, with totals, spread and update time', async () => {
      const body = await book('X:BTCUSD');
      expect(body.status).toBe('OK');
      expect(body.data).toEqual({
        ticker: 'X:BTCUSD',
        bids: [{ p: 57000.5, x: { 1: 0.5, 6: 0.25 } }, { p: 56999, x: { 23: 1.1 } }],
        asks: [{ p: 57002, x: { 2: 0.75 } }, { p: 57010.25, x: { 1: 2 } }],
        bidCount: 1.85,
        askCount: 2.75,
        spread: 1.5,
        // ms, as upstream's recorded book body gives it
        updated: 1795204800123,
      });
      expect(await book('X:BTC-USD')).toMatchObject({ data: { ticker: 'X:BTCUSD', bidCount: 1.85 } });
    });

    // x maps exchange ids to sizes: its keys are data, so the ids only this book has are listed
    conformanceCheck(native)('has the keys and JSON types of the recorded upstream book', 'v2/snapshot/locale/global/markets/crypto/tickers/X;BTCUSD/book.json',
      '/v2/snapshot/locale/global/markets/crypto/tickers/X:BTCUSD/book', { allowExtra: ['request_id', 'data.bids[].x.23', 'data.asks[].x.1'] });

    it('stores the update time to the nanosecond', async () => {
      const levels = await store.cryptoBooks.book('X:BTCUSD');
      expect(levels.map((l) => l.updated)).toEqual(Array(5).fill(BigInt(UPDATED)));
    });

    it('answers an empty book for a known pair without stored levels, and 404 for an unknown pair', async () => {
      expect((await book('X:ETHUSD')).data).toEqual({ ticker: 'X:ETHUSD', bids: [], asks: [], bidCount: 0, askCount: 0, spread: 0, updated: 0 });
      const res = await native.get('/v2/snapshot/locale/global/markets/crypto/tickers/X:NOPEUSD/book');
      expect(res.status).toBe(404);
    });

    it('import: a later book replaces the whole stored book of its pair', async () => {
      const next = file('next.ndjson', [
        { ticker: 'X:BTCUSD', side: 'bid', price: 57100, size: 0.1, exchange: 2, updated: '2026-11-20T20:05:00Z' },
        { ticker: 'X:BTCUSD', side: 'ask', price: 57101, size: 0.2, exchange: 2, updated: '2026-11-20T20:05:00Z' },
      ].map((r) => JSON.stringify(r)).join('\n'));
      await importFile(store, next, { dataset: 'crypto-book' });
      expect((await book('X:BTCUSD')).data).toEqual({
        ticker: 'X:BTCUSD', bids: [{ p: 57100, x: { 2: 0.1 } }], asks: [{ p: 57101, x: { 2: 0.2 } }], bidCount: 0.1, askCount: 0.2, spread: 1, updated: Date.parse('2026-11-20T20:05:00Z'),
      });
      await importFile(store, file('again.csv', BOOK_CSV));
    });

    it('import: bad records name file, line, field and reason, and nothing of the file is written (the stored book stays)', async () => {
      const path = file('bad.csv', [
        'ticker,side,price,size,exchange,updated',
        `X:BTCUSD,bid,4200,1,1,${UPDATED}`,
        `X:ETHUSD,middle,4201,1,1,${UPDATED}`,
        `X:ETHUSD,ask,-3,1,1,${UPDATED}`,
        'X:ETHUSD,ask,4202,1,1,yesterday',
        `AAPL,ask,4203,1,1.5,${UPDATED}`,
      ].join('\n'));
      await expect(importFile(store, path)).rejects.toMatchObject({
        message: [
          `${path}:3: side: must be bid or ask`,
          `${path}:4: price: must be a number above 0`,
          `${path}:5: updated: must be Unix nanoseconds as digits (quoted in JSON) or an RFC 3339 time`,
          `${path}:6: ticker: must be a crypto pair such as X:BTCUSD`,
          `${path}:6: exchange: must be an exchange id (an integer from 0 to 65535)`,
        ].join('\n'),
      });
      // an ns time as a JSON number has lost its precision already: refused, not rounded
      const json = file('bad.ndjson', JSON.stringify({ ticker: 'X:ETHUSD', side: 'bid', price: 4200, size: 1, exchange: 1 }).replace('}', `,"updated":${UPDATED}}`));
      await expect(importFile(store, json)).rejects.toMatchObject({ message: `${json}:1: updated: must be Unix nanoseconds as digits (quoted in JSON) or an RFC 3339 time` });
      // the book of X:BTCUSD, whose first line was good, is the one stored before
      expect((await book('X:BTCUSD')).data.bidCount).toBe(1.85);
      expect(await store.cryptoBooks.count()).toBe(5);
    });

    it('import with --skip-bad-rows: the good levels are stored, the bad ones go to the rejects file', async () => {
      const path = file('skip.csv', ['ticker,side,price,size,exchange,updated', `X:ETHUSD,bid,4200,1.5,1,${UPDATED}`, `X:ETHUSD,ask,4201,0,1,${UPDATED}`].join('\n'));
      const r = await importFile(store, path, { skipBadRows: true });
      expect(r).toMatchObject({ kind: 'crypto-book', rows: 1, rejected: 1 });
      expect(readFileSync(r.rejectsFile!, 'utf8')).toContain('size: must be a number above 0');
      expect((await book('X:ETHUSD')).data).toMatchObject({ bids: [{ p: 4200, x: { 1: 1.5 } }], asks: [], spread: 0 });
    });

    it('demo: ten levels a side around the last price, best bid below it and best ask above it', () => {
      const levels = buildCryptoBook('X:BTCUSD', 25160.8, 1n);
      const bids = [...new Set(levels.filter((l) => l.side === 'bid').map((l) => l.price))];
      const asks = [...new Set(levels.filter((l) => l.side === 'ask').map((l) => l.price))];
      expect(bids).toHaveLength(10);
      expect(asks).toHaveLength(10);
      expect(Math.max(...bids)).toBeLessThan(25160.8);
      expect(Math.min(...asks)).toBeGreaterThan(25160.8);
      expect(buildCryptoBook('X:BTCUSD', 25160.8, 1n)).toEqual(levels);
      const doge = buildCryptoBook('X:DOGEUSD', 0.2213, 1n).filter((l) => l.side === 'bid').map((l) => l.price);
      expect(new Set(doge).size).toBe(10);
    });
  });
}
