// A fake of upstream's REST API for tests: node:http on 127.0.0.1 with an ephemeral port. It
// answers from handlers the test registers (recorded bodies from ../shared/fixtures/upstream, or
// generated lists paged with next_url at the `limit` asked, capped at upstream's maximum), can
// fail on demand (429 with Retry-After, 5xx, an HTML page, truncated JSON, a wrong field type,
// silence), and records every request so a test can count calls and check which key went out.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { nyMidnight, tradingDaysBetween } from '../../src/domain/calendar.js';

export interface FakeRequest {
  path: string;
  query: URLSearchParams;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface FakeAnswer {
  status?: number;
  /** A value sent as JSON, or text sent as is. */
  body: unknown;
  headers?: Record<string, string>;
}

export type FakeFault =
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'html' }
  | { kind: 'truncated' }
  /** The answer's first result gets a field of the wrong type. */
  | { kind: 'wrong-type'; field: string }
  /** Never answers (the connection stays open until the fake closes). */
  | { kind: 'silent' }
  | { kind: 'delay'; ms: number };

type Handler = (req: FakeRequest) => FakeAnswer | undefined;

/** Where the recorded upstream bodies are, or undefined (tests then skip with a reason). */
export function recordedFixturesDir(): string | undefined {
  const dir = join(process.cwd(), '..', 'shared', 'fixtures', 'upstream');
  return existsSync(join(dir, 'index.json')) ? dir : undefined;
}

export class FakeUpstream {
  readonly requests: FakeRequest[] = [];
  private readonly handlers: { path: RegExp; handler: Handler }[] = [];
  private readonly faults: { match?: RegExp; fault: FakeFault; times: number }[] = [];
  private readonly silent: ServerResponse[] = [];

  private constructor(private readonly server: Server, readonly baseUrl: string) {}

  static async start(): Promise<FakeUpstream> {
    let fake!: FakeUpstream;
    const server = createServer((req, res) => fake.handle(req.url ?? '/', req.headers, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    fake = new FakeUpstream(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  /** Answers GETs whose path matches (later registrations first; one answering undefined passes the request on). */
  on(path: RegExp, handler: Handler): this {
    this.handlers.unshift({ path, handler });
    return this;
  }

  /** The next `times` requests (whose path matches) meet the fault instead of an answer. */
  fail(fault: FakeFault, opts: { times?: number; match?: RegExp } = {}): this {
    this.faults.push({ fault, times: opts.times ?? 1, match: opts.match });
    return this;
  }

  /** Requests whose path matches. */
  calls(path?: RegExp): FakeRequest[] {
    return path ? this.requests.filter((r) => path.test(r.path)) : this.requests;
  }

  /**
   * A list endpoint over `records(req)`: pages of `limit` (capped at maxLimit; default
   * defaultLimit) with next_url carrying an offset cursor on upstream's public host (the client
   * must follow its path on the base it was given). `envelope` adds fields around the results.
   */
  paged(path: RegExp, records: (req: FakeRequest) => unknown[] | undefined, opts: { maxLimit: number; defaultLimit?: number; envelope?: (req: FakeRequest) => Record<string, unknown> }): this {
    return this.on(path, (req) => {
      const all = records(req);
      if (all === undefined) return { status: 404, body: { status: 'NOT_FOUND', request_id: 'x', message: 'not found' } };
      const limit = Math.min(Number(req.query.get('limit') ?? opts.defaultLimit ?? 10), opts.maxLimit);
      const offset = Number(req.query.get('cursor') ?? 0);
      const results = all.slice(offset, offset + limit);
      const body: Record<string, unknown> = { ...(opts.envelope?.(req) ?? {}), status: 'OK', request_id: `req-${this.requests.length}`, results, count: results.length };
      if (offset + limit < all.length) {
        const q = new URLSearchParams(req.query);
        q.set('cursor', String(offset + limit));
        body.next_url = `https://api.massive.com${req.path}?${q.toString()}`;
      }
      return { body };
    });
  }

  /**
   * The recorded bodies of ../shared/fixtures/upstream, by path (a request whose recorded query
   * holds a cursor is matched by that cursor); next_url hosts are left as recorded.
   */
  recorded(dir: string): this {
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { request: string; file: string }[];
    const byPath = new Map<string, { cursor?: string; file: string }[]>();
    for (const e of index) {
      const u = new URL(e.request, 'http://x');
      const list = byPath.get(u.pathname) ?? [];
      list.push({ cursor: u.searchParams.get('cursor') ?? undefined, file: e.file });
      byPath.set(u.pathname, list);
    }
    return this.on(/./, (req) => {
      const list = byPath.get(req.path);
      if (!list) return undefined;
      const cursor = req.query.get('cursor') ?? undefined;
      const hit = list.find((e) => e.cursor === cursor) ?? (cursor === undefined ? list[0] : undefined);
      return hit ? { body: readFileSync(join(dir, hit.file), 'utf8'), headers: { 'content-type': 'application/json' } } : undefined;
    });
  }

  private handle(rawUrl: string, headers: IncomingHttpHeaders, res: ServerResponse): void {
    const u = new URL(rawUrl, 'http://x');
    const req: FakeRequest = { path: decodeURIComponent(u.pathname), query: u.searchParams, url: rawUrl, headers };
    this.requests.push(req);
    const at = this.faults.findIndex((f) => f.times > 0 && (!f.match || f.match.test(req.path)));
    const fault = at >= 0 ? this.faults[at]!.fault : undefined;
    if (at >= 0 && --this.faults[at]!.times === 0) this.faults.splice(at, 1);
    if (fault?.kind === 'silent') {
      this.silent.push(res);
      return;
    }
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {}) });
      res.end(JSON.stringify({ status: 'ERROR', request_id: 'x', error: fault.status === 429 ? "You've exceeded the maximum requests per minute" : 'upstream failure' }));
      return;
    }
    if (fault?.kind === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    let answer: FakeAnswer | undefined;
    // The latest handler of the path that answers (one may pass a request on by answering undefined).
    for (const h of this.handlers) if (h.path.test(req.path) && (answer = h.handler(req)) !== undefined) break;
    answer ??= { status: 404, body: { status: 'NOT_FOUND', request_id: 'x', message: 'no such endpoint in the fake' } };
    let text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    if (fault?.kind === 'truncated') text = text.slice(0, Math.floor(text.length / 2));
    if (fault?.kind === 'wrong-type') {
      const body = JSON.parse(text) as { results: Record<string, unknown>[] | Record<string, unknown> };
      const first = Array.isArray(body.results) ? body.results[0]! : body.results;
      first[fault.field] = 'not-a-number';
      text = JSON.stringify(body);
    }
    const send = () => {
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
      res.end(text);
    };
    if (fault?.kind === 'delay') setTimeout(send, fault.ms);
    else send();
  }

  async close(): Promise<void> {
    for (const res of this.silent) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** Minute bars of one trading day for a ticker as upstream's aggregates give them: 04:00 to 19:59 New York. */
export function minuteBarsOfDay(dayStartMs: number, seed: number): Record<string, number>[] {
  const out: Record<string, number>[] = [];
  const open = dayStartMs + 4 * 3_600_000;
  for (let i = 0; i < 960; i++) {
    const base = 100 + ((seed * 7 + i) % 50) / 10;
    out.push({ v: 100 + i, vw: base + 0.05, o: base, c: base + 0.1, h: base + 0.2, l: base - 0.1, t: open + i * 60_000, n: 1 + (i % 7) });
  }
  return out;
}

/** The generated upstream: minute and day bars of any ticker, and 3,500 trades a day paged by 1,000. */
export function serveGeneratedMarket(fake: FakeUpstream): void {
  const aggs = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/(minute|day)\/([^/]+)\/([^/]+)$/;
  const barsOf = (req: FakeRequest) => {
    const [, ticker, span, from, to] = aggs.exec(req.path)!;
    const seed = ticker!.charCodeAt(0);
    return tradingDaysBetween(from!, to!).flatMap((day) => {
      const bars = minuteBarsOfDay(nyMidnight(day), seed);
      return span === 'minute' ? bars : [{ ...bars[0]!, t: nyMidnight(day), v: 123_456, n: 999 }];
    });
  };
  fake.paged(aggs, barsOf, { maxLimit: 50_000, defaultLimit: 5000, envelope: (req) => ({ ticker: aggs.exec(req.path)![1], adjusted: false }) });
  fake.paged(
    /^\/v3\/trades\/[^/]+$/,
    (req) => {
      const from = BigInt(req.query.get('timestamp.gte')!);
      return Array.from({ length: 3500 }, (_, i) => ({
        conditions: [12],
        exchange: 4,
        id: String(i + 1),
        participant_timestamp: Number(from + 34_200_000_000_000n + BigInt(i) * 1_000_000n),
        price: 100 + (i % 10) / 100,
        sequence_number: i + 1,
        sip_timestamp: Number(from + 34_200_000_000_000n + BigInt(i) * 1_000_000n + 500n),
        size: 100,
        tape: 3,
      }));
    },
    { maxLimit: 1000 },
  );
}
