// Option contracts and market data whose answers are known by hand or from textbooks.
import { bsPrice, expiryInstantMs } from '../../src/domain/greeks.js';
import { formatOptionTicker } from '../../src/domain/option-symbol.js';
import type { QuoteRow, TradeRow } from '../../src/domain/market-records.js';
import type { Store } from '../../src/store/index.js';
import { TREASURY_YIELDS } from '../../src/store/repos/dataset-catalog.js';
import type { OptionsContractRecord } from '../../src/store/repos/options.js';

const YEAR_MS = 365 * 86_400_000;
export const ns = (ms: number, extra = 0n): bigint => BigInt(ms) * 1_000_000n + extra;

export function contract(underlying: string, expiration_date: string, type: 'call' | 'put', strike: number, extra: Partial<OptionsContractRecord> = {}): OptionsContractRecord {
  return {
    ticker: formatOptionTicker({ underlying, expiration_date, contract_type: type, strike_price: strike }),
    underlying_ticker: underlying,
    contract_type: type,
    exercise_style: 'american',
    expiration_date,
    strike_price: strike,
    shares_per_contract: 100,
    primary_exchange: 'BATO',
    cfi: type === 'call' ? 'OCASPS' : 'OPASPS',
    ...extra,
  };
}

/**
 * The reference list: ZZA and ZZB contracts over three expirations (one expired as of 2026-11-19),
 * strikes 90/100/110, calls and puts; one adjusted ZZA contract with additional underlyings.
 */
export function referenceContracts(): OptionsContractRecord[] {
  const out: OptionsContractRecord[] = [];
  for (const u of ['ZZA', 'ZZB']) {
    for (const exp of ['2026-11-13', '2026-11-20', '2026-12-18']) {
      for (const strike of [90, 100, 110]) {
        for (const type of ['call', 'put'] as const) out.push(contract(u, exp, type, strike, { list_date: '2026-09-01' }));
      }
    }
  }
  out.push(
    contract('ZZA', '2027-01-15', 'call', 52.5, {
      shares_per_contract: 150,
      correction: 1,
      list_date: '2026-11-19',
      additional_underlyings: [{ type: 'equity', underlying: 'ZZC', amount: 50 }, { type: 'currency', underlying: 'USD', amount: 12.5 }],
    }),
  );
  return out;
}

/** Hull's textbook examples, reproduced through the snapshot endpoint. */
export interface TextbookCase {
  underlying: string;
  contract: OptionsContractRecord;
  clockMs: number;
  S: number;
  bid: number;
  ask: number;
}

/** Clock at which `expiration` (16:00 ET) is `years` away. */
export function clockBefore(expiration: string, years: number): number {
  return Math.round(expiryInstantMs(expiration) - years * YEAR_MS);
}

/**
 * Hull, Options, Futures and Other Derivatives, §19 (greeks): S = 49, K = 50, r = 5 %, σ = 20 %,
 * T = 20 weeks (0.3846 y): price 2.40, delta 0.522, gamma 0.066, theta −4.31/y, vega 12.1.
 */
export const HULL_CALL: TextbookCase = {
  underlying: 'HULA',
  contract: contract('HULA', '2027-04-16', 'call', 50),
  clockMs: clockBefore('2027-04-16', 0.3846),
  S: 49,
  bid: 2.39,
  ask: 2.41,
};

/** Hull §15 (BSM pricing): S = 42, K = 40, r = 10 %, σ = 20 %, T = 0.5: put 0.81 (call 4.76). */
export const HULL_PUT: TextbookCase = {
  underlying: 'HULB',
  contract: contract('HULB', '2027-09-17', 'put', 40),
  clockMs: clockBefore('2027-09-17', 0.5),
  S: 42,
  bid: 0.8,
  ask: 0.82,
};

function tickAt(ticker: string, ms: number, price: number): TradeRow {
  return { ticker, sip_timestamp: ns(ms), price, size: 100, exchange: 4, id: `t${ms}`, sequence_number: 1n, conditions: [209] };
}

function quoteAt(ticker: string, ms: number, bid: number, ask: number): QuoteRow {
  return { ticker, sip_timestamp: ns(ms), bid_price: bid, ask_price: ask, bid_size: 10, ask_size: 12, bid_exchange: 301, ask_exchange: 302, sequence_number: 1n };
}

export async function loadTextbookCases(store: Store): Promise<void> {
  for (const c of [HULL_CALL, HULL_PUT]) {
    await store.options.upsertContracts([c.contract]);
    await store.market.insertTrades([tickAt(c.underlying, c.clockMs - 120_000, c.S)]);
    await store.market.insertQuotes([quoteAt(c.contract.ticker, c.clockMs - 30_000, c.bid, c.ask)]);
  }
  // r for HULB's clock: 10 % continuously compounded, stored as a 3-month yield in percent. Dated
  // after HULA's clock, so HULA falls back to the configured rate.
  await store.datasets.upsert(TREASURY_YIELDS, [{ date: '2027-03-01', yield_3_month: Math.expm1(0.1) * 100, yield_10_year: 4 }]);
}

/**
 * A dividend payer: S = 100, $4 of dividends in the trailing year (q = 4 %), r = configured, the
 * quote priced at σ = 30 % with that q. The endpoint should recover σ = 0.30.
 */
export const DIVIDEND_CASE = {
  underlying: 'DIVY',
  contract: contract('DIVY', '2027-06-18', 'call', 105),
  clockMs: clockBefore('2027-06-18', 0.75),
  S: 100,
  q: 0.04,
  sigma: 0.3,
};

export async function loadDividendCase(store: Store, r: number): Promise<number> {
  const c = DIVIDEND_CASE;
  const price = bsPrice({ type: 'call', S: c.S, K: 105, T: 0.75, r, q: c.q, sigma: c.sigma });
  await store.options.upsertContracts([c.contract]);
  await store.market.insertTrades([tickAt(c.underlying, c.clockMs - 60_000, c.S)]);
  await store.market.insertQuotes([quoteAt(c.contract.ticker, c.clockMs - 10_000, price - 0.0001, price + 0.0001)]);
  const dividend = (ex: string) => ({ ticker: 'DIVY', cash_amount: 1, ex_dividend_date: ex, frequency: 4, distribution_type: 'recurring', dividend_type: 'CD' });
  // four inside the trailing year of the clock (2026-09-15), one older that must not count
  await store.corporateActions.upsertDividends(['2025-06-01', '2025-11-03', '2026-02-02', '2026-05-04', '2026-08-03'].map(dividend));
  return price;
}
