// The live tape's option quotes: the demo chains' unexpired contracts, each requoted from its
// underlying's price on the tape at that instant (the chains' own pricing: smile, rate and
// dividends), so a snapshot never pairs a moved underlying with a stale option quote for long and
// every contract keeps an implied volatility.
import { nyDateOf } from '../domain/calendar.js';
import type { Store } from '../store/index.js';
import type { OptionsContractRecord } from '../store/repos/options.js';
import { dividendYield, riskFreeRate } from '../services/options-chain.js';
import type { WireEvent } from '../stream/json.js';
import { DEMO_OPTION_UNDERLYINGS, demoOptionPrice, quoteAround } from './options.js';

export type OptionsSource = Pick<Store, 'options' | 'datasets' | 'corporateActions'>;

export interface LiveOption {
  contract: OptionsContractRecord;
  atmVol: number;
  /** Risk-free rate and the underlying's trailing-year dividends per share, as of the tape's start. */
  rate: number;
  dividends: number;
  seq: number;
}

/** Contracts of one underlying the store lists, at most (the demo chains hold about 200 each). */
const CONTRACTS_PER_UNDERLYING = 2000;
const OPTION_QUOTE_EXCHANGES = [300, 302, 303, 307, 308, 312, 316, 322];

/** The demo chains' contracts not expired at `nowMs`, by underlying. */
export async function liveOptionBook(store: OptionsSource, nowMs: number): Promise<Map<string, LiveOption[]>> {
  const today = nyDateOf(nowMs);
  const rate = await riskFreeRate(store, today);
  const book = new Map<string, LiveOption[]>();
  for (const [underlying, atmVol] of DEMO_OPTION_UNDERLYINGS) {
    const contracts = await store.options.listContracts({ underlying_ticker: { eq: underlying }, expiration_date: { gte: today }, sort: 'ticker', order: 'asc', limit: CONTRACTS_PER_UNDERLYING });
    if (contracts.length === 0) continue;
    const dividends = await dividendYield(store, underlying, today, 1);
    book.set(underlying, contracts.map((contract) => ({ contract, atmVol, rate, dividends, seq: 0 })));
  }
  return book;
}

/** A quote of `o` with its underlying at `underlyingPrice`, at `t` (Unix ms). */
export function optionQuote(o: LiveOption, underlyingPrice: number, t: number, random: () => number): WireEvent {
  const { bid, ask } = quoteAround(demoOptionPrice(o.contract, o.atmVol, underlyingPrice, t, o.rate, o.dividends));
  const exchange = () => OPTION_QUOTE_EXCHANGES[Math.floor(random() * OPTION_QUOTE_EXCHANGES.length)]!;
  return { ev: 'Q', sym: o.contract.ticker, bx: exchange(), bp: bid, bs: 1 + Math.floor(random() * 250), ax: exchange(), ap: ask, as: 1 + Math.floor(random() * 250), t, q: ++o.seq };
}
