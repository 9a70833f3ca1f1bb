import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFundamentals, demoStart, loadFundamentals, type FundamentalsDemo } from '../../src/demo/fundamentals.js';
import { DEMO_SPLITS } from '../../src/demo/market.js';
import { buildFilingsEconomyDemo } from '../../src/demo/filings-economy.js';
import { buildFuturesReferenceDemo } from '../../src/demo/futures.js';
import { listingsDemoStep } from '../../src/demo/listings.js';
import { loadPartnerDemo, upsertSets } from '../../src/demo/partner.js';
import { REAL_STOCK_SYMBOLS } from '../../src/demo/universe.js';
import { nyMidnight, tradingDaysBetween } from '../../src/domain/calendar.js';
import type { Store } from '../../src/store/index.js';
import { DIVIDENDS, SPLITS } from '../../src/store/repos/corporate-actions.js';
import { DATASET_DECLARATIONS } from '../../src/store/repos/dataset-catalog.js';
import type { DatasetRecord } from '../../src/store/repos/datasets.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';
const n = (r: DatasetRecord, f: string) => (r[f] === undefined ? 0 : Number(r[f]));
const sumOf = (r: DatasetRecord, fields: string[]) => fields.reduce((a, f) => a + n(r, f), 0);
const filerKey = (r: DatasetRecord) => String(r.cik);

describe('fundamentals demo data (built without market bars)', () => {
  let store: Store;
  let d: FundamentalsDemo;
  beforeAll(async () => {
    store = await engines()[0]!.open();
    d = await buildFundamentals(store, { asOf: AS_OF });
  });
  afterAll(async () => store.close());

  it('covers the real-name operating companies with quarterly, annual and TTM statements', () => {
    const tickers = new Set(d.income.flatMap((r) => r.tickers as string[]));
    for (const t of ['AAPL', 'MSFT', 'NVDA', 'GOOG', 'GOOGL', 'JPM', 'KO']) expect(tickers).toContain(t);
    expect([...tickers].every((t) => REAL_STOCK_SYMBOLS.includes(t))).toBe(true);
    for (const tf of ['quarterly', 'annual', 'trailing_twelve_months']) expect(d.income.some((r) => r.timeframe === tf)).toBe(true);
    expect(d.balance.some((r) => r.timeframe === 'trailing_twelve_months')).toBe(false);
    // only what was filed by the as-of date, within the five demo years
    expect(d.income.every((r) => String(r.filing_date) <= AS_OF && String(r.period_end) > demoStart(AS_OF))).toBe(true);
  });

  it('balance sheets balance and every subtotal is the sum of its lines', () => {
    for (const r of d.balance) {
      expect(n(r, 'total_assets')).toBe(n(r, 'total_liabilities') + n(r, 'total_equity'));
      expect(n(r, 'total_liabilities_and_equity')).toBe(n(r, 'total_assets'));
      expect(n(r, 'total_current_assets')).toBe(sumOf(r, ['cash_and_equivalents', 'short_term_investments', 'receivables', 'inventories', 'other_current_assets']));
      expect(n(r, 'total_assets')).toBe(sumOf(r, ['total_current_assets', 'property_plant_equipment_net', 'goodwill', 'intangible_assets_net', 'other_assets']));
      expect(n(r, 'total_current_liabilities')).toBe(sumOf(r, ['accounts_payable', 'accrued_and_other_current_liabilities', 'debt_current', 'deferred_revenue_current']));
      expect(n(r, 'total_liabilities')).toBe(sumOf(r, ['total_current_liabilities', 'long_term_debt_and_capital_lease_obligations', 'other_noncurrent_liabilities']));
      expect(n(r, 'total_equity_attributable_to_parent')).toBe(sumOf(r, ['preferred_stock', 'common_stock', 'additional_paid_in_capital', 'retained_earnings_deficit', 'accumulated_other_comprehensive_income', 'treasury_stock', 'other_equity']));
      expect(n(r, 'total_equity')).toBe(n(r, 'total_equity_attributable_to_parent') + n(r, 'noncontrolling_interest'));
      expect(n(r, 'cash_and_equivalents')).toBeGreaterThan(0);
    }
  });

  it('cash flows add up, and the change in cash is the change of the balance sheet cash', () => {
    for (const r of d.cashFlow) {
      expect(n(r, 'change_in_cash_and_equivalents')).toBe(sumOf(r, ['net_cash_from_operating_activities', 'net_cash_from_investing_activities', 'net_cash_from_financing_activities', 'effect_of_currency_exchange_rate']));
      expect(n(r, 'net_cash_from_operating_activities')).toBe(sumOf(r, ['net_income', 'depreciation_depletion_and_amortization', 'change_in_other_operating_assets_and_liabilities_net', 'other_operating_activities']));
      expect(n(r, 'net_cash_from_investing_activities')).toBe(sumOf(r, ['purchase_of_property_plant_and_equipment', 'sale_of_property_plant_and_equipment', 'other_investing_activities']));
      expect(n(r, 'net_cash_from_financing_activities')).toBe(sumOf(r, ['short_term_debt_issuances_repayments', 'long_term_debt_issuances_repayments', 'dividends', 'other_financing_activities']));
    }
    const byFiler = new Map<string, { bs: DatasetRecord[]; cf: DatasetRecord[] }>();
    for (const r of d.balance.filter((x) => x.timeframe === 'quarterly')) (byFiler.get(filerKey(r)) ?? byFiler.set(filerKey(r), { bs: [], cf: [] }).get(filerKey(r))!).bs.push(r);
    for (const r of d.cashFlow.filter((x) => x.timeframe === 'quarterly')) byFiler.get(filerKey(r))!.cf.push(r);
    for (const { bs, cf } of byFiler.values()) {
      for (let i = 1; i < bs.length; i++) expect(n(bs[i]!, 'cash_and_equivalents') - n(bs[i - 1]!, 'cash_and_equivalents')).toBe(n(cf[i]!, 'change_in_cash_and_equivalents'));
    }
  });

  it('income statements add up; annual and TTM rows are the sums of their four quarters', () => {
    for (const r of d.income) {
      expect(n(r, 'gross_profit')).toBe(n(r, 'revenue') - n(r, 'cost_of_revenue'));
      expect(n(r, 'operating_income')).toBe(n(r, 'gross_profit') - n(r, 'total_operating_expenses'));
      expect(n(r, 'income_before_income_taxes')).toBe(n(r, 'operating_income') + n(r, 'total_other_income_expense'));
      expect(n(r, 'consolidated_net_income_loss')).toBe(n(r, 'income_before_income_taxes') - n(r, 'income_taxes'));
      expect(n(r, 'diluted_earnings_per_share')).toBeCloseTo(n(r, 'net_income_loss_attributable_common_shareholders') / n(r, 'diluted_shares_outstanding'), 2);
    }
    const aaplQuarters = d.income.filter((r) => r.cik === '0000320193' && r.timeframe === 'quarterly');
    for (const agg of d.income.filter((r) => r.cik === '0000320193' && r.timeframe !== 'quarterly')) {
      const at = aaplQuarters.findIndex((q) => q.period_end === agg.period_end);
      const four = aaplQuarters.slice(at - 3, at + 1);
      expect(four).toHaveLength(4);
      expect(n(agg, 'revenue')).toBe(four.reduce((a, q) => a + n(q, 'revenue'), 0));
      expect(agg.fiscal_quarter).toBeUndefined();
      if (agg.timeframe === 'annual') expect(four.map((q) => q.fiscal_quarter)).toEqual([1, 2, 3, 4]);
    }
    const annualBs = d.balance.filter((r) => r.timeframe === 'annual');
    for (const a of annualBs) {
      const q4 = d.balance.find((r) => r.cik === a.cik && r.period_end === a.period_end && r.timeframe === 'quarterly')!;
      expect(q4.fiscal_quarter).toBe(4);
      expect(a.total_assets).toBe(q4.total_assets);
    }
  });

  it('follows each company\'s fiscal calendar and reports as-filed share counts around splits', () => {
    const aapl = d.income.filter((r) => r.cik === '0000320193' && r.timeframe === 'quarterly');
    expect(aapl.find((r) => r.period_end === '2025-09-30')).toMatchObject({ fiscal_year: 2025, fiscal_quarter: 4 });
    expect(aapl.find((r) => r.period_end === '2025-12-31')).toMatchObject({ fiscal_year: 2026, fiscal_quarter: 1 });
    const nvda = d.income.filter((r) => r.cik === '0001045810' && r.timeframe === 'quarterly');
    const before = nvda.find((r) => r.period_end === '2024-04-30')!;
    const after = nvda.find((r) => r.period_end === '2024-07-31')!;
    expect(before).toMatchObject({ fiscal_year: 2025, fiscal_quarter: 1 });
    expect(n(after, 'basic_shares_outstanding') / n(before, 'basic_shares_outstanding')).toBeCloseTo(10, 0);
  });

  it('derives ratios from the latest statements and the price', () => {
    expect(new Set(d.ratios.map((r) => r.ticker)).size).toBe(d.ratios.length);
    for (const r of d.ratios) {
      expect(r.date).toBe(AS_OF);
      if (r.price_to_earnings !== undefined) expect(n(r, 'price_to_earnings')).toBeCloseTo(n(r, 'price') / n(r, 'earnings_per_share'), 1);
      const filer = d.balance.filter((b) => b.cik === r.cik && b.timeframe === 'quarterly').at(-1)!;
      expect(n(r, 'enterprise_value')).toBe(n(r, 'market_cap') + n(filer, 'debt_current') + n(filer, 'long_term_debt_and_capital_lease_obligations') - n(filer, 'cash_and_equivalents'));
      expect(n(r, 'current')).toBeCloseTo(n(filer, 'total_current_assets') / n(filer, 'total_current_liabilities'), 2);
      expect(n(r, 'return_on_assets')).toBeGreaterThan(-1);
    }
  });

  it('pays dividends every quarter for payers, declared on the as-traded share basis', () => {
    const ko = d.dividends.filter((r) => r.ticker === 'KO').map((r) => String(r.ex_dividend_date)).sort();
    expect(ko.length).toBeGreaterThanOrEqual(19);
    for (let i = 1; i < ko.length; i++) {
      const gap = (Date.parse(ko[i]!) - Date.parse(ko[i - 1]!)) / 86_400_000;
      expect(gap).toBeGreaterThanOrEqual(84);
      expect(gap).toBeLessThanOrEqual(98);
    }
    expect(d.dividends.every((r) => r.frequency === 4 && r.distribution_type === 'recurring')).toBe(true);
    expect(d.dividends.some((r) => r.ticker === 'TSLA')).toBe(false);
    const nvda = d.dividends.filter((r) => r.ticker === 'NVDA');
    const pre = nvda.find((r) => String(r.ex_dividend_date) < '2024-06-10' && String(r.ex_dividend_date) > '2024-01-01')!;
    const post = nvda.find((r) => String(r.ex_dividend_date) > '2024-06-10' && String(r.ex_dividend_date) < '2025-01-01')!;
    expect(n(pre, 'cash_amount') / n(post, 'cash_amount')).toBeCloseTo(10, 0);
    expect(d.dividends.filter((r) => r.ticker === 'GOOGL').every((r) => String(r.ex_dividend_date) >= '2024-06-01')).toBe(true);
  });

  it('stores the demo splits, labels risk factors from the one taxonomy, and fills the Fed series', () => {
    expect(d.splits).toEqual(DEMO_SPLITS.map((s) => ({ ...s })));
    const categories = new Set(d.riskCategories.map((r) => `${r.primary_category}/${r.secondary_category}/${r.tertiary_category}`));
    expect(d.riskFactors.length).toBeGreaterThan(100);
    for (const f of d.riskFactors) expect(categories).toContain(`${f.primary_category}/${f.secondary_category}/${f.tertiary_category}`);

    expect(d.yields.map((r) => r.date)).toEqual(tradingDaysBetween(demoStart(AS_OF), AS_OF));
    for (const r of d.yields) for (const f of ['yield_1_month', 'yield_2_year', 'yield_10_year', 'yield_30_year']) expect(n(r, f)).toBeGreaterThan(0);
    const months = d.inflation.map((r) => String(r.date));
    expect(months[0]).toBe('2021-11-01');
    expect(months.at(-1)).toBe('2026-10-01');
    expect(months.every((m) => m.endsWith('-01'))).toBe(true);
    expect(new Set(months.map((m) => m.slice(0, 7))).size).toBe(60);
    expect(d.expectations.map((r) => r.date)).toEqual(months);
    expect(d.inflation.every((r) => typeof r.cpi_year_over_year === 'number')).toBe(true);
  });

  it('is deterministic', async () => {
    const again = await buildFundamentals(store, { asOf: AS_OF });
    expect(again).toEqual(d);
  });

  it('prices ratios and dividend factors from stored day bars when there are some', async () => {
    await store.market.insertBars('day', [
      { ticker: 'KO', t: nyMidnight('2026-11-19'), o: 61, h: 62, l: 60, c: 61.5, v: 2_000_000, n: 10 },
      { ticker: 'KO', t: nyMidnight(AS_OF), o: 61.5, h: 63, l: 61, c: 62.25, v: 3_000_000, n: 10 },
    ]);
    const withBars = await buildFundamentals(store, { asOf: AS_OF });
    const ko = withBars.ratios.find((r) => r.ticker === 'KO')!;
    expect(ko.price).toBe(62.25);
    expect(ko.average_volume).toBe(2_500_000);
  });
});

for (const engine of engines()) {
  describe(`fundamentals demo step (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => store.close());

    it('loads every data set, and loading again changes nothing', async () => {
      const t0 = performance.now();
      const summary = await loadFundamentals(store, { asOf: AS_OF });
      await loadPartnerDemo(store, AS_OF);
      await upsertSets(store, buildFilingsEconomyDemo(AS_OF));
      await upsertSets(store, buildFuturesReferenceDemo(AS_OF));
      await listingsDemoStep.run(store, { asOf: AS_OF, scale: 1, log: () => {} });
      console.log(`fundamentals demo step on ${engine.name}: ${((performance.now() - t0) / 1000).toFixed(2)} s (${summary})`);
      const counts = async () => Promise.all(DATASET_DECLARATIONS.map((def) => store.datasets.count(def)));
      const first = await counts();
      expect(first.every((c) => c > 0)).toBe(true);
      const nvda = await store.datasets.list(DIVIDENDS, { where: [{ field: 'ticker', op: 'eq', value: 'NVDA' }, { field: 'ex_dividend_date', op: 'lt', value: '2024-06-10' }], sort: [], limit: 1 });
      expect(nvda[0]!.record.split_adjusted_cash_amount).toBeCloseTo(Number(nvda[0]!.record.cash_amount) / 10, 6);
      const before = await store.datasets.list(SPLITS, { where: [], sort: [], limit: 100 });
      await loadFundamentals(store, { asOf: AS_OF });
      await loadPartnerDemo(store, AS_OF);
      await upsertSets(store, buildFilingsEconomyDemo(AS_OF));
      await upsertSets(store, buildFuturesReferenceDemo(AS_OF));
      await listingsDemoStep.run(store, { asOf: AS_OF, scale: 1, log: () => {} });
      expect(await counts()).toEqual(first);
      expect(await store.datasets.list(SPLITS, { where: [], sort: [], limit: 100 })).toEqual(before);
    });
  });
}
