// Second (A) and minute (AM) bars of published trades, built with the REST aggregates' own
// arithmetic (barsFromTrades: o first, c last, h/l extremes, v sum, vw = Σp·s/Σs) over the same
// trades REST counts, and emitted once their window has closed: at the window's end plus a
// grace for stragglers. Minute bars are also stored; a trade arriving after its minute was
// emitted (within `retainMs`) corrects the stored bar. Crypto trades give XAS / XA bars; futures
// trades give A / AM bars in the futures shape (dollar value and trade count, no VWAP or day
// totals) on the futures market, stored as futures minute bars.
import { barsFromTrades, volumeSum, type Bar, type TradePrint } from '../domain/bars.js';
import { localDayOf, type Zone } from '../domain/calendar.js';
import { sessionEndDateOfNs, type FuturesMinuteBar, type FuturesTrade } from '../domain/futures-market.js';
import type { BarRow, TradeRow } from '../domain/market-records.js';
import type { WireEvent } from './json.js';
import type { FeedMarket } from './markets.js';
import { pairOf } from './wire-rows.js';

export interface AggregatorOptions {
  now: () => number;
  /** Wait after a window's end before emitting it, ms. */
  graceMs: number;
  /** How long an emitted minute stays open to corrections by late trades, ms. */
  retainMs: number;
  /** Events of one market; `market` is given for futures, whose symbols do not say it. */
  emit(events: WireEvent[], market?: FeedMarket): void;
  storeMinuteBars(bars: BarRow[]): Promise<void>;
  storeFuturesMinuteBars(bars: FuturesMinuteBar[]): Promise<void>;
  onError(err: unknown): void;
}

type Span = 'second' | 'minute';
const SPAN_MS: Record<Span, number> = { second: 1000, minute: 60_000 };

interface Window {
  span: Span;
  /** A futures contract's window (futures tickers look like stock tickers). */
  futures: boolean;
  ticker: string;
  start: number;
  prints: TradePrint[];
  emitted: boolean;
  /** Emitted, then corrected by a late trade: store again. */
  dirty: boolean;
  retainUntil: number;
}

interface Day {
  day: number;
  volume: number;
  notional: number;
  open: number;
}

function windowKey(futures: boolean, span: Span, ticker: string, start: number): string {
  return `${futures ? 'futures\0' : ''}${span}\0${ticker}\0${start}`;
}

/** Σ price × size of a window's trades. */
function dollarValue(prints: readonly TradePrint[]): number {
  let dv = 0;
  for (const p of prints) dv += p.price * p.size;
  return dv;
}

export class LiveAggregator {
  private readonly windows = new Map<string, Window>();
  private readonly days = new Map<string, Day>();
  private readonly timer: NodeJS.Timeout;
  private storing: Promise<void> = Promise.resolve();

  constructor(private readonly opts: AggregatorOptions) {
    this.timer = setInterval(() => this.tick(), Math.min(250, Math.max(20, opts.graceMs)));
    this.timer.unref();
  }

  /** Trades of stocks, options and crypto; other tickers have no trade bars. */
  add(trades: readonly TradeRow[]): void {
    for (const r of trades) {
      const m = r.ticker.length > 2 && r.ticker[1] === ':' ? r.ticker[0] : '';
      if (m !== '' && m !== 'O' && m !== 'X') continue;
      this.addPrint(false, r.ticker, { t_ns: r.sip_timestamp, price: r.price, size: r.size });
    }
  }

  /** Trades of futures contracts. */
  addFutures(trades: readonly FuturesTrade[]): void {
    for (const r of trades) this.addPrint(true, r.ticker, { t_ns: r.timestamp, price: r.price, size: r.size });
  }

  private addPrint(futures: boolean, ticker: string, print: TradePrint): void {
    const ms = Number(print.t_ns / 1_000_000n);
    for (const span of ['second', 'minute'] as const) {
      const start = ms - (((ms % SPAN_MS[span]) + SPAN_MS[span]) % SPAN_MS[span]);
      const key = windowKey(futures, span, ticker, start);
      let w = this.windows.get(key);
      if (!w) this.windows.set(key, (w = { span, futures, ticker, start, prints: [], emitted: false, dirty: false, retainUntil: 0 }));
      w.prints.push(print);
      if (w.emitted) w.dirty = true;
    }
  }

  /** Emits every window whose end plus the grace has passed; stores minute bars. */
  tick(): void {
    const now = this.opts.now();
    const due: Window[] = [];
    const toStore: BarRow[] = [];
    const futuresToStore: FuturesMinuteBar[] = [];
    const store = (w: Window) => {
      if (w.futures) futuresToStore.push(this.futuresBarRow(w));
      else toStore.push(this.barRow(w));
    };
    for (const [key, w] of this.windows) {
      if (w.emitted) {
        if (w.dirty) {
          w.dirty = false;
          store(w);
        }
        if (now > w.retainUntil) this.windows.delete(key);
        continue;
      }
      if (now < w.start + SPAN_MS[w.span] + this.opts.graceMs) continue;
      due.push(w);
    }
    if (due.length === 0 && toStore.length === 0 && futuresToStore.length === 0) return;
    due.sort((a, b) => a.start + SPAN_MS[a.span] - (b.start + SPAN_MS[b.span]) || (a.span === b.span ? 0 : a.span === 'second' ? -1 : 1) || (a.ticker < b.ticker ? -1 : 1));
    const events: WireEvent[] = [];
    const futuresEvents: WireEvent[] = [];
    for (const w of due) {
      w.emitted = true;
      if (w.span === 'second') this.windows.delete(windowKey(w.futures, w.span, w.ticker, w.start));
      else {
        w.retainUntil = now + this.opts.retainMs;
        store(w);
      }
      if (w.futures) futuresEvents.push(this.futuresEvent(w));
      else events.push(this.event(w));
    }
    if (events.length) this.opts.emit(events);
    if (futuresEvents.length) this.opts.emit(futuresEvents, 'futures');
    if (toStore.length) this.queueStore(() => this.opts.storeMinuteBars(toStore));
    if (futuresToStore.length) this.queueStore(() => this.opts.storeFuturesMinuteBars(futuresToStore));
  }

  private queueStore(write: () => Promise<void>): void {
    this.storing = this.storing.then(write).catch((err: unknown) => this.opts.onError(err));
  }

  private bar(w: Window): Bar {
    return barsFromTrades(w.prints, w.span, 'UTC')[0]!;
  }

  private barRow(w: Window): BarRow {
    const b = this.bar(w);
    return { ticker: w.ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, vw: b.vw, n: b.n };
  }

  private futuresBarRow(w: Window): FuturesMinuteBar {
    const b = this.bar(w);
    const windowStart = BigInt(w.start) * 1_000_000n;
    return {
      ticker: w.ticker, window_start: windowStart, session_end_date: sessionEndDateOfNs(windowStart),
      open: b.o, high: b.h, low: b.l, close: b.c, volume: b.v, transactions: b.n ?? w.prints.length, dollar_volume: dollarValue(w.prints),
    };
  }

  private futuresEvent(w: Window): WireEvent {
    const b = this.bar(w);
    return {
      ev: w.span === 'second' ? 'A' : 'AM', sym: w.ticker, v: b.v, dv: dollarValue(w.prints),
      o: b.o, c: b.c, h: b.h, l: b.l, n: b.n ?? w.prints.length, s: w.start, e: w.start + SPAN_MS[w.span],
    };
  }

  /** Today's totals up to and including this window's bar (the windows of a span are emitted in time order). */
  private today(w: Window, b: Bar): Day {
    const zone: Zone = w.ticker.startsWith('X:') ? 'UTC' : 'America/New_York';
    const day = localDayOf(w.start, zone);
    const key = `${w.span}\0${w.ticker}`;
    let d = this.days.get(key);
    if (!d || d.day !== day) this.days.set(key, (d = { day, volume: 0, notional: 0, open: b.o }));
    d.volume += b.v;
    d.notional += (b.vw ?? b.c) * b.v;
    return d;
  }

  private event(w: Window): WireEvent {
    const b = this.bar(w);
    const e = w.start + SPAN_MS[w.span];
    const z = Math.round(b.v / (b.n ?? 1));
    if (w.ticker.startsWith('X:')) {
      return { ev: w.span === 'second' ? 'XAS' : 'XA', pair: pairOf(w.ticker, '-'), v: b.v, vw: b.vw!, z, o: b.o, c: b.c, h: b.h, l: b.l, s: w.start, e };
    }
    const d = this.today(w, b);
    return {
      ev: w.span === 'second' ? 'A' : 'AM', sym: w.ticker, v: b.v, av: volumeSum(d.volume), op: d.open, vw: b.vw!,
      o: b.o, c: b.c, h: b.h, l: b.l, a: d.volume > 0 ? d.notional / d.volume : b.vw!, z, s: w.start, e,
    };
  }

  /** Stops the clock and waits for minute bars being stored (windows still open are not emitted). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.storing;
  }
}
