/**
 * Snapshots from live state: each ticker's snapshot inputs (day so far, previous day, last minute
 * bar, last trade, last quote) kept in memory per market, so a snapshot is a read of memory rather
 * than five store reads per ticker, and the full-market snapshot is spliced from per-ticker JSON
 * pieces rendered once per change.
 *
 * What keeps it equal to what snapshots.ts computes from the store at the same clock:
 * - Inputs are read from the store by the same function (readSnapshotInputs), with the latest
 *   stored trade and quote rather than those at the clock; a request whose clock is earlier than a
 *   kept tick (a tick published with a time ahead of the clock) is answered from the store.
 * - They hold for one "epoch" of the clock: the snapshot's day, whether it is over, and the
 *   minute (which minute bars have completed by the clock). A new day (or its end) drops them
 *   all; they are read again when asked, a chunk of tickers at a time with the event loop let go
 *   between chunks. A new minute drops only the tickers with a stored minute bar of the day that
 *   was not complete when they were read and is by then: the others' bars read the same.
 * - A published trade or quote strictly later (time, then sequence number) than the kept one
 *   replaces it in place; one at the same time and sequence number (the store's order then
 *   depends on its row ids, and an upsert may change the row) has the ticker read again; an
 *   earlier one changes nothing. Stored minute bars (and the day bars derived from them) have
 *   their tickers read again.
 * - A change of the store's import version (an import, reference data, another process's writes)
 *   drops everything, the universe and the OTC list included.
 * Requests whose clock is not the live epoch (a delayed plan's) are answered from the store.
 * Concurrent misses of one market wait for one read of what is missing.
 *
 * Option contracts' inputs are kept in the stocks' state (they share the stock session's day) but
 * are never part of its full-market list; the universal snapshot and the option chain read
 * inputs through inputs(). oneNow() and listNow() answer synchronously from what is held, for
 * answers made again on the path of repeated requests (RouteSpec.renew).
 */
import type { Session } from '../domain/calendar.js';
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { SnapshotMarket, SnapshotReadRepository } from '../store/repos/snapshot-reads.js';
import { listenLiveWrites, type LiveWrite } from './live-events.js';
import {
  cryptoSnapshot,
  forexSnapshot,
  partPrices,
  readSnapshotInputs,
  snapshotDay,
  snapshotJson,
  snapshotUniverse,
  stockSnapshot,
  type AnySnapshot,
  type LiveSnapshotAnswers,
  type Ranked,
  type SnapshotInputs,
  type VisibleTicks,
} from './snapshots.js';


/** Tickers read from the store at once before the event loop is let go. */
const LOAD_CHUNK = 500;
const NS_PER_MS = 1_000_000n;
const MINUTE_MS = 60_000;
/** Later than any tick: the latest stored trade and quote are read. */
const LATEST_NS = 2n ** 63n - 1n;

export interface LiveSnapshotStore {
  readonly snapshotReads: SnapshotReadRepository;
  importVersion(): string;
}


/** Epoch `later` (snapshotEpoch) is a later minute of the same day as `earlier`, neither after the day's end. */
function laterMinuteOfDay(later: string, earlier: string): boolean {
  const [day, minute] = later.split(':');
  const [earlierDay, earlierMinute] = earlier.split(':');
  return day === earlierDay && minute !== 'done' && earlierMinute !== 'done' && Number(minute) > Number(earlierMinute);
}

/** The epoch of the clock: what the inputs read at `nowMs` depend on besides the data. */
export function snapshotEpoch(market: SnapshotMarket, nowMs: number): string {
  const d = snapshotDay(market, nowMs);
  return d.complete ? `${d.start}:done` : `${d.start}:${Math.floor(nowMs / 60_000)}`;
}

/** One ticker's kept state: its inputs (null: nothing stored) and what was rendered of them. */
interface Entry {
  inputs: SnapshotInputs | null;
  /** The start of the day's earliest stored minute bar not complete at the read's clock, if any. */
  pendingMs?: number;
  /** Per VisibleTicks variant (variantOf): the snapshot and its JSON. */
  rendered: (Rendered | undefined)[];
}

interface Rendered {
  ranked: Ranked<AnySnapshot>;
  json: Buffer;
}

/** A full-market answer spliced from pieces, kept until any ticker of the market changes. */
interface MarketList {
  changes: number;
  count: number;
  pieces: Buffer[];
  /**
   * The latest trade or quote time in it, ns: a kept list is served only to a clock at or past it
   * (a tick published ahead of the clock, or a clock set back, leaves it to the store's answer).
   */
  newestNs: bigint;
}

const variantOf = (show: VisibleTicks): number => (show.trades ? 1 : 0) + (show.quotes ? 2 : 0) + (show.fmv ? 4 : 0);
/** A kept full-market list's key: what the plan shows, and whether OTC tickers are in. */
const listKey = (show: VisibleTicks, includeOtc: boolean): string => `${variantOf(show)}${includeOtc ? 'o' : ''}`;

class MarketState {
  epoch = '';
  importVersion = '';
  readonly entries = new Map<string, Entry>();
  /** Live writes seen (a counter), and per ticker the count at its last one. */
  writes = 0;
  readonly touched = new Map<string, number>();
  /** Tickers of the full-market snapshot, ascending, and as a set. */
  universe: string[] | undefined;
  universeSet = new Set<string>();
  otc: Set<string> | undefined;
  /** Moves whenever an entry changes: keys the kept lists. */
  changes = 0;
  readonly lists = new Map<string, MarketList>();
  /** The read under way of tickers missing (coalesced). */
  loading: Promise<void> | undefined;
  /**
   * Ticks of tickers missing from the state that were noted while a read was under way (with the
   * write count), applied to what the read brings: under a steady stream of trades a read of a
   * traded ticker always overlaps one, and a ticker that had to be read again never came back.
   */
  readonly racing = new Map<string, { n: number; trade?: TradeRow; quote?: QuoteRow }[]>();

  constructor(readonly market: SnapshotMarket) {}

  /** The stock session of the epoch's day (the session parts' bounds). */
  session: Session | undefined;

  reset(epoch: string, importVersion: string, session: Session | undefined): void {
    this.session = session;
    if (importVersion !== this.importVersion) {
      this.universe = undefined;
      this.otc = undefined;
    }
    if (epoch.split(':')[0] !== this.epoch.split(':')[0]) this.universe = undefined;
    this.epoch = epoch;
    this.importVersion = importVersion;
    this.entries.clear();
    this.touched.clear();
    this.racing.clear();
    this.lists.clear();
    this.changes++;
  }

  /**
   * A later minute of the same day, with the same import version: entries whose pending minute
   * bar has completed by the start of minute `minuteMs` are dropped, the others kept.
   */
  nextMinute(epoch: string, minuteMs: number): void {
    this.epoch = epoch;
    for (const [ticker, e] of this.entries) if (e.pendingMs !== undefined && e.pendingMs < minuteMs) this.entries.delete(ticker);
    this.lists.clear();
    this.changes++;
  }

  /** The ticker must be read again (its entry is dropped; a read under way does not keep it). */
  drop(ticker: string): void {
    this.touched.set(ticker, ++this.writes);
    if (this.entries.delete(ticker)) this.changes++;
  }
}

export class LiveSnapshots implements LiveSnapshotAnswers {
  private readonly states = new Map<SnapshotMarket, MarketState>();
  private readonly stop: () => void;

  constructor(
    private readonly store: LiveSnapshotStore,
    /** The live clock (the server's). */
    private readonly now: () => number,
  ) {
    for (const m of ['stocks', 'fx', 'crypto'] as const) this.states.set(m, new MarketState(m));
    this.stop = listenLiveWrites(store, (w) => this.note(w));
  }

  close(): void {
    this.stop();
  }

  /**
   * The state of `market` ready for a request at `nowMs`, or undefined when the clock is not the
   * live epoch (a delayed plan's clock: the caller reads the store).
   */
  private stateAt(market: SnapshotMarket, nowMs: number): MarketState | undefined {
    const s = this.states.get(market)!;
    const epoch = snapshotEpoch(market, nowMs);
    if (epoch !== snapshotEpoch(market, this.now())) return undefined;
    const version = this.store.importVersion();
    if (version === s.importVersion && laterMinuteOfDay(epoch, s.epoch)) s.nextMinute(epoch, Math.floor(nowMs / MINUTE_MS) * MINUTE_MS);
    else if (epoch !== s.epoch || version !== s.importVersion) s.reset(epoch, version, snapshotDay(market, nowMs).session);
    return s;
  }

  /**
   * The snapshot of one ticker at the live clock `nowMs` (null: nothing stored for it), or
   * undefined when the live state cannot answer for that clock.
   */
  async one(market: SnapshotMarket, ticker: string, nowMs: number, show: VisibleTicks): Promise<Rendered | null | undefined> {
    const s = this.stateAt(market, nowMs);
    if (s === undefined) return undefined;
    if (s.otc === undefined) await this.readOtc(s); // the snapshot flags OTC tickers
    if (!s.entries.has(ticker)) await this.load(s, [ticker], nowMs);
    const e = s.entries.get(ticker);
    if (e === undefined || s.otc === undefined || !this.current(s, nowMs)) return undefined; // changed meanwhile, or a new epoch
    if (e.inputs === null) return null;
    if (aheadOf(e.inputs, nowMs)) return undefined;
    return this.rendered(s, ticker, e, show);
  }

  /**
   * The snapshot inputs of `tickers` at `nowMs`, as readSnapshotInputs reads them from the store
   * (with the session parts' prices for stocks): from the state where it can answer for the clock
   * (option contracts included, kept with the stocks), else from the store.
   */
  async inputs(market: SnapshotMarket, tickers: readonly string[], nowMs: number): Promise<Map<string, SnapshotInputs>> {
    const sessionParts = market === 'stocks';
    const s = this.stateAt(market, nowMs);
    const kept = s === undefined ? [] : tickers.filter((t) => marketOf(t) === market);
    if (s !== undefined && kept.some((t) => !s.entries.has(t))) await this.load(s, kept, nowMs);
    const current = s !== undefined && this.current(s, nowMs);
    const out = new Map<string, SnapshotInputs>();
    const others: string[] = [];
    for (const t of tickers) {
      const e = current && marketOf(t) === market ? s.entries.get(t) : undefined;
      if (e === undefined || (e.inputs !== null && aheadOf(e.inputs, nowMs))) others.push(t);
      else if (e.inputs !== null) out.set(t, e.inputs);
    }
    if (others.length > 0) for (const [t, x] of await readSnapshotInputs(this.store.snapshotReads, market, others, nowMs, { sessionParts })) out.set(t, x);
    return out;
  }

  /**
   * one() where the state holds the answer already, synchronously (a read of memory, for answers
   * made again on every change); undefined where one() would read the store or fall back to it.
   */
  oneNow(market: SnapshotMarket, ticker: string, nowMs: number, show: VisibleTicks): Rendered | null | undefined {
    const s = this.states.get(market)!;
    if (s.otc === undefined || !this.current(s, nowMs) || s.epoch !== snapshotEpoch(market, this.now())) return undefined;
    const e = s.entries.get(ticker);
    if (e === undefined) return undefined;
    if (e.inputs === null) return null;
    return aheadOf(e.inputs, nowMs) ? undefined : this.rendered(s, ticker, e, show);
  }

  /**
   * list() where the state holds every ticker of the market already, synchronously (pieces of
   * changed tickers rendered again, the others as kept); undefined where list() would read the store.
   */
  listNow(market: SnapshotMarket, nowMs: number, includeOtc: boolean, show: VisibleTicks): MarketList | undefined {
    const s = this.states.get(market)!;
    if (s.universe === undefined || s.otc === undefined || !this.current(s, nowMs) || s.epoch !== snapshotEpoch(market, this.now())) return undefined;
    const key = listKey(show, includeOtc);
    const kept = s.lists.get(key);
    if (keptFor(kept, s.changes, nowMs)) return kept;
    const pieces: Buffer[] = [];
    let newestNs = 0n;
    for (const t of s.universe) {
      if (!includeOtc && s.otc.has(t)) continue;
      const e = s.entries.get(t);
      if (e === undefined || (e.inputs !== null && aheadOf(e.inputs, nowMs))) return undefined;
      if (e.inputs !== null) {
        pieces.push(this.rendered(s, t, e, show).json);
        newestNs = newestOf(e.inputs, newestNs);
      }
    }
    const list = { changes: s.changes, count: pieces.length, pieces, newestNs };
    s.lists.set(key, list);
    return list;
  }

  /**
   * Every ticker of the full-market snapshot as rendered pieces (OTC tickers with `includeOtc`),
   * or undefined when the live state cannot answer for that clock.
   */
  async list(market: SnapshotMarket, nowMs: number, includeOtc: boolean, show: VisibleTicks): Promise<MarketList | undefined> {
    const key = listKey(show, includeOtc);
    const kept = this.stateAt(market, nowMs)?.lists.get(key);
    if (keptFor(kept, this.states.get(market)!.changes, nowMs)) return kept;
    const all = await this.market(market, nowMs, includeOtc, show);
    if (all === undefined) return undefined;
    const list = { changes: all.changes, count: all.rendered.length, pieces: all.rendered.map((r) => r.json), newestNs: all.newestNs };
    if (all.whole) this.states.get(market)!.lists.set(key, list);
    return list;
  }

  /** Every ranked snapshot of the full market (OTC tickers with `includeOtc`), ascending; undefined as list(). */
  async ranked(market: SnapshotMarket, nowMs: number, includeOtc: boolean, show: VisibleTicks): Promise<Ranked<AnySnapshot>[] | undefined> {
    return (await this.market(market, nowMs, includeOtc, show))?.rendered.map((r) => r.ranked);
  }

  /**
   * The full market's snapshots in ticker order: from the state, and for tickers it cannot answer
   * for the clock (a tick ahead of it, or dropped by a write meanwhile) from the store (`whole`
   * false: not to be kept). `changes` is the state's count they were taken at.
   */
  private async market(market: SnapshotMarket, nowMs: number, includeOtc: boolean, show: VisibleTicks): Promise<{ rendered: Rendered[]; whole: boolean; changes: number; newestNs: bigint } | undefined> {
    const s = await this.fullMarket(market, nowMs);
    if (s === undefined) return undefined;
    const changes = s.changes;
    const out: (Rendered | string)[] = [];
    const others: string[] = [];
    let newestNs = 0n;
    for (const t of s.universe!) {
      if (!includeOtc && s.otc!.has(t)) continue;
      const e = s.entries.get(t);
      if (e === undefined || (e.inputs !== null && aheadOf(e.inputs, nowMs))) {
        others.push(t);
        out.push(t);
      } else if (e.inputs !== null) {
        out.push(this.rendered(s, t, e, show));
        newestNs = newestOf(e.inputs, newestNs);
      }
    }
    if (others.length === 0) return { rendered: out as Rendered[], whole: true, changes, newestNs };
    const otc = s.otc!;
    const inputs = await readSnapshotInputs(this.store.snapshotReads, market, others, nowMs);
    const rendered: Rendered[] = [];
    for (const r of out) {
      if (typeof r !== 'string') rendered.push(r);
      else if (inputs.has(r)) rendered.push(render(market, r, inputs.get(r)!, otc, show));
    }
    return { rendered, whole: false, changes, newestNs };
  }

  /** The state with the universe, the OTC list and every entry of the universe read, at `nowMs`. */
  private async fullMarket(market: SnapshotMarket, nowMs: number): Promise<MarketState | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const s = this.stateAt(market, nowMs);
      if (s === undefined) return undefined;
      if (s.universe === undefined) {
        const universe = await snapshotUniverse(this.store.snapshotReads, market, nowMs);
        if (!this.current(s, nowMs)) continue;
        s.universe = universe;
        s.universeSet = new Set(universe);
      }
      if (s.otc === undefined) await this.readOtc(s);
      const missing = s.universe!.filter((t) => !s.entries.has(t));
      if (missing.length > 0) await this.load(s, missing, nowMs);
      if (!this.current(s, nowMs) || s.universe === undefined || s.otc === undefined) continue;
      return s;
    }
    return undefined;
  }

  /** The OTC tickers (stocks), read once per import version. */
  private async readOtc(s: MarketState): Promise<void> {
    const version = s.importVersion;
    const otc = s.market === 'stocks' ? await this.store.snapshotReads.otcTickers() : new Set<string>();
    if (s.importVersion === version) s.otc = otc;
  }

  /** The state still is the one of the clock's epoch and import version. */
  private current(s: MarketState, nowMs: number): boolean {
    return s.epoch === snapshotEpoch(s.market, nowMs) && s.importVersion === this.store.importVersion();
  }

  /** Reads `tickers` into the state; one read at a time per market, later callers wait for it and read what is still missing. */
  private async load(s: MarketState, tickers: readonly string[], nowMs: number): Promise<void> {
    while (s.loading !== undefined) await s.loading;
    const missing = tickers.filter((t) => !s.entries.has(t));
    if (missing.length === 0) return;
    const run = this.read(s, missing, nowMs);
    s.loading = run;
    try {
      await run;
    } finally {
      s.loading = undefined;
      s.racing.clear();
    }
  }

  private async read(s: MarketState, tickers: readonly string[], nowMs: number): Promise<void> {
    const epoch = s.epoch;
    const version = s.importVersion;
    const day = snapshotDay(s.market, nowMs);
    for (let i = 0; i < tickers.length; i += LOAD_CHUNK) {
      if (i > 0) await new Promise<void>((r) => setImmediate(r)); // the feed's turn
      const chunk = tickers.slice(i, i + LOAD_CHUNK);
      const from = s.writes;
      const [inputs, pending] = await Promise.all([
        readSnapshotInputs(this.store.snapshotReads, s.market, chunk, nowMs, { ticksAtNs: LATEST_NS, sessionParts: s.market === 'stocks' }),
        // minute bars stored ahead of the clock: a later minute makes them count
        day.complete ? new Map<string, number>() : this.store.snapshotReads.firstMinuteBarTimes(chunk, Math.min(day.end, nowMs - MINUTE_MS + 1), day.end),
      ]);
      if (s.epoch !== epoch || s.importVersion !== version) return; // another epoch meanwhile: read again when asked
      for (const t of chunk) {
        if ((s.touched.get(t) ?? 0) > from) continue; // a bar written meanwhile: the read may predate it
        s.entries.set(t, { inputs: inputs.get(t) ?? null, rendered: [], pendingMs: pending.get(t) });
        // ticks noted meanwhile, which the read may predate (applied in place; those it has change nothing)
        for (const r of s.racing.get(t) ?? []) if (r.n > from) this.tick(t, r.trade, r.quote);
      }
      s.changes++;
    }
  }

  private rendered(s: MarketState, ticker: string, e: Entry, show: VisibleTicks): Rendered {
    const v = variantOf(show);
    let r = e.rendered[v];
    if (r === undefined) r = e.rendered[v] = render(s.market, ticker, e.inputs!, s.otc!, show);
    return r;
  }

  /** A committed live write: ticks applied in place where exact, other tickers dropped to be read again. */
  private note(w: LiveWrite): void {
    for (const t of w.trades) this.tick(t.ticker, t, undefined);
    for (const q of w.quotes) this.tick(q.ticker, undefined, q);
    for (const b of w.bars) {
      const m = marketOf(b.ticker);
      const s = m === undefined ? undefined : this.states.get(m);
      if (s === undefined) continue;
      s.drop(b.ticker);
      if (s.universe !== undefined && !s.universeSet.has(b.ticker) && !isOption(b.ticker)) s.universe = undefined; // a ticker new to the market
    }
  }

  private tick(ticker: string, trade: TradeRow | undefined, quote: QuoteRow | undefined): void {
    const m = marketOf(ticker);
    // forex snapshots are made of quotes alone, crypto ones of trades alone
    if (m === undefined || (m === 'fx' && trade) || (m === 'crypto' && quote)) return;
    const s = this.states.get(m)!;
    const e = s.entries.get(ticker);
    if (e === undefined) {
      // a read under way may predate this tick: applied to what it brings
      if (s.loading !== undefined) {
        const list = s.racing.get(ticker) ?? [];
        list.push({ n: ++s.writes, trade, quote });
        s.racing.set(ticker, list);
      }
      return;
    }
    const x = e.inputs ?? {};
    const order = trade ? compareTicks(trade.sip_timestamp, trade.sequence_number, x.trade?.sip_timestamp, x.trade?.sequence_number) : compareTicks(quoteTime(quote!), quote!.sequence_number, x.quote ? quoteTime(x.quote) : undefined, x.quote?.sequence_number);
    if (order < 0) return;
    if (order === 0) {
      // the tick kept again (a read that had it, or a repeated publish): whichever row the store returns, the same snapshot
      if (trade ? sameTrade(storedTrade(trade), x.trade!) : sameQuote(storedQuote(quote!), x.quote!)) return;
      return s.drop(ticker);
    }
    const next: SnapshotInputs = { ...x };
    if (trade) next.trade = storedTrade(trade);
    else next.quote = storedQuote(quote!);
    // the session parts' last prices: the new trade where it falls in a part, else the bars' as read
    if (trade && x.partCloses !== undefined && s.session !== undefined) next.parts = partPrices(s.session, next.trade, x.partCloses);
    s.entries.set(ticker, { inputs: next, rendered: [], pendingMs: e.pendingMs });
    s.touched.set(ticker, ++s.writes);
    s.changes++;
  }
}

function render(market: SnapshotMarket, ticker: string, x: SnapshotInputs, otc: ReadonlySet<string>, show: VisibleTicks): Rendered {
  const ranked: Ranked<AnySnapshot> =
    market === 'stocks' ? stockSnapshot(ticker, x, otc.has(ticker), show) : market === 'fx' ? forexSnapshot(ticker, x) : cryptoSnapshot(ticker, x, show);
  return { ranked, json: snapshotJson(ranked.snapshot) };
}

/** The state a ticker's inputs are kept in: option contracts' with the stocks' (they share the stock session's day). */
function marketOf(ticker: string): SnapshotMarket | undefined {
  if (ticker.length > 2 && ticker[1] === ':') return ticker[0] === 'C' ? 'fx' : ticker[0] === 'X' ? 'crypto' : ticker[0] === 'O' ? 'stocks' : undefined;
  return 'stocks';
}

const isOption = (ticker: string): boolean => ticker.startsWith('O:');

const quoteTime = (q: QuoteRow): bigint => (q.sip_timestamp ?? q.participant_timestamp)!;

/** The store's order of ticks: time, then sequence number (none stored as -1); 0 when both tie. */
function compareTicks(ts: bigint, seq: bigint | undefined, keptTs: bigint | undefined, keptSeq: bigint | undefined): number {
  if (keptTs === undefined) return 1;
  if (ts !== keptTs) return ts > keptTs ? 1 : -1;
  const a = seq ?? -1n;
  const b = keptSeq ?? -1n;
  return a === b ? 0 : a > b ? 1 : -1;
}

/** The later of `than` and the times of the inputs' trade and quote, ns. */
function newestOf(x: SnapshotInputs, than: bigint): bigint {
  let n = than;
  if (x.trade !== undefined && x.trade.sip_timestamp > n) n = x.trade.sip_timestamp;
  if (x.quote !== undefined && quoteTime(x.quote) > n) n = quoteTime(x.quote);
  return n;
}

/** A kept list still answers for the state's `changes` at `nowMs`: none of its ticks is later than the clock. */
const keptFor = (kept: MarketList | undefined, changes: number, nowMs: number): kept is MarketList =>
  kept !== undefined && kept.changes === changes && kept.newestNs <= BigInt(nowMs) * NS_PER_MS;

/** A kept trade or quote later than the clock: the store's answer at that clock leaves it out. */
function aheadOf(x: SnapshotInputs, nowMs: number): boolean {
  const at = BigInt(nowMs) * NS_PER_MS;
  return (x.trade !== undefined && x.trade.sip_timestamp > at) || (x.quote !== undefined && quoteTime(x.quote) > at);
}

/** Two trades alike in every field a snapshot shows. */
function sameTrade(a: TradeRow, b: TradeRow): boolean {
  return (
    a.price === b.price && a.size === b.size && a.exchange === b.exchange && (a.id ?? '') === (b.id ?? '') && a.participant_timestamp === b.participant_timestamp &&
    sameList(a.conditions, b.conditions)
  );
}

/** Two quotes alike in every field a snapshot shows. */
function sameQuote(a: QuoteRow, b: QuoteRow): boolean {
  return (
    a.bid_price === b.bid_price && a.ask_price === b.ask_price && a.bid_size === b.bid_size && a.ask_size === b.ask_size && a.bid_exchange === b.bid_exchange &&
    a.ask_exchange === b.ask_exchange && a.sip_timestamp === b.sip_timestamp && a.participant_timestamp === b.participant_timestamp
  );
}

const sameList = (a: readonly number[] | undefined, b: readonly number[] | undefined): boolean => (a ?? []).length === (b ?? []).length && (a ?? []).every((v, i) => v === b![i]);

/** A published trade as the store reads it back (no id and no conditions are stored as absent). */
function storedTrade(t: TradeRow): TradeRow {
  return { ...t, id: t.id === '' ? undefined : t.id, conditions: t.conditions?.length ? t.conditions : undefined };
}

function storedQuote(q: QuoteRow): QuoteRow {
  return { ...q, conditions: q.conditions?.length ? q.conditions : undefined, indicators: q.indicators?.length ? q.indicators : undefined };
}
