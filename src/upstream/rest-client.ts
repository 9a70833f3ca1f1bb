// The client of upstream's REST API (Polygon.io / Massive) used by `sync rest` and read-through.
// It sends the operator's key in the Authorization header (upstream also accepts `apiKey` in the
// query, but a query ends up in logs and in next_url), so no URL it builds or reports holds the
// key. Every call takes a turn of the rate budget, has a deadline, and is retried after a 429
// (waiting what Retry-After says) and after a 5xx or a timeout (backing off, capped) as many
// times as allowed. A 2xx body is checked to be JSON of the envelope the API promises; the
// records inside are checked by whoever stores them. Integers of 16 digits or more in a body
// (nanosecond times, sequence numbers) come as their exact decimal text, never rounded doubles.
import { parseJsonLongIntegersAsText } from '../domain/exact-json.js';
import type { RateBudget } from './rate-budget.js';
import { redactUpstreamUrl, UpstreamError } from './rest-errors.js';

export const DEFAULT_UPSTREAM_URL = 'https://api.massive.com';

export type UpstreamBody = Record<string, unknown>;

export interface UpstreamAnswer {
  /** The URL called (without key). */
  url: string;
  /** 200, or 404 (upstream's "no such ticker"): the caller decides what an absence means. */
  status: number;
  body: UpstreamBody;
  /** The next page as a path and query on the same host (upstream's next_url), when there is one. */
  next?: string;
}

export type UpstreamEvent =
  | { kind: 'call'; url: string }
  | { kind: 'refused'; url: string; retryAfterS: number }
  | { kind: 'failed'; url: string; reason: string };

export interface UpstreamClientOptions {
  /** Upstream's base URL (default https://api.massive.com). */
  baseUrl?: string;
  key: string;
  rate?: RateBudget;
  /**
   * Longest a call waits for its turn of the rate budget; a call that would wait longer is not
   * made and fails as rate_limited (read-through, which must answer within a deadline).
   */
  maxRateWaitMs?: number;
  /** Deadline of one call, headers and body (default 30 s). */
  timeoutMs?: number;
  /** Retries of a call after a 429, a 5xx or a timeout (default 5; read-through uses 0). */
  retries?: number;
  /** Longest wait between retries of a 5xx or timeout (default 60 s). */
  maxBackoffMs?: number;
  /** Longest Retry-After honoured; a longer one is waited this long (default 10 minutes). */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  onEvent?: (e: UpstreamEvent) => void;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Seconds of a Retry-After header (seconds or an HTTP date), or undefined when absent or unreadable. */
function retryAfterSeconds(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The start of a body for a message: one line, at most 80 characters. */
function glimpse(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t);
}

export class UpstreamRestClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly key: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly maxBackoffMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: UpstreamClientOptions) {
    const base = new URL(opts.baseUrl ?? DEFAULT_UPSTREAM_URL);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`the upstream URL must be http(s): ${redactUpstreamUrl(base.href)}`);
    if (opts.key.trim() === '') throw new Error('the upstream key is empty');
    this.origin = base.origin;
    this.baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
    this.key = opts.key;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.retries = opts.retries ?? 5;
    this.maxBackoffMs = opts.maxBackoffMs ?? 60_000;
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? 600_000;
    this.fetchImpl = opts.fetch ?? fetch;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** A URL for messages: the key, should it be anywhere in it, replaced. */
  redact(url: string): string {
    return redactUpstreamUrl(url, [this.key]);
  }

  /**
   * GETs a path and query (`/v3/trades/AAPL?limit=50000`) of upstream, or a next page the last
   * answer gave. Throws UpstreamError; a 404 is an answer.
   */
  async get(pathAndQuery: string): Promise<UpstreamAnswer> {
    const url = `${this.baseUrl}${pathAndQuery}`;
    const shown = this.redact(url);
    let backoff = 1000;
    for (let attempt = 0; ; attempt++) {
      const lastTry = attempt >= this.retries;
      if (this.opts.rate) {
        const wait = await this.opts.rate.take(this.opts.maxRateWaitMs);
        if (wait > 0) {
          const after = Math.ceil(wait / 1000);
          this.opts.onEvent?.({ kind: 'refused', url: shown, retryAfterS: after });
          throw new UpstreamError('rate_limited', shown, `the budget of upstream calls (${this.opts.rate.spec.text}) is spent for ${after} s`, after);
        }
      }
      this.opts.onEvent?.({ kind: 'call', url: shown });
      let res: Response;
      let text: string;
      try {
        res = await this.fetchImpl(url, {
          headers: { authorization: `Bearer ${this.key}`, accept: 'application/json', 'user-agent': 'tickerbase-sync' },
          signal: AbortSignal.timeout(this.timeoutMs),
          redirect: 'error',
        });
        text = await res.text();
      } catch (err) {
        const e = err as Error;
        const reason = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${this.timeoutMs} ms` : `cannot reach upstream: ${this.redact((e.cause as Error | undefined)?.message ?? e.message)}`;
        this.opts.onEvent?.({ kind: 'failed', url: shown, reason });
        if (lastTry) throw new UpstreamError('unavailable', shown, reason);
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, this.maxBackoffMs);
        continue;
      }
      if (res.status === 429) {
        const after = retryAfterSeconds(res.headers.get('retry-after'), Date.now()) ?? 60;
        this.opts.onEvent?.({ kind: 'refused', url: shown, retryAfterS: after });
        if (lastTry) throw new UpstreamError('rate_limited', shown, `upstream refused the call: too many requests (it asks to wait ${after} s)`, after, 429);
        const waitMs = Math.min(after * 1000, this.maxRetryAfterMs);
        this.opts.rate?.pause(waitMs);
        if (!this.opts.rate) await this.sleep(waitMs);
        continue;
      }
      if (res.status >= 500) {
        const reason = `upstream answered HTTP ${res.status} ${glimpse(text)}`;
        this.opts.onEvent?.({ kind: 'failed', url: shown, reason });
        if (lastTry) throw new UpstreamError('unavailable', shown, reason, undefined, res.status);
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, this.maxBackoffMs);
        continue;
      }
      return this.answer(shown, res.status, text);
    }
  }

  /** Checks an answer that is not a 429 or 5xx: its status, and that its body is the promised envelope. */
  private answer(shown: string, status: number, text: string): UpstreamAnswer {
    const fail = (kind: 'bad_answer' | 'unauthorized' | 'forbidden' | 'refused', reason: string): never => {
      this.opts.onEvent?.({ kind: 'failed', url: shown, reason });
      throw new UpstreamError(kind, shown, reason, undefined, status);
    };
    let body: unknown;
    let parseError: string | undefined;
    try {
      body = parseJsonLongIntegersAsText(text);
    } catch (err) {
      parseError = (err as Error).message;
    }
    const upstreamMessage = isObj(body) ? String(body.message ?? body.error ?? '') : glimpse(text);
    if (status === 401) fail('unauthorized', `upstream refused the key (HTTP 401${upstreamMessage ? `: ${upstreamMessage}` : ''}); check --upstream-key`);
    if (status === 403) fail('forbidden', `upstream does not allow this data with this key (HTTP 403${upstreamMessage ? `: ${upstreamMessage}` : ''}): the plan may not include it`);
    if (status === 404) return { url: shown, status, body: isObj(body) ? body : {} };
    if (status < 200 || status > 299) fail('refused', `upstream refused the request (HTTP ${status}${upstreamMessage ? `: ${upstreamMessage}` : ''})`);
    if (parseError !== undefined) {
      const html = /^\s*</.test(text);
      fail('bad_answer', html ? `not JSON but an HTML page (a proxy's error page?), starting ${glimpse(text)}` : `not valid JSON (truncated?): ${parseError}`);
    }
    // A few endpoints (upcoming holidays) answer a bare list: it is the results.
    if (Array.isArray(body)) return { url: shown, status, body: { results: body } };
    if (!isObj(body)) fail('bad_answer', 'not a JSON object or list');
    const b = body as Obj;
    if (b.status === 'ERROR') fail('bad_answer', `upstream reported an error: ${upstreamMessage || 'no message'}`);
    if (b.results !== undefined && b.results !== null && !Array.isArray(b.results) && !isObj(b.results)) fail('bad_answer', '"results" is neither a list nor an object');
    let next: string | undefined;
    if (b.next_url !== undefined && b.next_url !== null && b.next_url !== '') {
      if (typeof b.next_url !== 'string') fail('bad_answer', '"next_url" is not a string');
      next = this.nextPath(b.next_url as string, shown);
    }
    return { url: shown, status, body: b, ...(next !== undefined ? { next } : {}) };
  }

  /**
   * The path and query of a next_url, called on our base URL whatever host it names (upstream
   * writes its public host; behind a proxy or another base the path is what counts), so the key
   * goes nowhere but the upstream we were given. A key-like parameter in it is dropped.
   */
  private nextPath(nextUrl: string, shown: string): string {
    let u: URL;
    try {
      u = new URL(nextUrl, this.origin);
    } catch {
      throw new UpstreamError('bad_answer', shown, `"next_url" is not a URL: ${glimpse(this.redact(nextUrl))}`);
    }
    for (const k of [...u.searchParams.keys()]) if (/^(apikey|api_key)$/i.test(k)) u.searchParams.delete(k);
    const basePath = new URL(this.baseUrl).pathname.replace(/\/+$/, '');
    const path = basePath && u.pathname.startsWith(`${basePath}/`) ? u.pathname.slice(basePath.length) : u.pathname;
    return `${path}${u.search}`;
  }

  /** Every page of a list, following next_url; stops after `maxPages` when given. */
  async *pages(pathAndQuery: string, maxPages = Infinity): AsyncGenerator<UpstreamAnswer> {
    let next: string | undefined = pathAndQuery;
    for (let n = 0; next !== undefined && n < maxPages; n++) {
      const page: UpstreamAnswer = await this.get(next);
      yield page;
      next = page.next;
    }
  }
}
