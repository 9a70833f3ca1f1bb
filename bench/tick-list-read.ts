// How long reading a ticker's kept trades (services/tick-lists.ts) holds the event loop, on each
// engine: the list of the newest 60,000 trades is read whole (as at a first large page, and on
// PostgreSQL again whenever the import version moves) while the loop's longest delay is measured
// (perf_hooks.monitorEventLoopDelay, 1 ms resolution). Goal ("the event loop belongs to the feed"): no request holds the loop for more than
// a few ms; printed against 5 ms. The read runs in this process (the store's own reader thread on
// SQLite), nothing else loads the machine.
// BENCH_ROUNDS (default 5), BENCH_ENGINES (sqlite,postgres: PostgreSQL when DATABASE_URL is set).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TradeRow } from '../src/domain/market-records.js';
import { TickLists } from '../src/services/tick-lists.js';
import { openStore, type Store } from '../src/store/index.js';
import { benchDatabase } from './wrk-servers.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const onlyEngines = process.env.BENCH_ENGINES?.split(',');
const TICKER = 'LISTBENCH';
const ROWS = 60_000;
const GOAL_MS = 5;
const STOCK = { crypto: false, decimalSize: true };

async function fill(store: Store): Promise<void> {
  const t0 = 1_765_000_000_000_000_000n;
  const have = await store.market.readTradesJsonPage({ ticker: TICKER, order: 'desc', limit: 2 }, STOCK);
  if (have && have.count > 0) return; // kept from an earlier run (PostgreSQL)
  for (let from = 0; from < ROWS; from += 10_000) {
    const rows: TradeRow[] = [];
    for (let i = from; i < from + 10_000; i++) {
      rows.push({ ticker: TICKER, sip_timestamp: t0 + BigInt(i) * 1_000_000n, participant_timestamp: t0 + BigInt(i) * 1_000_000n - 500n, price: 100 + (i % 500) / 100, size: 1 + (i % 300), exchange: 4, id: String(i), conditions: [12, 37], sequence_number: BigInt(i), tape: 3 });
    }
    await store.market.insertTrades(rows);
  }
}

async function measure(name: string, store: Store): Promise<void> {
  await fill(store);
  const delays: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    const lists = new TickLists(store.market, { importVersion: () => `round ${round}`, listen: () => () => {} });
    await lists.want(TICKER, STOCK);
    const page = await lists.page({ ticker: TICKER, order: 'desc', limit: 50_001 }, STOCK);
    const took = performance.now() - started;
    await new Promise((r) => setTimeout(r, 20));
    delay.disable();
    const worst = delay.max / 1e6;
    lists.close();
    if (page?.count !== 50_000) throw new Error(`expected a page of 50,000 trades from the list, got ${page?.count}`);
    delays.push(worst);
    console.log(`  round ${round + 1}: list read and first page in ${took.toFixed(0)} ms, longest loop delay ${worst.toFixed(1)} ms`);
  }
  const sorted = [...delays].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`${name}: longest loop delay while reading a list of ${ROWS.toLocaleString('en-US')} trades, median of ${ROUNDS} rounds ${median.toFixed(1)} ms, worst ${sorted[sorted.length - 1]!.toFixed(1)} ms (goal ${GOAL_MS} ms: ${(median / GOAL_MS).toFixed(2)}x)`);
}

const wanted = (e: string) => !onlyEngines || onlyEngines.includes(e);
if (wanted('sqlite')) {
  const dir = mkdtempSync(join(tmpdir(), 'tb-bench-list-'));
  const store = await openStore({ dataDir: dir });
  try {
    await measure('sqlite', store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
if (wanted('postgres')) {
  if (!process.env.DATABASE_URL) console.log('postgres: skipped (DATABASE_URL is not set)');
  else {
    const store = await openStore({ databaseUrl: await benchDatabase(process.env.DATABASE_URL) });
    try {
      await measure('postgres', store);
    } finally {
      await store.close();
    }
  }
}
