// Snapshots over HTTP (server in its own process, SQLite):
//  - the full-market stocks snapshot over 10,000 tickers (each with a previous and a current day
//    bar, a minute bar, a last trade and a last quote), after the close (stored day bars) and
//    mid-session (day folded from minute bars);
//  - gainers over the same market;
//  - a 250-contract option chain with implied volatility and greeks.
// Prints sequential p50/p99 latency and requests/s under load (autocannon), and, for the full
// market, the store reads batched (what the endpoint does) against one query per ticker and
// input (N+1), the design it replaces.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bsPrice, yearFraction } from '../src/domain/greeks.js';
import { formatOptionTicker } from '../src/domain/option-symbol.js';
import type { BarRow, QuoteRow, TradeRow } from '../src/domain/market-records.js';
import { readSnapshotInputs, snapshotUniverse } from '../src/services/snapshots.js';
import { openStore, type Store } from '../src/store/index.js';
import type { OptionsContractRecord } from '../src/store/repos/options.js';
import { fmt, load, serveStore, startChild } from './lib.js';
import { sqlOf } from '../src/store/inspect.js';

const TICKERS = Number(process.env.BENCH_TICKERS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DAY = '2026-11-20';
const PREV_START = Date.parse('2026-11-19T05:00:00Z');
const DAY_START = Date.parse('2026-11-20T05:00:00Z');
const AFTER_CLOSE = Date.parse('2026-11-21T02:00:00Z'); // 21:00 ET
const MID_SESSION = Date.parse('2026-11-20T17:00:00Z'); // 12:00 ET
const NS = 1_000_000n;

function rng(seed: number): () => number {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

async function seedMarket(store: Store): Promise<void> {
  const r = rng(7);
  const day: BarRow[] = [];
  const minute: BarRow[] = [];
  const trades: TradeRow[] = [];
  const quotes: QuoteRow[] = [];
  for (let i = 0; i < TICKERS; i++) {
    const ticker = `T${String(i).padStart(5, '0')}`;
    const prev = 10 + r() * 300;
    const c = Math.round(prev * (1 + (r() - 0.5) * 0.2) * 100) / 100;
    const v = Math.floor(1000 + r() * 2e6);
    day.push({ ticker, t: PREV_START, o: prev, h: prev * 1.02, l: prev * 0.98, c: prev, v: v * 1.1, vw: prev, n: 500 });
    day.push({ ticker, t: DAY_START, o: prev, h: Math.max(prev, c) * 1.01, l: Math.min(prev, c) * 0.99, c, v, vw: (prev + c) / 2, n: 400 });
    const mt = Date.parse('2026-11-20T16:30:00Z'); // 11:30 ET
    minute.push({ ticker, t: mt, o: c, h: c * 1.001, l: c * 0.999, c, v: Math.floor(v / 2), vw: c, n: 3 });
    const ns = BigInt(mt + 30_000) * NS + BigInt(i);
    trades.push({ ticker, sip_timestamp: ns, participant_timestamp: ns - 1000n, price: c, size: 100, exchange: 4, id: String(i), sequence_number: BigInt(i), tape: 3 });
    quotes.push({ ticker, sip_timestamp: ns + 5000n, participant_timestamp: ns, bid_price: c - 0.01, ask_price: c + 0.01, bid_size: 3, ask_size: 4, bid_exchange: 11, ask_exchange: 12, sequence_number: BigInt(i), tape: 3 });
  }
  await store.market.insertBars('day', day);
  await store.market.insertBars('minute', minute);
  await store.market.insertTrades(trades);
  await store.market.insertQuotes(quotes);
}

/** 250 contracts on BNCH (5 expirations × 25 strikes × call/put), each with bars, a quote, a trade and open interest. */
async function seedChain(store: Store): Promise<void> {
  const S = 200;
  const exps = ['2026-11-27', '2026-12-18', '2027-01-15', '2027-03-19', '2027-06-18'];
  const contracts: OptionsContractRecord[] = [];
  const day: BarRow[] = [];
  const trades: TradeRow[] = [];
  const quotes: QuoteRow[] = [];
  const at = Date.parse('2026-11-20T16:00:00Z'); // 11:00 ET: before both clocks
  await store.market.insertTrades([{ ticker: 'BNCH', sip_timestamp: BigInt(at) * NS, price: S, size: 100, exchange: 4, id: 'u', sequence_number: 1n }]);
  for (const expiration_date of exps) {
    for (let k = 0; k < 25; k++) {
      const strike = 140 + k * 5;
      for (const type of ['call', 'put'] as const) {
        const ticker = formatOptionTicker({ underlying: 'BNCH', expiration_date, contract_type: type, strike_price: strike });
        contracts.push({ ticker, underlying_ticker: 'BNCH', contract_type: type, exercise_style: 'american', expiration_date, strike_price: strike, shares_per_contract: 100, primary_exchange: 'BATO', cfi: 'OCASPS' });
        const p = bsPrice({ type, S, K: strike, T: yearFraction(at, expiration_date), r: 0.045, q: 0, sigma: 0.3 });
        day.push({ ticker, t: PREV_START, o: p, h: p * 1.05, l: p * 0.95, c: p * 0.98, v: 100, vw: p, n: 10 });
        day.push({ ticker, t: DAY_START, o: p, h: p * 1.05, l: p * 0.95, c: p, v: 80, vw: p, n: 8 });
        quotes.push({ ticker, sip_timestamp: BigInt(at) * NS + 1000n, bid_price: Math.max(0, p - 0.05), ask_price: p + 0.05, bid_size: 10, ask_size: 10, sequence_number: 1n });
        trades.push({ ticker, sip_timestamp: BigInt(at - 60_000) * NS, price: p, size: 5, exchange: 312, sequence_number: 1n, conditions: [209] });
      }
    }
  }
  await store.options.upsertContracts(contracts);
  await store.options.upsertOpenInterest(contracts.map((c, i) => ({ ticker: c.ticker, date: DAY, open_interest: 100 + i })));
  await store.market.insertBars('day', day);
  await store.market.insertTrades(trades);
  await store.market.insertQuotes(quotes);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 2; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return { p50: percentile(t, 50), p99: percentile(t, 99) };
}

/** The store reads of the full-market snapshot as one query per ticker and input. */
async function readsOneByOne(store: Store, tickers: readonly string[], nowMs: number): Promise<number> {
  let n = 0;
  const atNs = BigInt(nowMs) * NS;
  for (const ticker of tickers) {
    const [prev, day, min, trade, quote] = await Promise.all([
      store.market.lastDayBarBefore(ticker, DAY_START),
      store.market.readBars('day', { ticker, fromMs: DAY_START, toMs: DAY_START + 1, order: 'asc', limit: 1 }),
      store.market.readBars('minute', { ticker, fromMs: DAY_START, toMs: nowMs, order: 'desc', limit: 1 }),
      store.market.lastTrade(ticker, atNs),
      store.market.lastQuote(ticker, atNs),
    ]);
    if (prev || day.length || min.length || trade || quote) n++;
  }
  return n;
}

async function serve(dataDir: string, nowMs: number): Promise<void> {
  const store = await openStore({ dataDir });
  await serveStore(store, () => nowMs);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-bench-snapshots-'));
  try {
    const store = await openStore({ dataDir: dir });
    const t0 = performance.now();
    await seedMarket(store);
    await seedChain(store);
    const { key } = await store.keys.create({ plan: 'demo', label: 'bench' });
    const headers = { 'x-api-key': key };
    console.log(`snapshots over HTTP (server in its own process), SQLite; ${TICKERS.toLocaleString('en-US')} stock tickers and a 250-contract chain generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(`${RUNS} sequential requests per case for latency, then ${SECONDS} s of load at 4 connections for requests/s`);

    for (const [label, nowMs] of [['after the close', AFTER_CLOSE], ['mid-session', MID_SESSION]] as const) {
      const server = await startChild('bench/snapshots.ts', ['serve', dir, String(nowMs)]);
      const cases = [
        ['full market, 10k tickers', '/v2/snapshot/locale/us/markets/stocks/tickers'],
        ['gainers', '/v2/snapshot/locale/us/markets/stocks/gainers'],
        ['one ticker', '/v2/snapshot/locale/us/markets/stocks/tickers/T00042'],
        ['option chain, 250 contracts', '/v3/snapshot/options/BNCH?limit=250'],
      ] as const;
      console.log(`\nclock: ${label} (${new Date(nowMs).toISOString()})`);
      for (const [name, path] of cases) {
        let bytes = 0;
        let count = 0;
        const latency = await timed(RUNS, async () => {
          const res = await fetch(`${server.url}${path}`, { headers });
          const text = await res.text();
          if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
          bytes = text.length;
          const body = JSON.parse(text) as { tickers?: unknown[]; results?: Array<{ greeks?: { delta?: number } }> };
          count = body.tickers?.length ?? body.results?.filter((r) => r.greeks?.delta !== undefined).length ?? 1;
        });
        const loaded = await load(`${server.url}${path}`, { seconds: SECONDS, connections: 4, headers });
        console.log(`  ${name.padEnd(28)} ${String(count).padStart(6)} ${path.includes('options') ? 'with greeks' : 'objects    '} ${(bytes / 1024).toFixed(0).padStart(6)} KiB  p50 ${latency.p50.toFixed(1).padStart(7)} ms  p99 ${latency.p99.toFixed(1).padStart(7)} ms | ${fmt(loaded)}`);
      }
      await server.stop();

      // The same reads in process: batched as the endpoint does, against one query per ticker.
      const tickers = await snapshotUniverse(store.snapshotReads, 'stocks', nowMs);
      const batched = await timed(5, () => readSnapshotInputs(store.snapshotReads, 'stocks', tickers, nowMs));
      const oneByOne = await timed(2, () => readsOneByOne(store, tickers, nowMs));
      console.log(`  store reads for ${tickers.length} tickers: batched p50 ${batched.p50.toFixed(0)} ms, one query per ticker and input p50 ${oneByOne.p50.toFixed(0)} ms (${(oneByOne.p50 / batched.p50).toFixed(1)}x)`);
    }
    await store.close();
    if (process.env.DATABASE_URL) await postgresReads(process.env.DATABASE_URL);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The in-process read comparison on PostgreSQL, where every query is a network round trip. */
async function postgresReads(url: string): Promise<void> {
  const schema = `bench_snapshots_${process.pid}`;
  const store = await openStore({ databaseUrl: url, schema, poolSize: 8 });
  try {
    await seedMarket(store);
    console.log(`\nPostgreSQL (${url.replace(/\/\/[^@]*@/, '//')}), same ${TICKERS.toLocaleString('en-US')} tickers, in process:`);
    for (const [label, nowMs] of [['after the close', AFTER_CLOSE], ['mid-session', MID_SESSION]] as const) {
      const tickers = await snapshotUniverse(store.snapshotReads, 'stocks', nowMs);
      const batched = await timed(5, () => readSnapshotInputs(store.snapshotReads, 'stocks', tickers, nowMs));
      const oneByOne = await timed(1, () => readsOneByOne(store, tickers, nowMs));
      console.log(`  ${label}: store reads for ${tickers.length} tickers: batched p50 ${batched.p50.toFixed(0)} ms, one query per ticker and input p50 ${oneByOne.p50.toFixed(0)} ms (${(oneByOne.p50 / batched.p50).toFixed(1)}x)`);
    }
  } finally {
    await sqlOf(store).exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await store.close();
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3]!, Number(process.argv[4]));
else await main();
