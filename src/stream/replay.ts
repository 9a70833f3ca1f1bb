// Replay: stored trades, quotes and minute bars of a window, sent through the feed's protocol in
// timestamp order, paced at a multiple of real time (or as fast as the client reads), with
// pause, resume and seek. A replay belongs to the key that created it; its connections live at
// /replay/<id>/<market>. Playback starts with the first subscription.
import { randomBytes } from 'node:crypto';
import { replayItems, type ReplayItem } from '../services/replay-source.js';
import type { Store } from '../store/index.js';
import { Chunk } from './chunk.js';
import { encodeEvent, type WireEvent } from './json.js';
import { marketOfEvent, matchSymbol, symbolKeyOf, type FeedMarket } from './markets.js';
import { SubscriptionRegistry } from './registry.js';
import type { Session } from './session.js';
import { eventOfFuturesBar, eventOfFuturesQuote, eventOfFuturesTrade } from './futures-rows.js';
import { eventOfQuote, eventOfTrade, pairOf } from './wire-rows.js';

export type Speed = number | 'max';
export type ReplayState = 'waiting' | 'playing' | 'paused' | 'finished';

export interface ReplaySpec {
  keyId: string;
  tickers: string[];
  markets: FeedMarket[];
  fromMs: number;
  toMs: number;
  speed: Speed;
  /** What the key's plan lets it replay. */
  kinds: { trades: boolean; quotes: boolean; bars: boolean };
}

/** Bytes a replay connection may hold unsent before "max" speed waits for it. */
const MAX_SPEED_BUFFER = 1024 * 1024;

function barEvent(b: { ticker: string; t: number; o: number; h: number; l: number; c: number; v?: number; vw?: number; n?: number }): WireEvent {
  const e = b.t + 60_000;
  if (b.ticker.startsWith('X:')) return { ev: 'XA', pair: pairOf(b.ticker, '-'), v: b.v ?? 0, vw: b.vw ?? b.c, z: b.n ? Math.round((b.v ?? 0) / b.n) : 0, o: b.o, c: b.c, h: b.h, l: b.l, s: b.t, e };
  if (b.ticker.startsWith('C:')) return { ev: 'CA', pair: pairOf(b.ticker, '/'), o: b.o, c: b.c, h: b.h, l: b.l, v: b.n ?? 0, s: b.t, e };
  if (b.ticker.startsWith('I:')) return { ev: 'AM', sym: b.ticker, o: b.o, c: b.c, h: b.h, l: b.l, s: b.t, e };
  const out: { [k: string]: WireEvent[string] } & { ev: string } = { ev: 'AM', sym: b.ticker, v: b.v ?? 0 };
  if (b.vw !== undefined) out.vw = b.vw;
  Object.assign(out, { o: b.o, c: b.c, h: b.h, l: b.l, z: b.n ? Math.round((b.v ?? 0) / b.n) : 0, s: b.t, e });
  return out;
}

/** The feed event of a stored item, and its market when the symbol does not say it (futures). */
function eventOf(item: ReplayItem): { event: WireEvent; market?: FeedMarket } {
  if ('trade' in item) return { event: eventOfTrade(item.trade) };
  if ('quote' in item) return { event: eventOfQuote(item.quote) };
  if ('bar' in item) return { event: barEvent(item.bar) };
  if ('futuresTrade' in item) return { event: eventOfFuturesTrade(item.futuresTrade), market: 'futures' };
  if ('futuresQuote' in item) return { event: eventOfFuturesQuote(item.futuresQuote), market: 'futures' };
  return { event: eventOfFuturesBar(item.futuresBar), market: 'futures' };
}

/**
 * The tickers read from the stock, option, forex, crypto and index tables, and the futures
 * contracts: with the futures market asked for, a ticker without a market prefix (O:, C:, X:, I:)
 * is a futures contract, and also a stock when stocks are asked for too.
 */
function replayTickers(spec: Pick<ReplaySpec, 'tickers' | 'markets'>): { tickers: string[]; futuresTickers: string[] } {
  if (!spec.markets.includes('futures')) return { tickers: spec.tickers, futuresTickers: [] };
  const plain = (t: string) => marketOfEvent('', t) === 'stocks';
  return {
    tickers: spec.tickers.filter((t) => !plain(t) || spec.markets.includes('stocks')),
    futuresTickers: spec.tickers.filter(plain),
  };
}

export class Replay {
  readonly id = randomBytes(9).toString('base64url');
  state: ReplayState = 'waiting';
  /** Time of the last event sent, or of the seek target, ms. */
  positionMs: number;
  sent = 0;
  readonly sessions = new Set<Session>();
  private readonly registries = new Map<FeedMarket, SubscriptionRegistry<Session>>();
  private epoch = 0;
  /** Events already sent at exactly `positionNs` (so resuming does not repeat them). */
  private positionNs: bigint;
  private sentAtPosition = 0;

  constructor(
    readonly spec: ReplaySpec,
    private readonly store: Store,
    private readonly now: () => number,
    private readonly onFinished: (r: Replay) => void,
  ) {
    this.positionMs = spec.fromMs;
    this.positionNs = BigInt(spec.fromMs) * 1_000_000n;
  }

  registry(market: FeedMarket): SubscriptionRegistry<Session> {
    let r = this.registries.get(market);
    if (!r) this.registries.set(market, (r = new SubscriptionRegistry()));
    return r;
  }

  /** The first subscription starts playback. */
  subscribed(): void {
    if (this.state === 'waiting') this.play();
  }

  play(): void {
    if (this.state === 'finished') return;
    this.state = 'playing';
    const epoch = ++this.epoch;
    void this.run(epoch).catch(() => {
      if (epoch === this.epoch) this.finish();
    });
  }

  pause(): void {
    if (this.state !== 'playing') return;
    this.epoch++;
    this.state = 'paused';
  }

  seek(ms: number): void {
    const playing = this.state === 'playing';
    this.epoch++;
    this.positionMs = ms;
    this.positionNs = BigInt(ms) * 1_000_000n;
    this.sentAtPosition = 0;
    if (this.state === 'finished') this.state = 'paused';
    if (playing) this.play();
  }

  stop(): void {
    this.epoch++;
    this.state = 'finished';
  }

  private finish(): void {
    this.state = 'finished';
    for (const s of this.sessions) s.notice('success', 'replay finished');
    this.onFinished(this);
  }

  private async run(epoch: number): Promise<void> {
    const startWall = this.now();
    const startNs = this.positionNs;
    const skip = this.sentAtPosition;
    let skipped = 0;
    const speed = this.spec.speed;
    const items = replayItems(this.store, { ...replayTickers(this.spec), fromMs: Number(startNs / 1_000_000n), toMs: this.spec.toMs, ...this.spec.kinds });
    for await (const item of items) {
      if (epoch !== this.epoch) return;
      if (item.at < startNs) continue; // same ms as the position, earlier ns
      if (item.at === startNs && skipped < skip) {
        skipped++;
        continue;
      }
      if (speed === 'max') {
        while ([...this.sessions].some((s) => s.ws.bufferedAmount > MAX_SPEED_BUFFER)) {
          await new Promise((r) => setTimeout(r, 5));
          if (epoch !== this.epoch) return;
        }
      } else {
        const due = startWall + Number(item.at - startNs) / 1e6 / speed;
        const wait = due - this.now();
        if (wait > 1) {
          await new Promise((r) => setTimeout(r, wait));
          if (epoch !== this.epoch) return;
        }
      }
      if (item.at === this.positionNs) this.sentAtPosition++;
      else {
        this.positionNs = item.at;
        this.sentAtPosition = 1;
      }
      this.positionMs = Number(item.at / 1_000_000n);
      const { event, market } = eventOf(item);
      this.route(event, market);
    }
    if (epoch === this.epoch) this.finish();
  }

  private route(e: WireEvent, futures?: FeedMarket): void {
    const sym = e[symbolKeyOf(e.ev)];
    const market = futures ?? marketOfEvent(e.ev, typeof sym === 'string' ? sym : '');
    const reg = this.registries.get(market);
    if (!reg || !reg.wants(e.ev)) return;
    const json = encodeEvent(e);
    const chunk = Chunk.of(json, Buffer.byteLength(json));
    reg.match(e.ev, matchSymbol(market, typeof sym === 'string' ? sym : ''), (s) => {
      s.deliver(chunk);
      this.sent++;
    });
  }

  describe(): Record<string, unknown> {
    return {
      id: this.id,
      state: this.state,
      from: this.spec.fromMs,
      to: this.spec.toMs,
      speed: this.spec.speed,
      markets: this.spec.markets,
      tickers: this.spec.tickers,
      position: this.positionMs,
      events_sent: this.sent,
      paths: this.spec.markets.map((m) => `/replay/${this.id}/${m}`),
    };
  }
}

export class ReplayManager {
  private readonly replays = new Map<string, Replay>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** A finished replay is forgotten this long after it finishes, ms. */
    private readonly keepMs = 60 * 60_000,
  ) {}

  create(spec: ReplaySpec): Replay {
    const r = new Replay(spec, this.store, this.now, (done) => {
      setTimeout(() => {
        if (done.state === 'finished' && done.sessions.size === 0) this.replays.delete(done.id);
      }, this.keepMs).unref();
    });
    this.replays.set(r.id, r);
    return r;
  }

  get(id: string): Replay | undefined {
    return this.replays.get(id);
  }

  delete(id: string): void {
    const r = this.replays.get(id);
    if (!r) return;
    r.stop();
    for (const s of r.sessions) s.end('force_disconnect', 'the replay was deleted');
    this.replays.delete(id);
  }

  /** Replays of one key (a key may hold a bounded number). */
  countFor(keyId: string): number {
    let n = 0;
    for (const r of this.replays.values()) if (r.spec.keyId === keyId && r.state !== 'finished') n++;
    return n;
  }

  close(): void {
    for (const r of this.replays.values()) r.stop();
    this.replays.clear();
  }
}
