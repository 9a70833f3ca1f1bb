// Day partitions of the tables that PostgreSQL partitions by UTC day (migration 0950): trades,
// quotes and minute_bars. There is no DEFAULT partition, so a row of a day without a partition
// is refused; every write first creates the partitions of its batch's days.
import pg from 'pg';
import { storeErrorOf } from './driver.js';

/** A day-partitioned table: its time key and how many of the key's units make a day. */
interface DayPartitioned {
  unitsPerDay: bigint;
}

const NS_PER_DAY = 86_400_000_000_000n;
const MS_PER_DAY = 86_400_000n;

const DAY_PARTITIONED: Readonly<Record<string, DayPartitioned>> = {
  trades: { unitsPerDay: NS_PER_DAY },
  quotes: { unitsPerDay: NS_PER_DAY },
  minute_bars: { unitsPerDay: MS_PER_DAY },
};

/** Advisory lock keys (any constants; they name no row), one per table. */
const LOCK_KEYS: Readonly<Record<string, number>> = { trades: 7242950, quotes: 7242951, minute_bars: 7242952 };

/** How long creating a partition waits for a lock before failing instead of hanging. */
const LOCK_TIMEOUT = '30s';

/**
 * When a partition made by a write (live publishing above all) is analyzed, ms after it was made:
 * the planner has no statistics of a new partition until autovacuum analyzes it, if it runs at
 * all, and without them a last trade took 308 ms instead of 0.6 ms, a full-market snapshot
 * 420-550 ms instead of 25 ms.
 */
export const ANALYZE_AFTER_MS = [60_000, 600_000] as const;

/** The UTC days (days since 1970-01-01) of time keys, in `unitsPerDay` units. */
export class DaySet {
  readonly days = new Set<number>();
  private lo = 0n;
  private hi = 0n;

  constructor(private readonly unitsPerDay: bigint) {}

  /** Adds the day of `time`; cheap when it is the day of the previous time (rows come in time order). */
  add(time: bigint | number): void {
    const t = typeof time === 'bigint' ? time : BigInt(time);
    if (t >= this.lo && t < this.hi) return;
    let day = t / this.unitsPerDay;
    if (t < 0n && day * this.unitsPerDay !== t) day -= 1n; // floor, not truncation, before 1970
    this.lo = day * this.unitsPerDay;
    this.hi = this.lo + this.unitsPerDay;
    this.days.add(Number(day));
  }
}

/** The UTC days of `rows` of a day-partitioned `table` (undefined for other tables). */
export function daysOf<T>(table: string, rows: readonly T[], timeOf: (row: T) => bigint | number | undefined): number[] | undefined {
  const spec = DAY_PARTITIONED[table];
  if (spec === undefined) return undefined;
  const days = new DaySet(spec.unitsPerDay);
  for (const row of rows) {
    const time = timeOf(row);
    if (time !== undefined) days.add(time); // a row without a time key is refused by the write itself
  }
  return [...days.days];
}

/**
 * Creates missing day partitions, remembering the ones known to exist. One per store: its
 * transactions share it. Partitions are made on a connection of their own (not the pool's: every
 * pooled connection may be held by a writer waiting for this), in a short transaction, so they
 * are committed and visible to every other writer at once, and a writer's rollback never leaves
 * one remembered but absent; the writer's open transaction sees them from its next statement
 * (READ COMMITTED). ATTACH needs only SHARE UPDATE EXCLUSIVE on the parent, which a writer's ROW
 * EXCLUSIVE does not block. Within a process, one creation runs at a time.
 */
export class DayPartitions {
  private readonly known = new Map<string, Set<number>>();
  private queue: Promise<unknown> = Promise.resolve();

  /** `connection`: the settings of the store's pool (server, credentials, search_path). */
  constructor(private readonly connection: pg.ClientConfig) {}

  /**
   * Makes sure `table` has a partition for the day of each row's time key (`timeOf`); a no-op for
   * tables that are not partitioned.
   */
  async ensureFor<T>(table: string, rows: readonly T[], timeOf: (row: T) => bigint | number | undefined): Promise<void> {
    const days = daysOf(table, rows, timeOf);
    if (days) await this.ensureDays(table, days);
  }

  /** Makes sure `table` has a partition for each of `days` (UTC days since 1970-01-01). */
  async ensureDays(table: string, days: Iterable<number>): Promise<void> {
    const spec = DAY_PARTITIONED[table];
    if (spec === undefined) return;
    const wanted = [...days];
    if (this.missing(table, wanted).length === 0) return;
    const run = this.queue.then(() => this.create(table, spec, wanted));
    this.queue = run.catch(() => {});
    await run;
  }

  /** Forgets the partitions known of `table`: the next write of each day checks the catalog again. */
  forget(table: string): void {
    this.known.delete(table);
  }

  private missing(table: string, days: Iterable<number>): number[] {
    const known = this.known.get(table);
    return [...days].filter((d) => !known?.has(d));
  }

  private async create(table: string, spec: DayPartitioned, days: Iterable<number>): Promise<void> {
    const missing = this.missing(table, days); // an earlier creation may have made them
    if (missing.length === 0) return;
    const client = new pg.Client(this.connection);
    client.on('error', () => {}); // a dropped connection fails the query below instead
    try {
      await client.connect();
      await client.query('BEGIN');
      await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      // One creator per table across processes: the other waits, then finds the partition made.
      await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEYS[table]]);
      for (const day of missing) await client.query('SELECT tb_day_partition($1, $2, $3)', [table, day, String(spec.unitsPerDay)]);
      await client.query('COMMIT');
    } catch (err) {
      // a server away or past the deadline is the store's outage (503), as for any other write
      throw storeErrorOf(err);
    } finally {
      await client.end().catch(() => {});
    }
    let known = this.known.get(table);
    if (known === undefined) this.known.set(table, (known = new Set()));
    for (const day of missing) known.add(day);
    this.analyzeLater(missing.map((day) => partitionName(table, day)));
  }

  /** ANALYZE of new partitions once they hold rows (ANALYZE_AFTER_MS), on a connection of its own; a failure is let go. */
  private analyzeLater(names: readonly string[]): void {
    for (const ms of ANALYZE_AFTER_MS) {
      const timer = setTimeout(() => {
        const client = new pg.Client(this.connection);
        client.on('error', () => {});
        client
          .connect()
          .then(() => client.query(`ANALYZE ${names.map((n) => `"${n}"`).join(', ')}`))
          .catch(() => {})
          .finally(() => void client.end().catch(() => {}));
      }, ms);
      timer.unref();
    }
  }
}

/** The name tb_day_partition gives the partition of `table` for UTC day `day` (migration 0950). */
export function partitionName(table: string, day: number): string {
  return `${table}_d${new Date(day * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '')}`;
}
