// IPOs, as upstream serves them twice: /vX/reference/ipos (eq filters and ranges on listing_date,
// one `sort` field plus `order`) and /v1/reference/ipos (new-style filters `f.any_of`, ranges on
// the identifiers, `sort=a.desc,b.asc`, and listing_date also as an RFC 3339 time or Unix ns).
// Both read the rows of the `ipos` data set.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { dateOfDay } from '../domain/calendar.js';
import { badParameter } from '../domain/errors.js';
import { parseInstant } from '../domain/rfc3339.js';
import type { RouteContext } from '../server/context.js';
import { datasetItemSchema, filterProperties } from '../server/dataset-list-route.js';
import { listPage } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, Limit, ListBody, Order, StringEnum } from '../server/schemas.js';
import { IPO_SORTS, IPOS, parseDatasetQuery, parseFilters, RANGE_OPS, type DatasetDef } from '../services/dataset-lists.js';

/** The vX filters: equality on the identifiers and the status, ranges on listing_date. */
const VX_IPOS: DatasetDef = { ...IPOS, filters: { ticker: ['eq'], us_code: ['eq'], isin: ['eq'], listing_date: ['eq', 'range'], ipo_status: ['eq'] } };

/** Fields only the vX body carries (upstream's vX example has them; the v1 schema does not). */
const VX_ONLY = new Set(['issue_end_date', 'issue_start_date']);
const V1_FIELDS = Object.keys(IPOS.fields).filter((f) => !VX_ONLY.has(f));

const V1Ipo = Type.Object(Object.fromEntries(Object.entries(datasetItemSchema(IPOS).properties).filter(([k]) => !VX_ONLY.has(k))) as Record<string, TSchema>);

const LISTING_DATE_PARAMS = ['listing_date', ...RANGE_OPS.map((op) => `listing_date.${op}`)];
const LISTING_DATE_RULE = 'a date (YYYY-MM-DD), an RFC 3339 time or Unix nanoseconds';
const NS = /^\d{1,19}$/;

/** A v1 listing_date bound as the date it falls on (UTC); a date stays as it is (checked later). */
function listingDate(value: string, param: string): string {
  if (NS.test(value)) return dateOfDay(Number(BigInt(value) / 86_400_000_000_000n));
  const at = parseInstant(value);
  if (at === undefined) throw badParameter(`${param} must be ${LISTING_DATE_RULE}`);
  return at.dateOnly ? value : dateOfDay(Math.floor(at.ms / 86_400_000));
}

function v1Query(query: Record<string, unknown>): Record<string, unknown> {
  const out = { ...query };
  for (const p of LISTING_DATE_PARAMS) if (typeof out[p] === 'string') out[p] = listingDate(out[p] as string, p);
  return out;
}

const V1Query = Type.Object({
  ...filterProperties(IPOS),
  ...Object.fromEntries(LISTING_DATE_PARAMS.map((p) => [p, Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: LISTING_DATE_RULE }))])),
  limit: Limit(IPOS.limit.default, IPOS.limit.max),
  sort: Type.String({ default: IPOS.sort, minLength: 1, maxLength: 1000, description: 'a comma-separated list of fields, each optionally followed by .asc or .desc' }),
  cursor: Type.Optional(Cursor),
});

const VXQuery = Type.Object({
  ...filterProperties(VX_IPOS),
  order: Order('desc'),
  // upstream's vX schema stops at 1000, one below its v1 list
  limit: Limit(IPOS.limit.default, 1000),
  sort: StringEnum(IPO_SORTS, { default: 'listing_date' }),
  cursor: Type.Optional(Cursor),
});

const common = { tags: ['Reference'], dataset: 'reference' as const, market: 'stocks' };

export async function ipoRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    ...common,
    url: '/vX/reference/ipos',
    operationId: 'ListIPOs',
    summary: 'IPOs',
    description: 'Initial public offerings: rumored, pending, new (listing today), history, postponed, withdrawn and direct listings, latest listing date first by default.',
    querystring: VXQuery,
    response: ListBody(datasetItemSchema(IPOS)),
    serializer: 'native',
    handler: ({ query, req }) =>
      listPage(ctx, req, query as Record<string, unknown> & { limit: number; sort: string; order: 'asc' | 'desc' }, {
        family: 'vx-ipos',
        read: (q: Record<string, unknown> & { limit: number; sort: string; order: 'asc' | 'desc' }, page) => ctx.services.datasetLists.list(IPOS, { where: parseFilters(VX_IPOS, q), sort: [{ field: q.sort, dir: q.order }] }, page),
        present: (rows) => rows.map((r) => r.record),
      }),
  });

  getRoute(app, ctx, {
    ...common,
    url: '/v1/reference/ipos',
    operationId: 'GetV1ReferenceIpos',
    summary: 'IPOs (v1)',
    description: 'The IPO list with new-style filters (`ticker.any_of`, ranges, `sort=listing_date.desc,ticker`); listing_date bounds may be dates, RFC 3339 times or Unix ns (the UTC date they fall on).',
    querystring: V1Query,
    response: ListBody(V1Ipo),
    serializer: 'native',
    handler: ({ query, req }) =>
      listPage(ctx, req, query as Record<string, unknown> & { limit: number }, {
        family: 'v1-ipos',
        read: (q, page) => ctx.services.datasetLists.list(IPOS, { ...parseDatasetQuery(IPOS, v1Query(q)), fields: V1_FIELDS }, page),
        present: (rows) => rows.map((r) => r.record),
      }),
  });
}
