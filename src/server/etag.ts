import type { FastifyRequest } from 'fastify';
import { digest } from '../domain/digest.js';

// ETags of API answers. A route whose answer is a pure function of the request and one area of
// the data gets one made from that area's data version and the request (no body to hash, and a
// matching If-None-Match is answered before any data is read); any other reference answer gets
// the hash of its body.

declare module 'fastify' {
  interface FastifyRequest {
    /** The ETag derived from the data version and the request (route.ts), when the route has one. */
    dataEtag?: string;
  }
}

/** Query parameters that name the key, not the answer. */
const KEY_PARAMS = new Set(['apikey', 'api_key']);

/**
 * The ETag of an answer made from the data version of its area and everything else it depends on:
 * the route and its path parameters, the validated query (defaults applied, so `?limit=100` and no
 * limit are one answer; the key left out), the envelope, and the base URL its links are built on.
 * Weak, as bodyEtag's: the identity and compressed bytes are one resource.
 */
export function dataEtag(version: string, wrapped: boolean, req: FastifyRequest, query: object, base: string): string {
  const text = `${version}\0${requestIdentity(req, query, base)}\0${wrapped}`;
  return `W/"${digest('sha1', text, 'base64url').slice(0, 27)}"`;
}

/**
 * What an answer depends on besides the data and the envelope: the route and its path
 * parameters, the validated query (defaults applied, so `?limit=100` and no limit are one answer;
 * the key left out) and the base URL its links are built on.
 */
export function requestIdentity(req: FastifyRequest, query: object, base: string): string {
  const names = Object.keys(query).filter((k) => !KEY_PARAMS.has(k.toLowerCase())).sort();
  const q = names.map((k) => [k, (query as Record<string, unknown>)[k]]);
  return JSON.stringify([req.routeOptions.url, req.params, q, base]);
}

/**
 * The validator of a body, ignoring its request_id (which differs on every response). Weak: the
 * identity, gzip and br bytes of one answer are the same resource but not the same bytes, and a
 * strong ETag shared by them would tell caches and range requests otherwise.
 */
export function bodyEtag(payload: string, requestId: string): string {
  const stable = payload.replace(`"request_id":"${requestId}"`, '');
  return `W/"${digest('sha1', stable, 'base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names `etag` (weak comparison: W/"x" and "x" both match W/"x"). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
