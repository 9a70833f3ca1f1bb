// Upstream calls per day of minute bars back-filled by `sync rest`, against the fewest paging
// allows: upstream's aggregates give at most 50,000 base bars a page, so a ticker's range of N
// minute bars takes at least ceil(N / 50,000) calls however it is cut. Target: ratio 1.00 (the
// minimum). Also printed: the calls a day-by-day fetch would make, the time the run's calls take
// at the free tier's 5/min, and the rows stored per second (SQLite, this machine).
//
// The fake upstream runs in its own process (bench/targets/fake-upstream.ts) and counts the
// requests it gets. BENCH_TICKERS (default 2) and BENCH_FROM / BENCH_TO (default 2026-06-01 to
// 2026-11-30) set the size.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tradingDaysBetween } from '../src/domain/calendar.js';
import { planBackfill, runBackfill } from '../src/ingest/rest-backfill.js';
import { openStore } from '../src/store/index.js';
import { UpstreamCallTally } from '../src/upstream/call-tally.js';
import { parseRate, RateBudget } from '../src/upstream/rate-budget.js';
import { UpstreamRestClient } from '../src/upstream/rest-client.js';
import { startChild } from './lib.js';

const TICKERS = Array.from({ length: Number(process.env.BENCH_TICKERS ?? 2) }, (_, i) => `BENCH${i}`);
const FROM = process.env.BENCH_FROM ?? '2026-06-01';
const TO = process.env.BENCH_TO ?? '2026-11-30';
const MINUTES_PER_DAY = 960;
const PAGE = 50_000;

const upstream = await startChild('bench/targets/fake-upstream.ts', []);
const dir = mkdtempSync(join(tmpdir(), 'tb-bench-sync-'));
const store = await openStore({ dataDir: dir });
try {
  const now = () => Date.parse(`${TO}T12:00:00Z`) + 2 * 86_400_000;
  const tally = new UpstreamCallTally();
  const client = new UpstreamRestClient({ baseUrl: upstream.url, key: 'bench-key', onEvent: tally.onEvent });
  const plan = await planBackfill(store, { datasets: ['aggs-minute'], tickers: TICKERS, allTickers: false, from: FROM, to: TO, now });
  const started = performance.now();
  const summary = await runBackfill(store, client, plan, { now, tally, log: () => {} });
  const seconds = (performance.now() - started) / 1000;
  const served = ((await (await fetch(`${upstream.url}/__calls`)).json()) as { calls: number }).calls;

  const days = tradingDaysBetween(FROM, TO).length;
  const tickerDays = days * TICKERS.length;
  const minimum = TICKERS.length * Math.ceil((days * MINUTES_PER_DAY) / PAGE);
  const budget = new RateBudget(parseRate('5/min'));
  console.log(`${TICKERS.length} tickers × ${days} trading days (${FROM} to ${TO}), ${summary.rows.toLocaleString('en-US')} minute bars stored, failures: ${summary.failures.length}`);
  console.log(`upstream calls: ${served} (client counted ${summary.calls}); fewest paging allows: ${minimum}; ratio ${(served / minimum).toFixed(2)} (target 1.00)`);
  console.log(`calls per ticker-day: ${(served / tickerDays).toFixed(4)} (a day-by-day fetch: 1.0000, ${(tickerDays / served).toFixed(1)}x more calls)`);
  console.log(`at the free tier's 5/min these calls take about ${Math.round(budget.secondsFor(served) / 60)} min; a day-by-day fetch ${Math.round(budget.secondsFor(tickerDays) / 60)} min`);
  console.log(`stored ${Math.round(summary.rows / seconds).toLocaleString('en-US')} bars/s (SQLite, fake upstream on loopback; CPU shared with other work, so indicative only)`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  await upstream.stop();
}
