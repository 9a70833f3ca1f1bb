import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import {
  BALANCE_SHEETS,
  CASH_FLOW_STATEMENTS,
  FLOAT,
  INCOME_STATEMENTS,
  RATIOS,
  SHORT_INTEREST,
  SHORT_VOLUME,
} from '../services/dataset-lists.js';

const common: Pick<DatasetListRouteSpec, 'tags' | 'dataset' | 'market'> = { tags: ['Fundamentals'], dataset: 'fundamentals', market: 'stocks' };

export async function fundamentalRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  datasetListRoute(app, ctx, {
    ...common,
    def: BALANCE_SHEETS,
    url: '/stocks/financials/v1/balance-sheets',
    operationId: 'GetStocksFinancialsV1BalanceSheets',
    summary: 'Balance sheets',
    description: 'Point-in-time positions at `period_end`, quarterly and annual.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: CASH_FLOW_STATEMENTS,
    url: '/stocks/financials/v1/cash-flow-statements',
    operationId: 'GetStocksFinancialsV1CashFlowStatements',
    summary: 'Cash-flow statements',
    description: 'Quarterly, annual and trailing-twelve-month cash flows; outflows are negative.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: INCOME_STATEMENTS,
    url: '/stocks/financials/v1/income-statements',
    operationId: 'GetStocksFinancialsV1IncomeStatements',
    summary: 'Income statements',
    description: 'Quarterly, annual and trailing-twelve-month income statements.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: RATIOS,
    url: '/stocks/financials/v1/ratios',
    operationId: 'GetStocksFinancialsV1Ratios',
    summary: 'Financial ratios',
    description: 'Valuation, profitability and liquidity ratios: the latest stored row per ticker.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: FLOAT,
    url: '/stocks/financials/v1/float',
    aliases: ['/stocks/vX/float'],
    operationId: 'GetStocksVXFloat',
    summary: 'Free float',
    description: 'The latest free float per ticker.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: SHORT_INTEREST,
    url: '/stocks/financials/v1/short-interest',
    aliases: ['/stocks/v1/short-interest'],
    operationId: 'GetStocksV1ShortInterest',
    summary: 'Short interest',
    description: 'Short interest per settlement date.',
  });
  datasetListRoute(app, ctx, {
    ...common,
    def: SHORT_VOLUME,
    url: '/stocks/financials/v1/short-volume',
    aliases: ['/stocks/v1/short-volume'],
    operationId: 'GetStocksV1ShortVolume',
    summary: 'Short volume',
    description: 'Daily off-exchange short-sale volume.',
  });
}
