// Read-through (`serve --read-through`): before a service answers aggregates, trades, quotes or a
// ticker overview, the ledger is asked whether the stored data covers the request; what it does
// not cover is fetched from upstream once, stored, recorded, and then the service answers from
// the store as always. The rules:
// - What counts as covered: aggregates and ticks by New York day, per ticker, over the union of
//   complete ledger units (days not yet ended are never fetched: they come from the live feed);
//   a ticker overview when the store has the ticker.
// - Identical misses arriving together share one fetch (one upstream call per page).
// - Upstream's 404s and empty answers for a ticker overview are remembered for `negativeTtlMs`
//   (dated units that upstream answered empty are complete in the ledger: that day has nothing).
// - The client gets an answer within `deadlineMs`: past it, 503 with Retry-After while the fetch
//   goes on in the background (the next request finds it stored); upstream limiting (429, or the
//   local budget of calls spent) is 429 with Retry-After, and further misses are refused at once
//   until then; upstream down or answering nonsense is 503, and while upstream is down (a few
//   seconds) or refuses the key (a minute) misses get 503 without a call. Never a hang or a 500.
import { dateOfDay, localDayOf } from '../domain/calendar.js';
import { ApiError } from '../domain/errors.js';
import { rangesMissing, type LedgerUnit, type UpstreamLedgerRepository } from '../store/repos/upstream-ledger.js';
import type { RestDatasetName } from '../upstream/rest-datasets.js';
import type { UpstreamError } from '../upstream/rest-errors.js';

const NY = 'America/New_York';

/** What fetching one unit came to (ingest's fetchUnit gives it). */
export interface FillOutcome {
  status: 'complete' | 'failed';
  /** Upstream had nothing for it (404 or no records). */
  empty: boolean;
  error?: UpstreamError;
}

export interface ReadThroughOptions {
  ledger: Pick<UpstreamLedgerRepository, 'completeRanges'>;
  /** Fetches a unit from upstream and stores it. */
  fill(unit: LedgerUnit): Promise<FillOutcome>;
  now: () => number;
  /** How long a client waits for upstream before a 503 (the store's deadline). */
  deadlineMs: number;
  /** How long a 404 or empty answer is remembered (default 10 minutes). */
  negativeTtlMs?: number;
  /** Seconds a client is asked to wait after upstream was slow or down (default 5). */
  retryAfterS?: number;
  /** Days a tick window may span to be read through (default 7); longer ones are answered from the store as it is. */
  maxTickDays?: number;
}

export interface ReadThroughStats {
  misses: number;
  fetched: number;
  coalesced: number;
  negativeHits: number;
  refused: number;
  failed: number;
}

const keyOf = (u: LedgerUnit) => `${u.dataset}\u0000${u.ticker}\u0000${u.from}\u0000${u.to}`;

export class ReadThrough {
  readonly stats: ReadThroughStats = { misses: 0, fetched: 0, coalesced: 0, negativeHits: 0, refused: 0, failed: 0 };
  private readonly inFlight = new Map<string, Promise<FillOutcome>>();
  private readonly negative = new Map<string, number>();
  /** Upstream asked to wait until then (a 429): misses are refused at once meanwhile. */
  private limitedUntil = 0;
  /** Upstream was down or refused the key: misses get 503 at once until then, so it is not hammered. */
  private downUntil = 0;
  private readonly negativeTtlMs: number;
  private readonly retryAfterS: number;
  private readonly maxTickDays: number;

  constructor(private readonly opts: ReadThroughOptions) {
    this.negativeTtlMs = opts.negativeTtlMs ?? 600_000;
    this.retryAfterS = opts.retryAfterS ?? 5;
    this.maxTickDays = opts.maxTickDays ?? 7;
  }

  /** Bars of [fromMs, toMs]: minute bars for second-less spans under a day, day bars above. */
  async ensureBars(ticker: string, timespan: string, fromMs: number, toMs: number): Promise<void> {
    const dataset: RestDatasetName = timespan === 'minute' || timespan === 'hour' ? 'aggs-minute' : timespan === 'second' ? 'trades' : 'aggs-day';
    await this.ensureDays(dataset, ticker, fromMs, toMs);
  }

  /** Trades or quotes of a window given in nanoseconds (an open window is answered from the store). */
  async ensureTicks(kind: 'trades' | 'quotes', ticker: string, gteNs: string | undefined, ltNs: string | undefined): Promise<void> {
    if (gteNs === undefined || ltNs === undefined) return;
    const fromMs = Number(BigInt(gteNs) / 1_000_000n);
    const toMs = Number((BigInt(ltNs) - 1n) / 1_000_000n);
    if (toMs < fromMs || localDayOf(toMs, NY) - localDayOf(fromMs, NY) >= this.maxTickDays) return;
    await this.ensureDays(kind, ticker, fromMs, toMs);
  }

  /**
   * A ticker the store does not have: fetched once (`found` says whether the store has it now is
   * the caller's business); a 404 is remembered for a while.
   */
  async ensureTicker(ticker: string): Promise<void> {
    await this.ensure({ dataset: 'tickers', ticker, from: '', to: '' });
  }

  private async ensureDays(dataset: RestDatasetName, ticker: string, fromMs: number, toMs: number): Promise<void> {
    const lastComplete = localDayOf(this.opts.now(), NY) - 1;
    const fromDay = localDayOf(fromMs, NY);
    const toDay = Math.min(localDayOf(toMs, NY), lastComplete);
    if (toDay < fromDay) return;
    const from = dateOfDay(fromDay);
    const to = dateOfDay(toDay);
    const missingUnits = async () =>
      rangesMissing(await this.opts.ledger.completeRanges(dataset, ticker), from, to).map((m) => ({ dataset, ticker, from: m.from, to: m.to }));
    let units = await missingUnits();
    if (units.length === 0) return;
    // A fetch of other days of this ticker under way (a wider request, say) may hold these days:
    // it is waited for and the ledger asked again, rather than asking upstream for them twice.
    const prefix = `${dataset}\u0000${ticker}\u0000`;
    const others = [...this.inFlight.entries()].filter(([k]) => k.startsWith(prefix) && !units.some((u) => keyOf(u) === k));
    if (others.length > 0 && !units.some((u) => this.inFlight.has(keyOf(u)))) {
      await this.withDeadline(Promise.allSettled(others.map(([, p]) => p)));
      units = await missingUnits();
    }
    for (const u of units) await this.ensure(u);
  }

  private async ensure(unit: LedgerUnit): Promise<void> {
    const key = keyOf(unit);
    const now = this.opts.now();
    const negativeUntil = this.negative.get(key);
    if (negativeUntil !== undefined) {
      if (negativeUntil > now) {
        this.stats.negativeHits++;
        return;
      }
      this.negative.delete(key);
    }
    let fetch = this.inFlight.get(key);
    if (fetch) this.stats.coalesced++;
    else {
      if (this.limitedUntil > now) {
        this.stats.refused++;
        throw this.limited(Math.ceil((this.limitedUntil - now) / 1000));
      }
      if (this.downUntil > now) {
        this.stats.refused++;
        throw this.unavailable('it failed moments ago', Math.ceil((this.downUntil - now) / 1000));
      }
      this.stats.misses++;
      fetch = this.opts.fill(unit).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, fetch);
      // The outcome is kept whoever waits for it (a client past its deadline no longer does).
      void fetch.then((o) => this.remember(key, o), () => undefined);
    }
    const outcome = await this.withDeadline(fetch);
    if (outcome.status === 'complete') return;
    const err = outcome.error!;
    if (err.kind === 'rate_limited') throw this.limited(err.retryAfterS ?? this.retryAfterS);
    // Data upstream does not have, or not for the operator's plan: answered from the store as it is.
    if (err.kind === 'not_found' || err.kind === 'forbidden') return;
    throw this.unavailable(err.kind === 'unauthorized' ? "it refused this server's upstream key" : err.reason, this.retryAfterS);
  }

  private unavailable(why: string, retryAfterS: number): ApiError {
    return new ApiError('DEPENDENCY_UNAVAILABLE', `Upstream could not provide data this server does not hold (${why}); try again shortly`, { 'Retry-After': String(Math.max(1, retryAfterS)) });
  }

  private remember(key: string, o: FillOutcome): void {
    const now = this.opts.now();
    if (o.status === 'complete') {
      this.stats.fetched++;
      if (o.empty) this.negative.set(key, now + this.negativeTtlMs);
      return;
    }
    this.stats.failed++;
    if (o.error?.kind === 'rate_limited') this.limitedUntil = Math.max(this.limitedUntil, now + (o.error.retryAfterS ?? this.retryAfterS) * 1000);
    if (o.error?.kind === 'not_found' || o.error?.kind === 'forbidden') this.negative.set(key, now + this.negativeTtlMs);
    // A key upstream refuses stays refused for a while; an upstream down, for a few seconds.
    if (o.error?.kind === 'unauthorized') this.downUntil = Math.max(this.downUntil, now + 60_000);
    if (o.error?.kind === 'unavailable') this.downUntil = Math.max(this.downUntil, now + this.retryAfterS * 1000);
  }

  private limited(retryAfterS: number): ApiError {
    return new ApiError('RATE_LIMITED', `Upstream is limiting requests for data this server does not hold yet; try again in ${retryAfterS} s`, { 'Retry-After': String(Math.max(1, retryAfterS)) });
  }

  private withDeadline<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ApiError('DEPENDENCY_UNAVAILABLE', `Upstream did not answer within ${this.opts.deadlineMs} ms; the data is being fetched, try again shortly`, { 'Retry-After': String(this.retryAfterS) })),
        this.opts.deadlineMs,
      );
    });
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }
}
