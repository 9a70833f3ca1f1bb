// The trades and minute bars of a ticker over a time range, from upstream's REST API: what the
// relay needs to fill a hole in the recorded tape after the feed was down. Deliberately narrow (a
// full REST client is a separate adapter); any source with these two calls can stand in for it.
// Every request has a deadline; the key goes in the Authorization header only (upstream's
// next_url carries no key, and the key is never logged: errors name the path, not the URL).
import { parseJsonExact } from '../domain/exact-json.js';
import type { BarRow, TradeRow } from '../domain/market-records.js';

export interface GapSource {
  /** Trades with fromNs <= sip_timestamp < toNs, oldest first. */
  trades(ticker: string, fromNs: bigint, toNs: bigint): Promise<TradeRow[]>;
  /** Minute bars whose window starts in [fromMs, toMs), oldest first. */
  minuteBars(ticker: string, fromMs: number, toMs: number): Promise<BarRow[]>;
}

export interface RestGapSourceOptions {
  /** Upstream's REST base, e.g. `https://api.massive.com`. */
  baseUrl: string;
  key: string;
  /** Deadline of each request, ms (default 15 s). */
  timeoutMs?: number;
  /** Pages followed per call at most (default 200): a gap is minutes, not years. */
  maxPages?: number;
  fetch?: typeof fetch;
}

export class GapSourceError extends Error {}

type Json = Record<string, unknown>;

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
const big = (v: unknown): bigint | undefined => (typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function tradeOf(ticker: string, r: Json): TradeRow | undefined {
  const sip = big(r.sip_timestamp) ?? big(r.participant_timestamp);
  const price = num(r.price);
  const size = num(r.size);
  if (sip === undefined || price === undefined || size === undefined) return undefined;
  return {
    ticker,
    sip_timestamp: sip,
    participant_timestamp: big(r.participant_timestamp),
    trf_timestamp: big(r.trf_timestamp),
    price,
    size,
    exchange: int(r.exchange) ?? 0,
    id: typeof r.id === 'string' ? r.id : undefined,
    conditions: Array.isArray(r.conditions) && r.conditions.length > 0 ? (r.conditions as number[]) : undefined,
    correction: int(r.correction),
    sequence_number: big(r.sequence_number),
    tape: int(r.tape),
    trf_id: int(r.trf_id),
  };
}

function barOf(ticker: string, r: Json): BarRow | undefined {
  const [t, o, h, l, c] = [int(r.t), num(r.o), num(r.h), num(r.l), num(r.c)];
  if (t === undefined || o === undefined || h === undefined || l === undefined || c === undefined) return undefined;
  return { ticker, t, o, h, l, c, v: num(r.v), vw: num(r.vw), n: int(r.n) };
}

export class RestGapSource implements GapSource {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: RestGapSourceOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.fetchFn = opts.fetch ?? fetch;
  }

  async trades(ticker: string, fromNs: bigint, toNs: bigint): Promise<TradeRow[]> {
    const q = new URLSearchParams({ 'timestamp.gte': String(fromNs), 'timestamp.lt': String(toNs), order: 'asc', sort: 'timestamp', limit: '50000' });
    const out: TradeRow[] = [];
    for await (const r of this.pages(`/v3/trades/${encodeURIComponent(ticker)}?${q}`)) {
      const t = tradeOf(ticker, r);
      if (t) out.push(t);
    }
    return out;
  }

  async minuteBars(ticker: string, fromMs: number, toMs: number): Promise<BarRow[]> {
    // the range's end is inclusive upstream: ask to the last millisecond before toMs
    const path = `/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/minute/${fromMs}/${toMs - 1}?adjusted=false&sort=asc&limit=50000`;
    const out: BarRow[] = [];
    for await (const r of this.pages(path)) {
      const b = barOf(ticker, r);
      if (b && b.t >= fromMs && b.t < toMs) out.push(b);
    }
    return out;
  }

  /** The results of a first page and of every next_url after it (on upstream's host only). */
  private async *pages(path: string): AsyncGenerator<Json> {
    let url: string | undefined = `${this.base}${path}`;
    const max = this.opts.maxPages ?? 200;
    for (let page = 0; url !== undefined; page++) {
      if (page >= max) throw new GapSourceError(`${path.split('?')[0]}: more than ${max} pages`);
      const body = await this.get(url);
      for (const r of Array.isArray(body.results) ? body.results : []) if (r && typeof r === 'object') yield r as Json;
      const next: unknown = body.next_url;
      url = typeof next === 'string' && next !== '' && new URL(next).origin === new URL(this.base).origin ? next : undefined;
    }
  }

  private async get(url: string): Promise<Json> {
    const shown = new URL(url).pathname;
    const timeoutMs = this.opts.timeoutMs ?? 15_000;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(url, { headers: { Authorization: `Bearer ${this.opts.key}`, Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (err) {
      const why = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err as Error).message;
      throw new GapSourceError(`upstream REST ${shown}: ${why}`);
    }
    if (!res.ok) throw new GapSourceError(`upstream REST ${shown}: HTTP ${res.status}`);
    let body: unknown;
    try {
      body = parseJsonExact(text);
    } catch {
      throw new GapSourceError(`upstream REST ${shown}: the answer is not JSON`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new GapSourceError(`upstream REST ${shown}: unexpected answer`);
    return body as Json;
  }
}
