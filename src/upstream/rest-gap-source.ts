// The trades and minute bars of a ticker over a time range, from upstream's REST API: what the
// relay needs to fill a hole in the recorded tape after the feed was down. The calls go through
// the REST client `sync rest` and read-through use (key in the Authorization header only, next_url
// followed on the configured base, deadline, retries, checked answers, exact ns times); this adds
// the two requests, the mapping of their records to rows, and a bound on the pages of one gap.
// Any source with these two calls can stand in for it.
import type { BarRow, TradeRow } from '../domain/market-records.js';
import { type UpstreamBody, type UpstreamClientOptions, UpstreamRestClient } from './rest-client.js';
import { UpstreamError } from './rest-errors.js';
import { barsOf, RecordShapeError, tradesOf } from './rest-market-records.js';

export interface GapSource {
  /** Trades with fromNs <= sip_timestamp < toNs, oldest first. */
  trades(ticker: string, fromNs: bigint, toNs: bigint): Promise<TradeRow[]>;
  /** Minute bars whose window starts in [fromMs, toMs), oldest first. */
  minuteBars(ticker: string, fromMs: number, toMs: number): Promise<BarRow[]>;
}

export type RestGapSourceOptions = Pick<UpstreamClientOptions, 'key' | 'timeoutMs' | 'retries' | 'maxBackoffMs' | 'fetch' | 'sleep'> & {
  /** Upstream's REST base, e.g. `https://api.massive.com`. */
  baseUrl: string;
  /** Pages followed per call at most (default 200): a gap is minutes, not years. */
  maxPages?: number;
};

/** A gap whose records span more pages than allowed. */
export class GapSourceError extends Error {}

export class RestGapSource implements GapSource {
  private readonly client: UpstreamRestClient;
  private readonly maxPages: number;

  constructor(opts: RestGapSourceOptions) {
    const { maxPages, ...client } = opts;
    this.maxPages = maxPages ?? 200;
    // The relay repairs one ticker after another while it records: a failing upstream is given
    // up on within about a minute (2 retries, backoff and Retry-After capped), not the 5 retries
    // and 10-minute waits a back-fill can afford.
    this.client = new UpstreamRestClient({ timeoutMs: 15_000, retries: 2, maxBackoffMs: 5_000, maxRetryAfterMs: 30_000, ...client });
  }

  async trades(ticker: string, fromNs: bigint, toNs: bigint): Promise<TradeRow[]> {
    const q = new URLSearchParams({ 'timestamp.gte': String(fromNs), 'timestamp.lt': String(toNs), order: 'asc', sort: 'timestamp', limit: '50000' });
    return this.rows(`/v3/trades/${encodeURIComponent(ticker)}?${q}`, (body) => tradesOf(body, ticker));
  }

  async minuteBars(ticker: string, fromMs: number, toMs: number): Promise<BarRow[]> {
    // the range's end is inclusive upstream: ask to the last millisecond before toMs
    const path = `/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/minute/${fromMs}/${toMs - 1}?adjusted=false&sort=asc&limit=50000`;
    const bars = await this.rows(path, (body) => barsOf(body, ticker));
    return bars.filter((b) => b.t >= fromMs && b.t < toMs);
  }

  /** The rows of every page of a list (a 404, upstream's "no such ticker", has none). */
  private async rows<T>(path: string, rowsOf: (body: UpstreamBody) => T[]): Promise<T[]> {
    const out: T[] = [];
    let more = false;
    for await (const page of this.client.pages(path, this.maxPages)) {
      try {
        out.push(...rowsOf(page.body));
      } catch (err) {
        if (err instanceof RecordShapeError) throw new UpstreamError('bad_answer', page.url, `a record is not what the API promises: ${err.message}`);
        throw err;
      }
      more = page.next !== undefined;
    }
    if (more) throw new GapSourceError(`upstream REST ${path.split('?')[0]}: more than ${this.maxPages} pages`);
    return out;
  }
}
