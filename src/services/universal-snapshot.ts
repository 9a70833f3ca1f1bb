// The universal snapshot: stocks, options, forex, crypto and indices in one list. Every item is
// rebuilt from what the per-market snapshots already compute (snapshots.ts for stocks, forex,
// crypto and indices, options-chain.ts for options) at the same clock, so its values agree with
// the v2 snapshots and the option chain snapshot.
import { isForexOpen, marketStatusAt, nyDateOf } from '../domain/calendar.js';
import { decimalQuantity } from '../domain/decimal-quantity.js';
import { badParameter } from '../domain/errors.js';
import type { OptionSnapshot } from '../domain/snapshot-schemas.js';
import { marketOfTicker, normalizeTicker, type TickerMarket } from '../domain/ticker-market.js';
import { UNIVERSAL_TYPES, type UniversalAssetType, type UniversalItem, type UniversalSession } from '../domain/universal-snapshot-schema.js';
import type { Store } from '../store/index.js';
import type { OptionsContractRecord } from '../store/repos/options.js';
import { optionSnapshots } from './options-chain.js';
import type { KeysetPosition, KeysetRows, PageRequest } from './paging.js';
import {
  changeFrom,
  cryptoSnapshot,
  forexSnapshot,
  snapshotUniverse,
  storeInputsReader,
  stockSnapshot,
  type SessionPartPrices,
  type SnapshotInputs,
  type SnapshotInputsReader,
  type VisibleTicks,
} from './snapshots.js';

type AssetType = UniversalAssetType;
type UniversalStore = Pick<Store, 'reference' | 'options' | 'snapshotReads' | 'datasets' | 'corporateActions'>;

export const MAX_UNIVERSAL_TICKERS = 250;
const NS_PER_MS = 1_000_000n;
const MINUTE_MS = 60_000;

/** What an answer depends on besides its parameters: the clock and what the request's plan may see. */
export interface UniversalRequest {
  clock: Clock;
  /** Whether the plan covers `dataset` (snapshots, trades, nbbo) of `market`. */
  entitled(dataset: 'snapshots' | 'trades' | 'nbbo', market: AssetType): boolean;
}

/** The listing's parameters (a cursor of a later page carries them). */
export interface UniversalListQuery {
  'ticker.gt'?: string;
  'ticker.gte'?: string;
  'ticker.lt'?: string;
  'ticker.lte'?: string;
  type?: AssetType;
  order: 'asc' | 'desc';
}

export interface Clock {
  nowMs: number;
  /** The real clock (market status is "now" even for a delayed plan). */
  realMs: number;
  timeframe: 'REAL-TIME' | 'DELAYED';
}

/** Upstream's market_status strings: open, closed, early_trading, late_trading. */
function marketStatus(market: AssetType, ms: number): string {
  if (market === 'crypto') return 'open';
  if (market === 'fx') return isForexOpen(ms) ? 'open' : 'closed';
  const s = marketStatusAt(ms);
  if (s.market === 'open') return 'open';
  if (s.earlyHours) return 'early_trading';
  if (s.afterHours) return 'late_trading';
  return 'closed';
}

function visible(r: UniversalRequest, market: AssetType): VisibleTicks {
  return { trades: r.entitled('trades', market), quotes: r.entitled('nbbo', market) };
}

const nsOfMs = (ms: number): bigint => BigInt(ms) * NS_PER_MS;

/** Ticker range filter in JS (code-unit order, the order results are listed in). */
export interface Range {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

export function inRange(t: string, r: Range): boolean {
  return (r.gt === undefined || t > r.gt) && (r.gte === undefined || t >= r.gte) && (r.lt === undefined || t < r.lt) && (r.lte === undefined || t <= r.lte);
}

function optionName(c: Pick<OptionsContractRecord, 'underlying_ticker' | 'strike_price' | 'contract_type'>): string {
  const kind = c.contract_type === 'put' ? 'Put' : c.contract_type === 'call' ? 'Call' : 'Other';
  return `${c.underlying_ticker} $${c.strike_price} ${kind}`;
}

async function namesOf(store: UniversalStore, tickers: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(
    tickers.map(async (t) => {
      const rec = await store.reference.getTicker(t);
      if (rec?.name) out.set(t, rec.name);
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Item builders: the per-market snapshot, re-spelt in upstream's universal keys.

/** Stocks, forex, crypto and indices items of `tickers` (one market), keyed by ticker; tickers without data are absent. */
async function barItems(store: UniversalStore, inputsOf: SnapshotInputsReader, r: UniversalRequest, market: Exclude<AssetType, 'options'>, tickers: readonly string[], clock: Clock): Promise<Map<string, UniversalItem>> {
  const out = new Map<string, UniversalItem>();
  if (tickers.length === 0) return out;
  const reads = store.snapshotReads;
  // indices follow the stock session (their values are published while stocks trade); the live
  // state keeps no index values, so theirs are read from the store
  const inputs = market === 'indices' ? await storeInputsReader(reads)('stocks', tickers, clock.nowMs) : await inputsOf(market, tickers, clock.nowMs);
  const names = await namesOf(store, [...inputs.keys()]);
  const otc = market === 'stocks' ? await reads.otcTickers() : new Set<string>();
  const show = visible(r, market);
  const tf = clock.timeframe;
  const status = marketStatus(market, clock.realMs);
  for (const [ticker, x] of inputs) {
    const base = { ticker, name: names.get(ticker), type: market, market_status: status };
    if (market === 'stocks') {
      const s = stockSnapshot(ticker, x, otc.has(ticker), show).snapshot;
      out.set(ticker, {
        ...base,
        session: { ...sessionOf(s.day, s.prevDay, s.todaysChange, s.todaysChangePerc, priceOf(x, 'trade'), true), ...partChanges(x.parts, x.prev?.c) },
        // only a completed minute (the v2 snapshot's min is zero-filled without one)
        last_minute:
          x.min && s.min
            ? { open: s.min.o, high: s.min.h, low: s.min.l, close: s.min.c, volume: s.min.v, decimal_volume: s.min.dv, vwap: s.min.vw, transactions: s.min.n }
            : undefined,
        last_trade: s.lastTrade
          ? {
              conditions: s.lastTrade.c,
              exchange: s.lastTrade.x,
              id: s.lastTrade.i,
              price: s.lastTrade.p,
              size: s.lastTrade.s,
              decimal_size: s.lastTrade.ds,
              participant_timestamp: x.trade!.participant_timestamp,
              last_updated: s.lastTrade.t,
              timeframe: tf,
            }
          : undefined,
        last_quote: s.lastQuote ? { ask: s.lastQuote.P, ask_size: s.lastQuote.S, bid: s.lastQuote.p, bid_size: s.lastQuote.s, last_updated: s.lastQuote.t, timeframe: tf } : undefined,
      });
    } else if (market === 'fx') {
      const s = forexSnapshot(ticker, x).snapshot;
      const q = x.quote;
      out.set(ticker, {
        ...base,
        session: sessionOf(s.day, s.prevDay, s.todaysChange, s.todaysChangePerc, priceOf(x, 'quote'), false),
        last_quote:
          q && show.quotes
            ? { ask: q.ask_price, bid: q.bid_price, exchange: q.bid_exchange ?? q.ask_exchange, last_updated: q.participant_timestamp ?? q.sip_timestamp ?? 0n, timeframe: tf }
            : undefined,
      });
    } else if (market === 'crypto') {
      const s = cryptoSnapshot(ticker, x, show).snapshot;
      const t = show.trades ? x.trade : undefined;
      out.set(ticker, {
        ...base,
        session: sessionOf(s.day, s.prevDay, s.todaysChange, s.todaysChangePerc, priceOf(x, 'trade'), false),
        last_trade: t
          ? { conditions: t.conditions ?? [], exchange: t.exchange, id: t.id ?? '', price: t.price, size: t.size, participant_timestamp: t.participant_timestamp ?? t.sip_timestamp, timeframe: tf }
          : undefined,
      });
    } else {
      // indices: value = the latest completed minute's close, else the day's, else the previous close
      const s = stockSnapshot(ticker, x, false, { trades: false, quotes: false }).snapshot;
      const bar = x.min ?? x.day ?? x.prev;
      // no change split: upstream's recorded index items carry none (their values are regular-session only)
      const session = sessionOf(s.day, s.prevDay, s.todaysChange, s.todaysChangePerc, undefined, false);
      delete session.volume;
      out.set(ticker, {
        ...base,
        value: bar?.c,
        last_updated: bar ? nsOfMs(bar.t + (bar === x.min ? MINUTE_MS : 0)) : undefined,
        timeframe: tf,
        session,
      });
    }
  }
  return out;
}

/** The price the change is measured from, as services/snapshots.ts picks it. */
function priceOf(x: SnapshotInputs, tick: 'trade' | 'quote'): number | undefined {
  const p = tick === 'trade' ? x.trade?.price : x.quote?.bid_price;
  return p ?? x.min?.c ?? x.day?.c;
}

function sessionOf(
  day: { o: number; h: number; l: number; c: number; v: number },
  prev: { c: number } | undefined,
  change: number,
  changePerc: number,
  price: number | undefined,
  stocks: boolean,
): UniversalSession {
  return {
    change,
    change_percent: changePerc,
    close: day.c,
    high: day.h,
    low: day.l,
    open: day.o,
    previous_close: prev?.c,
    price,
    volume: day.v,
    decimal_volume: stocks ? decimalQuantity(day.v) : undefined,
  };
}

/**
 * The day's change split by session part, as upstream describes the fields: pre-market and regular
 * changes from the previous close to the part's last price (the current price while the part is
 * on, the part's closing price after it), the after-hours change from the regular close. A part
 * without a price by the clock, or a base without a price, has no change.
 */
function partChanges(parts: SessionPartPrices | undefined, previousClose: number | undefined): Partial<UniversalSession> {
  const early = changeFrom(parts?.early, previousClose);
  const regular = changeFrom(parts?.regular, previousClose);
  const late = changeFrom(parts?.late, parts?.regular);
  return {
    early_trading_change: early?.change,
    early_trading_change_percent: early?.percent,
    regular_trading_change: regular?.change,
    regular_trading_change_percent: regular?.percent,
    late_trading_change: late?.change,
    late_trading_change_percent: late?.percent,
  };
}

function optionItem(c: OptionsContractRecord, s: OptionSnapshot, status: string): UniversalItem {
  const d = s.day;
  return {
    ticker: c.ticker,
    name: optionName(c),
    type: 'options',
    market_status: status,
    break_even_price: s.break_even_price,
    details: {
      contract_type: c.contract_type,
      exercise_style: c.exercise_style,
      expiration_date: c.expiration_date,
      shares_per_contract: c.shares_per_contract,
      strike_price: c.strike_price,
      underlying_ticker: c.underlying_ticker,
    },
    greeks: s.greeks,
    implied_volatility: s.implied_volatility,
    open_interest: s.open_interest,
    session: { change: d.change, change_percent: d.change_percent, close: d.close, high: d.high, low: d.low, open: d.open, previous_close: d.previous_close, volume: d.volume },
    last_quote: s.last_quote
      ? {
          ask: s.last_quote.ask,
          ask_size: s.last_quote.ask_size,
          ask_exchange: s.last_quote.ask_exchange,
          bid: s.last_quote.bid,
          bid_size: s.last_quote.bid_size,
          bid_exchange: s.last_quote.bid_exchange,
          midpoint: s.last_quote.midpoint,
          last_updated: s.last_quote.last_updated,
          timeframe: s.last_quote.timeframe,
        }
      : undefined,
    last_trade: s.last_trade,
    underlying_asset: s.underlying_asset,
  };
}

/** Option items of known contracts, keyed by ticker; one batched chain read per underlying. */
async function optionItems(store: UniversalStore, inputsOf: SnapshotInputsReader, r: UniversalRequest, contracts: readonly OptionsContractRecord[], clock: Clock, fallbackRate: number | undefined): Promise<Map<string, UniversalItem>> {
  const out = new Map<string, UniversalItem>();
  const byUnderlying = new Map<string, OptionsContractRecord[]>();
  for (const c of contracts) byUnderlying.set(c.underlying_ticker, [...(byUnderlying.get(c.underlying_ticker) ?? []), c]);
  const opts = { ...visible(r, 'options'), timeframe: clock.timeframe, fallbackRate };
  const status = marketStatus('options', clock.realMs);
  for (const [underlying, list] of byUnderlying) {
    const snaps = await optionSnapshots(store, inputsOf, underlying, list, clock.nowMs, opts);
    list.forEach((c, i) => out.set(c.ticker, optionItem(c, snaps[i]!, status)));
  }
  return out;
}

async function itemsFor(store: UniversalStore, inputsOf: SnapshotInputsReader, r: UniversalRequest, byMarket: Map<AssetType, string[]>, contracts: OptionsContractRecord[], fallbackRate: number | undefined): Promise<Map<string, UniversalItem>> {
  const out = new Map<string, UniversalItem>();
  for (const [market, tickers] of byMarket) {
    if (market === 'options') continue;
    for (const [t, item] of await barItems(store, inputsOf, r, market, tickers, r.clock)) out.set(t, item);
  }
  for (const [t, item] of await optionItems(store, inputsOf, r, contracts, r.clock, fallbackRate)) out.set(t, item);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Listing (no tickers named): every market's tickers merged in ticker order, keyset-paged.

export interface Candidate {
  ticker: string;
  market: AssetType;
  contract?: OptionsContractRecord;
}

async function candidates(store: UniversalStore, markets: readonly AssetType[], range: Range, order: 'asc' | 'desc', want: number, clock: Clock): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const reads = store.snapshotReads;
  for (const market of markets) {
    if (market === 'stocks' || market === 'fx' || market === 'crypto') {
      // the tickers the v2 full-market snapshot lists (stocks without OTC, as its default)
      const universe = await snapshotUniverse(reads, market, clock.nowMs);
      const otc = market === 'stocks' ? await reads.otcTickers() : new Set<string>();
      for (const t of universe) if (!otc.has(t) && inRange(t, range)) out.push({ ticker: t, market });
    } else if (market === 'options') {
      // the contracts the chain snapshots list: unexpired at the clock, in ticker order from the bound on
      const date = nyDateOf(clock.nowMs);
      const lower = order === 'asc' ? boundOf(range.gt, range.gte, 1) : boundOf(range.lt, range.lte, -1);
      const after: KeysetPosition | undefined = lower ? { value: lower.v, id: lower.v } : undefined;
      const rows = await store.options.listContracts({ as_of: date, expired: false, sort: 'ticker', order, limit: want, after });
      if (lower?.inclusive) rows.push(...(await store.options.listContracts({ ticker: lower.v, as_of: date, expired: false, sort: 'ticker', order, limit: 1 })));
      for (const c of rows) if (inRange(c.ticker, range)) out.push({ ticker: c.ticker, market, contract: c });
    } else {
      const rows = await store.reference.listTickers({
        market: 'indices',
        active: true,
        sort: 'ticker',
        order,
        limit: want,
        tickerGt: range.gt,
        tickerGte: range.gte,
        tickerLt: range.lt,
        tickerLte: range.lte,
      });
      for (const r of rows) if (marketOfTicker(r.record.ticker) === 'indices' && inRange(r.record.ticker, range)) out.push({ ticker: r.record.ticker, market });
    }
  }
  const sign = order === 'asc' ? 1 : -1;
  const seen = new Set<string>();
  return out
    .sort((a, b) => sign * (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0))
    .filter((c) => (seen.has(c.ticker) ? false : (seen.add(c.ticker), true)))
    .slice(0, want);
}

/** The tighter of a strict and an inclusive bound in direction `dir` (1: lower bound, −1: upper). */
function boundOf(strict: string | undefined, inclusive: string | undefined, dir: 1 | -1): { v: string; inclusive: boolean } | undefined {
  if (strict === undefined) return inclusive === undefined ? undefined : { v: inclusive, inclusive: true };
  if (inclusive === undefined) return { v: strict, inclusive: false };
  const tighter = dir === 1 ? inclusive > strict : inclusive < strict;
  return tighter ? { v: inclusive, inclusive: true } : { v: strict, inclusive: false };
}


const rangeOf = (q: UniversalListQuery): Range => ({ gt: q['ticker.gt'], gte: q['ticker.gte'], lt: q['ticker.lt'], lte: q['ticker.lte'] });

export class UniversalSnapshotService {
  constructor(
    private readonly store: UniversalStore,
    private readonly fallbackRate: number | undefined,
    /** Where the items' market data is read: the live state's where it holds it (default: the store). */
    private readonly inputsOf: SnapshotInputsReader = storeInputsReader(store.snapshotReads),
  ) {}

  /**
   * Items of named tickers (`ticker` or `ticker.any_of`, comma-separated) in the order asked for,
   * those of `type` and inside the range of `q` only; unknown tickers as NOT_FOUND items, those of
   * markets the plan lacks as NOT_ENTITLED items. Tickers of another market than `type` are left
   * out, or with `outsideType: 'not-found'` (a one-market endpoint) answered as NOT_FOUND items.
   */
  async named(names: string, q: UniversalListQuery, r: UniversalRequest, opts: { outsideType?: 'omit' | 'not-found' } = {}): Promise<UniversalItem[]> {
    const list = [...new Set(names.split(',').map((t) => t.trim()).filter((t) => t.length > 0).map(normalizeTicker))];
    if (list.length === 0) throw badParameter('ticker.any_of must be a comma-separated list of tickers');
    if (list.length > MAX_UNIVERSAL_TICKERS) throw badParameter(`ticker.any_of must be a comma-separated list of up to ${MAX_UNIVERSAL_TICKERS} tickers (got ${list.length})`);
    const range = rangeOf(q);
    const isEntitled = (m: AssetType) => r.entitled('snapshots', m);
    const ofType = (t: string) => q.type === undefined || marketOfTicker(t) === q.type;
    const wanted = list.filter((t) => (ofType(t) || opts.outsideType === 'not-found') && inRange(t, range));
    const byMarket = new Map<AssetType, string[]>();
    for (const t of wanted.filter(ofType)) {
      const m = marketOfTicker(t) as TickerMarket;
      if (isEntitled(m)) byMarket.set(m, [...(byMarket.get(m) ?? []), t]);
    }
    const contracts = (await Promise.all((byMarket.get('options') ?? []).map((t) => this.store.options.getContract(t)))).filter((c): c is OptionsContractRecord => c !== undefined);
    const items = await itemsFor(this.store, this.inputsOf, r, byMarket, contracts, this.fallbackRate);
    return wanted.map(
      (t): UniversalItem =>
        items.get(t) ??
        (!ofType(t) || isEntitled(marketOfTicker(t)) ? { error: 'NOT_FOUND', message: 'Ticker not found.', ticker: t } : { error: 'NOT_ENTITLED', message: 'Not entitled to this ticker.', ticker: t }),
    );
  }

  /** The listing: every entitled market's tickers merged in ticker order, keyset-paged on the ticker. */
  async list(q: UniversalListQuery, page: PageRequest, r: UniversalRequest): Promise<KeysetRows<Candidate>> {
    // the cursor's last ticker narrows the range in the walking direction
    const range = rangeOf(q);
    if (page.after) {
      const last = String(page.after.value);
      if (q.order === 'asc') range.gt = range.gt === undefined || last > range.gt ? last : range.gt;
      else range.lt = range.lt === undefined || last < range.lt ? last : range.lt;
    }
    const markets = (q.type ? [q.type] : [...UNIVERSAL_TYPES]).filter((m) => r.entitled('snapshots', m));
    const rows = await candidates(this.store, markets, range, q.order, page.limit, r.clock);
    return { rows, position: (c) => ({ value: c.ticker, id: c.ticker }) };
  }

  /** The items of listed candidates, in their order; candidates without data are left out. */
  async items(rows: Candidate[], r: UniversalRequest): Promise<UniversalItem[]> {
    const byMarket = new Map<AssetType, string[]>();
    for (const c of rows) byMarket.set(c.market, [...(byMarket.get(c.market) ?? []), c.ticker]);
    const items = await itemsFor(this.store, this.inputsOf, r, byMarket, rows.flatMap((c) => (c.contract ? [c.contract] : [])), this.fallbackRate);
    return rows.flatMap((c) => {
      const item = items.get(c.ticker);
      return item ? [item] : [];
    });
  }
}
