// /v1/related-companies/{ticker}: the tickers stored as related to a ticker, most related first.
// Upstream declares only a 200 answer for this operation, so a ticker with no stored relations
// (unknown ones included) is a 200 with no results rather than a 404.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';
import { RELATED_COMPANIES } from '../services/dataset-lists.js';

const RelatedCompaniesBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  ticker: Type.String({ description: 'The ticker asked for.' }),
  results: Type.Array(Type.Object({ ticker: Type.String({ description: 'A ticker related to the requested ticker.' }) })),
});

export async function relatedCompanyRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v1/related-companies/:ticker',
    operationId: 'GetRelatedCompanies',
    summary: 'Related companies',
    description: 'Tickers related to the ticker (imported as the related-companies data set), most related first; no results when none are stored for it.',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    params: Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) }),
    response: RelatedCompaniesBody,
    handler: async ({ params }) => {
      const page = await ctx.services.datasetLists.list(
        RELATED_COMPANIES,
        { where: [{ field: 'ticker', op: 'eq', value: params.ticker }], sort: [{ field: 'rank', dir: 'asc' }, { field: 'related_ticker', dir: 'asc' }], fields: ['related_ticker'] },
        { limit: RELATED_COMPANIES.limit.max },
      );
      return { ticker: params.ticker, results: page.rows.map((r) => ({ ticker: String(r.record.related_ticker) })) };
    },
  });
}
