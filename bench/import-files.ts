// Generated upstream flat files for the import benchmarks (bench/import.ts, bench/import-threaded.ts):
// minute aggregates and trades as CSV.gz, in upstream's layout (rows sorted by ticker, then time).
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

export const START_NS = 1_709_888_400_000_000_000n; // 2024-03-08 04:00 ET

export const MINUTE_HEADER = 'ticker,volume,open,close,high,low,window_start,transactions';
export const TRADES_HEADER =
  'ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size,tape,trf_id,trf_timestamp';

export async function writeGzip(path: string, header: string, lines: Iterable<string>): Promise<void> {
  const gz = createGzip({ level: 6 });
  const out = createWriteStream(path);
  const done = pipeline(gz, out);
  gz.write(`${header}\n`);
  let buf = '';
  for (const line of lines) {
    buf += line + '\n';
    if (buf.length > 1 << 16) {
      if (!gz.write(buf)) await new Promise((r) => gz.once('drain', r));
      buf = '';
    }
  }
  gz.end(buf);
  await done;
}

export function* minuteLines(rows: number): Generator<string> {
  const perTicker = 960; // 04:00-20:00 ET
  for (let i = 0; i < rows; i++) {
    const ticker = `T${String(Math.floor(i / perTicker)).padStart(5, '0')}`;
    const minute = BigInt(i % perTicker);
    const p = 20 + ((i * 7919) % 10_000) / 100;
    yield `${ticker},${1000 + (i % 9000)},${p.toFixed(2)},${(p + 0.05).toFixed(2)},${(p + 0.12).toFixed(2)},${(p - 0.08).toFixed(2)},${START_NS + minute * 60_000_000_000n},${1 + (i % 97)}`;
  }
}

export function* tradeLines(rows: number): Generator<string> {
  const perTicker = 20_000;
  for (let i = 0; i < rows; i++) {
    const ticker = `T${String(Math.floor(i / perTicker)).padStart(4, '0')}`;
    const k = i % perTicker;
    const sip = START_NS + BigInt(k) * 2_880_000_000n + BigInt((i * 7919) % 1000);
    const p = (100 + ((i * 104_729) % 5000) / 100).toFixed(2);
    const conditions = i % 5 === 0 ? '"12,37"' : i % 3 === 0 ? '14' : '';
    const trf = i % 4 === 0;
    yield `${ticker},${conditions},,${trf ? 4 : 1 + (i % 20)},${1_000_000 + i},${sip - 1234n},${p},${10_000 + k * 3},${sip},${i % 11 === 0 ? '0.5' : 100 * (1 + (i % 7))},3,${trf ? 202 : ''},${trf ? sip - 800n : ''}`;
  }
}
