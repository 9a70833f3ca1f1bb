// The live demo market: a synthetic tape for the demo universe that continues from the stored
// last prices (last trade, else the last day bar's close): stock trades and quotes, option quotes
// repriced from their underlying, crypto trades and quotes, forex quotes, index values moving with
// their ETF, and trades and quotes of each demo futures product's front contract (on its price
// tick), a few hundred events a second in total, with random-walk prices (seeded, so two runs
// from one store start alike). Each market prints only in its trading hours (live-hours.ts), so
// on a Sunday evening only crypto, forex and futures move. Events go through the same publishing
// path as POST /admin/publish, so they are stored and aggregated like any other.
import { nyDateOf } from '../domain/calendar.js';
import type { WireEvent } from '../stream/json.js';
import type { PublishedEvent } from '../stream/publish-input.js';
import { FEED_MARKETS, type FeedMarket } from '../stream/markets.js';
import { pairOf } from '../stream/wire-rows.js';
import type { FuturesMarketRepository } from '../store/repos/futures-market.js';
import type { MarketDataPort } from '../store/repos/market-port.js';
import { CRYPTO_LEVELS, FX_LEVELS, INDEX_ETFS, INDEX_LEVELS, STOCK_LEVELS } from './facts/market.js';
import { FUTURES_MARKET_FACTS } from './facts/futures.js';
import { frontContracts, onTick } from './futures-market.js';
import { tapeActivity } from './live-hours.js';
import { liveOptionBook, optionQuote, type LiveOption, type OptionsSource } from './live-options.js';
import { DEMO_CRYPTO, DEMO_FOREX, DEMO_INDICES, TICK_STOCKS } from './market.js';

export interface LiveDemoOptions {
  market: MarketDataPort;
  /** Where futures contracts' last prices and sequence numbers are read (absent: no futures on the tape). */
  futures?: Pick<FuturesMarketRepository, 'lastTrade'>;
  /** Where the demo option chains are read (absent: no options on the tape). */
  options?: OptionsSource;
  publish(items: PublishedEvent[]): Promise<unknown>;
  /** Events per second over the whole universe (default 200). */
  rate?: number;
  now?: () => number;
  seed?: number;
  log?: (line: string) => void;
}

interface Instrument {
  ticker: string;
  market: FeedMarket;
  price: number;
  /** Relative size of one step of the random walk. */
  vol: number;
  seq: number;
  /** Futures: the contract's price tick. */
  tick?: number;
  /** Indices: the ETF the value moves with (INDEX_ETFS), and both levels when the tape started. */
  follows?: { etf: Instrument; ratio?: number; beta: number; start: number; etfStart: number };
}

/** An index's value: its ETF's price times the fixed ratio, else its level moved as the ETF moved. */
function indexValue(ins: Instrument): number {
  const f = ins.follows;
  if (!f) return ins.price;
  return f.ratio !== undefined ? f.etf.price * f.ratio : f.start * (f.etf.price / f.etfStart) ** f.beta;
}

/** xorshift32: small and seedable; the tape needs variety, not cryptographic quality. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

const STARTING_GUESS: Record<FeedMarket, number> = { stocks: 100, options: 1, forex: 1, crypto: 100, indices: 5000, futures: 5000 };
/** Where a ticker with nothing stored starts: the demo's levels, else a guess by market. */
const LEVELS: Record<string, number> = { ...STOCK_LEVELS, ...CRYPTO_LEVELS, ...FX_LEVELS, ...INDEX_LEVELS };

/** Share of the tape's events spent on option quotes while options trade. */
const OPTION_SHARE = 0.3;
/** Typical dollar value of a crypto trade; sizes have fixed decimals by the coin's price. */
const CRYPTO_NOTIONAL = 1500;
/** Form T: a stock trade outside the regular session. */
const EXTENDED_HOURS_CONDITION = 12;

function cryptoSizeDecimals(price: number): number {
  return price >= 1000 ? 5 : price >= 1 ? 3 : 0;
}

async function lastPrice(market: MarketDataPort, ticker: string, now: number, fallback: number): Promise<number> {
  const t = await market.lastTrade(ticker);
  if (t) return t.price;
  const bar = await market.lastDayBarBefore(ticker, now);
  return bar?.c ?? fallback;
}

const round = (p: number, digits: number) => Math.round(p * 10 ** digits) / 10 ** digits;

export interface LiveDemo {
  stop(): Promise<void>;
  /** Events sent so far. */
  sent(): number;
}

export async function startLiveDemo(opts: LiveDemoOptions): Promise<LiveDemo> {
  const now = opts.now ?? Date.now;
  const rate = opts.rate ?? 200;
  const random = rng(opts.seed ?? 20_251_125);
  const universe: Instrument[] = [];
  const add = async (tickers: readonly string[], market: FeedMarket, vol: number) => {
    for (const ticker of tickers) universe.push({ ticker, market, price: await lastPrice(opts.market, ticker, now(), LEVELS[ticker] ?? STARTING_GUESS[market]), vol, seq: 0 });
  };
  await add(TICK_STOCKS, 'stocks', 0.0004);
  await add(DEMO_CRYPTO, 'crypto', 0.0006);
  await add(DEMO_FOREX, 'forex', 0.00005);
  await add(DEMO_INDICES, 'indices', 0.0002);
  const byTicker = new Map(universe.map((ins) => [ins.ticker, ins]));
  for (const ins of universe) {
    const link = ins.market === 'indices' ? INDEX_ETFS[ins.ticker] : undefined;
    const etf = link && byTicker.get(link.etf);
    if (link && etf) ins.follows = { etf, ratio: link.ratio, beta: link.beta, start: ins.price, etfStart: etf.price };
  }
  // option quotes go round their contracts in turn, so each is requoted every few seconds
  const optionRing: { option: LiveOption; underlying: Instrument }[] = [];
  for (const [underlying, options] of opts.options ? await liveOptionBook(opts.options, now()) : []) {
    const ins = byTicker.get(underlying);
    if (ins) for (const option of options) optionRing.push({ option, underlying: ins });
  }
  let nextOption = 0;
  if (opts.futures) {
    const nowNs = BigInt(now()) * 1_000_000n;
    for (const { ticker, product } of frontContracts(nyDateOf(now()))) {
      const last = await opts.futures.lastTrade(ticker, nowNs);
      // sequence numbers key futures ticks: continue after the stored ones
      universe.push({ ticker, market: 'futures', price: last?.price ?? FUTURES_MARKET_FACTS[product.code]?.price ?? STARTING_GUESS.futures, vol: 0.0003, seq: Number(last?.sequence_number ?? 0n), tick: product.tick });
    }
  }

  let tradeId = Math.floor(random() * 1e9);
  let sent = 0;
  const cryptoSize = (price: number) => {
    const d = cryptoSizeDecimals(price);
    // 1 / 10 ** d, not 10 ** -d: the latter is 0.000009999999999999999 for d = 5, a size with 21 decimals
    return Math.max(1 / 10 ** d, round((CRYPTO_NOTIONAL * -Math.log(1 - random())) / price, d));
  };
  const event = (ins: Instrument, t: number, regular: boolean): WireEvent => {
    ins.price = Math.max(0.0001, ins.price * (1 + (random() - 0.5) * 2 * ins.vol));
    ins.seq++;
    const quote = random() < 0.45;
    switch (ins.market) {
      case 'stocks': {
        const p = round(ins.price, 2);
        if (quote) return { ev: 'Q', sym: ins.ticker, bx: 12, bp: round(p - 0.01, 2), bs: 1 + Math.floor(random() * 9), ax: 11, ap: round(p + 0.01, 2), as: 1 + Math.floor(random() * 9), t, q: ins.seq, z: 3 };
        const size = random() < 0.2 ? 1 + Math.floor(random() * 99) : 100 * (1 + Math.floor(random() * 5));
        return { ev: 'T', sym: ins.ticker, x: 4, i: String(++tradeId), z: 3, p, s: size, ...(regular ? {} : { c: [EXTENDED_HOURS_CONDITION] }), t, q: ins.seq };
      }
      case 'crypto': {
        const pair = pairOf(ins.ticker, '-');
        const p = round(ins.price, ins.price > 10 ? 2 : 5);
        if (quote) return { ev: 'XQ', pair, bp: round(p * 0.9999, 5), bs: cryptoSize(p), ap: round(p * 1.0001, 5), as: cryptoSize(p), t, x: 1, r: t + 20 };
        return { ev: 'XT', pair, p, t, s: cryptoSize(p), c: [random() < 0.5 ? 1 : 2], i: String(++tradeId), x: 1, r: t + 20 };
      }
      case 'forex': {
        const p = ins.price;
        return { ev: 'C', p: pairOf(ins.ticker, '/'), x: 48, a: round(p * 1.00002, 5), b: round(p * 0.99998, 5), t };
      }
      case 'futures': {
        const tick = ins.tick!;
        const p = onTick(ins.price, tick);
        if (quote) return { ev: 'Q', sym: ins.ticker, bp: onTick(p - tick, tick), bs: 1 + Math.floor(random() * 30), bt: t, ap: p, as: 1 + Math.floor(random() * 30), at: t, t };
        return { ev: 'T', sym: ins.ticker, p, s: 1 + Math.floor(random() * 5), t, q: ins.seq };
      }
      default:
        if (ins.follows) ins.price = indexValue(ins);
        return { ev: 'V', val: round(ins.price, 2), T: ins.ticker, t };
    }
  };

  const TICK_MS = 100;
  let carry = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return; // a slow store: skip a tick rather than queue up
    carry += (rate * TICK_MS) / 1000;
    const n = Math.floor(carry);
    carry -= n;
    if (n === 0) return;
    const t = now();
    const activity = Object.fromEntries(FEED_MARKETS.map((m) => [m, tapeActivity(m, t)])) as Record<FeedMarket, number>;
    const regular = activity.stocks === 1;
    const items: PublishedEvent[] = [];
    for (let i = 0; i < n; i++) {
      // a market prints at its activity's share of the rate, and not at all while closed
      if (optionRing.length > 0 && random() < OPTION_SHARE) {
        if (random() >= activity.options) continue;
        const { option, underlying } = optionRing[nextOption++ % optionRing.length]!;
        items.push({ market: 'options', event: optionQuote(option, underlying.price, t, random) });
        continue;
      }
      const ins = universe[Math.floor(random() * universe.length)]!;
      if (random() >= activity[ins.market]) continue;
      items.push({ market: ins.market, event: event(ins, t, regular) });
    }
    if (items.length === 0) return;
    busy = true;
    opts
      .publish(items)
      .then(() => {
        sent += items.length;
      })
      .catch((err: unknown) => opts.log?.(`live demo: ${(err as Error).message}`))
      .finally(() => {
        busy = false;
      });
  }, TICK_MS);
  timer.unref();
  opts.log?.(`live demo market: ${universe.length} instruments and ${optionRing.length} option contracts, up to ${rate} events a second while their markets trade`);
  return {
    async stop() {
      clearInterval(timer);
      while (busy) await new Promise((r) => setTimeout(r, 10));
    },
    sent: () => sent,
  };
}
