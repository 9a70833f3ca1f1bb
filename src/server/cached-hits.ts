import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import { normaliseDataset } from '../domain/datasets.js';
import { CACHED_PREFERENCE, negotiateEncoding, OFF_LOOP_BYTES } from './compression.js';
import type { Renew, RepeatedRequests, ServerContext } from './context.js';
import { routeMarket } from './entitlements.js';
import { gzipPieces, splicedGzip } from './gzip-splice.js';
import { DATA_CSP, HSTS, REFERENCE_VARY, SECURITY_HEADERS } from './hardening.js';
import type { AccessLog } from './logger.js';
import type { RequestMetrics } from './metrics.js';
import type { PlanCatalog } from './plans.js';
import { basePerRequest, isValidHost, rawPublicBase } from './public-url.js';
import { requestId } from './request-id.js';
import { PUSH_BYTES } from './body-pieces.js';
import { cachedBody, CachedBodyStream, joinedPieces, type CachedBody } from './response-cache.js';
import type { UsageRecorder } from './usage.js';
import type { LiveScope } from '../services/live-versions.js';

// Repeated requests for answers the response cache holds, answered as Node hands them over,
// before Fastify's pipeline (routing, request and reply objects, query parsing and validation,
// hooks). On a 2-core VM a cached ticker overview cost 73 µs of server CPU through Fastify
// against 30 µs for a bare node:http server sending the same bytes; the pipeline alone (a
// do-nothing route) is about a third of bare Node's rate.
//
// It is the same answer because each entry is made by the full path: when a keyed route answers
// from the cache or fills it, the request as it arrived (path and query without the key, and the
// base of links) is remembered with the cache key the route computed for it. A later request
// identical in those parts gets the same validation, the same route and the same cache key; what
// depends on the key (authentication, the plan's entitlement) is checked on every request as the
// guards check it, and usage, metrics and the access line are recorded as for any request. An
// entry holds within the clock minute its cache key was computed in: keys that depend on the clock
// do so by calendar day, and a midnight falls on a whole minute in every zone.
//
// Anything else goes to Fastify, which answers it as before: a method other than GET, a request
// with a body or If-None-Match, a key it must look up in the store, a plan with a rate limit (its
// counting and headers), a time series for a key of another plan than the one it was kept for
// (the plan's window takes part in their keys) or asked with a lower-case ticker, an encoding
// other than gzip or identity, and every server with CORS or guards of the caller's.

/** What the full path's production hooks would use, handed over once they exist. */
export interface HitDeps {
  plans: PlanCatalog;
  metrics: RequestMetrics;
  usage?: UsageRecorder;
  /** Absent when no access line is written. */
  accessLog?: AccessLog;
  log: FastifyBaseLogger;
  hsts: boolean;
  /** Cache-Control of answers with an ETag. */
  cacheControl: string;
  /** Bodies from this size are compressed for a client that asks. */
  threshold: number;
}

/** What a request as it arrived was answered with by the full path. */
interface Remembered {
  cacheKey: string;
  /** The live scope its cached answer is versioned by (RouteSpec.liveScope), if any. */
  scope: LiveScope | undefined;
  /** Makes the answer again from memory when a live write made the cached one stale (RouteSpec.renew). */
  renew: Renew | undefined;
  /** The plan whose keys alone it is served to (time series: their answers are the plan's). */
  plan: string | undefined;
  /** The operation's path (metrics and usage are counted by it). */
  operation: string;
  /** The route template the request matched (an alias's own): the access line's route. */
  route: string;
  dataset: string;
  market: string | undefined;
  /** Reference answers carry an ETag, Cache-Control and Vary. */
  reference: boolean;
  /** The clock minute the cache key was computed in. */
  minute: number;
  /** The answer's headers as last sent, identity and gzip (see CachedHits.headersOf). */
  plain?: HeaderList;
  gzipped?: HeaderList;
}

/**
 * An answer's headers as writeHead takes them, with the request id's value at ID_AT and
 * Content-Length's last (both set per answer), for the ETag they were made with.
 */
interface HeaderList {
  etag: string | undefined;
  list: string[];
}

const JSON_TYPE = 'application/json; charset=utf-8';
const BEARER = /^Bearer\s+(\S+)\s*$/i;
const MINUTE_MS = 60_000;
/**
 * Bodies from this size are written as their cached pieces and the id (corked: one writev), not
 * copied into one new buffer: a copy that size is an allocation of its own outside Node's buffer
 * pool, which the garbage collector then chases. Measured on the full-market snapshot (32 KiB,
 * 10 connections, 2 cores): 100-120 µs of CPU per request copied, 20-23 µs as pieces (a bare
 * server sending one buffer: 18-26 µs). Lower than PIECES_FROM_BYTES, which is for Fastify's
 * path, where pieces go through a stream.
 */
const PIECES_FROM_BYTES_HERE = Buffer.poolSize >>> 1;
/** Where the request id's value sits in CachedHits.head. */
const ID_AT = 3;

/** The clock minute of `ms` (what a remembered entry is valid within). */
export function minuteOf(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}

interface RequestShape {
  signature: string;
  key: string | undefined;
}

/**
 * The parts of a request its cached answer depends on, as one string (path and query without the
 * key parameters, and the base of links), and the key it presents; undefined for a request this
 * path leaves to Fastify: key parameters given twice or percent-encoded, a key parameter's name
 * in another case, or an Authorization header that is not a bearer token.
 */
function requestShape(raw: IncomingMessage, config: ServerContext['config']): RequestShape | undefined {
  const url = raw.url ?? '/';
  let kept = url;
  let queryKey: string | undefined;
  const q = url.indexOf('?');
  if (q >= 0) {
    const parts = url.slice(q + 1).split('&');
    const out: string[] = [];
    for (const part of parts) {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      if (name === 'apiKey' || name === 'api_key') {
        const value = eq < 0 ? '' : part.slice(eq + 1);
        if (queryKey !== undefined || value.includes('%') || value.includes('+')) return undefined;
        queryKey = value;
        continue;
      }
      // names are compared decoded by the query parser: an encoded one may be a key's
      if (name.includes('%') || name.includes('+')) return undefined;
      const lower = name.toLowerCase();
      if (lower === 'apikey' || lower === 'api_key') return undefined;
      out.push(part);
    }
    kept = `${url.slice(0, q)}?${out.join('&')}`;
  }
  // the key as presentedKey (auth.ts) finds it: a header wins over the query
  const h = raw.headers;
  let key: string | undefined;
  const x = h['x-api-key'];
  if (typeof x === 'string' && x.length > 0) key = x;
  else if (h.authorization !== undefined) {
    const m = BEARER.exec(h.authorization);
    if (m === null) return undefined;
    key = m[1];
  } else if (queryKey !== undefined && queryKey.length > 0) key = queryKey;
  return { signature: `${kept}\n${rawPublicBase(config, raw)}`, key };
}

export class CachedHits implements RepeatedRequests {
  /** Requests answered here (not by Fastify). */
  served = 0;
  private deps: HitDeps | undefined;
  private readonly memo = new Map<string, Remembered>();
  /**
   * The headers every answer here starts with, as writeHead takes them (name, value, name, value,
   * ...): the type, the request id (its value set per answer at ID_AT) and the security headers.
   */
  private head: string[] = [];
  /** Per connection, its last request's URL and key headers and their requestShape. */
  private readonly lastShapes = new WeakMap<object, { url: string; apiKey: unknown; authorization: unknown; shape: RequestShape | undefined }>();
  /** The last Host header found well formed (clients send the same one on every request). */
  private validHost = '';

  constructor(
    private readonly ctx: Pick<ServerContext, 'config' | 'auth' | 'responseCache' | 'services' | 'now'>,
    /** Requests remembered at most (the oldest goes first). */
    private readonly maxEntries = 10_000,
  ) {}

  /** Starts answering (until close()); without this call every request goes to Fastify. */
  enable(deps: HitDeps): void {
    if (this.ctx.responseCache === undefined) return;
    this.deps = deps;
    this.head = ['content-type', JSON_TYPE, 'x-request-id', '', ...SECURITY_HEADERS.flat(), 'content-security-policy', DATA_CSP, ...(deps.hsts ? ['strict-transport-security', HSTS] : [])];
  }

  /** Every request goes to Fastify from now on (the server is closing: it answers them). */
  close(): void {
    this.deps = undefined;
    this.memo.clear();
  }

  /** Fastify's serverFactory: a node:http server as Fastify would make it, asking this path first. */
  readonly serverFactory = (handler: RequestListener, opts: FastifyServerOptions & { http?: ServerOptions }): Server => {
    const server = createServer(opts.http ?? {}, (req, res) => {
      if (!this.serve(req, res)) handler(req, res);
    });
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    if (opts.connectionTimeout !== undefined) server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket !== undefined && opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };

  /**
   * Called by a keyed route that answered `req` from the cache, or kept its answer there, under
   * `cacheKey` computed in clock minute `keyedMinute`.
   */
  remember(req: FastifyRequest, cacheKey: string, keyedMinute: number, scope?: LiveScope, renew?: Renew): void {
    if (this.deps === undefined || req.method !== 'GET') return;
    const meta = req.routeMeta;
    if (meta === undefined || req.apiKey === undefined) return;
    // Time series: the plan and the start of its window are part of their keys (windowScope), and
    // the full path keeps an answer only when the window cut nothing from it, nor can later while
    // the data stays as it is (finalUntilWrite: a range to today of a ticker nothing is written
    // for). Such an answer is served to keys of the same plan alone, within the clock minute (the
    // window's start moves by day); the cut is the full path's to make for every other answer.
    const windowed = req.dataWindowState !== undefined;
    if (windowed && lowerCaseTicker(req)) return;
    if (minuteOf(this.ctx.now()) !== keyedMinute) return;
    const shape = requestShape(req.raw, this.ctx.config);
    if (shape === undefined) return;
    const known = this.memo.get(shape.signature);
    if (known !== undefined && known.cacheKey === cacheKey && known.minute === keyedMinute) return;
    if (known === undefined && this.memo.size >= this.maxEntries) this.memo.delete(this.memo.keys().next().value!);
    const dataset = normaliseDataset(meta.dataset);
    this.memo.set(shape.signature, {
      cacheKey,
      scope,
      renew,
      plan: windowed ? req.apiKey.plan : undefined,
      operation: meta.url,
      route: req.routeOptions.url ?? meta.url,
      dataset,
      market: routeMarket(req, meta),
      reference: dataset === 'reference',
      minute: keyedMinute,
    });
  }

  /** Answers `raw` from the cache and returns true, or returns false having done nothing. */
  serve(raw: IncomingMessage, res: ServerResponse): boolean {
    const deps = this.deps;
    if (deps === undefined || raw.method !== 'GET' || this.memo.size === 0) return false;
    const start = performance.now();
    const h = raw.headers;
    if (h['if-none-match'] !== undefined || h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return false;
    const shape = this.shapeOf(raw);
    if (shape === undefined || shape.key === undefined) return false;
    const m = this.memo.get(shape.signature);
    if (m === undefined) return false;
    if (m.minute !== minuteOf(this.ctx.now())) {
      this.memo.delete(shape.signature);
      return false;
    }
    // the checks of the full path's onRequest hooks and guards, none of which may count anything
    const host = h.host;
    if (host !== undefined && host !== '' && host !== this.validHost) {
      if (!isValidHost(host)) return false;
      this.validHost = host;
    }
    let record;
    try {
      const found = this.ctx.auth.authenticate(shape.key, raw.socket);
      if (found instanceof Promise) {
        found.catch(() => {}); // the full path asks again and answers the error
        return false;
      }
      record = found;
    } catch {
      return false;
    }
    if (m.plan !== undefined && record.plan !== m.plan) return false;
    const plan = deps.plans.get(record.plan);
    if (plan === undefined || plan.rate_limit || !deps.plans.entitled(plan, m.dataset, m.market)) return false;
    const services = this.ctx.services;
    // the version is read before a renewed answer is made, so a write meanwhile is not hidden
    const version = m.scope === undefined ? services.dataVersion() : services.liveVersions.of(m.scope);
    const entry = this.ctx.responseCache!.get(m.cacheKey, version) ?? m.renew?.(version);
    if (entry === undefined || (m.reference && entry.etag === undefined)) return false;

    const id = requestId();
    const size = entry.bytes + id.length;
    let gzip = false;
    if (size >= deps.threshold && h['x-no-compression'] === undefined) {
      const encoding = negotiateEncoding(h['accept-encoding'], CACHED_PREFERENCE);
      if (encoding !== undefined && encoding !== 'gzip') return false; // compressed anew by the full path
      gzip = encoding === 'gzip';
      if (gzip && entry.gzip === undefined && size >= OFF_LOOP_BYTES) return false; // compressed off the event loop by the full path
    }
    const headers = this.headersOf(m, entry.etag, gzip, deps).slice();
    headers[ID_AT] = id;
    const body = gzip ? gzipBody(entry, id) : size < PIECES_FROM_BYTES_HERE ? cachedBody(entry, id) : bodyPieces(entry, id);
    headers[headers.length - 1] = String(Buffer.isBuffer(body) ? body.length : size);

    res.writeHead(200, headers);
    if (Buffer.isBuffer(body)) res.end(body);
    else if (size > PUSH_BYTES) new CachedBodyStream(entry, id).pipe(res); // a piece at a time, as the socket drains
    else {
      res.cork();
      for (const piece of body) res.write(piece);
      res.end();
      res.uncork();
    }
    const elapsed = performance.now() - start;
    deps.metrics.observe(m.operation, 'GET', 200, elapsed / 1000);
    deps.usage?.record(record.id, m.operation, false);
    deps.accessLog?.line(id, 'GET', raw.url ?? '/', m.route, record.id, 200, elapsed, deps.log);
    this.served++;
    return true;
  }

  /**
   * requestShape of `raw`, remembered per connection: a keep-alive client mostly repeats its last
   * request, and the signature it gets back is the same string, whose hash the memo's Map keeps.
   * Not remembered where the base of links comes from each request's own headers, nor for a
   * request whose socket is gone.
   */
  private shapeOf(raw: IncomingMessage): RequestShape | undefined {
    const config = this.ctx.config;
    const socket = raw.socket as IncomingMessage['socket'] | null;
    if (basePerRequest(config) || !socket) return requestShape(raw, config);
    const url = raw.url ?? '/';
    const h = raw.headers;
    const last = this.lastShapes.get(socket);
    if (last !== undefined && last.url === url && last.apiKey === h['x-api-key'] && last.authorization === h.authorization) return last.shape;
    const shape = requestShape(raw, config);
    if (last === undefined) this.lastShapes.set(socket, { url, apiKey: h['x-api-key'], authorization: h.authorization, shape });
    else {
      last.url = url;
      last.apiKey = h['x-api-key'];
      last.authorization = h.authorization;
      last.shape = shape;
    }
    return shape;
  }

  /** The headers of `m`'s answer with ETag `etag`, identity or gzip, made once per ETag. */
  private headersOf(m: Remembered, etag: string | undefined, gzip: boolean, deps: HitDeps): string[] {
    const kept = gzip ? m.gzipped : m.plain;
    if (kept !== undefined && kept.etag === etag) return kept.list;
    const list = this.head.slice();
    if (m.reference) {
      // a strong ETag cannot stand for the gzip bytes too (as compression.ts does)
      list.push('etag', gzip && !etag!.startsWith('W/') ? `W/${etag}` : etag!, 'cache-control', deps.cacheControl, 'vary', REFERENCE_VARY);
    } else if (gzip) list.push('vary', 'accept-encoding');
    if (gzip) list.push('content-encoding', 'gzip');
    list.push('content-length', '');
    if (gzip) m.gzipped = { etag, list };
    else m.plain = { etag, list };
    return list;
  }

  /** Requests remembered. */
  get size(): number {
    return this.memo.size;
  }
}

/** A path ticker with lower-case letters: the full path may add a notice to a time series' answer (ticker-case.ts). */
function lowerCaseTicker(req: FastifyRequest): boolean {
  const ticker = (req.params as { ticker?: unknown } | undefined)?.ticker;
  return typeof ticker === 'string' && /[a-z]/.test(ticker);
}

/** The cached body gzipped around request id `id` (its pieces compressed once, as compression.ts does). */
function gzipBody(entry: CachedBody, id: string): Buffer {
  return splicedGzip((entry.gzip ??= gzipPieces(joinedPieces(entry.head), joinedPieces(entry.tail))), Buffer.from(id, 'latin1'));
}

/** The cached body as the pieces it is kept in, with request id `id` between them. */
function bodyPieces(entry: CachedBody, id: string): Buffer[] {
  return [...entry.head, Buffer.from(id, 'latin1'), ...entry.tail].filter((p) => p.length > 0);
}
