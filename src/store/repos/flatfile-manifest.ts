// The manifest of the flat-file sync: which version (ETag) of which bucket object is stored, for
// which ticker filter, and the one deletion a republished object needs (its day's rows, before
// the new version's rows go in). Both are written inside the transaction of the object's rows.
import type { SqlDriver, SqlValue } from '../driver.js';
import { toNumber } from '../driver.js';
import type { FlatFileKind } from '../../domain/market-records.js';
import type { TickerMarket } from '../../domain/ticker-market.js';

export interface ManifestEntry {
  key: string;
  /** The ticker filter the object was stored with, sorted and comma-separated; '' for every ticker. */
  tickers: string;
  etag: string;
  size: number;
  rows: number;
  /** ISO 8601, UTC. */
  completed: string;
}

/** The rows of one day of one data set (a flat file's day), optionally of some tickers only. */
export interface DayRows {
  kind: FlatFileKind;
  market: TickerMarket;
  /** Start and end (exclusive) of the day, Unix ms. */
  fromMs: number;
  toMs: number;
  /** Only these tickers; every ticker of the market when absent. */
  tickers?: readonly string[];
}

const MARKET_PREFIX: Record<TickerMarket, string | undefined> = { stocks: undefined, options: 'O:', fx: 'C:', crypto: 'X:', indices: 'I:' };
const CHUNK = 500;
const NS_PER_MS = 1_000_000n;

export class FlatFileManifestRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Every entry whose key starts with `prefix`, by key. */
  async entries(prefix: string): Promise<ManifestEntry[]> {
    const rows = await this.db.all(
      `SELECT object_key, tickers, etag, size, row_count, completed_utc FROM flatfile_manifest
        WHERE substr(object_key, 1, ?) = ? ORDER BY object_key, tickers`,
      [prefix.length, prefix],
    );
    return rows.map((r) => ({
      key: String(r.object_key),
      tickers: String(r.tickers),
      etag: String(r.etag),
      size: toNumber(r.size),
      rows: toNumber(r.row_count),
      completed: String(r.completed_utc),
    }));
  }

  /**
   * Records a stored object. An object stored for every ticker makes its entries for fewer
   * tickers redundant; they are dropped.
   */
  async record(e: ManifestEntry): Promise<void> {
    if (e.tickers === '') await this.db.run('DELETE FROM flatfile_manifest WHERE object_key = ?', [e.key]);
    await this.db.run(
      `INSERT INTO flatfile_manifest (object_key, tickers, etag, size, row_count, completed_utc) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (object_key, tickers) DO UPDATE SET etag = excluded.etag, size = excluded.size,
          row_count = excluded.row_count, completed_utc = excluded.completed_utc`,
      [e.key, e.tickers, e.etag, e.size, e.rows, e.completed],
    );
  }

  /**
   * Deletes the stored rows of one day of a data set: trades or quotes timed within it, its
   * minute bars (and the day bars derived from them), or its imported day bars. Returns the rows
   * deleted.
   */
  async deleteDayRows(day: DayRows): Promise<number> {
    const ns: [SqlValue, SqlValue] = [BigInt(day.fromMs) * NS_PER_MS, BigInt(day.toMs) * NS_PER_MS];
    const ms: [SqlValue, SqlValue] = [day.fromMs, day.toMs];
    switch (day.kind) {
      case 'trades':
        return this.deleteWhere('trades', 'sip_timestamp >= ? AND sip_timestamp < ?', ns, day);
      case 'quotes':
        return this.deleteWhere('quotes', 'ts >= ? AND ts < ?', ns, day);
      case 'minute_aggs':
        return (
          (await this.deleteWhere('minute_bars', 't >= ? AND t < ?', ms, day)) +
          (await this.deleteWhere('day_bars', 'derived = 1 AND t >= ? AND t < ?', ms, day))
        );
      case 'day_aggs':
        return this.deleteWhere('day_bars', 'derived = 0 AND t >= ? AND t < ?', ms, day);
    }
  }

  private async deleteWhere(table: string, when: string, bounds: SqlValue[], day: DayRows): Promise<number> {
    if (day.tickers !== undefined) {
      let deleted = 0;
      for (let i = 0; i < day.tickers.length; i += CHUNK) {
        const chunk = day.tickers.slice(i, i + CHUNK);
        const r = await this.db.run(`DELETE FROM ${table} WHERE ${when} AND ticker IN (${chunk.map(() => '?').join(', ')})`, [...bounds, ...chunk]);
        deleted += r.changes;
      }
      return deleted;
    }
    const prefix = MARKET_PREFIX[day.market];
    // Stocks are the tickers without a market prefix (`X:` and the like).
    const market = prefix === undefined ? "NOT (ticker LIKE '_:%')" : 'substr(ticker, 1, 2) = ?';
    const r = await this.db.run(`DELETE FROM ${table} WHERE ${when} AND ${market}`, prefix === undefined ? bounds : [...bounds, prefix]);
    return r.changes;
  }
}
