// Prices the fundamentals demo values companies at: day bars from the market-data store when it
// has them, else a deterministic path; and the split basis of share counts and prices.

import { nyMidnight } from '../domain/calendar.js';
import type { Store } from '../store/index.js';
import { addDays } from './civil-days.js';
import { round, yearsBetween } from './fundamental-dates.js';
import type { Profile } from './filers.js';
import type { DemoSplit } from './facts/market.js';

/** Shares on the date's basis per share today: 10 before NVDA's 10:1 split, 1 after. */
export function splitMultiple(splits: readonly DemoSplit[], ticker: string, date: string): number {
  let m = 1;
  for (const s of splits) if (s.ticker === ticker && s.execution_date > date) m *= s.split_to / s.split_from;
  return m;
}

export class Prices {
  private readonly cache = new Map<string, number | null>();

  constructor(
    private readonly store: Store,
    private readonly splits: readonly DemoSplit[],
    private readonly asOf: string,
  ) {}

  /** Close (unadjusted, as traded) of the last session strictly before `date`. */
  async closeBefore(ticker: string, date: string, model: () => number): Promise<number> {
    const key = `${ticker}|${date}`;
    let c = this.cache.get(key);
    if (c === undefined) {
      const bar = await this.store.market?.lastDayBarBefore(ticker, nyMidnight(date)).catch(() => undefined);
      // Only a bar from the days just before counts: a stale one means no history there.
      c = bar && bar.t >= nyMidnight(addDays(date, -7)) && bar.c > 0 ? bar.c : null;
      this.cache.set(key, c);
    }
    return c ?? model();
  }

  /** Model close, current share basis, on `date`. */
  static model(p: Profile, priceToday: number, asOf: string, date: string): number {
    const years = yearsBetween(date, asOf);
    return priceToday * Math.exp(-p.priceDrift * years) * (1 + 0.08 * Math.sin(2 * Math.PI * 1.3 * years + p.pricePhase));
  }

  /** Model close as traded on `date` (before a split the price is higher by the split ratio). */
  unadjustedModel(ticker: string, p: Profile, priceToday: number, date: string): number {
    return round(Prices.model(p, priceToday, this.asOf, date) * splitMultiple(this.splits, ticker, date), 2);
  }

  /** Average day volume over the last 30 sessions before `date`, or undefined without bars. */
  async averageVolume(ticker: string, date: string): Promise<number | undefined> {
    if (!this.store.market) return undefined;
    const bars = await this.store.market
      .readBars('day', { ticker, fromMs: nyMidnight(addDays(date, -50)), toMs: nyMidnight(addDays(date, 1)), order: 'desc', limit: 30 })
      .catch(() => []);
    const vols = bars.map((b) => b.v ?? 0).filter((v) => v > 0);
    return vols.length > 0 ? vols.reduce((a, b) => a + b, 0) / vols.length : undefined;
  }
}
