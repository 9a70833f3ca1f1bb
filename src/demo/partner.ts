// The synthetic partner data sets: Benzinga news, analyst ratings, earnings, guidance, analysts,
// firms, insights and bull/bear cases; ETF Global analytics, constituents, fund flows, profiles
// and taxonomies; TMX corporate events. Tickers, company names and CIKs are the real ones of the
// demo universe; firms, analysts, ratings, figures, texts and every id are made up.
import { DATASET_DECLARATIONS } from '../store/repos/dataset-catalog.js';
import type { DatasetRecord } from '../store/repos/datasets.js';
import type { Store } from '../store/index.js';
import { REAL_STOCKS } from './facts/real-stocks.js';
import { addDays } from './civil-days.js';
import { round } from './fundamental-dates.js';
import { createRng, type Rng } from './random.js';
import type { DemoStep } from './step.js';

const STOCKS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'TSLA', 'JPM'];
const ETFS = ['SPY', 'QQQ'];

/** Made-up research firms (no real bank's name). */
const FIRMS = [
  { name: 'Northbridge Securities', currency: 'USD' },
  { name: 'Harbor Lane Capital', currency: 'USD' },
  { name: 'Castellan Research', currency: 'USD' },
  { name: 'Meridian Park Partners', currency: 'USD' },
];
const ANALYST_NAMES = ['Avery Lindqvist', 'Jordan Okafor', 'Priya Raman', 'Mateo Vasquez', 'Hannah Becker', 'Samuel Osei'];

/** Rating scale used by the demo (weights as the consensus endpoint reads them). */
const RATINGS = ['strong buy', 'buy', 'outperform', 'overweight', 'neutral', 'hold', 'underperform', 'sell'];
const RATING_ACTIONS = ['maintains', 'upgrades', 'downgrades', 'initiates_coverage_on', 'reiterates'];

const nameOf = (t: string) => REAL_STOCKS.find((s) => s.t === t)?.name ?? t;
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
const time = (rng: Rng) => `${String(rng.int(11, 21)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`;
const stamp = (date: string, hms: string) => `${date}T${hms}Z`;
/** x rounded to a whole multiple of step (exact in binary for steps ≥ 1). */
const toStep = (x: number, step: number) => Math.round(x / step) * step;
const quarterOf = (date: string) => `Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;

function benzinga(asOf: string, rng: Rng, out: Record<string, DatasetRecord[]>): void {
  const firms = FIRMS.map((f) => ({ ...f, id: hex(rng, 24) }));
  const analysts = ANALYST_NAMES.map((full_name, i) => ({ full_name, id: hex(rng, 24), firm: firms[i % firms.length]! }));
  for (const f of firms) out['benzinga-firms']!.push({ benzinga_id: f.id, currency: f.currency, last_updated: stamp(addDays(asOf, -30), '12:00:00'), name: f.name });
  for (const a of analysts) {
    out['benzinga-analysts']!.push({
      benzinga_firm_id: a.firm.id, benzinga_id: a.id, firm_name: a.firm.name, full_name: a.full_name, last_updated: stamp(addDays(asOf, -7), '08:00:00'),
      overall_avg_return: round(rng.float(-5, 25), 2), overall_avg_return_percentile: round(rng.float(5, 99), 2), overall_success_rate: round(rng.float(40, 80), 2),
      smart_score: round(rng.float(1, 5), 2), total_ratings: rng.int(20, 900), total_ratings_percentile: round(rng.float(5, 99), 2),
    });
  }
  let newsId = 40_000_000 + rng.int(0, 999_999);
  for (const [ti, ticker] of STOCKS.entries()) {
    const r = rng.fork(ticker);
    const company = nameOf(ticker);
    let price = r.float(80, 600);
    let previous: Record<string, { rating: string; target: number }> = {};
    // Six ratings a ticker over the last year, oldest first, by analysts of the demo firms.
    const dates = Array.from({ length: 6 }, () => addDays(asOf, -r.int(1, 360))).sort();
    for (let i = 0; i < 6; i++) {
      const a = analysts[(ti + i) % 3]!;
      const date = dates[i]!;
      const rating = r.pick(RATINGS);
      const target = round(price * r.float(0.8, 1.35), 2);
      const prev = previous[a.id];
      const hms = time(r);
      out['benzinga-ratings']!.push({
        adjusted_price_target: target, analyst: a.full_name, benzinga_analyst_id: a.id, benzinga_firm_id: a.firm.id, benzinga_id: hex(r, 24),
        company_name: company, currency: 'USD', date, firm: a.firm.name, importance: r.int(0, 5), last_updated: stamp(date, hms),
        ...(prev ? { previous_adjusted_price_target: prev.target, previous_price_target: prev.target, previous_rating: prev.rating, price_percent_change: round(((target - prev.target) / prev.target) * 100, 2) } : {}),
        price_target: target, price_target_action: prev ? (target > prev.target ? 'raises' : target < prev.target ? 'lowers' : 'maintains') : 'announces',
        rating, rating_action: prev ? r.pick(RATING_ACTIONS) : 'initiates_coverage_on', ticker, time: hms,
        benzinga_calendar_url: `https://example.com/demo/calendar/ratings/${ticker}`, benzinga_news_url: `https://example.com/demo/news/ratings/${ticker}`,
        notes: `${a.firm.name} cites margin trends (synthetic note).`,
      });
      previous = { ...previous, [a.id]: { rating, target } };
      price *= r.float(0.97, 1.05);
    }
    // Four quarterly earnings, the latest possibly still to come (estimates only); each after the
    // first carries the actuals of the quarter before it as previous_eps/previous_revenue.
    let previousActual: { eps: number; revenue: number } | undefined;
    for (let q = 0; q < 4; q++) {
      const date = addDays(asOf, 20 - q * 91 - r.int(0, 10));
      const estEps = round(r.float(0.5, 6), 2);
      const estRev = toStep(r.float(10, 120) * 1e9, 1e6);
      const reported = date <= asOf;
      const actEps = round(estEps * r.float(0.9, 1.15), 2);
      const actRev = toStep(estRev * r.float(0.95, 1.08), 1e6);
      out['benzinga-earnings']!.push({
        benzinga_id: hex(r, 24), company_name: company, currency: 'USD', date, date_status: reported ? 'confirmed' : 'projected', eps_method: 'gaap',
        estimated_eps: estEps, estimated_revenue: estRev, fiscal_period: quarterOf(date), fiscal_year: Number(date.slice(0, 4)), importance: r.int(2, 5),
        last_updated: stamp(reported ? date : addDays(asOf, -1), '21:05:00'), revenue_method: 'gaap', ticker, time: '16:30:00',
        ...(reported ? { actual_eps: actEps, actual_revenue: actRev, eps_surprise: round(actEps - estEps, 2), eps_surprise_percent: round(((actEps - estEps) / estEps) * 100, 2),
          revenue_surprise: round(actRev - estRev, 0), revenue_surprise_percent: round(((actRev - estRev) / estRev) * 100, 2) } : {}),
        ...(previousActual ? { previous_eps: previousActual.eps, previous_revenue: previousActual.revenue } : {}),
        notes: reported ? 'Reported after the close (synthetic note).' : 'Date projected (synthetic note).',
      });
      previousActual = { eps: actEps, revenue: actRev };
    }
    const gDate = addDays(asOf, -r.int(10, 80));
    const minEps = round(r.float(1, 5), 2);
    const minRev = toStep(r.float(10, 100) * 1e9, 1e6);
    out['benzinga-guidance']!.push({
      benzinga_id: hex(r, 24), company_name: company, currency: 'USD', date: gDate, eps_method: 'adjusted', estimated_eps_guidance: round(minEps * 1.04, 2),
      estimated_revenue_guidance: toStep(minRev * 1.03, 1e6), fiscal_period: 'FY', fiscal_year: Number(asOf.slice(0, 4)) + 1, importance: r.int(1, 5),
      last_updated: stamp(gDate, '20:15:00'), max_eps_guidance: round(minEps * 1.08, 2), max_revenue_guidance: toStep(minRev * 1.06, 1e6), min_eps_guidance: minEps,
      min_revenue_guidance: minRev, positioning: r.pick(['primary', 'secondary']), release_type: 'earnings', revenue_method: 'gaap', ticker, time: '20:10:00',
      previous_min_eps_guidance: round(minEps * 0.97, 2), previous_max_eps_guidance: round(minEps * 1.03, 2),
      previous_min_revenue_guidance: toStep(minRev * 0.98, 1e6), previous_max_revenue_guidance: toStep(minRev * 1.02, 1e6), notes: 'Guidance raised (synthetic note).',
    });
    const last = out['benzinga-ratings']!.at(-1)!;
    out['benzinga-analyst-insights']!.push({
      benzinga_firm_id: last.benzinga_firm_id!, benzinga_id: hex(r, 24), benzinga_rating_id: last.benzinga_id!, company_name: company, date: last.date!,
      firm: last.firm!, insight: `${last.firm} ${String(last.rating_action).replace(/_/g, ' ')} ${ticker} at ${last.rating} on expected margin trends; target ${last.price_target}.`,
      last_updated: last.last_updated!, price_target: last.price_target!, rating: last.rating!, rating_action: last.rating_action!, ticker,
    });
    out['benzinga-bulls-bears']!.push({
      bear_case: `${company} trades at a premium while growth in its core segment slows.`, benzinga_id: hex(r, 24),
      bull_case: `${company} keeps gaining share and expanding margins in its core segment.`, last_updated: stamp(addDays(asOf, -r.int(1, 30)), '14:00:00'), ticker,
    });
    for (let n = 0; n < 3; n++) {
      const date = addDays(asOf, -r.int(0, 60));
      const published = stamp(date, time(r));
      const other = STOCKS[(ti + 1 + n) % STOCKS.length]!;
      const tickers = n === 0 ? [ticker] : [ticker, other];
      out['benzinga-news']!.push({
        author: r.pick(['Benzinga Newsdesk', 'Avery Lindqvist', 'Jordan Okafor']), benzinga_id: newsId++, body: `<p>${company} shares moved as traders weighed the latest analyst actions.</p>`,
        channels: r.pick([['News'], ['Analyst Ratings', 'News'], ['Earnings', 'News']]), last_updated: published, published,
        tags: n === 2 ? ['Demo', 'Movers'] : ['Demo'], teaser: `${company} in focus.`, tickers, title: `${ticker}: what analysts said this week (${n + 1})`,
        url: `https://example.com/demo/news/${newsId}`, images: [`https://example.com/demo/news/${newsId}.png`],
      });
    }
    out['tmx-corporate-events']!.push({
      company_name: company, date: addDays(asOf, r.int(5, 80)), name: `${company} Q${r.int(1, 4)} earnings call`, status: 'confirmed', ticker,
      tmx_company_id: 10_000 + ti, tmx_record_id: hex(r, 16), trading_venue: REAL_STOCKS.find((s) => s.t === ticker)?.ex ?? 'XNAS', type: 'earnings_announcement_date',
      isin: `US00DEMO${String(ti).padStart(3, '0')}0`, url: `https://example.com/demo/events/${ticker}`,
    });
  }
}

function etfGlobal(asOf: string, rng: Rng, out: Record<string, DatasetRecord[]>): void {
  const processed = addDays(asOf, 1);
  for (const etf of ETFS) {
    const r = rng.fork(etf);
    const holdings = etf === 'SPY' ? ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'JPM'] : ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'TSLA'];
    const weights = holdings.map(() => r.float(1, 8));
    const sum = weights.reduce((a, b) => a + b, 0);
    const aum = toStep(r.float(200, 600) * 1e9, 1e6);
    for (let d = 0; d < 5; d++) {
      const date = addDays(asOf, -d);
      const nav = round(r.float(400, 650), 2);
      out['etf-global-fund-flows']!.push({ composite_ticker: etf, effective_date: date, fund_flow: toStep(r.normal(0, 1.5e9), 1e3), nav, processed_date: processed, shares_outstanding: toStep(aum / nav, 1e3) });
    }
    holdings.forEach((h, i) => {
      const weight = round((weights[i]! / sum) * 0.4, 6);
      out['etf-global-constituents']!.push({
        asset_class: 'Equity', composite_ticker: etf, constituent_name: nameOf(h), constituent_rank: i + 1, constituent_ticker: h, country_of_exchange: 'US',
        currency_traded: 'USD', effective_date: asOf, exchange: REAL_STOCKS.find((s) => s.t === h)?.ex ?? 'XNAS', market_value: round(aum * weight, 0),
        processed_date: processed, security_type: 'Common Stock', shares_held: round((aum * weight) / r.float(100, 600), 0), weight,
        // Made-up identifiers in the real formats (FIGI BBG + 9, ISIN US + 9 + check, SEDOL 7, CUSIP 9).
        figi: `BBG00DEMO${String(i).padStart(3, '0')}`, isin: `US00DEMO${String(i).padStart(3, '0')}0`, sedol: `DEMO${String(i).padStart(3, '0')}`, us_code: `00DEMO${String(i).padStart(3, '0')}`,
      });
    });
    const score = () => round(r.float(20, 95), 2);
    out['etf-global-analytics']!.push({
      composite_ticker: etf, effective_date: asOf, processed_date: processed, quant_composite_behavioral: score(), quant_composite_fundamental: score(),
      quant_composite_global: score(), quant_composite_quality: score(), quant_composite_sentiment: score(), quant_composite_technical: score(),
      quant_grade: r.pick(['A', 'B', 'C']), quant_total_score: score(), reward_score: score(), risk_country: score(), risk_deviation: score(), risk_efficiency: score(),
      risk_liquidity: score(), risk_structure: score(), risk_total_score: score(), risk_volatility: score(),
      quant_fundamental_div: score(), quant_fundamental_pb: score(), quant_fundamental_pcf: score(), quant_fundamental_pe: score(), quant_global_country: score(),
      quant_global_sector: score(), quant_quality_diversification: score(), quant_quality_firm: score(), quant_quality_liquidity: score(), quant_sentiment_iv: score(),
      quant_sentiment_pc: score(), quant_sentiment_si: score(), quant_technical_it: score(), quant_technical_lt: score(), quant_technical_st: score(),
    });
    const issuer = etf === 'SPY' ? 'State Street' : 'Invesco';
    const benchmark = etf === 'SPY' ? 'S&P 500 Index' : 'Nasdaq-100 Index';
    const common = { composite_ticker: etf, effective_date: asOf, processed_date: processed, leverage_style: 'Unlevered', management_classification: 'Passive', product_type: 'ETF' };
    out['etf-global-profiles']!.push({
      ...common, aum, asset_class: 'Equity', avg_daily_trading_volume: round(r.float(3e7, 8e7), 0), bid_ask_spread: round(r.float(0.0001, 0.0005), 6),
      category: 'Size and Style', description: `${nameOf(etf)} (synthetic profile).`, inception_date: REAL_STOCKS.find((s) => s.t === etf)?.list ?? '1993-01-29',
      issuer: etf === 'SPY' ? 'State Street' : 'Invesco', listing_exchange: REAL_STOCKS.find((s) => s.t === etf)?.ex ?? 'ARCX', management_fee: round(r.float(0.0009, 0.002), 4),
      net_expenses: round(r.float(0.0009, 0.002), 4), num_holdings: holdings.length, options_available: 1, region: 'North America',
      sector_exposure: [{ key: 'Technology', value: round(r.float(0.3, 0.5), 4) }, { key: 'Financials', value: round(r.float(0.05, 0.15), 4) }],
      administrator: 'Demo Fund Administration Co.', advisor: `${issuer} Advisors (synthetic)`, custodian: 'Demo Custody Bank', distributor: 'Demo Distributors LLC',
      lead_market_maker: 'Demo Market Making LLC', portfolio_manager: 'Demo Index Team', subadvisor: 'Demo Subadvisory LLC', transfer_agent: 'Demo Transfer Services',
      trustee: 'Demo Trust Company', futures_commission_merchant: 'Demo Clearing FCM', primary_benchmark: benchmark, tax_classification: 'RIC',
      development_class: 'Developed Markets', focus: 'Large Cap', distribution_frequency: 'Quarterly', fiscal_year_end: '09-30',
      call_volume: round(r.float(1e6, 5e6), 0), put_volume: round(r.float(1e6, 5e6), 0), options_volume: round(r.float(2e6, 1e7), 0), put_call_ratio: round(r.float(0.8, 1.8), 4),
      creation_fee: 500, creation_unit_size: 50_000, discount_premium: round(r.float(-0.05, 0.05), 4), fee_waivers: 0, other_expenses: round(r.float(0, 0.0002), 4),
      total_expenses: round(r.float(0.0009, 0.002), 4), short_interest: round(r.float(1e7, 2e8), 0),
      currency_exposure: [{ key: 'USD', value: 1 }], geographic_exposure: [{ key: 'United States', value: 1 }],
      industry_exposure: [{ key: 'Semiconductors & Semiconductor Equipment', value: round(r.float(0.1, 0.2), 4) }, { key: 'Software & Services', value: round(r.float(0.1, 0.2), 4) }],
      industry_group_exposure: [{ key: 'Technology Hardware & Equipment', value: round(r.float(0.05, 0.15), 4) }],
      subindustry_exposure: [{ key: 'Systems Software', value: round(r.float(0.05, 0.15), 4) }],
    });
    out['etf-global-taxonomies']!.push({
      ...common, asset_class: 'Equity', category: 'Size and Style', country: 'United States', development_class: 'Developed Markets', focus: 'Large Cap',
      inception_date: REAL_STOCKS.find((s) => s.t === etf)?.list ?? '1993-01-29', issuer: etf === 'SPY' ? 'State Street' : 'Invesco', management_style: 'Passive',
      objective: 'Track an index of large US companies.', region: 'North America', weighting_methodology: 'Market Cap',
      description: `${nameOf(etf)} (synthetic taxonomy).`, esg: 'No', exposure_mechanism: 'Physical', factor: 'Size', holdings_disclosure_frequency: 'Daily',
      isin: `US00DEMO${etf.padEnd(3, '0').slice(0, 3)}0`, primary_benchmark: benchmark, rebalance_frequency: 'Quarterly', reconstitution_frequency: 'Annually',
      secondary_objective: 'None', selection_methodology: 'Market Cap', selection_universe: 'US large caps', strategic_focus: 'Broad Equity', targeted_focus: 'Large Cap',
      tax_classification: 'RIC', us_code: `00DEMO${etf.padEnd(3, '0').slice(0, 3)}`,
    });
  }
}

/** Every synthetic partner record, by data-set name; the same asOf gives the same rows. */
export function buildPartnerDemo(asOf: string): Record<string, DatasetRecord[]> {
  const names = ['benzinga-news', 'benzinga-ratings', 'benzinga-earnings', 'benzinga-guidance', 'benzinga-analysts', 'benzinga-firms', 'benzinga-analyst-insights',
    'benzinga-bulls-bears', 'etf-global-analytics', 'etf-global-constituents', 'etf-global-fund-flows', 'etf-global-profiles', 'etf-global-taxonomies', 'tmx-corporate-events'];
  const out: Record<string, DatasetRecord[]> = Object.fromEntries(names.map((n) => [n, []]));
  const rng = createRng(`partner:${asOf}`);
  benzinga(asOf, rng.fork('benzinga'), out);
  etfGlobal(asOf, rng.fork('etf-global'), out);
  return out;
}

/** Upserts records by data-set name in one transaction; returns the rows written. */
export async function upsertSets(store: Store, sets: Record<string, DatasetRecord[]>): Promise<number> {
  let rows = 0;
  await store.transaction(async (s) => {
    for (const [name, records] of Object.entries(sets)) {
      const def = DATASET_DECLARATIONS.find((d) => d.name === name)!;
      rows += await s.datasets.upsert(def, records);
    }
  });
  return rows;
}

export async function loadPartnerDemo(store: Store, asOf: string): Promise<string> {
  return `${await upsertSets(store, buildPartnerDemo(asOf))} partner rows (Benzinga, ETF Global, TMX)`;
}

export const partnerDemoStep: DemoStep = {
  name: 'partner data sets (Benzinga, ETF Global, TMX)',
  run: (store, opts) => loadPartnerDemo(store, opts.asOf),
};
