// The ledger of what was fetched from upstream's REST API, and the counters of upstream calls.
// A unit is (data set, ticker, from day, to day): ticker is '*' for data sets not fetched per
// ticker, and both days are '' for undated ones (exchanges, one ticker's overview). Whether a
// range is covered is answered over the union of the complete units of that data set and ticker,
// so ten back-filled days and a read-through day next to them cover the eleven days together.
import { dateOfDay, dayOfDate } from '../../domain/calendar.js';
import { marketOfTicker } from '../../domain/ticker-market.js';
import type { SqlDriver } from '../driver.js';

export type LedgerStatus = 'complete' | 'partial' | 'failed';

export interface LedgerUnit {
  dataset: string;
  /** '*' when the data set is not fetched per ticker. */
  ticker: string;
  /** 'YYYY-MM-DD', or '' for an undated unit. */
  from: string;
  to: string;
}

export interface LedgerEntry extends LedgerUnit {
  status: LedgerStatus;
  /** Where a partial unit resumes (upstream's next_url, which never holds a key). */
  nextUrl?: string;
  rows: number;
  calls: number;
  error?: string;
  updatedUtc: string;
}

export interface LedgerSummaryRow {
  dataset: string;
  status: LedgerStatus;
  units: number;
  tickers: number;
  rows: number;
  calls: number;
  /** The earliest and latest day of the dated units ('' when none is dated). */
  firstDay: string;
  lastDay: string;
  lastUpdatedUtc: string;
}

export type UpstreamCounter = 'calls' | 'refused' | 'failed' | 'rows';

const toNumber = (v: unknown) => (typeof v === 'bigint' ? Number(v) : Number(v ?? 0));

function entryOf(r: Record<string, unknown>): LedgerEntry {
  return {
    dataset: String(r.dataset),
    ticker: String(r.ticker),
    from: String(r.from_day),
    to: String(r.to_day),
    status: String(r.status) as LedgerStatus,
    ...(r.next_url ? { nextUrl: String(r.next_url) } : {}),
    rows: toNumber(r.rows),
    calls: toNumber(r.calls),
    ...(r.error ? { error: String(r.error) } : {}),
    updatedUtc: String(r.updated_utc),
  };
}

/** Whether the day ranges, joined where they meet or overlap, hold every day of [from, to]. */
export function rangesCover(ranges: readonly { from: string; to: string }[], from: string, to: string): boolean {
  const want = [dayOfDate(from), dayOfDate(to)] as const;
  const spans = ranges.map((r) => [dayOfDate(r.from), dayOfDate(r.to)] as const).sort((a, b) => a[0] - b[0]);
  let reached = want[0] - 1;
  for (const [a, b] of spans) {
    if (a > reached + 1) break;
    if (b > reached) reached = b;
    if (reached >= want[1]) return true;
  }
  return reached >= want[1];
}

/** The days of [from, to] that the ranges do not hold, as ranges. */
export function rangesMissing(ranges: readonly { from: string; to: string }[], from: string, to: string): { from: string; to: string }[] {
  const spans = ranges.map((r) => [dayOfDate(r.from), dayOfDate(r.to)] as const).sort((a, b) => a[0] - b[0]);
  const out: { from: string; to: string }[] = [];
  let next = dayOfDate(from);
  const last = dayOfDate(to);
  for (const [a, b] of spans) {
    if (next > last) break;
    if (b < next) continue;
    if (a > next) out.push({ from: dateOfDay(next), to: dateOfDay(Math.min(a - 1, last)) });
    next = Math.max(next, b + 1);
  }
  if (next <= last) out.push({ from: dateOfDay(next), to: dateOfDay(last) });
  return out;
}

export class UpstreamLedgerRepository {
  constructor(private readonly db: SqlDriver) {}

  async get(unit: LedgerUnit): Promise<LedgerEntry | undefined> {
    const r = await this.db.get('SELECT * FROM upstream_ledger WHERE dataset = ? AND ticker = ? AND from_day = ? AND to_day = ?', [unit.dataset, unit.ticker, unit.from, unit.to]);
    return r ? entryOf(r) : undefined;
  }

  /** Records a unit's state; calls and rows add to what the unit had (a resumed unit keeps counting). */
  async record(unit: LedgerUnit, state: { status: LedgerStatus; nextUrl?: string; rows: number; calls: number; error?: string; nowUtc: string }): Promise<void> {
    await this.db.run(
      `INSERT INTO upstream_ledger (dataset, ticker, from_day, to_day, status, next_url, rows, calls, error, updated_utc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (dataset, ticker, from_day, to_day) DO UPDATE SET status = excluded.status, next_url = excluded.next_url,
         rows = upstream_ledger.rows + excluded.rows, calls = upstream_ledger.calls + excluded.calls, error = excluded.error,
         updated_utc = excluded.updated_utc`,
      [unit.dataset, unit.ticker, unit.from, unit.to, state.status, state.nextUrl ?? null, state.rows, state.calls, state.error ?? null, state.nowUtc],
    );
  }

  /**
   * The complete day ranges of a data set and ticker (undated units left out); for a stock, those
   * fetched for every stock at once ('*': upstream's grouped day bars) too.
   */
  async completeRanges(dataset: string, ticker: string): Promise<{ from: string; to: string }[]> {
    const everyStock = ticker !== '*' && marketOfTicker(ticker) === 'stocks' ? '*' : ticker;
    const rows = await this.db.all(
      "SELECT from_day, to_day FROM upstream_ledger WHERE dataset = ? AND ticker IN (?, ?) AND status = 'complete' AND from_day <> ''",
      [dataset, ticker, everyStock],
    );
    return rows.map((r) => ({ from: String(r.from_day), to: String(r.to_day) }));
  }

  /** Whether [from, to] is covered by complete units; an undated unit ('' to '') when it is complete. */
  async covers(unit: LedgerUnit): Promise<boolean> {
    if (unit.from === '') return (await this.get(unit))?.status === 'complete';
    return rangesCover(await this.completeRanges(unit.dataset, unit.ticker), unit.from, unit.to);
  }

  /**
   * Entries, newest first, optionally of one data set and status; `failing`: those whose last
   * attempt failed (failed units, and partial ones stopped by a failure).
   */
  async list(filter: { dataset?: string; status?: LedgerStatus; failing?: boolean; limit?: number } = {}): Promise<LedgerEntry[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.dataset) {
      where.push('dataset = ?');
      params.push(filter.dataset);
    }
    if (filter.status) {
      where.push('status = ?');
      params.push(filter.status);
    }
    if (filter.failing) where.push('error IS NOT NULL');
    params.push(filter.limit ?? 100);
    const rows = await this.db.all(`SELECT * FROM upstream_ledger${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_utc DESC, dataset, ticker, from_day LIMIT ?`, params);
    return rows.map(entryOf);
  }

  /** Per data set and status: units, tickers, rows, calls and the days spanned. */
  async summary(): Promise<LedgerSummaryRow[]> {
    const rows = await this.db.all(
      `SELECT dataset, status, COUNT(*) AS units, COUNT(DISTINCT ticker) AS tickers, SUM(rows) AS rows, SUM(calls) AS calls,
              MIN(CASE WHEN from_day <> '' THEN from_day END) AS first_day, MAX(to_day) AS last_day, MAX(updated_utc) AS last_updated
         FROM upstream_ledger GROUP BY dataset, status ORDER BY dataset, status`,
    );
    return rows.map((r) => ({
      dataset: String(r.dataset),
      status: String(r.status) as LedgerStatus,
      units: toNumber(r.units),
      tickers: toNumber(r.tickers),
      rows: toNumber(r.rows),
      calls: toNumber(r.calls),
      firstDay: r.first_day ? String(r.first_day) : '',
      lastDay: r.last_day ? String(r.last_day) : '',
      lastUpdatedUtc: String(r.last_updated ?? ''),
    }));
  }

  async addToCounters(add: Partial<Record<UpstreamCounter, number>>): Promise<void> {
    for (const [name, value] of Object.entries(add)) {
      if (!value) continue;
      await this.db.run(
        'INSERT INTO upstream_counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = upstream_counters.value + excluded.value',
        [name, value],
      );
    }
  }

  async counters(): Promise<Record<UpstreamCounter, number>> {
    const out: Record<UpstreamCounter, number> = { calls: 0, refused: 0, failed: 0, rows: 0 };
    for (const r of await this.db.all('SELECT name, value FROM upstream_counters')) {
      const name = String(r.name);
      if (name in out) out[name as UpstreamCounter] = toNumber(r.value);
    }
    return out;
  }
}
