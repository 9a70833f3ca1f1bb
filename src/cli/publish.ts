// `tickerbase publish FILE|-`: streams NDJSON events or a trades/quotes flat-file CSV (optionally
// .gz) to a server's POST /admin/publish, in batches of lines (the CSV header repeated on each),
// and reports a refused line by its line number in the file.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Command, Option } from 'commander';
import { parseIntFlag } from './options.js';

interface PublishFlags {
  url: string;
  adminToken?: string;
  market?: string;
  batchLines: number;
  timeout: number;
}

export function publishCommand(): Command {
  return new Command('publish')
    .description('send events to the WebSocket feed of a running server (NDJSON events, or a trades/quotes CSV); "-" reads stdin')
    .argument('<file>', 'NDJSON or CSV file (.gz allowed), or - for stdin')
    .addOption(new Option('--url <url>', 'base URL of the server').env('TICKERBASE_URL').default('http://127.0.0.1:8080'))
    .addOption(new Option('--admin-token <token>', 'the server\'s admin token').env('TICKERBASE_ADMIN_TOKEN'))
    .addOption(new Option('--market <market>', 'market of NDJSON events whose symbol does not say it (futures)').choices(['stocks', 'options', 'forex', 'crypto', 'indices', 'futures']))
    .addOption(new Option('--batch-lines <n>', 'lines per request').default(5000).argParser(parseIntFlag('--batch-lines', 1, 1_000_000)))
    .addOption(new Option('--timeout <seconds>', 'deadline of each request').default(30).argParser(parseIntFlag('--timeout', 1, 3600)))
    .action(async (file: string, opts: PublishFlags) => {
      if (!opts.adminToken) throw new Error('--admin-token (or TICKERBASE_ADMIN_TOKEN) is required');
      if (!/^https?:\/\/[^/]+/.test(opts.url)) throw new Error(`--url must be an absolute http(s) URL, got ${opts.url}`);
      const totals = await publishFile(file, opts);
      process.stderr.write(`published ${totals.events} events (${totals.trades} trades and ${totals.quotes} quotes stored)\n`);
    });
}

function input(file: string): Readable {
  const raw = file === '-' ? process.stdin : createReadStream(file);
  return file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
}

async function publishFile(file: string, opts: PublishFlags): Promise<{ events: number; trades: number; quotes: number }> {
  const name = file === '-' ? 'stdin' : file;
  const totals = { events: 0, trades: 0, quotes: 0 };
  const endpoint = `${opts.url.replace(/\/+$/, '')}/admin/publish${opts.market ? `?market=${opts.market}` : ''}`;
  let header: string | undefined; // CSV: sent first in every batch
  let mode: 'ndjson' | 'csv' | undefined;
  let batch: string[] = [];
  let batchFirstLine = 0; // file line of batch[0]
  let lineNo = 0;

  const send = async () => {
    if (batch.length === 0) return;
    const body = (header !== undefined ? [header, ...batch] : batch).join('\n') + '\n';
    const offset = batchFirstLine - (header !== undefined ? 2 : 1); // body line n is file line n + offset
    batch = [];
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.adminToken}`, 'content-type': mode === 'csv' ? 'text/csv' : 'application/x-ndjson' },
        body,
        signal: AbortSignal.timeout(opts.timeout * 1000),
      });
    } catch (err) {
      throw new Error(`cannot reach ${endpoint}: ${(err as Error).message}`);
    }
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown> & { data?: Record<string, unknown> };
    const inner = (answer.data ?? answer) as Record<string, unknown>;
    if (!res.ok) {
      const message = String(inner.message ?? inner.error ?? `HTTP ${res.status}`).replace(/line (\d+)/, (_m, n: string) => `${name}:${Number(n) + offset}`);
      throw new Error(`${message} (nothing from that batch was published; ${totals.events} events before it were)`);
    }
    totals.events += Number(inner.events ?? 0);
    totals.trades += Number(inner.trades_stored ?? 0);
    totals.quotes += Number(inner.quotes_stored ?? 0);
  };

  const lines = createInterface({ input: input(file), crlfDelay: Infinity });
  for await (const line of lines) {
    lineNo++;
    if (mode === undefined) {
      if (line.trim() === '') continue;
      mode = line.trimStart().startsWith('{') ? 'ndjson' : 'csv';
      if (mode === 'csv') {
        header = line;
        continue;
      }
    }
    if (batch.length === 0) batchFirstLine = lineNo;
    batch.push(line);
    if (batch.length >= opts.batchLines) await send();
  }
  await send();
  if (mode === undefined) throw new Error(`${name} is empty`);
  return totals;
}
