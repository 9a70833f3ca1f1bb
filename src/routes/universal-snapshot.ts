// The universal snapshot `GET /v3/snapshot` (upstream GetSnapshots): stocks, options, forex,
// crypto and indices in one list. Every item is rebuilt from what the per-market snapshots already
// compute (services/snapshots.ts for stocks/fx/crypto/indices, services/options-chain.ts for
// options) at the same clock, so its values agree with /v2/snapshot/... and /v3/snapshot/options/...
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isForexOpen, marketStatusAt, nyDateOf } from '../domain/calendar.js';
import { marketOfTicker, normalizeTicker, type TickerMarket } from '../domain/ticker-market.js';
import type { ServerContext } from '../server/context.js';
import { entitled } from '../server/entitlements.js';
import { badParameter } from '../domain/errors.js';
import { finishPage, pagedQuery } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, Limit, Order, StringEnum } from '../server/schemas.js';
import { optionSnapshots } from '../services/options-chain.js';
import {
  cryptoSnapshot,
  forexSnapshot,
  readSnapshotInputs,
  snapshotUniverse,
  stockSnapshot,
  type SnapshotInputs,
  type VisibleTicks,
} from '../services/snapshots.js';
import type { KeysetPosition } from '../store/repos/keyset.js';
import type { OptionsContractRecord } from '../store/repos/options.js';
import type { OptionSnapshot } from '../domain/snapshot-schemas.js';
import { snapshotClock } from './snapshots.js';

const TYPES = ['stocks', 'options', 'fx', 'crypto', 'indices'] as const;
type AssetType = (typeof TYPES)[number];
const MAX_TICKERS = 250;
const FAMILY = 'universal-snapshot';
const NS_PER_MS = 1_000_000n;
const MINUTE_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// Wire shape (upstream's SnapshotResponseModel): every key but `ticker` is optional.

const OptNum = () => Type.Optional(Type.Number());
const Ns = () => Type.Unsafe<bigint>(Type.Integer());
const OptNs = () => Type.Optional(Ns());
const OptStr = () => Type.Optional(Type.String());

const Session = Type.Object({
  change: OptNum(),
  change_percent: OptNum(),
  close: OptNum(),
  high: OptNum(),
  low: OptNum(),
  open: OptNum(),
  previous_close: OptNum(),
  price: OptNum(),
  volume: OptNum(),
  decimal_volume: OptStr(),
});

const UniversalItem = Type.Object({
  ticker: Type.String(),
  error: OptStr(),
  message: OptStr(),
  name: OptStr(),
  type: Type.Optional(StringEnum(TYPES)),
  market_status: OptStr(),
  timeframe: OptStr(),
  value: OptNum(),
  last_updated: OptNs(),
  session: Type.Optional(Session),
  last_minute: Type.Optional(
    Type.Object({ open: OptNum(), high: OptNum(), low: OptNum(), close: OptNum(), volume: OptNum(), vwap: OptNum(), transactions: Type.Optional(Type.Integer()) }),
  ),
  last_trade: Type.Optional(
    Type.Object({
      conditions: Type.Optional(Type.Array(Type.Integer())),
      exchange: Type.Optional(Type.Integer()),
      id: OptStr(),
      price: Type.Number(),
      size: OptNum(),
      sip_timestamp: OptNs(),
      participant_timestamp: OptNs(),
      last_updated: OptNs(),
      timeframe: OptStr(),
    }),
  ),
  last_quote: Type.Optional(
    Type.Object({
      ask: Type.Number(),
      ask_size: OptNum(),
      ask_exchange: Type.Optional(Type.Integer()),
      bid: Type.Number(),
      bid_size: OptNum(),
      bid_exchange: Type.Optional(Type.Integer()),
      exchange: Type.Optional(Type.Integer()),
      midpoint: OptNum(),
      last_updated: Ns(),
      timeframe: OptStr(),
    }),
  ),
  // options
  break_even_price: OptNum(),
  details: Type.Optional(
    Type.Object({
      contract_type: Type.String(),
      exercise_style: Type.String(),
      expiration_date: Type.String(),
      shares_per_contract: Type.Number(),
      strike_price: Type.Number(),
      underlying_ticker: Type.String(),
    }),
  ),
  greeks: Type.Optional(Type.Object({ delta: OptNum(), gamma: OptNum(), theta: OptNum(), vega: OptNum() })),
  implied_volatility: OptNum(),
  open_interest: OptNum(),
  underlying_asset: Type.Optional(
    Type.Object({ ticker: Type.String(), price: OptNum(), change_to_break_even: OptNum(), last_updated: OptNs(), timeframe: OptStr() }),
  ),
});
type UniversalItem = Static<typeof UniversalItem>;

const TickerText = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

const Query = Type.Object({
  ticker: Type.Optional(TickerText('a ticker symbol')),
  'ticker.any_of': Type.Optional(Type.String({ minLength: 1, maxLength: 20_000, description: `a comma-separated list of up to ${MAX_TICKERS} tickers` })),
  'ticker.gt': Type.Optional(TickerText('a ticker symbol')),
  'ticker.gte': Type.Optional(TickerText('a ticker symbol')),
  'ticker.lt': Type.Optional(TickerText('a ticker symbol')),
  'ticker.lte': Type.Optional(TickerText('a ticker symbol')),
  type: Type.Optional(StringEnum(TYPES, { description: `one of ${TYPES.join(', ')}` })),
  order: Order('asc'),
  limit: Limit(10, MAX_TICKERS),
  sort: StringEnum(['ticker'] as const, { default: 'ticker', description: 'ticker' }),
  cursor: Type.Optional(Cursor),
});
type Query = Static<typeof Query>;

// ---------------------------------------------------------------------------------------------
// Helpers

interface Clock {
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

function visible(req: FastifyRequest, market: AssetType): VisibleTicks {
  return { trades: entitled(req, 'trades', market), quotes: entitled(req, 'nbbo', market) };
}

const nsOfMs = (ms: number): bigint => BigInt(ms) * NS_PER_MS;

/** Ticker range filter in JS (code-unit order, the order results are listed in). */
interface Range {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

function inRange(t: string, r: Range): boolean {
  return (r.gt === undefined || t > r.gt) && (r.gte === undefined || t >= r.gte) && (r.lt === undefined || t < r.lt) && (r.lte === undefined || t <= r.lte);
}

function optionName(c: Pick<OptionsContractRecord, 'underlying_ticker' | 'strike_price' | 'contract_type'>): string {
  const kind = c.contract_type === 'put' ? 'Put' : c.contract_type === 'call' ? 'Call' : 'Other';
  return `${c.underlying_ticker} $${c.strike_price} ${kind}`;
}

async function namesOf(ctx: ServerContext, tickers: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(
    tickers.map(async (t) => {
      const rec = await ctx.store.reference.getTicker(t);
      if (rec?.name) out.set(t, rec.name);
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Item builders: the per-market snapshot, re-spelt in upstream's universal keys.

/** Stocks, forex, crypto and indices items of `tickers` (one market), keyed by ticker; tickers without data are absent. */
async function barItems(ctx: ServerContext, req: FastifyRequest, market: Exclude<AssetType, 'options'>, tickers: readonly string[], clock: Clock): Promise<Map<string, UniversalItem>> {
  const out = new Map<string, UniversalItem>();
  if (tickers.length === 0) return out;
  const reads = ctx.store.snapshotReads;
  // indices follow the stock session (their values are published while stocks trade)
  const inputs = await readSnapshotInputs(reads, market === 'indices' ? 'stocks' : market, tickers, clock.nowMs);
  const names = await namesOf(ctx, [...inputs.keys()]);
  const otc = market === 'stocks' ? await reads.otcTickers() : new Set<string>();
  const show = visible(req, market);
  const tf = clock.timeframe;
  const status = marketStatus(market, clock.realMs);
  for (const [ticker, x] of inputs) {
    const base = { ticker, name: names.get(ticker), type: market, market_status: status };
    if (market === 'stocks') {
      const s = stockSnapshot(ticker, x, otc.has(ticker), show).snapshot;
      out.set(ticker, {
        ...base,
        session: sessionOf(s.day, s.prevDay, s.todaysChange, s.todaysChangePerc, priceOf(x, 'trade'), true),
        last_minute: s.min ? { open: s.min.o, high: s.min.h, low: s.min.l, close: s.min.c, volume: s.min.v, vwap: s.min.vw, transactions: s.min.n } : undefined,
        last_trade: s.lastTrade
          ? { conditions: s.lastTrade.c, exchange: s.lastTrade.x, id: s.lastTrade.i, price: s.lastTrade.p, size: s.lastTrade.s, last_updated: s.lastTrade.t, timeframe: tf }
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
): Static<typeof Session> {
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
    decimal_volume: stocks ? String(day.v) : undefined,
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
async function optionItems(ctx: ServerContext, req: FastifyRequest, contracts: readonly OptionsContractRecord[], clock: Clock): Promise<Map<string, UniversalItem>> {
  const out = new Map<string, UniversalItem>();
  const byUnderlying = new Map<string, OptionsContractRecord[]>();
  for (const c of contracts) byUnderlying.set(c.underlying_ticker, [...(byUnderlying.get(c.underlying_ticker) ?? []), c]);
  const opts = { ...visible(req, 'options'), timeframe: clock.timeframe, fallbackRate: ctx.config.riskFreeRate };
  const status = marketStatus('options', clock.realMs);
  for (const [underlying, list] of byUnderlying) {
    const snaps = await optionSnapshots(ctx.store, underlying, list, clock.nowMs, opts);
    list.forEach((c, i) => out.set(c.ticker, optionItem(c, snaps[i]!, status)));
  }
  return out;
}

async function itemsFor(ctx: ServerContext, req: FastifyRequest, byMarket: Map<AssetType, string[]>, contracts: OptionsContractRecord[], clock: Clock): Promise<Map<string, UniversalItem>> {
  const out = new Map<string, UniversalItem>();
  for (const [market, tickers] of byMarket) {
    if (market === 'options') continue;
    for (const [t, item] of await barItems(ctx, req, market, tickers, clock)) out.set(t, item);
  }
  for (const [t, item] of await optionItems(ctx, req, contracts, clock)) out.set(t, item);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Listing (no tickers named): every market's tickers merged in ticker order, keyset-paged.

interface Candidate {
  ticker: string;
  market: AssetType;
  contract?: OptionsContractRecord;
}

async function candidates(ctx: ServerContext, markets: readonly AssetType[], range: Range, order: 'asc' | 'desc', want: number, clock: Clock): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const reads = ctx.store.snapshotReads;
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
      const rows = await ctx.store.options.listContracts({ as_of: date, expired: false, sort: 'ticker', order, limit: want, after });
      if (lower?.inclusive) rows.push(...(await ctx.store.options.listContracts({ ticker: lower.v, as_of: date, expired: false, sort: 'ticker', order, limit: 1 })));
      for (const c of rows) if (inRange(c.ticker, range)) out.push({ ticker: c.ticker, market, contract: c });
    } else {
      const rows = await ctx.store.reference.listTickers({
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

// ---------------------------------------------------------------------------------------------

export async function universalSnapshotRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v3/snapshot',
    operationId: 'GetSnapshots',
    summary: 'Universal snapshot',
    description:
      'Stocks, options, forex, crypto and indices in one list, each item rebuilt from the same computation as /v2/snapshot/... (session = its day bar and todaysChange; indices: value = latest minute, day or previous close) and /v3/snapshot/options/... (greeks, IV, open interest) at the same clock; `fmv` and the early/late trading changes are not served. ' +
      'Named tickers (`ticker`, `ticker.any_of`, up to 250) come back unpaginated in the order requested, unknown ones as `{error: "NOT_FOUND"}` items (`NOT_ENTITLED` for markets the plan lacks); otherwise every market is listed merged in ticker (code-unit) order and paginated by `next_url` (stocks without OTC, options = unexpired contracts, indices = reference index tickers with data).',
    tags: ['Snapshots'],
    dataset: 'snapshots',
    // the plan must cover the asked-for market; without `type` each item is checked on its own
    market: ((req: FastifyRequest) => {
      const t = (req.query as Record<string, unknown> | undefined)?.type;
      return typeof t === 'string' && (TYPES as readonly string[]).includes(t) ? t : undefined;
    }) as (req: FastifyRequest) => string,
    querystring: Query,
    response: Type.Object({ status: Type.String(), request_id: Type.String(), results: Type.Array(UniversalItem), next_url: Type.Optional(Type.String()) }),
    handler: async ({ query: raw, req }) => {
      const { query, after } = pagedQuery<Query>(ctx, FAMILY, raw);
      const nowMs = snapshotClock(ctx, req);
      const realMs = ctx.now();
      const clock: Clock = { nowMs, realMs, timeframe: nowMs < realMs ? 'DELAYED' : 'REAL-TIME' };
      const range: Range = { gt: query['ticker.gt'], gte: query['ticker.gte'], lt: query['ticker.lt'], lte: query['ticker.lte'] };
      const isEntitled = (m: AssetType) => entitled(req, 'snapshots', m);

      const named = query['ticker.any_of'] !== undefined ? query['ticker.any_of'].split(',') : query.ticker !== undefined ? [query.ticker] : undefined;
      if (named) {
        const list = [...new Set(named.map((t) => t.trim()).filter((t) => t.length > 0).map(normalizeTicker))];
        if (list.length === 0) throw badParameter('ticker.any_of must be a comma-separated list of tickers');
        if (list.length > MAX_TICKERS) throw badParameter(`ticker.any_of must be a comma-separated list of up to ${MAX_TICKERS} tickers (got ${list.length})`);
        const wanted = list.filter((t) => (query.type === undefined || marketOfTicker(t) === query.type) && inRange(t, range));
        const byMarket = new Map<AssetType, string[]>();
        for (const t of wanted) {
          const m = marketOfTicker(t) as TickerMarket;
          if (isEntitled(m)) byMarket.set(m, [...(byMarket.get(m) ?? []), t]);
        }
        const contracts = (await Promise.all((byMarket.get('options') ?? []).map((t) => ctx.store.options.getContract(t)))).filter((c): c is OptionsContractRecord => c !== undefined);
        const items = await itemsFor(ctx, req, byMarket, contracts, clock);
        const results = wanted.map(
          (t): UniversalItem =>
            items.get(t) ??
            (isEntitled(marketOfTicker(t)) ? { error: 'NOT_FOUND', message: 'Ticker not found.', ticker: t } : { error: 'NOT_ENTITLED', message: 'Not entitled to this ticker.', ticker: t }),
        );
        return { results };
      }

      // listing: the cursor's last ticker narrows the range in the walking direction
      const pageRange: Range = { ...range };
      if (after) {
        const last = String(after.value);
        if (query.order === 'asc') pageRange.gt = pageRange.gt === undefined || last > pageRange.gt ? last : pageRange.gt;
        else pageRange.lt = pageRange.lt === undefined || last < pageRange.lt ? last : pageRange.lt;
      }
      const markets = (query.type ? [query.type] : [...TYPES]).filter(isEntitled);
      const rows = await candidates(ctx, markets, pageRange, query.order, query.limit + 1, clock);
      const page = finishPage(ctx, req, FAMILY, query, query.limit, rows, (c) => ({ value: c.ticker, id: c.ticker }));
      const byMarket = new Map<AssetType, string[]>();
      for (const c of page.rows) byMarket.set(c.market, [...(byMarket.get(c.market) ?? []), c.ticker]);
      const items = await itemsFor(ctx, req, byMarket, page.rows.flatMap((c) => (c.contract ? [c.contract] : [])), clock);
      const results = page.rows.flatMap((c) => {
        const item = items.get(c.ticker);
        return item ? [item] : [];
      });
      return { results, ...(page.next_url ? { next_url: page.next_url } : {}) };
    },
  });
}
