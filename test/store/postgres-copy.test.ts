// Bulk writes into PostgreSQL go through COPY (pg-copy-streams): straight into the table while no
// row meets a stored or repeated key, else into a staging table, then INSERT ... SELECT ... ON
// CONFLICT: same values, same upsert semantics, same transaction.
// Evidence that COPY is used comes from the statements the pg client is asked to run (a spy on
// pg.Client.prototype.query), not from the driver itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import { flatFileReaderSettings, flatFileReaderStats } from '../../src/ingest/flatfile-threaded.js';
import type { Store } from '../../src/store/index.js';
import { COPY_MIN_ROWS } from '../../src/store/driver.js';
import { copyTextValue } from '../../src/store/postgres/driver.js';
import { barFromRow, quoteFromRow, tradeFromRow } from '../../src/store/repos/market.js';
import type { BarRow, TradeRow } from '../../src/domain/market-records.js';
import { openPostgresStore } from '../helpers/engines.js';
import { MINUTE_HEADER, PREMARKET_NS, TRADES_HEADER } from '../ingest/import-files.js';
import { sqlOf } from '../../src/store/inspect.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('PostgreSQL COPY tests skipped: DATABASE_URL is not set (CI sets it).');

describe('COPY text encoding', () => {
  it('escapes backslash, tab, newline and carriage return; NULL is \\N', () => {
    expect(copyTextValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyTextValue('\\N')).toBe('\\\\N');
    expect(copyTextValue('\\.')).toBe('\\\\.');
    expect(copyTextValue('plain é 🙂')).toBe('plain é 🙂');
    expect(copyTextValue(null)).toBe('\\N');
    expect(copyTextValue(undefined)).toBe('\\N');
  });

  it('writes integers as decimal digits, exactly, and bytea as \\x hex', () => {
    expect(copyTextValue(2n ** 63n - 1n)).toBe('9223372036854775807');
    expect(copyTextValue(-(2n ** 63n))).toBe('-9223372036854775808');
    expect(copyTextValue(1_700_000_000_123)).toBe('1700000000123');
    expect(copyTextValue(0.1)).toBe('0.1');
    expect(copyTextValue(true)).toBe('t');
    expect(copyTextValue(Buffer.from([0, 0x5c, 0xff]))).toBe('\\\\x005cff');
  });
});

/** The SQL text of whatever was handed to client.query (a string, a config or a COPY stream). */
function textOf(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  return String((arg as { text?: unknown } | null)?.text ?? '');
}

const TRICKY = [
  'tab\there',
  'line\nbreak',
  'carriage\rreturn\r\n',
  'back\\slash',
  '\\N',
  '\\.',
  'ends with backslash\\',
  '"quoted", with commas',
  'unicode é ✓ 🙂',
  ' leading and trailing spaces ',
];

interface CategoryRow {
  taxonomy: number;
  primary_category: string;
  secondary_category: string;
  tertiary_category: string;
  description: string | null;
}

function categories(n: number, version = ''): CategoryRow[] {
  const out: CategoryRow[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      taxonomy: [1, 1.1, 2.5][i % 3]!,
      primary_category: `primary ${i % 7}`,
      secondary_category: `secondary ${i % 11}`,
      tertiary_category: `tertiary ${i}${TRICKY[i % TRICKY.length]}`,
      // Every fourth description absent: stored as NULL.
      description: i % 4 === 3 ? null : `${TRICKY[(i + 3) % TRICKY.length]} #${i}${version}`,
    });
  }
  return out;
}

function ndjson(rows: readonly CategoryRow[]): string {
  return rows.map((r) => JSON.stringify(r.description === null ? { ...r, description: undefined } : r)).join('\n') + '\n';
}

describe.skipIf(!DATABASE_URL)('PostgreSQL bulk import through COPY', () => {
  let store: Store;
  let dir: string;
  let spy: MockInstance;
  const statements = () => spy.mock.calls.map((c) => textOf(c[0]));
  const copies = () => statements().filter((s) => /^COPY tb_copy_\d+ \(.*\) FROM STDIN$/s.test(s));
  /** COPY straight into the table (tried first: the rows are new); binary for a streamed import. */
  const directCopies = (table: string) => statements().filter((s) => new RegExp(`^COPY ${table} \\(.*\\) FROM STDIN( \\(FORMAT binary\\))?$`, 's').test(s));
  // The table name may come quoted or not.
  const valueInserts = (table: string) => statements().filter((s) => new RegExp(`^INSERT INTO "?${table}"? \\(.*\\) VALUES \\(`, 's').test(s));
  const selectInserts = (table: string) => statements().filter((s) => new RegExp(`^INSERT INTO "?${table}"? \\(.*\\) SELECT .* FROM tb_copy_\\d+ ORDER BY`, 's').test(s));

  beforeAll(async () => {
    store = await openPostgresStore(DATABASE_URL!);
    dir = mkdtempSync(join(tmpdir(), 'tb-pg-copy-'));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    spy = vi.spyOn(pg.Client.prototype, 'query');
  });
  afterEach(() => {
    spy.mockRestore();
  });

  async function storedCategories(): Promise<CategoryRow[]> {
    const rows = await sqlOf(store).all(
      `SELECT taxonomy, primary_category, secondary_category, tertiary_category, description FROM risk_categories
       ORDER BY taxonomy, primary_category, secondary_category, tertiary_category`,
    );
    return rows.map((r) => ({
      taxonomy: Number(r.taxonomy),
      primary_category: String(r.primary_category),
      secondary_category: String(r.secondary_category),
      tertiary_category: String(r.tertiary_category),
      description: r.description === null ? null : String(r.description),
    }));
  }

  const sorted = (rows: CategoryRow[]) =>
    [...rows].sort((a, b) =>
      a.taxonomy - b.taxonomy ||
      (a.primary_category < b.primary_category ? -1 : a.primary_category > b.primary_category ? 1 : 0) ||
      (a.secondary_category < b.secondary_category ? -1 : a.secondary_category > b.secondary_category ? 1 : 0) ||
      (a.tertiary_category < b.tertiary_category ? -1 : a.tertiary_category > b.tertiary_category ? 1 : 0),
    );

  it('imports a data-set file with COPY; text, floats and NULLs round-trip exactly; re-import is idempotent', async () => {
    await sqlOf(store).run('DELETE FROM risk_categories');
    const rows = categories(1200);
    const path = join(dir, 'categories.ndjson');
    writeFileSync(path, ndjson(rows));

    const first = await importFile(store, path, { dataset: 'risk-categories' });
    expect(first).toMatchObject({ importer: 'datasets', kind: 'risk-categories', rows: 1200, rejected: 0 });
    // New rows: straight into the table, no staging and no second pass.
    expect(directCopies('risk_categories')).toHaveLength(1);
    expect(copies()).toEqual([]);
    expect(selectInserts('risk_categories')).toEqual([]);
    expect(valueInserts('risk_categories')).toEqual([]);

    const stored = await storedCategories();
    expect(stored).toHaveLength(1200);
    // Collation may order the tricky strings differently from JS: compare as sets of rows.
    expect(sorted(stored)).toEqual(sorted(rows));
    expect(stored.filter((r) => r.description === null)).toHaveLength(300);
    expect(stored.find((r) => r.tertiary_category === 'tertiary 4\\N')?.description).toBe(`${TRICKY[7]} #4`);
    expect(stored.find((r) => r.tertiary_category === 'tertiary 1line\nbreak')?.description).toBe('\\N #1');

    // The same file again: nothing changes.
    spy.mockClear();
    await importFile(store, path, { dataset: 'risk-categories' });
    expect(copies().length).toBeGreaterThan(0);
    expect(sorted(await storedCategories())).toEqual(sorted(rows));

    // A newer version of the rows replaces them on their natural key (ON CONFLICT DO UPDATE).
    const v2 = categories(1200, ' v2');
    const path2 = join(dir, 'categories-v2.ndjson');
    writeFileSync(path2, ndjson(v2));
    await importFile(store, path2, { dataset: 'risk-categories' });
    expect(sorted(await storedCategories())).toEqual(sorted(v2));
  });

  it('a bad file leaves nothing behind, even after a batch of it went through COPY', async () => {
    await sqlOf(store).run('DELETE FROM risk_categories');
    const good = categories(600);
    const goodPath = join(dir, 'good.ndjson');
    writeFileSync(goodPath, ndjson(good));
    await importFile(store, goodPath, { dataset: 'risk-categories' });

    // 5,000 valid rows (one full batch, copied and moved) that would replace the good ones, then a bad row.
    const rows = categories(5000, ' replaced');
    const path = join(dir, 'bad.ndjson');
    writeFileSync(path, ndjson(rows) + JSON.stringify({ taxonomy: -1, primary_category: 'p', secondary_category: 's', tertiary_category: 't' }) + '\n');
    spy.mockClear();
    await expect(importFile(store, path, { dataset: 'risk-categories' })).rejects.toThrow(/:5001: taxonomy/);
    expect(copies().length).toBeGreaterThan(0);
    expect(selectInserts('risk_categories')).toHaveLength(1);
    expect(statements()).toContain('ROLLBACK');
    expect(sorted(await storedCategories())).toEqual(sorted(good));
  });

  // Flat files (trades_v1, quotes_v1, minute_aggs_v1, day_aggs_v1) arrive in batches of 5,000
  // rows; on PostgreSQL every batch of COPY_MIN_ROWS or more goes through COPY, inside the
  // file's transaction.
  describe('flat files', () => {
    const ET_DAY_NS = 1_709_874_000_000_000_000n; // 2024-03-08 00:00 ET
    const ET_DAY_MS = Number(ET_DAY_NS / 1_000_000n);
    const TRADE_TICKERS = ['AAPL', 'MSFT', 'BRK.A'];
    const CONDITIONS = ['', '12,37', '14', '2,7,41'];

    /** `count` trades (line and the row the store should give back), times > 2^53, some optional columns empty. */
    function trades(count: number, tag = 0): { lines: string[]; rows: TradeRow[] } {
      const lines: string[] = [];
      const rows: TradeRow[] = [];
      for (let i = 0; i < count; i++) {
        const ticker = TRADE_TICKERS[i % TRADE_TICKERS.length]!;
        // Odd nanoseconds near 1.7e18: no double holds them, so only an exact bigint path keeps them.
        const sip = PREMARKET_NS + 1n + BigInt(i) * 1_000_003n + BigInt(tag) * 10_000_000_000n;
        const conditions = CONDITIONS[i % CONDITIONS.length]!;
        const correction = i % 5 === 0 ? 1 : undefined;
        const id = i % 7 === 0 ? undefined : `t${tag}-${i}`;
        const participant = i % 2 === 0 ? undefined : sip - 77n;
        const price = Number((190 + (i % 1000) / 100).toFixed(2));
        const seq = i % 11 === 0 ? undefined : 9_007_199_254_740_993n + BigInt(i); // > 2^53 too
        const size = i % 3 === 0 ? 0.5 : 100 + i;
        const tape = i % 13 === 0 ? undefined : 1 + (i % 3);
        const trfId = i % 3 === 0 ? 201 : undefined;
        const trf = i % 3 === 0 ? sip - 5n : undefined;
        const opt = (v: unknown) => (v === undefined ? '' : String(v));
        lines.push(
          [ticker, `"${conditions}"`, opt(correction), 4 + (i % 2), opt(id), opt(participant), price.toFixed(2), opt(seq), sip, size, opt(tape), opt(trfId), opt(trf)].join(','),
        );
        rows.push({
          ticker, sip_timestamp: sip, participant_timestamp: participant, trf_timestamp: trf, price, size, exchange: 4 + (i % 2), id,
          conditions: conditions === '' ? undefined : conditions.split(',').map(Number), correction, sequence_number: seq, tape, trf_id: trfId,
        });
      }
      return { lines, rows };
    }

    function write(name: string, header: string, lines: readonly string[]): string {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${header}\n${lines.join('\n')}\n`);
      return path;
    }

    const count = async (table: string) => Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);

    async function storedTrades(): Promise<{ rows: TradeRow[]; raw: Record<string, unknown>[] }> {
      const raw = await sqlOf(store).all('SELECT * FROM trades ORDER BY pk', [], { bigint: true });
      return { rows: raw.map(tradeFromRow), raw };
    }

    beforeEach(async () => {
      for (const t of ['trades', 'quotes', 'minute_bars', 'day_bars']) await sqlOf(store).run(`DELETE FROM ${t}`);
    });

    it('imports a trades_v1 file with COPY: exact ns bigints, conditions, NULLs, file order; re-import writes 0', async () => {
      const { lines, rows } = trades(6000);
      const path = write('trades_v1/2024-03-08.csv', TRADES_HEADER, lines);

      const first = await importFile(store, path);
      expect(first).toMatchObject({ importer: 'flat-file', kind: 'trades', rows: 6000, written: 6000, rejected: 0 });
      // Two batches (5,000 and 1,000 rows) of new rows, both sent in one COPY straight into
      // trades; no staging, no multi-row VALUES into trades at all.
      expect(directCopies('trades')).toHaveLength(1);
      expect(copies()).toEqual([]);
      expect(selectInserts('trades')).toEqual([]);
      expect(valueInserts('trades')).toEqual([]);
      expect(statements()).toContain('COMMIT');

      const { rows: stored, raw } = await storedTrades();
      expect(stored).toEqual(rows);
      // Exact above 2^53 (as bigint, not a rounded double), in the file's order.
      expect(raw[1]!.sip_timestamp).toBe(rows[1]!.sip_timestamp);
      expect(typeof raw[1]!.sip_timestamp).toBe('bigint');
      expect(raw[1]!.sip_timestamp).not.toBe(BigInt(Number(rows[1]!.sip_timestamp)));
      expect(raw[1]!.sequence_number).toBe(9_007_199_254_740_994n);
      // Absent optional columns are NULL; absent sequence and id use the stored sentinels.
      expect(raw[0]).toMatchObject({ conditions: null, participant_timestamp: null, sequence_number: -1n, id: '', tape: null });
      expect(raw[1]).toMatchObject({ conditions: '12,37', participant_timestamp: rows[1]!.sip_timestamp - 77n, correction: null, trf_id: null, trf_timestamp: null });
      expect(raw[3]).toMatchObject({ conditions: '2,7,41', trf_id: 201, trf_timestamp: rows[3]!.sip_timestamp - 5n });
      // Read back through the API's repository too.
      const last = await store.market.lastTrade('BRK.A');
      expect(last).toEqual(rows.filter((r) => r.ticker === 'BRK.A').at(-1));

      // The same file again: every row collides with an unchanged one, nothing is written.
      spy.mockClear();
      const again = await importFile(store, path);
      expect(again).toMatchObject({ rows: 6000, written: 0 });
      // The file's direct COPY meets stored keys and is undone; the file is read again and both
      // batches go through staging and the upsert.
      expect(directCopies('trades')).toHaveLength(1);
      expect(copies()).toHaveLength(2);
      expect(selectInserts('trades')).toHaveLength(2);
      expect(valueInserts('trades')).toEqual([]);
      expect(await count('trades')).toBe(6000);
    });

    it('duplicates inside a copied batch: one row per key, in file order, and the count is of rows written', async () => {
      const { lines, rows } = trades(1000);
      // Rows 0..599 once more, after the originals: one upsert cannot touch a row twice, so the batch keeps one of each.
      const path = write('trades_v1/dupes.csv', TRADES_HEADER, [...lines, ...lines.slice(0, 600)]);
      expect(await importFile(store, path)).toMatchObject({ rows: 1600, written: 1000 });
      expect(selectInserts('trades')).toHaveLength(1);
      expect((await storedTrades()).rows).toEqual(rows);
    });

    it('small files keep the multi-row INSERT path', async () => {
      const { lines, rows } = trades(COPY_MIN_ROWS - 1);
      const path = write('trades_v1/small.csv', TRADES_HEADER, lines);
      expect(await importFile(store, path)).toMatchObject({ written: COPY_MIN_ROWS - 1 });
      expect(copies()).toEqual([]);
      expect(valueInserts('trades').length).toBeGreaterThan(0);
      expect((await storedTrades()).rows).toEqual(rows);
    });

    it('batches the reader thread encodes for COPY store the rows the in-thread reader gives', async () => {
      const { lines, rows } = trades(6000);
      // Ids that COPY text would escape (CSV-quoted), and one outside ASCII.
      const ids = ['back\\slash', 'tab\there', '\\N', 'ends\\', 'é✓'];
      ids.forEach((id, k) => {
        const i = 7 * k + 1;
        lines[i] = lines[i]!.replace(`,t0-${i},`, `,"${id}",`);
        rows[i] = { ...rows[i]!, id };
      });
      const path = write('trades_v1/worker.csv', TRADES_HEADER, lines);
      const settings = flatFileReaderSettings.workerThreshold;
      const before = flatFileReaderStats.worker;
      flatFileReaderSettings.workerThreshold = 0;
      try {
        expect(await importFile(store, path)).toMatchObject({ rows: 6000, written: 6000 });
      } finally {
        flatFileReaderSettings.workerThreshold = settings;
      }
      expect(flatFileReaderStats.worker).toBe(before + 1);
      expect(directCopies('trades')).toHaveLength(1);
      expect((await storedTrades()).rows).toEqual(rows);
    });

    it('streams quotes (forex: no SIP time, codes lists) and keeps every column', async () => {
      const header = 'ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,conditions,indicators,participant_timestamp,sequence_number,tape';
      const lines: string[] = [];
      for (let i = 0; i < 1500; i++) {
        const ts = PREMARKET_NS + 7n + BigInt(i) * 1_000_001n;
        lines.push(`C:EURUSD,${48 + (i % 3)},${(1.0851 + i / 1e6).toFixed(7)},${i % 4 === 0 ? '' : 1000 + i},48,1.0849,${i % 5 === 0 ? '' : 0.5},"${i % 2 ? '1,2' : ''}",${i % 3 ? 604 : ''},${ts},${i % 7 ? 9_007_199_254_740_993n + BigInt(i) : ''},${i % 6 ? 3 : ''}`);
      }
      for (const workerThreshold of [Number.MAX_SAFE_INTEGER, 0]) {
        await sqlOf(store).run('DELETE FROM quotes');
        const path = write(`quotes_v1/forex-${workerThreshold}.csv`, header, lines);
        const settings = flatFileReaderSettings.workerThreshold;
        flatFileReaderSettings.workerThreshold = workerThreshold;
        spy.mockClear();
        try {
          expect(await importFile(store, path)).toMatchObject({ kind: 'quotes', rows: 1500, written: 1500 });
        } finally {
          flatFileReaderSettings.workerThreshold = settings;
        }
        expect(directCopies('quotes')).toHaveLength(1);
        const raw = await sqlOf(store).all('SELECT * FROM quotes ORDER BY pk', [], { bigint: true });
        expect(raw).toHaveLength(1500);
        const q = raw.map(quoteFromRow);
        expect(q[1]).toEqual({
          ticker: 'C:EURUSD', sip_timestamp: undefined, participant_timestamp: PREMARKET_NS + 7n + 1_000_001n, trf_timestamp: undefined,
          ask_price: 1.085101, ask_size: 1001, ask_exchange: 49, bid_price: 1.0849, bid_size: 0.5, bid_exchange: 48,
          conditions: [1, 2], indicators: [604], sequence_number: 9_007_199_254_740_994n, tape: 3,
        });
        expect(q[0]).toMatchObject({ ask_size: undefined, bid_size: undefined, conditions: undefined, indicators: undefined, sequence_number: undefined, tape: undefined });
        expect(raw[0]).toMatchObject({ ts_is_sip: 0, sequence_number: -1n });
      }
    });

    it('a streamed value out of range for an integer column fails the file, nothing kept', async () => {
      const { lines } = trades(6000);
      lines[5500] = lines[5500]!.replace(/,"([^"]*)",([^,]*),[45],/, ',"$1",$2,99999999999,');
      const path = write('trades_v1/range.csv', TRADES_HEADER, lines);
      await expect(importFile(store, path)).rejects.toThrow(/exchange: 99999999999 is out of range for type integer/);
      expect(await count('trades')).toBe(0);
    });

    it('a trades file with a bad row after a copied batch leaves nothing behind', async () => {
      const before = trades(300, 1);
      await importFile(store, write('trades_v1/before.csv', TRADES_HEADER, before.lines));
      const { lines } = trades(6500, 2);
      // 6,000 good rows (one full batch copied and moved into trades), then a bad price.
      lines[6000] = lines[6000]!.replace(/,19\d\.\d\d,/, ',12..5,');
      const path = write('trades_v1/bad.csv', TRADES_HEADER, lines);
      spy.mockClear();
      await expect(importFile(store, path)).rejects.toThrow(/:6002: price: not a number/);
      expect(directCopies('trades')).toHaveLength(1);
      expect(statements()).toContain('ROLLBACK');
      expect((await storedTrades()).rows).toEqual(before.rows);
    });

    /** `perTicker` minute bars from 04:00 ET for each ticker; every fifth without volume, every seventh without transactions. */
    function minutes(tickers: readonly string[], perTicker: number): { lines: string[]; rows: BarRow[] } {
      const lines: string[] = [];
      const rows: BarRow[] = [];
      for (let m = 0; m < perTicker; m++) {
        for (const [k, ticker] of tickers.entries()) {
          const i = m * tickers.length + k;
          const ns = PREMARKET_NS + BigInt(m) * 60_000_000_000n;
          const p = 100 + (i % 97) / 8;
          const v = i % 5 === 0 ? undefined : 1000 + i + 0.25;
          const n = i % 7 === 0 ? undefined : 10 + (i % 5);
          lines.push(`${ticker},${v ?? ''},${p},${p + 0.5},${p + 1},${p - 1},${ns},${n ?? ''}`);
          rows.push({ ticker, t: Number(ns / 1_000_000n), o: p, h: p + 1, l: p - 1, c: p + 0.5, v, vw: undefined, n });
        }
      }
      return { lines, rows };
    }

    async function storedBars(table: string): Promise<(BarRow & { derived?: number })[]> {
      const rows = await sqlOf(store).all(`SELECT * FROM ${table} ORDER BY ticker, t`);
      return rows.map((r) => (table === 'day_bars' ? { ...barFromRow(r), derived: Number(r.derived) } : barFromRow(r)));
    }

    it('imports a minute_aggs_v1 file with COPY; NULL volume/transactions; day bars derived; re-import writes 0', async () => {
      const { lines, rows } = minutes(['AAPL', 'MSFT'], 600);
      const path = write('minute_aggs_v1/2024-03-08.csv', MINUTE_HEADER, lines);
      const first = await importFile(store, path);
      expect(first).toMatchObject({ kind: 'minute_aggs', rows: 1200, written: 1200, notes: ['2 day bars derived from minute bars'] });
      expect(directCopies('minute_bars')).toHaveLength(1);
      expect(selectInserts('minute_bars')).toEqual([]);
      expect(valueInserts('minute_bars')).toEqual([]);
      const byKey = (a: BarRow, b: BarRow) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.t - b.t);
      expect(await storedBars('minute_bars')).toEqual([...rows].sort(byKey));
      const raw = await sqlOf(store).all('SELECT v, n FROM minute_bars WHERE ticker = ? AND t = ?', ['AAPL', rows[0]!.t]);
      expect(raw).toEqual([{ v: null, n: null }]);
      expect((await storedBars('day_bars')).map((b) => [b.ticker, b.t, b.derived])).toEqual([['AAPL', ET_DAY_MS, 1], ['MSFT', ET_DAY_MS, 1]]);

      spy.mockClear();
      expect(await importFile(store, path)).toMatchObject({ rows: 1200, written: 0 });
      expect(directCopies('minute_bars')).toHaveLength(1);
      expect(copies()).toHaveLength(1);
      expect(valueInserts('minute_bars')).toEqual([]);
      expect(await count('minute_bars')).toBe(1200);
    });

    /** Day bars of 2024-03-08 for `tickers`, as a day_aggs_v1 line and the stored row. */
    function days(tickers: readonly string[], price: number): { lines: string[]; rows: BarRow[] } {
      const lines = tickers.map((t, i) => `${t},${5000 + i},${price},${price + 2},${price + 3},${price - 1},${ET_DAY_NS},${i % 4 === 0 ? '' : 7}`);
      const rows = tickers.map((ticker, i) => ({ ticker, t: ET_DAY_MS, o: price, h: price + 3, l: price - 1, c: price + 2, v: 5000 + i, vw: undefined, n: i % 4 === 0 ? undefined : 7 }));
      return { lines, rows };
    }
    const manyTickers = (n: number) => Array.from({ length: n }, (_, i) => `T${String(i).padStart(4, '0')}`);

    it('day_aggs through COPY replace derived day bars only, counting what they wrote', async () => {
      // Derived day bars for AAPL and MSFT, and an imported one for IBM (small file: VALUES path).
      await importFile(store, write('minute_aggs_v1/m.csv', MINUTE_HEADER, minutes(['AAPL', 'MSFT'], 30).lines));
      const ibm = days(['IBM'], 50);
      await importFile(store, write('day_aggs_v1/ibm.csv', MINUTE_HEADER, ibm.lines));
      const derivedMsft = (await storedBars('day_bars')).find((b) => b.ticker === 'MSFT')!;

      const tickers = ['AAPL', 'IBM', ...manyTickers(700)];
      const file = days(tickers, 80);
      spy.mockClear();
      const r = await importFile(store, write('day_aggs_v1/2024-03-08.csv', MINUTE_HEADER, file.lines));
      // 700 new bars + AAPL's derived one and IBM's imported one replaced (a correction wins).
      expect(r).toMatchObject({ kind: 'day_aggs', rows: 702, written: 702 });
      expect(copies()).toHaveLength(1);
      expect(selectInserts('day_bars')).toHaveLength(1);
      expect(valueInserts('day_bars')).toEqual([]);
      const stored = await storedBars('day_bars');
      expect(stored).toHaveLength(703);
      expect(stored.find((b) => b.ticker === 'AAPL')).toEqual({ ...file.rows[0], derived: 0 });
      expect(stored.find((b) => b.ticker === 'IBM')).toEqual({ ...file.rows[1], derived: 0 });
      expect(ibm.rows[0]!.c).not.toBe(file.rows[1]!.c);
      expect(stored.find((b) => b.ticker === 'MSFT')).toEqual(derivedMsft);
      expect(stored.filter((b) => b.ticker.startsWith('T'))).toEqual(file.rows.slice(2).map((b) => ({ ...b, derived: 0 })));

      // The same file again changes nothing, so nothing is written; other prices replace every bar.
      expect(await importFile(store, write('day_aggs_v1/same.csv', MINUTE_HEADER, file.lines))).toMatchObject({ written: 0 });
      const again = days(tickers, 90);
      expect(await importFile(store, write('day_aggs_v1/again.csv', MINUTE_HEADER, again.lines))).toMatchObject({ written: 702 });
      expect((await storedBars('day_bars')).find((b) => b.ticker === 'AAPL')).toEqual({ ...again.rows[0], derived: 0 });
    });

    it('day_aggs with a repeated (ticker, t): the later bar wins, still through COPY (one upsert cannot touch a row twice)', async () => {
      const tickers = manyTickers(600);
      const file = days(tickers, 80);
      // T0000 again at row 300 with other prices: the later bar wins, as on SQLite.
      const lines = [...file.lines];
      lines[300] = days(['T0000'], 10).lines[0]!;
      const r = await importFile(store, write('day_aggs_v1/repeat.csv', MINUTE_HEADER, lines));
      expect(r).toMatchObject({ rows: 600, written: 599 });
      expect(selectInserts('day_bars')).toHaveLength(1);
      expect((await storedBars('day_bars')).find((b) => b.ticker === 'T0000')).toEqual({ ...days(['T0000'], 10).rows[0], derived: 0 });
    });
  });

  describe('insertMany', () => {
    beforeAll(async () => {
      await sqlOf(store).exec(`CREATE TABLE copy_probe (
        k TEXT PRIMARY KEY, ns BIGINT NOT NULL, opt_ns BIGINT, n INTEGER, f DOUBLE PRECISION, s TEXT, b BYTEA,
        pk BIGSERIAL UNIQUE, made TEXT NOT NULL DEFAULT 'by default')`);
    });
    beforeEach(async () => {
      await sqlOf(store).run('DELETE FROM copy_probe');
    });

    const columns = ['k', 'ns', 'opt_ns', 'n', 'f', 's', 'b'];
    function probeRows(n: number, tag = ''): (string | number | bigint | null | Buffer)[][] {
      const out: (string | number | bigint | null | Buffer)[][] = [];
      for (let i = 0; i < n; i++) {
        out.push([
          `key ${i}`,
          2n ** 62n + BigInt(i) * 1_000_000_007n, // > 2^53: only exact as bigint
          i % 2 === 0 ? null : 9_007_199_254_740_993n + BigInt(i),
          i % 5 === 0 ? null : i - 300,
          i % 3 === 0 ? null : i / 7,
          i % 6 === 0 ? null : `${TRICKY[i % TRICKY.length]}${tag}`,
          i % 4 === 0 ? null : Buffer.from([i & 0xff, 0x5c, 0x09, 0x0a, 0]),
        ]);
      }
      return out;
    }

    async function stored(): Promise<unknown[][]> {
      const rows = await sqlOf(store).all(`SELECT ${columns.join(', ')}, made FROM copy_probe ORDER BY pk`, [], { bigint: true });
      return rows.map((r) => [...columns.map((c) => r[c]), r.made]);
    }

    it('copies large batches: exact bigints above 2^53, escaped text, NULLs, bytea, column defaults', async () => {
      const rows = probeRows(COPY_MIN_ROWS + 100);
      const written = await sqlOf(store).transaction((tx) => tx.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] }));
      expect(written).toBe(rows.length);
      expect(directCopies('copy_probe')).toHaveLength(1);
      expect(valueInserts('copy_probe')).toEqual([]);
      expect(await stored()).toEqual(rows.map((r) => [...r, 'by default']));
      // The staging table is gone with the transaction.
      expect(await sqlOf(store).all(`SELECT relname FROM pg_class WHERE relname LIKE 'tb_copy_%' AND relpersistence = 't'`)).toEqual([]);
    });

    it('keeps the conflict semantics and counts of the INSERT path (skip, update, first duplicate wins)', async () => {
      const rows = probeRows(COPY_MIN_ROWS + 10);
      // Outside a transaction too (the driver opens one for COPY).
      expect(await sqlOf(store).insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] })).toBe(rows.length);
      // Again: every row collides and is skipped.
      expect(await sqlOf(store).insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] })).toBe(0);
      // Duplicates inside one batch with DO NOTHING: the first one wins, as with multi-row VALUES.
      const dupes = [...probeRows(COPY_MIN_ROWS, ' first').map((r) => [`dup ${r[0]}`, ...r.slice(1)]), ...probeRows(COPY_MIN_ROWS, ' second').map((r) => [`dup ${r[0]}`, ...r.slice(1)])];
      expect(await sqlOf(store).insertMany({ table: 'copy_probe', columns, rows: dupes, conflictColumns: ['k'] })).toBe(COPY_MIN_ROWS);
      const firstWins = await sqlOf(store).all(`SELECT s FROM copy_probe WHERE k = 'dup key 1'`);
      expect(firstWins).toEqual([{ s: `${TRICKY[1]} first` }]);
      // DO UPDATE overwrites the update columns and counts the updated rows.
      const changed = probeRows(COPY_MIN_ROWS + 10, ' changed');
      expect(await sqlOf(store).insertMany({ table: 'copy_probe', columns, rows: changed, conflictColumns: ['k'], updateColumns: ['s', 'opt_ns'] })).toBe(changed.length);
      const after = await sqlOf(store).all(`SELECT s, opt_ns FROM copy_probe WHERE k = 'key 1'`, [], { bigint: true });
      expect(after).toEqual([{ s: `${TRICKY[1]} changed`, opt_ns: 9_007_199_254_740_994n }]);
      // The first batch went straight in; each later one met a stored or repeated key there and
      // went through staging.
      expect(directCopies('copy_probe')).toHaveLength(4);
      expect(copies()).toHaveLength(3);
      expect(valueInserts('copy_probe')).toEqual([]);
    });

    it('rolls back with the transaction: copied rows of a failing transaction are not kept', async () => {
      const rows = probeRows(COPY_MIN_ROWS + 1);
      await expect(
        sqlOf(store).transaction(async (tx) => {
          await tx.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] });
          // A second batch into the same staging table, then a value the column refuses.
          await tx.insertMany({ table: 'copy_probe', columns, rows: probeRows(COPY_MIN_ROWS).map((r) => [`more ${r[0]}`, ...r.slice(1)]), conflictColumns: ['k'] });
          const bad = probeRows(COPY_MIN_ROWS).map((r) => [`bad ${r[0]}`, ...r.slice(1)]);
          bad[7]![1] = 'not a number';
          await tx.insertMany({ table: 'copy_probe', columns, rows: bad, conflictColumns: ['k'] });
        }),
      ).rejects.toThrow(/invalid input syntax for type bigint/);
      expect(directCopies('copy_probe')).toHaveLength(3);
      expect(await sqlOf(store).get('SELECT COUNT(*) AS n FROM copy_probe')).toEqual({ n: 0 });
      // The pool's connections are still usable afterwards.
      expect(await sqlOf(store).transaction((tx) => tx.insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] }))).toBe(rows.length);
    });

    it('leaves small batches on the multi-row INSERT path', async () => {
      const rows = probeRows(10);
      expect(await sqlOf(store).insertMany({ table: 'copy_probe', columns, rows, conflictColumns: ['k'] })).toBe(10);
      expect(copies()).toEqual([]);
      expect(valueInserts('copy_probe')).toHaveLength(1);
      expect(await stored()).toEqual(rows.map((r) => [...r, 'by default']));
    });
  });
});
