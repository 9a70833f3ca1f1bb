// The older tick endpoints over the same stored trades and quotes as v3: one ticker's ticks of one
// day, paged by a timestamp offset instead of a cursor.
//   v2 stocks (/v2/ticks/stocks/trades|nbbo/{ticker}/{date}): the ET day; `timestamp` = start at
//   this SIP time in ns (at or after it; at or before it with `reverse`), `timestampLimit` = the
//   latest SIP time included; rows in one-letter keys with a `map` naming them.
//   v1 historic (/v1/historic/forex|crypto/{from}/{to}/{date}): the UTC day; `offset` = start at
//   this time in Unix ms (at or after it); times on the wire are Unix ms.
// The offset is inclusive, as upstream describes it ("the offset at which to start"): the next
// page repeats the rows of the last row's time, so that rows sharing a time are never skipped.
// Both are bounded by the plan's data window (history and delay) as the request asks for it.
import { localDayStart, parseDate, type Zone } from '../domain/calendar.js';
import { badParameter } from '../domain/errors.js';
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { MarketDataPort, PagedTick, TickRange } from '../store/repos/market-port.js';
import { NS_PER_MS } from '../domain/nanoseconds.js';
import { narrowNsRange, type PlanWindowLimits } from '../domain/plan-window.js';


/** The instants a plan may see (the request's plan window). */
export type TickWindowLimits = PlanWindowLimits;

export interface LegacyTickPage<R> {
  rows: R[];
  /** Milliseconds the store took to answer (upstream's db_latency / msLatency). */
  latencyMs: number;
  /** Whether the plan's window narrowed the day: rows before it (history) or after it (delay) were not read. */
  cut: { history: boolean; delay: boolean };
}

export interface V2TickQuery {
  ticker: string;
  date: string;
  /** Ns: the first time included (the last one when reverse). */
  timestamp?: bigint;
  /** Ns: the latest time included. */
  timestampLimit?: bigint;
  reverse: boolean;
  limit: number;
}

export interface HistoricQuery {
  ticker: string;
  date: string;
  /** Unix ms: the first time included. */
  offsetMs?: number;
  limit: number;
}

/** A v2 stock trade: upstream's one-letter keys, times in ns. */
export interface V2Trade {
  /** The ticker, on every row as upstream's v2 ticks carry it. */
  T: string;
  t: bigint;
  y?: bigint;
  f?: bigint;
  q?: bigint;
  c?: number[];
  i?: string;
  p: number;
  s: number;
  e?: number;
  x: number;
  r?: number;
  z?: number;
}

/** A v2 NBBO quote: lower case = bid, upper case = ask. */
export interface V2Quote {
  /** The ticker, on every row as upstream's v2 ticks carry it. */
  T: string;
  t?: bigint;
  y?: bigint;
  f?: bigint;
  q?: bigint;
  c?: number[];
  i?: number[];
  p: number;
  s?: number;
  x?: number;
  P: number;
  S?: number;
  X?: number;
  z?: number;
}

export interface HistoricForexTick {
  a: number;
  b: number;
  x?: number;
  t: number;
}

export interface HistoricCryptoTick {
  p: number;
  s: number;
  x: number;
  c?: number[];
  i?: string;
  t: number;
}

export const V2_TRADE_MAP = {
  I: { name: 'orig_id', type: 'string' }, c: { name: 'conditions', type: 'int' }, e: { name: 'correction', type: 'int' },
  f: { name: 'trf_timestamp', type: 'int64' }, i: { name: 'id', type: 'string' }, p: { name: 'price', type: 'float64' },
  q: { name: 'sequence_number', type: 'int64' }, r: { name: 'trf_id', type: 'int' }, s: { name: 'size', type: 'int' },
  t: { name: 'sip_timestamp', type: 'int64' }, x: { name: 'exchange', type: 'int' }, y: { name: 'participant_timestamp', type: 'int64' },
  z: { name: 'tape', type: 'int' },
};

export const V2_QUOTE_MAP = {
  P: { name: 'ask_price', type: 'float64' }, S: { name: 'ask_size', type: 'int' }, X: { name: 'ask_exchange', type: 'int' },
  c: { name: 'conditions', type: 'int' }, f: { name: 'trf_timestamp', type: 'int64' }, i: { name: 'indicators', type: 'int' },
  p: { name: 'bid_price', type: 'float64' }, q: { name: 'sequence_number', type: 'int' }, s: { name: 'bid_size', type: 'int' },
  t: { name: 'sip_timestamp', type: 'int64' }, x: { name: 'bid_exchange', type: 'int' }, y: { name: 'participant_timestamp', type: 'int64' },
  z: { name: 'tape', type: 'int' },
};

export const HISTORIC_FOREX_MAP = { a: 'ask', b: 'bid', t: 'timestamp', x: 'exchange' };
export const HISTORIC_CRYPTO_MAP = { c: 'conditions', i: 'id', p: 'price', s: 'size', t: 'timestamp', x: 'exchange' };

const nonEmpty = <T>(list: T[] | undefined) => (list && list.length ? list : undefined);

function v2Trade(r: TradeRow): V2Trade {
  return {
    T: r.ticker, t: r.sip_timestamp, y: r.participant_timestamp, f: r.trf_timestamp, q: r.sequence_number, c: nonEmpty(r.conditions), i: r.id,
    p: r.price, s: r.size, e: r.correction, x: r.exchange, r: r.trf_id, z: r.tape,
  };
}

function v2Quote(r: QuoteRow): V2Quote {
  return {
    T: r.ticker, t: r.sip_timestamp, y: r.participant_timestamp, f: r.trf_timestamp, q: r.sequence_number, c: nonEmpty(r.conditions), i: nonEmpty(r.indicators),
    p: r.bid_price, s: r.bid_size, x: r.bid_exchange, P: r.ask_price, S: r.ask_size, X: r.ask_exchange, z: r.tape,
  };
}

/** Unix ms of a tick's time key (the time the store orders and filters it on). */
const tickMs = (p: PagedTick<unknown>) => Number(BigInt(p.position.ts) / NS_PER_MS);

/** [start, end) in ns of a calendar day in `zone`; a 400 naming `date` when it is not one. */
function dayBounds(date: string, zone: Zone): { gte: bigint; lt: bigint } {
  const day = parseDate(date);
  if (day === null) throw badParameter('date must be a date in the form YYYY-MM-DD');
  return { gte: BigInt(localDayStart(day, zone)) * NS_PER_MS, lt: BigInt(localDayStart(day + 1, zone)) * NS_PER_MS };
}

export class LegacyTickService {
  constructor(private readonly market: Pick<MarketDataPort, 'readTrades' | 'readQuotes'>) {}

  v2Trades(q: V2TickQuery, w: TickWindowLimits): Promise<LegacyTickPage<V2Trade>> {
    return this.v2(q, w, (range) => this.market.readTrades(range), (p) => v2Trade(p.row));
  }

  v2Quotes(q: V2TickQuery, w: TickWindowLimits): Promise<LegacyTickPage<V2Quote>> {
    return this.v2(q, w, (range) => this.market.readQuotes(range), (p) => v2Quote(p.row));
  }

  historicForex(q: HistoricQuery, w: TickWindowLimits): Promise<LegacyTickPage<HistoricForexTick>> {
    return this.historic(q, w, (range) => this.market.readQuotes(range), (p) => ({ a: p.row.ask_price, b: p.row.bid_price, x: p.row.bid_exchange ?? p.row.ask_exchange, t: tickMs(p) }));
  }

  historicCrypto(q: HistoricQuery, w: TickWindowLimits): Promise<LegacyTickPage<HistoricCryptoTick>> {
    return this.historic(q, w, (range) => this.market.readTrades(range), (p) => ({
      p: p.row.price, s: p.row.size, x: p.row.exchange, c: p.row.conditions ?? [], i: p.row.id, t: tickMs(p),
    }));
  }

  private async v2<R, W>(q: V2TickQuery, w: TickWindowLimits, read: (r: TickRange) => Promise<PagedTick<R>[]>, wire: (p: PagedTick<R>) => W): Promise<LegacyTickPage<W>> {
    let { gte, lt } = dayBounds(q.date, 'America/New_York');
    if (q.timestampLimit !== undefined && q.timestampLimit + 1n < lt) lt = q.timestampLimit + 1n;
    if (q.timestamp !== undefined) {
      if (q.reverse && q.timestamp + 1n < lt) lt = q.timestamp + 1n;
      if (!q.reverse && q.timestamp > gte) gte = q.timestamp;
    }
    return this.page(q.ticker, gte, lt, q.reverse ? 'desc' : 'asc', q.limit, w, read, wire);
  }

  private async historic<R, W>(q: HistoricQuery, w: TickWindowLimits, read: (r: TickRange) => Promise<PagedTick<R>[]>, wire: (p: PagedTick<R>) => W): Promise<LegacyTickPage<W>> {
    let { gte, lt } = dayBounds(q.date, 'UTC');
    if (q.offsetMs !== undefined) {
      const from = BigInt(q.offsetMs) * NS_PER_MS;
      if (from > gte) gte = from;
    }
    return this.page(q.ticker, gte, lt, 'asc', q.limit, w, read, wire);
  }

  private async page<R, W>(
    ticker: string, gte0: bigint, lt0: bigint, order: 'asc' | 'desc', limit: number, w: TickWindowLimits,
    read: (r: TickRange) => Promise<PagedTick<R>[]>, wire: (p: PagedTick<R>) => W,
  ): Promise<LegacyTickPage<W>> {
    const { cut, ...narrowed } = narrowNsRange(gte0, lt0, w);
    const gte = narrowed.gte ?? gte0;
    const lt = narrowed.lt ?? lt0;
    const started = performance.now();
    const rows = gte < lt ? await read({ ticker, gte, lt, order, limit }) : [];
    return { rows: rows.map(wire), latencyMs: Math.round(performance.now() - started), cut };
  }
}
