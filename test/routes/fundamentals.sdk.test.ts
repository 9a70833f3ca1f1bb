import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { SPLIT_ROWS, seedCorporateActions, seedEconomy, seedFilings, seedFundamentals } from '../helpers/datasets-fixture.js';
import { useNativeServer } from '../helpers/app-fixture.js';

// The official client, unmodified, against a native-mode server on a free port: corporate
// actions (both families), fundamentals, filings and economy.
for (const engine of engines()) {
  describe(`@massive.com/client-js on the new-style data sets (${engine.name})`, () => {
    const { server } = useNativeServer(engine, async (store) => {
      await seedCorporateActions(store);
      await seedFundamentals(store);
      await seedFilings(store);
      await seedEconomy(store);
    });

    it('getStocksV1Splits and getStocksV1Dividends, with filters and pagination', async () => {
      const rest = server.client();
      const splits = await rest.getStocksV1Splits({ tickerAnyOf: 'AAPL,GE', sort: 'execution_date.asc' });
      expect(splits.status).toBe('OK');
      expect(splits.results?.map((s) => s.execution_date)).toEqual(['2005-02-28', '2014-06-09', '2020-08-31', '2021-08-02']);
      expect(splits.results?.[3]?.adjustment_type).toBe('reverse_split');
      const paged = await server.client({ pagination: true }).getStocksV1Splits({ limit: 2 });
      expect(new Set(paged.results?.map((s) => s.id))).toHaveLength(SPLIT_ROWS.length);
      const dividends = await rest.getStocksV1Dividends({ ticker: 'AAPL', exDividendDateGte: '2025-01-01', sort: 'ex_dividend_date.desc' });
      expect(dividends.results?.map((d) => d.cash_amount)).toEqual([0.26, 0.26]);
      expect(dividends.results?.[0]?.historical_adjustment_factor).toBe(0.997899);
    });

    it('listDividends and listStockSplits (v3)', async () => {
      const rest = server.client();
      const dividends = await rest.listDividends({ ticker: 'KO', order: 'asc' as never, sort: 'ex_dividend_date' as never });
      expect(dividends.results?.map((d) => d.dividend_type)).toEqual(['SC', 'CD']);
      const splits = await rest.listStockSplits({ reverseSplit: true });
      expect(splits.results?.map((s) => s.ticker)).toEqual(['GE']);
      const all = await server.client({ pagination: true }).listStockSplits({ limit: 4 });
      expect(all.results).toHaveLength(SPLIT_ROWS.length);
    });

    it('the three statements, with array and range filters', async () => {
      const rest = server.client();
      const bs = await rest.getStocksFinancialsV1BalanceSheets({ tickersAllOf: 'GOOG,GOOGL', timeframe: 'quarterly', periodEndGte: '2025-01-01' });
      expect(bs.results?.map((r) => r.period_end)).toEqual(['2025-03-31', '2025-06-30']);
      expect(bs.results?.[0]?.tickers).toEqual(['GOOG', 'GOOGL']);
      const is = await rest.getStocksFinancialsV1IncomeStatements({ cik: '320193', timeframe: 'annual' });
      expect(is.results?.map((r) => r.revenue)).toEqual([406e9]);
      const cf = await rest.getStocksFinancialsV1CashFlowStatements({ timeframeAnyOf: 'trailing_twelve_months', sort: 'cik.desc' });
      expect(cf.results?.map((r) => r.cik)).toEqual(['0001652044', '0001067983', '0000320193']);
    });

    it('ratios, float, short interest and short volume', async () => {
      const rest = server.client();
      const ratios = await rest.getStocksFinancialsV1Ratios({ priceToEarningsLt: 40 });
      expect(ratios.results?.map((r) => r.ticker)).toEqual(['AAPL', 'KO']);
      const float = await rest.getStocksVXFloat({ freeFloatPercentGte: 80 });
      expect(float.results?.map((r) => r.ticker)).toEqual(['AAPL', 'META']);
      const si = await rest.getStocksV1ShortInterest({ ticker: 'TSLA', sort: 'settlement_date.desc', limit: 1 });
      expect(si.results?.[0]).toMatchObject({ ticker: 'TSLA', settlement_date: '2025-10-31' });
      expect(si.next_url).toMatch(/\?cursor=/);
      const sv = await rest.getStocksV1ShortVolume({ date: '2025-11-20' });
      expect(sv.results?.map((r) => r.ticker)).toEqual(['AAPL', 'TSLA']);
    });

    it('risk factors and their taxonomy', async () => {
      const rest = server.client();
      const factors = await rest.getStocksFilingsVXRiskFactors({ ticker: 'AAPL' });
      expect(factors.results?.map((r) => r.filing_date)).toEqual(['2025-10-31', '2025-10-31', '2024-11-01']);
      const taxonomy = await rest.getStocksTaxonomiesVXRiskFactors({ primaryCategory: 'operational' });
      expect(taxonomy.results?.map((r) => r.taxonomy)).toEqual([1.1, 1]);
    });

    it('inflation, expectations and treasury yields', async () => {
      const rest = server.client();
      const inflation = await rest.getFedV1Inflation({ dateGte: '2025-05-01' });
      expect(inflation.results?.map((r) => r.date)).toEqual(['2025-05-01', '2025-06-01']);
      const expectations = await rest.getFedV1InflationExpectations({ sort: 'date.desc', limit: 1 });
      expect(expectations.results?.[0]?.date).toBe('2025-06-01');
      const yields = await server.client({ pagination: true }).getFedV1TreasuryYields({ limit: 2 });
      expect(yields.results).toHaveLength(5);
    });
  });
}
