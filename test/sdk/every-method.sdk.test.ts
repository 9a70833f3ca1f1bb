// Every REST method of the official client (@massive.com/client-js, the dev dependency) against a
// server configured as `npm start` configures it with no flags: SQLite, the full demo data set
// loaded on first start and rolled forward, the serve command's defaults, the client pointed at
// <server>/upstream as the startup banner says. The methods are found by walking the object the
// client's factory returns, so a method added by a client upgrade fails this file until a case
// covers it.
// The server's clock is pinned to the evening of a demo session (SESSION), as if `npm start` had
// been run then: the answers do not depend on when the test runs (on a weekend, a holiday or
// during a session today's snapshots are rightly empty, as upstream's are).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetCryptoAggregatesTimespanEnum,
  GetCryptoSnapshotDirectionDirectionEnum,
  GetForexAggregatesTimespanEnum,
  GetForexSnapshotDirectionDirectionEnum,
  GetIndicesAggregatesTimespanEnum,
  GetOptionsAggregatesTimespanEnum,
  GetOptionsChainOrderEnum,
  GetOptionsChainSortEnum,
  GetOptionsEMATimespanEnum,
  GetOptionsMACDTimespanEnum,
  GetOptionsRSITimespanEnum,
  GetOptionsSMATimespanEnum,
  GetSnapshotsTypeEnum,
  GetStocksAggregatesTimespanEnum,
  GetStocksSnapshotDirectionDirectionEnum,
  ListConditionsAssetClassEnum,
  ListExchangesAssetClassEnum,
  ListFinancialsTimeframeEnum,
  ListTickerTypesAssetClassEnum,
  ListTickersMarketEnum,
  restClient,
} from '@massive.com/client-js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { serveCommand, type ServeFlags } from '../../src/cli/serve.js';
import { createDemoKey } from '../../src/cli/demo.js';
import { DEMO_AS_OF, ensureReferenceFacts, loadDemo } from '../../src/demo/load.js';
import { rollDemo } from '../../src/demo/roll.js';
import { lastExtendedSession, nyTime, previousTradingDay } from '../../src/domain/calendar.js';
import { CLIENT_BASE_PATH } from '../../src/server/api-bases.js';
import { parseCorsOrigin } from '../../src/server/hardening.js';
import { loadPlans } from '../../src/server/plans.js';
import { openStore, type Store } from '../../src/store/index.js';

type Rest = ReturnType<typeof restClient>;
/** What a method answers, seen loosely: every body the client parses is a JSON object or array. */
type Body = Record<string, any>;

/** Facts of the loaded demo that the calls' arguments are made of. */
interface Demo {
  /** The last stock session the demo has: the one the server's clock is the evening of. */
  session: string;
  /** The session before it. */
  prevSession: string;
  /** An option contract of AAPL's chain with trades, quotes and greeks. */
  option: string;
  /** A futures contract of the demo's reference data. */
  future: string;
}

interface MethodCase {
  /** The call, with `limit` set by the paging check when the case has `pages`. */
  call(rest: Rest, demo: Demo, limit?: number): Promise<unknown>;
  /** The part of the body that must hold data (default: `results`). */
  data?: (body: Body) => unknown;
  /** The statuses upstream answers this method with (default: OK; the demo key's plan is real-time, never DELAYED). */
  status?: readonly (string | undefined)[];
  /**
   * A paginated method: called at `large` (one page holding every row) with the plain client and
   * at `small` with the paging client, which follows next_url to the end; both give the same rows.
   */
  pages?: { small: number; large: number };
  /** The rows of a page (default: `results`). */
  rows?: (body: Body) => unknown[];
  /**
   * Why the client's paging cannot walk this method, which is then walked by following next_url
   * as the client does (the key appended as &apiKey=).
   */
  clientCannotWalk?: string;
  /** Why a method that pages is not walked: its list holds one row, which no limit splits. */
  singleRow?: string;
}

const OK = ['OK'] as const;
const SUCCESS = ['success'] as const;
const STOCK = 'AAPL';

/** The first day of the indicator series asked for: some hundreds of values, a few pages of them. */
const SERIES_FROM = '2026-01-01';
/** An indicator's case: its rows are `results.values`, walked without the client's paging. */
const INDICATOR = {
  data: (b: Body) => b.results?.values,
  rows: (b: Body) => b.results?.values ?? [],
  pages: { small: 100, large: 5000 },
  clientCannotWalk: "the client's paging spreads `results` as an array; an indicator's is an object ({underlying, values})",
} satisfies Partial<MethodCase>;
/** The same for an option contract, on minute bars: its demo day bars cover days, not years. */
const INDICATOR_OPTION = { ...INDICATOR, pages: { small: 10, large: 5000 } } satisfies Partial<MethodCase>;

/** Every REST method the client has, each called as a user would with arguments from the demo. */
const CASES: Record<string, MethodCase> = {
  // aggregates
  getStocksAggregates: { call: (r, d, limit) => r.getStocksAggregates({ stocksTicker: STOCK, multiplier: 1, timespan: GetStocksAggregatesTimespanEnum.Hour, from: d.prevSession, to: d.session, limit }), pages: { small: 7, large: 50_000 } },
  getCryptoAggregates: { call: (r, d, limit) => r.getCryptoAggregates({ cryptoTicker: 'X:BTCUSD', multiplier: 1, timespan: GetCryptoAggregatesTimespanEnum.Hour, from: d.prevSession, to: d.session, limit }), pages: { small: 10, large: 50_000 } },
  getForexAggregates: { call: (r, d, limit) => r.getForexAggregates({ forexTicker: 'C:EURUSD', multiplier: 1, timespan: GetForexAggregatesTimespanEnum.Hour, from: d.prevSession, to: d.session, limit }), pages: { small: 10, large: 50_000 } },
  getIndicesAggregates: { call: (r, d, limit) => r.getIndicesAggregates({ indicesTicker: 'I:SPX', multiplier: 1, timespan: GetIndicesAggregatesTimespanEnum.Hour, from: d.prevSession, to: d.session, limit }), pages: { small: 5, large: 50_000 } },
  getOptionsAggregates: { call: (r, d, limit) => r.getOptionsAggregates({ optionsTicker: d.option, multiplier: 1, timespan: GetOptionsAggregatesTimespanEnum.Minute, from: d.prevSession, to: d.session, limit }), pages: { small: 5, large: 50_000 } },
  getPreviousStocksAggregates: { call: (r) => r.getPreviousStocksAggregates({ stocksTicker: STOCK }) },
  getPreviousCryptoAggregates: { call: (r) => r.getPreviousCryptoAggregates({ cryptoTicker: 'X:BTCUSD' }) },
  getPreviousForexAggregates: { call: (r) => r.getPreviousForexAggregates({ forexTicker: 'C:EURUSD' }) },
  getPreviousIndicesAggregates: { call: (r) => r.getPreviousIndicesAggregates({ indicesTicker: 'I:SPX' }) },
  getPreviousOptionsAggregates: { call: (r, d) => r.getPreviousOptionsAggregates({ optionsTicker: d.option }) },
  getGroupedStocksAggregates: { call: (r, d) => r.getGroupedStocksAggregates({ date: d.session }) },
  getGroupedCryptoAggregates: { call: (r, d) => r.getGroupedCryptoAggregates({ date: d.prevSession }) },
  getGroupedForexAggregates: { call: (r, d) => r.getGroupedForexAggregates({ date: d.prevSession }) },
  getStocksOpenClose: { call: (r, d) => r.getStocksOpenClose({ stocksTicker: STOCK, date: d.session }), data: (b) => b.close },
  getCryptoOpenClose: { call: (r, d) => r.getCryptoOpenClose({ from: 'BTC', to: 'USD', date: d.prevSession }), data: (b) => b.close, status: [undefined] },
  getIndicesOpenClose: { call: (r, d) => r.getIndicesOpenClose({ indicesTicker: 'I:SPX', date: d.session }), data: (b) => b.close },
  getOptionsOpenClose: { call: (r, d) => r.getOptionsOpenClose({ optionsTicker: d.option, date: d.session }), data: (b) => b.close },

  // indicators
  getStocksSMA: { call: (r, _d, limit) => r.getStocksSMA({ stockTicker: STOCK, window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getStocksEMA: { call: (r, _d, limit) => r.getStocksEMA({ stockTicker: STOCK, window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getStocksRSI: { call: (r, _d, limit) => r.getStocksRSI({ stockTicker: STOCK, window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getStocksMACD: { call: (r, _d, limit) => r.getStocksMACD({ stockTicker: STOCK, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getCryptoSMA: { call: (r, _d, limit) => r.getCryptoSMA({ cryptoTicker: 'X:BTCUSD', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getCryptoEMA: { call: (r, _d, limit) => r.getCryptoEMA({ cryptoTicker: 'X:BTCUSD', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getCryptoRSI: { call: (r, _d, limit) => r.getCryptoRSI({ cryptoTicker: 'X:BTCUSD', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getCryptoMACD: { call: (r, _d, limit) => r.getCryptoMACD({ cryptoTicker: 'X:BTCUSD', timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getForexSMA: { call: (r, _d, limit) => r.getForexSMA({ fxTicker: 'C:EURUSD', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getForexEMA: { call: (r, _d, limit) => r.getForexEMA({ fxTicker: 'C:EURUSD', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getForexRSI: { call: (r, _d, limit) => r.getForexRSI({ fxTicker: 'C:EURUSD', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getForexMACD: { call: (r, _d, limit) => r.getForexMACD({ fxTicker: 'C:EURUSD', timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getIndicesSMA: { call: (r, _d, limit) => r.getIndicesSMA({ indicesTicker: 'I:SPX', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getIndicesEMA: { call: (r, _d, limit) => r.getIndicesEMA({ indicesTicker: 'I:SPX', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getIndicesRSI: { call: (r, _d, limit) => r.getIndicesRSI({ indicesTicker: 'I:SPX', window: 10, timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getIndicesMACD: { call: (r, _d, limit) => r.getIndicesMACD({ indicesTicker: 'I:SPX', timestampGte: SERIES_FROM, limit }), ...INDICATOR },
  getOptionsSMA: { call: (r, d, limit) => r.getOptionsSMA({ optionsTicker: d.option, timespan: GetOptionsSMATimespanEnum.Minute, window: 3, timestampGte: d.prevSession, limit }), ...INDICATOR_OPTION },
  getOptionsEMA: { call: (r, d, limit) => r.getOptionsEMA({ optionsTicker: d.option, timespan: GetOptionsEMATimespanEnum.Minute, window: 3, timestampGte: d.prevSession, limit }), ...INDICATOR_OPTION },
  getOptionsRSI: { call: (r, d, limit) => r.getOptionsRSI({ optionsTicker: d.option, timespan: GetOptionsRSITimespanEnum.Minute, window: 3, timestampGte: d.prevSession, limit }), ...INDICATOR_OPTION },
  getOptionsMACD: { call: (r, d, limit) => r.getOptionsMACD({ optionsTicker: d.option, timespan: GetOptionsMACDTimespanEnum.Minute, shortWindow: 2, longWindow: 4, signalWindow: 2, timestampGte: d.prevSession, limit }), ...INDICATOR_OPTION },

  // trades, quotes, last
  getStocksTrades: { call: (r, d, limit) => r.getStocksTrades({ stockTicker: STOCK, timestamp: d.session, limit }), pages: { small: 500, large: 50_000 } },
  getStocksQuotes: { call: (r, d, limit) => r.getStocksQuotes({ stockTicker: STOCK, timestamp: d.session, limit }), pages: { small: 500, large: 50_000 } },
  getCryptoTrades: { call: (r, d, limit) => r.getCryptoTrades({ cryptoTicker: 'X:BTCUSD', timestamp: d.prevSession, limit }), pages: { small: 500, large: 50_000 } },
  getForexQuotes: { call: (r, d, limit) => r.getForexQuotes({ fxTicker: 'C:EURUSD', timestamp: d.prevSession, limit }), pages: { small: 500, large: 50_000 } },
  getOptionsTrades: { call: (r, d, limit) => r.getOptionsTrades({ optionsTicker: d.option, limit }), pages: { small: 10, large: 50_000 } },
  getOptionsQuotes: { call: (r, d, limit) => r.getOptionsQuotes({ optionsTicker: d.option, limit }), pages: { small: 50, large: 50_000 } },
  getOptionsV3TradesTicker: { call: (r, d, limit) => r.getOptionsV3TradesTicker({ ticker: d.option, limit }), pages: { small: 10, large: 50_000 } },
  getOptionsV3QuotesTicker: { call: (r, d, limit) => r.getOptionsV3QuotesTicker({ ticker: d.option, limit }), pages: { small: 50, large: 50_000 } },
  getStocksDevTradesTicker: { call: (r, d, limit) => r.getStocksDevTradesTicker({ ticker: STOCK, sipTimestamp: d.session, limit }), pages: { small: 500, large: 50_000 } },
  getLastStocksTrade: { call: (r) => r.getLastStocksTrade({ stocksTicker: STOCK }) },
  getLastStocksQuote: { call: (r) => r.getLastStocksQuote({ stocksTicker: STOCK }) },
  getLastOptionsTrade: { call: (r, d) => r.getLastOptionsTrade({ optionsTicker: d.option }) },
  getLastCryptoTrade: { call: (r) => r.getLastCryptoTrade({ from: 'BTC', to: 'USD' }), data: (b) => b.last, status: SUCCESS },
  getLastCurrencyQuote: { call: (r) => r.getLastCurrencyQuote({ from: 'EUR', to: 'USD' }), data: (b) => b.last, status: SUCCESS },
  getCurrencyConversion: { call: (r) => r.getCurrencyConversion({ from: 'EUR', to: 'USD', amount: 100 }), data: (b) => b.converted, status: SUCCESS },
  deprecatedGetHistoricStocksTrades: { call: (r, d) => r.deprecatedGetHistoricStocksTrades({ ticker: STOCK, date: d.session }), status: [undefined] },
  deprecatedGetHistoricStocksQuotes: { call: (r, d) => r.deprecatedGetHistoricStocksQuotes({ ticker: STOCK, date: d.session }), status: [undefined] },
  deprecatedGetHistoricCryptoTrades: { call: (r, d) => r.deprecatedGetHistoricCryptoTrades({ from: 'BTC', to: 'USD', date: d.prevSession }), data: (b) => b.ticks, status: SUCCESS },
  deprecatedGetHistoricForexQuotes: { call: (r, d) => r.deprecatedGetHistoricForexQuotes({ from: 'EUR', to: 'USD', date: d.prevSession }), data: (b) => b.ticks, status: SUCCESS },

  // snapshots
  getStocksSnapshotTickers: { call: (r) => r.getStocksSnapshotTickers({}), data: (b) => b.tickers },
  getStocksSnapshotTicker: { call: (r) => r.getStocksSnapshotTicker({ stocksTicker: STOCK }), data: (b) => b.ticker },
  getStocksSnapshotDirection: { call: (r) => r.getStocksSnapshotDirection({ direction: GetStocksSnapshotDirectionDirectionEnum.Gainers }), data: (b) => b.tickers },
  getCryptoSnapshotTickers: { call: (r) => r.getCryptoSnapshotTickers({}), data: (b) => b.tickers },
  getCryptoSnapshotTicker: { call: (r) => r.getCryptoSnapshotTicker({ ticker: 'X:BTCUSD' }), data: (b) => b.ticker },
  getCryptoSnapshotDirection: { call: (r) => r.getCryptoSnapshotDirection({ direction: GetCryptoSnapshotDirectionDirectionEnum.Gainers }), data: (b) => b.tickers },
  getForexSnapshotTickers: { call: (r) => r.getForexSnapshotTickers({}), data: (b) => b.tickers },
  getForexSnapshotTicker: { call: (r) => r.getForexSnapshotTicker({ ticker: 'C:EURUSD' }), data: (b) => b.ticker },
  getForexSnapshotDirection: { call: (r) => r.getForexSnapshotDirection({ direction: GetForexSnapshotDirectionDirectionEnum.Gainers }), data: (b) => b.tickers },
  getIndicesSnapshot: { call: (r, _d, limit) => r.getIndicesSnapshot({ limit }), pages: { small: 20, large: 250 } },
  getOptionsChain: { call: (r, _d, limit) => r.getOptionsChain({ underlyingAsset: STOCK, limit }), pages: { small: 100, large: 250 } },
  getOptionContract: { call: (r, d) => r.getOptionContract({ underlyingAsset: STOCK, optionContract: d.option }) },
  getSnapshots: { call: (r, _d, limit) => r.getSnapshots({ type: GetSnapshotsTypeEnum.Fx, limit }), pages: { small: 5, large: 250 } },
  deprecatedGetCryptoSnapshotTickerBook: { call: (r) => r.deprecatedGetCryptoSnapshotTickerBook({ ticker: 'X:BTCUSD' }), data: (b) => b.data?.bids },
  getSnapshotSummary: { call: (r, d) => r.getSnapshotSummary({ tickerAnyOf: `${STOCK},X:BTCUSD,C:EURUSD,I:SPX,${d.option}` }) },

  // reference
  listTickers: { call: (r, _d, limit) => r.listTickers({ market: ListTickersMarketEnum.Crypto, limit }), pages: { small: 50, large: 1000 } },
  getTicker: { call: (r) => r.getTicker({ ticker: STOCK }) },
  listTickerTypes: { call: (r) => r.listTickerTypes({ assetClass: ListTickerTypesAssetClassEnum.Stocks }) },
  getEvents: { call: (r) => r.getEvents({ id: STOCK }), data: (b) => b.results?.events },
  listExchanges: { call: (r) => r.listExchanges({ assetClass: ListExchangesAssetClassEnum.Stocks }) },
  listConditions: { call: (r, _d, limit) => r.listConditions({ assetClass: ListConditionsAssetClassEnum.Stocks, limit }), pages: { small: 10, large: 1000 } },
  getMarketStatus: { call: (r) => r.getMarketStatus(), data: (b) => b.market, status: [undefined] },
  getMarketHolidays: { call: (r) => r.getMarketHolidays(), data: (b) => b, status: [undefined] },
  listNews: { call: (r, _d, limit) => r.listNews({ ticker: STOCK, limit }), pages: { small: 20, large: 1000 } },
  listDividends: { call: (r, _d, limit) => r.listDividends({ ticker: STOCK, limit }), pages: { small: 5, large: 1000 } },
  listStockSplits: { call: (r, _d, limit) => r.listStockSplits({ limit }), pages: { small: 2, large: 1000 } },
  listFinancials: { call: (r, _d, limit) => r.listFinancials({ ticker: STOCK, timeframe: ListFinancialsTimeframeEnum.Annual, limit }), pages: { small: 2, large: 100 } },
  listOptionsContracts: { call: (r, _d, limit) => r.listOptionsContracts({ underlyingTicker: STOCK, limit }), pages: { small: 100, large: 1000 } },
  getOptionsContract: { call: (r, d) => r.getOptionsContract({ optionsTicker: d.option }) },
  getRelatedCompanies: { call: (r) => r.getRelatedCompanies({ ticker: STOCK }) },
  listIPOs: { call: (r, _d, limit) => r.listIPOs({ limit }), pages: { small: 5, large: 1000 } },
  getV1ReferenceIpos: { call: (r, _d, limit) => r.getV1ReferenceIpos({ limit }), pages: { small: 5, large: 1000 } },
  getStocksV1Exchanges: { call: (r, _d, limit) => r.getStocksV1Exchanges({ limit }), pages: { small: 10, large: 1000 } },
  getOptionsV1Exchanges: { call: (r, _d, limit) => r.getOptionsV1Exchanges({ limit }), pages: { small: 3, large: 1000 } },
  getCryptoV1Exchanges: { call: (r, _d, limit) => r.getCryptoV1Exchanges({ limit }), pages: { small: 2, large: 1000 } },
  getForexV1Exchanges: { call: (r) => r.getForexV1Exchanges({}), singleRow: 'upstream knows one currency venue, and so does the demo' },

  // corporate actions and fundamentals
  getStocksV1Dividends: { call: (r, _d, limit) => r.getStocksV1Dividends({ ticker: STOCK, limit }), pages: { small: 5, large: 5000 } },
  getStocksV1Splits: { call: (r, _d, limit) => r.getStocksV1Splits({ limit }), pages: { small: 2, large: 5000 } },
  getStocksV1ShortInterest: { call: (r, _d, limit) => r.getStocksV1ShortInterest({ ticker: STOCK, limit }), pages: { small: 5, large: 50_000 } },
  getStocksV1ShortVolume: { call: (r, _d, limit) => r.getStocksV1ShortVolume({ ticker: STOCK, limit }), pages: { small: 20, large: 50_000 } },
  getStocksVXFloat: { call: (r, _d, limit) => r.getStocksVXFloat({ tickerGte: 'A', tickerLt: 'B', limit }), pages: { small: 5, large: 5000 } },
  getStocksFinancialsV1BalanceSheets: { call: (r, _d, limit) => r.getStocksFinancialsV1BalanceSheets({ tickers: STOCK, limit }), pages: { small: 3, large: 50_000 } },
  getStocksFinancialsV1IncomeStatements: { call: (r, _d, limit) => r.getStocksFinancialsV1IncomeStatements({ tickers: STOCK, limit }), pages: { small: 3, large: 50_000 } },
  getStocksFinancialsV1CashFlowStatements: { call: (r, _d, limit) => r.getStocksFinancialsV1CashFlowStatements({ tickers: STOCK, limit }), pages: { small: 3, large: 50_000 } },
  getStocksFinancialsV1Ratios: { call: (r, _d, limit) => r.getStocksFinancialsV1Ratios({ limit }), pages: { small: 10, large: 50_000 } },

  // filings and taxonomies
  getStocksFilingsVXIndex: { call: (r, _d, limit) => r.getStocksFilingsVXIndex({ ticker: STOCK, limit }), pages: { small: 3, large: 50_000 } },
  getStocksFilings10KVXSections: { call: (r, _d, limit) => r.getStocksFilings10KVXSections({ ticker: STOCK, limit }), pages: { small: 1, large: 99 } },
  getStocksFilings10KVX0Sections: { call: (r, _d, limit) => r.getStocksFilings10KVX0Sections({ ticker: STOCK, limit }), pages: { small: 1, large: 99 } },
  getStocksFilings8KVXText: { call: (r, _d, limit) => r.getStocksFilings8KVXText({ ticker: STOCK, limit }), pages: { small: 1, large: 99 } },
  getStocksFilingsVX13F: { call: (r, _d, limit) => r.getStocksFilingsVX13F({ limit }), pages: { small: 5, large: 1000 } },
  getStocksFilingsVXForm3: { call: (r, _d, limit) => r.getStocksFilingsVXForm3({ tickers: STOCK, limit }), pages: { small: 1, large: 10_000 } },
  getStocksFilingsVXForm4: { call: (r, _d, limit) => r.getStocksFilingsVXForm4({ tickers: STOCK, limit }), pages: { small: 2, large: 10_000 } },
  getStocksFilingsVXRiskFactors: { call: (r, _d, limit) => r.getStocksFilingsVXRiskFactors({ ticker: STOCK, limit }), pages: { small: 20, large: 49_999 } },
  getStocksTaxonomiesVXRiskFactors: { call: (r, _d, limit) => r.getStocksTaxonomiesVXRiskFactors({ limit }), pages: { small: 20, large: 999 } },
  getStocksFilings8KVXDisclosures: { call: (r, _d, limit) => r.getStocksFilings8KVXDisclosures({ tickers: STOCK, limit }), pages: { small: 1, large: 1000 } },
  getStocksTaxonomiesVXDisclosures: { call: (r, _d, limit) => r.getStocksTaxonomiesVXDisclosures({ limit }), pages: { small: 3, large: 1000 } },

  // economy
  getFedV1TreasuryYields: { call: (r, _d, limit) => r.getFedV1TreasuryYields({ dateGte: '2026-01-01', limit }), pages: { small: 50, large: 50_000 } },
  getFedV1Inflation: { call: (r, _d, limit) => r.getFedV1Inflation({ limit }), pages: { small: 10, large: 50_000 } },
  getFedV1InflationExpectations: { call: (r, _d, limit) => r.getFedV1InflationExpectations({ limit }), pages: { small: 10, large: 50_000 } },
  getFedV1LaborMarket: { call: (r, _d, limit) => r.getFedV1LaborMarket({ limit }), pages: { small: 10, large: 50_000 } },
  getFedV1FundingConditions: { call: (r, _d, limit) => r.getFedV1FundingConditions({ limit }), pages: { small: 10, large: 50_000 } },

  // partner data sets
  getBenzingaV1Ratings: { call: (r, _d, limit) => r.getBenzingaV1Ratings({ limit }), pages: { small: 5, large: 50_000 } },
  getBenzingaV1AnalystInsights: { call: (r, _d, limit) => r.getBenzingaV1AnalystInsights({ limit }), pages: { small: 5, large: 50_000 } },
  getBenzingaV1Analysts: { call: (r, _d, limit) => r.getBenzingaV1Analysts({ limit }), pages: { small: 5, large: 50_000 } },
  getBenzingaV1Firms: { call: (r, _d, limit) => r.getBenzingaV1Firms({ limit }), pages: { small: 2, large: 50_000 } },
  getBenzingaV1BullsBearsSay: { call: (r, _d, limit) => r.getBenzingaV1BullsBearsSay({ limit }), pages: { small: 5, large: 5000 } },
  getBenzingaV1ConsensusRatingsTicker: { call: (r) => r.getBenzingaV1ConsensusRatingsTicker({ ticker: STOCK }) },
  getBenzingaV1Earnings: { call: (r, _d, limit) => r.getBenzingaV1Earnings({ limit }), pages: { small: 5, large: 50_000 } },
  getBenzingaV1Guidance: { call: (r, _d, limit) => r.getBenzingaV1Guidance({ limit }), pages: { small: 5, large: 50_000 } },
  getBenzingaV2News: { call: (r, _d, limit) => r.getBenzingaV2News({ limit }), pages: { small: 5, large: 50_000 } },
  getEtfGlobalV1Profiles: { call: (r, _d, limit) => r.getEtfGlobalV1Profiles({ limit }), pages: { small: 1, large: 5000 } },
  getEtfGlobalV1Analytics: { call: (r, _d, limit) => r.getEtfGlobalV1Analytics({ limit }), pages: { small: 1, large: 5000 } },
  getEtfGlobalV1Constituents: { call: (r, _d, limit) => r.getEtfGlobalV1Constituents({ limit }), pages: { small: 5, large: 5000 } },
  getEtfGlobalV1FundFlows: { call: (r, _d, limit) => r.getEtfGlobalV1FundFlows({ limit }), pages: { small: 5, large: 5000 } },
  getEtfGlobalV1Taxonomies: { call: (r, _d, limit) => r.getEtfGlobalV1Taxonomies({ limit }), pages: { small: 1, large: 5000 } },
  getTmxV1CorporateEvents: { call: (r, _d, limit) => r.getTmxV1CorporateEvents({ limit }), pages: { small: 5, large: 50_000 } },
  getConsumerSpendingEuV1MerchantAggregates: { call: (r, _d, limit) => r.getConsumerSpendingEuV1MerchantAggregates({ limit }), pages: { small: 5, large: 5000 } },
  getConsumerSpendingEuV1MerchantHierarchy: { call: (r, _d, limit) => r.getConsumerSpendingEuV1MerchantHierarchy({ limit }), pages: { small: 1, large: 50_000 } },

  // futures reference and market status
  getFuturesV1Products: { call: (r, _d, limit) => r.getFuturesV1Products({ limit }), pages: { small: 2, large: 1000 } },
  getFuturesV1Contracts: { call: (r, _d, limit) => r.getFuturesV1Contracts({ limit }), pages: { small: 5, large: 1000 } },
  getFuturesV1Schedules: { call: (r, _d, limit) => r.getFuturesV1Schedules({ limit }), pages: { small: 20, large: 1000 } },
  getFuturesV1Exchanges: { call: (r, _d, limit) => r.getFuturesV1Exchanges({ limit }), pages: { small: 2, large: 999 } },
  getFuturesV1MarketStatus: { call: (r, _d, limit) => r.getFuturesV1MarketStatus({ limit }), pages: { small: 2, large: 99 } },
  // futures market data of the demo's front ES contract
  aggregatesV1: { call: (r, d, limit) => r.aggregatesV1({ ticker: d.future, resolution: '1hour', limit }), pages: { small: 5, large: 5000 } },
  getFuturesV1TradesTicker: { call: (r, d, limit) => r.getFuturesV1TradesTicker({ ticker: d.future, limit }), pages: { small: 200, large: 50_000 } },
  getFuturesV1QuotesTicker: { call: (r, d, limit) => r.getFuturesV1QuotesTicker({ ticker: d.future, limit }), pages: { small: 200, large: 50_000 } },
  getFuturesV1Snapshot: { call: (r, _d, limit) => r.getFuturesV1Snapshot({ limit }), pages: { small: 3, large: 1000 } },
};

/**
 * Own properties of the client that are its transport and settings, not groups of API methods:
 * the axios instance (itself callable) and the Configuration (whose helpers are not requests).
 */
const PLUMBING = new Set(['axios', 'configuration']);

/** The REST methods of a client object: functions of its class, and those of nested groups as `group.method`. */
function restMethods(target: object, prefix = ''): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(target); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function') names.add(prefix + name);
    }
  }
  for (const [name, value] of Object.entries(target)) {
    if (PLUMBING.has(name)) continue;
    if (typeof value === 'function') names.add(prefix + name);
    else if (value && typeof value === 'object') for (const nested of restMethods(value, `${prefix}${name}.`)) names.add(nested);
  }
  return [...names].sort();
}

/**
 * The demo session the server's clock is the evening of: a Thursday, the session before the demo's
 * default one, so that forex (which stops on Friday at 17:00 New York) is trading too and every
 * market's snapshot of the day has data.
 */
const SESSION = previousTradingDay(DEMO_AS_OF);

/** Rows as canonical strings in a stable order: the client joins pages in an order of its own. */
const canonical = (rows: unknown[]): string[] => rows.map((r) => JSON.stringify(r)).sort();

function expectData(name: string, c: MethodCase, body: Body): void {
  expect(c.status ?? OK, `${name}: status`).toContain(body.status);
  // the demo plan is real-time with full history: nothing is cut, so no body says it was
  expect(body.notice, `${name}: notice`).toBeUndefined();
  const data = (c.data ?? ((b: Body) => b.results))(body);
  expect(data, `${name}: data`).toBeTruthy();
  if (Array.isArray(data)) expect(data.length, `${name}: rows`).toBeGreaterThan(0);
  else if (typeof data === 'object') expect(Object.keys(data as object).length, `${name}: fields`).toBeGreaterThan(0);
}

/**
 * Indicator values of a walk and of one large page: the same timestamps, each value equal to within
 * 1e-4 of the field's largest size over the series (or of 1). Each page is computed from a lookback
 * of bars before it, after which an EMA's (and so RSI's and MACD's) seed is forgotten to within
 * e^-10 (≈ 5e-5) of the distance between seed and value, not exactly: pages that start elsewhere
 * differ in the lower digits. That distance is of the order of the series' values, not of one
 * value: a MACD line crossing zero is small beside the seed's error.
 */
function expectSameSeries(walked: unknown[], all: unknown[]): void {
  const byTime = (rows: unknown[]) => new Map((rows as Record<string, number>[]).map((r) => [r.timestamp, r]));
  const a = byTime(walked);
  const b = byTime(all);
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  expect(a.size).toBe(walked.length);
  const largest = new Map<string, number>();
  for (const row of b.values()) for (const [field, v] of Object.entries(row)) largest.set(field, Math.max(largest.get(field) ?? 1, Math.abs(v)));
  for (const [t, row] of a) {
    const other = b.get(t)!;
    expect(Object.keys(row).sort()).toEqual(Object.keys(other).sort());
    for (const [field, v] of Object.entries(row)) expect(Math.abs(v - other[field]!), `${field} at ${t}: ${v} vs ${other[field]}`).toBeLessThanOrEqual(1e-4 * largest.get(field)!);
  }
}

/** The upstream-shaped error an axios rejection carries, or the value when the call succeeded. */
async function outcome(p: Promise<unknown>): Promise<{ status: number; body: Body }> {
  try {
    return { status: 200, body: (await p) as Body };
  } catch (err) {
    const res = (err as { response?: { status: number; data: Body } }).response;
    if (!res) throw err;
    return { status: res.status, body: res.data };
  }
}

/** A route of the server's OpenAPI document as Fastify spells it under a prefix: {name} → :name. */
const fastifyRoute = (path: string): string => `${CLIENT_BASE_PATH}${path.replace(/\{([^}]+)\}/g, ':$1')}`;

describe('@massive.com/client-js: every REST method on a default server (sqlite, full demo)', () => {
  let dir: string;
  let store: Store;
  let app: FastifyInstance;
  let base: string;
  let key: string;
  let demo: Demo;
  /** The routes (Fastify's patterns) the server matched, in order. */
  const routes: string[] = [];
  /** Routes that take a cursor, i.e. answer in pages. */
  const pagedRoutes = new Set<string>();
  const client = (pagination = false): Rest => restClient(key, `${base}${CLIENT_BASE_PATH}`, { pagination });

  /** Every page after `first`, following next_url as the client does. */
  async function laterPages(first: Body): Promise<Body[]> {
    const pages: Body[] = [];
    for (let url = first.next_url as string | undefined; url; url = pages.at(-1)!.next_url) {
      const res = await fetch(`${url}&apiKey=${key}`);
      expect(res.status, url).toBe(200);
      pages.push((await res.json()) as Body);
    }
    return pages;
  }

  beforeAll(async () => {
    // what `serve` does with no flags on the first start of an empty data directory, less what the
    // REST client never meets: the dashboard, the WebSocket feed and the live demo tape on it (whose
    // ticks, stored as they are published, would make the answers depend on the moment)
    const flags = serveCommand().opts() as ServeFlags;
    const nowMs = nyTime(SESSION, '20:30');
    dir = mkdtempSync(join(tmpdir(), 'tb-every-method-'));
    const brandingDir = join(dir, 'branding');
    store = await openStore({ dataDir: dir });
    await loadDemo(store, { asOf: lastExtendedSession(nowMs), brandingDir });
    key = await createDemoKey(store, dir);
    await rollDemo(store, { nowMs, log: () => {} });
    await ensureReferenceFacts(store);
    app = await buildApp({
      store,
      now: () => nowMs,
      config: { envelope: flags.envelope, publicUrl: flags.publicUrl, trustProxy: flags.trustProxy, brandingDir, riskFreeRate: flags.riskFreeRate, responseCacheEntries: flags.responseCache },
      production: { plans: loadPlans(flags.plans), rateLimitFail: flags.rateLimitFail, hardening: { corsOrigin: parseCorsOrigin(flags.corsOrigin) } },
    });
    app.addHook('onRequest', async (req) => {
      routes.push(req.routeOptions.url ?? req.url);
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> };
    for (const [path, item] of Object.entries(doc.paths)) if (item.get?.parameters?.some((p) => p.name === 'cursor')) pagedRoutes.add(fastifyRoute(path));

    const session = lastExtendedSession(nowMs);
    const chain = await client().getOptionsChain({ underlyingAsset: STOCK, limit: 250, order: GetOptionsChainOrderEnum.Desc, sort: GetOptionsChainSortEnum.ExpirationDate });
    const option = chain.results?.find((c) => c.last_trade && c.last_quote && c.greeks)?.details?.ticker;
    // the ES contract the demo has trades and quotes for (the front one on the demo date)
    const traded = (await client().getFuturesV1Snapshot({ productCode: 'ES' })).results?.find((c) => c.last_trade && c.last_quote);
    const future = traded?.details?.ticker;
    if (!option || !future) throw new Error('the demo has no traded AAPL option contract or no traded ES futures contract');
    demo = { session, prevSession: previousTradingDay(session), option, future };
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('covers every REST method the client has: each has a case', () => {
    const methods = restMethods(client());
    expect(methods.length).toBeGreaterThan(100);
    expect(Object.keys(CASES).sort()).toEqual(methods);
  });

  for (const [name, c] of Object.entries(CASES)) {
    it(`${name} returns data${c.pages ? ', every page of it' : ''}`, async () => {
      routes.length = 0;
      const res = await outcome(c.call(client(), demo, c.pages?.large));
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expectData(name, c, res.body);
      expect(routes).toHaveLength(1);
      expect(!!(c.pages || c.singleRow), `${name} answers in pages (${routes[0]}): its case must walk them`).toBe(pagedRoutes.has(routes[0]!));
      if (!c.pages) return;

      // one large page holds every row; a walk at a small limit takes several pages and gives the same rows
      const rowsOf = c.rows ?? ((b: Body) => b.results as unknown[]);
      expect(res.body.next_url, `${name}: the large page holds every row`).toBeUndefined();
      routes.length = 0;
      let walked: unknown[];
      if (c.clientCannotWalk) {
        // the day a client upgrade walks it, this fails: drop clientCannotWalk from the case
        await expect(c.call(client(true), demo, c.pages.small), `${name}: the client's paging`).rejects.toThrow(TypeError);
        routes.length = 0;
        const first = await outcome(c.call(client(), demo, c.pages.small));
        expect(first.status).toBe(200);
        walked = [first.body, ...(await laterPages(first.body))].flatMap(rowsOf);
      } else {
        const joined = await outcome(c.call(client(true), demo, c.pages.small));
        expect(joined.status, `${name}: ${JSON.stringify(joined.body)}`).toBe(200);
        walked = rowsOf(joined.body);
      }
      expect(routes.length, `${name}: pages walked`).toBeGreaterThan(1);
      if (c.clientCannotWalk) expectSameSeries(walked, rowsOf(res.body));
      else expect(canonical(walked)).toEqual(canonical(rowsOf(res.body)));
    });
  }

});
