// Generated market data shared by the HTTP benchmarks (bench/aggs.ts, bench/ticks-wrk.ts).
import { previousTradingDay, sessionOn } from '../src/domain/calendar.js';
import type { BarRow } from '../src/domain/market-records.js';

/** The `n` trading sessions ending with `last`, oldest first. */
export function sessions(last: string, n: number): string[] {
  const out = [last];
  while (out.length < n) out.unshift(previousTradingDay(out[0]!));
  return out;
}

/** A deterministic generator of numbers in [0, 1). */
export function rng(seed: number): () => number {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

/** Minute bars of `ticker` over 04:00-20:00 ET of each day, prices in cents and VWAP to 4 decimals as real bars carry them. */
export function minuteBars(ticker: string, days: string[]): BarRow[] {
  const bars: BarRow[] = [];
  let price = 100;
  const rnd = rng(42);
  for (const d of days) {
    const s = sessionOn(d)!;
    for (let t = s.preOpen; t < s.postClose; t += 60_000) {
      const o = price;
      const c = Math.max(1, Math.round(o * (1 + (rnd() - 0.5) * 0.002) * 100) / 100);
      const h = Math.round(Math.max(o, c) * (1 + rnd() * 0.0005) * 100) / 100;
      const l = Math.round(Math.min(o, c) * (1 - rnd() * 0.0005) * 100) / 100;
      const vw = Math.round(((o + c + h + l) / 4) * 10_000) / 10_000;
      bars.push({ ticker, t, o, h, l, c, v: Math.floor(100 + rnd() * 5000), vw, n: 1 + Math.floor(rnd() * 40) });
      price = c;
    }
  }
  return bars;
}
