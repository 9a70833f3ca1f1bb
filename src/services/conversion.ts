/**
 * Currency conversion from the stored forex quotes at a clock.
 *
 * Route, in order of preference:
 * 1. direct: the latest quote of `C:{FROM}{TO}` (then the crypto pair `X:{FROM}{TO}`);
 * 2. inverse: the latest quote of `C:{TO}{FROM}`, inverted (bid' = 1/ask, ask' = 1/bid);
 * 3. cross through USD: FROM→USD and USD→TO, each direct or inverse.
 *
 * The rate is the ask of FROM/TO (so an inverse quote converts at 1/bid, as upstream's recorded
 * samples do: converted = amount / bid(TO/FROM)); a cross multiplies the two legs' asks.
 * `converted` is rounded half away from zero to `precision` decimals. `last` and `symbol` are the
 * quote actually stored for a direct or inverse route; a cross reports the synthetic FROM/TO quote
 * (bid = product of bids, ask = product of asks, the older leg's time, the FROM leg's exchange).
 */
import type { Conversion } from '../domain/conversion-schema.js';
import type { QuoteRow } from '../domain/market-records.js';
import type { ForexLast } from '../domain/tick-schemas.js';

export type { Conversion };

const NS_PER_MS = 1_000_000n;
const PIVOT = 'USD';

/** Latest quote of a ticker at or before `atNs` (the market-data port's lastQuote). */
export type QuoteLookup = (ticker: string, atNs: bigint) => Promise<QuoteRow | undefined>;

interface Leg {
  /** Ask of FROM/TO for this leg. */
  ask: number;
  bid: number;
  /** The stored quote and its pair, as shown in `last` / `symbol`. */
  quote: QuoteRow;
  symbol: string;
}

function wire(q: QuoteRow): ForexLast {
  return {
    ask: q.ask_price,
    bid: q.bid_price,
    exchange: q.ask_exchange ?? q.bid_exchange ?? 0,
    timestamp: Number((q.participant_timestamp ?? q.sip_timestamp ?? 0n) / NS_PER_MS),
  };
}

async function leg(lookup: QuoteLookup, from: string, to: string, atNs: bigint): Promise<Leg | undefined> {
  for (const prefix of ['C:', 'X:']) {
    const direct = await lookup(`${prefix}${from}${to}`, atNs);
    if (direct && direct.ask_price > 0 && direct.bid_price > 0) {
      return { ask: direct.ask_price, bid: direct.bid_price, quote: direct, symbol: `${from}/${to}` };
    }
  }
  for (const prefix of ['C:', 'X:']) {
    const inverse = await lookup(`${prefix}${to}${from}`, atNs);
    if (inverse && inverse.ask_price > 0 && inverse.bid_price > 0) {
      return { ask: 1 / inverse.bid_price, bid: 1 / inverse.ask_price, quote: inverse, symbol: `${to}/${from}` };
    }
  }
  return undefined;
}

/**
 * Rounds half away from zero at `precision` decimals, on the shortest decimal text of the value
 * (1.005 → 1.01, where 1.005 × 100 in binary would give 100.49999…). Exponent arithmetic on that
 * text keeps tiny and huge values right (5e-324 → 0).
 */
export function roundHalfUp(x: number, precision: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e') as [string, string];
  // from 1e15 on a double has no fractional digits left to round
  if (Number(exponent) >= 15) return x;
  const shifted = Math.round(Number(`${mantissa}e${Number(exponent) + precision}`));
  return (Math.sign(x) * shifted) / 10 ** precision;
}

/** The conversion of `amount` FROM into TO, or undefined when no route exists. */
export async function convert(
  lookup: QuoteLookup,
  req: { from: string; to: string; amount: number; precision: number; atNs: bigint },
): Promise<Conversion | undefined> {
  const { from, to, amount, precision, atNs } = req;
  const base = { from, to, initialAmount: amount };
  if (from === to) {
    return { ...base, converted: roundHalfUp(amount, precision), symbol: `${from}/${to}`, last: { ask: 1, bid: 1, exchange: 0, timestamp: Number(atNs / NS_PER_MS) } };
  }
  const one = await leg(lookup, from, to, atNs);
  if (one) return { ...base, converted: roundHalfUp(amount * one.ask, precision), symbol: one.symbol, last: wire(one.quote) };
  if (from === PIVOT || to === PIVOT) return undefined;
  const [a, b] = await Promise.all([leg(lookup, from, PIVOT, atNs), leg(lookup, PIVOT, to, atNs)]);
  if (!a || !b) return undefined;
  const wa = wire(a.quote);
  const wb = wire(b.quote);
  return {
    ...base,
    converted: roundHalfUp(amount * a.ask * b.ask, precision),
    symbol: `${from}/${to}`,
    last: { ask: a.ask * b.ask, bid: a.bid * b.bid, exchange: wa.exchange, timestamp: Math.min(wa.timestamp, wb.timestamp) },
  };
}
