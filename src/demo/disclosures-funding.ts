// The synthetic 8-K disclosures (tags on the demo's own 8-K filings), the disclosure taxonomy
// they come from, and the daily money-market funding conditions. The taxonomy's categories are
// made up in the shape of 8-K items; every rate, volume and excerpt is made up too.
import type { DatasetRecord } from '../store/repos/datasets.js';
import { isTradingDay } from '../domain/calendar.js';
import { addDays } from './civil-days.js';
import { round } from './fundamental-dates.js';
import type { Rng } from './random.js';

const TAXONOMY_VERSION = '1.0';

/** [primary, secondary, tertiary, description] of each category of the demo's taxonomy. */
const CATEGORIES: [string, string, string, string][] = [
  ['financial_results', 'earnings_announcement', 'quarterly_results', 'Results of operations for a fiscal quarter, usually furnished with a press release.'],
  ['financial_results', 'earnings_announcement', 'annual_results', 'Results of operations for a fiscal year.'],
  ['financial_results', 'guidance', 'outlook_update', 'A new or changed forecast of revenue, earnings or other measures.'],
  ['corporate_governance', 'officer_changes', 'executive_appointment', 'The appointment of a principal officer, with the terms of employment.'],
  ['corporate_governance', 'officer_changes', 'executive_departure', 'The departure, retirement or dismissal of a principal officer.'],
  ['corporate_governance', 'shareholder_matters', 'vote_results', 'The results of matters put to a vote of security holders.'],
  ['capital_markets', 'securities_issuance', 'debt_offering', 'The issuance of notes or other debt securities.'],
  ['capital_markets', 'capital_return', 'share_repurchase', 'A new or enlarged program to buy back shares.'],
  ['capital_markets', 'capital_return', 'dividend_declaration', 'A declared cash dividend, with its record and payment dates.'],
  ['material_agreements', 'agreement_entry', 'credit_facility', 'Entry into a credit agreement or an amendment of one.'],
  ['material_agreements', 'agreement_entry', 'acquisition_agreement', 'An agreement to acquire a business or assets.'],
  ['other_events', 'regulation_fd', 'investor_presentation', 'Materials furnished to investors under Regulation FD.'],
];

export function disclosureTaxonomy(): DatasetRecord[] {
  return CATEGORIES.map(([primary, secondary, tertiary, description]) => ({
    description, primary_category: primary, secondary_category: secondary, taxonomy: TAXONOMY_VERSION, tertiary_category: tertiary,
  }));
}

/** A second tag an 8-K may carry beside its results: each filer's later 8-K has one of these. */
const SECOND_TAGS = [3, 6, 7, 8, 11];

/**
 * The disclosures of the demo's 8-K filings: each reports its quarter's results (the items text
 * says so), and every later 8-K of a filer carries a second disclosure too.
 */
export function eightKDisclosures(eightKs: readonly DatasetRecord[], rng: Rng): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  const seen = new Map<string, number>();
  for (const filing of eightKs) {
    const ticker = String(filing.ticker);
    const nth = seen.get(ticker) ?? 0;
    seen.set(ticker, nth + 1);
    const tags = nth === 0 ? [0] : [0, SECOND_TAGS[rng.int(0, SECOND_TAGS.length - 1)]!];
    for (const tag of tags) {
      const [primary, secondary, tertiary] = CATEGORIES[tag]!;
      out.push({
        accession_number: filing.accession_number!, cik: filing.cik!, filing_date: filing.filing_date!, filing_url: filing.filing_url!,
        primary_category: primary, secondary_category: secondary,
        supporting_text: tag === 0
          ? `On ${String(filing.filing_date)}, the company announced its results for the fiscal quarter (synthetic excerpt).`
          : `The company reported a ${tertiary.replace(/_/g, ' ')} on ${String(filing.filing_date)} (synthetic excerpt).`,
        tertiary_category: tertiary, tickers: [ticker],
      });
    }
  }
  return out;
}

/** Calendar days of funding conditions up to asOf; the target range is cut by 25 bp inside them. */
const FUNDING_DAYS = 120;
const CUT_DAYS_BEFORE = 45;

/**
 * One row per calendar day. The policy rates (target range, IORB) and the effective fed funds
 * rate are posted every day; the market rates, their percentiles and volumes, the NY Fed's
 * operations and commercial paper only on business days (the NYSE calendar stands in for the
 * bond market's), so they are absent from weekend and holiday rows.
 */
export function fundingConditions(asOf: string, rng: Rng): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  let effr = 3.83;
  for (let i = FUNDING_DAYS - 1; i >= 0; i--) {
    const date = addDays(asOf, -i);
    const lower = i >= CUT_DAYS_BEFORE ? 3.75 : 3.5;
    const upper = lower + 0.25;
    const iorb = round(upper - 0.1, 2);
    const business = isTradingDay(date);
    if (business) effr = round(lower + 0.08 + rng.int(0, 1) / 100, 2);
    else effr = Math.min(effr, round(lower + 0.09, 2));
    const row: DatasetRecord = { date, effective_fed_funds_rate: effr, fed_funds_target_lower: lower, fed_funds_target_upper: upper, interest_on_reserve_balances: iorb };
    if (business) {
      const r = rng.fork(date);
      const sofr = round(effr + r.int(-2, 3) / 100, 2);
      const obfr = round(effr - 0.01, 2);
      const tgcr = round(sofr - r.int(1, 3) / 100, 2);
      Object.assign(row, {
        effective_fed_funds_volume: r.int(90, 120),
        fed_overnight_repo_treasury_amount: round(r.float(0, 12), 3),
        fed_overnight_reverse_repo_treasury_amount: round(r.float(5, 60), 3),
        financial_commercial_paper_90d_rate: round(upper + r.float(-0.05, 0.1), 2),
        nonfinancial_commercial_paper_90d_rate: round(upper + r.float(-0.15, 0), 2),
        obfr_25th_percentile: round(obfr - 0.02, 2),
        obfr_75th_percentile: round(obfr + 0.01, 2),
        obfr_volume: r.int(230, 280),
        overnight_bank_funding_rate: obfr,
        secured_overnight_financing_rate: sofr,
        sofr_25th_percentile: round(sofr - r.int(1, 3) / 100, 2),
        sofr_75th_percentile: round(sofr + r.int(1, 4) / 100, 2),
        sofr_volume: r.int(2600, 3100),
        tgcr_25th_percentile: round(tgcr - 0.02, 2),
        tgcr_75th_percentile: round(tgcr + 0.01, 2),
        tri_party_general_collateral_rate: tgcr,
        tri_party_general_collateral_volume: r.int(1000, 1250),
      });
    }
    out.push(row);
  }
  return out;
}
