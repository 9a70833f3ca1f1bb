import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { datasetListRoute, type DatasetListRouteSpec } from '../server/dataset-list-route.js';
import { listPage } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, DateString, Limit, ListBody, Order, StringEnum } from '../server/schemas.js';
import {
  BALANCE_SHEETS,
  CASH_FLOW_STATEMENTS,
  FLOAT,
  INCOME_STATEMENTS,
  RANGE_OPS,
  RATIOS,
  SHORT_INTEREST,
  SHORT_VOLUME,
} from '../services/dataset-lists.js';
import { LEGACY_TIMEFRAMES, type LegacyFinancialsQuery, type LegacyTimeframe } from '../services/legacy-financials.js';

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
  legacyFinancialsRoute(app, ctx);
}

const DataPoint = Type.Object({
  value: Type.Number(),
  unit: Type.String(),
  label: Type.String(),
  order: Type.Integer(),
});
const Statement = Type.Record(Type.String(), DataPoint);

const FinancialReport = Type.Object({
  cik: Type.String(),
  company_name: Type.String(),
  tickers: Type.Optional(Type.Array(Type.String())),
  sic: Type.Optional(Type.String()),
  start_date: Type.String(),
  end_date: Type.String(),
  filing_date: Type.Optional(Type.String()),
  fiscal_period: Type.String({ description: 'Q1–Q4, FY (annual) or TTM (trailing twelve months).' }),
  fiscal_year: Type.Optional(Type.String()),
  timeframe: Type.String({ description: 'quarterly, annual or ttm.' }),
  financials: Type.Object({
    income_statement: Statement,
    balance_sheet: Statement,
    cash_flow_statement: Statement,
    comprehensive_income: Statement,
  }),
});

function legacyFinancialsQuery() {
  const props: Record<string, TSchema> = {
    ticker: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'a ticker symbol' })),
    cik: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'a CIK' })),
    timeframe: Type.Optional(StringEnum(Object.keys(LEGACY_TIMEFRAMES) as LegacyTimeframe[])),
    include_sources: Type.Optional(Type.Boolean({ description: 'true or false' })),
    filing_date: Type.Optional(DateString()),
    period_of_report_date: Type.Optional(DateString()),
  };
  for (const op of RANGE_OPS) {
    props[`filing_date.${op}`] = Type.Optional(DateString());
    props[`period_of_report_date.${op}`] = Type.Optional(DateString());
  }
  props.order = Order('desc');
  props.sort = StringEnum(['filing_date', 'period_of_report_date'] as const, { default: 'period_of_report_date' });
  props.limit = Limit(10, 100);
  props.cursor = Type.Optional(Cursor);
  return Type.Object(props);
}

function legacyFinancialsRoute(app: FastifyInstance, ctx: RouteContext): void {
  getRoute(app, ctx, {
    url: '/vX/reference/financials',
    operationId: 'ListFinancials',
    summary: 'Financial reports (older form)',
    description:
      'Income statement, balance sheet and cash-flow statement of each filer and period in one report, newest first; the same stored statements as /stocks/financials/v1/*.',
    tags: ['Fundamentals'],
    dataset: 'fundamentals',
    market: 'stocks',
    querystring: legacyFinancialsQuery(),
    response: ListBody(FinancialReport),
    handler: ({ query, req }) =>
      listPage(ctx, req, query as LegacyFinancialsQuery, {
        family: 'legacy-financials',
        read: (q: LegacyFinancialsQuery, page) => ctx.services.legacyFinancials.list(q, page),
        present: (rows) => ctx.services.legacyFinancials.present(rows),
      }),
  });
}
