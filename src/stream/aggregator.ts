// Second (A) and minute (AM) bars of published trades, built with the REST aggregates' own
// arithmetic (barsFromTrades: o first, c last, h/l extremes, v sum, vw = Σp·s/Σs) over the same
// trades REST counts, and emitted once their window has closed: at the window's end plus a
// grace for stragglers. Minute bars are also stored; a trade arriving after its minute was
// emitted (within `retainMs`) corrects the stored bar. Crypto trades give XAS / XA bars.
import { barsFromTrades, type Bar, type TradePrint } from '../domain/bars.js';
import { localDayOf, type Zone } from '../domain/calendar.js';
import type { BarRow, TradeRow } from '../domain/market-records.js';
import type { WireEvent } from './json.js';
import { pairOf } from './wire-rows.js';

export interface AggregatorOptions {
  now: () => number;
  /** Wait after a window's end before emitting it, ms. */
  graceMs: number;
  /** How long an emitted minute stays open to corrections by late trades, ms. */
  retainMs: number;
  emit(events: WireEvent[]): void;
  storeMinuteBars(bars: BarRow[]): Promise<void>;
  onError(err: unknown): void;
}

type Span = 'second' | 'minute';
const SPAN_MS: Record<Span, number> = { second: 1000, minute: 60_000 };

interface Window {
  span: Span;
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
      const ms = Number(r.sip_timestamp / 1_000_000n);
      const print: TradePrint = { t_ns: r.sip_timestamp, price: r.price, size: r.size };
      for (const span of ['second', 'minute'] as const) {
        const start = ms - (((ms % SPAN_MS[span]) + SPAN_MS[span]) % SPAN_MS[span]);
        const key = `${span}\0${r.ticker}\0${start}`;
        let w = this.windows.get(key);
        if (!w) this.windows.set(key, (w = { span, ticker: r.ticker, start, prints: [], emitted: false, dirty: false, retainUntil: 0 }));
        w.prints.push(print);
        if (w.emitted) w.dirty = true;
      }
    }
  }

  /** Emits every window whose end plus the grace has passed; stores minute bars. */
  tick(): void {
    const now = this.opts.now();
    const due: Window[] = [];
    const toStore: BarRow[] = [];
    for (const [key, w] of this.windows) {
      if (w.emitted) {
        if (w.dirty) {
          w.dirty = false;
          toStore.push(this.barRow(w));
        }
        if (now > w.retainUntil) this.windows.delete(key);
        continue;
      }
      if (now < w.start + SPAN_MS[w.span] + this.opts.graceMs) continue;
      due.push(w);
    }
    if (due.length === 0 && toStore.length === 0) return;
    due.sort((a, b) => a.start + SPAN_MS[a.span] - (b.start + SPAN_MS[b.span]) || (a.span === b.span ? 0 : a.span === 'second' ? -1 : 1) || (a.ticker < b.ticker ? -1 : 1));
    const events: WireEvent[] = [];
    for (const w of due) {
      w.emitted = true;
      if (w.span === 'second') this.windows.delete(`${w.span}\0${w.ticker}\0${w.start}`);
      else {
        w.retainUntil = now + this.opts.retainMs;
        toStore.push(this.barRow(w));
      }
      events.push(this.event(w));
    }
    if (events.length) this.opts.emit(events);
    if (toStore.length) {
      this.storing = this.storing.then(() => this.opts.storeMinuteBars(toStore)).catch((err: unknown) => this.opts.onError(err));
    }
  }

  private bar(w: Window): Bar {
    return barsFromTrades(w.prints, w.span, 'UTC')[0]!;
  }

  private barRow(w: Window): BarRow {
    const b = this.bar(w);
    return { ticker: w.ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, vw: b.vw, n: b.n };
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
      ev: w.span === 'second' ? 'A' : 'AM', sym: w.ticker, v: b.v, av: d.volume, op: d.open, vw: b.vw!,
      o: b.o, c: b.c, h: b.h, l: b.l, a: d.volume > 0 ? d.notional / d.volume : b.vw!, z, s: w.start, e,
    };
  }

  /** Stops the clock and waits for minute bars being stored (windows still open are not emitted). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.storing;
  }
}
