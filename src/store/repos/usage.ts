import type { SqlDriver, TransactionOptions } from '../driver.js';
import { toNumber } from '../driver.js';

export interface UsageIncrement {
  key_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Endpoint family: the route's canonical URL template, e.g. /v3/reference/tickers/:ticker. */
  family: string;
  requests: number;
  errors: number;
}

export interface UsageRow {
  day: string;
  family: string;
  requests: number;
  errors: number;
}

export interface UsageTotals {
  requests: number;
  errors: number;
}

export class UsageRepository {
  constructor(private readonly db: SqlDriver) {}

  /**
   * Adds the counts in one transaction (one upsert per key, day and family), leaving the data
   * version as it is: counts are not data any answer is made of. With `noWait`, throws
   * StoreBusyError at once, writing nothing, when another connection (an import) holds the write
   * lock; `lockWaitMs` waits that long for it instead.
   */
  async add(increments: UsageIncrement[], opts: Pick<TransactionOptions, 'noWait' | 'lockWaitMs'> = {}): Promise<void> {
    if (increments.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const u of increments) {
        await tx.run(
          `INSERT INTO key_usage (key_id, day, family, requests, errors) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (key_id, day, family) DO UPDATE SET requests = key_usage.requests + excluded.requests, errors = key_usage.errors + excluded.errors`,
          [u.key_id, u.day, u.family, u.requests, u.errors],
          { unversioned: true },
        );
      }
    }, { ...opts, unversioned: true });
  }

  /** A key's rows between two days (inclusive), newest day first. */
  async forKey(keyId: string, fromDay = '0000-00-00', toDay = '9999-99-99'): Promise<UsageRow[]> {
    const rows = await this.db.all(
      'SELECT day, family, requests, errors FROM key_usage WHERE key_id = ? AND day >= ? AND day <= ? ORDER BY day DESC, family',
      [keyId, fromDay, toDay],
    );
    return rows.map((r) => ({ day: String(r.day), family: String(r.family), requests: toNumber(r.requests), errors: toNumber(r.errors) }));
  }

  /** Totals per key since a day (inclusive). */
  async totalsSince(fromDay: string): Promise<Map<string, UsageTotals>> {
    const rows = await this.db.all(
      'SELECT key_id, SUM(requests) AS requests, SUM(errors) AS errors FROM key_usage WHERE day >= ? GROUP BY key_id',
      [fromDay],
    );
    return new Map(rows.map((r) => [String(r.key_id), { requests: toNumber(r.requests), errors: toNumber(r.errors) }]));
  }

  /** An account's requests per day and family since a day (inclusive), over all its keys and tokens. */
  async forAccount(accountId: string, fromDay: string): Promise<UsageRow[]> {
    const rows = await this.db.all(
      `SELECT u.day AS day, u.family AS family, SUM(u.requests) AS requests, SUM(u.errors) AS errors
       FROM key_usage u JOIN api_keys k ON k.id = u.key_id
       WHERE k.account_id = ? AND u.day >= ? GROUP BY u.day, u.family ORDER BY u.day, u.family`,
      [accountId, fromDay],
    );
    return rows.map((r) => ({ day: String(r.day), family: String(r.family), requests: toNumber(r.requests), errors: toNumber(r.errors) }));
  }

  /** Requests per day and family since a day (inclusive), over every key and token of the server. */
  async forServer(fromDay: string): Promise<UsageRow[]> {
    const rows = await this.db.all(
      `SELECT day, family, SUM(requests) AS requests, SUM(errors) AS errors
       FROM key_usage WHERE day >= ? GROUP BY day, family ORDER BY day, family`,
      [fromDay],
    );
    return rows.map((r) => ({ day: String(r.day), family: String(r.family), requests: toNumber(r.requests), errors: toNumber(r.errors) }));
  }

  /** The last UTC day each key made a request. */
  async lastDays(): Promise<Map<string, string>> {
    const rows = await this.db.all('SELECT key_id, MAX(day) AS day FROM key_usage GROUP BY key_id');
    return new Map(rows.map((r) => [String(r.key_id), String(r.day)]));
  }
}
