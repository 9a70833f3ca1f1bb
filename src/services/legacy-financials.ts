// The older financials list (/vX/reference/financials): one report per filer, period and
// timeframe, answered from the stored income statements, balance sheets and cash-flow statements.
// A report exists for each stored income statement; the balance sheet and cash-flow statement of
// the same filer, period end and timeframe are joined to it when they are stored.
import type { Store } from '../store/index.js';
import type { DatasetDef, DatasetRecord, DatasetRow } from '../store/repos/datasets.js';
import { BALANCE_SHEETS, CASH_FLOW_STATEMENTS, INCOME_STATEMENTS } from '../store/repos/dataset-catalog.js';
import { DatasetListService, parseFilters } from './dataset-lists.js';
import type { KeysetRows, PageRequest } from './paging.js';

/** Upstream's timeframe names → the stored ones. */
export const LEGACY_TIMEFRAMES = { annual: 'annual', quarterly: 'quarterly', ttm: 'trailing_twelve_months' } as const;
export type LegacyTimeframe = keyof typeof LEGACY_TIMEFRAMES;

const RANGE = ['gt', 'gte', 'lt', 'lte'] as const;

export interface LegacyFinancialsQuery {
  ticker?: string;
  cik?: string;
  timeframe?: LegacyTimeframe;
  filing_date?: string;
  period_of_report_date?: string;
  include_sources?: boolean;
  order: 'asc' | 'desc';
  sort: 'filing_date' | 'period_of_report_date';
  limit: number;
  [range: string]: unknown;
}

export interface FinancialDataPoint {
  value: number;
  unit: string;
  label: string;
  order: number;
}
type Statement = Record<string, FinancialDataPoint>;

export interface FinancialReport {
  cik: string;
  company_name: string;
  tickers?: string[];
  sic?: string;
  start_date: string;
  end_date: string;
  filing_date?: string;
  fiscal_period: string;
  fiscal_year?: string;
  timeframe: string;
  financials: { income_statement: Statement; balance_sheet: Statement; cash_flow_statement: Statement; comprehensive_income: Statement };
}

/** Statement columns that are not data points. */
const HEAD = new Set(['cik', 'tickers', 'period_end', 'filing_date', 'fiscal_year', 'fiscal_quarter', 'timeframe']);
const SHARE_COUNTS = new Set(['basic_shares_outstanding', 'diluted_shares_outstanding']);
const PER_SHARE = new Set(['basic_earnings_per_share', 'diluted_earnings_per_share']);

/** `net_cash_from_operating_activities` → `Net Cash From Operating Activities`. */
const labelOf = (field: string) => field.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

/** The data points of one stored statement, numbered in the order the statement declares them. */
function statementOf(def: DatasetDef, row: DatasetRecord | undefined): Statement {
  const out: Statement = {};
  if (!row) return out;
  Object.keys(def.fields).filter((f) => !HEAD.has(f)).forEach((field, i) => {
    const value = row[field];
    if (typeof value !== 'number') return;
    const unit = SHARE_COUNTS.has(field) ? 'shares' : PER_SHARE.has(field) ? 'USD / shares' : 'USD';
    out[field] = { value, unit, label: labelOf(field), order: (i + 1) * 100 };
  });
  return out;
}

/** The first day of the period that ends on `end` and lasts `months` months. */
function startOf(end: string, months: number): string {
  const d = new Date(`${end}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}

const keyOf = (r: DatasetRecord) => `${String(r.cik)}|${String(r.period_end)}|${String(r.timeframe)}`;

export class LegacyFinancialsService {
  private readonly lists: DatasetListService;

  constructor(private readonly store: Pick<Store, 'datasets' | 'reference'>) {
    this.lists = new DatasetListService(store);
  }

  /** Income statements selected by the query, in its sort, after the cursor's position. */
  list(q: LegacyFinancialsQuery, page: PageRequest): Promise<KeysetRows<DatasetRow>> {
    const filters: Record<string, unknown> = { tickers: q.ticker, cik: q.cik, filing_date: q.filing_date, period_end: q.period_of_report_date };
    if (q.timeframe !== undefined) filters.timeframe = LEGACY_TIMEFRAMES[q.timeframe];
    for (const op of RANGE) {
      filters[`filing_date.${op}`] = q[`filing_date.${op}`];
      filters[`period_end.${op}`] = q[`period_of_report_date.${op}`];
    }
    const field = q.sort === 'filing_date' ? 'filing_date' : 'period_end';
    // Errors name the parameter as this endpoint spells it, not the stored field it filters.
    const where = parseFilters(INCOME_STATEMENTS, filters, (p) => p.replace(/^period_end/, 'period_of_report_date').replace(/^tickers$/, 'ticker'));
    return this.lists.list(INCOME_STATEMENTS, { where, sort: [{ field, dir: q.order }] }, page);
  }

  /** The reports of a page of income statements, with their balance sheets, cash flows and company names. */
  async present(rows: DatasetRow[]): Promise<FinancialReport[]> {
    if (rows.length === 0) return [];
    const incomes = rows.map((r) => r.record);
    // At most a page of filers × a page of period ends: every joined row is read in one query.
    const where = [
      { field: 'cik', op: 'any_of' as const, value: [...new Set(incomes.map((r) => String(r.cik)))] },
      { field: 'period_end', op: 'any_of' as const, value: [...new Set(incomes.map((r) => String(r.period_end)))] },
    ];
    const joined = async (def: DatasetDef) => {
      const out = new Map<string, DatasetRecord>();
      const found = await this.store.datasets.list(def, { where, sort: [], limit: 100_000 });
      for (const { record } of found) out.set(keyOf(record), record);
      return out;
    };
    const [balances, cashFlows] = await Promise.all([joined(BALANCE_SHEETS), joined(CASH_FLOW_STATEMENTS)]);
    const symbols = [...new Set(incomes.flatMap((r) => (Array.isArray(r.tickers) ? (r.tickers as string[]) : [])))];
    const names = new Map((await this.store.reference.currentTickers(symbols)).map((t) => [t.ticker, t]));
    return incomes.map((r) => {
      const tickers = Array.isArray(r.tickers) ? (r.tickers as string[]) : undefined;
      const listed = tickers?.map((t) => names.get(t)).find((t) => t !== undefined);
      const timeframe = String(r.timeframe);
      const end = String(r.period_end);
      const legacyTimeframe = timeframe === 'trailing_twelve_months' ? 'ttm' : timeframe;
      const report: FinancialReport = {
        cik: String(r.cik),
        // A filer whose tickers are not in the reference data is named by its first ticker.
        company_name: listed?.name ?? tickers?.[0] ?? String(r.cik),
        tickers,
        sic: listed?.sic_code,
        start_date: startOf(end, timeframe === 'quarterly' ? 3 : 12),
        end_date: end,
        filing_date: typeof r.filing_date === 'string' ? r.filing_date : undefined,
        fiscal_period: timeframe === 'quarterly' ? `Q${String(r.fiscal_quarter ?? '')}` : timeframe === 'annual' ? 'FY' : 'TTM',
        fiscal_year: typeof r.fiscal_year === 'number' ? String(r.fiscal_year) : undefined,
        timeframe: legacyTimeframe,
        financials: {
          income_statement: statementOf(INCOME_STATEMENTS, r),
          balance_sheet: statementOf(BALANCE_SHEETS, balances.get(keyOf(r))),
          cash_flow_statement: statementOf(CASH_FLOW_STATEMENTS, cashFlows.get(keyOf(r))),
          comprehensive_income: {},
        },
      };
      for (const k of Object.keys(report) as (keyof FinancialReport)[]) if (report[k] === undefined) delete report[k];
      return report;
    });
  }
}
