import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { DISCLOSURE_TAXONOMY, EIGHT_K_DISCLOSURES, EIGHT_K_TEXT, FILINGS_INDEX, FORM_13F, FORM_3, FORM_4, RISK_CATEGORIES, RISK_FACTORS, TEN_K_SECTIONS } from '../services/dataset-lists.js';

const common: Pick<DatasetListRouteSpec, 'tags' | 'dataset' | 'market'> = { tags: ['Filings'], dataset: 'filings', market: 'stocks' };

/** The filings lists beyond risk factors: one row per endpoint. */
const FILINGS: Pick<DatasetListRouteSpec, 'def' | 'url' | 'aliases' | 'operationId' | 'summary' | 'description'>[] = [
  { def: FILINGS_INDEX, url: '/stocks/filings/vX/index', operationId: 'GetStocksFilingsVXIndex', summary: 'Filings index', description: 'SEC filings of every form type, newest first, with their accession numbers and links.' },
  // the official JS client (10.x) also asks for the same list under vX_0
  { def: TEN_K_SECTIONS, url: '/stocks/filings/10-K/vX/sections', aliases: ['/stocks/filings/10-K/vX_0/sections'], operationId: 'GetStocksFilings10KVXSections', summary: '10-K sections', description: 'The full text of the business and risk-factor sections of annual reports.' },
  { def: EIGHT_K_TEXT, url: '/stocks/filings/8-K/vX/text', operationId: 'GetStocksFilings8KVXText', summary: '8-K text', description: 'The items text of current reports (8-K and 8-K/A).' },
  { def: FORM_13F, url: '/stocks/filings/vX/13-F', operationId: 'GetStocksFilingsVX13F', summary: '13-F holdings', description: 'The holdings that institutional managers report each quarter, one row per position.' },
  { def: FORM_3, url: '/stocks/filings/vX/form-3', operationId: 'GetStocksFilingsVXForm3', summary: 'Form 3', description: 'Initial statements of beneficial ownership by insiders, one row per holding.' },
  { def: FORM_4, url: '/stocks/filings/vX/form-4', operationId: 'GetStocksFilingsVXForm4', summary: 'Form 4', description: 'Changes in beneficial ownership by insiders, one row per transaction or holding.' },
  // in the official JS client (10.8), not in upstream's OpenAPI document
  { def: EIGHT_K_DISCLOSURES, url: '/stocks/filings/8-K/vX/disclosures', operationId: 'GetStocksFilings8KVXDisclosures', summary: '8-K disclosures', description: 'The disclosures of current reports (8-K), one row per category a filing is tagged with, each with a supporting excerpt; the categories are those of /stocks/taxonomies/vX/disclosures.' },
  { def: DISCLOSURE_TAXONOMY, url: '/stocks/taxonomies/vX/disclosures', operationId: 'GetStocksTaxonomiesVXDisclosures', summary: 'Disclosure taxonomy', description: 'The three-level taxonomy that 8-K disclosure categories come from, per taxonomy version.' },
];

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
  for (const row of FILINGS) datasetListRoute(app, ctx, { ...common, ...row });
}
