// Dividends and splits: one table each, read by both the new-style endpoints (/stocks/v1/…) and
// the deprecated v3 ones, and by the aggregates service for split (and opt-in dividend)
// adjustment, so every consumer sees the same rows.
import type { SqlDriver } from '../driver.js';
import { DatasetRepository, defineDataset, type DatasetDef, type DatasetRecord } from './datasets.js';

export const DISTRIBUTION_TYPES = ['recurring', 'special', 'supplemental', 'irregular', 'unknown'] as const;
export const V3_DIVIDEND_TYPES = ['CD', 'SC', 'LT', 'ST'] as const;
export const ADJUSTMENT_TYPES = ['forward_split', 'reverse_split', 'stock_dividend'] as const;

// v3 `dividend_type` ↔ new-style `distribution_type`. CD is the regular schedule; SC covers every
// non-regular cash payment; capital-gain distributions (LT/ST) have no new-style class.
const FROM_V3: Record<string, string> = { CD: 'recurring', SC: 'special', LT: 'unknown', ST: 'unknown' };
const TO_V3: Record<string, string> = { recurring: 'CD', special: 'SC', supplemental: 'SC', irregular: 'SC', unknown: 'SC' };

export const DIVIDENDS = defineDataset({
  name: 'dividends',
  table: 'dividends',
  fields: {
    id: { type: 'text', required: true, derived: true, description: 'Record id (E + 64 hex); derived from ticker, ex-date, amount and type when not given.' },
    ticker: { type: 'text', required: true, description: 'Issuer symbol.' },
    cash_amount: { type: 'float', required: true, min: 0, description: 'Amount per share as declared, in `currency`.' },
    currency: { type: 'text', description: 'ISO 4217 currency code.' },
    declaration_date: { type: 'date', description: 'Announcement date.' },
    ex_dividend_date: { type: 'date', required: true, description: 'First day trading without the dividend.' },
    record_date: { type: 'date', description: 'Holder-of-record date.' },
    pay_date: { type: 'date', description: 'Payment date.' },
    frequency: { type: 'int', required: true, min: 0, description: 'Payouts per year (0 = one-off).' },
    distribution_type: { type: 'text', required: true, derived: true, enum: DISTRIBUTION_TYPES, description: 'recurring, special, supplemental, irregular or unknown.' },
    split_adjusted_cash_amount: { type: 'float', description: '`cash_amount` restated for the splits executed after the ex-date.' },
    historical_adjustment_factor: { type: 'float', description: 'Cumulative price factor for dividend adjustment of prices before the ex-date.' },
    dividend_type: { type: 'text', required: true, derived: true, hidden: true, enum: V3_DIVIDEND_TYPES, description: 'v3 class: CD, SC, LT or ST.' },
  },
  key: ['id'],
  derivedKey: { field: 'id', from: ['ticker', 'ex_dividend_date', 'cash_amount', 'distribution_type'], prefix: 'E' },
  filters: {
    ticker: ['eq', 'any_of', 'range'],
    ex_dividend_date: ['eq', 'range'],
    frequency: ['eq', 'range'],
    distribution_type: ['eq', 'any_of'],
  },
  sort: 'ticker.asc',
  limit: { default: 100, max: 5001 },
  prepare(r) {
    if (r.distribution_type === undefined) r.distribution_type = r.dividend_type !== undefined ? FROM_V3[String(r.dividend_type)]! : 'recurring';
    if (r.dividend_type === undefined) r.dividend_type = TO_V3[String(r.distribution_type)]!;
  },
});

export const SPLITS = defineDataset({
  name: 'splits',
  table: 'splits',
  fields: {
    id: { type: 'text', required: true, derived: true, description: 'Record id (E + 64 hex); derived from ticker, date and ratio when not given.' },
    ticker: { type: 'text', required: true, description: 'Symbol.' },
    execution_date: { type: 'date', required: true, description: 'Day the new share count takes effect.' },
    split_from: { type: 'float', required: true, positive: true, description: 'Old shares.' },
    split_to: { type: 'float', required: true, positive: true, description: 'New shares (2-for-1: split_from 1, split_to 2).' },
    adjustment_type: { type: 'text', required: true, derived: true, enum: ADJUSTMENT_TYPES, description: 'forward_split, reverse_split or stock_dividend.' },
    historical_adjustment_factor: { type: 'float', description: 'Product of split_from/split_to over this split and every later one.' },
  },
  // One split per ticker and day: importing another ratio for that day replaces the stored one.
  key: ['ticker', 'execution_date'],
  derivedKey: { field: 'id', from: ['ticker', 'execution_date', 'split_from', 'split_to'], prefix: 'E' },
  filters: {
    ticker: ['eq', 'any_of', 'range'],
    execution_date: ['eq', 'range'],
    adjustment_type: ['eq', 'any_of'],
  },
  sort: 'execution_date.desc',
  limit: { default: 100, max: 5001 },
  prepare(r) {
    if (r.adjustment_type === undefined) r.adjustment_type = Number(r.split_from) > Number(r.split_to) ? 'reverse_split' : 'forward_split';
  },
});

export interface SplitFact {
  execution_date: string;
  split_from: number;
  split_to: number;
}

export interface DividendFact {
  ex_dividend_date: string;
  cash_amount: number;
}

export class CorporateActionsRepository {
  private readonly datasets: DatasetRepository;

  constructor(private readonly db: SqlDriver) {
    this.datasets = new DatasetRepository(db);
  }

  /** Every split of a ticker, oldest first (what split adjustment of bars needs). */
  async splitsFor(ticker: string): Promise<SplitFact[]> {
    const rows = await this.db.all('SELECT execution_date, split_from, split_to FROM splits WHERE ticker = ? ORDER BY execution_date, pk', [ticker]);
    return rows.map((r) => ({ execution_date: String(r.execution_date), split_from: Number(r.split_from), split_to: Number(r.split_to) }));
  }

  /** Every cash dividend of a ticker, oldest first; amounts as declared (not split-adjusted). */
  async dividendsFor(ticker: string): Promise<DividendFact[]> {
    const rows = await this.db.all('SELECT ex_dividend_date, cash_amount FROM dividends WHERE ticker = ? ORDER BY ex_dividend_date, pk', [ticker]);
    return rows.map((r) => ({ ex_dividend_date: String(r.ex_dividend_date), cash_amount: Number(r.cash_amount) }));
  }

  /** Upserts validated split records, then refreshes the derived factors of the tickers touched. */
  async upsertSplits(records: readonly DatasetRecord[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const repo = new CorporateActionsRepository(tx);
      const n = await repo.datasets.upsert(SPLITS, records);
      await repo.refreshDerived(tickersOf(records));
      return n;
    });
  }

  /** Upserts validated dividend records, then refreshes their split-adjusted amounts. */
  async upsertDividends(records: readonly DatasetRecord[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const repo = new CorporateActionsRepository(tx);
      const n = await repo.datasets.upsert(DIVIDENDS, records);
      await repo.refreshDerived(tickersOf(records));
      return n;
    });
  }

  /** Upserts through the right method for either data set. */
  upsert(def: DatasetDef, records: readonly DatasetRecord[]): Promise<number> {
    if (def === SPLITS) return this.upsertSplits(records);
    if (def === DIVIDENDS) return this.upsertDividends(records);
    throw new RangeError(`${def.name} is not a corporate-action data set`);
  }

  /**
   * Recomputes what follows from the stored splits: each split's historical_adjustment_factor and
   * each dividend's split_adjusted_cash_amount. Only changed rows are written.
   */
  private async refreshDerived(tickers: string[]): Promise<void> {
    for (const ticker of tickers) {
      const splits = await this.db.all('SELECT pk, execution_date, split_from, split_to, historical_adjustment_factor AS f FROM splits WHERE ticker = ? ORDER BY execution_date DESC, pk DESC', [ticker]);
      let factor = 1;
      const later: { date: string; ratio: number }[] = [];
      for (const s of splits) {
        const ratio = Number(s.split_from) / Number(s.split_to);
        factor *= ratio;
        later.push({ date: String(s.execution_date), ratio });
        if (s.f === null || Number(s.f) !== factor) {
          await this.db.run('UPDATE splits SET historical_adjustment_factor = ? WHERE pk = ?', [factor, Number(s.pk)]);
        }
      }
      const dividends = await this.db.all('SELECT pk, ex_dividend_date, cash_amount, split_adjusted_cash_amount AS a FROM dividends WHERE ticker = ?', [ticker]);
      for (const d of dividends) {
        const ex = String(d.ex_dividend_date);
        let amount = Number(d.cash_amount);
        for (const s of later) if (s.date > ex) amount *= s.ratio;
        amount = roundTo(amount, 10);
        if (d.a === null || Number(d.a) !== amount) {
          await this.db.run('UPDATE dividends SET split_adjusted_cash_amount = ? WHERE pk = ?', [amount, Number(d.pk)]);
        }
      }
    }
  }
}

function tickersOf(records: readonly DatasetRecord[]): string[] {
  return [...new Set(records.map((r) => String(r.ticker)))];
}

/** Rounds away float noise (0.26 × 1/4 × 4 stays 0.26) without losing real precision. */
function roundTo(x: number, digits: number): number {
  const p = 10 ** digits;
  return Math.round(x * p) / p;
}
