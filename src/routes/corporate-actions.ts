import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, filterProperties } from '../server/dataset-list-route.js';
import { listPage } from '../server/pagination.js';
import { getRoute, requestCacheKey } from '../server/route.js';
import { Cursor, Limit, ListBody, Order, StringEnum } from '../server/schemas.js';
import { DIVIDENDS, parseFilters, SPLITS, type Condition, type DatasetDef, type FilterForm } from '../services/dataset-lists.js';

// The deprecated v3 endpoints read the same rows as /stocks/v1/{dividends,splits}, with the
// older parameter set (eq and range forms, `order` + single-field `sort`) and item shape.

const EQ_RANGE: readonly FilterForm[] = ['eq', 'range'];

/** The dividends declaration with the v3 filters in place of the new-style ones. */
const V3_DIVIDENDS: DatasetDef = {
  ...DIVIDENDS,
  filters: {
    ticker: EQ_RANGE,
    ex_dividend_date: EQ_RANGE,
    record_date: EQ_RANGE,
    declaration_date: EQ_RANGE,
    pay_date: EQ_RANGE,
    frequency: ['eq'],
    cash_amount: EQ_RANGE,
    dividend_type: ['eq'],
  },
};

const V3_SPLITS: DatasetDef = { ...SPLITS, filters: { ticker: EQ_RANGE, execution_date: EQ_RANGE } };

const V3_DIVIDEND_SORTS = ['ex_dividend_date', 'pay_date', 'declaration_date', 'record_date', 'cash_amount', 'ticker'] as const;
const V3_SPLIT_SORTS = ['execution_date', 'ticker'] as const;

const V3DividendsQuery = Type.Object({
  ...filterProperties(V3_DIVIDENDS),
  order: Order('desc'),
  limit: Limit(10, 1000),
  sort: StringEnum(V3_DIVIDEND_SORTS, { default: 'ex_dividend_date' }),
  cursor: Type.Optional(Cursor),
});

const V3SplitsQuery = Type.Object({
  ...filterProperties(V3_SPLITS),
  reverse_split: Type.Optional(Type.Boolean()),
  order: Order('desc'),
  limit: Limit(10, 1000),
  sort: StringEnum(V3_SPLIT_SORTS, { default: 'execution_date' }),
  cursor: Type.Optional(Cursor),
});

const V3Dividend = Type.Object({
  id: Type.String(),
  ticker: Type.String(),
  cash_amount: Type.Number(),
  currency: Type.Optional(Type.String()),
  declaration_date: Type.Optional(Type.String()),
  ex_dividend_date: Type.String(),
  record_date: Type.Optional(Type.String()),
  pay_date: Type.Optional(Type.String()),
  frequency: Type.Integer(),
  dividend_type: StringEnum(['CD', 'SC', 'LT', 'ST'] as const),
});

const V3Split = Type.Object({
  id: Type.String(),
  ticker: Type.String(),
  execution_date: Type.String(),
  split_from: Type.Number(),
  split_to: Type.Number(),
});

interface V3Spec<Q extends TObject> {
  def: DatasetDef;
  /** Fields of the v3 item. */
  fields: readonly string[];
  filtersDef: DatasetDef;
  family: string;
  query: Q;
  extra?: (q: Static<Q>) => Condition[];
}

/** The handler shared by the two v3 lists: filters, one sort field + order, keyset pages. */
function v3List<Q extends TObject>(ctx: RouteContext, spec: V3Spec<Q>) {
  type Query = Static<Q> & { order: 'asc' | 'desc'; limit: number; sort: string };
  return ({ query, req }: { query: Static<Q>; req: FastifyRequest }) =>
    listPage(ctx, req, query as Query, {
      family: spec.family,
      read: (q: Query, page) => {
        const where = [...parseFilters(spec.filtersDef, q), ...(spec.extra?.(q) ?? [])];
        return ctx.services.datasetLists.list(spec.def, { where, sort: [{ field: q.sort, dir: q.order }], fields: spec.fields }, page);
      },
      present: (rows) => rows.map((r) => r.record),
    });
}

export async function corporateActionRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  datasetListRoute(app, ctx, {
    def: DIVIDENDS,
    url: '/stocks/v1/dividends',
    operationId: 'GetStocksV1Dividends',
    summary: 'Dividends',
    description: 'Cash dividends with new-style filters (`ticker.any_of`, ranges, `sort=field.asc,field.desc`). The same rows as /v3/reference/dividends.',
    tags: ['Corporate actions'],
    dataset: 'reference',
    market: 'stocks',
  });

  datasetListRoute(app, ctx, {
    def: SPLITS,
    url: '/stocks/v1/splits',
    operationId: 'GetStocksV1Splits',
    summary: 'Splits',
    description: 'Stock splits with new-style filters. The same rows as /v3/reference/splits and the ones aggregates use for `adjusted=true`.',
    tags: ['Corporate actions'],
    dataset: 'reference',
    market: 'stocks',
  });

  getRoute(app, ctx, {
    url: '/v3/reference/dividends',
    operationId: 'ListDividends',
    summary: 'Dividends (v3, deprecated upstream)',
    description: 'The older dividends list: eq and range filters, `sort` + `order`, keyset pages through `next_url`.',
    tags: ['Corporate actions'],
    dataset: 'reference',
    market: 'stocks',
    querystring: V3DividendsQuery,
    response: ListBody(V3Dividend),
    cacheKey: requestCacheKey(ctx),
    handler: v3List(ctx, { def: DIVIDENDS, fields: Object.keys(V3Dividend.properties), filtersDef: V3_DIVIDENDS, family: 'v3-dividends', query: V3DividendsQuery }),
  });

  getRoute(app, ctx, {
    url: '/v3/reference/splits',
    operationId: 'ListStockSplits',
    summary: 'Splits (v3, deprecated upstream)',
    description: 'The older splits list. `reverse_split=true` keeps splits with split_from > split_to, `false` those with split_from < split_to.',
    tags: ['Corporate actions'],
    dataset: 'reference',
    market: 'stocks',
    querystring: V3SplitsQuery,
    response: ListBody(V3Split),
    cacheKey: requestCacheKey(ctx),
    handler: v3List(ctx, {
      def: SPLITS,
      fields: Object.keys(V3Split.properties),
      filtersDef: V3_SPLITS,
      family: 'v3-splits',
      query: V3SplitsQuery,
      extra: (q): Condition[] => (q.reverse_split === undefined ? [] : [{ field: 'split_from', op: q.reverse_split ? 'gt' : 'lt', otherField: 'split_to' }]),
    }),
  });
}
