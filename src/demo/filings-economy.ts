// The synthetic filings (index, 10-K sections, 8-K text and disclosures, 13-F holdings, Forms 3
// and 4) and the synthetic labor market, funding conditions and European consumer spending. Tickers, company names and CIKs are the
// real ones of the demo universe; accession numbers, texts, holders, insiders, merchants' figures
// and every number are made up.
import type { DatasetRecord } from '../store/repos/datasets.js';
import { REAL_STOCKS } from './facts/real-stocks.js';
import { addDays } from './civil-days.js';
import { disclosureTaxonomy, eightKDisclosures, fundingConditions } from './disclosures-funding.js';
import { round } from './fundamental-dates.js';
import { upsertSets } from './partner.js';
import { createRng, type Rng } from './random.js';
import type { DemoStep } from './step.js';

const FILERS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'JPM'];
/** A made-up institutional manager (its CIK is outside the range the SEC has assigned so far). */
const MANAGER = { cik: '0009900001', name: 'Demo Harbor Asset Management' };
const INSIDERS = ['Morgan Ellery', 'Casey Whitfield', 'Robin Alvarado'];

const stock = (t: string) => REAL_STOCKS.find((s) => s.t === t)!;
const digits = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');
const accession = (rng: Rng, cik: string, date: string) => `${cik}-${date.slice(2, 4)}-${digits(rng, 6)}`;
const edgarUrl = (cik: string, acc: string) => `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${acc.replace(/-/g, '')}/${acc}-index.htm`;

function filings(asOf: string, rng: Rng, out: Record<string, DatasetRecord[]>): void {
  const year = Number(asOf.slice(0, 4));
  for (const t of FILERS) {
    const s = stock(t);
    const cik = s.cik!;
    const r = rng.fork(t);
    const tenK = `${year - 1}-${String(r.int(1, 3)).padStart(2, '0')}-${String(r.int(10, 28)).padStart(2, '0')}`;
    const periodEnd = `${year - 2}-12-31`;
    const filed: [string, string][] = [[tenK, '10-K'], [addDays(tenK, 91), '10-Q'], [addDays(tenK, 182), '10-Q'], [addDays(tenK, 40), '8-K'], [addDays(tenK, 130), '8-K']];
    for (const [date, form] of filed) {
      const acc = accession(r, cik, date);
      out['filings-index']!.push({ accession_number: acc, cik, filing_date: date, filing_url: edgarUrl(cik, acc), form_type: form, issuer_name: s.name, ticker: t });
      if (form === '8-K') {
        out['8k-text']!.push({
          accession_number: acc, cik, filing_date: date, filing_url: edgarUrl(cik, acc), form_type: form, ticker: t,
          items_text: `Item 2.02\tResults of Operations and Financial Condition\n\nOn ${date}, ${s.name} announced results for its latest fiscal quarter (synthetic text).`,
        });
      }
      if (form === '10-K') {
        for (const section of ['business', 'risk_factors']) {
          out['10k-sections']!.push({
            cik, filing_date: date, filing_url: edgarUrl(cik, acc), period_end: periodEnd, section, ticker: t,
            text: section === 'business'
              ? `Item 1. Business\n\n${s.name} designs, makes and sells products and services to customers worldwide (synthetic text).`
              : `Item 1A. Risk Factors\n\nAn investment in ${s.name} involves risk, including competition, regulation and supply (synthetic text).`,
          });
        }
      }
    }
    // Form 3 on a new officer's appointment, Form 4 for two later sales.
    const insider = INSIDERS[FILERS.indexOf(t) % INSIDERS.length]!;
    const ownerCik = `00099${digits(r, 5)}`;
    const appointed = addDays(asOf, -r.int(120, 300));
    const common = {
      issuer_cik: cik, issuer_name: s.name, owner_cik: ownerCik, owner_name: insider, is_director: false, is_officer: true, is_other: false,
      is_ten_percent_owner: false, officer_title: 'Chief Operating Officer', tickers: [t], direct_or_indirect: 'D', security_title: 'Common Stock', security_type: 'non-derivative',
    };
    const acc3 = accession(r, ownerCik, appointed);
    let shares = r.int(20, 200) * 1000;
    out['form-3']!.push({ ...common, accession_number: acc3, filing_url: edgarUrl(cik, acc3), filing_date: addDays(appointed, 2), form_type: '3', period_of_report: appointed, shares_owned: shares,
      aff_10b5_one: false, not_subject_to_section_16: false });
    // The first filer's officer also reports, in an amended Form 3, stock options held through a trust.
    const option = { exercise_price: round(r.float(100, 400), 2), exercise_date: addDays(appointed, 365), expiration_date: addDays(appointed, 3650), underlying_security_shares: 10_000 };
    const derivative = {
      ...common, ...option, direct_or_indirect: 'I', nature_of_ownership: 'By Trust', security_title: 'Employee Stock Option (right to buy)', security_type: 'derivative',
      underlying_security_title: 'Common Stock', footnotes: [{ id: 'F1', description: 'The option vests in four equal annual installments (synthetic footnote).' }],
      remarks: 'Exhibit 24: power of attorney (synthetic remark).', aff_10b5_one: false, not_subject_to_section_16: false, date_of_original_submission: addDays(appointed, 2),
    };
    if (t === FILERS[0]) {
      const acc3a = accession(r, ownerCik, addDays(appointed, 20));
      const { expiration_date: _unused, ...form3Option } = derivative;
      out['form-3']!.push({ ...form3Option, accession_number: acc3a, filing_url: edgarUrl(cik, acc3a), filing_date: addDays(appointed, 20), form_type: '3/A', period_of_report: appointed, shares_owned: 10_000 });
    }
    for (let i = 0; i < 2; i++) {
      const date = addDays(appointed, 40 + i * 50);
      const sold = r.int(1, 5) * 1000;
      const price = round(r.float(100, 500), 2);
      shares -= sold;
      const acc4 = accession(r, ownerCik, date);
      out['form-4']!.push({
        ...common, accession_number: acc4, filing_url: edgarUrl(cik, acc4), filing_date: addDays(date, 2), form_type: '4', period_of_report: date, record_type: 'transaction',
        shares_owned_following_transaction: shares, transaction_acquired_disposed: 'D', transaction_code: 'S', transaction_date: date, transaction_price_per_share: price,
        transaction_shares: sold, transaction_timeliness: 'O', transaction_value: round(sold * price, 2), aff_10b5_one: true, equity_swap_involved: false,
      });
    }
    // The first filer's officer exercises part of the options, reported in an amended Form 4.
    if (t === FILERS[0]) {
      const date = addDays(appointed, 400);
      const acc4a = accession(r, ownerCik, addDays(date, 30));
      out['form-4']!.push({
        ...derivative, accession_number: acc4a, filing_url: edgarUrl(cik, acc4a), filing_date: addDays(date, 30), form_type: '4/A', period_of_report: date, record_type: 'transaction',
        date_of_original_submission: addDays(date, 2), deemed_execution_date: date, shares_owned_following_transaction: 7_500, transaction_acquired_disposed: 'D',
        transaction_code: 'M', transaction_date: date, transaction_price_per_share: option.exercise_price, transaction_shares: 2_500, transaction_timeliness: 'L',
        transaction_value: round(2_500 * option.exercise_price, 2), equity_swap_involved: false,
      });
    }
  }
  // One 13-F of the made-up manager: a position in each filer at the last quarter end.
  const quarterEnd = `${year}-09-30`;
  const filed = addDays(quarterEnd, 45);
  const acc = accession(rng, MANAGER.cik, filed);
  for (const t of FILERS) {
    const r = rng.fork(`13f:${t}`);
    const shares = r.int(10, 900) * 1000;
    out['13f-holdings']!.push({
      accession_number: acc, cusip: digits(r, 9), file_number: '028-99001', filer_cik: MANAGER.cik, filing_date: filed, filing_url: edgarUrl(MANAGER.cik, acc),
      film_number: digits(r, 9), form_type: '13F-HR', investment_discretion: 'SOLE', issuer_name: stock(t).name.toUpperCase(), market_value: shares * r.int(100, 500),
      period: quarterEnd, shares_or_principal_amount: shares, shares_or_principal_type: 'SH', title_of_class: 'COM',
      voting_authority_none: 0, voting_authority_shared: 0, voting_authority_sole: shares,
    });
  }
  // And a call option position on the first filer, held with a made-up co-manager.
  const r = rng.fork('13f:option');
  const contracts = r.int(1, 50) * 100;
  out['13f-holdings']!.push({
    accession_number: acc, cusip: digits(r, 9), file_number: '028-99001', filer_cik: MANAGER.cik, filing_date: filed, filing_url: edgarUrl(MANAGER.cik, acc),
    film_number: digits(r, 9), form_type: '13F-HR', investment_discretion: 'DFND', issuer_name: stock(FILERS[0]!).name.toUpperCase(), market_value: contracts * r.int(100, 500),
    other_managers: ['Demo Harbor Advisers LLC'], period: quarterEnd, put_call: 'CALL', shares_or_principal_amount: contracts, shares_or_principal_type: 'SH', title_of_class: 'COM',
    voting_authority_none: 0, voting_authority_shared: contracts, voting_authority_sole: 0,
  });
}

const MERCHANTS = [
  { name: 'amazon', parent: 'Amazon Inc', ticker: 'AMZN US', group: 'general merchandise', industry: 'E-Commerce Discretionary', sector: 'Consumer Discretionary', industryGroup: 'Retailing', subIndustry: 'Broadline Retail' },
  { name: 'apple', parent: 'Apple Inc', ticker: 'AAPL US', group: 'electronics', industry: 'Consumer Electronics', sector: 'Information Technology', industryGroup: 'Technology Hardware & Equipment', subIndustry: 'Technology Hardware, Storage & Peripherals' },
  { name: 'microsoft', parent: 'Microsoft Corp', ticker: 'MSFT US', group: 'digital goods', industry: 'Software', sector: 'Information Technology', industryGroup: 'Software & Services', subIndustry: 'Systems Software' },
];
/** A made-up holding chain above each parent (no real company owns these). */
const HOLDING_CHAIN = { grandparent_name: 'Demo Holdings Ltd', grandparent_ticker: 'DEMOH US', great_grandparent_name: 'Demo Group Plc', great_grandparent_ticker: 'DEMOG US' };

function economy(asOf: string, rng: Rng, out: Record<string, DatasetRecord[]>): void {
  // Two years of monthly labor figures, drifting from a plausible start.
  let unemployment = 4;
  let participation = 62.6;
  let earnings = 33.5;
  let openings = 8500;
  const [y, m] = [Number(asOf.slice(0, 4)), Number(asOf.slice(5, 7))];
  for (let i = 24; i >= 1; i--) {
    const month = (y * 12 + (m - 1) - i);
    const date = `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`;
    unemployment = Math.max(3, unemployment + rng.normal(0.02, 0.08));
    participation += rng.normal(0, 0.05);
    earnings *= 1 + rng.normal(0.003, 0.001);
    openings = Math.max(5000, openings + rng.normal(-20, 150));
    out['labor-market']!.push({ avg_hourly_earnings: round(earnings, 2), date, job_openings: Math.round(openings), labor_force_participation_rate: round(participation, 1), unemployment_rate: round(unemployment, 1) });
  }
  // Seven days of spending per merchant in two countries, card and open banking.
  const latest = addDays(asOf, -7);
  for (const merchant of MERCHANTS) {
    out['eu-merchant-hierarchy']!.push({
      active_from: '0001-01-01', active_to: '9999-12-31', category: merchant.group, industry: merchant.industry, listing_status: 'public', lookup_name: merchant.name,
      normalized_name: merchant.parent, parent_name: merchant.parent, parent_ticker: merchant.ticker, ticker: merchant.ticker,
      sector: merchant.sector, industry_group: merchant.industryGroup, sub_industry: merchant.subIndustry, ...HOLDING_CHAIN,
    });
    for (let d = 0; d < 7; d++) {
      const date = addDays(latest, -d);
      for (const [country, currency] of [['UK', 'GBP'], ['DE', 'EUR']] as const) {
        for (const consumer of ['consumer_debit', 'open_banking'] as const) {
          const r = rng.fork(`${merchant.name}:${date}:${country}:${consumer}`);
          const tx = r.int(200, 5000);
          const spend = round(tx * r.float(15, 80), 2);
          const accounts = Math.round(tx * 0.8);
          const refunds = r.int(5, 50);
          out['eu-merchant-aggregates']!.push({
            channel: 'online', consumer_type: consumer, mcc_group: merchant.group, merchant_industry: merchant.industry, merchant_ticker: merchant.ticker, name: merchant.name,
            parent_name: merchant.parent, published_date: addDays(date, 7), total_accounts: accounts, total_spend: spend, total_transactions: tx,
            transaction_currency: currency, transaction_date: date, type: 'merchant', user_country: country,
            // Money in (refunds) and out (purchases), and the active-account panels behind the figures.
            spend_in_distinct_account_key_count: refunds, spend_in_spend: round(refunds * r.float(15, 80), 2), spend_in_transaction_count: refunds,
            spend_out_distinct_account_key_count: accounts, spend_out_spend: spend, spend_out_transaction_count: tx,
            eight_day_rolling_category_accounts: accounts * 9, eight_day_rolling_total_accounts: accounts * 40,
            twenty_eight_day_rolling_category_accounts: accounts * 25, twenty_eight_day_rolling_total_accounts: accounts * 110,
          });
        }
      }
    }
  }
}

/** Every synthetic filings and extra economy record, by data-set name; the same asOf gives the same rows. */
export function buildFilingsEconomyDemo(asOf: string): Record<string, DatasetRecord[]> {
  const names = ['filings-index', '10k-sections', '8k-text', '13f-holdings', 'form-3', 'form-4', 'labor-market', 'eu-merchant-aggregates', 'eu-merchant-hierarchy'];
  const out: Record<string, DatasetRecord[]> = Object.fromEntries(names.map((n) => [n, []]));
  const rng = createRng(`filings-economy:${asOf}`);
  filings(asOf, rng.fork('filings'), out);
  economy(asOf, rng.fork('economy'), out);
  out['8k-disclosures'] = eightKDisclosures(out['8k-text']!, rng.fork('8k-disclosures'));
  out['disclosure-taxonomy'] = disclosureTaxonomy();
  out['funding-conditions'] = fundingConditions(asOf, rng.fork('funding-conditions'));
  return out;
}

export const filingsEconomyDemoStep: DemoStep = {
  name: 'filings (index, 10-K, 8-K text and disclosures, 13-F, Forms 3 and 4), labor market, funding conditions and EU consumer spending',
  run: async (store, opts) => `${await upsertSets(store, buildFilingsEconomyDemo(opts.asOf))} filing, labor, funding and consumer-spending rows`,
};
