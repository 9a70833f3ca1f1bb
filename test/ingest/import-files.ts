// Flat files for the import tests, written to a temporary directory.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const MINUTE_HEADER = 'ticker,volume,open,close,high,low,window_start,transactions';
export const TRADES_HEADER = 'ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size,tape,trf_id,trf_timestamp';
export const FOREX_QUOTES_HEADER = 'ticker,ask_exchange,ask_price,bid_exchange,bid_price,participant_timestamp';

/** 2024-03-08 04:00 ET (pre-market open) in ns. */
export const PREMARKET_NS = 1_709_888_400_000_000_000n;

/** `count` minute bars of `tickers`, one per minute from 04:00 ET on 2024-03-08. */
export function minuteLines(count: number, tickers = ['AAPL', 'MSFT']): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const ticker = tickers[i % tickers.length]!;
    const minute = BigInt(Math.floor(i / tickers.length));
    const p = 100 + (i % 7);
    lines.push(`${ticker},${1000 + i},${p},${p + 0.5},${p + 1},${p - 1},${PREMARKET_NS + minute * 60_000_000_000n},${10 + (i % 5)}`);
  }
  return lines;
}

/** `count` AAPL trades, one per microsecond, with nanosecond times above 2^53. */
export function tradeLines(count: number, ticker = 'AAPL'): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const sip = PREMARKET_NS + 123n + BigInt(i) * 1000n;
    lines.push(`${ticker},"12,37",,4,${50_000 + i},${sip - 77n},${(190 + (i % 100) / 100).toFixed(2)},${1000 + i},${sip},${i % 3 === 0 ? '0.5' : '100'},3,,`);
  }
  return lines;
}

export class TempDir {
  readonly root = mkdtempSync(join(tmpdir(), 'tb-import-'));

  /** Writes header + lines (gzipped when the name ends in .gz); returns the full path. */
  write(name: string, header: string, lines: readonly string[]): string {
    const path = join(this.root, name);
    mkdirSync(dirname(path), { recursive: true });
    const text = `${header}\n${lines.join('\n')}\n`;
    writeFileSync(path, name.endsWith('.gz') ? gzipSync(text) : text);
    return path;
  }

  writeRaw(name: string, data: string | Buffer): string {
    const path = join(this.root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    return path;
  }

  path(name: string): string {
    return join(this.root, name);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
