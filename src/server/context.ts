import type { LiveScope } from '../services/live-versions.js';
import type { FastifyRequest } from 'fastify';
import type { Dataset } from '../domain/datasets.js';
import type { Services } from '../services/index.js';
import type { Store } from '../store/index.js';
import type { ApiKeyRecord } from '../store/repos/keys.js';
import type { KeyAuthenticator } from './auth.js';
import type { CursorCodec } from './cursor.js';
import type { CachedBody, ResponseCache } from './response-cache.js';

export type EnvelopeMode = 'wrapped' | 'native';

export interface ServerConfig {
  envelope: EnvelopeMode;
  /** Absolute base for next_url and other links, e.g. https://md.example.com (no trailing slash). */
  publicUrl?: string;
  /** Take the link base from X-Forwarded-Proto/-Host (only behind a proxy that sets them). */
  trustProxy?: boolean;
  /** Directory of branding images served by /v1/reference/company-branding. */
  brandingDir?: string;
  /** Entries of the response cache (default 10,000; 0 turns it off). */
  responseCacheEntries?: number;
  /** Bytes the response cache may hold (default DEFAULT_CACHE_BYTES). */
  responseCacheBytes?: number;
  /** Bytes the minute bars kept in memory by day may hold (default DEFAULT_MINUTE_DAYS_BYTES; 0 keeps none). */
  minuteDaysBytes?: number;
  /** Bytes the trades and quotes kept in memory by ticker may hold (default DEFAULT_TICK_LISTS_BYTES; 0 keeps none). */
  tickListBytes?: number;
  /** Risk-free rate for option greeks when no 3-month treasury yield is stored (annual decimal; default 0.045). */
  riskFreeRate?: number;
}

/**
 * Keeps what the full path answered from the response cache, so that repeats of those requests
 * can be answered before Fastify's pipeline (cached-hits.ts).
 */
/** Makes a cached answer again, synchronously, and keeps it at `version`; undefined where it cannot. */
export type Renew = (version: string) => CachedBody | undefined;

export interface RepeatedRequests {
  /**
   * A keyed route answered `req` from the cache, or kept its answer there, under `cacheKey` computed
   * in clock minute `keyedMinute`; `renew` makes that answer again from memory at a newer version
   * (RouteSpec.renew).
   */
  remember(req: FastifyRequest, cacheKey: string, keyedMinute: number, scope?: LiveScope, renew?: Renew): void;
  /** Every request goes to Fastify from now on. */
  close(): void;
}

/** What a route needs to know about itself beyond its schemas (entitlements, families). */
export interface RouteMeta {
  url: string;
  /** Data set the route serves, e.g. reference, aggregates, trades (plans and entitlements). */
  dataset?: Dataset;
  /** Market of the data: fixed, or derived from the request (e.g. from the ticker prefix). */
  market?: string | ((req: FastifyRequest) => string);
}

/**
 * A check run after authentication for every keyed route (plans, rate limits): throws (or
 * rejects) to refuse the request. A guard with nothing to wait for returns undefined, so the
 * request does not pay for a promise.
 */
export type RequestGuard = (req: FastifyRequest, route: RouteMeta) => void | Promise<void>;

export interface ServerContext {
  /** For the HTTP shell's own needs (keys, usage, the data version); routes reach data only through services. */
  store: Store;
  /** Every query and computation the routes need, built once by the composition root. */
  services: Services;
  config: ServerConfig;
  cursors: CursorCodec;
  auth: KeyAuthenticator;
  /** The clock every time-dependent answer uses; tests set it. */
  now: () => number;
  guards: RequestGuard[];
  /** Serialized answers of routes that declare a cache key (absent: nothing is cached). */
  responseCache?: ResponseCache;
  /** Repeated requests for cached answers, answered before Fastify's pipeline (absent: none). */
  hits?: RepeatedRequests;
  /**
   * Path prefix the routes built with this context are mounted under ('' or absent: the root),
   * for links in their answers (api-bases.ts).
   */
  basePath?: string;
}

/** What a route plugin is given: the server's context without the store. */
export type RouteContext = Omit<ServerContext, 'store'>;

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyRecord;
    /** The form of this request's answer: the configured one at the root, a prefix's own under it (api-bases.ts). */
    readonly envelopeMode: EnvelopeMode;
  }
}
