// Opt-in dividend back-adjustment of aggregates (`dividends=true`, beyond upstream, which adjusts
// for splits only). Each cash dividend with ex-date E multiplies the prices (o, h, l, c, vw) of
// every bar that starts before 00:00 ET of E by the standard factor 1 − D / C, where D is the cash
// per share going ex on E and C the close of the last day bar before E; volumes are unchanged.
// C comes from the stored day bars, whatever the timespan or page asked for, so every page and
// every bar size sees the same factors.
import { dividendFactors, type Dividend, type DividendFactor } from '../domain/adjustment.js';
import type { OhlcBar } from '../domain/bars.js';
import { dayOfDate, localDayStart, type Zone } from '../domain/calendar.js';
import type { MarketDataPort } from '../store/repos/market-port.js';

const NY: Zone = 'America/New_York';

type PricedBar = OhlcBar & { vw?: number };

export interface DividendSource {
  readonly market: Pick<MarketDataPort, 'lastDayBarBefore'>;
  readonly corporateActions: { dividendsFor(ticker: string): Promise<readonly Dividend[]> };
}

/** The factors of a stock's dividends, from the day bar before each ex-date (ascending by ex-date). */
export async function dividendFactorsOf(store: DividendSource, ticker: string): Promise<DividendFactor[]> {
  const dividends = await store.corporateActions.dividendsFor(ticker);
  if (dividends.length === 0) return [];
  const exDates = [...new Set(dividends.map((d) => d.ex_dividend_date))];
  const closes = await Promise.all(exDates.map((d) => store.market.lastDayBarBefore(ticker, localDayStart(dayOfDate(d), NY))));
  const bars = [...new Map(closes.filter((b) => b !== undefined).map((b) => [b.t, { t: b.t, o: b.o, h: b.h, l: b.l, c: b.c }])).values()];
  return dividendFactors(bars, dividends, NY);
}

/** Bars (any order) with prices × the product of the factors whose ex-date is after the bar. */
export function applyDividendFactors<B extends PricedBar>(bars: readonly B[], factors: readonly DividendFactor[]): B[] {
  if (factors.length === 0) return bars.slice();
  // suffix[i]: product of factors i..end, i.e. what a bar before cutoff i (and after cutoff i-1) gets
  const suffix = new Array<number>(factors.length + 1).fill(1);
  for (let i = factors.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! * factors[i]!.factor;
  return bars.map((bar) => {
    let lo = 0;
    let hi = factors.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (factors[mid]!.cutoffMs > bar.t) hi = mid;
      else lo = mid + 1;
    }
    const f = suffix[lo]!;
    if (f === 1) return bar;
    const out: B = { ...bar, o: bar.o * f, h: bar.h * f, l: bar.l * f, c: bar.c * f };
    if (bar.vw !== undefined) out.vw = bar.vw * f;
    return out;
  });
}

/** A function that dividend-adjusts bars of `ticker` (identity when it has no dividends). */
export async function dividendAdjuster(store: DividendSource, ticker: string): Promise<<B extends PricedBar>(bars: readonly B[]) => B[]> {
  const factors = await dividendFactorsOf(store, ticker);
  return (bars) => applyDividendFactors(bars, factors);
}
