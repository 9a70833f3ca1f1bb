// What the relay's recorder stores of a run of relayed frames: the frames read again with
// integers exact, trades and quotes checked as published events are and packed as columns for
// the store's live write, and upstream's minute aggregates as minute bars. A pure function of the
// frames' text, so it runs on the recorder's own thread (record-worker.ts), or on the event loop
// where no thread can be started.
import type { BarRow } from '../../domain/market-records.js';
import { packTicks, type PackedTicks } from '../../store/row-columns.js';
import { parseJsonExact, type WireEvent } from '../json.js';
import type { FeedMarket } from '../markets.js';
import { rowsOfEvents, validateEvent, type PublishedEvent } from '../publish-input.js';
import { pairTicker } from '../wire-rows.js';

/** A relayed frame as the relay passed it on. */
export interface RelayedFrame {
  market: FeedMarket;
  text: string;
}

/** What a run of frames stores. */
export interface RecordBatch {
  ticks: PackedTicks;
  /** Upstream's minute aggregates, as stored minute bars. */
  bars: BarRow[];
  /** Ticks the checks refused. */
  refused: number;
  /** The distinct tickers stored, per market. */
  tickers: [FeedMarket, string[]][];
}

const TICK_CHANNELS = new Set(['T', 'Q', 'XT', 'XQ', 'C']);
const MINUTE_BARS = new Set(['AM', 'XA', 'CA']);

/** The batch of `frames`, and the buffers to transfer with it. */
export function readFrames(frames: readonly RelayedFrame[]): { batch: RecordBatch; transfer: ArrayBuffer[] } {
  const ticks: PublishedEvent[] = [];
  const bars: BarRow[] = [];
  const tickers = new Map<FeedMarket, Set<string>>();
  const note = (market: FeedMarket, ticker: string) => {
    let set = tickers.get(market);
    if (set === undefined) tickers.set(market, (set = new Set()));
    set.add(ticker);
  };
  let refused = 0;
  for (const { market, text } of frames) {
    for (const e of eventsOf(text)) {
      if (TICK_CHANNELS.has(e.ev)) {
        const checked = validateEvent(e, market);
        if (typeof checked === 'string') refused++;
        else {
          ticks.push(checked);
          note(market, tickerOf(checked));
        }
        continue;
      }
      const bar = barOfEvent(e, market);
      if (bar) {
        bars.push(bar);
        note(market, bar.ticker);
      }
    }
  }
  const rows = rowsOfEvents(ticks);
  const { packed, transfer } = packTicks({ trades: rows.trades, quotes: rows.quotes, futuresTrades: rows.futures.trades, futuresQuotes: rows.futures.quotes });
  return { batch: { ticks: packed, bars, refused, tickers: [...tickers].map(([m, set]) => [m, [...set]]) }, transfer };
}

/** The stored minute bar of an upstream minute aggregate (`AM`, crypto `XA`, forex `CA`), or undefined. */
export function barOfEvent(e: WireEvent, market: FeedMarket): BarRow | undefined {
  if (!MINUTE_BARS.has(e.ev) || market === 'futures') return undefined;
  const f = e as Record<string, unknown>;
  const num = (k: string) => (typeof f[k] === 'number' ? (f[k] as number) : undefined);
  const [o, h, l, c, t] = [num('o'), num('h'), num('l'), num('c'), num('s')];
  if (o === undefined || h === undefined || l === undefined || c === undefined || t === undefined) return undefined;
  let ticker: string;
  if (e.ev === 'XA') ticker = pairTicker('X', String(f.pair));
  else if (e.ev === 'CA') ticker = pairTicker('C', String(f.pair));
  else if (typeof f.sym === 'string') ticker = f.sym;
  else return undefined;
  const v = num('v');
  const z = num('z');
  // upstream's minute aggregate carries the average trade size, not the count of trades
  const n = v !== undefined && z !== undefined && z > 0 ? Math.round(v / z) : undefined;
  return { ticker, t, o, h, l, c, v, vw: num('vw'), n };
}

/** The data events of a relayed frame, integers exact (the relay checked it is JSON). */
function eventsOf(text: string): WireEvent[] {
  const items = parseJsonExact(text);
  if (!Array.isArray(items)) return [];
  return (items as WireEvent[]).filter((e) => e !== null && typeof e === 'object' && typeof e.ev === 'string' && e.ev !== 'status');
}

function tickerOf(p: PublishedEvent): string {
  const e = p.event as Record<string, unknown>;
  if (p.event.ev === 'XT' || p.event.ev === 'XQ') return pairTicker('X', String(e.pair));
  if (p.event.ev === 'C') return pairTicker('C', String(e.p));
  return String(e.sym);
}
