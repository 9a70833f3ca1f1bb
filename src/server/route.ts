import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { presentedKey } from './auth.js';
import type { Renew, RequestGuard, RouteContext, RouteMeta } from './context.js';
import { publicBase } from './public-url.js';
import { dataEtag, etagMatches, requestIdentity } from './etag.js';
import { windowDoneByHandler, windowLeftWhole, windowScope } from './entitlements.js';
import { BodyPieces } from './body-pieces.js';
import { minuteOf } from './cached-hits.js';
import { cachedPayload, PIECES_FROM_BYTES } from './response-cache.js';
import { requestId } from './request-id.js';
import { Envelope, ErrorBody } from './schemas.js';
import type { LiveScope } from '../services/live-versions.js';
import { envelope, nativeJson, nativeJsonOrPieces, type SerializerKind } from './serializer.js';

const ignore = (): void => {};

/** What Fastify sends for a serialized JSON body; cached bodies go out with the same type. */
const JSON_TYPE = 'application/json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set when the page's items were written elsewhere: slices of a list or of days kept in memory,
     * or items the store joined. A large one (PIECES_FROM_BYTES or more) goes out as its pieces,
     * not copied into one buffer, and the response cache keeps the same pieces: measured on 1,000-ticker pages from 200 start
     * tickers, 250-260 µs of CPU each as pieces against 620-820 µs copied and kept. A small one is
     * written and kept as any other (a 27 KiB page: 82-97 µs from the cache, 186-195 µs made again).
     */
    fromMemory?: boolean;
  }
}

export interface RouteSpec<Q extends TSchema, P extends TSchema> extends Omit<RouteMeta, 'url'> {
  url: string;
  /** Other paths serving the same operation (upstream spellings). */
  aliases?: string[];
  operationId: string;
  summary: string;
  tags: string[];
  description?: string;
  querystring?: Q;
  params?: P;
  /** Schema of the inner body (what upstream sends; wrapped in {ok,data} unless native). */
  response: TSchema;
  /** How the body is written (serializer.ts); default 'schema'. */
  serializer?: SerializerKind;
  /** Default true. */
  auth?: boolean;
  /** The body carries no status/request_id (market status, holidays). */
  plain?: boolean;
  /**
   * For answers that are a pure function of the request and the stored data: a key naming
   * everything the answer depends on besides the data (parameters, the clock's day, the base URL
   * of links). Answers are then served from ctx.responseCache until the store's data version
   * changes. undefined from the function: this request is not cached.
   */
  cacheKey?: (args: { query: Static<Q>; params: Static<P>; req: FastifyRequest }) => string | undefined;
  /**
   * With cacheKey, for answers that depend on the market data of one ticker (or one market) and on
   * data the live feed does not write: the cached answer is kept under the store's import version
   * and that ticker's (market's) live version, so the feed's writes of other tickers leave it be
   * (services/live-versions.ts). Without it, answers are kept under the whole data version.
   */
  liveScope?: (args: { params: Static<P> }) => LiveScope;
  /**
   * With cacheKey and liveScope, on a native route: for this request, a function making its inner
   * body synchronously from memory (undefined from it where memory cannot answer now). A repeated
   * request whose cached answer a live write made stale is then answered by making it again on
   * the path of repeated requests (cached-hits.ts), one request doing it: without it, every request
   * arriving until the handler had kept the new answer went through Fastify's pipeline to wait for
   * it, which with a trade every few ms cost more than all the answers from the cache.
   */
  renew?: (args: { query: Static<Q>; params: Static<P>; req: FastifyRequest }) => (() => object | undefined) | undefined;
  /**
   * For answers that are a pure function of the request and one area of the stored data: that
   * area's data version (renewed by every write to it, in any process). The ETag is then made from
   * it and the request (path, validated parameters without the key, envelope, base URL of links)
   * instead of hashing the body, and a matching If-None-Match is answered 304 before the handler runs.
   */
  dataVersion?: () => Promise<string>;
  handler: (args: {
    query: Static<Q>;
    params: Static<P>;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown>;
}

/**
 * Registers a GET operation: TypeBox schemas for validation, serialization and OpenAPI, key
 * authentication and guards before validation, and the envelope around whatever the handler returns.
 *
 * The one path of a JSON body: the handler returns the inner body (status and request_id added
 * here unless the route is plain); `envelope` wraps it; the route's declared serializer (its
 * response schema, or JSON.stringify when it declares serializer: 'native') writes it, through
 * Fastify for a fresh answer and through reply.serialize for one the response cache keeps.
 */
export function getRoute<Q extends TSchema, P extends TSchema>(app: FastifyInstance, ctx: RouteContext, spec: RouteSpec<Q, P>): void {
  const wrapped = ctx.config.envelope === 'wrapped';
  const meta: RouteMeta = { url: spec.url, dataset: spec.dataset, market: spec.market };
  const okSchema = wrapped ? Envelope(spec.response, true) : spec.response;
  const errSchema = wrapped ? Envelope(ErrorBody, false) : ErrorBody;
  const auth = spec.auth !== false;
  const cache = spec.cacheKey && ctx.responseCache ? ctx.responseCache : undefined;
  // One cache serves every base (api-bases.ts): an answer is kept per base path and form.
  const cacheScope = `${ctx.basePath ?? ''}\0${ctx.config.envelope}\0`;
  // keyed routes' cached answers are sent to repeated requests before Fastify's pipeline
  const hits = cache !== undefined && auth ? ctx.hits : undefined;
  if (spec.renew !== undefined && (spec.serializer !== 'native' || spec.liveScope === undefined || spec.plain)) throw new Error(`${spec.url}: renew needs the native serializer, a liveScope and an enveloped body`);

  /** The request's answer made again from memory and kept at a version (RouteSpec.renew), as answer() writes it. */
  const renewerOf = (query: Static<Q>, params: Static<P>, req: FastifyRequest, cacheKey: string): Renew | undefined => {
    const make = hits === undefined ? undefined : spec.renew?.({ query, params, req });
    if (make === undefined) return undefined;
    return (version) => {
      const inner = make();
      if (inner === undefined) return undefined;
      const id = requestId();
      return cache!.set(cacheKey, version, nativeJsonOrPieces(envelope(wrapped, { status: 'OK', request_id: id, ...inner }, true), PIECES_FROM_BYTES), id);
    };
  };

  /** The handler's answer in the envelope, kept in the cache when the request has a cache key. */
  const answer = async (query: Static<Q>, params: Static<P>, req: FastifyRequest, reply: FastifyReply, cacheKey: string | undefined, version: string, keyedMinute: number, scope: LiveScope | undefined) => {
    // never for requests whose plan cuts the data (the cut depends on the key)
    if (spec.dataVersion !== undefined && req.dataWindowState === undefined) {
      const etag = dataEtag(await spec.dataVersion(), wrapped, req, query as object, baseUrl(ctx, req));
      req.dataEtag = etag;
      if (etagMatches(req.headers['if-none-match'], etag)) {
        reply.code(304);
        return '';
      }
    }
    const body = await spec.handler({ query, params, req, reply });
    if (reply.sent) return reply;
    const inner = spec.plain || Array.isArray(body) || typeof body !== 'object' || body === null
      ? body
      : { status: 'OK', request_id: req.id, ...(body as object) };
    const out = envelope(wrapped, inner, true);
    // written here once: as pieces when large (sent as they are, and kept by the cache without a
    // copy), else as one body
    const written = req.fromMemory && spec.serializer === 'native' && reply.statusCode === 200 && windowDoneByHandler(req) ? nativeJsonOrPieces(out, PIECES_FROM_BYTES) : undefined;
    // an answer the plan's window narrowed may change with the clock: sent, not kept (and written
    // by Fastify, whose preSerialization hook cuts the rows of routes that leave that to it)
    const kept = cacheKey !== undefined && reply.statusCode === 200 && windowLeftWhole(req);
    if (!kept && written === undefined) return out;
    const serialized = written ?? (reply.serialize(out) as string | Buffer); // the route's declared serializer
    if (kept) {
      req.cachedBody = cache!.set(cacheKey, version, serialized, req.id);
      // hits answer with the ETag this answer gets (ETag hook), not one hashed from the body
      if (req.cachedBody !== undefined && req.dataEtag !== undefined) req.cachedBody.etag = req.dataEtag;
      if (req.cachedBody !== undefined && hits !== undefined) hits.remember(req, cacheKey, keyedMinute, scope, renewerOf(query, params, req, cacheKey));
    }
    reply.type(JSON_TYPE);
    if (Array.isArray(serialized)) {
      const body = new BodyPieces(serialized);
      reply.header('content-length', body.byteLength); // Fastify sets none for a stream
      return body;
    }
    return serialized;
  };

  /** Sends the answer cached for `cacheKey` at `version`, if any; true when sent. */
  const sendCached = (query: Static<Q>, params: Static<P>, req: FastifyRequest, reply: FastifyReply, cacheKey: string, version: string, keyedMinute: number, scope: LiveScope | undefined): boolean => {
    const hit = cache!.get(cacheKey, version);
    if (hit === undefined) return false;
    req.cachedBody = hit;
    hits?.remember(req, cacheKey, keyedMinute, scope, renewerOf(query, params, req, cacheKey));
    const payload = cachedPayload(hit, req.id);
    // Fastify sets no length for a stream; a body of known length goes without chunking
    if (payload instanceof BodyPieces) reply.header('content-length', payload.byteLength);
    reply.type(JSON_TYPE).send(payload);
    return true;
  };
  /**
   * Answers being made for a cache key at a data version, so identical requests arriving
   * meanwhile wait for the one answer (sent from the cache once kept) instead of each making it:
   * 50 connections asking for a renewed snapshot made it 50 times.
   */
  const inFlight = new Map<string, Promise<void>>();

  for (const [i, url] of [spec.url, ...(spec.aliases ?? [])].entries()) {
    app.route({
      method: 'GET',
      url,
      // GET requests carry no body: no request-decompression hook (it would run on every request);
      // answers are compressed by the app's onSend hook (compression.ts), not the plugin's hooks
      decompress: false,
      compress: false,
      // Fastify sends a serializer's Buffer as it sends a string (its types name string only)
      ...(spec.serializer === 'native' ? { serializerCompiler: () => nativeJson as (payload: unknown) => string } : {}),
      schema: {
        operationId: i === 0 ? spec.operationId : `${spec.operationId}Alias${i}`,
        summary: spec.summary,
        description: i === 0 ? spec.description : `Alias of ${spec.url}.`,
        tags: spec.tags,
        ...(spec.querystring ? { querystring: spec.querystring } : {}),
        ...(spec.params ? { params: spec.params } : {}),
        ...(auth ? { security: [{ apiKeyQuery: [] }, { apiKeyHeader: [] }, { bearer: [] }] } : {}),
        response: { 200: okSchema, '4xx': errSchema, '5xx': errSchema },
      },
      onRequest: auth
        ? (req, _reply, done) => {
            let pending: void | Promise<void>;
            try {
              pending = authorize(ctx, req, meta);
            } catch (err) {
              return done(err as Error);
            }
            if (pending === undefined) done();
            else pending.then(() => done(), done);
          }
        : undefined,
      // Cache hits are answered synchronously (no promise, no microtask turn); the rest by answer().
      handler: (req, reply) => {
        const query = req.query as Static<Q>;
        const params = req.params as Static<P>;
        // Cached answers: looked up after auth, plans and validation ran. Answers of time series
        // are kept per plan and start of its window, and only when the window cut nothing.
        let cacheKey: string | undefined;
        let version = '';
        let keyedMinute = 0;
        let scope: LiveScope | undefined;
        if (cache !== undefined) {
          if (hits !== undefined) keyedMinute = minuteOf(ctx.now()); // the key may depend on the clock's day
          const own = spec.cacheKey!({ query, params, req });
          if (own !== undefined) {
            cacheKey = cacheScope + windowScope(req) + own;
            scope = spec.liveScope?.({ params });
            // read before the data, so a write meanwhile is not hidden
            version = scope === undefined ? ctx.services.dataVersion() : ctx.services.liveVersions.of(scope);
            if (sendCached(query, params, req, reply, cacheKey, version, keyedMinute, scope)) return undefined;
            // the same answer being made for another request: wait for it rather than make it too
            const flight = `${version}\0${cacheKey}`;
            const running = inFlight.get(flight);
            if (running !== undefined) {
              const key = cacheKey;
              return running.then(() => (sendCached(query, params, req, reply, key, version, keyedMinute, scope) ? reply : answer(query, params, req, reply, key, version, keyedMinute, scope)));
            }
            const made = answer(query, params, req, reply, cacheKey, version, keyedMinute, scope);
            inFlight.set(flight, made.then(ignore, ignore));
            return made.finally(() => inFlight.delete(flight));
          }
        }
        return answer(query, params, req, reply, cacheKey, version, keyedMinute, scope);
      },
    });
  }
}

/**
 * The cacheKey of a route whose answer depends on nothing but the request and the data: its path,
 * parameters and the base URL of its links (next_url), not the clock.
 */
export function requestCacheKey(ctx: RouteContext): (args: { query: unknown; req: FastifyRequest }) => string {
  return ({ query, req }) => requestIdentity(req, query as object, publicBase(ctx.config, req));
}

/**
 * Authenticates the request's key and runs the guards in order. Synchronous (undefined) while
 * the key is cached and no guard has to wait, as on most requests; else a promise.
 */
function authorize(ctx: RouteContext, req: FastifyRequest, meta: RouteMeta): void | Promise<void> {
  const key = ctx.auth.authenticate(presentedKey(req), req.raw.socket);
  if (key instanceof Promise) {
    return key.then((k) => {
      req.apiKey = k;
      return runGuards(ctx.guards, 0, req, meta);
    });
  }
  req.apiKey = key;
  return runGuards(ctx.guards, 0, req, meta);
}

/** Runs guards[from..] in order: synchronously until one returns a promise, then after it. */
function runGuards(guards: readonly RequestGuard[], from: number, req: FastifyRequest, meta: RouteMeta): void | Promise<void> {
  for (let i = from; i < guards.length; i++) {
    const pending = guards[i]!(req, meta);
    if (pending !== undefined) return pending.then(() => runGuards(guards, i + 1, req, meta));
  }
  return undefined;
}

/**
 * Absolute base URL of the API the request was made under, for links in bodies: the server's
 * public base (never the client's Host header, see public-url.ts) and the routes' base path.
 */
export function baseUrl(ctx: RouteContext, req: FastifyRequest): string {
  return publicBase(ctx.config, req) + (ctx.basePath ?? '');
}

/**
 * next_url: the request's own path (its base path included) or another API path under the same
 * base, with only the cursor in the query: never the key.
 */
export function nextUrl(ctx: RouteContext, req: FastifyRequest, cursor: string, path?: string): string {
  const url = path === undefined ? publicBase(ctx.config, req) + req.url.split('?')[0] : baseUrl(ctx, req) + path;
  return `${url}?cursor=${cursor}`;
}
