import compress from '@fastify/compress';
import cors from '@fastify/cors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compressAnswer } from './compression.js';
import { bodyEtag, etagMatches } from './etag.js';
import { BodyPieces } from './body-pieces.js';
import { ApiError } from '../domain/errors.js';
import { normaliseDataset } from '../domain/datasets.js';
import type { EnvelopeMode } from './context.js';

// HTTP hardening for every route: size limits, security headers, CORS (off unless configured),
// gzip/brotli for large bodies, and ETag + Cache-Control on reference data.

/** Fastify server options: request limits and timeouts (spread into the Fastify constructor). */
export const SERVER_LIMITS = {
  /** The API is GET-only; the admin API's JSON bodies are tiny. */
  bodyLimit: 64 * 1024,
  /** Request line plus headers; larger requests get 431 from Node. */
  http: { maxHeaderSize: 16 * 1024 },
  /** A request must arrive whole within this time. */
  requestTimeout: 30_000,
  /** Longer than a typical load balancer's 60 s idle timeout, so the balancer closes first. */
  keepAliveTimeout: 65_000,
} as const;

/**
 * Longest path parameter the router accepts. As long as the header limit, so in practice never
 * reached: each route's schema bounds its parameters and its 400 names the parameter.
 */
export const MAX_PARAM_LENGTH = SERVER_LIMITS.http.maxHeaderSize;

const PLACEHOLDER = 'tb-undecodable-segment';

/** The name of the path parameter whose segment is not valid percent-encoding, if a route has one there. */
function undecodableParam(req: FastifyRequest): string | undefined {
  const segments = (req.raw.url ?? '/').split('?')[0]!.split('/');
  const bad = segments.findIndex((s) => {
    try {
      decodeURIComponent(s);
      return false;
    } catch {
      return true;
    }
  });
  if (bad < 0) return undefined;
  segments[bad] = PLACEHOLDER;
  const route = req.server.findRoute({ method: 'GET', url: segments.join('/') });
  const params = (route?.params ?? {}) as Record<string, string>;
  return Object.entries(params).find(([, v]) => v === PLACEHOLDER)?.[0];
}

/**
 * Errors the router raises before any route runs (a path that is not valid percent-encoding),
 * answered in the API's envelope, naming the parameter, instead of with Fastify's own body.
 */
export function frameworkErrorsHandler(envelopeOf: (url: string) => EnvelopeMode) {
  return (error: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    let message = 'The request could not be routed';
    if (error.code === 'FST_ERR_BAD_URL') {
      const param = undecodableParam(req);
      message = param ? `${param} must be valid percent-encoded UTF-8` : 'The URL path is not valid percent-encoded UTF-8';
    } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      message = `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`;
    }
    const err = new ApiError('BAD_PARAMETER', message);
    const inner = { status: err.status, request_id: req.id, code: err.code, error: message, message };
    const wrapped = envelopeOf(req.raw.url ?? '/') === 'wrapped';
    reply.code(err.http).header('X-Request-Id', req.id).send(wrapped ? { ok: false, data: inner } : inner);
  };
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers too large, a request
 * that did not arrive in time, malformed HTTP), answered in the API's JSON envelope with a
 * request id, then the connection is closed (the parser cannot go on reading it). The envelope
 * follows the path of the request line when the bytes Node hands over start with one.
 */
export function clientErrorHandler(envelopeOf: (url: string) => EnvelopeMode, newId: () => string) {
  return (err: NodeJS.ErrnoException, socket: import('node:net').Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let apiErr: ApiError;
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      apiErr = new ApiError('HEADERS_TOO_LARGE', `The request line and headers are larger than ${SERVER_LIMITS.http.maxHeaderSize} bytes`);
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      apiErr = new ApiError('REQUEST_TIMEOUT', `The request did not arrive within ${SERVER_LIMITS.requestTimeout / 1000} s`);
    } else {
      apiErr = new ApiError('BAD_PARAMETER', 'The request is not valid HTTP/1.1');
    }
    const id = newId();
    const inner = { status: apiErr.status, request_id: id, code: apiErr.code, error: apiErr.message, message: apiErr.message };
    const wrapped = envelopeOf(requestLinePath((err as { rawPacket?: unknown }).rawPacket)) === 'wrapped';
    const body = JSON.stringify(wrapped ? { ok: false, data: inner } : inner);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${apiErr.http} ${STATUS_TEXT[apiErr.http] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/** The path of the request line at the start of `raw` ('/' when there is none). */
function requestLinePath(raw: unknown): string {
  if (!Buffer.isBuffer(raw)) return '/';
  const m = /^[A-Z]{3,10} (\/[^ \r\n]*)/.exec(raw.toString('latin1', 0, Math.min(raw.length, 4096)));
  return m ? m[1]! : '/';
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

export interface HardeningOptions {
  /** Allowed browser origins: a list, '*' for any, or undefined for no CORS headers at all. */
  corsOrigin?: string[] | '*';
  /** Bodies at least this large are compressed (bytes, default 1024). */
  compressThreshold?: number;
  /** Send Strict-Transport-Security (when the public URL is https). */
  hsts?: boolean;
  /** Cache lifetime of reference data in seconds (default 300). */
  referenceMaxAge?: number;
}

const EXPOSED_HEADERS = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag'];

/** Parses --cors-origin: '*' or a comma-separated list of origins (scheme://host[:port]). */
export function parseCorsOrigin(value: string | undefined): string[] | '*' | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (value.trim() === '*') return '*';
  const list = value.split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean);
  for (const o of list) {
    if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new Error(`--cors-origin: "${o}" is not an origin such as https://app.example.com`);
  }
  return list;
}

/** The first parameter holding a non-finite number (Ajv coerced e.g. "1e400" to Infinity). */
function nonFiniteParameter(source: unknown): string | undefined {
  if (!source || typeof source !== 'object') return undefined;
  for (const name in source) {
    const value = (source as Record<string, unknown>)[name];
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return name;
    } else if (Array.isArray(value) && value.some((v) => typeof v === 'number' && !Number.isFinite(v))) return name;
  }
  return undefined;
}

/** True when a JSON schema (or any schema inside it) admits numbers. */
function hasNumber(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const type = (schema as { type?: unknown }).type;
  if (type === 'number' || type === 'integer' || (Array.isArray(type) && (type.includes('number') || type.includes('integer')))) return true;
  return Object.values(schema).some((v) => (Array.isArray(v) ? v.some(hasNumber) : hasNumber(v)));
}

/**
 * The security headers of every answer, as [name, value]; names in lower case: Fastify stores them
 * so, and lowers any other on every call. The cached-answer path (cached-hits.ts) sends the same.
 */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'no-referrer'],
  ['cross-origin-opener-policy', 'same-origin'],
];

/** The policy of every answer but the docs page's and those that set their own. */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Sent when the public URL is https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

function securityHeaders(req: FastifyRequest, reply: FastifyReply, hsts: boolean): void {
  for (const [name, value] of SECURITY_HEADERS) reply.header(name, value);
  // The docs page runs scripts and styles of its own, and branding's SVG images set a policy of
  // their own; everything else is data.
  if (!req.url.startsWith('/docs') && !reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DATA_CSP);
  if (hsts) reply.header('strict-transport-security', HSTS);
}

/** Vary of answers with an ETag: the key decides which answer a client may see. */
export const REFERENCE_VARY = 'Accept-Encoding, Authorization, X-API-Key';

/** The settings registerHardening applies, defaults filled in. */
export function hardeningSettings(opts: HardeningOptions): { hsts: boolean; cacheControl: string; threshold: number; cors: boolean } {
  return {
    hsts: opts.hsts ?? false,
    cacheControl: `private, max-age=${opts.referenceMaxAge ?? 300}`,
    threshold: opts.compressThreshold ?? 1024,
    cors: Boolean(opts.corsOrigin),
  };
}

/**
 * The header, ETag and compression step of a response (see registerHardening): the payload to
 * send, or a promise of it for a large body compressed off the event loop.
 */
export type SendStep = (req: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown;

/**
 * Registers the hardening hooks and plugins. Call before any route is added: the compression
 * plugin attaches itself to routes as they are registered. Returns the header, ETag and compression step,
 * which the caller runs in its onSend hook (one onSend hook for the app: each costs a dispatch per
 * request).
 */
export async function registerHardening(app: FastifyInstance, opts: HardeningOptions = {}): Promise<SendStep> {
  const { hsts, cacheControl, threshold } = hardeningSettings(opts);

  // Ajv coerces "1e400" to Infinity and then skips minimum/maximum for non-finite numbers, so an
  // out-of-range number would reach the handlers (and SQL). Refuse it on every route whose path
  // or query has a number; the others (the ticker overview among them) skip the hook run.
  const refuseNonFinite = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const name = nonFiniteParameter(req.params) ?? nonFiniteParameter(req.query);
    done(name === undefined ? undefined : new ApiError('BAD_PARAMETER', `${name} must be a finite number`));
  };
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { params?: unknown; querystring?: unknown } | undefined;
    if (!hasNumber(schema?.params) && !hasNumber(schema?.querystring)) return;
    const own = route.preHandler;
    route.preHandler = own === undefined ? [refuseNonFinite] : [refuseNonFinite, ...(Array.isArray(own) ? own : [own])];
  });

  // ETag and Cache-Control on successful reference answers; If-None-Match → 304 without a body.
  const withEtag: SendStep = (req, reply, payload) => {
    const derived = req.dataEtag;
    if (derived !== undefined && (reply.statusCode === 200 || reply.statusCode === 304)) {
      // made from the data version before the handler ran, which answered a match with 304 itself
      reply.header('etag', derived);
      reply.header('cache-control', cacheControl);
      reply.header('vary', REFERENCE_VARY);
      return payload;
    }
    // routes that validate their own answers (branding images) keep their headers
    if (reply.statusCode !== 200 || req.method !== 'GET' || reply.hasHeader('etag')) return payload;
    const cached = req.cachedBody;
    // a string, or a cached answer's bytes or pieces (whose ETag was kept when it was first sent)
    if (typeof payload !== 'string' && !(cached && (Buffer.isBuffer(payload) || payload instanceof BodyPieces))) return payload;
    const meta = req.routeMeta;
    if (!meta || normaliseDataset(meta.dataset) !== 'reference') return payload;
    const text = () => (payload instanceof BodyPieces ? payload.bytes().toString() : String(payload as string | Buffer));
    const etag = cached ? (cached.etag ??= bodyEtag(text(), req.id)) : bodyEtag(payload as string, req.id);
    reply.header('etag', etag);
    reply.header('cache-control', cacheControl);
    reply.header('vary', REFERENCE_VARY);
    if (etagMatches(req.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
    return payload;
  };
  if (opts.corsOrigin) {
    await app.register(cors, {
      origin: opts.corsOrigin === '*' ? '*' : opts.corsOrigin,
      methods: ['GET', 'HEAD'],
      allowedHeaders: ['Authorization', 'X-API-Key', 'If-None-Match'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      strictPreflight: false,
    });
  }

  // The API's answers (the routes getRoute builds, which opt out of the plugin: the guards mark
  // their requests with routeMeta) are compressed by compressAnswer; every other route by the plugin.
  await app.register(compress, { global: true, threshold, encodings: ['br', 'gzip', 'deflate'] });
  // X-Request-Id and the security headers go on in the same step, on every answer (errors and
  // 404s included): no onRequest hook of their own to run per request.
  return (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    securityHeaders(req, reply, hsts);
    const out = withEtag(req, reply, payload);
    return req.routeMeta === undefined ? out : compressAnswer(req, reply, out, threshold);
  };
}
