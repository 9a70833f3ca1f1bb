// PostgreSQL keeps trades, quotes and minute bars in one partition per UTC day (migration 0950).
// What a user would notice: rows of any day can be written (the day's partition is made first,
// also by two writers at once), corrected rows still replace stored ones, existing data survives
// the migration, and a one-day page reads that day's partition only (the plan names no other).
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import { storeTicks } from '../../src/services/live-ticks.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import { listMigrations } from '../../src/store/migrations/index.js';
import { COPY_MIN_ROWS, type SqlValue } from '../../src/store/driver.js';
import type { BarRow, QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import type { TickRange } from '../../src/store/repos/market-port.js';
import { openPostgresStore } from '../helpers/engines.js';
import { TempDir, TRADES_HEADER } from '../ingest/import-files.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('PostgreSQL partition tests skipped: DATABASE_URL is not set (CI sets it).');

const NS_PER_DAY = 86_400_000_000_000n;
/** 2026-11-20 00:00 UTC in ns, and the next days. */
const D20 = 20_777n * NS_PER_DAY;
const D21 = D20 + NS_PER_DAY;
const D22 = D21 + NS_PER_DAY;
const MS = (ns: bigint) => Number(ns / 1_000_000n);

function trades(n: number, dayStart: bigint, ticker = 'AAPL', price = 190): TradeRow[] {
  return Array.from({ length: n }, (_, i) => ({
    ticker,
    sip_timestamp: dayStart + 14n * 3_600_000_000_000n + BigInt(i) * 1_000_000n,
    price,
    size: 100,
    exchange: 4,
    id: String(i),
    sequence_number: BigInt(i + 1),
    conditions: [12],
    tape: 3,
  }));
}

function quotes(n: number, dayStart: bigint): QuoteRow[] {
  return Array.from({ length: n }, (_, i) => ({
    ticker: 'AAPL',
    sip_timestamp: dayStart + 15n * 3_600_000_000_000n + BigInt(i) * 1_000_000n,
    ask_price: 190.1,
    bid_price: 190,
    ask_size: 1,
    bid_size: 2,
    sequence_number: BigInt(i + 1),
  }));
}

function minutes(n: number, dayStart: bigint): BarRow[] {
  return Array.from({ length: n }, (_, i) => ({ ticker: 'AAPL', t: MS(dayStart) + 14 * 3_600_000 + i * 60_000, o: 1, h: 2, l: 0.5, c: 1.5, v: 10, vw: 1.2, n: 3 }));
}

async function partitionsOf(store: Store, table: string): Promise<string[]> {
  const rows = await sqlOf(store).all(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass(?) ORDER BY 1`,
    [table],
  );
  return rows.map((r) => String(r.name));
}

/** The partitions a statement's plan reads (names of the form <table>_dYYYYMMDD). */
async function planPartitions(store: Store, sql: string, values: readonly SqlValue[]): Promise<string[]> {
  const plan = await sqlOf(store).all(`EXPLAIN ${sql}`, values);
  const names = new Set<string>();
  for (const r of plan) for (const m of String(r['QUERY PLAN']).matchAll(/\b(trades|quotes|minute_bars)_d\d{8}\b/g)) names.add(m[0]);
  return [...names].sort();
}

/** The statement (text and values) the pg client is handed while `fn` runs, the last one matching `pattern`. */
async function statementOf(pattern: RegExp, fn: () => Promise<unknown>): Promise<{ text: string; values: SqlValue[] }> {
  const spy = vi.spyOn(pg.Pool.prototype, 'query');
  try {
    await fn();
    const calls = spy.mock.calls.map((c) => c[0] as unknown as { text?: string; values?: SqlValue[] }).filter((c) => pattern.test(String(c?.text ?? '')));
    const last = calls.at(-1);
    if (!last?.text) throw new Error(`no statement matching ${pattern}`);
    return { text: last.text, values: last.values ?? [] };
  } finally {
    spy.mockRestore();
  }
}

describe.skipIf(!DATABASE_URL)('PostgreSQL day partitions', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openPostgresStore(DATABASE_URL!);
  });
  afterEach(async () => store.close());

  it('creates the partition of each new day on write: small batches, COPY batches and publish', async () => {
    expect(await partitionsOf(store, 'trades')).toEqual([]);
    expect(await store.market.insertTrades(trades(10, D20))).toBe(10);
    expect(await store.market.insertTrades(trades(COPY_MIN_ROWS + 10, D21))).toBe(COPY_MIN_ROWS + 10);
    expect(await partitionsOf(store, 'trades')).toEqual(['trades_d20261120', 'trades_d20261121']);
    // publish: trades and quotes of one request in one transaction
    expect(await storeTicks(store, trades(3, D22, 'MSFT'), quotes(4, D22))).toEqual({ trades: 3, quotes: 4 });
    expect(await partitionsOf(store, 'trades')).toEqual(['trades_d20261120', 'trades_d20261121', 'trades_d20261122']);
    expect(await partitionsOf(store, 'quotes')).toEqual(['quotes_d20261122']);
    expect(await store.market.insertBars('minute', [...minutes(2, D20), ...minutes(2, D22)])).toBe(4);
    expect(await partitionsOf(store, 'minute_bars')).toEqual(['minute_bars_d20261120', 'minute_bars_d20261122']);
    // each row sits in its day's partition
    const placed = await sqlOf(store).all(`SELECT tableoid::regclass::text AS part, COUNT(*) AS n FROM trades GROUP BY 1 ORDER BY 1`);
    expect(placed.map((r) => [String(r.part).replace(/^.*\./, ''), Number(r.n)])).toEqual([
      ['trades_d20261120', 10],
      ['trades_d20261121', COPY_MIN_ROWS + 10],
      ['trades_d20261122', 3],
    ]);
    const page = await store.market.readTrades({ ticker: 'MSFT', gte: D22, lt: D22 + NS_PER_DAY, order: 'asc', limit: 10 });
    expect(page.map((p) => p.row.sip_timestamp)).toEqual(trades(3, D22).map((t) => t.sip_timestamp));
  });

  it('an import of a flat file into a new day makes its partition', async () => {
    const dir = new TempDir();
    try {
      const lines = trades(COPY_MIN_ROWS * 2, D21).map(
        (t) => `AAPL,"12",,4,${t.id},${t.sip_timestamp - 5n},${t.price},${t.sequence_number},${t.sip_timestamp},100,3,,`,
      );
      const result = await importFile(store, dir.write('trades_v1/2026-11-21.csv', TRADES_HEADER, lines));
      expect(result).toMatchObject({ rows: COPY_MIN_ROWS * 2, written: COPY_MIN_ROWS * 2 });
      expect(await partitionsOf(store, 'trades')).toEqual(['trades_d20261121']);
    } finally {
      dir.remove();
    }
  });

  it('re-importing corrected rows replaces them across days (upsert on the partitioned tables)', async () => {
    const rows = [...trades(COPY_MIN_ROWS, D20), ...trades(COPY_MIN_ROWS, D21)];
    expect(await store.market.insertTrades(rows)).toBe(rows.length);
    const corrected = rows.map((t, i) => (i % 2 === 0 ? { ...t, conditions: [12, 37], correction: 1 } : t));
    // only the changed rows count as written, through COPY's staging path and through small batches
    expect(await store.market.insertTrades(corrected)).toBe(rows.length / 2);
    expect(await store.market.insertTrades(corrected.slice(0, 10).map((t) => ({ ...t, tape: 1 })))).toBe(10);
    const back = await store.market.readTrades({ ticker: 'AAPL', gte: D21, lt: D22, order: 'asc', limit: 2 });
    expect(back.map((p) => [p.row.conditions, p.row.correction])).toEqual([[[12, 37], 1], [[12], undefined]]);
    expect(Number((await sqlOf(store).get('SELECT COUNT(*) AS n FROM trades'))?.n)).toBe(rows.length);

    const bars = minutes(3, D20);
    await store.market.insertBars('minute', bars);
    expect(await store.market.insertBars('minute', [{ ...bars[1]!, c: 9 }])).toBe(1);
    const read = await store.market.readBars('minute', { ticker: 'AAPL', fromMs: MS(D20), toMs: MS(D21), order: 'asc', limit: 10 });
    expect(read.map((b) => b.c)).toEqual([1.5, 9, 1.5]);

    const q = quotes(3, D20);
    await store.market.insertQuotes(q);
    expect(await store.market.insertQuotes([{ ...q[0]!, ask_price: 191 }])).toBe(1);
    expect((await store.market.lastQuote('AAPL', q[0]!.sip_timestamp))?.ask_price).toBe(191);
  });

  it('two stores writing the same new day at once both succeed, with one partition', async () => {
    const schema = `tb_test_part_${Date.now().toString(36)}`;
    const a = await openPostgresStore(DATABASE_URL!, schema);
    const b = await openStore({ databaseUrl: DATABASE_URL!, schema, poolSize: 2 });
    try {
      // Each writes inside a transaction that already holds rows, as an import does.
      const write = (s: Store, ticker: string) =>
        s.transaction(async (tx) => {
          await tx.market.insertTrades(trades(COPY_MIN_ROWS, D20, ticker));
          await tx.market.insertTrades(trades(COPY_MIN_ROWS, D21, ticker));
          await tx.market.insertTrades(trades(20, D22, ticker));
        });
      await Promise.all([write(a, 'AAPL'), write(b, 'MSFT'), write(a, 'IBM'), write(b, 'NVDA')]);
      expect(await partitionsOf(a, 'trades')).toEqual(['trades_d20261120', 'trades_d20261121', 'trades_d20261122']);
      expect(Number((await sqlOf(a).get('SELECT COUNT(*) AS n FROM trades'))?.n)).toBe(4 * (2 * COPY_MIN_ROWS + 20));
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('a day dropped for retention can be written again: the first write after the drop fails, the next remakes the partition', async () => {
    await store.market.insertTrades(trades(5, D20));
    await sqlOf(store).exec('DROP TABLE trades_d20261120');
    await expect(store.market.insertTrades(trades(5, D20))).rejects.toThrow(/no partition of relation/);
    expect(await store.market.insertTrades(trades(5, D20))).toBe(5);
    expect(await partitionsOf(store, 'trades')).toEqual(['trades_d20261120']);
  });

  it('a store written while another process made the partition does not make it twice', async () => {
    const schema = `tb_test_part2_${Date.now().toString(36)}`;
    const a = await openPostgresStore(DATABASE_URL!, schema);
    const b = await openStore({ databaseUrl: DATABASE_URL!, schema, poolSize: 2 });
    try {
      await a.market.insertTrades(trades(5, D20, 'AAPL'));
      // b has never seen the day: it finds the partition made by a and writes into it
      expect(await b.market.insertTrades(trades(5, D20, 'MSFT'))).toBe(5);
      expect(await partitionsOf(b, 'trades')).toEqual(['trades_d20261120']);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe.skipIf(!DATABASE_URL)('PostgreSQL one-day reads touch one partition', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openPostgresStore(DATABASE_URL!);
    for (const day of [D20, D21, D22]) {
      await store.market.insertTrades(trades(50, day));
      await store.market.insertQuotes(quotes(50, day));
      await store.market.insertBars('minute', minutes(30, day));
    }
    await sqlOf(store).exec('ANALYZE trades; ANALYZE quotes; ANALYZE minute_bars');
  });
  afterAll(async () => store.close());

  const page = (extra: Partial<TickRange>): TickRange => ({ ticker: 'AAPL', order: 'asc', limit: 10, ...extra });

  it('a one-day trades page, and the next page from its cursor, plan only that day', async () => {
    const day = { gte: D21, lt: D22 };
    const first = await statementOf(/FROM trades/, () => store.market.readTradesRaw(page(day)));
    expect(await planPartitions(store, first.text, first.values)).toEqual(['trades_d20261121']);

    const rows = await store.market.readTrades(page(day));
    const after = rows.at(-1)!.position;
    const next = await statementOf(/FROM trades/, () => store.market.readTradesRaw(page({ ...day, after })));
    expect(await planPartitions(store, next.text, next.values)).toEqual(['trades_d20261121']);
    const nextRows = await store.market.readTrades(page({ ...day, after }));
    expect(nextRows[0]!.row.sip_timestamp).toBeGreaterThan(rows.at(-1)!.row.sip_timestamp);
  });

  it('a cursor without time bounds skips the days before it (asc) or after it (desc)', async () => {
    const mid = (await store.market.readTrades(page({ gte: D21, limit: 1 })))[0]!.position;
    const asc = await statementOf(/FROM trades/, () => store.market.readTradesRaw(page({ after: mid })));
    expect(await planPartitions(store, asc.text, asc.values)).toEqual(['trades_d20261121', 'trades_d20261122']);
    const desc = await statementOf(/FROM trades/, () => store.market.readTradesRaw(page({ order: 'desc', after: mid })));
    expect(await planPartitions(store, desc.text, desc.values)).toEqual(['trades_d20261120', 'trades_d20261121']);
  });

  it('a one-day quotes page and a day of minute bars plan only that day', async () => {
    const q = await statementOf(/FROM quotes/, () => store.market.readQuotesRaw(page({ gte: D20, lt: D21 })));
    expect(await planPartitions(store, q.text, q.values)).toEqual(['quotes_d20261120']);
    const bars = await statementOf(/FROM minute_bars/, () =>
      store.market.readBarsRaw('minute', { ticker: 'AAPL', fromMs: MS(D22), toMs: MS(D22 + NS_PER_DAY), order: 'asc', limit: 50000 }),
    );
    expect(await planPartitions(store, bars.text, bars.values)).toEqual(['minute_bars_d20261122']);
  });
});

describe.skipIf(!DATABASE_URL)('migration 0950 on a store with data', () => {
  it('moves existing trades, quotes and minute bars into day partitions, keeping pk values and their sequence', async () => {
    const schema = `tb_test_mig_${Date.now().toString(36)}`;
    const admin = await openStore({ databaseUrl: DATABASE_URL!, schema, migrate: false, poolSize: 1 });
    const db = sqlOf(admin);
    try {
      // The store as it was before 0950, with rows of two days
      await db.exec('CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_utc TEXT NOT NULL)');
      for (const m of listMigrations('postgres')) {
        if (m.id >= '0950') break;
        await db.exec(m.sql);
        await db.run('INSERT INTO schema_migrations (id, applied_utc) VALUES (?, ?)', [m.id, 'then']);
      }
      for (const [i, day] of [D20, D21].entries()) {
        await db.run(
          `INSERT INTO trades (ticker, sip_timestamp, sequence_number, exchange, id, price, size, conditions) VALUES ('AAPL', ?, ?, 4, '', 190, 100, '12')`,
          [day + 1n, BigInt(i)],
        );
        await db.run(`INSERT INTO quotes (ticker, ts, sequence_number, ts_is_sip, ask_price, bid_price) VALUES ('AAPL', ?, ?, 1, 2, 1)`, [day + 2n, BigInt(i)]);
        await db.run(`INSERT INTO minute_bars (ticker, t, o, h, l, c) VALUES ('AAPL', ?, 1, 2, 0.5, 1.5)`, [MS(day) + 60_000]);
      }
      const before = await db.all('SELECT pk, sip_timestamp FROM trades ORDER BY pk', [], { bigint: true });
      await admin.close();

      const store = await openPostgresStore(DATABASE_URL!, schema);
      try {
        expect(await partitionsOf(store, 'trades')).toEqual(['trades_d20261120', 'trades_d20261121']);
        expect(await partitionsOf(store, 'quotes')).toEqual(['quotes_d20261120', 'quotes_d20261121']);
        expect(await partitionsOf(store, 'minute_bars')).toEqual(['minute_bars_d20261120', 'minute_bars_d20261121']);
        expect(await sqlOf(store).all('SELECT pk, sip_timestamp FROM trades ORDER BY pk', [], { bigint: true })).toEqual(before);
        const last = (await store.market.lastTrade('AAPL'))!;
        expect(last.sip_timestamp).toBe(D21 + 1n);
        // the sequence continues: a new trade gets a pk after the moved ones
        await store.market.insertTrades(trades(1, D22));
        const pks = await sqlOf(store).all('SELECT pk FROM trades ORDER BY sip_timestamp', [], { bigint: true });
        expect(pks.map((r) => r.pk)).toEqual([...before.map((r) => r.pk), (before.at(-1)!.pk as bigint) + 1n]);
        expect(await store.market.readBars('minute', { ticker: 'AAPL', fromMs: 0, toMs: MS(D22), order: 'asc', limit: 10 })).toHaveLength(2);
      } finally {
        await store.close();
      }
    } catch (err) {
      await admin.close().catch(() => {});
      throw err;
    }
  });
});
