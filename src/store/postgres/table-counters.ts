import type pg from 'pg';

/**
 * How often, at most, a listening driver reads PostgreSQL's row counters of its schema to notice
 * writes by other programs, which announce nothing (psql, an ETL job). Polls fall on whole
 * multiples of this period of the wall clock, so a process can tell when the next one comes.
 * PostgreSQL publishes a backend's counters within about ten seconds of its commit (at once when
 * its connection closes), so such writes show within 40 s.
 */
export const UNANNOUNCED_POLL_MS = 30_000;

// Per-table counters of rows inserted, updated and deleted, and of live rows (a TRUNCATE resets
// them), summed over the store's schema, with the number of its tables (DDL). key_usage is left
// out: the server adds its request counts there every few seconds without changing any answer.
// Other writes of this process move its data version anyway.
const COUNTERS_SQL = `SELECT current_setting('track_counts') = 'on' AS counting,
  count(*) || '.' || coalesce(sum(n_tup_ins), 0) || '.' || coalesce(sum(n_tup_upd), 0) || '.' ||
  coalesce(sum(n_tup_del), 0) || '.' || coalesce(sum(n_live_tup), 0) AS counters
  FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname <> 'key_usage'`;

/**
 * Tells whether the row counters of the store's schema moved between polls: a number that grows
 * by one each time they did. A poll is started (not waited for) by the first call in each period,
 * so a caller with no other way to hear of other programs' writes keeps its caches for as long as
 * the data stays as it was, rather than dropping them all on every period.
 *
 * A poll that fails, and every poll while the server keeps no counters (track_counts off), counts
 * as a move: what cannot be checked is taken to have changed.
 */
export class TableCounters {
  private moves = 0;
  private last: string | undefined;
  private period: number | undefined;
  private polling = false;

  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly everyMs = UNANNOUNCED_POLL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Moves seen so far (a poll falling due is started). */
  seen(): number {
    const period = Math.floor(this.now() / this.everyMs);
    if (period !== this.period && !this.polling) {
      this.period = period;
      this.poll();
    }
    return this.moves;
  }

  private poll(): void {
    this.polling = true;
    this.pool.query<{ counting: boolean; counters: string }>(COUNTERS_SQL).then(
      (r) => {
        this.polling = false;
        const { counting, counters } = r.rows[0]!;
        // The first reading counts as a move too, as one after a failed poll: answers cached
        // before it may predate writes it includes.
        if (!counting) this.moved(undefined);
        else if (counters !== this.last) this.moved(counters);
      },
      () => {
        this.polling = false;
        this.moved(undefined);
      },
    );
  }

  private moved(counters: string | undefined): void {
    this.moves++;
    this.last = counters;
  }
}
