import type { FastifyRequest } from 'fastify';
import type { KeysetPosition } from '../store/repos/keyset.js';
import type { ServerContext } from './context.js';
import { nextUrl } from './route.js';

const AUTH_PARAMS = new Set(['api_key', 'apiKey', 'cursor']);

interface CursorPayload<Q> {
  q: Q;
  a: KeysetPosition;
}

/**
 * The query a keyset-paged request runs: from its cursor when it has one (the cursor replaces every
 * other parameter but the key), else from its own parameters.
 */
export function pagedQuery<Q extends object>(ctx: ServerContext, family: string, raw: Q & { cursor?: string }): { query: Q; after?: KeysetPosition } {
  if (raw.cursor) {
    const p = ctx.cursors.decode<CursorPayload<Q>>(family, raw.cursor);
    if (!p || typeof p !== 'object' || typeof p.q !== 'object' || typeof p.a !== 'object' || p.a === null) {
      return ctx.cursors.decode<never>(family, '');
    }
    return { query: p.q, after: p.a };
  }
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!AUTH_PARAMS.has(k) && v !== undefined) query[k] = v;
  return { query: query as Q };
}

/**
 * Trims a page fetched with limit+1 rows and adds next_url when the extra row shows that more exist.
 */
export function finishPage<T, Q extends object>(
  ctx: ServerContext,
  req: FastifyRequest,
  family: string,
  query: Q,
  limit: number,
  rows: T[],
  position: (row: T) => KeysetPosition,
): { rows: T[]; next_url?: string } {
  if (rows.length <= limit) return { rows };
  const page = rows.slice(0, limit);
  const cursor = ctx.cursors.encode(family, { q: query, a: position(page[page.length - 1]) } satisfies CursorPayload<Q>);
  return { rows: page, next_url: nextUrl(ctx, req, cursor) };
}
