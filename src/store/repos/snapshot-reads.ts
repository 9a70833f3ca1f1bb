// Batched reads over the market-data tables (schema: migrations/<engine>/0100_market_data.sql) for snapshots:
// one statement per chunk of tickers instead of one per ticker, so a 10,000-ticker snapshot costs a
// few dozen queries. "Latest row per ticker" is a correlated LIMIT 1 probe on each ticker's
// primary-key range, which both engines answer with one index seek per ticker.
import type { BarRow, QuoteRow, TradeRow } from '../../domain/market-records.js';
import type { SqlDriver, SqlValue } from '../driver.js';
import { toNumber, toOptionalNumber } from '../driver.js';
import { barFromRow, quoteFromRow, tradeFromRow } from './market.js';

/** Tickers per statement: well under both engines' parameter limits. */
const CHUNK = 500;

const BAR_COLUMNS = 'ticker, t, o, h, l, c, v, vw, n';
const TRADE_COLUMNS = `pk, ticker, sip_timestamp, sequence_number, exchange, id, price, size,
  participant_timestamp, trf_timestamp, conditions, correction, tape, trf_id`;
const QUOTE_COLUMNS = `pk, ticker, ts, sequence_number, ts_is_sip, participant_timestamp, trf_timestamp,
  ask_price, ask_size, ask_exchange, bid_price, bid_size, bid_exchange, conditions, indicators, tape`;

/** Which tickers a market's snapshot covers, told apart by symbol prefix (C: forex, X: crypto, none: stocks). */
export type SnapshotMarket = 'stocks' | 'fx' | 'crypto';

const MARKET_FILTER: Record<SnapshotMarket, string> = {
  // A stock symbol never has ':' as its second character; every prefixed class does.
  stocks: "ticker NOT LIKE '_:%'",
  fx: "ticker LIKE 'C:%'",
  crypto: "ticker LIKE 'X:%'",
};

/** `WITH k(ticker) AS (VALUES (?), ...)`: the chunk's tickers as a table both engines can join. */
function tickerTable(n: number): string {
  return `WITH k(ticker) AS (VALUES ${Array(n).fill('(?)').join(', ')})`;
}

async function byChunk<T>(
  tickers: readonly string[],
  run: (chunk: string[]) => Promise<T[]>,
  key: (row: T) => string,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for (let i = 0; i < tickers.length; i += CHUNK) {
    for (const row of await run(tickers.slice(i, i + CHUNK))) out.set(key(row), row);
  }
  return out;
}

export class SnapshotReadRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Tickers of a market with a day bar starting in [fromMs, toMs), ascending. */
  async tickersWithDayBars(market: SnapshotMarket, fromMs: number, toMs: number): Promise<string[]> {
    const rows = await this.db.all(
      `SELECT DISTINCT ticker FROM day_bars WHERE t >= ? AND t < ? AND ${MARKET_FILTER[market]} ORDER BY ticker`,
      [fromMs, toMs],
    );
    return rows.map((r) => String(r.ticker));
  }

  /** Each ticker's day bar starting exactly at `t`. */
  dayBarsAt(tickers: readonly string[], t: number): Promise<Map<string, BarRow>> {
    return byChunk(
      tickers,
      async (chunk) =>
        (await this.db.all(`SELECT ${BAR_COLUMNS} FROM day_bars WHERE t = ? AND ticker IN (${chunk.map(() => '?').join(', ')})`, [t, ...chunk])).map(barFromRow),
      (b) => b.ticker,
    );
  }

  /** Each ticker's latest day bar starting strictly before `beforeMs` (the previous session). */
  lastDayBarsBefore(tickers: readonly string[], beforeMs: number): Promise<Map<string, BarRow>> {
    return this.latestBars('day_bars', tickers, beforeMs);
  }

  /** Each ticker's latest minute bar starting in [fromMs, beforeMs). */
  lastMinuteBars(tickers: readonly string[], fromMs: number, beforeMs: number): Promise<Map<string, BarRow>> {
    return this.latestBars('minute_bars', tickers, beforeMs, fromMs);
  }

  private latestBars(table: string, tickers: readonly string[], beforeMs: number, fromMs?: number): Promise<Map<string, BarRow>> {
    const lower = fromMs === undefined ? '' : ' AND x.t >= ?';
    return byChunk(
      tickers,
      async (chunk) => {
        const params: SqlValue[] = [...chunk, beforeMs];
        if (fromMs !== undefined) params.push(fromMs);
        const rows = await this.db.all(
          `${tickerTable(chunk.length)}
           SELECT b.ticker, b.t, b.o, b.h, b.l, b.c, b.v, b.vw, b.n FROM k
           JOIN ${table} b ON b.ticker = k.ticker
            AND b.t = (SELECT x.t FROM ${table} x WHERE x.ticker = k.ticker AND x.t < ?${lower} ORDER BY x.t DESC LIMIT 1)`,
          params,
        );
        return rows.map(barFromRow);
      },
      (b) => b.ticker,
    );
  }

  /** Each ticker's earliest minute bar start in [fromMs, beforeMs); tickers without one are absent. */
  async firstMinuteBarTimes(tickers: readonly string[], fromMs: number, beforeMs: number): Promise<Map<string, number>> {
    const found = await byChunk(
      tickers,
      async (chunk) =>
        (
          await this.db.all(
            `${tickerTable(chunk.length)}
             SELECT k.ticker, (SELECT x.t FROM minute_bars x WHERE x.ticker = k.ticker AND x.t >= ? AND x.t < ? ORDER BY x.t LIMIT 1) AS t FROM k`,
            [...chunk, fromMs, beforeMs],
          )
        )
          .filter((r) => r.t !== null && r.t !== undefined)
          .map((r) => ({ ticker: String(r.ticker), t: toNumber(r.t) })),
      (r) => r.ticker,
    );
    return new Map([...found].map(([ticker, r]) => [ticker, r.t]));
  }

  /**
   * Each ticker's minute bars starting in [fromMs, beforeMs) folded into one bar the way the
   * aggregation does (o first, c last, h max, l min, v and n sums, vw = Σ(vw·v)/Σv over the bars
   * that carry vw); `t` is the first minute's start.
   */
  minuteAggregates(tickers: readonly string[], fromMs: number, beforeMs: number): Promise<Map<string, BarRow>> {
    return byChunk(
      tickers,
      async (chunk) => {
        const rows = await this.db.all(
          `${tickerTable(chunk.length)},
           agg AS (
             SELECT m.ticker, MIN(m.t) AS t0, MAX(m.t) AS t1, MAX(m.h) AS h, MIN(m.l) AS l,
                    SUM(m.v) AS v, SUM(m.n) AS n,
                    SUM(CASE WHEN m.vw IS NOT NULL AND m.v > 0 THEN m.vw * m.v END) AS pv,
                    SUM(CASE WHEN m.vw IS NOT NULL AND m.v > 0 THEN m.v END) AS wv
             FROM k JOIN minute_bars m ON m.ticker = k.ticker
             WHERE m.t >= ? AND m.t < ?
             GROUP BY m.ticker)
           SELECT agg.ticker, agg.t0, agg.h, agg.l, agg.v, agg.n, agg.pv, agg.wv, f.o, z.c
           FROM agg
           JOIN minute_bars f ON f.ticker = agg.ticker AND f.t = agg.t0
           JOIN minute_bars z ON z.ticker = agg.ticker AND z.t = agg.t1`,
          [...chunk, fromMs, beforeMs],
        );
        return rows.map((r): BarRow => {
          const pv = toOptionalNumber(r.pv);
          const wv = toOptionalNumber(r.wv);
          return {
            ticker: String(r.ticker),
            t: toNumber(r.t0),
            o: toNumber(r.o),
            h: toNumber(r.h),
            l: toNumber(r.l),
            c: toNumber(r.c),
            v: toOptionalNumber(r.v),
            vw: pv !== undefined && wv ? pv / wv : undefined,
            n: toOptionalNumber(r.n),
          };
        });
      },
      (b) => b.ticker,
    );
  }

  /** Each ticker's latest trade at or before `atNs` (ties: highest sequence number, then latest stored). */
  lastTrades(tickers: readonly string[], atNs: bigint): Promise<Map<string, TradeRow>> {
    return byChunk(
      tickers,
      async (chunk) =>
        (
          await this.db.all(
            `${tickerTable(chunk.length)}
             SELECT ${TRADE_COLUMNS} FROM trades WHERE pk IN (
               SELECT (SELECT x.pk FROM trades x WHERE x.ticker = k.ticker AND x.sip_timestamp <= ?
                       ORDER BY x.sip_timestamp DESC, x.sequence_number DESC, x.pk DESC LIMIT 1) FROM k)`,
            [...chunk, atNs],
            { bigint: true },
          )
        ).map(tradeFromRow),
      (r) => r.ticker,
    );
  }

  /** Each ticker's latest quote at or before `atNs` (same tie rule as trades). */
  lastQuotes(tickers: readonly string[], atNs: bigint): Promise<Map<string, QuoteRow>> {
    return byChunk(
      tickers,
      async (chunk) =>
        (
          await this.db.all(
            `${tickerTable(chunk.length)}
             SELECT ${QUOTE_COLUMNS} FROM quotes WHERE pk IN (
               SELECT (SELECT x.pk FROM quotes x WHERE x.ticker = k.ticker AND x.ts <= ?
                       ORDER BY x.ts DESC, x.sequence_number DESC, x.pk DESC LIMIT 1) FROM k)`,
            [...chunk, atNs],
            { bigint: true },
          )
        ).map(quoteFromRow),
      (r) => r.ticker,
    );
  }

  /** Current tickers of the OTC market (reference data), for include_otc. */
  async otcTickers(): Promise<Set<string>> {
    const rows = await this.db.all("SELECT DISTINCT ticker FROM tickers WHERE market = 'otc' AND valid_to IS NULL");
    return new Set(rows.map((r) => String(r.ticker)));
  }
}
