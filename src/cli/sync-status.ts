// `tickerbase sync status`: what the ledger holds (covered, partial, failed per data set) and the
// upstream calls made, refused with 429 and failed, by `sync rest` and read-through together.
import { Command } from 'commander';
import type { Store } from '../store/index.js';
import { openStoreFromFlags, withStoreOptions, type StoreFlags } from './options.js';

export async function syncStatusText(store: Store): Promise<string> {
  const counters = await store.upstreamLedger.counters();
  const summary = await store.upstreamLedger.summary();
  const lines = [
    `upstream calls: ${counters.calls.toLocaleString('en-US')} made, ${counters.refused.toLocaleString('en-US')} refused (429), ${counters.failed.toLocaleString('en-US')} failed; ${counters.rows.toLocaleString('en-US')} records stored`,
  ];
  if (summary.length === 0) lines.push('nothing fetched from upstream yet');
  else {
    lines.push('data set        status    units  tickers  records     calls  days                     last');
    for (const s of summary) {
      const days = s.firstDay ? `${s.firstDay}..${s.lastDay}` : '(undated)';
      lines.push(
        `${s.dataset.padEnd(15)} ${s.status.padEnd(9)} ${String(s.units).padStart(5)}  ${String(s.tickers).padStart(7)}  ${String(s.rows).padStart(9)}  ${String(s.calls).padStart(6)}  ${days.padEnd(23)}  ${s.lastUpdatedUtc}`,
      );
    }
  }
  const failed = await store.upstreamLedger.list({ failing: true, limit: 20 });
  if (failed.length > 0) {
    lines.push('failed (newest first):');
    for (const f of failed) lines.push(`  ${f.dataset} ${f.ticker}${f.from ? ` ${f.from}..${f.to}` : ''}: ${f.error ?? ''}`);
  }
  return `${lines.join('\n')}\n`;
}

export function syncStatusCommand(): Command {
  return withStoreOptions(new Command('status').description('what was fetched from upstream, what is covered, and the upstream calls made and refused'))
    .option('--json', 'print JSON', false)
    .action(async (opts: StoreFlags & { json: boolean }) => {
      const store = await openStoreFromFlags(opts);
      try {
        if (opts.json) {
          const body = { counters: await store.upstreamLedger.counters(), datasets: await store.upstreamLedger.summary(), failed: await store.upstreamLedger.list({ failing: true, limit: 100 }) };
          process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
        } else process.stdout.write(await syncStatusText(store));
      } finally {
        await store.close();
      }
    });
}
