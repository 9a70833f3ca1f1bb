// Upstream flat files of one day, as CSV text in upstream's layout (rows by ticker, then time):
// for the flat-file sync's tests and benchmark, which publish them in a fake bucket under keys
// like `us_stocks_sip/minute_aggs_v1/2024/03/2024-03-08.csv.gz`.
import { gzipSync } from 'node:zlib';
import { nyTime } from '../../src/domain/calendar.js';

export const MINUTE_HEADER = 'ticker,volume,open,close,high,low,window_start,transactions';
export const TRADES_HEADER = 'ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size,tape,trf_id,trf_timestamp';

/** The bucket's key of a data set's file for a day. */
export function dayKey(dataset: string, date: string): string {
  return `${dataset}/${date.slice(0, 4)}/${date.slice(5, 7)}/${date}.csv.gz`;
}

export interface MinuteDayOptions {
  tickers: readonly string[];
  /** Bars per ticker, one a minute from 04:00 ET (at most 960, to 20:00 ET). */
  minutes: number;
  /** Added to every price, to tell a republished file's rows from the first one's. */
  priceShift?: number;
}

/** Minute bars of a day: one line each, no header. */
export function minuteBarLines(date: string, opts: MinuteDayOptions): string[] {
  const start = BigInt(nyTime(date, '04:00')) * 1_000_000n;
  const lines: string[] = [];
  for (const [k, ticker] of opts.tickers.entries()) {
    for (let m = 0; m < opts.minutes; m++) {
      const p = 20 + ((k * 7919 + m * 31) % 10_000) / 100 + (opts.priceShift ?? 0);
      const t = start + BigInt(m) * 60_000_000_000n;
      lines.push(`${ticker},${1000 + m},${p.toFixed(2)},${(p + 0.05).toFixed(2)},${(p + 0.12).toFixed(2)},${(p - 0.08).toFixed(2)},${t},${1 + (m % 97)}`);
    }
  }
  return lines;
}

/** Trades of a day: `count` per ticker, one a millisecond from 09:30 ET, no header. */
export function tradeLines(date: string, tickers: readonly string[], count: number): string[] {
  const start = BigInt(nyTime(date, '09:30')) * 1_000_000n;
  const lines: string[] = [];
  for (const ticker of tickers) {
    for (let i = 0; i < count; i++) {
      const sip = start + BigInt(i) * 1_000_000n + 123n;
      lines.push(`${ticker},"12,37",,4,${50_000 + i},${sip - 77n},${(190 + (i % 100) / 100).toFixed(2)},${1000 + i},${sip},100,3,,`);
    }
  }
  return lines;
}

/** A gzipped CSV file of a header and lines. */
export function gzipCsv(header: string, lines: readonly string[]): Buffer {
  return gzipSync(`${header}\n${lines.join('\n')}\n`);
}
