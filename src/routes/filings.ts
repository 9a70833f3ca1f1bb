import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { RISK_CATEGORIES, RISK_FACTORS } from '../services/dataset-lists.js';

const common: Pick<DatasetListRouteSpec, 'tags' | 'dataset' | 'market'> = { tags: ['Filings'], dataset: 'filings', market: 'stocks' };

export async function filingRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  datasetListRoute(app, ctx, {
    ...common,
    def: RISK_FACTORS,
    url: '/stocks/filings/v1/risk-factors',
    aliases: ['/stocks/filings/vX/risk-factors'],
    operationId: 'GetStocksFilingsVXRiskFactors',
    summary: 'Risk factors',
    description: 'Risk-factor disclosures from 10-K filings, each labelled with a category of /stocks/filings/v1/risk-categories.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: RISK_CATEGORIES,
    url: '/stocks/filings/v1/risk-categories',
    aliases: ['/stocks/taxonomies/vX/risk-factors'],
    operationId: 'GetStocksTaxonomiesVXRiskFactors',
    summary: 'Risk categories',
    description: 'The three-level risk taxonomy that risk-factor labels come from.',
  });
}
