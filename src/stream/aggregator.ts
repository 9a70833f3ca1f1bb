// Second (A) and minute (AM) bars of published trades, built with the REST aggregates' own
// arithmetic (barsFromTrades: o first, c last, h/l extremes, v sum, vw = Σp·s/Σs) over the same
// trades REST counts, and emitted once their window has closed: at the window's end plus a
// grace for stragglers. Minute bars are also stored; a trade arriving after its minute was
// emitted (within `retainMs`) corrects the stored bar. Crypto trades give XAS / XA bars; futures
// trades give A / AM bars in the futures shape (dollar value and trade count, no VWAP or day
// totals) on the futures market, stored as futures minute bars.
//
// Across processes (`shared`), every process aggregates every trade: its own and those the bus
// brings (LivePrint), so each holds the same windows and day totals. One process per window,
// the one that claims it, emits its bars, so subscribers get one A per second and one AM per
// minute whichever processes took the trades; minute bars are then made from the stored trades
// (stored-minutes.ts), which makes the stored bar and the AM the aggregate REST gives of them,
// including trades the bus did not carry (a Redis outage, a process that reconnected). A trade
// taken here after its minute was emitted corrects the stored bar from the store as well.
import { barsFromTrades, volumeSum, type Bar, type TradePrint } from '../domain/bars.js';
import { localDayOf, type Zone } from '../domain/calendar.js';
import { sessionEndDateOfNs, type FuturesMinuteBar, type FuturesTrade } from '../domain/futures-market.js';
import type { BarRow, TradeRow } from '../domain/market-records.js';
import type { LivePrint } from './broker.js';
import { PackedPrints } from './packed-prints.js';
import type { WireEvent } from './json.js';
import type { FeedMarket } from './markets.js';
import { pairOf } from './wire-rows.js';
import type { Claim, Span, WindowClaims } from './window-claims.js';

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
  /** Several processes aggregate the same trades: who emits each window, and the stored trades of a minute. */
  shared?: {
    claims: WindowClaims;
    /** The stored trades of a ticker's minute (undefined: no store, the trades seen are used). */
    storedPrints?(futures: boolean, ticker: string, startMs: number): Promise<TradePrint[]>;
  };
}

const SPAN_MS: Record<Span, number> = { second: 1000, minute: 60_000 };
const SPANS = ['second', 'minute'] as const;

interface Window {
  span: Span;
  /** A futures contract's window (futures tickers look like stock tickers). */
  futures: boolean;
  ticker: string;
  start: number;
  /** Packed once the minute was emitted and no late trade is waiting (packed-prints.ts). */
  prints: TradePrint[] | PackedPrints;
  emitted: boolean;
  /** Emitted, then corrected by a late trade: store again. */
  dirty: boolean;
  retainUntil: number;
  /** Shared: a trade was taken here once the window was due, perhaps after another process read the store for it. */
  lateLocal: boolean;
}

interface Day {
  day: number;
  volume: number;
  notional: number;
  open: number;
}

/** A window's bar and the trades it was made of. */
interface Made extends Bar {
  prints: readonly TradePrint[];
}

function made(prints: readonly TradePrint[], span: Span): Made {
  return { ...barsFromTrades(prints, span, 'UTC')[0]!, prints };
}

/** Tickers whose trades make bars: stocks, options and crypto (other prefixed markets have none). */
function hasTradeBars(ticker: string): boolean {
  const m = ticker.length > 2 && ticker[1] === ':' ? ticker[0] : '';
  return m === '' || m === 'O' || m === 'X';
}

function tickerKey(futures: boolean, ticker: string): string {
  return futures ? `futures\0${ticker}` : ticker;
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
  /**
   * Per ticker key (tickerKey) and span, the window its latest trade went to. A trade of the same
   * window, not yet emitted, goes there without making the window's key and looking it up: at
   * 50,000 trades a second those strings were most of what a trade cost here. A window leaves
   * `windows` only once emitted, so one found here not emitted is the one `windows` holds.
   */
  private readonly latest = new Map<string, { second?: Window; minute?: Window }>();
  private readonly days = new Map<string, Day>();
  private readonly timer: NodeJS.Timeout;
  private storing: Promise<void> = Promise.resolve();
  /** Shared: windows released in order, one claim at a time. */
  private releasing: Promise<void> = Promise.resolve();
  /** Shared: the latest second window released, by ticker (a trade from elsewhere for it or before it is late). */
  private readonly secondsReleased = new Map<string, number>();
  /** Shared: claims answered, by span and minute. */
  private readonly claimed = new Map<string, { claim: Claim; minute: number }>();

  constructor(private readonly opts: AggregatorOptions) {
    this.timer = setInterval(() => this.tick(), Math.min(250, Math.max(20, opts.graceMs)));
    this.timer.unref();
  }

  /** Trades of stocks, options and crypto; other tickers have no trade bars. */
  add(trades: readonly TradeRow[]): void {
    for (const r of trades) {
      if (!hasTradeBars(r.ticker)) continue;
      this.addPrint(false, r.ticker, { t_ns: r.sip_timestamp, price: r.price, size: r.size }, true);
    }
  }

  /** Trades of futures contracts. */
  addFutures(trades: readonly FuturesTrade[]): void {
    for (const r of trades) this.addPrint(true, r.ticker, { t_ns: r.timestamp, price: r.price, size: r.size }, true);
  }

  /**
   * Shared: trades another process took, as it publishes them. One whose window was already
   * emitted here is left out (a bar is sent once); the process that took it stores the minute
   * again from the store. (Trades a bus sends late after an outage do not come here at all: each
   * process made its bars of that time alone.)
   */
  addRemote(prints: readonly LivePrint[]): void {
    for (const p of prints) {
      if (!p.futures && !hasTradeBars(p.ticker)) continue;
      this.addPrint(p.futures === true, p.ticker, { t_ns: BigInt(p.t), price: p.p, size: p.s }, false);
    }
  }

  private addPrint(futures: boolean, ticker: string, print: TradePrint, local: boolean): void {
    const ms = Number(print.t_ns / 1_000_000n);
    const now = this.opts.shared ? this.opts.now() : 0;
    const tk = tickerKey(futures, ticker);
    let latest = this.latest.get(tk);
    if (latest === undefined) this.latest.set(tk, (latest = {}));
    for (const span of SPANS) {
      const start = ms - (((ms % SPAN_MS[span]) + SPAN_MS[span]) % SPAN_MS[span]);
      const last = latest[span];
      if (local && last !== undefined && last.start === start && !last.emitted && !(last.prints instanceof PackedPrints) && this.opts.shared === undefined) {
        last.prints.push(print);
        continue;
      }
      const key = windowKey(futures, span, ticker, start);
      let w = this.windows.get(key);
      if (!local && (w?.emitted || (span === 'second' && start <= (this.secondsReleased.get(tickerKey(futures, ticker)) ?? -Infinity)))) continue;
      const due = this.opts.shared !== undefined && now >= start + SPAN_MS[span] + this.opts.graceMs;
      if (!w) this.windows.set(key, (w = { span, futures, ticker, start, prints: [], emitted: false, dirty: false, retainUntil: 0, lateLocal: false }));
      if (w.prints instanceof PackedPrints) w.prints = w.prints.unpack();
      w.prints.push(print);
      latest[span] = w;
      if (w.emitted) w.dirty = true;
      else if (due && local) w.lateLocal = true;
    }
  }

  /** Emits every window whose end plus the grace has passed; stores minute bars. */
  tick(): void {
    const now = this.opts.now();
    const due: Window[] = [];
    const corrected: Window[] = [];
    for (const [key, w] of this.windows) {
      if (w.emitted) {
        if (w.dirty) {
          w.dirty = false;
          corrected.push(w);
        }
        if (now > w.retainUntil) this.drop(key, w);
        // its bar was made (or is made from these, packed or not, by a release in progress)
        else if (!(w.prints instanceof PackedPrints)) w.prints = PackedPrints.of(w.prints);
        continue;
      }
      if (now < w.start + SPAN_MS[w.span] + this.opts.graceMs) continue;
      due.push(w);
    }
    if (due.length === 0 && corrected.length === 0) return;
    due.sort((a, b) => a.start + SPAN_MS[a.span] - (b.start + SPAN_MS[b.span]) || (a.span === b.span ? 0 : a.span === 'second' ? -1 : 1) || (a.ticker < b.ticker ? -1 : 1));
    for (const w of due) {
      w.emitted = true;
      if (w.span === 'second') this.drop(windowKey(w.futures, w.span, w.ticker, w.start), w);
      else w.retainUntil = now + this.opts.retainMs;
    }
    const shared = this.opts.shared;
    if (shared) {
      // second windows are dropped once released: this remembers them against remote stragglers
      for (const w of due) {
        const key = tickerKey(w.futures, w.ticker);
        if (w.span === 'second' && w.start > (this.secondsReleased.get(key) ?? -Infinity)) this.secondsReleased.set(key, w.start);
      }
      this.releasing = this.releasing.then(() => this.releaseShared(shared, due, corrected)).catch((err: unknown) => this.opts.onError(err));
      return;
    }
    this.release(due.map((w) => ({ w, emit: true, bar: this.bar(w) })), corrected.map((w) => ({ w, bar: this.bar(w) })));
  }

  /** Lets an emitted window go, from `latest` too (a ticker that stops trading keeps nothing). */
  private drop(key: string, w: Window): void {
    this.windows.delete(key);
    const tk = tickerKey(w.futures, w.ticker);
    const latest = this.latest.get(tk);
    if (latest?.[w.span] !== w) return;
    latest[w.span] = undefined;
    if (latest.second === undefined && latest.minute === undefined) this.latest.delete(tk);
  }

  /** Emits the windows marked so, stores minute bars of the emitted and the corrected. */
  private release(windows: readonly { w: Window; emit: boolean; bar: Made }[], corrected: readonly { w: Window; bar: Made }[]): void {
    const events: WireEvent[] = [];
    const futuresEvents: WireEvent[] = [];
    const toStore: BarRow[] = [];
    const futuresToStore: FuturesMinuteBar[] = [];
    const store = (w: Window, b: Made) => {
      if (w.futures) futuresToStore.push(this.futuresBarRow(w, b));
      else toStore.push(this.barRow(w, b));
    };
    for (const { w, bar } of corrected) store(w, bar);
    for (const { w, emit, bar } of windows) {
      const event = w.futures ? this.futuresEvent(w, bar) : this.event(w, bar);
      if (!emit) continue;
      if (w.span === 'minute') store(w, bar);
      if (w.futures) futuresEvents.push(event);
      else events.push(event);
    }
    if (events.length) this.opts.emit(events);
    if (futuresEvents.length) this.opts.emit(futuresEvents, 'futures');
    if (toStore.length) this.queueStore(() => this.opts.storeMinuteBars(toStore));
    if (futuresToStore.length) this.queueStore(() => this.opts.storeFuturesMinuteBars(futuresToStore));
  }

  /**
   * Shared: each group of due windows (one span and start) is claimed; the winner (or a process
   * alone) emits it. Minute bars come from the stored trades, and a process that took a trade
   * once the minute was due stores the minute again from the store even when it lost the claim.
   */
  private async releaseShared(shared: NonNullable<AggregatorOptions['shared']>, due: readonly Window[], corrected: readonly Window[]): Promise<void> {
    const minuteBar = async (w: Window): Promise<Made> => {
      const stored = await shared.storedPrints?.(w.futures, w.ticker, w.start);
      return stored && stored.length > 0 ? made(stored, 'minute') : this.bar(w);
    };
    const fixed: { w: Window; bar: Made }[] = [];
    for (const w of corrected) if (w.span === 'minute') fixed.push({ w, bar: await minuteBar(w) });
    const out: { w: Window; emit: boolean; bar: Made }[] = [];
    for (let i = 0; i < due.length; ) {
      const { span, start } = due[i]!;
      let j = i;
      while (j < due.length && due[j]!.span === span && due[j]!.start === start) j++;
      const claim = await this.claim(shared.claims, span, start);
      for (const w of due.slice(i, j)) {
        const emit = claim !== 'lost';
        if (span === 'second') out.push({ w, emit, bar: this.bar(w) });
        else if (emit) out.push({ w, emit, bar: await minuteBar(w) });
        else {
          // day totals go on from the trades seen; the minute is stored again only if a trade of it came late here
          out.push({ w, emit, bar: this.bar(w) });
          if (w.lateLocal) fixed.push({ w, bar: await minuteBar(w) });
        }
      }
      i = j;
    }
    this.release(out, fixed);
  }

  /**
   * Shared: the second bars of a minute are claimed once, with the minute's start, so one process
   * emits all of them and a subscriber gets them in order; each minute bar is claimed on its own.
   * An answer is remembered for the minute (no second claim, no second opinion); `alone` is not,
   * so the next window asks again.
   */
  private async claim(claims: WindowClaims, span: Span, start: number): Promise<Claim> {
    const minute = start - (((start % 60_000) + 60_000) % 60_000);
    const key = `${span}\0${minute}`;
    const known = this.claimed.get(key);
    if (known) return known.claim;
    const claim = await claims.claim(span, minute);
    if (claim === 'alone') return claim;
    if (this.claimed.size >= 1000) {
      const old = this.opts.now() - 10 * 60_000;
      for (const [k, c] of this.claimed) if (c.minute < old) this.claimed.delete(k);
    }
    this.claimed.set(key, { claim, minute });
    return claim;
  }

  private queueStore(write: () => Promise<void>): void {
    this.storing = this.storing.then(write).catch((err: unknown) => this.opts.onError(err));
  }

  private bar(w: Window): Made {
    return made(w.prints instanceof PackedPrints ? w.prints.unpack() : w.prints, w.span);
  }

  private barRow(w: Window, b: Made): BarRow {
    return { ticker: w.ticker, t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, vw: b.vw, n: b.n };
  }

  private futuresBarRow(w: Window, b: Made): FuturesMinuteBar {
    const windowStart = BigInt(w.start) * 1_000_000n;
    return {
      ticker: w.ticker, window_start: windowStart, session_end_date: sessionEndDateOfNs(windowStart),
      open: b.o, high: b.h, low: b.l, close: b.c, volume: b.v, transactions: b.n ?? w.prints.length, dollar_volume: dollarValue(b.prints),
    };
  }

  private futuresEvent(w: Window, b: Made): WireEvent {
    return {
      ev: w.span === 'second' ? 'A' : 'AM', sym: w.ticker, v: b.v, dv: dollarValue(b.prints),
      o: b.o, c: b.c, h: b.h, l: b.l, n: b.n ?? w.prints.length, s: w.start, e: w.start + SPAN_MS[w.span],
    };
  }

  /** Today's totals up to and including this window's bar (the windows of a span are emitted in time order). */
  private today(w: Window, b: Made): Day {
    const zone: Zone = w.ticker.startsWith('X:') ? 'UTC' : 'America/New_York';
    const day = localDayOf(w.start, zone);
    const key = `${w.span}\0${w.ticker}`;
    let d = this.days.get(key);
    if (!d || d.day !== day) this.days.set(key, (d = { day, volume: 0, notional: 0, open: b.o }));
    d.volume += b.v;
    d.notional += (b.vw ?? b.c) * b.v;
    return d;
  }

  private event(w: Window, b: Made): WireEvent {
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
    await this.releasing;
    await this.storing;
  }
}
