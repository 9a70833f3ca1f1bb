/**
 * Option contract snapshots (the chain and one contract): the contract's day and previous day, last
 * quote and trade, open interest, and Black–Scholes–Merton implied volatility and greeks, as of a
 * clock. The model and its inputs are documented in docs/options-model.md:
 *
 * - premium: the stored quote's midpoint at the clock (the last trade price when no quote);
 * - S: the underlying's last trade at the clock, else its latest minute, day or previous close;
 *   when it traded after the chain's latest quote, its price at that quote (modelSpot);
 * - T: ACT/365 from the clock to 16:00 ET on the expiration date (yearFraction);
 * - r: the latest stored 3-month treasury yield on or before the clock's date, as a continuously
 *   compounded rate ln(1 + y); without one, the configured rate (default 0.045);
 * - q: trailing-12-month cash dividends of the underlying divided by S (0 without dividends);
 * - European exercise for every contract (American early exercise is not modelled).
 * Greeks are `{}` and implied_volatility is omitted when the price admits no volatility (e.g. a
 * quote below intrinsic value) or the contract has expired.
 */
import { bsGreeks, impliedVolatility, yearFraction } from '../domain/greeks.js';
import { dateOfDay, dayOfDate, nyDateOf, sessionOn } from '../domain/calendar.js';
import type { BarRow } from '../domain/market-records.js';
import type { OptionSnapshot } from '../domain/snapshot-schemas.js';
import type { CorporateActionsRepository } from '../store/repos/corporate-actions.js';
import { TREASURY_YIELDS } from '../store/repos/dataset-catalog.js';
import type { DatasetRepository } from '../store/repos/datasets.js';
import type { ContractQuery, OptionsContractRecord, OptionsRepository, RangeFilter } from '../store/repos/options.js';
import type { SnapshotReadRepository } from '../store/repos/snapshot-reads.js';
import { readSnapshotInputs, type SnapshotInputs, type SnapshotInputsReader, type VisibleTicks } from './snapshots.js';

export const CHAIN_SORT_FIELDS = ['ticker', 'expiration_date', 'strike_price'] as const;
export type ChainSortField = (typeof CHAIN_SORT_FIELDS)[number];
export const DEFAULT_RISK_FREE_RATE = 0.045;

const NS_PER_MS = 1_000_000n;

export interface OptionsStore {
  readonly options: OptionsRepository;
  readonly snapshotReads: SnapshotReadRepository;
  readonly datasets: DatasetRepository;
  readonly corporateActions: CorporateActionsRepository;
}

export interface ChainFilter {
  underlying: string;
  strike_price?: RangeFilter<number>;
  expiration_date?: RangeFilter<string>;
  contract_type?: 'call' | 'put';
  sort: ChainSortField;
  order: 'asc' | 'desc';
  limit: number;
  after?: ContractQuery['after'];
}

/** The chain's contracts at the clock: those of the underlying not expired on the clock's New York date. */
export function chainContracts(store: OptionsStore, f: ChainFilter, nowMs: number): Promise<OptionsContractRecord[]> {
  return store.options.listContracts({
    underlying_ticker: { eq: f.underlying },
    strike_price: f.strike_price,
    expiration_date: f.expiration_date,
    contract_type: f.contract_type,
    as_of: nyDateOf(nowMs),
    expired: false,
    sort: f.sort,
    order: f.order,
    limit: f.limit,
    after: f.after,
  });
}

/** The risk-free rate on `date`: the latest stored 3-month yield (continuously compounded), else `fallback`. */
export async function riskFreeRate(store: Pick<OptionsStore, 'datasets'>, date: string, fallback = DEFAULT_RISK_FREE_RATE): Promise<number> {
  const [row] = await store.datasets.list(TREASURY_YIELDS, {
    where: [
      { field: 'date', op: 'lte', value: date },
      // rows without a 3-month figure (early history) are skipped: NULL > x is never true
      { field: 'yield_3_month', op: 'gt', value: -100 },
    ],
    sort: [{ field: 'date', dir: 'desc' }],
    limit: 1,
  });
  const percent = row?.record.yield_3_month;
  return typeof percent === 'number' ? Math.log1p(percent / 100) : fallback;
}

/** Trailing-12-month cash dividends over the price, as a continuous yield; 0 without dividends or price. */
export async function dividendYield(store: Pick<OptionsStore, 'corporateActions'>, underlying: string, date: string, price: number | undefined): Promise<number> {
  if (price === undefined || !(price > 0)) return 0;
  const since = dateOfDay(dayOfDate(date) - 365);
  const paid = (await store.corporateActions.dividendsFor(underlying))
    .filter((d) => d.ex_dividend_date > since && d.ex_dividend_date <= date)
    .reduce((sum, d) => sum + d.cash_amount, 0);
  return paid / price;
}

/** The underlying's price at the clock and when it was set. */
interface UnderlyingQuote {
  price?: number;
  lastUpdatedNs?: bigint;
}

function underlyingOf(x: SnapshotInputs | undefined): UnderlyingQuote {
  if (!x) return {};
  if (x.trade) return { price: x.trade.price, lastUpdatedNs: x.trade.sip_timestamp };
  const bar = x.min ?? x.day ?? x.prev;
  return bar ? { price: bar.c, lastUpdatedNs: BigInt(bar.t) * NS_PER_MS } : {};
}

/**
 * The underlying's price the model prices the premiums against: when the underlying last traded
 * outside the regular session and after the chain's latest quote, its price at that quote; else
 * its price at the clock. Options stop quoting at the regular close while the underlying trades on after hours, so
 * at a later clock the underlying's last trade is newer than every premium; pairing a 16:00
 * premium with an 18:00 price puts deep in-the-money quotes below intrinsic value, where no
 * volatility fits and the greeks are lost. One more read, only when the underlying is newer.
 */
async function modelSpot(store: OptionsStore, underlying: string, u: UnderlyingQuote, inputs: Map<string, SnapshotInputs>): Promise<number | undefined> {
  let latestQuoteNs: bigint | undefined;
  for (const x of inputs.values()) {
    const t = x.quote?.sip_timestamp ?? x.quote?.participant_timestamp;
    if (t !== undefined && (latestQuoteNs === undefined || t > latestQuoteNs)) latestQuoteNs = t;
  }
  if (latestQuoteNs === undefined || u.lastUpdatedNs === undefined || u.lastUpdatedNs <= latestQuoteNs) return u.price;
  // in the regular session both trade: the clock's price is the one the quotes follow
  const tradeMs = Number(u.lastUpdatedNs / NS_PER_MS);
  const session = sessionOn(nyDateOf(tradeMs));
  if (session && tradeMs >= session.open && tradeMs < session.close) return u.price;
  // reads take a clock in ms and see ticks up to its start: round up so the quote's own ms is seen
  const atQuote = await readSnapshotInputs(store.snapshotReads, 'stocks', [underlying], Number((latestQuoteNs + NS_PER_MS - 1n) / NS_PER_MS));
  return underlyingOf(atQuote.get(underlying)).price ?? u.price;
}

export interface ModelInputs {
  S?: number;
  r: number;
  q: number;
}

const opt = <K extends string, V>(key: K, v: V | undefined): { [P in K]?: V } => (v === undefined ? {} : ({ [key]: v } as { [P in K]?: V }));

/**
 * The contract's day: every field, zero-filled where the contract has not traded today (and no
 * change without a previous close), as the other asset classes' snapshots show their day.
 */
function dayOf(day: BarRow | undefined, prev: BarRow | undefined): OptionSnapshot['day'] {
  const change = day && prev ? Number((day.c - prev.c).toPrecision(12)) : 0;
  return {
    change,
    change_percent: day && prev && prev.c !== 0 ? (100 * (day.c - prev.c)) / prev.c : 0,
    close: day?.c ?? 0,
    high: day?.h ?? 0,
    last_updated: day ? BigInt(day.t) * NS_PER_MS : 0n,
    low: day?.l ?? 0,
    open: day?.o ?? 0,
    previous_close: prev?.c ?? 0,
    volume: day?.v ?? 0,
    vwap: day?.vw ?? 0,
  };
}

/** One contract's snapshot from its inputs and the model inputs (pure). */
export function optionSnapshot(
  c: OptionsContractRecord,
  x: SnapshotInputs | undefined,
  openInterest: number | undefined,
  underlying: { ticker: string } & UnderlyingQuote,
  model: ModelInputs,
  nowMs: number,
  show: VisibleTicks & { timeframe: 'REAL-TIME' | 'DELAYED' },
): OptionSnapshot {
  const tf = show.timeframe;
  const quote = x?.quote;
  const midpoint = quote ? (quote.bid_price + quote.ask_price) / 2 : undefined;
  const premium = midpoint ?? x?.trade?.price ?? x?.day?.c;
  const K = c.strike_price;
  const breakEven = premium === undefined ? undefined : c.contract_type === 'put' ? K - premium : K + premium;

  const snap: OptionSnapshot = {
    ...opt('break_even_price', breakEven),
    day: dayOf(x?.day, x?.prev),
    details: {
      contract_type: c.contract_type,
      exercise_style: c.exercise_style,
      expiration_date: c.expiration_date,
      shares_per_contract: c.shares_per_contract,
      strike_price: K,
      ticker: c.ticker,
    },
    greeks: {},
    ...opt('open_interest', openInterest),
    underlying_asset: {
      ticker: underlying.ticker,
      ...opt('price', underlying.price),
      ...opt('change_to_break_even', breakEven !== undefined && underlying.price !== undefined ? breakEven - underlying.price : undefined),
      ...opt('last_updated', underlying.lastUpdatedNs),
      timeframe: tf,
    },
  };

  if (premium !== undefined && model.S !== undefined && (c.contract_type === 'call' || c.contract_type === 'put')) {
    const inputs = { type: c.contract_type, S: model.S, K, T: yearFraction(nowMs, c.expiration_date), r: model.r, q: model.q };
    const sigma = impliedVolatility({ ...inputs, price: premium });
    const greeks = sigma === undefined ? undefined : bsGreeks({ ...inputs, sigma });
    if (sigma !== undefined && greeks) {
      snap.implied_volatility = sigma;
      snap.greeks = greeks;
    }
  }
  if (quote && show.quotes) {
    snap.last_quote = {
      ask: quote.ask_price,
      ...opt('ask_size', quote.ask_size),
      ...opt('ask_exchange', quote.ask_exchange),
      bid: quote.bid_price,
      ...opt('bid_size', quote.bid_size),
      ...opt('bid_exchange', quote.bid_exchange),
      midpoint: midpoint!,
      last_updated: quote.sip_timestamp ?? quote.participant_timestamp ?? 0n,
      timeframe: tf,
    };
  }
  if (x?.trade && show.trades) {
    const t = x.trade;
    snap.last_trade = { price: t.price, size: t.size, exchange: t.exchange, ...opt('conditions', t.conditions), sip_timestamp: t.sip_timestamp, timeframe: tf };
  }
  return snap;
}

/**
 * Snapshots of contracts of one underlying, in the given order: a fixed number of batched reads
 * (contract inputs, open interest, the underlying, the rate and the dividends), whatever the count.
 * The contracts' and the underlying's market data come through `inputsOf` (the live state's where
 * it holds them); open interest, the rate, the dividends and the underlying's price at the chain's
 * latest quote (modelSpot) are read from the store.
 */
export async function optionSnapshots(
  store: OptionsStore,
  inputsOf: SnapshotInputsReader,
  underlying: string,
  contracts: readonly OptionsContractRecord[],
  nowMs: number,
  opts: VisibleTicks & { timeframe: 'REAL-TIME' | 'DELAYED'; fallbackRate?: number },
): Promise<OptionSnapshot[]> {
  if (contracts.length === 0) return [];
  const date = nyDateOf(nowMs);
  const tickers = contracts.map((c) => c.ticker);
  const [inputs, oi, under, r] = await Promise.all([
    inputsOf('stocks', tickers, nowMs),
    store.options.openInterestOn(tickers, date),
    inputsOf('stocks', [underlying], nowMs),
    riskFreeRate(store, date, opts.fallbackRate),
  ]);
  const u = { ticker: underlying, ...underlyingOf(under.get(underlying)) };
  const S = await modelSpot(store, underlying, u, inputs);
  const model: ModelInputs = { S, r, q: await dividendYield(store, underlying, date, S) };
  return contracts.map((c) => optionSnapshot(c, inputs.get(c.ticker), oi.get(c.ticker), u, model, nowMs, opts));
}
