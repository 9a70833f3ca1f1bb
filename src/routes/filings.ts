import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../server/context.js';
import { familyBRoute } from '../server/family-b.js';
import { RISK_CATEGORIES, RISK_FACTORS } from '../store/repos/dataset-catalog.js';

const common = { tags: ['Filings'], dataset: 'filings', market: 'stocks' };

export async function filingRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  familyBRoute(app, ctx, {
    ...common,
    def: RISK_FACTORS,
    url: '/stocks/filings/v1/risk-factors',
    aliases: ['/stocks/filings/vX/risk-factors'],
    operationId: 'GetStocksFilingsVXRiskFactors',
    summary: 'Risk factors',
    description: 'Risk-factor disclosures from 10-K filings, each labelled with a category of /stocks/filings/v1/risk-categories.',
  });
  familyBRoute(app, ctx, {
    ...common,
    def: RISK_CATEGORIES,
    url: '/stocks/filings/v1/risk-categories',
    aliases: ['/stocks/taxonomies/vX/risk-factors'],
    operationId: 'GetStocksTaxonomiesVXRiskFactors',
    summary: 'Risk categories',
    description: 'The three-level risk taxonomy that risk-factor labels come from.',
  });
}
