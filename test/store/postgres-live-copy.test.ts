// PostgreSQL stores a publish's new trades and quotes with one binary COPY per table, sent with
// their data in one round trip and run as one implicit transaction (store/postgres/live-copy.ts).
// What a user would notice: a publish is stored whole or not at all, a publish meeting a stored
// row is still stored and counted as the upserts count it, a day partition dropped for retention
// does not refuse the next publish, and the live connections keep working after a refused COPY
// and after a server that fell silent answers again.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import { StoreUnavailableError } from '../../src/store/driver.js';
import { sqlOf } from '../../src/store/inspect.js';
import { openStore, type Store } from '../../src/store/index.js';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { openPostgresStore } from '../helpers/engines.js';
import { FaultProxy } from '../helpers/fault-proxy.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('PostgreSQL live COPY tests skipped: DATABASE_URL is not set (CI sets it).');

const NS_PER_DAY = 86_400_000_000_000n;
/** 2026-11-20 14:00 UTC in ns. */
const T0 = 20_777n * NS_PER_DAY + 14n * 3_600_000_000_000n;

const trades = (ticker: string, from: number, n: number): TradeRow[] =>
  Array.from({ length: n }, (_, i) => ({
    ticker, sip_timestamp: T0 + BigInt(from + i) * 1_000_000n, sequence_number: BigInt(from + i), price: 100 + i / 100, size: 1 + i, exchange: 4, id: `t${from + i}`, conditions: [12],
  }));
const quotes = (ticker: string, from: number, n: number): QuoteRow[] =>
  Array.from({ length: n }, (_, i) => ({ ticker, sip_timestamp: T0 + BigInt(from + i) * 1_000_000n, sequence_number: BigInt(from + i), bid_price: 99, ask_price: 101 + i, bid_size: 3 }));
const ticks = (t: TradeRow[], q: QuoteRow[]) => ({ trades: t, quotes: q, futuresTrades: [], futuresQuotes: [] });

describe.skipIf(!DATABASE_URL)('PostgreSQL live writes of new ticks in one round trip', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openPostgresStore(DATABASE_URL!);
  });
  afterEach(async () => store.close());

  const count = async (table: string, ticker: string) => Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table} WHERE ticker = ?`, [ticker]))?.n);

  it('stores a publish whole: new trades beside a quote stored before are still written and counted once', async () => {
    expect(await store.live.ticks(ticks(trades('AAPL', 0, 3), quotes('AAPL', 0, 2)))).toEqual({ trades: 3, quotes: 2 });
    // the quotes' COPY meets a stored key: had the trades' COPY been kept, the upserts would count them as 0
    expect(await store.live.ticks(ticks(trades('AAPL', 3, 4), [quotes('AAPL', 0, 2)[1]!, ...quotes('AAPL', 2, 2)]))).toEqual({ trades: 4, quotes: 2 });
    expect(await count('trades', 'AAPL')).toBe(7);
    expect(await count('quotes', 'AAPL')).toBe(4);
    // the same publish again writes nothing; a corrected trade is written once
    expect(await store.live.ticks(ticks(trades('AAPL', 3, 4), []))).toEqual({ trades: 0, quotes: 0 });
    expect(await store.live.ticks(ticks([{ ...trades('AAPL', 3, 1)[0]!, conditions: [12, 37] }], []))).toEqual({ trades: 1, quotes: 0 });
    expect((await store.market.readTrades({ ticker: 'AAPL', gte: T0 + 3_000_000n, lte: T0 + 3_000_000n, order: 'asc', limit: 5 }))[0]?.row.conditions).toEqual([12, 37]);
  });

  it('a publish the server refuses keeps none of its rows, and the next publish is stored', async () => {
    // a NUL in the quotes' ticker fails their COPY after the trades' COPY went through
    await expect(store.live.ticks(ticks(trades('MSFT', 0, 5), quotes('MS\0FT', 0, 2)))).rejects.toThrow();
    expect(await count('trades', 'MSFT')).toBe(0);
    for (let i = 0; i < 4; i++) expect(await store.live.ticks(ticks(trades('MSFT', 10 * i, 5), quotes('MSFT', 10 * i, 1)))).toEqual({ trades: 5, quotes: 1 });
    expect(await count('trades', 'MSFT')).toBe(20);
  });

  it('overlapping publishes, some meeting stored rows, are each counted right on the live connections', async () => {
    const sent = Array.from({ length: 24 }, (_, i) => (i % 3 === 2 ? trades('NVDA', 10 * (i - 1), 10) : trades('NVDA', 10 * i, 10)));
    const stored = await Promise.all(sent.map((t) => store.live.ticks(ticks(t, []))));
    const unique = new Set(sent.flat().map((t) => t.id)).size;
    expect(stored.reduce((n, s) => n + s.trades, 0)).toBe(unique);
    expect(await count('trades', 'NVDA')).toBe(unique);
  });

  it('a day partition dropped for retention is made anew by the next publish, which is stored', async () => {
    expect(await store.live.ticks(ticks(trades('IBM', 0, 5), quotes('IBM', 0, 1)))).toEqual({ trades: 5, quotes: 1 });
    await sqlOf(store).exec('DROP TABLE trades_d20261120');
    expect(await store.live.ticks(ticks(trades('IBM', 5, 5), quotes('IBM', 5, 1)))).toEqual({ trades: 5, quotes: 1 });
    expect(await count('trades', 'IBM')).toBe(5);
  });
});

describe.skipIf(!DATABASE_URL)('PostgreSQL live writes of new ticks on a silent server', () => {
  const schema = `tb_live_silent_${randomBytes(5).toString('hex')}`;
  let proxy: FaultProxy;
  let store: Store;
  beforeAll(async () => {
    const u = new URL(DATABASE_URL!);
    proxy = await new FaultProxy(u.hostname, Number(u.port || 5432)).start();
    const setup = await openStore({ databaseUrl: DATABASE_URL!, schema });
    await setup.close();
    store = await openStore({ databaseUrl: proxy.url(DATABASE_URL!), schema, poolSize: 2, deadlines: { statementTimeoutMs: 800, connectTimeoutMs: 800 } });
  });
  afterEach(() => proxy.pass());
  afterAll(async () => {
    proxy?.pass();
    await store?.close();
    await proxy?.stop();
    const admin = PostgresDriver.open(DATABASE_URL!, { max: 1 });
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.close());
  });

  /** Until both live connections store a publish again. */
  const recovered = async (from: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ok = await Promise.all([from, from + 3].map((f) => store.live.ticks(ticks(trades('AAPL', f, 3), [])).then((s) => s.trades === 3, () => false)));
      if (ok.every(Boolean)) return;
      if (Date.now() > deadline) throw new Error('the live writes did not recover');
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('fail at the store deadline, and the live connections store publishes again once it answers', async () => {
    // both live connections open and used, the day's partitions made
    await Promise.all([store.live.ticks(ticks(trades('AAPL', 0, 3), quotes('AAPL', 0, 1))), store.live.ticks(ticks(trades('AAPL', 3, 3), []))]);
    proxy.blackhole();
    const started = Date.now();
    await expect(store.live.ticks(ticks(trades('AAPL', 6, 3), quotes('AAPL', 6, 1)))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(5000);
    proxy.pass();
    await recovered(6);
    expect(Number((await sqlOf(store).get('SELECT COUNT(*) AS n FROM trades'))?.n)).toBe(12);
  });

  it('a publish of a day without a partition yet fails as the store being unavailable, and is stored once it answers', async () => {
    const nextDay = (t: TradeRow) => ({ ...t, sip_timestamp: t.sip_timestamp + NS_PER_DAY });
    proxy.blackhole();
    await expect(store.live.ticks(ticks(trades('AAPL', 100, 3).map(nextDay), []))).rejects.toBeInstanceOf(StoreUnavailableError);
    proxy.pass();
    await recovered(200);
    expect(await store.live.ticks(ticks(trades('AAPL', 100, 3).map(nextDay), []))).toEqual({ trades: 3, quotes: 0 });
  });
});
