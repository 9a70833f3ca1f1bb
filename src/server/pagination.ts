import type { FastifyRequest } from 'fastify';
import type { KeysetPosition, KeysetRows, PageRequest } from '../services/paging.js';
import type { RouteContext } from './context.js';
import { nextUrl } from './route.js';
import { JoinedJsonItems } from './serializer.js';

const AUTH_PARAMS = new Set(['api_key', 'apiKey', 'cursor']);

interface CursorPayload<Q, P> {
  q: Q;
  a: P;
}

/** What a page's rows are on the wire: an array, or pre-serialized items (serializer.ts). */
type Results = { readonly length: number };

/** The body of one page of a list: its rows on the wire and, when more exist, the link to the next page. */
export interface ListPage<W extends Results> {
  count: number;
  results: W;
  next_url?: string;
}

export interface ListSpec<Q extends { limit: number }, R, W extends Results, P> {
  /** Names the cursor's family: a cursor is refused by any other list. */
  family: string;
  /**
   * The query of a first page from the request's parameters (without the key and the cursor);
   * undefined answers an empty page. Default: those parameters as they are.
   */
  firstQuery?: (params: Q) => Q | undefined;
  /**
   * Whether a query and position decoded from a cursor have the shape this list reads (the cursor
   * is signed, but another version of the server may have written it). Default: both are objects.
   */
  validCursor?: (query: Q, after: P) => boolean;
  /** The rows after the position (all rows on a first page), in the list's order. */
  read: (query: Q, page: PageRequest<P>) => Promise<KeysetRows<R, P>>;
  /** The page's rows on the wire. */
  present: (rows: R[], query: Q) => W | Promise<W>;
  /**
   * Reads a page whole, its rows already JSON items joined by the store (page.limit is one beyond
   * the page, as for read), with the last row's position when more rows follow; undefined to read
   * the page through read and present instead.
   */
  readPage?: (query: Q, page: PageRequest<P>) => Promise<JoinedPage<P> | undefined>;
}

/** A page whose rows the store wrote as JSON items joined by commas (JoinedJsonItems takes them). */
export interface JoinedPage<P> {
  items: string | Buffer | readonly (string | Buffer)[];
  count: number;
  next?: P;
  /** Made from a list kept in memory, not read from the store. */
  fromMemory?: boolean;
}

/**
 * One page of a keyset-paged list: the query comes from the cursor when the request has one (the
 * cursor replaces every parameter but the key), else from the parameters; limit+1 rows are read,
 * and when the extra row exists next_url carries the query and the last row's position.
 */
export async function listPage<Q extends { limit: number }, R, W extends Results, P = KeysetPosition>(
  ctx: RouteContext,
  req: FastifyRequest,
  params: object & { cursor?: string },
  spec: ListSpec<Q, R, W, P>,
): Promise<ListPage<W | JoinedJsonItems>> {
  let query: Q | undefined;
  let after: P | undefined;
  if (params.cursor) {
    const p = ctx.cursors.decode<CursorPayload<Q, P>>(spec.family, params.cursor);
    const shaped = !!p && typeof p === 'object' && typeof p.q === 'object' && p.q !== null && typeof p.a === 'object' && p.a !== null;
    if (!shaped || !(spec.validCursor?.(p.q, p.a) ?? true)) return ctx.cursors.decode<never>(spec.family, ''); // the standard bad-cursor error
    query = p.q;
    after = p.a;
  } else {
    const asked = withoutAuth<Q>(params);
    query = spec.firstQuery ? spec.firstQuery(asked) : asked;
    if (query === undefined) return { count: 0, results: await spec.present([], asked) };
  }
  const limit = query.limit;
  const whole = await spec.readPage?.(query, { after, limit: limit + 1 });
  if (whole) {
    // written elsewhere (kept in memory, or joined by the store): sent as its pieces, not copied
    // into one buffer (a 50,000-trade page read by the store held the event loop 20-30 ms for that)
    req.fromMemory = true;
    return withNext(ctx, req, spec.family, query, new JoinedJsonItems(whole.items, whole.count), whole.next);
  }
  const { rows, position } = await spec.read(query, { after, limit: limit + 1 });
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const results = await spec.present(page, query);
  return withNext(ctx, req, spec.family, query, results, more ? position(page[page.length - 1]!) : undefined);
}

/** The page's body: its results and, when `next` is given, the link to the page after that position. */
function withNext<Q, W extends Results, P>(ctx: RouteContext, req: FastifyRequest, family: string, query: Q, results: W, next: P | undefined): ListPage<W> {
  if (next === undefined) return { count: results.length, results };
  const cursor = ctx.cursors.encode(family, { q: query, a: next } satisfies CursorPayload<Q, P>);
  return { count: results.length, results, next_url: nextUrl(ctx, req, cursor) };
}

function withoutAuth<Q>(params: object): Q {
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (!AUTH_PARAMS.has(k) && v !== undefined) query[k] = v;
  return query as Q;
}

